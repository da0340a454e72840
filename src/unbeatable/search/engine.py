"""What every engine answers, and the limits every search obeys.

An :class:`Outcome` is the game-theoretic value of a position for the side to
move: who wins under perfect play and how many plies the game then lasts. It is
the common currency between the generic engines (minimax, alpha-beta, negamax)
and specialised solvers (e.g. the Connect Four bitboard solver), so analysis,
the CLI and the web API never depend on one engine's score scale.
"""

from __future__ import annotations

import math
import threading as _threading
import time
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from unbeatable.games.base import Game

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable


class Result(StrEnum):
    """A position's value under perfect play, for the player the answer
    names: a ``win``, a ``draw`` or a ``loss``; ``unknown`` when no search
    proved it within its limits."""

    # Each member is its name as text: JSON writes it as that text, and code
    # that compares a result with the text (``outcome.result == "win"``) holds.
    win = "win"
    draw = "draw"
    loss = "loss"
    unknown = "unknown"


#: Result of the opponent, seen from the other side of the board (its keys
#: are the members, so plain text looks a result up too: ``FLIP["win"]``).
FLIP: dict[str, Result] = {
    Result.win: Result.loss,
    Result.loss: Result.win,
    Result.draw: Result.draw,
    Result.unknown: Result.unknown,
}


class SearchTimeout(Exception):
    """Raised inside a search when its limits run out (deadline or stop
    switch); ``nodes`` is the work done until then, where known."""

    def __init__(self, message: str = "search limits reached", nodes: int = 0) -> None:
        super().__init__(message)
        self.nodes = nodes


class Progress(NamedTuple):
    """What a long search reports between slices of its work (see
    :attr:`Limits.progress`): faces show it while a user waits."""

    #: Nodes searched since the previous report.
    nodes: int
    #: Where the score is known to lie so far, in the game's score units
    #: (:meth:`Game.score`), when the search narrows a window; else None.
    low: int | None = None
    high: int | None = None


class Limits:
    """How long one search may run: a deadline and a stop switch.

    ``deadline`` is a :func:`time.perf_counter` value (None: no time limit).
    ``stop`` is a :class:`threading.Event` that another thread may set to end
    the search early (the web server sets it when the client has gone away).
    Engines check :meth:`expired` often enough to stop within milliseconds
    (the generic engines every 1,024 nodes, the compiled solvers between
    slices of their search) and then raise :class:`SearchTimeout` or answer
    with what they have. ``progress``, if given, is called with a
    :class:`Progress` between slices by the engines that work in slices (it
    must be quick: it runs in the search's thread). Every share of the
    budget (:meth:`share`) keeps the same switch and report.
    """

    __slots__ = ("deadline", "progress", "stop")

    def __init__(
        self,
        deadline: float | None = None,
        stop: threading.Event | None = None,
        progress: Callable[[Progress], None] | None = None,
    ) -> None:
        self.deadline = deadline
        self.stop = stop
        self.progress = progress

    @classmethod
    def seconds(
        cls,
        seconds: float | None,
        stop: threading.Event | None = None,
        progress: Callable[[Progress], None] | None = None,
    ) -> Limits:
        """Limits ending ``seconds`` from now (None or infinity: no time limit)."""
        if seconds is None or math.isinf(seconds):
            return cls(None, stop, progress)
        return cls(time.perf_counter() + seconds, stop, progress)

    def __repr__(self) -> str:
        left = "none" if self.deadline is None else f"{self.remaining():.3f}s"
        return f"Limits(time left={left}, stop={self.stop is not None})"

    @property
    def bounded(self) -> bool:
        """Whether anything can end the search early."""
        return self.deadline is not None or self.stop is not None

    def remaining(self) -> float:
        """Seconds left (infinity without a deadline, 0 once stopped)."""
        if self.stop is not None and self.stop.is_set():
            return 0.0
        if self.deadline is None:
            return math.inf
        return max(0.0, self.deadline - time.perf_counter())

    def expired(self) -> bool:
        """True once the deadline has passed or the switch is set."""
        if self.stop is not None and self.stop.is_set():
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def share(self, parts: int) -> Limits:
        """One of ``parts`` equal shares of the time left, with the same switch."""
        if self.deadline is None:
            return self
        now = time.perf_counter()
        return Limits(now + max(0.0, self.deadline - now) / parts, self.stop, self.progress)


