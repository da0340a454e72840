"""The k-in-a-row engine's hot loops, compiled with numba.

Everything here is ``@njit(cache=True, nogil=True)``: searches release the
GIL, and all their state lives in the arrays of one :class:`Board` bundle
made per call, so threads never share anything mutable.

Board layout
------------
The board is a flat ``int8`` array with a margin of ``k - 1`` off-board cells
(``WALL``) on every side, so that looking ``k - 1`` cells along any line never
leaves the array::

    stride S = columns + 2(k-1); cell (r, c) lives at (r + k-1) * S + (c + k-1)
    directions: +1 (across), +S (down), +S+1 (down-right), +S-1 (down-left)

The arrays travel together as one tuple ``B`` (see :func:`unbeatable.solvers.mnk.engine.Board`):
``(bd, key, pat, cls, val, ncls, near, h, offs, geo, levels, classes, values,
zob, cells)``, ``geo = [k, stride]``.

Per cell and direction, ``key`` holds two bits per neighbour (see
:mod:`.patterns`); ``pat[p, d, cell]`` is the level player ``p`` makes there,
``cls[p, cell]`` the four directions combined and ``val[p, cell]`` what the
cell is worth to ``p``. ``ncls[p, class]`` counts the empty cells of each
class, so "can x win at once?" is ``ncls[0, C_FIVE] > 0``. ``near[cell]``
counts stones within two cells: the candidate moves. Playing or taking back a
stone updates only the ``4 * 2(k-1)`` cells whose keys it is part of.

Scores are from the side to move: ``WIN - plies`` for a win ``plies`` half
moves from the search root, its negative for a loss, anything smaller in size
a heuristic judgement.

Control
-------
``ctl`` is shared with the caller: ``ctl[STOP]`` set (by a watcher thread at
the deadline, or by the stop switch) ends the search at the next check;
``ctl[NODES]`` counts nodes; ``ctl[ABORTED]`` says the answer is unusable;
``ctl[CUT]`` that a continuous-four search stopped a line at its ply limit
(so a longer search might find more).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from unbeatable.solvers.mnk.patterns import (
    B4,
    C_B4,
    C_B4F3,
    C_F3,
    C_F3F3,
    C_FIVE,
    C_FLEX4,
)

WIN = 30000
#: Scores at least this large in size are proven results (wins/losses).
MATE = WIN - 2000
INF = 1 << 20
EMPTY, WALL = 0, 3
STOP, NODES, ABORTED, NODE_LIMIT, CUT = 0, 1, 2, 3, 4
#: Deepest ply any search reaches (the move buffers' size).
MAX_PLY = 128
#: Candidate moves considered per node (the best-ordered first), and at the root.
WIDTH, ROOT_WIDTH = 14, 40
EXACT, LOWER, UPPER = 0, 1, 2
#: What a leaf's evaluation adds for the mover's four-three (half for a
#: double three) when the opponent has no four to interpose: 1,500 and 3,000
#: scored 73% and 71% against Rapfi held to 8 plies where none scored 61%
#: (80 games each at 200,000 nodes a move; benchmarks/README.md).
THREAT_BONUS = 1500


# -- the board ----------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _refresh(B, n, d):  # type: ignore[no-untyped-def]
    """Re-read cell ``n``'s patterns in direction ``d`` after its key changed."""
    bd, key, pat, cls, val, ncls = B[0], B[1], B[2], B[3], B[4], B[5]
    levels, classes, values = B[10], B[11], B[12]
    kk = key[d, n]
    for p in range(2):
        pat[p, d, n] = levels[p, kk]
        code = (
            np.int64(pat[p, 0, n]) * 1000
            + np.int64(pat[p, 1, n]) * 100
            + np.int64(pat[p, 2, n]) * 10
            + np.int64(pat[p, 3, n])
        )
        new = classes[code]
        if bd[n] == EMPTY:
            ncls[p, cls[p, n]] -= 1
            ncls[p, new] += 1
        cls[p, n] = new
        val[p, n] = values[code]


