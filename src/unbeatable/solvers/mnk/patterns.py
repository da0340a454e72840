"""Line patterns of k in a row, as lookup tables for the kernel, per rule set.

A cell's *pattern* in one direction is what a player would make there, in
that line, by playing on the cell: a five, an open four (two ways to five), a
four (one way), an open three (one move from an open four), and so on down
to a dead line, where no five can ever pass through the cell. It depends only
on the cells within ``reach`` of it on each side, so the kernel keeps, per
cell and direction, a *key*: two bits per neighbour (empty, x, o, off the
board), kept up to date as stones come and go. :func:`tables` turns every
possible key into both players' patterns once per ``k`` and rule set; the
search then reads threats from a table instead of scanning lines.

The levels are defined recursively, as players count them: a move that leads
to an open four in one more move makes an open three, one that leads only to
a four makes a closed three, and so on. What a five is depends on the rule
set, per player (a line *kind*):

* :data:`FREE` (freestyle, and white in renju): k or more in a row. A
  ``reach`` of k - 1 cells sees every such line.
* :data:`EXACT` (standard Gomoku): exactly k; k + 1 or more is no five, so a
  four whose only way on makes six is no four. The table needs a reach of k:
  the cell just past a row of k decides.
* :data:`RENJU_BLACK` (black in renju): exactly five, and a cell where black
  would make an overline or two fours in this one line (``x.xxx.x``) is
  *forbidden* (levels :data:`OVERLINE`, :data:`DFOUR`) and leads nowhere; the
  open four of a three must be a straight four (``.xxxx.``). Whether a three
  is real (its four point may itself be played) depends on other lines:
  the kernel's :func:`~unbeatable.solvers.mnk.kernel.forbidden` settles that.

Past a reach of :data:`MAX_TABLE_REACH` (k of 7 or more in freestyle) a table
would not fit in memory: the kernel reads such lines directly instead
(:func:`~unbeatable.solvers.mnk.kernel.line_level`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

#: Pattern levels in one direction. Renju's forbidden shapes for black
#: first (below every level a move can aim for), then weakest to strongest.
OVERLINE, DFOUR, DEAD, B1, F1, B2, F2, B3, F3, B4, F4, FIVE = range(12)
#: Levels there are (the base of a cell's four-direction code).
NLEVELS = 12
LEVEL_NAMES = (
    "overline",
    "double four",
    "dead",
    "one",
    "open one",
    "two",
    "open two",
    "three",
    "open three",
    "four",
    "open four",
    "five",
)

#: Cell classes: the four directions' levels combined, weakest first.
#: C_FORBID: renju's black may not play there whatever the other lines hold
#: (an overline or a double four, and no five); a double three is decided by
#: the kernel, since it depends on more than the four lines.
C_NONE, C_FORBID, C_LOW, C_F3, C_F3F3, C_B4, C_B4F3, C_FLEX4, C_FIVE = range(9)
#: Classes there are.
NCLASSES = 9

#: Neighbour states in a key, two bits each.
EMPTY, X_STONE, O_STONE, WALL = range(4)

#: Line kinds: what a five is for one player (see the module's docstring).
FREE, EXACT, RENJU_BLACK = range(3)
#: Reach of the largest table (4^10 keys a player: 1 MiB).
MAX_TABLE_REACH = 5

#: Weight of each level for move ordering and evaluation (what playing the
#: cell is worth in one direction); a forbidden shape is worth nothing.
LEVEL_WEIGHT = (0, 0, 0, 1, 3, 6, 20, 24, 110, 130, 1200, 12000)
#: Extra weight of combinations that win or nearly win by themselves.
CLASS_BONUS = {C_FLEX4: 6000, C_B4F3: 2500, C_F3F3: 1200}
#: What stopping the opponent's line counts in a move's hand-set ordering
#: score beside making the mover's own, in fifths (:func:`policy`): 5 lost
#: 30 Elo (H0), 3 stood at +2.5 after 495 pairs (benchmarks/README.md), both
#: before the learned orderings. Every rule set now has one, so this is read
#: only with ``engine.POLICY`` off.
ORDER_DEFENCE = 4

#: The level one move short of each level (what a line that can become
#: ``level`` in one move is).
_STEP_DOWN = np.array([DEAD, DEAD, DEAD, B1, B1, B1, F1, B2, F2, B3, F3, DEAD], dtype=np.uint8)


def kinds(rule: str) -> tuple[int, int]:
    """The line kinds of x (black) and o (white) under a rule set
    (:class:`unbeatable.games.mnk.Rule`'s values)."""
    found = {"freestyle": (FREE, FREE), "standard": (EXACT, EXACT), "renju": (RENJU_BLACK, FREE)}
    if rule not in found:
        raise ValueError(f"unknown rule set {rule!r}")
    return found[rule]


def reach(k: int, line_kinds: tuple[int, int]) -> int:
    """Cells on each side of a cell that decide its patterns: k - 1 when a
    longer row also wins, k when the cell past a row of k matters."""
    return k - 1 if line_kinds == (FREE, FREE) else k


def key_bits(k: int, line_kinds: tuple[int, int] = (FREE, FREE)) -> int:
    """Bits in a key: two for each of the ``2 * reach`` neighbours."""
    return 4 * reach(k, line_kinds)


def slot(reach_: int, offset: int) -> int:
    """Where in a key the neighbour ``offset`` cells away (negative: before) sits."""
    return offset + reach_ if offset < 0 else offset + reach_ - 1


@njit(cache=True)
def _window_levels(reach_: int, k: int, kind: int) -> npt.NDArray[np.uint8]:  # pragma: no cover
    """The level of every window of ``2 * reach_ + 1`` cells whose centre
    holds the player's stone, indexed in base 3 (cell ``i`` the ``i``-th
    digit: 0 empty, 1 the player's, 2 blocked: the opponent or off the
    board). Filling an empty cell adds a power of three, so walking the
    indices downwards meets every window after all those it leads to."""
    width = 2 * reach_ + 1
    powers = np.ones(width + 1, dtype=np.int64)
    for i in range(1, width + 1):
        powers[i] = powers[i - 1] * 3
    out = np.zeros(powers[width], dtype=np.uint8)
    cells = np.zeros(width, dtype=np.int64)
    for w in range(powers[width] - 1, -1, -1):
        x = w
        for i in range(width):
            cells[i] = x % 3
            x //= 3
        if cells[reach_] != 1:
            continue
        a = reach_
        while a > 0 and cells[a - 1] == 1:
            a -= 1
        b = reach_
        while b < width - 1 and cells[b + 1] == 1:
            b += 1
        run = b - a + 1
        if run >= k:
            if run == k or kind == FREE:
                out[w] = FIVE
            else:
                out[w] = OVERLINE if kind == RENJU_BLACK else DEAD
            continue
        # A five point is next to the run (the gap that joins it to the
        # stones beyond); there are at most two.
        points = 0
        if a > 0 and cells[a - 1] == 0:
            j = a - 2
            while j >= 0 and cells[j] == 1:
                j -= 1
            joined = run + (a - 1 - j)
            if joined == k or (joined > k and kind == FREE):
                points += 1
        if b < width - 1 and cells[b + 1] == 0:
            j = b + 2
            while j < width and cells[j] == 1:
                j += 1
            joined = run + (j - b - 1)
            if joined == k or (joined > k and kind == FREE):
                points += 1
        if points == 2:
            # Renju's black: .xxxx. is one straight four; two fours that
            # each join other stones (x.xxx.x) are a double four.
            out[w] = F4 if kind != RENJU_BLACK or run == k - 1 else DFOUR
            continue
        if points == 1:
            out[w] = B4
            continue
        best = DEAD
        for e in range(width):
            if cells[e] == 0:
                child = out[w + powers[e]]
                if child > best:  # a forbidden shape (below DEAD) leads nowhere
                    best = child
        out[w] = _STEP_DOWN[best]
    return out


@njit(cache=True)
def _key_levels(
    windows: npt.NDArray[np.uint8], reach_: int, own: int
) -> npt.NDArray[np.uint8]:  # pragma: no cover
    """Each key's level for the player whose stones read ``own`` in it."""
    width = 2 * reach_ + 1
    powers = np.ones(width, dtype=np.int64)
    for i in range(1, width):
        powers[i] = powers[i - 1] * 3
    out = np.empty(1 << (4 * reach_), dtype=np.uint8)
    for key in range(out.shape[0]):
        index = powers[reach_]
        for j in range(2 * reach_):
            state = (key >> (2 * j)) & 3
            i = j if j < reach_ else j + 1
            if state == own:
                index += powers[i]
            elif state != EMPTY:
                index += 2 * powers[i]
        out[key] = windows[index]
    return out


def code_of(four: tuple[int, int, int, int]) -> int:
    """The index of a cell's four levels in the class and value tables."""
    l0, l1, l2, l3 = four
    return ((l0 * NLEVELS + l1) * NLEVELS + l2) * NLEVELS + l3


@cache
def tables(
    k: int, rule: str = "freestyle"
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
    """``(levels, classes, values)`` for k in a row under ``rule``.

    ``levels[p, key]``: the level player ``p`` (0: x, 1: o) makes by playing a
    cell whose neighbours read ``key`` (:func:`slot` says where each sits).
    ``classes[kind, code]`` and ``values[kind, code]`` combine four
    directions' levels, ``code = ((l0 * 12 + l1) * 12 + l2) * 12 + l3``
    (:func:`code_of`), for a player whose lines are of ``kind``
    (:func:`combinations`).
    """
    line_kinds = kinds(rule)
    r = reach(k, line_kinds)
    if k < 2 or r > MAX_TABLE_REACH:
        raise ValueError(
            f"line patterns are tabled up to a reach of {MAX_TABLE_REACH}, not k = {k} ({rule})"
        )
    levels = np.zeros((2, 1 << (4 * r)), dtype=np.uint8)
    for p, kind in enumerate(line_kinds):
        levels[p] = _key_levels(_window_levels(r, k, kind), r, X_STONE + p)
    classes, values = combinations()
    return levels, classes, values


def code_levels() -> npt.NDArray[np.int64]:
    """``levels[d, code]``: direction ``d``'s level in each code of four
    levels (the inverse of :func:`code_of`, for every code at once)."""
    codes = np.arange(NLEVELS**4)
    return np.stack([codes // NLEVELS ** (3 - d) % NLEVELS for d in range(4)])


@cache
def combinations() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
    """``(classes, values)``: for each line kind (a row each), the class and
    worth of every code of four levels (:func:`tables`). One row per kind,
    not per player: where both players' lines are of one kind (freestyle)
    the search reads one row, as small as the caches like."""
    levels = code_levels()
    fives = (levels == FIVE).any(axis=0)
    open_fours = (levels == F4).sum(axis=0)
    fours = (levels == B4).sum(axis=0)
    threes = (levels == F3).sum(axis=0)
    alive = (levels > DEAD).any(axis=0)
    weight = np.array(LEVEL_WEIGHT, dtype=np.int64)[levels].sum(axis=0)
    classes = np.zeros((3, levels.shape[1]), dtype=np.uint8)
    values = np.zeros((3, levels.shape[1]), dtype=np.int32)
    for kind in (FREE, EXACT, RENJU_BLACK):
        klass = np.select(
            [
                fives,
                (open_fours > 0) | (fours >= 2),
                fours == 1,
                threes >= 2,
                threes == 1,
                alive,
            ],
            [C_FIVE, C_FLEX4, np.where(threes > 0, C_B4F3, C_B4), C_F3F3, C_F3, C_LOW],
            C_NONE,
        )
        bonus = {c: CLASS_BONUS.get(c, 0) for c in range(NCLASSES)}
        if kind == RENJU_BLACK:
            # Black may not play an overline, two fours (in one line or
            # two) and, unless the kernel finds a three false, two threes.
            forbid = ~fives & (
                (levels == OVERLINE).any(axis=0)
                | ((levels == DFOUR).any(axis=0))
                | (open_fours + fours >= 2)
            )
            klass = np.where(forbid, C_FORBID, klass)
            bonus[C_F3F3] = 0
        classes[kind] = klass
        worth = weight + np.array([bonus[c] for c in range(NCLASSES)])[klass]
        values[kind] = np.where(klass == C_FORBID, 0, worth)
    return classes, values


#: Where in :func:`fitted`'s last axis the tempo sits, past every code.
TEMPO_CODE = NLEVELS**4
#: Where a fitted table's threat entries begin: one per threat mask
#: (:func:`unbeatable.solvers.mnk.kernel.threat_mask`), past the tempo.
THREAT_CODE = TEMPO_CODE + 1
#: Threat masks there are: which of four threat classes the side to move has
#: and which of five the other side has.
NTHREATS = 1 << 9
#: Per rule set and colour (black first), what the side to move's colour
#: adds to the evaluation for each threat mask (only those fitted; the rest
#: 0). Read where ``kernel.THREAT_EVAL`` is on. Standard's alone ended
#: undecided twice, at +5.9 Elo after 2,000 pairs (fitted to 7-ply values)
#: and +8.6 after 1,450 (1-ply); with the best cells' weights (:data:`TOPS`)
#: it passed: +28.9 after 620 (benchmarks/README.md, "Tests of 2026-12-06
#: (evening)").
THREATS: dict[str, tuple[dict[int, int], dict[int, int]]] = {
    # 10,820 positions of 1,000 games judged by Rapfi at 7 plies
    # (benchmarks/gomoku_eval_fit.py threats, seeds 51 and 52): the
    # evaluation correlates 0.787 with Rapfi's values on a held-out fifth,
    # 0.795 with this table; the masks seen in at least 20 positions.
    "freestyle": (
        {
            0: -23, 8: -26, 10: 6, 72: 65, 74: -27, 88: 85, 90: 113, 256: -25, 258: 78,
            264: 17, 266: 85, 320: 20, 322: -63, 328: 16, 330: 110, 338: 91, 344: -88,
            346: -2, 348: -189, 350: -93, 360: -27, 362: 44, 392: -2, 394: 43, 456: -48,
            458: -46, 474: 7,
        },
        {
            0: 84, 8: 47, 88: 88, 90: 64, 256: -27, 258: 73, 264: 72, 266: 113, 322: -66,
            328: 34, 330: 58, 336: 153, 338: 50, 344: -20, 346: -56, 348: -42, 350: 4,
            360: -72, 362: -2, 378: 53, 384: -62, 392: 20, 394: 115, 456: 17, 458: 11,
            474: 56,
        },
    ),
    # 13,396 positions of 1,000 games (seeds 91 and 92) judged by Rapfi's
    # standard at 1 ply (gomoku_eval_fit.py threats): 0.894 -> 0.924 on a
    # held-out fifth; with the best cells' weights (TOPS): +28.9 Elo.
    "standard": (
        {
            0: 52, 8: 27, 10: 19, 72: 98, 74: 69, 88: 180, 90: 121, 256: 127, 258: 7,
            264: 92, 266: 128, 268: -429, 320: 77, 322: 49, 328: 126, 330: 111, 332: 34,
            334: 20, 338: 128, 344: 104, 346: 118, 348: -43, 350: 7, 360: 97, 362: 120,
            378: 50, 382: 59, 392: 70, 394: 124, 456: 54, 458: 115, 462: 29, 474: 93,
            478: -49, 490: 81,
        },
        {
            0: -30, 8: -45, 80: 70, 88: 82, 90: 45, 256: 6, 258: -96, 264: -31, 266: 5,
            320: -3, 322: -38, 328: -2, 330: -13, 332: -25, 334: -32, 336: 55, 338: 15,
            344: -14, 346: -26, 348: -117, 350: -123, 360: 1, 362: 31, 378: -41, 384: -14,
            386: -33, 392: -18, 394: 32, 450: -26, 456: 9, 458: 5, 462: -62, 474: -15,
            490: -10, 506: -55,
        },
    ),
    # 6,058 positions of 500 games (seed 53) judged by Rapfi's renju at 7
    # plies: 0.834 -> 0.836 on a held-out fifth; +19.5 Elo in 732 pairs.
    "renju": (
        {
            0: -46, 8: -64, 10: -78, 74: -85, 88: 67, 90: 27, 256: -52, 258: -106, 264: -44,
            266: -17, 322: -106, 328: -36, 330: -46, 334: 27, 338: -45, 344: -129, 346: -96,
            348: -71, 350: -106, 362: -129, 394: -15, 458: -55,
        },
        {
            0: -45, 74: 18, 80: 64, 88: 46, 90: 15, 256: -73, 258: -72, 264: -26, 266: 44,
            320: -47, 322: -2, 328: -33, 330: -4, 336: 79, 338: -65, 344: -72, 346: -24,
            348: -103, 350: -101, 362: -26, 456: -14, 458: -8, 472: 43, 474: -92,
        },
    ),
}


#: Where a fitted table's entries for the side to move's best cells begin
#: (:data:`TOPS`), past the threat masks': a weight for each of its
#: :data:`NTOPS` best cells' hand-set values, then a constant.
TOP_CODE = THREAT_CODE + NTHREATS
NTOPS = 3
#: The unit of :data:`TOPS`' weights: a weight of ``TOP_UNIT`` adds a
#: cell's whole hand-set value.
TOP_UNIT = 256
#: Per rule set and colour of the side to move (black first), what its
#: :data:`NTOPS` best cells (by their hand-set value for it, among the empty
#: cells near the stones) add to the evaluation, each value times its weight
#: in 1/:data:`TOP_UNIT`\ ths, and a constant. A sum over cells sees how much
#: the mover's cells are worth together, not that it has several good ones
#: to choose from: a 1-ply value (the judge the evaluation is fitted to)
#: is the best of them, and a second and third good cell are what keep the
#: initiative after the first is answered. A rule set not here adds 0.
#: Standard's, with its threat table: +28.9 Elo after 620 pairs at 50,000
#: nodes a move (benchmarks/README.md, "Tests of 2026-12-06 (evening)").
TOPS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    # 13,396 positions of 1,000 games (seeds 91 and 92) judged by Rapfi's
    # standard at 1 ply, the threat table above in use (gomoku_eval_fit.py
    # tops): 0.923 -> 0.940 on a held-out fifth (0.894 -> 0.940 with it).
    "standard": ((-32, 70, 66, -34), (-38, 79, 39, -32)),
}


#: Weights per colour (black first), each per side (the side to move first).
PerColourAndSide = tuple[
    tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]
]


class Fit(NamedTuple):
    """One rule set's fitted weights: what a level and a class add per cell,
    what each colour gets for being to move, and (where fitted) what a
    cell's two strongest directions add together (:func:`code_pairs`): the
    pairs see what levels summed alone cannot, that two open twos through
    one cell are worth more than twice one."""

    level: PerColourAndSide
    klass: PerColourAndSide
    tempo: tuple[int, int]
    pair: PerColourAndSide | None = None


#: A level's rank in :func:`code_pairs` (the forbidden shapes count as dead).
PAIR_RANK = (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
#: Ranks there are, and pairs of them (the stronger first).
PAIR_RANKS = max(PAIR_RANK) + 1
PAIRS = PAIR_RANKS * (PAIR_RANKS + 1) // 2


@cache
def code_pairs() -> npt.NDArray[np.int64]:
    """``pairs[code]``: which of the :data:`PAIRS` pairs of ranks the two
    strongest of a code's four levels make (``a * (a + 1) // 2 + b`` for the
    ranks ``a >= b``)."""
    ranks = np.array(PAIR_RANK, dtype=np.int64)[code_levels()]
    ranks.sort(axis=0)
    a, b = ranks[3], ranks[2]
    pairs: npt.NDArray[np.int64] = a * (a + 1) // 2 + b
    return pairs


#: The fitted part of the leaf evaluation (see :func:`fitted`), each rule
#: set's own, per colour: the colours' chances differ, and renju's black's
#: lines are of another kind. Fitted by ``benchmarks/gomoku_eval_fit.py
#: --rule RULE`` to what Rapfi's 1-ply values of quiet positions leave
#: once the hand-set part of the evaluation is counted (the engine adds the
#: two: the hand-set part keeps the sense of threats a fit lacks), and each
#: kept by the engine's SPRT games (benchmarks/README.md, "Gomoku: tests
#: that decide").
FITS = {
    # 13,758 quiet positions of 1,000 games (seeds 81 and 82) judged by
    # Rapfi at 1 ply, its classical evaluation nearly alone, fitted with
    # pairs and a weight per set of levels (:data:`CODE_TABLES`): the sum
    # correlates 0.940 with those values on a held-out fifth, the fit before
    # (to 7-ply values, 2026-11-26) 0.865; +44.3 Elo in 394 pairs. Fits to deeper
    # judges play worse (benchmarks/README.md, "The evaluation's judge,
    # deeper and shallower").
    "freestyle": Fit(
        (
            (
                (0, 0, 0, -2, 3, 2, 3, 51, -215, -134, 0, 0),
                (0, 0, 0, 2, -4, -2, -1, -33, 103, 85, 667, 0),
            ),
            (
                (0, 0, 0, -1, 2, -4, -6, 23, -190, -103, 0, 0),
                (0, 0, 0, 4, -4, -6, -5, -27, 71, 125, 644, 0),
            ),
        ),
        (
            ((47, 0, 32, 225, -84, 196, -330, 0, 0), (0, 0, -64, -153, 2, -166, 7, 781, 0)),
            ((60, 0, 73, 234, -138, 208, -311, 0, 0), (0, 0, -36, -101, 63, -189, 8, 794, 0)),
        ),
        (161, 80),
        (
            (
                (
                    0, 25, 23, 25, 24, 12, 20, 3, 10, 7, 17, 8, 13, 12, 22, -14,
                    -28, -39, -36, -19, -53, -17, 12, 56, 54, 78, 43, -84, -59,
                    8, 18, 39, 102, 88, -330, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    0, 4, -35, -32, -19, -7, -21, -3, -7, 2, -18, 10, -4, -12,
                    -11, 2, 19, 26, 17, 3, 22, -20, 19, -27, -37, -60, -28, 2,
                    71, 16, -15, -39, -116, -83, 7, 106, 122, 180, 86, 52, 28,
                    39, 145, 32, -8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
            (
                (
                    0, 12, -44, 21, 10, 1, 22, -18, 1, 2, 40, -3, 8, 15, 32, 24,
                    -24, -21, -5, 8, -8, -6, -11, 47, 60, 79, 65, -138, -87, -2,
                    12, 42, 121, 122, -311, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    0, -5, 0, -25, -18, -7, -11, -6, -2, 12, -25, -1, -1, 1, -8,
                    -7, 23, 20, 12, 6, 6, -16, 20, -23, -22, -41, -19, 63, 43,
                    4, -12, -32, -97, -96, 8, 149, 33, 190, 113, 84, 79, 48, 89,
                    8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
        ),
    ),
    # 19,767 positions of 1,000 games (seeds 91 and 92, INFO rule 1) judged by
    # Rapfi at 1 ply, fitted with pairs and a weight per set of levels, as
    # freestyle's: 0.898 on a held-out fifth, the fit before (to 7-ply values,
    # 2026-11-27) 0.795; +70.0 Elo in 249 pairs of standard games.
    "standard": Fit(
        (
            (
                (0, 0, 0, 4, 4, 2, -1, -3, -217, -129, 0, 0),
                (0, 0, 0, -1, -4, -7, -3, 0, 95, 137, 659, 0),
            ),
            (
                (0, 0, 0, 2, 4, 7, 0, 32, -211, -103, 0, 0),
                (0, 0, 0, -1, -4, -6, -5, -21, 67, 115, 650, 0),
            ),
        ),
        (
            ((58, 0, 74, 258, -81, 203, -332, 0, 0), (0, 0, -55, -132, 33, -199, 36, 802, 0)),
            ((25, 0, 48, 229, -118, 185, -289, 0, 0), (0, 0, -66, -121, 49, -199, 45, 783, 0)),
        ),
        (141, 66),
        (
            (
                (
                    0, 8, 2, 15, -3, -6, 14, -22, -7, -12, 23, -16, -5, 2, 13, -1, 10, -2, 4, 22,
                    34, 27, 26, 39, 40, 55, 71, -81, -23, -16, 28, 35, 97, 83, -332, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    0, -8, 1, -19, -10, -2, -7, -1, 6, 12, -19, 14, 4, 4, 1, 27, -4, 3, -4, -14,
                    -40, -10, 8, -16, -21, -41, -52, 33, 9, 23, -26, -23, -89, -93, 36, 143, 88,
                    119, 123, 91, 78, 56, 89, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
            (
                (
                    0, 23, 21, 32, 12, 6, -3, 6, 3, -2, 15, 2, 8, 9, 22, -10, -13, -22, -24, -5,
                    -34, 20, 12, 49, 32, 66, 50, -118, 5, 19, 8, 7, 70, 76, -289, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    0, -15, -16, -18, -10, -5, 0, -13, 0, -2, -28, 6, 3, 0, -3, -21, 6, 18, 15, 4,
                    14, -18, 1, -17, -15, -36, -36, 49, 9, -5, -17, -16, -79, -91, 45, 133, 96, 107,
                    130, 95, 79, 75, 64, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
        ),
    ),
    # 17,849 positions of 1,000 games (seed 93, INFO rule 4) judged by Rapfi at
    # 1 ply, fitted with pairs and a weight per set of levels, as freestyle's:
    # 0.940 on a held-out fifth, the fit before (to 7-ply values, with pairs,
    # 2026-11-27) 0.876; +28.6 Elo in 475 pairs of renju games. Fits with
    # pairs to 7-ply values were kept for renju (+13.7 Elo), not for
    # standard (-39.7); fits to deeper values play worse (benchmarks/README.md,
    # "The evaluation's judge, deeper and shallower").
    "renju": Fit(
        (
            (
                (-18, 45, 0, 0, 6, 5, 8, 28, -137, -142, -91, 0),
                (0, -30, 0, 0, -3, -6, -7, -17, 75, 8, 621, 0),
            ),
            (
                (0, 0, 0, 2, -2, 1, -19, 17, -239, -127, 0, 0),
                (0, 0, 0, 0, -1, -2, 4, 7, 114, 103, 691, 0),
            ),
        ),
        (
            ((26, 60, 47, 152, 103, 220, -482, 0, 0), (0, -103, -46, -103, -80, -91, 73, 793, 0)),
            ((18, 0, 68, 259, -109, 213, -340, 0, 0), (0, 0, -69, -148, 20, -180, 59, 799, 0)),
        ),
        (190, 156),
        (
            (
                (
                    0, 34, 30, 19, 15, 1, 16, 10, -3, -8, -2, -3, -4, -3, 1, -4, -28, -26, -26, -5,
                    -14, 2, 22, 49, 54, 69, 69, 103, -16, 11, 14, 23, 90, 63, -482, 80, 0, 0, 0, 0,
                    0, 0, 0, -4, -43, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    0, -48, -15, -20, -16, -7, 21, -13, -3, 6, 12, -2, 3, 6, 0, 17, 14, 9, 6, -4,
                    -12, 29, 4, -29, -26, -50, -61, -80, 95, -6, -3, -11, -85, -81, 73, 54, 33, 159,
                    153, 109, 118, 128, 94, -81, -45, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
            (
                (
                    0, 5, 9, 11, -2, -5, -15, -5, -6, -10, 30, 8, 14, 19, 44, -3, -21, -16, -5, 16,
                    0, 32, 22, 51, 48, 75, 31, -109, 11, -9, 23, 26, 77, 85, -340, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    0, 6, -13, -10, 3, 9, -11, 4, 11, 10, -16, 2, 6, 1, 0, -5, -8, -1, -9, -17, -31,
                    -17, 5, -26, -24, -42, -45, 20, 41, 23, -20, -37, -78, -110, 59, 108, 106, 145,
                    84, 75, 70, 72, 131, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
        ),
    ),
}


#: Per rule set, the file (in ``data/`` beside this module) of what each set
#: of four levels adds to a cell's fitted value, on top of its levels, class
#: and pair (``table[block, level_sets()[0][code]]``, the blocks per colour and
#: side: black as the side to move, white as the other, white as the side
#: to move, black as the other). The levels and the class give a code's
#: value a shape; these give every code of a cell a value of its own, as
#: Rapfi's classical table does. Fitted with the weights of
#: :data:`FITS` (``gomoku_eval_fit.py fit --pairs --codes``).
CODE_TABLES = {
    "freestyle": "codes_freestyle.npy",
    "standard": "codes_standard.npy",
    "renju": "codes_renju.npy",
}
#: The blocks of a code table, as (colour, side).
CODE_BLOCKS = ((0, 0), (1, 1), (1, 0), (0, 1))
_DATA = Path(__file__).resolve().parent / "data"


@cache
def level_sets() -> tuple[npt.NDArray[np.int64], int]:
    """``sets[code]``: the code's four levels taken as a set, numbered (the
    order of the directions says nothing of a cell's worth); and how many
    sets there are (1,365 of four of twelve levels)."""
    levels = np.sort(code_levels(), axis=0)
    key = ((levels[0] * NLEVELS + levels[1]) * NLEVELS + levels[2]) * NLEVELS + levels[3]
    _, sets = np.unique(key, return_inverse=True)
    return sets.astype(np.int64), int(sets.max()) + 1


@cache
def code_table(rule: str) -> npt.NDArray[np.int32] | None:
    """The rule set's table of :data:`CODE_TABLES`, or None if it has none."""
    name = CODE_TABLES.get(rule)
    if name is None:
        return None
    table: npt.NDArray[np.int32] = np.load(_DATA / name)
    if table.shape != (len(CODE_BLOCKS), level_sets()[1]):
        raise ValueError(f"{name}: a table of shape {table.shape}, not (4, {level_sets()[1]})")
    return table


@cache
def fitted(rule: str = "freestyle") -> npt.NDArray[np.int32]:
    """``ev[colour, side, code]``: what an empty cell near the stones whose
    four levels read ``code`` for ``colour`` (0 black) adds to the evaluation
    under ``rule``, ``colour`` being the side to move (``side`` 0) or the
    other side (1); ``ev[colour, 0, TEMPO_CODE]``: what ``colour`` gets for
    being to move; ``ev[colour, 0, THREAT_CODE + mask]``: what it gets for
    the threats a mask says the two sides have (:data:`THREATS`);
    ``ev[colour, 0, TOP_CODE:]``: the weights of its best cells and a
    constant (:data:`TOPS`), ``ev[colour, 1, TOP_CODE]`` 1 where there are
    such weights."""
    classes, _ = combinations()
    levels = code_levels()
    weights = FITS[rule]
    table = code_table(rule)
    ev = np.zeros((2, 2, levels.shape[1] + 1 + NTHREATS + NTOPS + 1), dtype=np.int32)
    for colour, kind in enumerate(kinds(rule)):
        for side in range(2):
            by_level = np.array(weights.level[colour][side], dtype=np.int64)[levels].sum(axis=0)
            by_class = np.array(weights.klass[colour][side], dtype=np.int64)[classes[kind]]
            ev[colour, side, :TEMPO_CODE] = by_level + by_class
            if weights.pair is not None:
                ev[colour, side, :TEMPO_CODE] += np.array(weights.pair[colour][side])[code_pairs()]
            if table is not None:
                block = CODE_BLOCKS.index((colour, side))
                ev[colour, side, :TEMPO_CODE] += table[block][level_sets()[0]]
        ev[colour, 0, TEMPO_CODE] = weights.tempo[colour]
        for mask, value in THREATS.get(rule, ({}, {}))[colour].items():
            ev[colour, 0, THREAT_CODE + mask] = value
        if rule in TOPS:
            ev[colour, 0, TOP_CODE : TOP_CODE + NTOPS + 1] = TOPS[rule][colour]
            ev[colour, 1, TOP_CODE] = 1  # (the kernel reads the best cells only where this is set)
    return ev


def combine(four: tuple[int, ...], kind: int = FREE) -> int:
    """The class of a cell from its four directions' levels, for a player
    whose lines are of ``kind``."""
    classes, _ = combinations()
    return int(classes[kind, code_of((four[0], four[1], four[2], four[3]))])


class Policy(NamedTuple):
    """One rule set's move ordering, learned: what a level, a class and a
    pair of a cell's two strongest levels (:func:`code_pairs`) add to a
    candidate's score, per colour (black first) and role: the side to move's
    own lines at the cell (what playing it makes), then the other side's
    (what it stops). In the units of the hand-set ordering it replaces
    (``LEVEL_WEIGHT``, ``CLASS_BONUS``), which the history of cut-offs is
    added to."""

    level: PerColourAndSide
    klass: PerColourAndSide
    pair: PerColourAndSide


#: The learned move orderings (see :func:`policy`), fitted by
#: ``benchmarks/gomoku_policy_fit.py`` to the moves Rapfi chose, and each
#: kept by the engine's SPRT games (benchmarks/README.md). A rule set without
#: one orders by the hand-set values.
POLICIES: dict[str, Policy] = {
    # 10,859 positions of 1,000 games (our engine at 8,000 nodes a move, one
    # move in eight random, against Rapfi), each labelled with the move Rapfi
    # (12 plies) chose; both colours alike. On a held-out fifth of the games
    # Rapfi's move is first 29% of the time (the hand-set ordering: 24%), in
    # the first three 55% (47%), in the first fourteen 91% (88%); +72.9 Elo in
    # 191 pairs of the engine's SPRT games (benchmarks/README.md).
    "freestyle": Policy(
        (
            (
                (0, 0, -35, -21, -25, -26, 5, 0, 51, 50, 0, 0),
                (0, 0, -16, -12, -27, -22, -5, 9, 29, 43, 0, 0),
            ),
            (
                (0, 0, -35, -21, -25, -26, 5, 0, 51, 50, 0, 0),
                (0, 0, -16, -12, -27, -22, -5, 9, 29, 43, 0, 0),
            ),
        ),
        (
            (
                (-8, 0, -43, -20, 20, -14, 64, 0, 0),
                (-12, 0, -27, -6, 2, 9, 34, 0, 0),
            ),
            (
                (-8, 0, -43, -20, 20, -14, 64, 0, 0),
                (-12, 0, -27, -6, 2, 9, 34, 0, 0),
            ),
        ),
        (
            (
                (
                    -8, 42, -8, 6, -13, -20, -6, 4, -9, -10, -20, -10, -11, -12, 2, -14, 0, -3,
                    -1, 11, 28, 3, -29, -12, -11, 15, 14, 20, -3, -26, -14, -9, 12, 26, 64, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    -12, -2, -4, 13, -15, 12, -12, -3, 13, -1, 1, -9, 6, -3, -4, -15, -10, 8,
                    -1, -3, -1, -26, -17, 13, 7, 12, 5, 2, -12, -22, 1, 9, 17, 17, 34, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
            (
                (
                    -8, 42, -8, 6, -13, -20, -6, 4, -9, -10, -20, -10, -11, -12, 2, -14, 0, -3,
                    -1, 11, 28, 3, -29, -12, -11, 15, 14, 20, -3, -26, -14, -9, 12, 26, 64, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    -12, -2, -4, 13, -15, 12, -12, -3, 13, -1, 1, -9, 6, -3, -4, -15, -10, 8,
                    -1, -3, -1, -26, -17, 13, 7, 12, 5, 2, -12, -22, 1, 9, 17, 17, 34, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
        ),
    ),
    # 10,533 positions of 1,000 games (INFO rule 1), the same way: Rapfi's move
    # first 27% (hand-set 23%), in the first three 51% (47%), in the first
    # fourteen 91% (88%); +49.3 Elo in 323 pairs of standard games.
    "standard": Policy(
        (
            (
                (0, 0, -33, -23, -27, -29, 4, 3, 51, 55, 0, 0),
                (0, 0, -11, -8, -21, -20, -7, -8, 29, 46, 0, 0),
            ),
            (
                (0, 0, -33, -23, -27, -29, 4, 3, 51, 55, 0, 0),
                (0, 0, -11, -8, -21, -20, -7, -8, 29, 46, 0, 0),
            ),
        ),
        (
            (
                (-5, 0, -42, -25, 18, -8, 62, 0, 0),
                (-11, 0, -23, -6, -5, 7, 39, 0, 0),
            ),
            (
                (-5, 0, -42, -25, 18, -8, 62, 0, 0),
                (-11, 0, -23, -6, -5, 7, 39, 0, 0),
            ),
        ),
        (
            (
                (
                    -5, -5, -9, 14, -20, -27, 15, 10, -16, -5, -16, 0, -14, -9, 3, 0, 11, -6,
                    0, 11, 21, -22, -39, -4, 6, 22, 11, 18, -1, -14, -18, -5, 7, 23, 62, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    -11, -3, -14, -1, -15, -3, -10, -6, 4, -4, -7, -16, -1, -3, -4, 0, -1, 18,
                    11, 12, 19, -16, -31, 7, 2, 10, 21, -5, -16, -15, -4, 3, 13, 26, 39, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
            (
                (
                    -5, -5, -9, 14, -20, -27, 15, 10, -16, -5, -16, 0, -14, -9, 3, 0, 11, -6,
                    0, 11, 21, -22, -39, -4, 6, 22, 11, 18, -1, -14, -18, -5, 7, 23, 62, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    -11, -3, -14, -1, -15, -3, -10, -6, 4, -4, -7, -16, -1, -3, -4, 0, -1, 18,
                    11, 12, 19, -16, -31, 7, 2, 10, 21, -5, -16, -15, -4, 3, 13, 26, 39, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
        ),
    ),
    # 11,099 positions of 1,000 games (INFO rule 4), each colour its own (black's
    # lines are of another kind): Rapfi's move first 28% (hand-set 21%), in the
    # first three 52% (44%), in the first fourteen 91% (88%); +19.8 Elo in 799
    # pairs of renju games.
    "renju": Policy(
        (
            (
                (0, 0, -37, -25, -21, -24, 3, 0, 49, 55, 0, 0),
                (-1, -1, -17, -9, -17, -15, -7, 4, 12, 52, -1, 0),
            ),
            (
                (0, 0, -33, -21, -33, -21, -4, 12, 50, 49, 0, 0),
                (0, 0, -14, -8, -25, -18, -3, 5, 22, 40, 0, 0),
            ),
        ),
        (
            (
                (-6, 0, -36, -8, -5, -11, 65, 0, 0),
                (3, 9, -32, 1, -9, -5, 34, 0, 0),
            ),
            (
                (-7, 0, -41, -14, 13, -2, 51, 0, 0),
                (-22, 0, -19, -3, 4, 4, 36, 0, 0),
            ),
        ),
        (
            (
                (
                    -6, -7, 20, 17, -11, -46, -5, 6, -28, -16, 16, -15, -15, -14, 10, -8, 14,
                    -3, 4, 15, 30, -2, -14, -18, -3, 16, 14, -5, 8, -32, -15, -3, -6, 38, 65,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    3, -12, -1, 15, -13, -8, -1, 17, -5, -6, 3, -7, -1, -6, 2, 1, -1, -1, -10,
                    1, -2, -19, -23, 7, 6, 12, 17, -9, -12, -10, -12, -1, 20, 11, 34, 12, 0, 0,
                    0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
            (
                (
                    -7, 4, -8, 15, 6, -12, 2, -4, -6, -11, -2, -12, -3, -9, 8, -10, -6, -6, -6,
                    3, 17, 8, -19, -1, -15, 19, -6, 13, -22, -34, 12, 6, 20, 16, 51, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
                (
                    -22, 14, 0, 20, -5, 6, 11, 0, 7, 6, 4, -7, -4, -15, -17, -25, -13, 10, -2,
                    0, -10, -13, -26, 17, 5, 0, 14, 4, -23, -12, 13, 2, 18, 5, 36, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
                ),
            ),
        ),
    ),
}


def policy(
    rule: str = "freestyle", learned: bool = True, scale: float = 1.0
) -> npt.NDArray[np.int16]:
    """``pol[colour, role, code]``: what a candidate cell whose four levels
    read ``code`` for ``colour`` (0 black) adds to its ordering score,
    ``colour`` being the side to move (``role`` 0, what the move makes) or the
    other side (1, what it stops). The hand-set ordering (a cell's value for
    the mover and four fifths of it for the other side) where ``rule`` has no
    learned one or ``learned`` is False; each capped to 16 bits (only a cell
    that makes five is worth more, and the search never orders those).
    ``scale`` multiplies a learned one (against the history it is added to)."""
    classes, values = combinations()
    levels = code_levels()
    pol = np.zeros((2, 2, levels.shape[1]), dtype=np.int64)
    fit = POLICIES.get(rule) if learned else None
    for colour, kind in enumerate(kinds(rule)):
        if fit is None:
            pol[colour, 0] = values[kind]
            pol[colour, 1] = values[kind] * ORDER_DEFENCE // 5
            continue
        for role in range(2):
            pol[colour, role] = (
                np.array(fit.level[colour][role], dtype=np.int64)[levels].sum(axis=0)
                + np.array(fit.klass[colour][role], dtype=np.int64)[classes[kind]]
                + np.array(fit.pair[colour][role], dtype=np.int64)[code_pairs()]
            )
        pol[colour] = np.rint(pol[colour] * scale)
    return np.clip(pol, -(1 << 15), (1 << 15) - 1).astype(np.int16)
