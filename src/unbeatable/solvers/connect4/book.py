"""Opening book: exact scores of every early position, built once, shipped.

Early positions are the expensive ones (the reference C++ solver needs over
10 minutes for the empty board), so the engine answers positions with few
stones from a book. An "impossible" AI picks its move by valuing every child
of the position it faces, so the book must hold every position it can meet
*and* their children: we store all positions with at most ``plies`` stones
reachable by legal play (games already won excluded), reduced by mirror
symmetry: a position and its mirror image share one entry.

Building: only the deepest level is searched (in parallel, locally with a
process pool or on a Ray cluster). Every shallower level follows exactly by
negamax over the book itself: a position's score is the best of its
children's, negated, or the immediate-win score. Results are appended to a
checkpoint file as they arrive, so an interrupted build resumes where it
stopped (and a build for more plies reuses one for fewer).

The deepest level also gets its best move: there the value is known but the
children are not in the book, and proving which of them keeps the value can
take several seconds (a 9-stone null-window search each), more than an AI move
may. Every shallower position's move follows from its children's scores.

File format (version 3, little endian): ``b"UBC4BOOK"``, version (u32),
plies (u32), entries (u64), then one zlib stream of

* the sorted canonical keys, each stored as its difference from the previous
  key (the first from 0) in 8 bytes, byte plane by byte plane: all lowest
  bytes, then all second bytes, and so on. Neighbouring keys are close, so
  the high planes are runs of zeros that compress to almost nothing;
* the scores (i8 each, Pons' convention, side to move), in key order;
* the best moves (i8 each, in key order): for a deepest-level position the
  column (0-6) of the first move in centre-first order that keeps its score,
  for the position as its key encodes it (the smaller of its and its mirror's
  key); -1 elsewhere.

Version 2 files (no moves) still load.

The 8-ply book's 129,498 positions take 10 bytes each before compression and
about one after it (see the README for the shipped file's size).
"""

from __future__ import annotations

import os
import struct
import sys
import threading
import time
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

from unbeatable.games.connect4 import (
    CELLS,
    WIDTH,
    Connect4Position,
    canonical_key,
    connect4,
    mirror_bits,
    position_key,
    predecessors,
    win_now_score,
)

MAGIC = b"UBC4BOOK"
VERSION = 3
#: Versions :func:`load_book` reads (2: scores only).
_READABLE = (2, 3)
#: Stored where a position has no move of its own in the book.
NO_MOVE = -1
_HEADER = struct.Struct("<8sIIQ")
#: The book shipped with the package (absent until built).
DEFAULT_BOOK = Path(__file__).resolve().parent / "data" / "book.bin"
#: Positions per task: siblings stay together, so a worker's table helps them.
CHUNK = 32

Progress = Callable[[int, int], None]