@njit(cache=True, nogil=True, inline="always")
def _set(B, c, stone, step):  # type: ignore[no-untyped-def]
    """Write ``stone`` (0: empty) on cell ``c`` and into every key that sees it,
    re-reading those cells' patterns; ``step`` (+1/-1) counts it near its cells."""
    bd, key, h, near, offs, geo, zob = B[0], B[1], B[7], B[6], B[8], B[9], B[13]
    k, stride = geo[0], geo[1]
    h[0] ^= zob[max(stone, bd[c]) - 1, c]
    bd[c] = stone
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            near[c + dr * stride + dc] += step
    for d in range(4):
        o = offs[d]
        for s in range(1, k):
            for n, shift in ((c + s * o, 2 * (k - 1 - s)), (c - s * o, 2 * (s + k - 2))):
                # n sees c at offset -s (first) or +s (second), in these two bits of its key
                if bd[n] != WALL:
                    key[d, n] = (key[d, n] & ~(3 << shift)) | (stone << shift)
                    _refresh(B, n, d)


@njit(cache=True, nogil=True)
def place(B, c, stone):  # type: ignore[no-untyped-def]
    """Put ``stone`` (1: x, 2: o) on the empty cell ``c``."""
    cls, ncls = B[3], B[5]
    for p in range(2):
        ncls[p, cls[p, c]] -= 1  # an occupied cell is no candidate of any class
    _set(B, c, stone, 1)


@njit(cache=True, nogil=True)
def remove(B, c):  # type: ignore[no-untyped-def]
    """Take the stone off cell ``c`` (the exact inverse of :func:`place`)."""
    cls, ncls = B[3], B[5]
    _set(B, c, 0, -1)
    for p in range(2):
        ncls[p, cls[p, c]] += 1


@njit(cache=True, nogil=True)
def init_walls(B):  # type: ignore[no-untyped-def]
    """Keys and patterns of an empty board: every neighbour off the board is a wall."""
    bd, key, cls, ncls, offs, geo = B[0], B[1], B[3], B[5], B[8], B[9]
    k = geo[0]
    for n in range(bd.shape[0]):
        if bd[n] == WALL:
            continue
        ncls[0, cls[0, n]] += 1
        ncls[1, cls[1, n]] += 1
        for d in range(4):
            o = offs[d]
            for s in range(1, k):
                if bd[n - s * o] == WALL:
                    key[d, n] |= WALL << (2 * (k - 1 - s))
                if bd[n + s * o] == WALL:
                    key[d, n] |= WALL << (2 * (s + k - 2))
        for d in range(4):
            _refresh(B, n, d)


# -- reading threats ------------------------------------------------------------


@njit(cache=True, nogil=True)
def first_of_class(B, p, klass):  # type: ignore[no-untyped-def]
    """The first empty cell where ``p`` has class ``klass`` or better (-1: none)."""
    bd, cls, cells = B[0], B[3], B[14]
    for c in cells:
        if bd[c] == EMPTY and cls[p, c] >= klass:
            return c
    return -1


@njit(cache=True, nogil=True, inline="always")
def makes_four(B, p, c):  # type: ignore[no-untyped-def]
    """Whether playing ``c`` would give ``p`` a four (or better) in some direction."""
    pat = B[2]
    return pat[p, 0, c] >= B4 or pat[p, 1, c] >= B4 or pat[p, 2, c] >= B4 or pat[p, 3, c] >= B4


@njit(cache=True, nogil=True)
def defences(B, me, out, score):  # type: ignore[no-untyped-def]
    """Moves for ``me`` (0/1) against the opponent's threat of an open four
    (an open three, or a cell that would make two fours): every cell where the
    opponent would make a four in some line (occupying one of them is the only
    way to stop such a threat) and every move that makes a four of ``me``'s own
    (a tempo). Into ``out`` with ordering scores; returns their count."""
    bd, cls, val, cells = B[0], B[3], B[4], B[14]
    opp = 1 - me
    n = 0
    for c in cells:
        if bd[c] == EMPTY and (cls[me, c] >= C_B4 or makes_four(B, opp, c)):
            out[n] = c
            score[n] = val[me, c] + val[opp, c]
            n += 1
    return n


