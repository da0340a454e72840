"""Building the opening book (:mod:`.book` reads it).

Only the deepest level is searched (in parallel, locally with a process pool
or on a Ray cluster): each position's exact score, then the first move in
centre-first order that the engine proves keeps it. Every shallower level
follows exactly by negamax over the book itself: a position's score is the
best of its children's, negated, or the immediate-win score. Results are
appended to a checkpoint file as they arrive, so an interrupted build resumes
where it stopped (and a build for more plies reuses one for fewer).

Every board builds the same way (``game``: the standard board's rules by
default); the book records its board.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from unbeatable.games.connect4 import (
    STANDARD,
    Connect4Game,
    Connect4Position,
    Shape,
    canonical_key,
    connect4,
    rules_for,
)
from unbeatable.solvers.connect4.book import NO_MOVE, Book, book_key
from unbeatable.solvers.connect4.engine import Connect4Engine

#: Positions per task: siblings stay together, so a worker's table helps them.
CHUNK = 32

#: Rough core-seconds to solve one deepest-level position (score and move)
#: of 8 stones on the standard board (34 empty cells), and how many times
#: longer each empty cell more takes (another board's positions cost what a
#: standard one's with as many empty cells does): the shipped
#: 8-stone book took about 0.5 core-seconds a position (README: 91,295
#: positions, about 6.5 hours on two cores), and a 3-stone book about 30
#: seconds a position (issue 19: half an hour for the 3-stone level on two
#: cores), about 2.2 times per stone between them. A position's cost varies
#: a hundredfold, so this only says minutes from hours before a build starts;
#: the progress bar's ETA then follows the real pace.
SECONDS_AT_8 = 0.5
GROWTH_PER_STONE = 2.2
#: No deepest-level position, however late, costs less than this (the engine's
#: set-up per position).
SECONDS_AT_LEAST = 0.002

Progress = Callable[[int, int], None]


class BookPlan(NamedTuple):
    """What a build is about to do, said before it starts."""

    #: Deepest-level positions of the book (one per mirror pair).
    positions: int
    #: Those still to search (the rest are in the checkpoint).
    todo: int
    #: Stones in each of them.
    stones: int
    #: Worker processes (local) that share the work; 0 on a Ray cluster.
    workers: int
    #: Rough seconds the searches will take (see :func:`rough_seconds`): on
    #: a Ray cluster, core-seconds.
    seconds: float


#: Empty cells of the positions :data:`SECONDS_AT_8` was measured on.
EMPTY_AT_8 = 34


def rough_seconds(stones: int, cells: int = 42) -> float:
    """Rough core-seconds to solve one deepest-level position of ``stones``
    stones on a board of ``cells`` cells (:data:`SECONDS_AT_8`,
    :data:`GROWTH_PER_STONE`: what matters is how many cells are empty)."""
    empty = cells - stones
    return max(SECONDS_AT_LEAST, SECONDS_AT_8 * GROWTH_PER_STONE ** (empty - EMPTY_AT_8))


@dataclass(frozen=True, slots=True)
class BookStats:
    """What a build did."""

    plies: int
    positions: int
    #: Deepest-level positions searched in this run (the rest came from the
    #: checkpoint or follow from their children).
    searched: int
    resumed: int
    seconds: float
    path: Path
    bytes: int


def enumerate_positions(
    plies: int, root: str = "", game: Connect4Game | None = None
) -> list[list[tuple[int, str]]]:
    """Per level (root's stone count up to ``plies`` stones), the (canonical
    key, move sequence) of every position of ``game``'s board (the standard
    one by default) reachable from ``root`` by legal play with no four yet,
    one per mirror pair, sorted by move sequence so that siblings sit
    together."""
    game = connect4() if game is None else game
    start = game.parse(root)
    if start.moves is None or start.winner is not None:
        raise ValueError("the root must be a move sequence of a game still running")
    levels: list[list[tuple[int, str]]] = [[(canonical_key(start), root)]]
    frontier = [start]
    for _ in range(start.stones, plies):
        seen: dict[int, Connect4Position] = {}
        for position in frontier:
            for col in game.moves(position):
                child = game.play(position, col)
                if child.winner is None:
                    seen.setdefault(canonical_key(child), child)
        frontier = sorted(seen.values(), key=lambda p: p.moves or "")
        levels.append([(canonical_key(p), p.moves or "") for p in frontier])
    return levels


#: A deepest-level position to solve: its key, its move sequence, and its
#: score if a checkpoint already has it (then only its move is searched).
Task = tuple[int, str, "int | None"]
#: A worker's share: the board, and the positions to solve on it.
Chunk = tuple[Shape, list[Task]]


def _as_keyed(position: Connect4Position) -> Connect4Position:
    """The position in the orientation its book key encodes (see
    :func:`.book.book_key`), so that stored moves have one meaning."""
    if not book_key(position)[1]:
        return position
    shape = position.shape
    labels = shape.column_labels
    mirrored = "".join(labels[shape.columns - 1 - labels.index(c)] for c in position.moves or "")
    return Connect4Position(shape, shape.mirror(position.x), shape.mirror(position.o), mirrored)


def _solve_chunk(chunk: Chunk) -> list[tuple[int, int, int]]:
    """Worker task: exact score and best move of each position given, on
    the chunk's board.

    Uses the worker process's shared table without clearing it, so siblings
    solved one after another reuse each other's work, and tests each
    position's score first at its predecessor's (siblings' scores are close).
    The move is the engine's: the first in centre-first order whose child
    (one stone past the book) is proven to keep the score, children that the
    shipped book's bound already rules out skipped.
    """
    board, items = chunk
    game = rules_for(board)
    # The shipped book (if the board has one) is used only for bounds one
    # stone past it (and its own moves, the very ones this computes); scores
    # come from searches.
    engine = Connect4Engine(game=game)
    out = []
    guess: int | None = None
    for key, moves, known in items:
        position = _as_keyed(game.parse(moves))
        score = known if known is not None else engine.solve_score(position, guess=guess)[0]
        move = engine.prove_keeping_move(position, score).move  # the exact score: kept
        out.append((key, score, NO_MOVE if move is None else move))
        guess = score
    return out


#: A checkpoint's first line names its board (``board 6x5``); one without it
#: (written before boards had books) is the standard board's.
BOARD_LINE = "board"


def _read_checkpoint(path: Path, board: Shape) -> tuple[dict[int, int], dict[int, int]]:
    """Scores and moves already solved, from a checkpoint: one ``key score``
    or ``key score move`` line per position (a torn last line is ignored).
    Raises ValueError if the checkpoint is another board's."""
    scores: dict[int, int] = {}
    moves: dict[int, int] = {}
    if not path.exists():
        return scores, moves
    lines = path.read_text().splitlines()
    if not any(line.strip() for line in lines):
        # A build stopped before its first result leaves an empty file: no
        # board's, and nothing to resume.
        return scores, moves
    first = lines[0].split()
    size = first[1] if len(first) == 2 and first[0] == BOARD_LINE else STANDARD.size
    if size != board.size:
        raise ValueError(
            f"checkpoint {path} is a build's for the {size} board, not {board.size}: "
            "give this build another --out"
        )
    for line in lines:
        parts = line.split()
        if len(parts) in (2, 3):
            try:
                numbers = [int(part) for part in parts]
            except ValueError:
                continue
            scores[numbers[0]] = numbers[1]
            if len(numbers) == 3:
                moves[numbers[0]] = numbers[2]
    return scores, moves


def _derive(
    game: Connect4Game, levels: list[list[tuple[int, str]]], scores: dict[int, int], upto: int
) -> None:
    """Fill levels ``upto``..0 (deepest first) from their children's scores.

    A position with a child still unknown is left out (partial books).
    """
    board = game.shape
    for level in range(upto, -1, -1):
        for key, moves in levels[level]:
            if key in scores:
                continue
            position = game.parse(moves)
            best, complete = -99, True
            for col in game.moves(position):
                child = game.play(position, col)
                if child.winner is not None:
                    value = board.win_now(position.stones)
                elif child.stones == board.cells:
                    value = 0
                elif (known := scores.get(canonical_key(child))) is not None:
                    value = -known
                else:
                    complete = False
                    break
                best = max(best, value)
            if complete:
                scores[key] = best


def _finish(
    game: Connect4Game,
    levels: list[list[tuple[int, str]]],
    scores: dict[int, int],
    moves: dict[int, int],
    plies: int,
    out: Path,
    start: float,
    *,
    searched: int,
    resumed: int,
) -> BookStats:
    """Derive the shallower levels from the deepest, save every position of
    ``levels`` that has a score as the book ``out`` (with its move, for the
    deepest level), and say what the build did (it began at ``start``)."""
    _derive(game, levels, scores, len(levels) - 2)
    keys = [key for level in levels for key, _ in level if key in scores]
    deepest = {key for key, _ in levels[-1]}
    best = [moves.get(k, NO_MOVE) if k in deepest else NO_MOVE for k in keys]
    book = Book(plies, keys, [scores[k] for k in keys], best, game.shape)
    out.parent.mkdir(parents=True, exist_ok=True)
    book.save(out)
    return BookStats(
        plies=plies,
        positions=len(book),
        searched=searched,
        resumed=resumed,
        seconds=time.perf_counter() - start,
        path=out,
        bytes=out.stat().st_size,
    )


def book_from_checkpoint(
    plies: int, checkpoint: Path, out: Path, root: str = "", game: Connect4Game | None = None
) -> BookStats:
    """Write the book that an unfinished build's checkpoint already determines.

    Holds the deepest-level positions solved so far and every shallower
    position whose children are all known; lookups of the others miss, and
    the engine searches them. For shipping what an interrupted build reached.
    """
    game = connect4() if game is None else game
    start = time.perf_counter()
    levels = enumerate_positions(plies, root, game)
    scores, moves = _read_checkpoint(Path(checkpoint), game.shape)
    solved = sum(1 for key, _ in levels[-1] if key in scores)
    return _finish(game, levels, scores, moves, plies, Path(out), start, searched=0, resumed=solved)


def build_book(
    plies: int,
    out: Path,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
    checkpoint: Path | None = None,
    root: str = "",
    plan: Callable[[BookPlan], None] | None = None,
    keep_checkpoint: bool = True,
    game: Connect4Game | None = None,
) -> BookStats:
    """Build the book of every position with at most ``plies`` stones of
    ``game``'s board (the standard 7x6 by default) and write it to ``out``.

    ``workers`` local processes search the deepest level (default: CPU count),
    or Ray tasks when ``ray_address`` is given (``"local"`` starts a local Ray,
    ``"auto"`` joins a running cluster; needs the ``unbeatable[ray]`` extra).
    ``progress(done, total)`` is called as deepest-level positions complete
    (their score and best move known). Results are appended to ``checkpoint``
    (default: ``out`` + ``.partial``) and reused by the next build, which
    resumes an interrupted one; a checkpoint of scores alone (a version 2
    build's) is resumed by searching the moves only.
    ``root`` (a move sequence) restricts the book to the positions reachable
    from it: a book for a subtree (tests build small ones near the end of a game).
    ``plan(BookPlan)`` is told the work and its rough cost before any search
    starts (a book of few stones looks small and can take hours).
    ``keep_checkpoint=False`` removes the checkpoint once the book is written
    (the command line's builds: the book holds everything it had).
    A checkpoint holds positions by key, which only one board gives meaning:
    give each board's build its own (the default, next to its own book).
    """
    game = connect4() if game is None else game
    cells = game.shape.cells
    if not 0 <= plies <= cells:
        raise ValueError(f"plies must be within 0..{cells} on {game.shape.size}, got {plies}")
    start = time.perf_counter()
    out = Path(out)
    checkpoint = Path(checkpoint) if checkpoint else out.with_name(out.name + ".partial")
    levels = enumerate_positions(plies, root, game)
    scores, moves = _read_checkpoint(checkpoint, game.shape)
    deepest = levels[-1]
    todo: list[Task] = [(key, line, scores.get(key)) for key, line in deepest if key not in moves]
    resumed = len(deepest) - len(todo)
    total = len(deepest)
    if plan:
        cores = 0 if ray_address else workers or os.cpu_count() or 1
        stones = len(deepest[0][1]) if deepest else plies  # a move sequence: one stone a move
        seconds = len(todo) * rough_seconds(stones, cells) / max(1, cores)
        plan(BookPlan(total, len(todo), stones, cores, seconds))
    if progress:
        progress(resumed, total)
    # Small enough chunks that no worker idles long at the end.
    size = max(1, min(CHUNK, len(todo) // (32 * (workers or os.cpu_count() or 1))))
    chunks: list[Chunk] = [(game.shape, todo[i : i + size]) for i in range(0, len(todo), size)]
    with checkpoint.open("a") as log:
        done = resumed
        results = _run_ray(chunks, ray_address) if ray_address else _run_local(chunks, workers)
        for batch in results:
            if log.tell() == 0:  # a new checkpoint: first, whose it is
                log.write(f"{BOARD_LINE} {game.shape.size}\n")
            for key, score, move in batch:
                scores[key], moves[key] = score, move
                log.write(f"{key} {score} {move}\n")
            log.flush()
            done += len(batch)
            if progress:
                progress(done, total)
    stats = _finish(
        game, levels, scores, moves, plies, out, start, searched=len(todo), resumed=resumed
    )
    if not keep_checkpoint:
        checkpoint.unlink(missing_ok=True)
    return stats


def _run_local(chunks: list[Chunk], workers: int | None) -> Iterator[list[tuple[int, int, int]]]:
    """Solve chunks in a local process pool, yielding results as they complete.

    On an interrupt (Ctrl-C) or any error the pool is terminated at once,
    whatever its workers are in the middle of: what was already yielded is
    in the checkpoint, and a search can run for minutes.
    """
    if not chunks:
        return
    import multiprocessing

    workers = workers or os.cpu_count() or 1
    pool = multiprocessing.get_context("spawn").Pool(workers, _worker_ignores_interrupts)
    try:
        # imap_unordered hands out chunks in order as workers free up: the
        # build goes through the positions in order, sharing what it can.
        yield from pool.imap_unordered(_solve_chunk, chunks)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _worker_ignores_interrupts() -> None:
    """Ctrl-C reaches every process of the terminal's group: workers leave it
    to the parent, which terminates them and keeps the checkpoint."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_ray(chunks: list[Chunk], address: str) -> Iterator[list[tuple[int, int, int]]]:
    """Solve chunks as Ray tasks (Ray imported only here), yielding as they complete."""
    import ray

    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(_solve_chunk)
    pending: list[Any] = [remote.remote(chunk) for chunk in chunks]
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                result: list[tuple[int, int, int]] = ray.get(ref)
                yield result
    finally:  # interrupted: the cluster need not finish the rest
        for ref in pending:
            ray.cancel(ref)


__all__ = [
    "BookPlan",
    "BookStats",
    "book_from_checkpoint",
    "build_book",
    "enumerate_positions",
    "rough_seconds",
]