class Book:
    """Canonical position key -> exact Pons score, for positions up to ``plies`` stones.

    Plain arrays and a binary search: a lookup costs a microsecond or two, and
    loading needs neither numpy nor numba, so an answer from the book starts
    fast.
    """

    def __init__(
        self,
        plies: int,
        keys: Iterable[int],
        scores: Iterable[int],
        moves: Iterable[int] | None = None,
    ) -> None:
        keys, scores = list(keys), list(scores)
        best = [NO_MOVE] * len(keys) if moves is None else list(moves)
        triples = sorted(zip((int(k) for k in keys), scores, best, strict=True))
        self.plies = plies
        self.keys = array("Q", (k for k, _, _ in triples))
        self.scores = array("b", (int(s) for _, s, _ in triples))
        self.moves = array("b", (int(m) for _, _, m in triples))

    @classmethod
    def _sorted(cls, plies: int, keys: array[int], scores: array[int], moves: array[int]) -> Book:
        """A book from arrays already in key order (loading: no sort needed)."""
        book = cls.__new__(cls)
        book.plies, book.keys, book.scores, book.moves = plies, keys, scores, moves
        return book

    def __len__(self) -> int:
        return len(self.keys)

    def __repr__(self) -> str:
        return f"<Book plies={self.plies} positions={len(self)}>"

    def get_key(self, key: int) -> int | None:
        """Score stored under canonical ``key``, or None."""
        i = bisect_left(self.keys, key)
        if i < len(self.keys) and self.keys[i] == key:
            return self.scores[i]
        return None

    def get(self, position: Connect4Position) -> int | None:
        """Exact Pons score of ``position`` for the side to move, if the book has it."""
        if position.stones > self.plies or position.winner is not None:
            return None
        return self.get_key(canonical_key(position))

    def move(self, position: Connect4Position) -> int | None:
        """A proven best move (a column) of a deepest-level position, if stored.

        It is the first move in centre-first order that keeps the score, for
        the orientation the key encodes; for the mirror image, its mirror
        (which keeps the score as well, though where both a column and its
        mirror keep it, centre-first order might have named the other).
        """
        if position.stones != self.plies or position.winner is not None:
            return None
        cur, mask = position.current(), position.mask
        own = position_key(cur, mask)
        mirrored = position_key(mirror_bits(cur), mirror_bits(mask))
        i = bisect_left(self.keys, min(own, mirrored))
        if i == len(self.keys) or self.keys[i] != min(own, mirrored):
            return None
        col = self.moves[i]
        if col == NO_MOVE:
            return None
        return col if own <= mirrored else WIDTH - 1 - col

    @property
    def has_moves(self) -> bool:
        """Whether the deepest level's moves are stored (a version 3 build)."""
        return any(m != NO_MOVE for m in self.moves)

    def parent_bound(self, position: Connect4Position) -> int | None:
        """A lower bound on the score of a position one stone past the book.

        Take back any top stone of the player who moved last: if that leaves
        a position of the book, its player could have played there, and had
        the value the book gives at best; so the side to move now scores at
        least its negation. The best such bound, or None. After a perfect
        move it is the exact score.
        """
        if position.stones != self.plies + 1 or position.winner is not None:
            return None
        known = [self.get(before) for _, before in predecessors(position)]
        return max((-k for k in known if k is not None), default=None)

    def grandparent_bound(self, position: Connect4Position) -> int | None:
        """A lower bound on the score of a position two stones past the book.

        Take back a stone of each player: if that leaves a position of the
        book whose stored move is the second stone taken back, the position
        after that move had exactly the negated book score, and whatever the
        opponent answered, the side to move now scores at least the book's
        score. The best such bound, or None. After perfect play on both sides
        it is the exact score: this is how the impossible level keeps the
        book's value past it without first proving the exact one.
        """
        if position.stones != self.plies + 2 or position.winner is not None:
            return None
        best: int | None = None
        for _, before in predecessors(position):
            for col, start in predecessors(before):
                known = self.get(start)
                if known is not None and (best is None or known > best) and self.move(start) == col:
                    best = known
        return best

    def items(self) -> Iterator[tuple[int, int]]:
        """(canonical key, score) pairs in key order."""
        for k, s in zip(self.keys.tolist(), self.scores.tolist(), strict=True):
            yield int(k), int(s)

    def save(self, path: Path) -> None:
        """Write the binary format (see the module docstring), atomically."""
        count = len(self.keys)
        deltas = array("Q", (b - a for a, b in zip((0, *self.keys), self.keys, strict=False)))
        if sys.byteorder != "little":  # pragma: no cover - the format is little endian
            deltas.byteswap()
        raw = deltas.tobytes()
        planes = b"".join(raw[j::8] for j in range(8))  # all lowest bytes first, ...
        payload = zlib.compress(planes + self.scores.tobytes() + self.moves.tobytes(), 9)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(_HEADER.pack(MAGIC, VERSION, self.plies, count) + payload)
        os.replace(tmp, path)


#: Every valid score (-21..21) as a signed byte: deleting them from the
#: stored scores must leave nothing (a check at C speed, not per entry).
_SCORE_BYTES = bytes(s & 0xFF for s in range(-21, 22))
_MOVE_BYTES = bytes(m & 0xFF for m in range(NO_MOVE, WIDTH))