@njit(cache=True, nogil=True)
def evaluate(B, me):  # type: ignore[no-untyped-def]
    """Heuristic value for ``me`` (0/1) to move: what the empty cells near the
    stones are worth to each side, the mover's best cell counting extra (it
    plays first), and a bonus for a double threat the opponent cannot answer
    with a four (the search's horizon would otherwise miss that it wins)."""
    bd, val, near, cells = B[0], B[4], B[6], B[14]
    mine = 0
    theirs = 0
    best_mine = 0
    for c in cells:
        if bd[c] == EMPTY and near[c] > 0:
            v = val[me, c]
            mine += v
            theirs += val[1 - me, c]
            if v > best_mine:
                best_mine = v
    score = (mine - theirs) // 4 + best_mine // 2
    ncls = B[5]
    opp = 1 - me
    if ncls[opp, C_B4] + ncls[opp, C_B4F3] + ncls[opp, C_FLEX4] == 0:
        # The opponent has no four to interpose: a four-three of the mover's
        # wins outright, a double three nearly always.
        if ncls[me, C_B4F3] > 0:
            score += THREAT_BONUS
        elif ncls[me, C_F3F3] > 0:
            score += THREAT_BONUS // 2
    return max(1 - MATE, min(MATE - 1, score))


@njit(cache=True, nogil=True, inline="always")
def tick(ctl):  # type: ignore[no-untyped-def]
    """Count a node; look at the stop flag and the node limit now and then."""
    ctl[NODES] += 1
    if ctl[NODES] & 255 == 0 and (
        ctl[STOP] != 0 or (ctl[NODE_LIMIT] > 0 and ctl[NODES] >= ctl[NODE_LIMIT])
    ):
        ctl[ABORTED] = 1
    return ctl[ABORTED] != 0


@njit(cache=True, nogil=True, inline="always")
def _sort(moves, score, n):  # type: ignore[no-untyped-def]
    """Insertion sort, best score first (lists are short)."""
    for i in range(1, n):
        m, s = moves[i], score[i]
        j = i - 1
        while j >= 0 and score[j] < s:
            moves[j + 1], score[j + 1] = moves[j], score[j]
            j -= 1
        moves[j + 1], score[j + 1] = m, s


# -- threat-space search ------------------------------------------------------------

#: Node kinds of :func:`threats`.
VCF, VCT, DEFEND = 0, 1, 2


@njit(cache=True, nogil=True)
def threats(B, att, depth, ply, kind, ctl, mbuf, sbuf, line):  # type: ignore[no-untyped-def]
    """Threat-space search for ``att`` (0/1). Returns the plies to ``att``'s
    five against the longest defence (0: no win found) and writes that line
    from ``line[ply]``.

    ``kind`` VCF: ``att`` to move, a win by continuous fours within ``depth``
    plies: every attacking move makes a four, so each reply is forced (the
    block, or the defender's own five, which ends it). Sound by construction.

    ``kind`` VCT: ``att`` to move, a win by fours and threes (moves after which
    ``att`` threatens an open four), at most ``depth`` threes deep; fours first.

    ``kind`` DEFEND: the defender to move against ``att``'s threat. Defences
    tried: the block of a four; against an open-four threat every cell where
    ``att`` would make a four (only those can stop it) and every four of the
    defender's own (a tempo). Any other move lets ``att`` make the open four,
    and then nothing helps: a win found holds against every defence.

    (The constants it passes itself are cast to ``np.int64``: given a literal,
    numba compiles a version of a recursive function per value, and loading
    such versions back from its cache crashes the process.)
    """
    bd, cls, val, ncls, cells = B[0], B[3], B[4], B[5], B[14]
    if tick(ctl) or ply >= MAX_PLY - 4:
        return 0
    dfn = 1 - att
    moves, score = mbuf[ply], sbuf[ply]

    if kind == DEFEND:
        if ncls[dfn, C_FIVE] > 0:
            return 0  # the defender wins first
        if ncls[att, C_FIVE] >= 2:
            line[ply] = first_of_class(B, att, C_FIVE)
            place(B, line[ply], dfn + 1)
            line[ply + 1] = first_of_class(B, att, C_FIVE)
            remove(B, line[ply])
            return 2
        if ncls[att, C_FIVE] == 1:
            moves[0] = first_of_class(B, att, C_FIVE)
            n = 1
        elif ncls[att, C_FLEX4] > 0:
            n = defences(B, dfn, moves, score)
            _sort(moves, score, n)
        else:
            return 0  # no threat: the defender has a free move
        worst = 0
        worst_move = -1
        for i in range(n):
            m = moves[i]
            place(B, m, dfn + 1)
            r = threats(B, att, depth, ply + 1, np.int64(VCT), ctl, mbuf, sbuf, line)
            remove(B, m)
            if r == 0:
                return 0
            if r > worst:
                worst, worst_move = r, m
        line[ply] = worst_move
        place(B, worst_move, dfn + 1)
        threats(B, att, depth, ply + 1, np.int64(VCT), ctl, mbuf, sbuf, line)  # the line under it
        remove(B, worst_move)
        return worst + 1

    if ncls[att, C_FIVE] > 0:
        line[ply] = first_of_class(B, att, C_FIVE)
        return 1
    if ncls[dfn, C_FIVE] > 1:
        return 0
    if ncls[dfn, C_FIVE] == 0 and ncls[att, C_FLEX4] > 0:  # open four or double four
        c = first_of_class(B, att, C_FLEX4)
        line[ply] = c
        place(B, c, att + 1)
        line[ply + 1] = first_of_class(B, att, C_FIVE)
        place(B, line[ply + 1], dfn + 1)
        line[ply + 2] = first_of_class(B, att, C_FIVE)
        remove(B, line[ply + 1])
        remove(B, c)
        return 3
    if kind == VCT:
        r = threats(B, att, np.int64(MAX_PLY), ply, np.int64(VCF), ctl, mbuf, sbuf, line)
        if r > 0 or depth <= 0 or ctl[ABORTED] != 0:
            return r
    elif depth < 3:
        ctl[CUT] = 1
        return 0

    n = 0
    if ncls[dfn, C_FIVE] == 1:  # the defender threatens five: block, threatening
        moves[0] = first_of_class(B, dfn, C_FIVE)
        n = 1
    else:
        least = C_B4 if kind == VCF else C_F3
        for c in cells:
            if bd[c] == EMPTY and cls[att, c] >= least:
                moves[n] = c
                score[n] = val[att, c] + val[dfn, c] // 4
                n += 1
        _sort(moves, score, n)
    for i in range(n):
        c = moves[i]
        place(B, c, att + 1)
        r = 0
        if kind == VCF:
            if ncls[att, C_FIVE] == 1:  # a four: the block is forced
                b = first_of_class(B, att, C_FIVE)
                place(B, b, dfn + 1)
                sub = threats(B, att, depth - 2, ply + 2, np.int64(VCF), ctl, mbuf, sbuf, line)
                remove(B, b)
                if sub > 0:
                    line[ply + 1] = b
                    r = sub + 2
            elif ncls[att, C_FIVE] >= 2:
                r = 1 + threats(B, att, depth, ply + 1, np.int64(DEFEND), ctl, mbuf, sbuf, line)
        else:
            sub = threats(B, att, depth - 1, ply + 1, np.int64(DEFEND), ctl, mbuf, sbuf, line)
            if sub > 0:
                r = sub + 1
        remove(B, c)
        if r > 0:
            line[ply] = c
            return r
        if ctl[ABORTED] != 0:
            return 0
    return 0


