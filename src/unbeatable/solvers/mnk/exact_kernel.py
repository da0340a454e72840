"""The compiled hot loop of the exact m,n,k solver (boards of at most 36 cells).

Everything here is numba ``@njit(cache=True, nogil=True)``, so searches in
several threads run side by side, and all of it lives in this one file
(numba's on-disk cache only notices changes to the file a function is defined
in). Integers are ``int64`` throughout: a board of 36 cells fits with room,
and no unsigned value ever meets a signed one (numba would make a float).

Board and lines
---------------
A side's stones are a bitboard: bit ``i`` is the cell ``i`` of the game's own
numbering (row-major from the top-left), so moves need no translation. For a
3x4 board::

    bit:  0  1  2  3        a3 b3 c3 d3
          4  5  6  7   =    a2 b2 c2 d2
          8  9 10 11        a1 b1 c1 d1

Every line of ``k`` cells is one precomputed mask (``lines``), and each cell
knows the lines through it (``cell_lines``: the count, then their indices). A
node scans the lines once: a line holding no enemy stone is *live* for a
side, and its count of that side's stones says how close the side is to it.

Scores
------
Scores are for the side to move and *absolute*: a win with the stone that
makes ``N`` stones on the board scores ``cells + 1 - N``, a loss the negative,
a draw 0. A score then means the same in every node that can reach it, so
negamax needs only a negation and the table stores scores as they are. The
engine turns them into plies: ``N`` minus the stones of the searched position.

What a node knows before searching (all exact):

* a side's next stone completing a line wins at once; two such cells of the
  opponent's lose (only one can be blocked), and a lone one must be blocked;
* a side whose best live line holds ``c`` stones needs ``k - c`` more, so it
  cannot win before its ``(k - c)``-th next stone: that bounds the score from
  above (ours) and below (theirs), and a side with no live line cannot win
  at all (both: a draw);
* nor can a side whose live lines are too few and too empty: by the
  Erdos-Selfridge argument, if the lines' weights ``2**-(stones missing)``
  sum below 1/2 with that side to move (below 1 with the defender to move),
  the defender can always claim a cell of the heaviest weight and keep the
  sum below 1, so no line is ever completed;
* a move that makes two winning cells (when the opponent has none left)
  wins with our stone after next: the best score short of winning at once;
* a cell on no live line is dead: a stone there changes nothing, so a live
  cell is never worse (the same game with one more useful stone) and dead
  cells are not searched while any live cell is left.

Search
------
:func:`search` is fail-soft alpha-beta negamax written as a loop over an
explicit stack (numba's cache cannot reload recursive functions; a loop also
saves the calls). Its contract: the value ``v`` returned for window
``(alpha, beta)`` satisfies ``v <= alpha`` => score <= v, ``v >= beta`` =>
score >= v, else ``v`` is the score. Callers ask null-window questions
("is the score above s?"), the MTD way. Moves are tried best first: the
table's move, then by how many winning cells they make and how much they add
to live lines of either side (attack and block), centre first among equals.

A search runs until ``stats[BUDGET]`` nodes, then returns with
``stats[ABORTED]`` set and its stack intact; called again with ``resume``, it
carries on where it stopped. The engine checks its limits between such
slices. ``stats[ROOT_MOVE]`` is the move behind the root's value (the move
that failed high, or the best); the root never answers from the table alone,
so that move is always known.

Transposition table
-------------------
An ``int64`` array of a prime number ``P`` of slots. A position's key is its
board read as a base-3 number (``x`` = 1, ``o`` = 2 in cell ``i``'s digit
``3**i``): under ``3**36 < 2**58``, exact, and the same for either side's
view. While few stones are down, the key is the smallest of the board's
images under its symmetries (the image used is remembered, to turn the
stored move back). The slot is ``key % P``; one entry packs, low bits
first::

    upper + 32 (6 bits) | lower + 32 (6) | move (6) | key // P (37) | generation (8)

Slot and quotient give back the whole key, so a hit is never a collision
(``P`` is at least ``3**cells >> 37``: about a million slots on 36 cells);
the generation clears the table in O(1). A bound past what its 6 bits hold
is rounded the way that keeps it true, the fields' ends meaning "no bound"
(a win scores at most ``cells + 2 - 2k``: past 31 only for k of 3 or less
on boards over 31 cells). An entry is one aligned word: threads sharing the
table never see half of one, and bounds stay true for ever.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Largest board the kernel handles: its base-3 keys fit 57 bits (3**36 <
#: 2**58), a cell's bit an int64 with room to spare.
MAX_CELLS = 36
#: A move field meaning "none" (6 bits name a cell).
NO_MOVE = 63
#: A table entry's fields, low bits first: upper and lower bounds (6 bits
#: each, stored plus _OFFSET), move (6), the key's quotient by the table's
#: size, the generation.
_SCORE_BITS = 6
_SCORE_MASK = (1 << _SCORE_BITS) - 1
_OFFSET = 1 << (_SCORE_BITS - 1)
_MOVE_SHIFT = 2 * _SCORE_BITS
_TAG_SHIFT = _MOVE_SHIFT + 6
#: Bits of a table entry's quotient and generation fields (18 + 37 + 8 = 63).
QUOTIENT_BITS = 37
MAX_GENERATION = (1 << 8) - 1

# Fields of ``geometry``.
G_CELLS, G_K, G_FULL, G_LINES, G_SYMS, G_SYM_UNTIL, G_CHUNKS, G_RULES = range(8)
GEOMETRY_SIZE = 8
# Bits of ``geometry[G_RULES]``: which of the node's exact rules are used
# (all of them, but for benchmarks measuring what each is worth).
USE_BOUNDS, USE_POTENTIAL, USE_DEAD_CELLS, USE_DOUBLE_THREATS = 1, 2, 4, 8
ALL_RULES = USE_BOUNDS | USE_POTENTIAL | USE_DEAD_CELLS | USE_DOUBLE_THREATS
# Fields of ``stats``.
NODES, BUDGET, ABORTED, DEPTH, GENERATION, ROOT_MOVE, STONES = range(7)
STATS_SIZE = 7

# Fields of a stack frame (one row of ``stack`` per depth).
F_ME, F_OPP, F_ALPHA, F_BETA, F_FLOOR, F_BEST, F_BEST_MOVE = range(7)
F_COUNT, F_NEXT, F_KEY, F_SYM = range(7, 11)
F_MOVE0 = 11
FRAME = F_MOVE0 + MAX_CELLS
#: Score weight of a winning cell a move makes, above any line weight sum.
_THREAT_WEIGHT = 1 << 50
#: Score of the table's move: first of all.
_HINT_WEIGHT = 1 << 60


def new_stacks(cells: int, lines: int) -> tuple[np.ndarray, np.ndarray]:
    """Scratch for :func:`search` (one pair per thread, reused): the frame
    stack, and the line counts of the node being entered."""
    return np.zeros((cells + 2, FRAME), dtype=np.int64), np.zeros((2, lines), dtype=np.int64)


def new_stats() -> np.ndarray:
    """A fresh ``stats`` array (see the module docstring)."""
    return np.zeros(STATS_SIZE, dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def popcount(v: int) -> int:
    """Set bits of a non-negative int64 below 2**62 (SWAR)."""
    v = v - ((v >> 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + ((v >> 2) & 0x3333333333333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (v * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True, nogil=True, inline="always")
def lowest_cell(v: int) -> int:
    """Index of the lowest set bit of a non-zero bitboard."""
    return popcount((v & -v) - 1)


@njit(cache=True, nogil=True)
def table_key(
    x: int, o: int, stones: int, geometry: np.ndarray, sym_keys: np.ndarray
) -> tuple[int, int]:
    """(key, symmetry) of a board: its base-3 number, or while at most
    ``geometry[G_SYM_UNTIL]`` stones are down the smallest over its images
    and the index of the image that gave it (0 is the board itself).

    ``sym_keys[s, j, p]`` is the base-3 value that the 5-bit pattern ``p`` of
    bits ``5j .. 5j+4`` contributes (as ``x`` stones) under symmetry ``s``."""
    syms = geometry[G_SYMS] if stones <= geometry[G_SYM_UNTIL] else 1
    chunks = geometry[G_CHUNKS]
    best = -1
    best_sym = 0
    for s in range(syms):
        key = 0
        for j in range(chunks):
            key += sym_keys[s, j, (x >> (5 * j)) & 31] + 2 * sym_keys[s, j, (o >> (5 * j)) & 31]
        if best < 0 or key < best:
            best = key
            best_sym = s
    return best, best_sym


@njit(cache=True, nogil=True, inline="always")
def _bounds(entry: int) -> tuple[int, int]:
    """(lower, upper) of an entry; a field at its extreme means no bound."""
    lower = ((entry >> _SCORE_BITS) & _SCORE_MASK) - _OFFSET
    upper = (entry & _SCORE_MASK) - _OFFSET
    if lower == -_OFFSET:
        lower = -99
    if upper == _OFFSET - 1:
        upper = 99
    return lower, upper


@njit(cache=True, nogil=True)
def table_get(table: np.ndarray, gen: int, key: int) -> tuple[int, int, int]:
    """(lower, upper, move) stored for ``key``; (-99, 99, NO_MOVE) if none."""
    size = table.shape[0]
    entry = table[key % size]
    if (entry >> _TAG_SHIFT) == ((gen << QUOTIENT_BITS) | (key // size)):
        lower, upper = _bounds(entry)
        return lower, upper, (entry >> _MOVE_SHIFT) & NO_MOVE
    return -99, 99, NO_MOVE


@njit(cache=True, nogil=True)
def table_put(table: np.ndarray, gen: int, key: int, lower: int, upper: int, move: int) -> None:
    """Store bounds (and a best move, or NO_MOVE) for ``key``, merged with
    what the slot holds for the same key (the tighter bounds win). A bound
    past what a field holds is kept only if it stays true: a lower bound
    rounded down, an upper bound rounded up (to "none" at the field's ends)."""
    size = table.shape[0]
    slot = key % size
    tag = (gen << QUOTIENT_BITS) | (key // size)
    entry = table[slot]
    if (entry >> _TAG_SHIFT) == tag:
        old_lower, old_upper = _bounds(entry)
        lower = max(lower, old_lower)
        upper = min(upper, old_upper)
        if move == NO_MOVE:
            move = (entry >> _MOVE_SHIFT) & NO_MOVE
    lower = min(max(lower, -_OFFSET), _OFFSET - 1)
    upper = min(max(upper, -_OFFSET), _OFFSET - 1)
    table[slot] = (
        (tag << _TAG_SHIFT)
        | (move << _MOVE_SHIFT)
        | ((lower + _OFFSET) << _SCORE_BITS)
        | (upper + _OFFSET)
    )


@njit(cache=True, nogil=True)
def search(
    me: int,
    opp: int,
    alpha: int,
    beta: int,
    geometry: np.ndarray,
    lines: np.ndarray,
    cell_lines: np.ndarray,
    sym_keys: np.ndarray,
    sym_moves: np.ndarray,
    table: np.ndarray,
    stack: np.ndarray,
    counts: np.ndarray,
    stats: np.ndarray,
    resume: bool,
) -> int:
    """Fail-soft alpha-beta negamax of the position where the side to move
    has stones ``me`` and the other side ``opp`` (``stats[STONES]`` stones in
    all), over the explicit stack; see the module docstring for the scores,
    the contract, the budget and resuming.

    ``counts`` holds the entered node's count of the mover's stones in each
    line (row 0; -1 if the opponent has a stone in it) and of the
    opponent's (row 1): the moves are scored from them before any child is
    searched, so one pair of rows serves every depth. ``sym_moves[s, 0, c]``
    is the image of cell ``c`` under symmetry ``s``, ``sym_moves[s, 1, c]``
    its preimage.
    """
    cells = geometry[G_CELLS]
    k = geometry[G_K]
    full = geometry[G_FULL]
    n_lines = geometry[G_LINES]
    rules = geometry[G_RULES]
    root_stones = stats[STONES]
    gen = stats[GENERATION]
    if resume:
        d = stats[DEPTH]  # re-enter the node where the budget ran out
    else:
        d = 0
        stack[0, F_ME] = me
        stack[0, F_OPP] = opp
        stack[0, F_ALPHA] = alpha
        stack[0, F_BETA] = beta
        stats[ROOT_MOVE] = NO_MOVE
        stack[0, F_BEST_MOVE] = NO_MOVE
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
            me = stack[d, F_ME]
            opp = stack[d, F_OPP]
            a = stack[d, F_ALPHA]
            b = stack[d, F_BETA]
            n = root_stones + d
            empty = full & ~(me | opp)
            # One pass over the lines: live counts, winning cells, best lines.
            wins_me = 0
            wins_opp = 0
            top_me = -1
            top_opp = -1
            live = 0
            potential_me = 0
            potential_opp = 0
            for i in range(n_lines):
                line = lines[i]
                mine = line & me
                theirs = line & opp
                if theirs == 0:
                    c = popcount(mine)
                    counts[0, i] = c
                    top_me = max(top_me, c)
                    potential_me += 1 << c
                    if c == k - 1:
                        wins_me |= line & ~me
                    live |= line
                else:
                    counts[0, i] = -1
                if mine == 0:
                    c = popcount(theirs)
                    counts[1, i] = c
                    top_opp = max(top_opp, c)
                    potential_opp += 1 << c
                    if c == k - 1:
                        wins_opp |= line & ~opp
                    live |= line
                else:
                    counts[1, i] = -1
            if wins_me != 0:
                ret = cells - n  # win with our next stone
                done = True
                if d == 0:
                    stats[ROOT_MOVE] = lowest_cell(wins_me)
            elif empty == 0:
                ret = 0
                done = True
            elif wins_opp & (wins_opp - 1):
                ret = n + 1 - cells  # two cells to block: lost to their next stone
                done = True
                if d == 0:
                    stats[ROOT_MOVE] = lowest_cell(wins_opp)
            else:
                if wins_opp != 0:
                    top_opp = min(top_opp, k - 2)  # the forced block kills their fours
                # Earliest possible wins: our j-th next stone is stone n + 2j - 1,
                # theirs stone n + 2j.
                if not rules & USE_BOUNDS:  # only: nobody wins at once
                    top_me = k - 2
                    top_opp = k - 2
                hi = 0
                if top_me >= 0 and n + 2 * (k - top_me) - 1 <= cells:
                    hi = cells + 1 - (n + 2 * (k - top_me) - 1)
                lo = 0
                if top_opp >= 0 and n + 2 * (k - top_opp) <= cells:
                    lo = -(cells + 1 - (n + 2 * (k - top_opp)))
                # Erdos-Selfridge: with too few stones in too few live lines
                # a side cannot complete one against a defender who keeps
                # the lines' weights down (the potential, in units of 2**-k).
                if rules & USE_POTENTIAL:
                    if potential_me < 1 << (k - 1):
                        hi = min(hi, 0)
                    if potential_opp < 1 << k:
                        lo = max(lo, 0)
                x = me if n % 2 == 0 else opp
                key, sym = table_key(x, me ^ opp ^ x, n, geometry, sym_keys)
                stack[d, F_KEY] = key
                stack[d, F_SYM] = sym
                t_lo, t_hi, t_move = table_get(table, gen, key)
                hint = -1
                if t_move != NO_MOVE:
                    hint = sym_moves[sym, 1, t_move]
                if d > 0:  # the root always searches, so that it has a move
                    lo = max(lo, t_lo)
                    hi = min(hi, t_hi)
                    if a < lo:
                        a = lo
                        if a >= b:
                            ret, done = a, True
                    if not done and b > hi:
                        b = hi
                        if a >= b:
                            ret, done = b, True
                if not done:
                    # The moves, best first (insertion sort on a score).
                    cand = wins_opp if wins_opp != 0 else empty & live
                    # (None live: only at the root, when nobody can win any more.)
                    if cand == 0 or not rules & USE_DEAD_CELLS:
                        cand = empty
                    count = 0
                    while cand != 0:
                        bit = cand & -cand
                        cand ^= bit
                        cell = lowest_cell(bit)
                        made = 0  # our winning cells after the move
                        value = 0
                        for j in range(cell_lines[cell, 0]):
                            i = cell_lines[cell, 1 + j]
                            c = counts[0, i]
                            if c >= 0:
                                value += 1 << (2 * min(c, 10))
                                if c == k - 2:
                                    made |= lines[i] & ~me & ~bit
                            c = counts[1, i]
                            if c >= 0:
                                value += 1 << (2 * min(c, 10))
                        if made & (made - 1) and rules & USE_DOUBLE_THREATS:
                            # Two winning cells, none of theirs left: win with
                            # our stone after next, the best short of now.
                            ret = cells - n - 2
                            done = True
                            if d == 0:
                                stats[ROOT_MOVE] = cell
                            break
                        if made != 0:
                            value += _THREAT_WEIGHT
                        if cell == hint:
                            value = _HINT_WEIGHT
                        pos = count
                        # (The child's frame row holds the scores until it is entered.)
                        while pos > 0 and stack[d + 1, pos - 1] < value:
                            stack[d + 1, pos] = stack[d + 1, pos - 1]
                            stack[d, F_MOVE0 + pos] = stack[d, F_MOVE0 + pos - 1]
                            pos -= 1
                        stack[d + 1, pos] = value
                        stack[d, F_MOVE0 + pos] = cell
                        count += 1
                    if not done:
                        stack[d, F_ALPHA] = a
                        stack[d, F_BETA] = b
                        stack[d, F_FLOOR] = a
                        stack[d, F_BEST] = -99
                        stack[d, F_BEST_MOVE] = NO_MOVE
                        stack[d, F_COUNT] = count
                        stack[d, F_NEXT] = 0
        else:
            score = -ret  # a child of node d returned ``ret``
            if score > stack[d, F_BEST]:
                stack[d, F_BEST] = score
                stack[d, F_BEST_MOVE] = stack[d, F_MOVE0 + stack[d, F_NEXT] - 1]
                if score > stack[d, F_ALPHA]:
                    stack[d, F_ALPHA] = score
            if score >= stack[d, F_BETA]:
                ret = score
                done = True
        if not done:
            i = stack[d, F_NEXT]
            if i < stack[d, F_COUNT]:
                stack[d, F_NEXT] = i + 1
                me = stack[d, F_ME]
                stack[d + 1, F_ME] = stack[d, F_OPP]
                stack[d + 1, F_OPP] = me | (1 << stack[d, F_MOVE0 + i])
                stack[d + 1, F_ALPHA] = -stack[d, F_BETA]
                stack[d + 1, F_BETA] = -stack[d, F_ALPHA]
                d += 1
                entering = True
                continue
            ret = stack[d, F_BEST]
            done = True
        # Node d is done with ``ret``; if it searched children, remember it.
        if not entering:
            _store(table, gen, stack, d, ret, sym_moves)
        if d == 0:
            if stats[ROOT_MOVE] == NO_MOVE:
                stats[ROOT_MOVE] = stack[0, F_BEST_MOVE]
            return ret
        d -= 1
        entering = False


@njit(cache=True, nogil=True, inline="always")
def _store(
    table: np.ndarray, gen: int, stack: np.ndarray, d: int, ret: int, sym_moves: np.ndarray
) -> None:
    """Remember what node ``d``'s search of its children proved: ``ret`` is
    an upper bound at or below the window's floor, a lower bound at or above
    its ceiling, else exact."""
    move = stack[d, F_BEST_MOVE]
    stored = NO_MOVE if move == NO_MOVE else sym_moves[stack[d, F_SYM], 0, move]
    lower, upper = -99, 99
    if ret > stack[d, F_FLOOR]:
        lower = ret
    if ret < stack[d, F_BETA]:
        upper = ret
    table_put(table, gen, stack[d, F_KEY], lower, upper, stored)