def load_book(path: Path | str = DEFAULT_BOOK) -> Book:
    """Read a book written by :meth:`Book.save`; raises ValueError if it is not one."""
    data = Path(path).read_bytes()
    if len(data) < _HEADER.size:
        raise ValueError(f"{path}: too short for a Connect Four book")
    magic, version, plies, count = _HEADER.unpack_from(data)
    if magic != MAGIC or version not in _READABLE:
        raise ValueError(f"{path}: not a Connect Four book (version {VERSION})")
    try:
        raw = zlib.decompress(data[_HEADER.size :])
    except zlib.error as exc:
        raise ValueError(f"{path}: corrupt book ({exc})") from None
    width = 10 if version >= 3 else 9  # bytes per entry: key, score (and move)
    if len(raw) != width * count:
        raise ValueError(f"{path}: corrupt book ({len(raw)} bytes for {count} entries)")
    interleaved = bytearray(8 * count)
    for j in range(8):  # plane j holds byte j of every difference
        interleaved[j::8] = raw[j * count : (j + 1) * count]
    deltas = array("Q", bytes(interleaved))
    if sys.byteorder != "little":  # pragma: no cover - the format is little endian
        deltas.byteswap()
    keys = array("Q", accumulate(deltas))
    score_bytes = raw[8 * count : 9 * count]
    move_bytes = raw[9 * count :] if version >= 3 else bytes([NO_MOVE & 0xFF]) * count
    if (
        deltas.count(0) > (deltas[0] == 0)
        or score_bytes.translate(None, _SCORE_BYTES)
        or move_bytes.translate(None, _MOVE_BYTES)
    ):
        raise ValueError(f"{path}: corrupt book (keys out of order, scores or moves out of range)")
    return Book._sorted(plies, keys, array("b", score_bytes), array("b", move_bytes))


_default_book: Book | None = None
_default_loaded = False
_default_lock = threading.Lock()


def default_book() -> Book | None:
    """The shipped opening book, loaded once, at first use (None if not shipped)."""
    global _default_book, _default_loaded
    with _default_lock:
        if not _default_loaded:
            _default_loaded = True
            if DEFAULT_BOOK.exists():
                _default_book = load_book(DEFAULT_BOOK)
        return _default_book


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


def enumerate_positions(plies: int, root: str = "") -> list[list[tuple[int, str]]]:
    """Per level (root's stone count up to ``plies`` stones), the (canonical
    key, move sequence) of every position reachable from ``root`` by legal
    play with no four yet, one per mirror pair, sorted by move sequence so
    that siblings sit together."""
    game = connect4()
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


def _as_keyed(position: Connect4Position) -> Connect4Position:
    """The position in the orientation its book key encodes (the smaller of
    its and its mirror's key), so that stored moves have one meaning."""
    cur, mask = position.current(), position.mask
    if position_key(cur, mask) <= position_key(mirror_bits(cur), mirror_bits(mask)):
        return position
    mirrored = "".join(str(WIDTH + 1 - int(c)) for c in position.moves or "")
    return Connect4Position(mirror_bits(position.x), mirror_bits(position.o), mirrored)


def _solve_chunk(items: list[Task]) -> list[tuple[int, int, int]]:
    """Worker task: exact score and best move of each position given.

    Uses the worker process's shared table without clearing it, so siblings
    solved one after another reuse each other's work, and tests each
    position's score first at its predecessor's (siblings' scores are close).
    The move is the engine's: the first in centre-first order whose child
    (one stone past the book) is proven to keep the score, children that the
    shipped book's bound already rules out skipped.
    """
    from unbeatable.solvers.connect4.engine import Connect4Engine

    game = connect4()
    # The shipped book is used only for bounds one stone past it (and its
    # own moves, the very ones this computes); scores come from searches.
    engine = Connect4Engine()
    out = []
    guess: int | None = None
    for key, moves, known in items:
        position = _as_keyed(game.parse(moves))
        score = known if known is not None else engine.solve_score(position, guess=guess)[0]
        move = engine.prove_keeping_move(position, score).move  # the exact score: kept
        out.append((key, score, NO_MOVE if move is None else move))
        guess = score
    return out


def _read_checkpoint(path: Path) -> tuple[dict[int, int], dict[int, int]]:
    """Scores and moves already solved, from a checkpoint: one ``key score``
    or ``key score move`` line per position (a torn last line is ignored)."""
    scores: dict[int, int] = {}
    moves: dict[int, int] = {}
    if not path.exists():
        return scores, moves
    for line in path.read_text().splitlines():
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