# -- principal variation search ---------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _to_tt(v, ply):  # type: ignore[no-untyped-def]
    if v >= MATE:
        return v + ply
    if v <= -MATE:
        return v - ply
    return v


@njit(cache=True, nogil=True, inline="always")
def _from_tt(v, ply):  # type: ignore[no-untyped-def]
    if v >= MATE:
        return v - ply
    if v <= -MATE:
        return v + ply
    return v


# A table entry is one 64-bit word (value, bound, depth, move), and its slot's
# key word holds the position's key XOR that word: two threads searching at
# once may share the table without locks, since an entry torn by a write in
# between (one word new, one old) no longer matches its key and is ignored.
_VALUE_BIAS = 1 << 19


@njit(cache=True, nogil=True, inline="always")
def _pack(value, flag, depth, move):  # type: ignore[no-untyped-def]
    return np.uint64((value + _VALUE_BIAS) | (flag << 20) | ((depth + 128) << 22) | (move << 30))


@njit(cache=True, nogil=True, inline="always")
def _unpack(entry):  # type: ignore[no-untyped-def]
    e = np.int64(entry)
    return (
        (e & 0xFFFFF) - _VALUE_BIAS,
        (e >> 20) & 3,
        ((e >> 22) & 0xFF) - 128,
        (e >> 30) & 0xFFFF,
    )


@njit(cache=True, nogil=True, inline="always")
def _select(moves, score, n, top):  # type: ignore[no-untyped-def]
    """Bring the ``top`` best-scored moves to the front, best first (the rest
    stay behind in any order): cheaper than sorting all when few are searched."""
    for i in range(min(n, top)):
        best = i
        for j in range(i + 1, n):
            if score[j] > score[best]:
                best = j
        moves[i], moves[best] = moves[best], moves[i]
        score[i], score[best] = score[best], score[i]


