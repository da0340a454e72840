"""``unbeatable book``: building opening books, and ``--book PATH``, which
makes a command answer from one.

A book is precomputed perfect play for early positions; the game's record
says whether it has any (:func:`unbeatable.api.book_builder`), and the build
itself is the library's: this module checks the arguments, says the cost
before the work starts, shows the progress and keeps what is done at Ctrl-C.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from unbeatable import api
from unbeatable.api import get_game
from unbeatable.cli.common import GameArg, UsageProblem, console, duration

if TYPE_CHECKING:
    from unbeatable.api import Game

book_app = typer.Typer(help="Opening books: precomputed perfect play for early positions.")


def check_output(path: Path) -> None:
    """Refuse an output path that cannot be written, before any work starts."""
    if path.is_dir():
        raise UsageProblem(f"--out {path}: is a directory; give a file name")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UsageProblem(f"--out {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageProblem(f"--out {path}: not writable")


def default_book_file(game_name: str, plies: int) -> Path:
    """Where ``book build`` writes a book not given ``--out``: in the current
    folder, named after the game and the plies (``connect4-8.bin``,
    ``connect4-6x5-10.bin`` for ``connect4:6,5``)."""
    slug = game_name.replace(":", "-").replace(",", "x")
    return Path(f"{slug}-{plies}.bin")


def use_book(game: Game[Any, Any], path: Path | None, no_book: bool = False) -> None:
    """``--book PATH``: make the game's engine answer from that book file for
    this command, or say in one line why it cannot (no such file, not a book,
    another board's book, a game with no books)."""
    if path is None:
        return
    if no_book:
        raise UsageProblem("--book and --no-book contradict each other: give one of them")
    if api.book_builder(game.name) is None:
        raise UsageProblem(f"--book {path}: {game.name} has no opening book")
    if not path.is_file():
        raise UsageProblem(f"--book {path}: no such file")
    try:
        api.use_book(game.name, path)
    except OSError as exc:
        raise UsageProblem(f"--book {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # the book's own words, which start with its path
        raise UsageProblem(f"--book {exc}") from None


@book_app.command("build")
def book_build(
    name: GameArg,
    plies: Annotated[
        int,
        typer.Option(min=0, max=64, help="Depth of the book: positions of up to N stones."),
    ],
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Book file to write (and resume; its checkpoint goes next to it). Default: "
            "GAME-PLIES.bin in the current folder, e.g. connect4-8.bin, or "
            "connect4-6x5-8.bin for connect4:6,5.",
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Local worker processes (default: all cores).")
    ] = None,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Address of an existing Ray cluster.")
    ] = None,
    root: Annotated[
        str,
        typer.Option(help="Only positions reachable from this move sequence (a sub-book)."),
    ] = "",
) -> None:
    """Solve every position of the first N plies and save them as a book (of that board:
    connect4:6,5 builds a 6x5 book, for play, solve and analyze --book)."""
    game = get_game(name)
    build = api.book_builder(game.name)
    if build is None:
        raise UsageProblem(f"no opening book for {game.name}: its engine needs none")
    if out_file is None:
        out_file = default_book_file(game.name, plies)
    check_output(out_file)
    from unbeatable.cli import render

    err = console(stderr=True)

    def announce(plan: Any) -> None:
        """The work and its rough cost, before it starts (api.book_builder's ``plan``)."""
        from rich.markup import escape

        if not plan.todo:
            return
        kept = plan.positions - plan.todo
        where = f" ({kept:,} already in the checkpoint)" if kept else ""
        cost = "under a minute" if plan.seconds < 60 else duration(plan.seconds)
        on = f"on {render.counted(plan.workers, 'worker')}" if plan.workers else "of computing"
        err.print(
            escape(
                f"note: {render.counted(plan.todo, 'position')} with "
                f"{render.counted(plan.stones, 'stone')} to solve{where}: roughly {cost} {on} "
                "(fewer stones cost more: each position is solved from scratch; the rest of "
                "the book follows from them). The ETA follows the real pace; Ctrl-C keeps "
                "what is done."
            )
        )

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    done = [0, 0]
    progress = Progress(
        TextColumn("solving"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
    )
    task = progress.add_task("book", total=None)

    def report(solved: int, total: int) -> None:
        # Shown from the first report on: a build refused at once (plies
        # past the board's cells, another board's checkpoint) leaves no bar.
        if not progress.live.is_started:
            progress.start()
        done[:] = [solved, total]
        progress.update(task, completed=solved, total=total)

    try:
        stats = build(
            plies,
            out_file,
            workers=workers,
            ray_address=ray,
            progress=report,
            root=root,
            plan=announce,
            keep_checkpoint=False,
            game=game,
        )
    except ValueError as exc:  # bad plies or root, a corrupt checkpoint
        raise UsageProblem(str(exc)) from None
    except KeyboardInterrupt:
        if progress.live.is_started:
            progress.stop()
        checkpoint = out_file.with_name(out_file.name + ".partial")
        err.print(
            f"interrupted: {done[0]:,} of {done[1]:,} positions solved, kept in "
            f"{checkpoint}; run the same command to resume"
        )
        raise typer.Exit(130) from None
    finally:
        if progress.live.is_started:
            progress.stop()
    sys.stdout.write(
        f"wrote {stats.path}: {render.counted(stats.positions, 'position')} up to "
        f"{render.counted(stats.plies, 'ply', 'plies')} "
        f"({stats.searched:,} searched, {stats.resumed:,} from the checkpoint) "
        f"in {stats.seconds:.1f} s, {stats.bytes:,} bytes\n"
    )
