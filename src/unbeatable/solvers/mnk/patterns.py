"""Line patterns of k in a row, as lookup tables for the kernel.

A cell's *pattern* in one direction is what a player would make there, in
that line, by playing on the cell: a five, an open four (two ways to five), a
four (one way), an open three (one move from an open four), and so on down
to a dead line, where no five can ever pass through the cell. It depends only
on the ``k - 1`` cells on each side, so the kernel keeps, per cell and
direction, a *key*: two bits per neighbour (empty, x, o, off the board), kept
up to date as stones come and go. :func:`tables` turns every possible key into
both players' patterns once per ``k``; the search then reads threats from a
table instead of scanning lines.

The levels are defined recursively, as players count them: a move that leads
to an open four in one more move makes an open three, one that leads only to a
four makes a closed three, and so on. Freestyle rules: five *or more* wins.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

#: Pattern levels in one direction, weakest first.
DEAD, B1, F1, B2, F2, B3, F3, B4, F4, FIVE = range(10)
LEVEL_NAMES = (
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

#: Cell classes: the four directions' patterns combined, weakest first.
C_NONE, C_LOW, C_F3, C_F3F3, C_B4, C_B4F3, C_FLEX4, C_FIVE = range(8)

#: Neighbour states in a key, two bits each.
EMPTY, X_STONE, O_STONE, WALL = range(4)

#: Weight of each level for move ordering and evaluation (what playing the
#: cell is worth in one direction).
LEVEL_WEIGHT = (0, 1, 3, 6, 20, 24, 110, 130, 1200, 12000)
#: Extra weight of combinations that win or nearly win by themselves.
CLASS_BONUS = {C_FLEX4: 6000, C_B4F3: 2500, C_F3F3: 1200}

_OWN, _BLOCKED = 1, 2


def _run(window: tuple[int, ...], centre: int) -> int:
    """Length of the player's unbroken run through the centre."""
    n = 1
    i = centre - 1
    while i >= 0 and window[i] == _OWN:
        n += 1
        i -= 1
    i = centre + 1
    while i < len(window) and window[i] == _OWN:
        n += 1
        i += 1
    return n


def _level_function(k: int):  # type: ignore[no-untyped-def]
    centre = k - 1

    @cache
    def level(window: tuple[int, ...]) -> int:
        """The level of a window whose centre holds the player's stone."""
        if _run(window, centre) >= k:
            return FIVE
        empties = [i for i, v in enumerate(window) if v == 0]
        wins = 0
        for e in empties:
            if _run((*window[:e], _OWN, *window[e + 1 :]), centre) >= k:
                wins += 1
        if wins >= 2:
            return F4
        if wins == 1:
            return B4
        best = DEAD
        for e in empties:
            best = max(best, level((*window[:e], _OWN, *window[e + 1 :])))
        # One move short of the child's level; anything alive is at least a one.
        return {F4: F3, B4: B3, F3: F2, B3: B2, F2: F1, B2: B1, F1: B1, B1: B1}.get(best, DEAD)

    return level


def key_bits(k: int) -> int:
    """Bits in a key: two for each of the 2(k-1) neighbours."""
    return 4 * (k - 1)


def slot(k: int, offset: int) -> int:
    """Where in a key the neighbour ``offset`` cells away (negative: before) sits."""
    return offset + k - 1 if offset < 0 else offset + k - 2


@cache
def tables(k: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
    """``(levels, classes, values)`` for k in a row.

    ``levels[p, key]``: the level player ``p`` (0: x, 1: o) makes by playing a
    cell whose neighbours read ``key``. ``classes[code]`` and ``values[code]``
    combine four directions' levels, ``code = l0*1000 + l1*100 + l2*10 + l3``.
    """
    if not 2 <= k <= 6:
        raise ValueError(f"line patterns are tabled for k = 2-6, not {k}")
    level = _level_function(k)
    n = 2 * (k - 1)
    keys = np.arange(1 << (2 * n), dtype=np.int64)
    states = np.stack([(keys >> (2 * j)) & 3 for j in range(n)], axis=1)  # neighbour states
    levels = np.zeros((2, len(keys)), dtype=np.uint8)
    for p, own in enumerate((X_STONE, O_STONE)):
        window = np.where(states == own, _OWN, np.where(states == EMPTY, 0, _BLOCKED))
        # Many keys share a window (the opponent and the edge both block): level each once.
        ternary = window @ (3 ** np.arange(n, dtype=np.int64))
        unique, inverse = np.unique(ternary, return_inverse=True)
        found = np.empty(len(unique), dtype=np.uint8)
        for i, c in enumerate(unique.tolist()):
            row = [c // 3**j % 3 for j in range(n)]
            found[i] = level((*row[: k - 1], _OWN, *row[k - 1 :]))
        levels[p] = found[inverse.reshape(-1)]
    classes = np.zeros(10000, dtype=np.uint8)
    values = np.zeros(10000, dtype=np.int32)
    for code in range(10000):
        four = (code // 1000, code // 100 % 10, code // 10 % 10, code % 10)  # plain ints
        classes[code] = combine(four)
        values[code] = sum(LEVEL_WEIGHT[x] for x in four) + CLASS_BONUS.get(int(classes[code]), 0)
    return levels, classes, values


def combine(four: tuple[int, ...]) -> int:
    """The class of a cell from its four directions' levels."""
    fours = sum(1 for x in four if x == B4)
    threes = sum(1 for x in four if x == F3)
    if FIVE in four:
        return C_FIVE
    if F4 in four or fours >= 2:
        return C_FLEX4
    if fours == 1:
        return C_B4F3 if threes else C_B4
    if threes >= 2:
        return C_F3F3
    if threes == 1:
        return C_F3
    return C_LOW if any(four) else C_NONE
