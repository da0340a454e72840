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

This module reads books and looks positions up; :mod:`.book_builder` builds
them (it needs the solver, which needs this module).

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

MAGIC = b"UBC4BOOK"
VERSION = 3
#: Versions :func:`load_book` reads (2: scores only).
_READABLE = (2, 3)
#: Stored where a position has no move of its own in the book.
NO_MOVE = -1
_HEADER = struct.Struct("<8sIIQ")
#: The book shipped with the package (absent until built).
DEFAULT_BOOK = Path(__file__).resolve().parent / "data" / "book.bin"


def book_key(position: Connect4Position) -> tuple[int, bool]:
    """``position``'s key in a book, and whether that key is its mirror
    image's: the book keeps the smaller of the two, and a stored move is a
    move of the position in the orientation its key encodes."""
    cur, mask, mirror = position.current(), position.mask, position.shape.mirror
    own = position_key(cur, mask)
    mirrored = position_key(mirror(cur), mirror(mask))
    return (own, False) if own <= mirrored else (mirrored, True)


class Book:
    """Canonical position key -> exact Pons score, for positions up to ``plies`` stones.

    Plain arrays and a binary search: a lookup costs a microsecond or two, and
    loading needs neither numpy nor numba, so an answer from the book starts
    fast.
    """

    #: The board the book's positions are on (the file format is the
    #: standard board's); it answers nothing about other boards.
    shape: Shape = STANDARD

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
        tmp.write_bytes(_HEADER.pack(MAGIC, VERSION, self.plies, count) + payload)
        os.replace(tmp, path)


#: Every valid score (-21..21) as a signed byte: deleting them from the
#: stored scores must leave nothing (a check at C speed, not per entry).
_SCORE_BYTES = bytes(s & 0xFF for s in range(-21, 22))
_MOVE_BYTES = bytes(m & 0xFF for m in range(NO_MOVE, STANDARD.columns))


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


__all__ = [
    "DEFAULT_BOOK",
    "NO_MOVE",
    "Book",
    "book_key",
    "default_book",
    "load_book",
]
