"""Opening book: exact scores of every early position, built once, shipped.

Early positions are the expensive ones (the reference C++ solver needs over
10 minutes for the empty board), so the engine answers positions with few
stones from a book. An "impossible" AI picks its move by valuing every child
of the position it faces, so the book must hold every position it can meet
*and* their children: it stores all positions with at most ``plies`` stones
reachable by legal play (games already won excluded), reduced by mirror
symmetry: a position and its mirror image share one entry, under the smaller
of their keys (:func:`book_key`).

The deepest level also has its best move: there the value is known but the
children are not in the book, and proving which of them keeps the value can
take several seconds (a 9-stone null-window search each), more than an AI move
may. Every shallower position's move follows from its children's scores.

A book is for one board (:attr:`Book.shape`): its file says which, and a
book is never used on another (the keys of two boards mean different
positions). Only the standard board's ships with the package
(:func:`shipped_path` says where any board's would be); others are built
with ``unbeatable book build connect4:COLUMNS,ROWS``.

This module reads books and looks positions up; :mod:`.book_builder` builds
them (it needs the solver, which needs this module).

File format (version 4, little endian): ``b"UBC4BOOK"``, version (u32),
plies (u32), entries (u64), the board's columns and rows (u16 each), then one
zlib stream of

* the sorted canonical keys, each stored as its difference from the previous
  key (the first from 0) in 8 bytes, byte plane by byte plane: all lowest
  bytes, then all second bytes, and so on. Neighbouring keys are close, so
  the high planes are runs of zeros that compress to almost nothing;
* the scores (i8 each, Pons' convention, side to move), in key order;
* the best moves (i8 each, in key order): for a deepest-level position the
  column (0-6 on the standard board) of the first move in centre-first order that keeps its score,
  for the position as its key encodes it (the smaller of its and its mirror's
  key); -1 elsewhere.

Version 3 files (the same without the board: the shipped book's) and version
2 files (no moves either) still load, as books of the standard 7x6 board.

The 8-ply book's 129,498 positions take 10 bytes each before compression and
about one after it (see the README for the shipped file's size).
"""

from __future__ import annotations

import os
import struct
import sys
import threading
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from itertools import accumulate
from pathlib import Path

from unbeatable.games.connect4 import (
    STANDARD,
    Connect4Position,
    Shape,
    canonical_key,
    position_key,
    predecessors,
)
from unbeatable.games.connect4 import shape as connect4_shape

MAGIC = b"UBC4BOOK"
VERSION = 4
#: Versions :func:`load_book` reads (2: scores only; 2 and 3: the standard board's).
_READABLE = (2, 3, 4)
#: Stored where a position has no move of its own in the book.
NO_MOVE = -1
_HEADER = struct.Struct("<8sIIQ")
#: What version 4 adds to the header: the board's columns and rows.
_BOARD = struct.Struct("<HH")
_DATA = Path(__file__).resolve().parent / "data"
#: The book shipped with the package (the standard board's; absent until built).
DEFAULT_BOOK = _DATA / "book.bin"


def shipped_path(shape: Shape) -> Path:
    """Where the package keeps a board's book if it ships one: ``data/book.bin``
    for the standard board (as ever), ``data/book-COLUMNSxROWS.bin`` for others."""
    return DEFAULT_BOOK if shape == STANDARD else _DATA / f"book-{shape.size}.bin"