#: No limits at all: the search runs to the end.
UNLIMITED = Limits()
#: A stop switch that is already set...
_STOPPED = _threading.Event()
_STOPPED.set()
#: ...so no search at all: answers only from what the engine knows (an
#: opening book, its tables).
KNOWN_ONLY = Limits(stop=_STOPPED)


class Outcome(NamedTuple):
    """Value of a position for the side to move.

    ``plies`` counts half-moves to the end of the game under perfect play by
    both sides (``None`` when unknown: weak solving or an unfinished search).
    ``exact`` is False when the search ran out of budget and the result is a
    heuristic guess (then ``result`` is ``"unknown"`` unless it was proven).
    """

    result: Result
    plies: int | None
    exact: bool = True

    def parent(self) -> Outcome:
        """The same outcome seen from the position one move earlier, by the
        player who made that move."""
        plies = None if self.plies is None else self.plies + 1
        return Outcome(FLIP[self.result], plies, self.exact)


#: The value of a position nobody could read within the limits: every engine's
#: "not proven", written once.
UNKNOWN = Outcome(Result.unknown, None, False)


class Solved(NamedTuple):
    """An engine's answer for one position: its outcome and the work it took."""

    outcome: Outcome
    nodes: int
    #: Best move found, when the engine knows one (None for finished positions).
    move: Any = None
    #: True when ``move`` is proven to keep ``outcome`` (a best move), not just
    #: the engine's best guess when time ran out. With an inexact outcome: the
    #: move is proven to keep a lower bound the engine had proved, but whether
    #: another does better is unknown (so faces treat it as unproven).
    move_proven: bool = False

    @property
    def proven(self) -> bool:
        """Whether the answer is proven: its outcome exact and its move
        proven to keep it (what the AI's move and a line of best play need)."""
        return self.move_proven and self.outcome.exact


class Engine(Protocol):
    """A solver bound to one game. ``solve`` must respect ``limits``: once
    they expire, return an inexact outcome (or raise :class:`SearchTimeout`),
    never run on. Engines are safe to share between threads: each call
    keeps its own search state, and what an engine keeps between calls (its
    tables: what it has learnt) is made to be raced on."""

    def solve(self, position: Any, limits: Limits = UNLIMITED, weak: bool = False) -> Solved:
        """The position's outcome for the side to move and a move that keeps it."""
        ...

    def value(self, position: Any, limits: Limits = UNLIMITED, weak: bool = False) -> Solved:
        """The outcome only (no move needed): analysis asks this of every child."""
        ...

    def guess(self, position: Any) -> Solved:
        """A good move found without any timed search: from what is known for
        sure (an opening book), else a fixed-size heuristic search. The same
        move every time for the same position, whatever the engine learnt
        before: the weaker levels play it, so a seeded game replays exactly."""
        ...


def outcome_from_value(
    game: Game[Any, Any], position: Any, value: float, exact: bool = True
) -> Outcome:
    """Turn a depth-aware value for the side to move (``win_score - plies`` for
    a win, its negative for a loss, anything in (-1, 1) for a draw or a guess)
    into an :class:`Outcome`."""
    win = game.win_score
    if value >= 1:
        return Outcome(Result.win, int(win - value))
    if value <= -1:
        return Outcome(Result.loss, int(win + value))
    if exact:
        return Outcome(Result.draw, game.draw_plies(position))
    return UNKNOWN
