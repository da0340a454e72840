"""The compiled hot loop: bitboard negamax over Connect Four positions.

Everything here is numba ``@njit(cache=True, nogil=True)`` (searches in
several threads run side by side), without reference counts where nothing
is allocated (:func:`_template`), and works on ``np.uint64`` bitboards in
Pons' layout (see :mod:`unbeatable.games.connect4`, which owns the board's
constants and the score formula): ``cur`` is the side to move's stones,
``mask`` all stones. Mixing signed and unsigned integers in numba silently
promotes to float, so every bitboard constant and shift amount below is an
``np.uint64``.

All numba code of the solver lives in this one file on purpose: numba's
on-disk cache only notices changes to the file a function is defined in.

One kernel per board
--------------------
The functions below are templates written once for every board: they read
the board's numbers (``WIDTH``, ``HEIGHT``, ``CELLS``, the masks, the
shifts of the four directions, the table's layout) as globals. The module's
own globals are the standard board's, for reading; :func:`for_shape` compiles
a board's kernel by giving each template that board's globals
(:func:`shape_constants`), so numba sees them as constants and compiles each
board once (7x6 compiles exactly the code it always did). Each board's
functions are named after it (``search_6x5_`` and a digest of its globals),
so numba's on-disk cache keeps one file per board and function, and reloads
it in later processes.

One stack walk, two searches
----------------------------
:func:`search` is alpha-beta negamax written as a loop over an explicit stack
(numba's on-disk cache cannot reload recursive functions, and a loop avoids
call overhead). With ``horizon < 0`` it is the exact solver (Pons' contract:
the side to move cannot win at once; the result ``v`` satisfies ``v <= alpha``
=> true score <= v, ``v >= beta`` => true score >= v, else ``v`` is the true
score; Pons scores throughout) and uses the transposition table. With
``horizon >= 0`` it is a depth-limited search that scores positions
``horizon`` plies below the root with :func:`evaluate`, proven results scaled
by :data:`PROVEN`, and leaves the table alone (guesses must not pollute it).

``stats`` is a small int64 array (:func:`new_stats`): nodes searched, node
budget, aborted flag, table generation, the depth at which an aborted
search stopped, and where an aborted :func:`narrow` stood. A search that
runs out of budget returns with the flag set (its value must be ignored)
and its stack intact: called again with ``resume=True`` and a larger
budget, it carries on exactly where it stopped. :func:`narrow` resumes the
same way. That is how callers with a deadline or a stop switch check them
between slices of work without ever redoing any.

Transposition table
-------------------
``table`` is a ``uint64`` array of :data:`TABLE_SIZE` entries, in buckets of
two (a prime number of buckets: on the standard board 2**23 + 9, 128 MiB in
all; smaller boards get smaller tables, boards past 42 cells 1 GiB). A
position's bucket is ``key % buckets`` with Pons' key ``cur + mask`` (49
bits on the standard board), or, for positions of fewer than
:data:`MIRRORED_BELOW` stones, the smaller of it and its mirror image's key
(:func:`table_key`: the two share an entry). The bucket's first entry keeps
the deepest position stored there (the most empty cells: the biggest tree to
search again), the second the latest; one cache line holds both. One entry
packs, low bits first::

    upper + SCORE (6 bits) | lower + SCORE (6 bits) | depth (4 bits) | key // buckets | generation

with ``SCORE`` the board's largest score (21 on the standard board), the
depth a third of the empty cells, the quotient in ``QUOTIENT_BITS`` bits (26
there; up to 41 on 64-bit boards) and the generation in the rest (22 bits
there, at least 7 anywhere).
Bucket and quotient together give back the whole key, so a hit is exact; the
generation lets the table be "cleared" in O(1) by bumping it (benchmarks time
each position from an empty table, as Pons does). Bounds stay true for ever,
so callers that don't bump it keep what earlier solves learnt. An entry is one
aligned word, so threads sharing the table never see half of one. A node
with a single move that does not lose at once (a forced move) keeps no
entry: its child's says the same.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from types import FunctionType
from typing import Any, TypeVar

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from unbeatable.games import connect4 as rules

U = np.uint64
ONE = U(1)
ZERO = U(0)
F = TypeVar("F", bound=Callable[..., Any])
#: The templates, in definition order: (name, function, numba options).
_TEMPLATES: list[tuple[str, Callable[..., Any], dict[str, Any]]] = []


def _template(**options: Any) -> Callable[[F], F]:
    """Mark a function as a kernel template, compiled per board by
    :func:`for_shape` with ``njit(cache=True, nogil=True, _nrt=False,
    **options)``: without numba's reference counts, which cost an atomic
    increment and decrement for each array passed or sliced and buy nothing
    where the caller owns every array for the whole call. A template that
    allocates says ``_nrt=True`` (numba refuses to compile it otherwise)."""

    def register(func: F) -> F:
        _TEMPLATES.append((func.__name__, func, {"_nrt": False, **options}))
        return func

    return register


#: Buckets (as a power of two) of the table of a board past 42 cells: 1 GiB,
#: the most issue 36 lets a solver take by default.
BIG_BOARD_TABLE_BITS = 26


def _smallest_prime_from(n: int) -> int:
    """The smallest prime >= ``n`` (trial division: n is at most ~2**24)."""
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n += 1
    return n


def shape_constants(shape: rules.Shape) -> dict[str, Any]:
    """Every board-dependent global the templates read, for ``shape``."""
    stride = shape.stride
    # Tables hold a few positions per cell of the tree's width: 2 x (2**23 + 9)
    # entries (128 MiB) from 26 cells up to the standard board's 42 (twice as
    # much there saved nothing), smaller below (a 4x4 board's 512 KiB), and
    # 1 GiB past 42 cells, whose trees are tens of times bigger (6x8 from
    # scratch: 38% fewer nodes, half the CPU time; benchmarks/README.md).
    bits = BIG_BOARD_TABLE_BITS if shape.cells > 42 else min(23, max(15, shape.cells - 3))
    buckets = _smallest_prime_from(1 << bits)
    size = 2 * buckets
    quotient_bits = max(26, shape.columns * stride - (buckets.bit_length() - 1))
    centre = (shape.columns - 1) // 2, shape.columns // 2
    column = (1 << shape.rows) - 1
    return {
        "WIDTH": shape.columns,
        "HEIGHT": shape.rows,
        "CELLS": shape.cells,
        "_H1": U(stride),
        "_H0": U(shape.rows),
        "_H2": U(stride + 1),
        "BOTTOM": U(shape.bottom),
        "BOARD": U(shape.board),
        "COLUMN": U(column),
        "ORDER": shape.centre_order,
        "SCORE": (shape.cells + 1) // 2,
        "TABLE_SIZE": size,
        "_SIZE": U(size),
        "_BUCKETS": U(buckets),
        "QUOTIENT_BITS": quotient_bits,
        "_QB": U(quotient_bits),
        "MAX_GENERATION": (1 << (48 - quotient_bits)) - 1,
        "STACK_DEPTH": shape.cells + 2,
        "_CENTRE": U(sum(column << (c * stride) for c in set(centre))),
        "_ODD_ROWS": U(shape.bottom * sum(1 << r for r in range(0, shape.rows, 2))),
        "_EVEN_ROWS": U(shape.bottom * sum(1 << r for r in range(1, shape.rows, 2))),
        "CLAIMEVEN": shape.rows % 2 == 0,
        "_SHIFTS": tuple(U(c * stride) for c in range(shape.columns)),
        "_COLUMN_KEY": U((1 << stride) - 1),
    }


# The standard board's values of those globals, for reading the templates
# (and for type checkers); a board's kernel gets its own.
_STANDARD = shape_constants(rules.STANDARD)
WIDTH: int = _STANDARD["WIDTH"]
HEIGHT: int = _STANDARD["HEIGHT"]
CELLS: int = _STANDARD["CELLS"]
#: Shifts to the next cell across (one column's bits), and the two diagonals.
_H1: np.uint64 = _STANDARD["_H1"]
_H0: np.uint64 = _STANDARD["_H0"]
_H2: np.uint64 = _STANDARD["_H2"]
BOTTOM: np.uint64 = _STANDARD["BOTTOM"]
BOARD: np.uint64 = _STANDARD["BOARD"]
#: The playable cells of column 0.
COLUMN: np.uint64 = _STANDARD["COLUMN"]
#: Columns from the centre out: central stones take part in more fours.
ORDER: tuple[int, ...] = _STANDARD["ORDER"]
#: The largest score (and the table's offset for bounds).
SCORE: int = _STANDARD["SCORE"]

#: Cells of rows 2, 4, 6, ... counted from the bottom.
_EVEN_ROWS: np.uint64 = _STANDARD["_EVEN_ROWS"]
#: Whether the board's height is even: then the second player can answer
#: every stone on top of it and take every even row's cell (claimeven).
CLAIMEVEN: bool = _STANDARD["CLAIMEVEN"]

#: Each column's shift in a key, and a column's bits of a key (with its spare bit).
_SHIFTS: tuple[np.uint64, ...] = _STANDARD["_SHIFTS"]
_COLUMN_KEY: np.uint64 = _STANDARD["_COLUMN_KEY"]
#: Positions with fewer stones than this share table entries with their
#: mirror images.
MIRRORED_BELOW = 22
#: Nodes with at least this many empty cells look their children up in the
#: table before searching any (enhanced transposition cutoffs): on the empty
#: 7x6 board 17% fewer nodes and about 15% less time; from 14 empty cells on,
#: fewer nodes still but slower (benchmarks/README.md).
ETC_EMPTIES = 20

# Fields of ``stats``: the search's, then where an aborted :func:`narrow`
# stood (its interval, guess, guided tests left and the test under way).
NODES, BUDGET, ABORTED, GENERATION, DEPTH = 0, 1, 2, 3, 4
LO, HI, GUESS, GUIDED_LEFT, PROBE = 5, 6, 7, 8, 9
#: Nonzero in a helper thread's :func:`narrow`: see :func:`other_probe_point`.
HELPER = 10
TABLE_SIZE: int = _STANDARD["TABLE_SIZE"]
_SIZE: np.uint64 = _STANDARD["_SIZE"]
_BUCKETS: np.uint64 = _STANDARD["_BUCKETS"]
QUOTIENT_BITS: int = _STANDARD["QUOTIENT_BITS"]
_QB: np.uint64 = _STANDARD["_QB"]
MAX_GENERATION: int = _STANDARD["MAX_GENERATION"]
_SIX = U(63)
_FOUR = U(15)
#: ``horizon`` of :func:`search` meaning "to the end": the exact solver.
EXACT = -1
#: ``guess`` value meaning "no guess": plain bisection.
NO_GUESS = 99

#: Pons score of winning with the next stone, from the rules module itself.
_win_now_score = njit(cache=True, nogil=True, inline="always")(rules.win_now_score)


@_template(inline="always")
def win_now(n: int) -> int:
    """Pons score of the side to move winning with its next stone, ``n``
    stones on the board."""
    return _win_now_score(CELLS, n)


def new_stats() -> np.ndarray:
    """A fresh ``stats`` array (see the module docstring)."""
    return np.zeros(11, dtype=np.int64)


@_template()
def column_mask(col: int) -> np.uint64:
    """The playable cells of column ``col``."""
    return COLUMN << (U(col) * _H1)


@_template()
def is_four(stones: np.uint64) -> bool:
    """Four in a row anywhere in one player's stones (shift per direction:
    1 up, ``HEIGHT + 1`` across, ``HEIGHT`` and ``HEIGHT + 2`` the diagonals)."""
    for s in (ONE, _H1, _H0, _H2):
        pairs = stones & (stones >> s)
        if pairs & (pairs >> (U(2) * s)):
            return True
    return False


@_template()
def can_win_next(cur: np.uint64, mask: np.uint64) -> bool:
    """Whether the side to move has a four available right now."""
    possible = (mask + BOTTOM) & BOARD
    for col in range(WIDTH):
        move = possible & column_mask(col)
        if move != ZERO and is_four(cur | move):
            return True
    return False


@_template()
def popcount(v: np.uint64) -> int:
    """Number of set bits (SWAR: sum bits in pairs, nibbles, then bytes)."""
    v = v - ((v >> ONE) & U(0x5555555555555555))
    v = (v & U(0x3333333333333333)) + ((v >> U(2)) & U(0x3333333333333333))
    v = (v + (v >> U(4))) & U(0x0F0F0F0F0F0F0F0F)
    return int((v * U(0x0101010101010101)) >> U(56))


@_template()
def winning_cells(stones: np.uint64, mask: np.uint64) -> np.uint64:
    """Empty cells (playable now or not) where ``stones`` would complete a four.

    For each direction with step ``s`` (1 vertical, ``HEIGHT + 1``
    horizontal, ``HEIGHT`` and ``HEIGHT + 2`` the diagonals) a cell completes
    a four when the three cells on one side, or two on one side and one on
    the other, are ours; the sentinel row stops lines from wrapping across
    columns.
    """
    r = (stones << ONE) & (stones << U(2)) & (stones << U(3))
    for s in (_H1, _H0, _H2):
        pair = (stones << s) & (stones << (U(2) * s))
        r |= pair & (stones << (U(3) * s))
        r |= pair & (stones >> s)
        pair = (stones >> s) & (stones >> (U(2) * s))
        r |= pair & (stones << s)
        r |= pair & (stones >> (U(3) * s))
    return r & (BOARD ^ mask)


@_template(inline="always")
def no_four_left(cur: np.uint64, mask: np.uint64, moves: int) -> bool:
    """Whether the side to move can be kept from ever making four, so that a
    draw is the best it can hope for (a score of at most 0).

    Always so when its stones and every empty cell hold no four. On a board
    of even height, with the first player to move, the second can answer
    each stone on top of it in the same column (claimeven; and when the
    first plays the even-row cell a column offers now, the second plays the
    same in another such column: there is an even number of them). The
    first player then gets only its stones, the empty cells of odd rows and
    those even-row cells playable now: no four there, no win. (Allis' rule;
    in a null-window test of "more than 0?" it fails such positions at once.)
    """
    empty = BOARD ^ mask
    if CLAIMEVEN and moves % 2 == 0:
        playable = (mask + BOTTOM) & BOARD
        return not is_four(cur | (empty & ~(_EVEN_ROWS & ~playable)))
    return not is_four(cur | empty)


@_template(inline="always")
def cells_above(bits: np.uint64) -> np.uint64:
    """Every cell above one of ``bits`` in its column, up to the top (the
    column's sentinel stops each shift)."""
    up = (bits << ONE) & BOARD
    for _ in range(HEIGHT - 2):
        up |= (up << ONE) & BOARD
    return up


@_template()
def claimeven_bound(cur: np.uint64, mask: np.uint64, threats: np.uint64) -> int:
    """The first player to move on a board of even height (``threats``: the
    second's, its :func:`winning_cells`): an upper bound on its score from
    claimeven, or ``SCORE`` when it has a four against it.

    As :func:`no_four_left` says, but a cell of the first's above a threat
    of the second on an even row not playable now does not count: the
    second takes that threat with its answer to the first's stone under it
    and wins, so the first never plays above it before losing. Without a
    four, the first never wins: at most :func:`claimeven_loss`, and a loss
    at least as soon as those threats force it. The first, to put that off,
    plays no cell from the one under such a threat up (its stone there lets
    the second take the threat), and the second's answers (right on top, or
    another column's even-row cell playable now) stay out of them too; with
    ``f`` such cells, the second wins with stone ``CELLS + 2 - f`` at the
    latest (one less if that is the first's): a score of at most
    ``-(f // 2)``."""
    playable = (mask + BOTTOM) & BOARD
    claimed = _EVEN_ROWS & ~playable
    evens = threats & claimed
    cut = cells_above(evens)
    if is_four(cur | (BOARD & ~mask & ~claimed & ~cut)):
        return SCORE
    forbidden = cut | evens | (evens >> ONE)
    return min(claimeven_loss(cur, mask), -(popcount(forbidden) // 2))


@_template()
def claimeven_loss(cur: np.uint64, mask: np.uint64) -> int:
    """On a board of even height, the first player to move (``cur``) having
    no four against claimeven (:func:`no_four_left`): an upper bound on its
    score from the second's claimeven, 0 when that makes no four, else a
    loss. The second keeps its stones and gets every even-row cell not
    playable now; the first never makes four and the game cannot be drawn.
    With a four of those cells in rows 1 to ``r``, the second completes one
    while the cells above row ``r`` of that column are still empty: with
    stone ``CELLS - HEIGHT + r`` at the latest (an even number: rows are
    tried two by two)."""
    playable = (mask + BOTTOM) & BOARD
    theirs = (cur ^ mask) | (BOARD & ~mask & _EVEN_ROWS & ~playable)
    if not is_four(theirs):
        return 0
    for r in range(2, HEIGHT, 2):
        if is_four(theirs & (BOTTOM * ((ONE << U(r)) - ONE))):
            return -((HEIGHT - r + 2) // 2)
    return -1


@_template()
def odd_threat_loss(cur: np.uint64, mask: np.uint64, threats: np.uint64) -> int:
    """On a board of even height, the second player to move (``cur``): an
    upper bound on its score from the first player's odd threat, or
    ``SCORE`` (no bound). ``threats``: the first player's (its
    :func:`winning_cells`), which the caller has at hand.

    The first player answers every stone on top of it in the same column
    (follow-up). In a column of even height the second then gets the odd
    rows and never the top cell; in one of odd height the even rows, and the
    top: then the first, with no answer there, plays in another column of odd
    height, which it may lose to the second entirely (there is one: with the
    second to move, the columns of odd height are odd in number). Take one
    such column ``c`` where the first's stones have a threat on an odd row
    (the lowest, ``T``): ``T`` is the first's as soon as the second fills the
    cell under it, before ``c``'s top. If the second's stones, the odd-row
    cells of the columns of even height, every empty cell of the other
    columns of odd height and the even-row cells of ``c`` under ``T`` hold no
    four, the second never wins before that and the first wins with ``T`` at
    the latest. A threat of the first's on an even row of a column of even
    height is the first's as well once the second fills the cell under it,
    so the second never gets the cells above it either. When at the latest:
    the second, to put the first's win off, fills no cell from the one under
    ``T`` up nor from the one under such a threat up (its stone there gives
    the first a four at once), and the first's answers stay out of them
    too; with ``f`` such cells, the first wins with stone ``CELLS + 2 - f``
    at the latest (one less to be the first's): a score of at least ``f //
    2`` (``(HEIGHT - r + 2) // 2`` with ``T`` on row ``r`` alone). (Allis'
    follow-up with an odd threat: the first player's zugzwang.)"""
    odd_threats = threats & _ODD_ROWS
    if odd_threats == ZERO:
        return SCORE
    playable = (mask + BOTTOM) & BOARD
    odd = playable & _EVEN_ROWS  # the next cell of a column of odd height
    empty = BOARD ^ mask
    # The empty cells of the columns of odd height (``odd`` and above).
    odd_columns = odd | cells_above(odd)
    odd_threats &= odd_columns
    if odd_threats == ZERO:
        return SCORE
    # In a column of even height the first takes the even rows: a threat of
    # its own there wins as soon as the second fills the cell under it, so
    # the second never gets the cells above.
    evens = threats & _EVEN_ROWS & ~odd_columns
    cut = cells_above(evens)
    base = cur | (empty & ~odd_columns & _ODD_ROWS & ~cut)
    # Cells the second does not fill before the first wins: from the cell
    # under such a threat up (the second's stone there gives it away).
    forbidden = cut | evens | (evens >> ONE)
    threats = odd_threats
    best = SCORE
    rest = odd
    while rest != ZERO:
        o = rest & (~rest + ONE)
        rest ^= o
        # ``c``'s cells from ``o`` up (all empty), cut at the column's sentinel.
        above = o * ((ONE << _H0) - ONE)
        top = above & (BOTTOM << _H0)
        if top != ZERO:
            above &= top - ONE
        mine = threats & above
        if mine == ZERO:
            continue
        t = mine & (~mine + ONE)
        if not is_four(base | (odd_columns & ~above) | (above & (t - ONE) & _EVEN_ROWS)):
            best = min(best, -(popcount(forbidden | (above & ~((t >> ONE) - ONE))) // 2))
    return best


# -- transposition table ----------------------------------------------------------


@_template(inline="always")
def table_key(key: np.uint64, n: int) -> np.uint64:
    """The table's key of a position with key ``cur + mask`` and ``n``
    stones: early on, the smaller of its key and its mirror image's (a
    column's bits of ``cur + mask`` never carry into the next, so mirroring
    the key column by column gives the mirror image's key), so that the two
    share one entry; their scores are equal."""
    if n >= MIRRORED_BELOW:
        return key
    mirror = ZERO
    for c in range(WIDTH):
        mirror |= ((key >> _SHIFTS[c]) & _COLUMN_KEY) << _SHIFTS[WIDTH - 1 - c]
    return min(key, mirror)


@_template()
def table_get(table: np.ndarray, gen: int, key: np.uint64) -> tuple[int, int]:
    """(lower, upper) bounds stored for ``key``; the trivial (-SCORE, SCORE) if none."""
    slot = (key % _BUCKETS) * U(2)
    tag = (U(gen) << _QB) | (key // _BUCKETS)
    entry = table[slot]
    if (entry >> U(16)) != tag:
        entry = table[slot + ONE]
        if (entry >> U(16)) != tag:
            return -SCORE, SCORE
    return int((entry >> U(6)) & _SIX) - SCORE, int(entry & _SIX) - SCORE


@_template()
def table_put(table: np.ndarray, gen: int, key: np.uint64, n: int, lower: int, upper: int) -> None:
    """Store bounds for ``key`` (a position of ``n`` stones), keeping the
    tighter of old and new if it is there. A bucket holds two entries: the
    first keeps the position with the most empty cells (the biggest tree),
    the second the latest."""
    slot = (key % _BUCKETS) * U(2)
    tag = (U(gen) << _QB) | (key // _BUCKETS)
    depth = U((CELLS - n) // 3)
    at = slot
    entry = table[at]
    if (entry >> U(16)) != tag:
        at = slot + ONE
        entry = table[at]
        if (entry >> U(16)) != tag:
            # New: into the first entry if it is at least as deep as what is
            # there (or that is of another generation), the old one moving down.
            first = table[slot]
            if (first >> (U(16) + _QB)) != U(gen) or depth >= ((first >> U(12)) & _FOUR):
                table[at] = first
                at = slot
            entry = ZERO  # nothing stored for ``key`` to merge with
    if entry != ZERO:
        lower = max(lower, int((entry >> U(6)) & _SIX) - SCORE)
        upper = min(upper, int(entry & _SIX) - SCORE)
    lower = min(max(lower, -SCORE), SCORE)
    upper = min(max(upper, -SCORE), SCORE)
    table[at] = (tag << U(16)) | (depth << U(12)) | (U(lower + SCORE) << U(6)) | U(upper + SCORE)


def _prefetch_typing(typingctx: Any, array: Any, index: Any) -> Any:
    """``_prefetch(array, index)``: ask the CPU to start loading
    ``array[index]`` into cache (LLVM's ``llvm.prefetch``: a read, high
    locality). Never faults, never blocks; numba has no such function."""
    sig = types.void(array, index)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, array_type, view, [args[1]], wraparound=False
        )
        name = "llvm.prefetch.p0"
        if not getattr(ptr.type, "is_opaque", False):  # LLVM before opaque pointers
            ptr = builder.bitcast(ptr, ir.IntType(8).as_pointer())
            name = "llvm.prefetch.p0i8"
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [ptr.type, i32, i32, i32])
        fn = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, fnty, name
        )
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


_prefetch: Any = intrinsic(_prefetch_typing)


@_template(inline="always")
def prefetch_children(
    table: np.ndarray, possible: np.uint64, cur: np.uint64, mask: np.uint64, n: int
) -> None:
    """Start loading the table slots of every child about to be searched
    (children with ``n`` stones).

    A probe is a random access into 128 MiB, so it mostly misses the caches;
    issued here, the loads overlap each other and the move ordering instead
    of stalling each child's first step in turn (about 1.5x the nodes per
    second, same nodes).
    """
    opp = cur ^ mask  # the child's side to move
    for col in range(WIDTH):
        move = possible & column_mask(col)
        if move != ZERO:
            _prefetch(table, (table_key(opp + (mask | move), n) % _BUCKETS) * U(2))


# -- move generation and ordering ----------------------------------------------------

# Per-depth frame layout of the explicit stack.
# ``bits`` (uint64): [cur, mask, the node's table key (0: none), move 0 ..
# move 6]; ``ints`` (int64): the rest.
F_CUR, F_MASK, F_KEY, F_MOVE0 = 0, 1, 2, 3
F_ALPHA, F_BETA, F_COUNT, F_NEXT, F_BEST, F_SCORE0 = 0, 1, 2, 3, 4, 5
STACK_DEPTH: int = _STANDARD["STACK_DEPTH"]
#: A move's ordering score when it leaves the opponent no reply that does
#: not lose at once (more than any count of threats on a 64-bit board).
WINS_NEXT = 64


@_template(inline="always")
def non_losing_moves(cur: np.uint64, mask: np.uint64) -> np.uint64:
    """The moves that don't lose at once (the side to move cannot win at
    once): block a lone opponent threat, never play right under one; with
    two threats to block, none (every move loses)."""
    return non_losing_moves_of(mask, winning_cells(cur ^ mask, mask))


@_template(inline="always")
def non_losing_moves_of(mask: np.uint64, threats: np.uint64) -> np.uint64:
    """:func:`non_losing_moves` given the opponent's threats."""
    possible = (mask + BOTTOM) & BOARD
    forced = possible & threats
    if forced != ZERO:
        if forced & (forced - ONE):
            return ZERO
        possible = forced
    return possible & ~(threats >> ONE)


@_template(inline="always")
def sort_by_threats(
    possible: np.uint64,
    cur: np.uint64,
    mask: np.uint64,
    theirs: np.uint64,
    look: int,
    bits: np.ndarray,
    ints: np.ndarray,
    d: int,
) -> tuple[int, int]:
    """Write the moves of ``possible`` to stack frame ``d`` (``bits[d,
    F_MOVE0 + j]``, their scores at ``ints[d, F_SCORE0 + j]``), most
    threats (cells that would complete a four) first, centre first among
    equals: a stable insertion sort. Returns their count. A threat right
    above one of the opponent's is not counted: it never wins (whoever fills
    the cell below, the opponent either wins there or takes ours next),
    and ordering without it searches 8% fewer nodes from the empty board.
    A move that leaves the opponent no reply that does not lose at once
    (two threats to block, one to block right under another, or every
    column under one) wins with our next stone: it scores :data:`WINS_NEXT`
    and comes first, and the search reads from the first score whether
    any move does (a quarter fewer nodes on ``Test_L1_R2``). (Indices
    rather than row views: views cost measurably in the hot loop.)

    ``theirs``: the opponent's threats (its :func:`winning_cells`). With
    ``look`` (on a board of even height) it also returns the best lower
    bound a move gets from the threats the sort has at hand for it, else
    ``-SCORE``: (count, bound). ``look`` 1, the first player to move: the
    first's odd threat after the move (:func:`odd_threat_loss`); 2, the
    second player to move: claimeven after the move (the first then has
    no four: at least a draw, and a win by :func:`claimeven_bound`)."""
    count = 0
    bound = -SCORE
    useless = theirs << ONE
    for col in ORDER:
        move = possible & column_mask(col)
        if move != ZERO:
            after = mask | move
            threats = winning_cells(cur | move, after)
            score = popcount(threats & ~useless)
            # A move that leaves the opponent no reply that does not lose at
            # once wins with our next stone: first.
            replies = (after + BOTTOM) & BOARD
            forced = replies & threats
            if forced != ZERO:
                replies = ZERO if forced & (forced - ONE) else forced
            if replies & ~(threats >> ONE) == ZERO:
                score = WINS_NEXT
            if look == 1:
                bound = max(bound, -odd_threat_loss(cur ^ mask, after, threats))
            elif look == 2:
                bound = max(bound, -claimeven_bound(cur ^ mask, after, threats))
            j = count
            while j > 0 and ints[d, F_SCORE0 + j - 1] < score:
                bits[d, F_MOVE0 + j] = bits[d, F_MOVE0 + j - 1]
                ints[d, F_SCORE0 + j] = ints[d, F_SCORE0 + j - 1]
                j -= 1
            bits[d, F_MOVE0 + j] = move
            ints[d, F_SCORE0 + j] = score
            count += 1
    return count, bound


@_template(_nrt=True)  # (it allocates its buffers)
def ordered_children(cur: np.uint64, mask: np.uint64, out: np.ndarray) -> int:
    """Columns of the moves that don't lose at once, in search order (most
    useful threats first, then centre first), written to ``out``; their count.

    Like the search, it assumes the side to move cannot win at once; 0 means
    every move loses to the opponent's next one.
    """
    bits = np.empty((1, F_MOVE0 + WIDTH), dtype=np.uint64)
    ints = np.empty((1, F_SCORE0 + WIDTH), dtype=np.int64)
    theirs = winning_cells(cur ^ mask, mask)
    count, _bound = sort_by_threats(
        non_losing_moves_of(mask, theirs), cur, mask, theirs, 0, bits, ints, 0
    )
    for j in range(count):
        for col in range(WIDTH):
            if bits[0, F_MOVE0 + j] & column_mask(col):
                out[j] = col
    return count


# -- the heuristic, for depth-limited search ------------------------------------------

#: Proven scores are scaled by this in depth-limited search; heuristic values
#: stay strictly inside it.
PROVEN = 1000
#: The centre column (the two central ones on boards of even width).
_CENTRE: np.uint64 = _STANDARD["_CENTRE"]
#: Bit rows 0, 2, 4, ... (rows 1, 3, 5, ... counted from the bottom): threats
#: there favour the first player, the others the second (the zugzwang
#: "parity" rule).
_ODD_ROWS: np.uint64 = _STANDARD["_ODD_ROWS"]


@_template()
def evaluate(cur: np.uint64, mask: np.uint64, moves: int) -> int:
    """Connect Four's heuristic: a value for the side to move, strictly
    within +-PROVEN.

    Counts open threats (empty cells completing a four) of both sides, with a
    bonus for threats on rows of the owner's parity (odd rows for x, even for
    o), which decide most endgames, plus stones in the centre column.
    """
    opp = cur ^ mask
    mine = winning_cells(cur, mask)
    theirs = winning_cells(opp, mask)
    my_rows = _ODD_ROWS if moves % 2 == 0 else (BOARD ^ _ODD_ROWS)
    their_rows = BOARD ^ my_rows
    value = 4 * (popcount(mine) - popcount(theirs))
    value += 3 * (popcount(mine & my_rows) - popcount(theirs & their_rows))
    value += popcount(cur & _CENTRE) - popcount(opp & _CENTRE)
    return min(max(value, 1 - PROVEN), PROVEN - 1)


# -- the search -----------------------------------------------------------------------


@_template()
def search(
    cur: np.uint64,
    mask: np.uint64,
    moves: int,
    alpha: int,
    beta: int,
    horizon: int,
    table: np.ndarray,
    bits: np.ndarray,
    ints: np.ndarray,
    stats: np.ndarray,
    resume: bool,
) -> int:
    """Alpha-beta negamax over the explicit stack; see the module docstring
    for the two modes (``horizon``), the contract and resuming.

    ``d`` is the depth below the root: each node is *entered* (leaf tests,
    bounds, move generation), then walks its children (*next*), and finally
    *returns* ``ret`` to its parent.
    """
    exact = horizon < 0
    unit = 1 if exact else PROVEN
    gen = stats[GENERATION]
    if resume:
        d = stats[DEPTH]  # re-enter the node where the budget ran out
    else:
        d = 0
        bits[0, F_CUR] = cur
        bits[0, F_MASK] = mask
        ints[0, F_ALPHA] = alpha
        ints[0, F_BETA] = beta
    stats[ABORTED] = 0
    entering = True
    ret = 0
    while True:
        done = False  # node d's value is ``ret``: pop it to the parent
        if entering:
            if stats[NODES] >= stats[BUDGET]:
                stats[ABORTED] = 1
                stats[DEPTH] = d
                return 0
            stats[NODES] += 1
            cur = bits[d, F_CUR]
            mask = bits[d, F_MASK]
            n = moves + d
            a = ints[d, F_ALPHA]
            b = ints[d, F_BETA]
            # Precondition: the side to move cannot win at once. Keep only
            # moves that don't lose at once; none left: the opponent wins
            # with its next stone.
            opp_threats = winning_cells(cur ^ mask, mask)
            possible = non_losing_moves_of(mask, opp_threats)
            single = False
            if possible == ZERO:
                ret = -win_now(n + 1) * unit
                done = True
            elif n >= CELLS - 2:
                ret = 0  # two cells left and neither side can win: a draw
                done = True
            elif not exact:
                if d >= horizon:
                    ret = evaluate(cur, mask, n)
                    done = True
            else:
                # Neither side wins with its next stone: the score lies
                # between losing to the opponent's second stone and winning
                # with our own second, and not at all if no four is left
                # to it (:func:`no_four_left`, tested only when a win would
                # matter); then the table may know tighter bounds.
                lower = -win_now(n + 3)
                upper = win_now(n + 2)
                if CLAIMEVEN and n % 2 == 0:
                    # The first player to move: against claimeven it may have
                    # no four (at most a draw), and then the second may have
                    # one (a loss), which matters as soon as a draw would.
                    if b > -(HEIGHT // 2):
                        upper = min(upper, claimeven_bound(cur, mask, opp_threats))
                else:
                    if CLAIMEVEN:
                        # The second player to move: the first's odd threat.
                        upper = min(upper, odd_threat_loss(cur, mask, opp_threats))
                    if b > 0 and upper > 0 and no_four_left(cur, mask, n):
                        upper = 0
                if a < lower:
                    a = lower
                    if a >= b:
                        ret, done = a, True
                if not done and b > upper:
                    b = upper
                    if a >= b:
                        ret, done = b, True
                # A forced move (one move does not lose at once): the node
                # keeps no entry and sorts nothing; its child's entry says all
                # it would. Its parent's transpositions then cost one more
                # node, but the whole search takes about a sixth less time.
                single = possible & (possible - ONE) == ZERO
                key = ZERO
                if not done and not single:
                    key = table_key(cur + mask, n)
                    lower, upper = table_get(table, gen, key)
                    if a < lower:
                        a = lower
                        if a >= b:
                            ret, done = a, True
                    if not done and b > upper:
                        b = upper
                        if a >= b:
                            ret, done = b, True
                bits[d, F_KEY] = key
                if not done:
                    ints[d, F_ALPHA] = a
                    ints[d, F_BETA] = b
                    ints[d, F_BEST] = -2 * SCORE
                    prefetch_children(table, possible, cur, mask, n + 1)
            if not done and single:  # (only the exact search tells)
                bits[d, F_MOVE0] = possible
                ints[d, F_COUNT] = 1
                ints[d, F_NEXT] = 0
            elif not done:
                # Most useful threats (cells that would complete a four) first,
                # centre first among equals: insertion sort, stable.
                # One move ahead, from the threats the ordering computes: the
                # first player's odd threat after a move of its own (up to the
                # most that bound gives), or, for the second needing no more
                # than a draw or the smallest win, claimeven after its move.
                # Such a child fails its side to move at once, but only once
                # searched, after the siblings ordered before it.
                look = 0
                if exact and CLAIMEVEN:
                    if n % 2 == 0:
                        look = 1
                    elif n % 2 == 1 and b <= 1:
                        look = 2
                count, found = sort_by_threats(
                    possible, cur, mask, opp_threats, look, bits, ints, d
                )
                ints[d, F_COUNT] = count
                ints[d, F_NEXT] = 0
                if look != 0 and found >= b:
                    ret, done = found, True
                    table_put(table, gen, bits[d, F_KEY], n, ret, SCORE)
                if not done and exact and ints[d, F_SCORE0] < WINS_NEXT:
                    # No move wins with our next stone: the best left is a
                    # win with the stone after. (Sound: a move outside
                    # ``possible`` loses at once; after any other, the
                    # opponent has a reply that neither loses at once nor,
                    # being no cell right under a threat of ours and
                    # blocking the only one playable, lets us win at once.)
                    upper = win_now(n + 4)
                    if b > upper:
                        b = upper
                        ints[d, F_BETA] = b
                        if a >= b:
                            ret, done = b, True
                if not done and exact and CELLS - n >= ETC_EMPTIES:
                    # Enhanced transposition cutoff, once the children's slots
                    # have had the sort's time to load: a child whose upper
                    # bound (its view) already lifts us to beta.
                    # A child with one reply that does not lose at once keeps
                    # no entry (a forced node): its grandchild's, after that
                    # reply, has our side to move and a lower bound on what
                    # the move gets us.
                    opp = cur ^ mask
                    for j in range(count):
                        move = bits[d, F_MOVE0 + j]
                        after = mask | move
                        reply = non_losing_moves(opp, after)
                        if reply != ZERO and reply & (reply - ONE) == ZERO:
                            grandchild = table_key((cur | move) + (after | reply), n + 2)
                            found, _ug = table_get(table, gen, grandchild)
                        else:
                            child = table_key(opp + after, n + 1)
                            _lc, upper_c = table_get(table, gen, child)
                            found = -upper_c
                        if found >= b:
                            ret, done = found, True
                            table_put(table, gen, key, n, ret, SCORE)
                            break
        else:
            score = -ret  # a child of node d returned ``ret``
            if score >= ints[d, F_BETA]:
                ret = score
                done = True
                if exact and bits[d, F_KEY] != ZERO:
                    table_put(table, gen, bits[d, F_KEY], moves + d, score, SCORE)
            else:
                if score > ints[d, F_ALPHA]:
                    ints[d, F_ALPHA] = score
                if score > ints[d, F_BEST]:
                    ints[d, F_BEST] = score
        if not done:
            i = ints[d, F_NEXT]
            if i < ints[d, F_COUNT]:
                ints[d, F_NEXT] = i + 1
                cur = bits[d, F_CUR]
                mask = bits[d, F_MASK]
                bits[d + 1, F_CUR] = cur ^ mask
                bits[d + 1, F_MASK] = mask | bits[d, F_MOVE0 + i]
                ints[d + 1, F_ALPHA] = -ints[d, F_BETA]
                ints[d + 1, F_BETA] = -ints[d, F_ALPHA]
                d += 1
                entering = True
                continue
            # Every move searched, none reached beta: fail soft, the best
            # child's bound (at most alpha) is a tighter upper bound.
            ret = ints[d, F_BEST] if exact else ints[d, F_ALPHA]
            if exact and bits[d, F_KEY] != ZERO:
                table_put(table, gen, bits[d, F_KEY], moves + d, -SCORE, ret)
        if d == 0:
            return ret
        d -= 1
        entering = False


@_template()
def _half(v: int) -> int:
    """``v / 2`` rounded toward zero (C's division, as in Pons' solver)."""
    return v // 2 if v >= 0 else -((-v) // 2)


@_template()
def probe_point(lo: int, hi: int, guess: int) -> int:
    """Where the next null-window test of the interval ``[lo, hi]`` goes: the
    search then answers "is the score > med?".

    With a ``guess`` (a neighbouring position's score, say) the test sits
    right at it, as in MTD(f), so a right guess is proved in two cheap
    searches. Without one, the sign first ("a draw at least?"), then
    bisection, the odd value to the half nearer zero. The costly tests are
    those next to the true score, and every schedule ends with two of them;
    bisection keeps the others few: 17% fewer nodes than a schedule leaning
    to the extremes from the empty 7x6 board, 20% on ``Test_L2_R2`` and 8%
    on ``Test_L1_R3`` (benchmarks/README.md, "Bisection").
    """
    if guess != NO_GUESS:
        return min(max(guess, lo + 1), hi) - 1  # "is the score >= guess?"
    if lo < 0 < hi:
        return max(_half(lo + hi), lo + 1) - 1
    half_width = (hi - lo - 1) // 2
    return lo + half_width if lo >= 0 else hi - 1 - half_width


@_template()
def other_probe_point(lo: int, hi: int, guess: int) -> int:
    """A helper thread's next test of ``[lo, hi]``: the one beside
    :func:`probe_point`'s, and with a ``guess`` the test just above it. An
    exact score takes two expensive tests, "more than s - 1?" (yes) and
    "more than s?" (no): where the main thread has one of the pair, its
    helper has the other."""
    if guess != NO_GUESS:
        return min(max(guess + 1, lo + 1), hi) - 1
    med = probe_point(lo, hi, NO_GUESS)
    if med + 1 < hi:
        return med + 1
    return med - 1 if med > lo else med  # (two values left: the one test)


@_template()
def next_guess(lo: int, hi: int, failed_low: bool) -> int:
    """The guess of the second guided test, after the first landed on
    ``[lo, hi]``: "is it hi after all?" or "is it more than lo?"."""
    return hi if failed_low else lo + 1


#: Guided tests before narrowing falls back to bisection.
GUIDED = 2


@_template()
def narrow(
    cur: np.uint64,
    mask: np.uint64,
    moves: int,
    lo: int,
    hi: int,
    guess: int,
    table: np.ndarray,
    bits: np.ndarray,
    ints: np.ndarray,
    stats: np.ndarray,
    resume: bool,
) -> int:
    """The score, known to lie in ``[lo, hi]``, by null-window searches
    placed by :func:`probe_point` (the first :data:`GUIDED` at ``guess``).

    The one narrowing loop of the solver: :func:`solve` runs it to the end,
    callers with limits in slices of the node budget. Out of budget it
    returns with the aborted flag set (the value means nothing) and its
    state in ``stats``; called again with ``resume=True`` (``lo``, ``hi``
    and ``guess`` then ignored) it carries on where it stopped."""
    if resume:
        lo, hi, guess = stats[LO], stats[HI], stats[GUESS]
        guided, med = stats[GUIDED_LEFT], stats[PROBE]
    else:
        guided, med = (0 if guess == NO_GUESS else GUIDED), 0
    stats[ABORTED] = 0
    while lo < hi:
        if not resume:
            if stats[HELPER]:
                med = other_probe_point(lo, hi, guess if guided > 0 else NO_GUESS)
            else:
                med = probe_point(lo, hi, guess if guided > 0 else NO_GUESS)
        r = search(cur, mask, moves, med, med + 1, EXACT, table, bits, ints, stats, resume)
        resume = False
        if stats[ABORTED]:
            stats[LO], stats[HI], stats[GUESS] = lo, hi, guess
            stats[GUIDED_LEFT], stats[PROBE] = guided, med
            return 0
        if r <= med:
            hi = r
        else:
            lo = r
        guided -= 1
        guess = next_guess(lo, hi, r <= med)
    return lo


@_template()
def solve(
    cur: np.uint64,
    mask: np.uint64,
    moves: int,
    weak: bool,
    guess: int,
    table: np.ndarray,
    bits: np.ndarray,
    ints: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Exact Pons score of a position nobody has won yet (weak: -1, 0 or 1),
    in one call. ``guess``: a likely score to test first, or :data:`NO_GUESS`."""
    if can_win_next(cur, mask):
        return 1 if weak else win_now(moves)
    if weak:
        score = narrow(cur, mask, moves, -1, 1, NO_GUESS, table, bits, ints, stats, False)
        return min(max(score, -1), 1)
    lo, hi = -win_now(moves + 1), win_now(moves)
    return narrow(cur, mask, moves, lo, hi, guess, table, bits, ints, stats, False)


# -- one kernel per board -------------------------------------------------------------


class Kernel:
    """One board's compiled kernel (:func:`for_shape`): its searches, the
    table size they expect, and the module's shared constants, so that
    callers need only this object."""

    U = U
    NODES, BUDGET, ABORTED, GENERATION, HELPER = NODES, BUDGET, ABORTED, GENERATION, HELPER
    LO, HI = LO, HI
    EXACT, NO_GUESS, PROVEN = EXACT, NO_GUESS, PROVEN

    def __init__(self, shape: rules.Shape, space: dict[str, Any]) -> None:
        self.shape = shape
        #: Entries of the table this kernel's searches probe, and the last
        #: generation its entries can record.
        self.table_size: int = space["TABLE_SIZE"]
        self.max_generation: int = space["MAX_GENERATION"]
        self._stack_depth: int = space["STACK_DEPTH"]
        self.search: Any = space["search"]
        self.narrow: Any = space["narrow"]
        self.solve: Any = space["solve"]
        self.ordered_children: Any = space["ordered_children"]
        self.evaluate: Any = space["evaluate"]

    def __repr__(self) -> str:
        return f"<Connect Four kernel {self.shape.size}>"

    new_stats = staticmethod(new_stats)

    def new_stacks(self) -> tuple[np.ndarray, np.ndarray]:
        """Scratch stacks for :func:`search` (one pair per thread, reused)."""
        width = self.shape.columns
        return (
            np.zeros((self._stack_depth, F_MOVE0 + width), dtype=np.uint64),
            np.zeros((self._stack_depth, F_SCORE0 + width), dtype=np.int64),
        )


_kernels: dict[rules.Shape, Kernel] = {}
_kernels_lock = threading.Lock()


def for_shape(shape: rules.Shape) -> Kernel:
    """The kernel of a board: every template compiled with the board's
    globals (:func:`shape_constants`), once per process, and from numba's
    on-disk cache after the first process (see the module docstring).

    Each template becomes a new function of the same code over a globals
    namespace of its own board, where the other templates' names are that
    board's compiled functions. Its name gets the board's size and a digest
    of those globals, which name its cache file: numba's cache does not see
    globals, so a change to one (in the rules, say) must give a new file.
    """
    with _kernels_lock:
        if shape not in _kernels:
            _kernels[shape] = _compile(shape)
        return _kernels[shape]


def _compile(shape: rules.Shape) -> Kernel:
    """A board's kernel (the functions compile lazily, at their first call)."""
    constants = shape_constants(shape)
    digest = hashlib.sha256(repr(sorted(constants.items())).encode()).hexdigest()[:8]
    space = dict(globals())
    space.update(constants)
    suffix = f"_{shape.columns}x{shape.rows}_{digest}"
    for name, func, options in _TEMPLATES:
        assert isinstance(func, FunctionType)
        clone = FunctionType(func.__code__, space, name, func.__defaults__, func.__closure__)
        clone.__qualname__ = func.__qualname__ + suffix
        clone.__doc__ = func.__doc__
        clone.__module__ = func.__module__
        space[name] = njit(cache=True, nogil=True, **options)(clone)
    return Kernel(shape, space)