def book_key(position: Connect4Position) -> tuple[int, bool]:
    """``position``'s key in a book, and whether that key is its mirror
    image's: the book keeps the smaller of the two, and a stored move is a
    move of the position in the orientation its key encodes."""
    own = position_key(position.current(), position.mask)
    mirrored = position.shape.mirror(own)  # (see connect4.canonical_key)
    return (own, False) if own <= mirrored else (mirrored, True)


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
        shape: Shape = STANDARD,
    ) -> None:
        keys, scores = list(keys), list(scores)
        best = [NO_MOVE] * len(keys) if moves is None else list(moves)
        triples = sorted(zip((int(k) for k in keys), scores, best, strict=True))
        #: The board the book's positions are on; it answers nothing about others.
        self.shape = shape
        self.plies = plies
        self.keys = array("Q", (k for k, _, _ in triples))
        self.scores = array("b", (int(s) for _, s, _ in triples))
        self.moves = array("b", (int(m) for _, _, m in triples))

    @classmethod
    def _sorted(
        cls, shape: Shape, plies: int, keys: array[int], scores: array[int], moves: array[int]
    ) -> Book:
        """A book from arrays already in key order (loading: no sort needed)."""
        book = cls.__new__(cls)
        book.shape, book.plies = shape, plies
        book.keys, book.scores, book.moves = keys, scores, moves
        return book

    def __len__(self) -> int:
        return len(self.keys)

    def __repr__(self) -> str:
        board = "" if self.shape == STANDARD else f" board={self.shape.size}"
        return f"<Book{board} plies={self.plies} positions={len(self)}>"

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
        if position.shape != self.shape:
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
        if position.shape != self.shape:
            return None
        key, mirrored = book_key(position)
        i = bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            return None
        col = self.moves[i]
        if col == NO_MOVE:
            return None
        return self.shape.columns - 1 - col if mirrored else col

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
        header = _HEADER.pack(MAGIC, VERSION, self.plies, count)
        board = _BOARD.pack(self.shape.columns, self.shape.rows)
        tmp.write_bytes(header + board + payload)
        os.replace(tmp, path)


class WrongBoardError(ValueError):
    """A book of one board offered to another (the error names both)."""


def _allowed(low: int, high: int) -> bytes:
    """The signed bytes ``low..high``: deleting them from stored bytes must
    leave nothing (a range check at C speed, not per entry)."""
    return bytes(v & 0xFF for v in range(low, high + 1))


def load_book(path: Path | str = DEFAULT_BOOK, shape: Shape | None = None) -> Book:
    """Read a book written by :meth:`Book.save`.

    Raises ValueError if the file is not one (or is corrupt), and
    :class:`WrongBoardError` if ``shape`` is given and the book is another
    board's. Raises OSError if the file cannot be read.
    """
    data = Path(path).read_bytes()
    if len(data) < _HEADER.size:
        raise ValueError(f"{path}: too short for a Connect Four book")
    magic, version, plies, count = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError(f"{path}: not a Connect Four book")
    if version not in _READABLE:
        readable = ", ".join(map(str, _READABLE))
        raise ValueError(
            f"{path}: a Connect Four book of version {version}, which this version of "
            f"unbeatable cannot read (it reads versions {readable})"
        )
    start = _HEADER.size
    board = STANDARD
    if version >= 4:
        if len(data) < start + _BOARD.size:
            raise ValueError(f"{path}: too short for a Connect Four book")
        columns, rows = _BOARD.unpack_from(data, start)
        start += _BOARD.size
        try:
            board = connect4_shape(columns, rows)
        except ValueError as exc:
            raise ValueError(f"{path}: corrupt book (a {columns}x{rows} board {exc})") from None
    if shape is not None and board != shape:
        raise WrongBoardError(
            f"{path}: a book of the {board.size} board cannot serve the {shape.size} board"
        )
    try:
        raw = zlib.decompress(data[start:])
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
    best = board.win_now(0)  # no score is further from 0
    if (
        deltas.count(0) > (deltas[0] == 0)
        or (count and keys[-1] >> (board.columns * board.stride))
        or score_bytes.translate(None, _allowed(-best, best))
        or move_bytes.translate(None, _allowed(NO_MOVE, board.columns - 1))
    ):
        raise ValueError(
            f"{path}: corrupt book (keys out of order or too big for {board.size}, "
            "scores or moves out of range)"
        )
    return Book._sorted(board, plies, keys, array("b", score_bytes), array("b", move_bytes))


#: board -> its shipped book (None: none ships), each loaded once.
_shipped: dict[Shape, Book | None] = {}
_shipped_lock = threading.Lock()


def default_book(shape: Shape = STANDARD) -> Book | None:
    """The opening book shipped for ``shape``'s board (only the standard board
    has one today), loaded once, at first use; None if none ships."""
    with _shipped_lock:
        if shape not in _shipped:
            path = shipped_path(shape)
            _shipped[shape] = load_book(path, shape) if path.exists() else None
        return _shipped[shape]


__all__ = [
    "DEFAULT_BOOK",
    "NO_MOVE",
    "Book",
    "WrongBoardError",
    "book_key",
    "default_book",
    "load_book",
    "shipped_path",
]