def _derive(levels: list[list[tuple[int, str]]], scores: dict[int, int], upto: int) -> None:
    """Fill levels ``upto``..0 (deepest first) from their children's scores.

    A position with a child still unknown is left out (partial books).
    """
    game = connect4()
    for level in range(upto, -1, -1):
        for key, moves in levels[level]:
            if key in scores:
                continue
            position = game.parse(moves)
            best, complete = -99, True
            for col in game.moves(position):
                child = game.play(position, col)
                if child.winner is not None:
                    value = win_now_score(position.stones)
                elif child.stones == CELLS:
                    value = 0
                elif (known := scores.get(canonical_key(child))) is not None:
                    value = -known
                else:
                    complete = False
                    break
                best = max(best, value)
            if complete:
                scores[key] = best


def _write(
    levels: list[list[tuple[int, str]]],
    scores: dict[int, int],
    moves: dict[int, int],
    plies: int,
    out: Path,
) -> Book:
    """Save every position of ``levels`` that has a score as the book ``out``
    (with its move, for the deepest level)."""
    keys = [key for level in levels for key, _ in level if key in scores]
    deepest = {key for key, _ in levels[-1]}
    best = [moves.get(k, NO_MOVE) if k in deepest else NO_MOVE for k in keys]
    book = Book(plies, keys, [scores[k] for k in keys], best)
    out.parent.mkdir(parents=True, exist_ok=True)
    book.save(out)
    return book


def book_from_checkpoint(plies: int, checkpoint: Path, out: Path, root: str = "") -> BookStats:
    """Write the book that an unfinished build's checkpoint already determines.

    Holds the deepest-level positions solved so far and every shallower
    position whose children are all known; lookups of the others miss, and
    the engine searches them. For shipping what an interrupted build reached.
    """
    start = time.perf_counter()
    levels = enumerate_positions(plies, root)
    scores, moves = _read_checkpoint(Path(checkpoint))
    _derive(levels, scores, len(levels) - 2)
    book = _write(levels, scores, moves, plies, Path(out))
    solved = sum(1 for key, _ in levels[-1] if key in scores)
    return BookStats(
        plies=plies,
        positions=len(book),
        searched=0,
        resumed=solved,
        seconds=time.perf_counter() - start,
        path=Path(out),
        bytes=Path(out).stat().st_size,
    )


def build_book(
    plies: int,
    out: Path,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
    checkpoint: Path | None = None,
    root: str = "",
) -> BookStats:
    """Build the book of every position with at most ``plies`` stones and write it to ``out``.

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
    """
    if not 0 <= plies <= CELLS:
        raise ValueError(f"plies must be within 0..{CELLS}, got {plies}")
    start = time.perf_counter()
    out = Path(out)
    checkpoint = Path(checkpoint) if checkpoint else out.with_name(out.name + ".partial")
    levels = enumerate_positions(plies, root)
    scores, moves = _read_checkpoint(checkpoint)
    deepest = levels[-1]
    todo: list[Task] = [(key, line, scores.get(key)) for key, line in deepest if key not in moves]
    resumed = len(deepest) - len(todo)
    total = len(deepest)
    if progress:
        progress(resumed, total)
    # Small enough chunks that no worker idles long at the end.
    size = max(1, min(CHUNK, len(todo) // (32 * (workers or os.cpu_count() or 1))))
    chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
    with checkpoint.open("a") as log:
        done = resumed
        results = _run_ray(chunks, ray_address) if ray_address else _run_local(chunks, workers)
        for batch in results:
            for key, score, move in batch:
                scores[key], moves[key] = score, move
                log.write(f"{key} {score} {move}\n")
            log.flush()
            done += len(batch)
            if progress:
                progress(done, total)
    _derive(levels, scores, len(levels) - 2)
    book = _write(levels, scores, moves, plies, out)
    return BookStats(
        plies=plies,
        positions=len(book),
        searched=len(todo),
        resumed=resumed,
        seconds=time.perf_counter() - start,
        path=out,
        bytes=out.stat().st_size,
    )


def _run_local(
    chunks: list[list[Task]], workers: int | None
) -> Iterator[list[tuple[int, int, int]]]:
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


def _run_ray(chunks: list[list[Task]], address: str) -> Iterator[list[tuple[int, int, int]]]:
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
    "DEFAULT_BOOK",
    "Book",
    "BookStats",
    "book_from_checkpoint",
    "build_book",
    "default_book",
    "enumerate_positions",
    "load_book",
]
