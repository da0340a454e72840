"""What a long search shows while it runs: one progress line on stderr.

A command wraps its search in :func:`searching`, which hands the library a
progress receiver (:class:`Tally`) and, once the search has taken longer
than anyone waits without a word, shows how far it has got
(:func:`progress_line`), says when an exact answer can take long, and ends
it quietly at Ctrl-C. Standard output, and so ``--json``, stays clean.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer

from unbeatable import api

if TYPE_CHECKING:
    from unbeatable.api import Game

#: Seconds a search may take before the command shows its progress (and, for
#: an exact answer on a game timed by default, says it can take long):
#: answers from a book or on a small board come before anyone notices.
PATIENCE = 1.0

#: A progress report's receiver, as the library takes it.
ProgressReport = Callable[[api.Progress], None]


class Tally:
    """What a long search has reported so far (written by the search's
    thread, read by the display's: plain assignments, no lock needed)."""

    def __init__(self) -> None:
        self.nodes = 0
        self.window: tuple[int, int] | None = None
        #: When the first report came: the rate counts from then, not from
        #: the command's start (loading the engine is not searching).
        self.since: float | None = None

    def __call__(self, report: api.Progress) -> None:
        if self.since is None:
            self.since = time.monotonic()
        self.nodes += report.nodes
        if report.low is not None and report.high is not None:
            self.window = (report.low, report.high)


def progress_line(
    elapsed: float, nodes: int, searching: float, window: tuple[int, int] | None
) -> str:
    """The one terminal line a long search shows: elapsed time, nodes, their
    rate over the ``searching`` seconds and, while a score window narrows,
    where the score lies."""
    parts = [f"searching: {elapsed:.0f} s"]
    if nodes:
        rate = nodes / searching if searching > 0 else 0.0
        parts.append(f"{nodes:,} nodes ({rate / 1e6:.1f} M nodes/s)")
    if window is not None:
        low, high = window
        parts.append(f"score {low}" if low == high else f"score between {low} and {high}")
    return ", ".join(parts)


@contextmanager
def searching(game: Game[Any, Any], exact: bool) -> Iterator[ProgressReport]:
    """Around a search that may take a while: yields the progress receiver to
    hand to the library. Once the search has run :data:`PATIENCE` seconds
    (from the engine's first progress report: loading its book is no
    search), a terminal shows one progress line (:func:`progress_line`),
    rewritten in place on stderr and erased at the end (stdout, and so
    ``--json``, stays clean); an exact search of a game whose answers are
    timed by default first says it can take long and how to get a timed
    answer. Ctrl-C ends it with exit code 130 and one line, never a
    traceback."""
    import threading

    budget = api.default_time_limit(game)
    tally = Tally()
    done = threading.Event()
    start = time.monotonic()
    err = sys.stderr

    def watch() -> None:
        if done.wait(PATIENCE):
            return
        # An engine that reports progress and has not yet may still be
        # loading (its compiled kernel, its book): an answer from the book
        # comes then, with nothing to announce. Engines that never report
        # are announced a little later.
        while tally.since is None and time.monotonic() - start < 3 * PATIENCE:
            if done.wait(0.05):
                return
        # One that reports is announced after PATIENCE seconds of searching,
        # counted from its first report: a quick answer after a slow start
        # (two moves from the end) says nothing.
        if tally.since is not None and done.wait(tally.since + PATIENCE - time.monotonic()):
            return
        if done.is_set():
            return
        if exact and budget is not None:
            err.write(
                f"unbeatable: an exact answer on {game.name} can take long (minutes, or far "
                f"longer on a big board); --time-limit {budget:g} answers within {budget:g} s "
                "with the engine's judgement. Ctrl-C stops.\n"
            )
            err.flush()
        if not err.isatty():
            return
        while True:
            now = time.monotonic()
            searching = 0.0 if tally.since is None else now - tally.since
            line = progress_line(now - start, tally.nodes, searching, tally.window)
            err.write(f"\r{line}\033[K")
            err.flush()
            if done.wait(0.25):
                break
        err.write("\r\033[K")
        err.flush()

    watcher = threading.Thread(target=watch, name="unbeatable-progress", daemon=True)
    watcher.start()
    try:
        yield tally
    except KeyboardInterrupt:
        done.set()
        watcher.join()
        nodes = f" and {tally.nodes:,} nodes" if tally.nodes else ""
        timed = f" (--time-limit {budget:g} gives a timed one)" if exact and budget else ""
        err.write(
            f"unbeatable: interrupted after {time.monotonic() - start:.1f} s{nodes}, "
            f"with no answer{timed}\n"
        )
        raise typer.Exit(130) from None
    finally:
        done.set()
        watcher.join()