@njit(cache=True, nogil=True)
def candidates(B, me, ply, mbuf, sbuf, hist, hint, top):  # type: ignore[no-untyped-def]
    """The moves worth searching for ``me`` (0/1), best-ordered first, into
    ``mbuf[ply]``; their count. A four to block is the only move; against an
    open-four threat only the defences; otherwise the cells near the stones,
    by what they make and stop (and the history of cut-offs)."""
    bd, val, ncls, near, cells = B[0], B[4], B[5], B[6], B[14]
    opp = 1 - me
    moves, score = mbuf[ply], sbuf[ply]
    if ncls[opp, C_FIVE] > 0:
        moves[0] = first_of_class(B, opp, C_FIVE)
        return 1
    if ncls[opp, C_FLEX4] > 0:
        n = defences(B, me, moves, score)
    else:
        n = 0
        for c in cells:
            if bd[c] == EMPTY and near[c] > 0:
                moves[n] = c
                score[n] = val[me, c] + (val[opp, c] * 4) // 5 + hist[me, c]
                n += 1
    for i in range(n):
        if moves[i] == hint:
            score[i] = INF
    _select(moves, score, n, top)
    return n


@njit(cache=True, nogil=True)
def pvs(B, me, depth, alpha, beta, ply, ctl, mbuf, sbuf, hist, tt_key, tt_data):  # type: ignore[no-untyped-def]
    """Negamax principal-variation search for ``me`` (0/1) to move.

    Fail-soft alpha-beta with null windows for all but the first move, a
    Zobrist-keyed transposition table, history ordering; a forced block does
    not use up depth. Scores from ``me``'s view; mate scores are exact distances
    within the moves searched (the engine proves them apart, by threat search).
    """
    bd, ncls, h, cells = B[0], B[5], B[7], B[14]
    if tick(ctl):
        return 0
    opp = 1 - me
    if ncls[me, C_FIVE] > 0:
        return WIN - ply - 1
    if ncls[opp, C_FIVE] >= 2:
        return -(WIN - ply - 2)
    if ncls[opp, C_FIVE] == 0 and ncls[me, C_FLEX4] > 0:
        return WIN - ply - 3
    empty = 0
    for c in cells:
        if bd[c] == EMPTY:
            empty += 1
            break
    if empty == 0:
        return 0
    forced = ncls[opp, C_FIVE] == 1
    if depth <= 0 and not forced:
        # (A continuous-four search here, as Rapfi does, cost more nodes than it
        # found: 12 games each against Rapfi held to 2 and 6 plies scored 83% and
        # 33% with it, 100% and 83% without; benchmarks/README.md.)
        return evaluate(B, me)
    if ply >= MAX_PLY - 4:
        return evaluate(B, me)

    slot = np.int64(h[0] & np.uint64(tt_key.shape[0] - 1))
    hint = -1
    entry = tt_data[slot]
    if tt_key[slot] ^ entry == h[0]:
        stored_value, flag, stored_depth, hint = _unpack(entry)
        if stored_depth >= depth:
            v = _from_tt(stored_value, ply)
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v

    width = ROOT_WIDTH if ply == 0 else WIDTH
    if ncls[opp, C_FLEX4] > 0:
        width = MAX_PLY * 4  # against a threat, every defence
    n = candidates(B, me, ply, mbuf, sbuf, hist, hint, width)
    n = min(n, width)
    child_depth = depth if forced else depth - 1
    rest = (ctl, mbuf, sbuf, hist, tt_key, tt_data)
    alpha0 = alpha
    best = -INF
    best_move = -1
    for i in range(n):
        c = mbuf[ply, i]
        place(B, c, me + 1)
        if i == 0:
            v = -pvs(B, opp, child_depth, -beta, -alpha, ply + 1, *rest)
        else:
            v = -pvs(B, opp, child_depth, -alpha - 1, -alpha, ply + 1, *rest)
            if alpha < v < beta:
                v = -pvs(B, opp, child_depth, -beta, -alpha, ply + 1, *rest)
        remove(B, c)
        if ctl[ABORTED] != 0:
            return 0
        if v > best:
            best, best_move = v, c
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    hist[me, c] += depth * depth
                    break
    if best_move < 0:
        return evaluate(B, me)
    flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
    entry = _pack(_to_tt(best, ply), flag, depth, best_move)
    tt_data[slot] = entry
    tt_key[slot] = h[0] ^ entry
    return best
