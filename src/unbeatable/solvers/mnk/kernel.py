"""The k-in-a-row engine's hot loops, compiled with numba.

Everything here is compiled by numba with ``cache=True, nogil=True`` and
without its reference counting (:data:`_OPTIONS`): searches release the
GIL, and all their state lives in the arrays of one :class:`Board` bundle
made per call, so threads never share anything mutable.

Board layout
------------
The board is a flat ``int8`` array with a margin of ``reach`` off-board cells
(``WALL``) on every side, so that looking ``reach`` cells along any line never
leaves the array (``reach``: k - 1 in freestyle, k where the cell past a row
of k matters; :func:`unbeatable.solvers.mnk.patterns.reach`)::

    stride S = columns + 2 reach; cell (r, c) lives at (r + reach) * S + (c + reach)
    directions: +1 (across), +S (down), +S+1 (down-right), +S-1 (down-left)

The arrays travel together as one tuple ``B`` (see :func:`unbeatable.solvers.mnk.engine.Board`):
``(bd, key, pat, cls, val, ncls, near, h, offs, geo, levels, combos, zob,
cells, ev, undo, pol)``, ``geo`` holding k, the stride, the reach, whether lines are
read directly, whether renju's forbidden points apply and each player's line
kind (the ``G_*`` indices).

Per cell and direction, ``key`` holds two bits per neighbour (see
:mod:`.patterns`); ``pat[p, cell]`` holds the level player ``p`` makes there
in direction d in bits 4d to 4d + 3 (:func:`level`): one word that is
itself the index of the class, value and evaluation tables.
``cls[p, cell]`` is the four directions combined and ``val[p, cell]`` what the
cell is worth to ``p``. ``ncls[p, class]`` counts the empty cells of each
class, so "can x win at once?" is ``ncls[0, C_FIVE] > 0``; its last column
(:data:`RESTRICTED`) says whether ``p`` has forbidden points. ``near[cell]``
counts stones within two cells: the candidate moves. Playing or taking back a
stone updates only the ``4 * 2 reach`` cells whose keys it is part of. Past a
table's reach (k of 7 or more) there are no keys: each of those cells' lines
is read off the board (:func:`line_level`), and only empty cells are kept up
to date.

Renju
-----
Black (player 0) may not play a forbidden point (:func:`forbidden`): every
move list of black's leaves them out (:func:`illegal`), and a four of
white's whose five point black may not block is a won four. The tables give
the shapes one line decides (an overline, two fours, a three that can only
become a forbidden four in its own line); whether a three is real, its four
point itself playable, is read here, recursively, as the rules define it.

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

from typing import Any

import numpy as np
from numba import njit

from unbeatable.solvers.mnk.patterns import (
    B1,
    B2,
    B3,
    B4,
    C_B4,
    C_B4F3,
    C_F3,
    C_F3F3,
    C_FIVE,
    C_FLEX4,
    C_FORBID,
    DEAD,
    DFOUR,
    F1,
    F2,
    F3,
    F4,
    FIVE,
    FREE,
    MAX_TABLE_REACH,
    NCLASSES,
    NTHREATS,
    NTOPS,
    OVERLINE,
    TOP_UNIT,
)

#: How every function here is compiled. ``_nrt=False``: without numba's
#: reference counts. Nothing here allocates (numba refuses to compile a
#: kernel that would) and every array belongs to the caller, who holds it
#: for the whole call, so the counts only cost: an atomic increment and
#: decrement for each array taken out of the bundle or sliced, a quarter
#: of the search's time by perf (benchmarks/README.md, "Twice the nodes a
#: second").
_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
_compiled = njit(**_OPTIONS)
_inlined = njit(inline="always", **_OPTIONS)

WIN = 30000
#: Scores at least this large in size are proven results (wins/losses).
MATE = WIN - 2000
INF = 1 << 20
EMPTY, WALL = 0, 3
STOP, NODES, ABORTED, NODE_LIMIT, CUT, AGE = 0, 1, 2, 3, 4, 5
#: Fields of ``geo``: k, the stride, the reach, lines read directly (1) or
#: from the tables (0), renju (1), player p's line kind at ``G_KIND + p``, and
#: past both kinds whether the rule set's search corrects its evaluation
#: (``G_CORR``, :data:`CORR`).
G_K, G_STRIDE, G_REACH, G_DIRECT, G_RENJU, G_KIND = 0, 1, 2, 3, 4, 5
G_CORR = G_KIND + 2
#: The column of ``ncls`` that says a player has forbidden points (1: renju's
#: black), past the class counts.
RESTRICTED = NCLASSES
#: Why renju's black may not play a cell (the answers of :func:`forbidden`).
LEGAL, DOUBLE_THREE, DOUBLE_FOUR, OVERLINE_MOVE = 0, 1, 2, 3
#: Deepest ply any search reaches (the move buffers' size).
MAX_PLY = 128
#: :func:`pvs` counts the depth left in sixteenths of a ply, so that an
#: extension or a reduction may be a part of one, as Rapfi's are: the
#: plies of every setting below are multiplied by ``PLY`` where the search
#: reads them, and a ply's worth of depth is what a move uses up.
PLY = 16
#: Candidate moves considered per node (the best-ordered first), and at the root.
WIDTH, ROOT_WIDTH = 14, 40
#: More moves where many plies are left (0: never): a node (not the root)
#: with more than ``DEEP_WIDTH_FROM`` plies left considers
#: ``DEEP_WIDTH_STEP`` moves more than :data:`WIDTH` for each ply past it,
#: up to :data:`ROOT_WIDTH`. A reply placed past the fourteenth is otherwise
#: never searched however long the search runs; the extra moves, quiet ones,
#: are reduced as late moves are. 5 and 2 (16 moves at six plies left, 20
#: at eight, 24 at ten): +5.6 Elo after 647 pairs at 200,000 nodes alone
#: (undecided); with :data:`SE_DEPTH`, the table kept from move to move,
#: +14.6 Elo in 1,465 pairs (benchmarks/README.md, "Tests of 2026-12-07
#: (last)").
DEEP_WIDTH_FROM, DEEP_WIDTH_STEP = 5, 2
EXACT, LOWER, UPPER = 0, 1, 2
#: What a leaf's evaluation adds for the mover's four-three (half for a
#: double three) when the opponent has no four to interpose: 1,500 and 3,000
#: scored 73% and 71% against Rapfi held to 8 plies where none scored 61%
#: (80 games each at 200,000 nodes a move; benchmarks/README.md).
THREAT_BONUS = 1500
#: Whether the leaf evaluation adds the fitted sum (patterns.fitted) to the
#: hand-set one.
EVAL_FIT = True
#: Whether it also adds what the rule set's fitted threat table
#: (``patterns.THREATS``) gives the side to move for the threats both sides
#: have (:func:`threat_mask`), as Rapfi's classical evaluation does: who
#: holds the initiative changes a position's worth more than any sum of its
#: cells says. Freestyle's: +15.6 Elo in 1,395 pairs, renju's: +19.5 in 732
#: (benchmarks/README.md, "Tests of 2026-12-05"); standard's, with
#: :data:`TOP_EVAL`'s weights, +28.9 in 620; a rule set with no table adds 0.
THREAT_EVAL = True
#: Whether it also adds what the side to move's ``NTOPS`` best cells are
#: worth beside one another, in the rule sets that have weights for them
#: (``patterns.TOPS``; the others read no cell twice). Standard's, with its
#: threat table: +28.9 Elo in 620 pairs (benchmarks/README.md, "Tests of
#: 2026-12-06 (evening)").
TOP_EVAL = True
#: Whether a node where the opponent threatens a four-three (and nothing
#: stronger) searches only the moves that answer it (:func:`b4f3_defences`),
#: every one of them, as it does against an open three (with
#: ``engine.POLICY_SCALE`` 2: +18.5 Elo in 929 pairs; benchmarks/README.md).
B4F3_DEFENCE = True
#: Late-move reductions: at a node of at least ``LMR_DEPTH`` plies left and
#: no open three of the opponent's to answer, the moves from the
#: ``LMR_FROM``-th in the ordering (0 first) that neither make nor stop a three
#: or four are searched one ply shallower first (two from ``LMR_MORE``), and
#: again at full depth only if they beat the best so far.
LMR_DEPTH, LMR_FROM, LMR_MORE = 3, 3, 8
#: Late-move reductions also for a move that only stops the opponent's open
#: three before it is made (the opponent would make one there; the mover
#: makes no three or four): a ply shallower from the ``LMR_FROM``-th move
#: (0: never). Such a block can wait, since an open three can still be
#: answered once made; the moves that make a three stay unreduced (reducing
#: both lost 26 Elo, H0). 1: +6.1 Elo after 2,745 pairs alone (undecided);
#: with ``engine.ROOT_LMR`` +31.3 in 529 (benchmarks/README.md, "Tests of
#: 2026-12-07 (evening)").
LMR_STOPS = 1
#: Reverse futility pruning: at a node of at most ``RFP_DEPTH`` plies left
#: (not the root, no block forced) where the opponent has no open three,
#: four-three or double three, an evaluation that beats beta by ``RFP_MARGIN``
#: a ply is taken as the node's value (0: never). 6 plies and 150 a ply:
#: +30.6 Elo in 631 pairs; 3 and 400 had stood at +5 (benchmarks/README.md,
#: beside the steps tried and not kept: late-move pruning at 2 and at 6
#: plies, razoring, reductions growing as ln(depth) x ln(place), and
#: reducing moves that make or stop only an open three). 10 plies and 100 a
#: ply (+5.5 after 726 pairs alone), with :data:`FUTILITY_MARGIN` 500: +25.5
#: Elo in 545 pairs ("Tests of 2026-12-03"). 70 a ply, with
#: :data:`LMR_CUTNODE` and :data:`LMR_WORSENING`: +21.7 Elo in 803 pairs
#: ("Tests of 2026-12-03 (night)").
RFP_DEPTH, RFP_MARGIN = 10, 70
#: Plies of margin that reverse futility pruning takes off where the mover's
#: evaluation has risen since its last move (two plies up; never in the
#: first two plies), as chess engines do for an "improving" side (0: none).
#: The evaluations are kept in the score buffer's spare column
#: (:data:`STATIC`). Four steps that had each stood undecided near +4 Elo
#: (this one, late-move pruning at 4 a ply, a null move reduced a ply more
#: every 4 plies, fail-high reduction from 20 a ply) passed together:
#: +28.7 Elo in 509 pairs (benchmarks/README.md, "Tests of 2026-12-03").
RFP_IMPROVING = 1
#: The column of a ply's row of the score buffer that holds the node's
#: evaluation where the pruning read one (-INF where it did not): no list of
#: candidates reaches it, a row having two slots more than the board has cells.
STATIC = -1
#: The column beside it that says whether the node at that ply is an expected
#: cut node (1) or not (0): searched in a null window below a node that is
#: not one (the root and the principal variation are not), as chess engines
#: and Rapfi reckon it. Read only by :data:`LMR_CUTNODE`.
CUT_NODE = -2
#: Late-move reductions this many plies deeper at an expected cut node (0: no change):
#: there the first moves nearly always cut, so a late one is reached where
#: the guess was wrong and matters less (Rapfi reduces such moves most).
#: With :data:`LMR_WORSENING` alone +5.7 Elo after 764 pairs (undecided);
#: with it and reverse futility at 70 a ply, +21.7 in 803 (benchmarks/README.md).
LMR_CUTNODE = 1
#: Late-move reductions a ply deeper for the moves already reduced two where
#: the mover's evaluation has not risen since its last move (0: no change),
#: as Rapfi does for a side that is not improving. Kept with :data:`LMR_CUTNODE`.
LMR_WORSENING = 1
#: Late-move pruning: at a node of at most ``LMP_DEPTH`` plies left (not the
#: root, no block forced, no open three of the opponent's), a move that
#: neither makes nor stops a three or four is not searched at all once
#: ``LMP_COUNT`` times the depth moves were (0: none pruned). 4: one of the
#: four steps kept together (:data:`RFP_IMPROVING`). Rapfi's way, every
#: move making no four pruned at every depth past 3 + depth^1.32 moves:
#: -2.9 Elo after 302 pairs at 100,000 nodes, undecided, not kept.
LMP_DEPTH, LMP_COUNT = 2, 4
#: Late-move pruning this many times sooner where the mover's evaluation has
#: not risen since its last move (1: no change), as Rapfi's move-count
#: pruning halves its count for a side that is not improving (told as
#: :data:`LMR_WORSENING` tells it, and only where that switch is on). 2,
#: with reverse futility at 55 a ply: +7.3 Elo after 1,864 pairs, undecided
#: when the book ran out ("Tests of 2026-12-04"); with :data:`QVCF` and
#: :data:`IIR_DEPTH`, the table kept from move to move, +17.0 in 1,124 pairs
#: (benchmarks/README.md, "Tests of 2026-12-07 (night)").
LMP_WORSENING = 2
#: Futility pruning: at one ply from the leaves (not the root, no block
#: forced, the opponent with no open three, four-three or double three)
#: where the evaluation is ``FUTILITY_MARGIN`` or more below alpha, the
#: moves after the first that neither make nor stop a three or four are not
#: searched (0: none pruned). 500 (a quiet move raised the evaluation by
#: more than that in under 1% of 1,743 tried), with the bolder reverse
#: futility of :data:`RFP_DEPTH`: +25.5 Elo in 545 pairs.
FUTILITY_MARGIN = 500
#: Fail-high reduction: at a null-window node where the same conditions hold
#: and the evaluation beats beta by ``FHR_MARGIN`` a ply, the node will most
#: likely cut, so its moves that make no four are searched a ply shallower
#: (0: none). 30 a ply: +24.8 Elo in 779 pairs; 20, with the other three
#: steps of :data:`RFP_IMPROVING`, +28.7 in 509 (benchmarks/README.md).
FHR_MARGIN = 20
#: Null-move pruning: where the side to move faces no open three, four-three
#: or double three and its evaluation reaches beta, a pass searched
#: ``NULL_R`` plies shallower that still fails high cuts the node (0: none).
NULL_R = 2
#: A pass's reduction grows by a ply every ``NULL_DIV`` plies of depth left
#: (0: it stays ``NULL_R``), as chess engines' does. 4: one of the four
#: steps kept together (:data:`RFP_IMPROVING`).
NULL_DIV = 4
#: Bounded history (0: unbounded, each cut-off adding depth squared): a
#: cut-off moves its move's history toward ``HIST_MAX`` and the moves tried
#: before it toward ``-HIST_MAX``, each by depth squared scaled by how far it
#: still is, so that history sorts the quiet moves without outweighing
#: the threes and fours the patterns rank. Unbounded, a move's history had
#: reached thousands in a search of 200,000 nodes, where an open three's
#: pattern value is about 110. 300: +25.7 Elo in 705 pairs
#: (benchmarks/README.md).
HIST_MAX = 300
#: Correction history (0: off): what the searches below a node found its
#: evaluation to be worth, learned as the search goes and added to the
#: evaluation of later nodes that share each side's stones, as chess engines
#: correct theirs by pawn structure. A static sum of cell patterns misses
#: the same threat race over and over in one subtree; a table keyed by the
#: side to move's stones and by the other side's (each a hash of one
#: colour's stones, kept beside the position's key) carries what deeper
#: nodes saw to the shallow ones that prune by the evaluation. 1: the
#: pruning's evaluation corrected (+35.7 Elo in 459 pairs, freestyle;
#: benchmarks/README.md, "Tests of 2026-12-05"); the leaves' corrected too
#: stood at +14.9 after 491 pairs (e8f936f's ``CORR=2``), not kept. Only in
#: the rule sets whose harness accepted it (``engine.CORRECTED``: the board's
#: ``geo[G_CORR]``); standard's test stood undecided (+4.1 after 1,326
#: pairs), renju's leaned to H0.
CORR = 1
#: Slots of each correction table (a power of two), per side to move and key.
CORR_ENTRIES = 1 << 14
#: A correction's units a point of evaluation, and the largest one in points.
CORR_GRAIN, CORR_LIMIT = 16, 400
#: How fast an entry follows a node's result: ``min(depth, CORR_DEPTH)``
#: 64ths of the way from what it holds.
CORR_DEPTH = 8
#: A quiescence of fours at the leaves (0: none), near the mover's own last
#: move as Rapfi's: a leaf whose evaluation stays below beta tries up to
#: ``QVCF_FOURS`` of the mover's fours on the four lines through the stone it
#: played last (within four cells; four-threes first), each answered by the
#: forced block, which uses up no depth, against standing pat. A four far
#: from one's last stone seldom belongs to a winning line, and every four on
#: the board lost 134 Elo (benchmarks/README.md). A leaf ``QVCF_MARGIN`` or
#: more below alpha stands pat: only a win lifts it, and the root's proofs
#: look for those. +7.3 Elo after 1,017 pairs at 100,000 nodes alone
#: (undecided); with :data:`IIR_DEPTH` and :data:`LMP_WORSENING`, +17.0 in
#: 1,124 pairs (benchmarks/README.md, "Tests of 2026-12-07 (night)").
QVCF = 1
QVCF_FOURS, QVCF_MARGIN = 3, 2000
#: The column of ``mbuf`` that holds the move played from each ply (-1: a
#: pass), which the quiescence reads two plies on.
PLAYED = -1
#: Internal iterative reduction (0: none): a node of at least ``IIR_DEPTH``
#: plies left (not the root, no block forced) whose table holds no move for
#: it is searched a ply shallower, as chess engines and Rapfi do: a position
#: no earlier search stored is seldom on the line that matters, and its moves
#: are ordered without the table's best. -16.9 Elo at 200,000 nodes with an
#: empty table each move (H0); in play the table is kept from move to move,
#: and so tested (``gomoku_sprt.py --keep-table``) +6.4 after 326 pairs alone,
#: and with :data:`QVCF` and :data:`LMP_WORSENING` +17.0 in 1,124 pairs
#: (benchmarks/README.md, "Tests of 2026-12-07 (night)").
IIR_DEPTH = 4
#: Two-entry buckets in the transposition table (0: one entry a slot, each
#: store replacing what was there): a position may sit in either entry of
#: its bucket, and a new one replaces the entry of the same position, else
#: the one worth least, its depth less ``TT_BUCKET`` plies for each search
#: since it was written (``ctl[AGE]``, the search's age, 8 bits). In play the
#: table is kept from move to move and a one-second search stores more
#: entries than a 16 MB table has: replacing every time throws away deep
#: entries for the leaves' neighbours. 4 (+4.1 after 797 pairs alone,
#: undecided), with ``engine.ITERATION_ROOM`` 0: +15.3 Elo in 1,110 pairs
#: (benchmarks/README.md, "Tests of 2026-12-07 (late)").
TT_BUCKET = 4
#: Singular extensions (0: none): at a node of at least ``SE_DEPTH`` plies
#: left (not the root, no block forced) whose table entry holds a move with
#: a lower bound or exact value from at most ``SE_SHALLOWER`` plies less
#: deep, the other moves are searched at half the depth in a null window
#: ``SE_MARGIN`` a ply below that value. If none reaches it, the table's
#: move is the only good one and is searched a ply deeper; if the window's
#: bound is itself at or above beta and some other move reaches it, the node
#: cuts (multi-cut). The moves' search leaves out the table's move
#: (``mbuf``'s :data:`EXCLUDED` column), reads no cut-off from the table and
#: writes nothing to it. Where one move alone holds, the node's value rests
#: on that line, so chess engines and Rapfi look a ply further there. 6
#: plies, 4 a ply: +6.8 Elo after 432 pairs alone (undecided; -1.9 after 559 when
#: tried on 2026-11-27, each move from an empty table); with
#: :data:`DEEP_WIDTH_FROM`, +14.6 Elo in 1,465 pairs (benchmarks/README.md,
#: "Tests of 2026-12-07 (last)").
SE_DEPTH, SE_SHALLOWER, SE_MARGIN = 6, 3, 4
#: The column of ``mbuf`` that holds the move a singular search leaves out,
#: plus one (0: none).
EXCLUDED = -2
#: Distraction pruning (0: none): against the opponent's open three, at a
#: node of at most ``DISTRACT_DEPTH`` plies left, once a move not proven
#: lost has been searched, an answer that takes no cell where the opponent
#: makes a four (a four of one's own, elsewhere) more than 4 cells from both
#: sides' last stones is not searched, as Rapfi prunes such answers below
#: 4.3 plies: a far four only delays the block. With :data:`DEFEND_CUT_OPP`: +32.9 Elo
#: in 482 pairs (benchmarks/README.md, "Tests of 2026-12-08 (later)").
DISTRACT_DEPTH = 4
#: Against the opponent's open three, the answers after the first that take
#: no cell where the opponent makes a four are searched shallower first:
#: ``DEFEND_CUT_OPP`` sixteenths of a ply if more than 4 cells from the
#: opponent's last stone, ``DEFEND_CUT_SELF`` more if more than 4 from the
#: mover's own (0, 0: none), Rapfi's 1.93 and 0.96 plies. A threat's
#: answers are all searched, none cut by the list's width, and such fours
#: are most of them; they seldom do more than delay the block. Kept with
#: :data:`DISTRACT_DEPTH`.
DEFEND_CUT_OPP, DEFEND_CUT_SELF = 31, 15
#: The key a pass flips, so that a position reached with the other side to
#: move never shares the table's entries.
NULL_KEY = np.uint64(0x9E3779B97F4A7C15)
#: Slots of the threat search's table of failures (each two 8-byte words).
SEEN_ENTRIES = 1 << 16
#: What makes a failure's key differ by attacker and node kind.
SEEN_SALT = np.uint64(0xBF58476D1CE4E5B9)


# -- reading a line -------------------------------------------------------------


@_inlined
def _exact_window(own_mask, s, k, reach):  # type: ignore[no-untyped-def]
    """Whether the k cells from offset ``s`` can be a row of exactly k: the
    cells just past both ends are not the player's."""
    return (own_mask >> (s - 1 + reach)) & 1 == 0 and (own_mask >> (s + k + reach)) & 1 == 0


@_compiled
def line_level(bd, n, o, own, k, reach, exact):  # type: ignore[no-untyped-def]
    """The level (:mod:`.patterns`) the player whose stones are ``own`` makes
    by playing cell ``n``, in the line of step ``o``, read off the board: for
    lines too long to table (k of 7 or more). Fives and fours as the tables
    count them; a three is open when one move makes two distinct five points
    (each window of k cells with two empty cells pairs them); weaker levels
    are counted by the windows of k cells with three or four empty cells.
    ``exact``: only exactly k wins."""
    lo = 0
    while lo < reach:
        v = bd[n - (lo + 1) * o]
        if v != own and v != EMPTY:
            break
        lo += 1
    hi = 0
    while hi < reach:
        v = bd[n + (hi + 1) * o]
        if v != own and v != EMPTY:
            break
        hi += 1
    if lo + hi + 1 < k:
        return DEAD
    a = 0
    while a < lo and bd[n - (a + 1) * o] == own:
        a += 1
    b = 0
    while b < hi and bd[n + (b + 1) * o] == own:
        b += 1
    run = a + b + 1
    if run >= k:
        return FIVE if run == k or not exact else DEAD
    points = 0
    if a < lo:  # the cell just before the run is empty: filling it joins what lies beyond
        j = a + 2
        while j <= lo and bd[n - j * o] == own:
            j += 1
        joined = run + j - a - 1
        if joined == k or (joined > k and not exact):
            points += 1
    if b < hi:
        j = b + 2
        while j <= hi and bd[n + j * o] == own:
            j += 1
        joined = run + j - b - 1
        if joined == k or (joined > k and not exact):
            points += 1
    if points == 2:
        return F4
    if points == 1:
        return B4
    # Bit masks of the player's stones and the empty cells, offset i at bit i + reach.
    own_mask = np.int64(1) << reach
    empty_mask = np.int64(0)
    for i in range(-lo, hi + 1):
        if i != 0:
            if bd[n + i * o] == own:
                own_mask |= np.int64(1) << (i + reach)
            else:
                empty_mask |= np.int64(1) << (i + reach)
    full = (np.int64(1) << k) - 1
    first, last = max(-lo, 1 - k), min(hi - k + 1, 0)
    three = 0  # 1: a move makes a four; 2: a move makes two five points
    threes_short = 0  # windows one stone further (three empty cells)
    twos_short = 0  # and two
    alive = False  # a window that can still become a row of k
    for s in range(first, last + 1):
        if exact and not _exact_window(own_mask, s, k, reach):
            continue
        alive = True
        x = empty_mask & (full << (s + reach))
        y = x & (x - 1)
        if y == 0:
            continue
        z = y & (y - 1)
        if z != 0:
            w = z & (z - 1)
            if w == 0:
                threes_short += 1
            elif w & (w - 1) == 0:
                twos_short += 1
            continue
        three = max(three, 1)
        if three == 2:
            continue
        # Two empty cells: filling either makes a four whose five point is
        # the other. A cell paired with two different cells makes two.
        for e in (x & -x, y):
            other = x ^ e
            for t in range(first, last + 1):
                if t == s or (exact and not _exact_window(own_mask, t, k, reach)):
                    continue
                xt = empty_mask & (full << (t + reach))
                if xt & e == 0:
                    continue
                yt = xt & (xt - 1)
                if yt == 0 or yt & (yt - 1) != 0:
                    continue
                if xt ^ e != other:
                    three = 2
                    break
            if three == 2:
                break
    if three == 2:
        return F3
    if three == 1:
        return B3
    if threes_short >= 2:
        return F2
    if threes_short == 1:
        return B2
    if twos_short >= 2:
        return F1
    return B1 if alive else DEAD


# -- the board ----------------------------------------------------------------


#: Where a packed code's tempo weight sits in ``ev``, past every code.
PACKED_TEMPO = 1 << 16
#: Where the evaluation table's threat entries begin (``patterns.THREAT_CODE``
#: in the packed words' order).
PACKED_THREATS = PACKED_TEMPO + 1
#: Where its entries for the side to move's best cells begin
#: (``patterns.TOP_CODE``): the weights, then a constant.
PACKED_TOPS = PACKED_THREATS + NTHREATS


@_inlined
def level(pat, p, d, n):  # type: ignore[no-untyped-def]
    """The level player ``p`` makes at cell ``n`` in direction ``d``."""
    return (np.int64(pat[p, n]) >> (4 * d)) & 15


@_inlined
def _set_level(pat, p, d, n, lv):  # type: ignore[no-untyped-def]
    """Write player ``p``'s level in direction ``d`` into cell ``n``'s word."""
    pat[p, n] = (np.int64(pat[p, n]) & ~(15 << (4 * d))) | (np.int64(lv) << (4 * d))


@_inlined
def _classify(B, n, rows):  # type: ignore[no-untyped-def]
    """Combine cell ``n``'s four levels into its class and value, per player
    (``rows``: the tables' row of each player's line kind), keeping the
    counts of the empty cells' classes."""
    bd, pat, cls, val, ncls, combos = B[0], B[2], B[3], B[4], B[5], B[11]
    for p in range(2):
        both = combos[rows[p], pat[p, n]]
        new = both & 15
        old = cls[p, n]
        if new != old and bd[n] == EMPTY:  # (most re-reads keep the class)
            ncls[p, old] -= 1
            ncls[p, new] += 1
        cls[p, n] = new
        val[p, n] = both >> 4


@_inlined
def _refresh(B, n, d, rows):  # type: ignore[no-untyped-def]
    """Re-read cell ``n``'s patterns in direction ``d`` after its key changed."""
    key, pat, levels = B[1], B[2], B[10]
    both = levels[key[d, n]]
    _set_level(pat, 0, d, n, both & 15)
    _set_level(pat, 1, d, n, both >> 4)
    _classify(B, n, rows)


@_compiled
def _read(B, n, d):  # type: ignore[no-untyped-def]
    """Re-read the empty cell ``n``'s patterns in direction ``d`` off the
    board (lines too long to table)."""
    bd, pat, geo, o = B[0], B[2], B[9], B[8][d]
    for p in range(2):
        lv = line_level(bd, n, o, p + 1, geo[G_K], geo[G_REACH], geo[G_KIND + p] != FREE)
        _set_level(pat, p, d, n, lv)
    _classify(B, n, (geo[G_KIND], geo[G_KIND + 1]))


@_compiled
def _reread(B, c, emptied):  # type: ignore[no-untyped-def]
    """Re-read, off the board, the empty cells whose lines pass through the
    cell ``c`` that just changed (and ``c`` itself when it was ``emptied``:
    an occupied cell's patterns are not kept)."""
    bd, offs, reach = B[0], B[8], B[9][G_REACH]
    for d in range(4):
        o = offs[d]
        for s in range(1, reach + 1):
            for n in (c + s * o, c - s * o):
                if bd[n] == EMPTY:
                    _read(B, n, d)
    if emptied:
        for d in range(4):
            _read(B, c, d)


@_inlined
def _count_near(near, c, stride, step):  # type: ignore[no-untyped-def]
    """Count a stone placed on ``c`` (``step`` 1) or taken off it (-1) in
    the 5x5 square of cells it is near: the candidate moves."""
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            near[c + dr * stride + dc] += step


@_inlined
def _set(B, c, stone, step):  # type: ignore[no-untyped-def]
    """Write ``stone`` (0: empty) on cell ``c`` and into every key that sees it,
    re-reading those cells' patterns; ``step`` (+1/-1) counts it near its cells."""
    bd, key, h, near, offs, geo, zob = B[0], B[1], B[7], B[6], B[8], B[9], B[12]
    stride, reach = geo[G_STRIDE], geo[G_REACH]
    colour = max(stone, bd[c])
    h[0] ^= zob[colour - 1, c]
    h[colour] ^= zob[colour - 1, c]  # (each colour's stones alone: :data:`CORR`)
    bd[c] = stone
    _count_near(near, c, stride, step)
    if geo[G_DIRECT] != 0:
        _reread(B, c, stone == 0)
        return
    rows = (geo[G_KIND], geo[G_KIND + 1])
    # Every cell's keys follow the board, but only the empty cells' patterns
    # are kept (nothing reads an occupied cell's): a cell emptied is re-read.
    for d in range(4):
        o = offs[d]
        for s in range(1, reach + 1):
            # The cell after c sees it at offset -s, the one before at +s.
            n = c + s * o
            b = bd[n]
            if b != WALL:
                shift = 2 * (reach - s)
                key[d, n] = (key[d, n] & ~(3 << shift)) | (stone << shift)
                if b == EMPTY:
                    _refresh(B, n, d, rows)
            n = c - s * o
            b = bd[n]
            if b != WALL:
                shift = 2 * (s + reach - 1)
                key[d, n] = (key[d, n] & ~(3 << shift)) | (stone << shift)
                if b == EMPTY:
                    _refresh(B, n, d, rows)
    if stone == 0:
        pat, levels = B[2], B[10]
        for d in range(4):
            both = levels[key[d, c]]
            _set_level(pat, 0, d, c, both & 15)
            _set_level(pat, 1, d, c, both >> 4)
        _classify(B, c, rows)


@_compiled
def place(B, c, stone):  # type: ignore[no-untyped-def]
    """Put ``stone`` (1: x, 2: o) on the empty cell ``c``."""
    cls, ncls = B[3], B[5]
    for p in range(2):
        ncls[p, cls[p, c]] -= 1  # an occupied cell is no candidate of any class
    _set(B, c, stone, 1)


@_compiled
def remove(B, c):  # type: ignore[no-untyped-def]
    """Take the stone off cell ``c`` (the exact inverse of :func:`place`)."""
    cls, ncls = B[3], B[5]
    for p in range(2):  # counted in its old class now; re-reading it moves it on
        ncls[p, cls[p, c]] += 1
    _set(B, c, 0, -1)


#: Stones :func:`play` can have on the board at once and take back by
#: restoring (a search's plies, the threat search's, renju's recursion past
#: them); past these it recomputes, as :func:`remove` does.
UNDO_LEVELS = MAX_PLY + 64
#: An undo record: where its cells end, the class counts as they were, then
#: two words for each empty cell the stone re-read (where, its classes and
#: patterns; its values), at most 4 lines of 2 reach cells.
UNDO_NCLS = 1
UNDO_CELLS = UNDO_NCLS + 2 * (NCLASSES + 1)
UNDO_WORDS = UNDO_CELLS + 2 * 4 * 2 * MAX_TABLE_REACH


@_compiled
def play(B, c, stone):  # type: ignore[no-untyped-def]
    """:func:`place`, keeping what it overwrote so that :func:`unplay` puts
    it back without re-reading a pattern: the searches' way, which take
    stones back last first. (With re-reading on the way back, a stone
    placed and taken back cost 1,118-1,196 ns; restoring, 839-847 ns:
    benchmarks/README.md, "Twice the nodes a second".)"""
    undo, geo = B[15], B[9]
    top = undo[0, 0] + 1
    undo[0, 0] = top
    if top >= undo.shape[0] or geo[G_DIRECT] != 0:
        place(B, c, stone)
        return
    rec = undo[top]
    bd, key, pat, cls, val, ncls = B[0], B[1], B[2], B[3], B[4], B[5]
    near, h, offs, zob = B[6], B[7], B[8], B[12]
    width = NCLASSES + 1  # (a constant: the copy unrolls)
    for p in range(2):
        for k in range(width):
            rec[UNDO_NCLS + p * width + k] = ncls[p, k]
        ncls[p, cls[p, c]] -= 1
    stride, reach = geo[G_STRIDE], geo[G_REACH]
    h[0] ^= zob[stone - 1, c]
    h[stone] ^= zob[stone - 1, c]
    bd[c] = stone
    _count_near(near, c, stride, 1)
    rows = (geo[G_KIND], geo[G_KIND + 1])
    m = UNDO_CELLS
    for d in range(4):
        o = offs[d]
        for s in range(1, reach + 1):
            for side in range(2):
                n = c + s * o if side == 0 else c - s * o
                b = bd[n]
                if b == WALL:
                    continue
                shift = 2 * (reach - s) if side == 0 else 2 * (s + reach - 1)
                key[d, n] = (key[d, n] & ~(3 << shift)) | (stone << shift)
                if b == EMPTY:
                    rec[m] = (
                        n
                        | (np.int64(cls[0, n]) << 24)
                        | (np.int64(cls[1, n]) << 28)
                        | (np.int64(pat[0, n]) << 32)
                        | (np.int64(pat[1, n]) << 48)
                    )
                    rec[m + 1] = val[0, n] | (val[1, n] << 32)
                    m += 2
                    _refresh(B, n, d, rows)
    rec[0] = m


@_compiled
def unplay(B, c):  # type: ignore[no-untyped-def]
    """Take back the stone the last :func:`play` put on ``c``: the keys
    follow the board, every cell it re-read gets its old patterns, classes
    and values back, and the class counts theirs (``c``'s own were kept
    while it was occupied)."""
    undo, geo = B[15], B[9]
    top = undo[0, 0]
    undo[0, 0] = top - 1
    if top >= undo.shape[0] or geo[G_DIRECT] != 0:
        remove(B, c)
        return
    rec = undo[top]
    bd, key, pat, cls, val, ncls = B[0], B[1], B[2], B[3], B[4], B[5]
    near, h, offs, zob = B[6], B[7], B[8], B[12]
    stride, reach = geo[G_STRIDE], geo[G_REACH]
    h[0] ^= zob[bd[c] - 1, c]
    h[bd[c]] ^= zob[bd[c] - 1, c]
    bd[c] = EMPTY
    _count_near(near, c, stride, -1)
    for d in range(4):
        o = offs[d]
        for s in range(1, reach + 1):
            n = c + s * o
            if bd[n] != WALL:
                key[d, n] &= ~(3 << (2 * (reach - s)))
            n = c - s * o
            if bd[n] != WALL:
                key[d, n] &= ~(3 << (2 * (s + reach - 1)))
    for m in range(UNDO_CELLS, rec[0], 2):
        w = rec[m]
        n = w & 0xFFFFFF
        cls[0, n] = (w >> 24) & 15
        cls[1, n] = (w >> 28) & 15
        pat[0, n] = (w >> 32) & 0xFFFF
        pat[1, n] = (w >> 48) & 0xFFFF
        v = rec[m + 1]
        val[0, n] = v & 0xFFFFFFFF
        val[1, n] = v >> 32
    width = NCLASSES + 1  # (a constant: the copy unrolls)
    for p in range(2):
        for k in range(width):
            ncls[p, k] = rec[UNDO_NCLS + p * width + k]


@_compiled
def init_walls(B):  # type: ignore[no-untyped-def]
    """Keys and patterns of an empty board: every neighbour off the board is a wall."""
    bd, key, cls, ncls, offs, geo = B[0], B[1], B[3], B[5], B[8], B[9]
    reach, direct = geo[G_REACH], geo[G_DIRECT] != 0
    for n in range(bd.shape[0]):
        if bd[n] == WALL:
            continue
        ncls[0, cls[0, n]] += 1
        ncls[1, cls[1, n]] += 1
        if not direct:
            for d in range(4):
                o = offs[d]
                for s in range(1, reach + 1):
                    if bd[n - s * o] == WALL:
                        key[d, n] |= WALL << (2 * (reach - s))
                    if bd[n + s * o] == WALL:
                        key[d, n] |= WALL << (2 * (s + reach - 1))
        for d in range(4):
            if direct:
                _read(B, n, d)
            else:
                _refresh(B, n, d, (geo[G_KIND], geo[G_KIND + 1]))


# -- renju's forbidden points -----------------------------------------------------


@_compiled
def forbidden(B, c):  # type: ignore[no-untyped-def]
    """Why renju's black may not play the empty cell ``c`` (:data:`LEGAL`: it
    may): a five first (it always may), then an overline, two fours, and two
    threes, a three counting only when a stone next to its run makes a
    straight four, and no five at the same time, on a point that is not
    forbidden itself (read recursively, with ``c`` played; RIF's definition,
    as :mod:`unbeatable.games.renju` reads it). The board is left as it was."""
    bd, pat, cls, offs = B[0], B[2], B[3], B[8]
    if cls[0, c] == C_FIVE:
        return LEGAL
    overline = False
    fours = 0
    threes = 0
    for d in range(4):
        lv = level(pat, 0, d, c)
        if lv == OVERLINE:
            overline = True
        elif lv == DFOUR:
            fours += 2
        elif lv >= B4:
            fours += 1
        elif lv == F3:
            threes += 1
    if overline:
        return OVERLINE_MOVE
    if fours >= 2:
        return DOUBLE_FOUR
    if threes < 2:
        return LEGAL
    play(B, c, np.int64(1))  # (not a literal: one compiled play for every call)
    real = 0
    for d in range(4):
        if level(pat, 0, d, c) != F3:
            continue
        o = offs[d]
        for sign in (1, -1):
            # The four point, if any, is the first cell past c's run.
            e = c + sign * o
            while bd[e] == 1:
                e += sign * o
            if (
                bd[e] == EMPTY
                and level(pat, 0, d, e) == F4
                and cls[0, e] != C_FIVE  # a four point that makes a five makes no three
                and forbidden(B, e) == LEGAL
            ):
                real += 1
                break
        if real >= 2:
            break
    unplay(B, c)
    return DOUBLE_THREE if real >= 2 else LEGAL


@_inlined
def restricted(ncls, p):  # type: ignore[no-untyped-def]
    """Whether player ``p`` has forbidden points (renju's black), read from
    the last column of the class counts ``ncls`` (``B[5]``).

    (Hot functions take their arrays out of ``B`` once, at the top, and hand
    helpers like this one those arrays: taking an array out of ``B`` again in
    a branch keeps numba from pruning its reference counting, which made the
    leaf evaluation half as slow again.)"""
    return ncls[p, RESTRICTED] != 0


@_compiled
def illegal(B, p, c):  # type: ignore[no-untyped-def]
    """Whether player ``p`` may not play the empty cell ``c`` (renju's black
    on a forbidden point). Cheap unless the cell holds two threes; callers
    in hot loops ask :func:`restricted` first."""
    cls, ncls = B[3], B[5]
    if not restricted(ncls, p):
        return False
    klass = cls[0, c]
    if klass == C_FORBID:
        return True
    if klass == C_F3F3 or klass == C_B4F3 or klass == C_FLEX4:  # noqa: SIM109 (numba)
        return forbidden(B, c) != LEGAL
    return False


# -- reading threats ------------------------------------------------------------


@_compiled
def first_of_class(B, p, klass):  # type: ignore[no-untyped-def]
    """The first empty cell where ``p`` has class ``klass`` or better (-1: none)."""
    bd, cls, cells = B[0], B[3], B[13]
    for c in cells:
        if bd[c] == EMPTY and cls[p, c] >= klass:
            return c
    return -1


@_compiled
def legal_of_class(B, p, klass):  # type: ignore[no-untyped-def]
    """:func:`first_of_class` among the cells ``p`` may play (-1: none)."""
    bd, cls, cells = B[0], B[3], B[13]
    for c in cells:
        if bd[c] == EMPTY and cls[p, c] >= klass and not illegal(B, p, c):
            return c
    return -1


@_compiled
def can_play_class(B, p, klass):  # type: ignore[no-untyped-def]
    """Whether ``p`` has an empty cell of class ``klass`` or better that it
    may play (read off the counts but for renju's black)."""
    ncls = B[5]
    found = 0
    for q in range(klass, NCLASSES):
        found += ncls[p, q]
    if found == 0:
        return False
    return not restricted(ncls, p) or legal_of_class(B, p, klass) >= 0


@_compiled
def free_move(B, p):  # type: ignore[no-untyped-def]
    """A move ``p`` may play that is worth most to it, near the stones if
    possible (a lost side's move in a proven line); -1 if there is none."""
    bd, val, near, cells = B[0], B[4], B[6], B[13]
    best, best_value = -1, -1
    for c in cells:
        if bd[c] == EMPTY:
            v = val[p, c] + (1 << 40 if near[c] > 0 else 0)
            if v > best_value and not illegal(B, p, c):
                best, best_value = c, v
    return best


@_inlined
def makes_four(B, p, c):  # type: ignore[no-untyped-def]
    """Whether playing ``c`` would give ``p`` a four (or better) in some direction."""
    pat = B[2]
    return (
        level(pat, p, 0, c) >= B4
        or level(pat, p, 1, c) >= B4
        or level(pat, p, 2, c) >= B4
        or level(pat, p, 3, c) >= B4
    )


@_compiled
def legal_only(B, p, moves, score, n):  # type: ignore[no-untyped-def]
    """Drop the moves ``p`` may not play from ``moves[:n]`` (and their
    scores), keeping the order; the count left. (Its own function, so that
    the search's hot loops carry none of the forbidden-point reading.)"""
    kept = 0
    for i in range(n):
        if not illegal(B, p, moves[i]):
            moves[kept], score[kept] = moves[i], score[i]
            kept += 1
    return kept


@_compiled
def defences(B, me, out, score):  # type: ignore[no-untyped-def]
    """Moves for ``me`` (0/1) against the opponent's threat of an open four
    (an open three, or a cell that would make two fours): every cell where the
    opponent would make a four in some line (occupying one of them is the only
    way to stop such a threat) and every move that makes a four of ``me``'s own
    (a tempo). Into ``out`` with ordering scores; returns their count. Renju's
    black's forbidden points among them are the caller's to drop
    (:func:`legal_only`: a call here, even one never made, slows the loop)."""
    bd, cls, val, cells = B[0], B[3], B[4], B[13]
    opp = 1 - me
    n = 0
    for c in cells:
        if bd[c] == EMPTY and (cls[me, c] >= C_B4 or makes_four(B, opp, c)):
            out[n] = c
            score[n] = val[me, c] + val[opp, c]
            n += 1
    return n


@_inlined
def _lowers(B, p, d, q, s, stone, who):  # type: ignore[no-untyped-def]
    """Whether ``stone`` on the empty cell ``q``, ``s`` cells from ``p``
    along direction ``d`` (negative: before it), would lower the level
    player ``who`` makes at ``p`` in that line: read from ``p``'s key with
    ``q`` filled in, as placing the stone would."""
    key, levels, reach = B[1], B[10], B[9][G_REACH]
    shift = 2 * (s + reach - 1) if s > 0 else 2 * (reach + s)
    k = (key[d, p] & ~(3 << shift)) | (stone << shift)
    return (np.int64(levels[k]) >> (4 * who)) & 15 < level(B[2], who, d, p)


@_inlined
def _add_new(out, n, c):  # type: ignore[no-untyped-def]
    """Append ``c`` to ``out[:n]`` unless it is there; the new count."""
    for i in range(n):
        if out[i] == c:
            return n
    out[n] = c
    return n + 1


@_compiled
def b4f3_defences(B, me, out):  # type: ignore[no-untyped-def]
    """Moves for ``me`` (0/1) where the opponent threatens a four-three (a
    cell ``p`` that makes a four and an open three at once: it wins unless
    answered) and has no four or open-four threat already (those are
    answered first): ``p`` itself; every empty cell that would lower the
    opponent's four or three through ``p`` (its key read with the cell
    filled in); every cell along another line through the four's five point
    where ``me`` would make a three or more there, so that blocking the
    four later makes a four of ``me``'s own; and every four of ``me``'s (a
    tempo). Any other move lets the four-three through. Into ``out``; their
    count, or 0 where the rule does not apply and every move stays a
    candidate: lines read off the board, a threat renju's black may not
    play, or one whose four ``me`` would block with a four of its own.
    The first such cell stands for all: a move must answer it, whatever
    the others need."""
    bd, pat, cls, offs, geo, cells = B[0], B[2], B[3], B[8], B[9], B[13]
    if geo[G_DIRECT] != 0:
        return 0
    opp = 1 - me
    p = first_of_class(B, opp, C_B4F3)
    if p < 0 or (restricted(B[5], opp) and illegal(B, opp, p)):
        return 0
    reach = geo[G_REACH]
    n = 0
    out[n] = p
    n += 1
    for d in range(4):
        lv = level(pat, opp, d, p)
        if lv != B4 and lv != F3:
            continue
        o = offs[d]
        for sign in (1, -1):
            for s in range(1, reach + 1):
                q = p + sign * s * o
                if bd[q] == WALL:
                    break
                if bd[q] == EMPTY and _lowers(B, p, d, q, sign * s, me + 1, opp):
                    n = _add_new(out, n, q)
        if lv == B4:
            # The four's five point once p is played, and the cells that
            # would make blocking it a four of me's own.
            play(B, p, opp + 1)
            for sign in (1, -1):
                for s in range(1, reach + 1):
                    e = p + sign * s * o
                    if bd[e] == WALL:
                        break
                    if bd[e] != EMPTY or level(pat, opp, d, e) != FIVE:
                        continue
                    if cls[me, e] >= C_B4:  # the block is a four: no threat to answer yet
                        unplay(B, p)
                        return 0
                    for d2 in range(4):
                        if d2 == d:
                            continue
                        o2 = offs[d2]
                        for sign2 in (1, -1):
                            for s2 in range(1, reach + 1):
                                q = e + sign2 * s2 * o2
                                if bd[q] == WALL:
                                    break
                                if bd[q] == EMPTY and level(pat, me, d2, q) >= B3:
                                    n = _add_new(out, n, q)
            unplay(B, p)
    for c in cells:
        if bd[c] == EMPTY and cls[me, c] >= C_B4:
            n = _add_new(out, n, c)
    return n


@_inlined
def threat_mask(ncls, me):  # type: ignore[no-untyped-def]
    """Which threats each side has, as bits: the side to move's four-three,
    four, double three and open three (bits 0-3), the other side's open
    four to make, four-three, four, double three and open three (bits
    4-8); the index of the evaluation's threat table."""
    opp = 1 - me
    mask = 0
    if ncls[me, C_B4F3] > 0:
        mask |= 1
    if ncls[me, C_B4] > 0:
        mask |= 2
    if ncls[me, C_F3F3] > 0:
        mask |= 4
    if ncls[me, C_F3] > 0:
        mask |= 8
    if ncls[opp, C_FLEX4] > 0:
        mask |= 16
    if ncls[opp, C_B4F3] > 0:
        mask |= 32
    if ncls[opp, C_B4] > 0:
        mask |= 64
    if ncls[opp, C_F3F3] > 0:
        mask |= 128
    if ncls[opp, C_F3] > 0:
        mask |= 256
    return mask


@_compiled
def evaluate(B, me):  # type: ignore[no-untyped-def]
    """Heuristic value for ``me`` (0/1) to move: what the empty cells near the
    stones are worth to each side, the mover's best cell counting extra (it
    plays first) and, where fitted, its three best weighed again
    (:data:`TOP_EVAL`), what the threats each side has are worth to the mover
    (:data:`THREAT_EVAL`), and a bonus for a double threat the opponent
    cannot answer with a four (the search's horizon would otherwise miss
    that it wins)."""
    bd, pat, val, near, cells, ev = B[0], B[2], B[4], B[6], B[13], B[14]
    opp = 1 - me
    mine = 0
    theirs = 0
    best_mine = 0
    fit = 0
    tops = TOP_EVAL and ev[me, 1, PACKED_TOPS] != 0
    second = 0
    third = 0
    for c in cells:
        if bd[c] == EMPTY and near[c] > 0:
            v = val[me, c]
            mine += v
            theirs += val[opp, c]
            if not tops:  # (a test the compiler takes out of the loop)
                if v > best_mine:
                    best_mine = v
            elif v > third:
                if v > best_mine:
                    best_mine, second, third = v, best_mine, second
                elif v > second:
                    second, third = v, second
                else:
                    third = v
            if EVAL_FIT:
                fit += ev[me, 0, pat[me, c]] + ev[opp, 1, pat[opp, c]]
    score = (mine - theirs) // 4 + best_mine // 2
    if tops:
        w = PACKED_TOPS
        score += (
            ev[me, 0, w] * best_mine + ev[me, 0, w + 1] * second + ev[me, 0, w + 2] * third
        ) // TOP_UNIT
        score += ev[me, 0, w + NTOPS]
    if EVAL_FIT:
        score += fit + ev[me, 0, PACKED_TEMPO]
    ncls = B[5]
    if THREAT_EVAL:
        score += ev[me, 0, PACKED_THREATS + threat_mask(ncls, me)]
    if ncls[opp, C_B4] + ncls[opp, C_B4F3] + ncls[opp, C_FLEX4] == 0:
        # The opponent has no four to interpose: a four-three of the mover's
        # wins outright, a double three nearly always (not renju's black's:
        # a double three is mostly forbidden to it).
        if ncls[me, C_B4F3] > 0:
            score += THREAT_BONUS
        elif ncls[me, C_F3F3] > 0 and not restricted(ncls, me):
            score += THREAT_BONUS // 2
    return max(1 - MATE, min(MATE - 1, score))


@_inlined
def tick(ctl):  # type: ignore[no-untyped-def]
    """Count a node; look at the stop flag and the node limit now and then."""
    ctl[NODES] += 1
    if ctl[NODES] & 255 == 0 and (
        ctl[STOP] != 0 or (ctl[NODE_LIMIT] > 0 and ctl[NODES] >= ctl[NODE_LIMIT])
    ):
        ctl[ABORTED] = 1
    return ctl[ABORTED] != 0


@_inlined
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


@_compiled
def defender_move(B, att, dfn):  # type: ignore[no-untyped-def]
    """The defender's move against ``att``'s five point: the block, or when
    there is none to make (renju's black may not play it) the move worth
    most to the defender; -1 if it has no move at all."""
    block = first_of_class(B, att, C_FIVE)
    if block >= 0 and not illegal(B, dfn, block):
        return block
    return free_move(B, dfn)


@_inlined
def _no_win_found(seen, slot, hk, depth, ctl):  # type: ignore[no-untyped-def]
    """Remember that a threat search ``depth`` deep from the position keyed
    ``hk`` found no win, unless it was cut off (then it proves nothing)."""
    if ctl[ABORTED] == 0:
        seen[0, slot], seen[1, slot] = hk, np.uint64(depth)


@_compiled
def threats(B, att, depth, ply, kind, ctl, mbuf, sbuf, line, seen):  # type: ignore[no-untyped-def]
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

    ``seen`` (2 x :data:`SEEN_ENTRIES`: keys, depths) remembers the positions
    where a search of a kind and depth found nothing: a search as deep or
    shallower there finds nothing either, and threat lines reach the same
    position in many orders (the threes of a VCT played one way or another).
    Only failures are kept, so a remembered entry can cost a win, never make
    a false one.

    Renju: neither side's moves include black's forbidden points, so a block
    black may not play is no defence (the line then shows another move of
    black's, and white's five), and black's open-four threat needs a point
    black may play. (A white move that turns black's four point into a
    forbidden one would also stop black's threat; such defences are not
    tried, so a proof for black assumes the rules never help white that way.)

    (The constants it passes itself are cast to ``np.int64``: given a literal,
    numba compiles a version of a recursive function per value, and loading
    such versions back from its cache crashes the process.)
    """
    bd, cls, val, ncls, cells = B[0], B[3], B[4], B[5], B[13]
    if tick(ctl) or ply >= MAX_PLY - 4:
        return 0
    hk = B[7][0] ^ (np.uint64(att * 3 + kind + 1) * SEEN_SALT)
    slot = np.int64(hk & np.uint64(SEEN_ENTRIES - 1))
    if seen[0, slot] == hk and np.int64(seen[1, slot]) >= depth:
        if kind == VCF and depth < MAX_PLY // 2:
            ctl[CUT] = 1  # (it may have been cut short: a longer search may find more)
        return 0
    dfn = 1 - att
    moves, score = mbuf[ply], sbuf[ply]

    if kind == DEFEND:
        if ncls[dfn, C_FIVE] > 0:
            return 0  # the defender wins first
        if ncls[att, C_FIVE] > 0:
            # One block (two fives: the other wins; renju's black may not
            # block: another move, and the five wins).
            moves[0] = defender_move(B, att, dfn)
            n = 1
        elif ncls[att, C_FLEX4] > 0 and can_play_class(B, att, C_FLEX4):
            n = defences(B, dfn, moves, score)
            if restricted(ncls, dfn):
                n = legal_only(B, dfn, moves, score, n)
            _sort(moves, score, n)
            if n == 0:  # no defence the defender may play: one of its moves
                moves[0] = defender_move(B, att, dfn)
                n = 1
        else:
            return 0  # no threat: the defender has a free move
        worst = 0
        worst_move = np.int64(-1)  # (not a literal: see place)
        for i in range(n):
            m = moves[i]
            if m < 0:
                return 0
            play(B, m, dfn + 1)
            r = threats(B, att, depth, ply + 1, np.int64(VCT), ctl, mbuf, sbuf, line, seen)
            unplay(B, m)
            if r == 0:
                _no_win_found(seen, slot, hk, depth, ctl)
                return 0
            if r > worst:
                worst, worst_move = r, m
        line[ply] = worst_move
        play(B, worst_move, dfn + 1)
        # The line under it:
        threats(B, att, depth, ply + 1, np.int64(VCT), ctl, mbuf, sbuf, line, seen)
        unplay(B, worst_move)
        return worst + 1

    if ncls[att, C_FIVE] > 0:
        line[ply] = first_of_class(B, att, C_FIVE)
        return 1
    if ncls[dfn, C_FIVE] > 1:
        return 0
    if ncls[dfn, C_FIVE] == 0 and ncls[att, C_FLEX4] > 0:  # open four or double four
        c = legal_of_class(B, att, C_FLEX4)
        if c >= 0:
            play(B, c, att + 1)
            r = threats(B, att, depth, ply + 1, np.int64(DEFEND), ctl, mbuf, sbuf, line, seen)
            unplay(B, c)
            if r > 0:
                line[ply] = c
                return r + 1
    if kind == VCT:
        r = threats(B, att, np.int64(MAX_PLY), ply, np.int64(VCF), ctl, mbuf, sbuf, line, seen)
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
    if restricted(ncls, att):  # renju's black: not on its forbidden points
        n = legal_only(B, att, moves, score, n)
    for i in range(n):
        c = moves[i]
        play(B, c, att + 1)
        r = 0
        if kind == VCF:
            block = first_of_class(B, att, C_FIVE) if ncls[att, C_FIVE] == 1 else -1
            if block >= 0 and not (restricted(ncls, dfn) and illegal(B, dfn, block)):
                # A four: the block is forced.
                play(B, block, dfn + 1)
                sub = threats(
                    B, att, depth - 2, ply + 2, np.int64(VCF), ctl, mbuf, sbuf, line, seen
                )
                unplay(B, block)
                if sub > 0:
                    line[ply + 1] = block
                    r = sub + 2
            elif ncls[att, C_FIVE] > 0:  # two fives, or one black may not block
                sub = threats(B, att, depth, ply + 1, np.int64(DEFEND), ctl, mbuf, sbuf, line, seen)
                if sub > 0:
                    r = sub + 1
        else:
            sub = threats(B, att, depth - 1, ply + 1, np.int64(DEFEND), ctl, mbuf, sbuf, line, seen)
            if sub > 0:
                r = sub + 1
        unplay(B, c)
        if r > 0:
            line[ply] = c
            return r
        if ctl[ABORTED] != 0:
            return 0
    _no_win_found(seen, slot, hk, depth, ctl)  # (an open four's search above may have been cut off)
    return 0


# -- principal variation search ---------------------------------------------------------------


@_inlined
def _to_tt(v, ply):  # type: ignore[no-untyped-def]
    if v >= MATE:
        return v + ply
    if v <= -MATE:
        return v - ply
    return v


@_inlined
def _from_tt(v, ply):  # type: ignore[no-untyped-def]
    if v >= MATE:
        return v - ply
    if v <= -MATE:
        return v + ply
    return v


# A table entry is one 64-bit word (value, bound, depth, move, age), and its slot's
# key word holds the position's key XOR that word: two threads searching at
# once may share the table without locks, since an entry torn by a write in
# between (one word new, one old) no longer matches its key and is ignored.
_VALUE_BIAS = 1 << 19
#: Depths in sixteenths of a ply (:data:`PLY`): 12 bits, 128 plies either way.
_DEPTH_BIAS = 1 << 11


@_inlined
def _pack(value, flag, depth, move, age):  # type: ignore[no-untyped-def]
    return np.uint64(
        (value + _VALUE_BIAS)
        | (flag << 20)
        | ((depth + _DEPTH_BIAS) << 22)
        | (move << 34)
        | ((age & 0xFF) << 50)
    )


@_inlined
def _unpack(entry):  # type: ignore[no-untyped-def]
    e = np.int64(entry)
    return (
        (e & 0xFFFFF) - _VALUE_BIAS,
        (e >> 20) & 3,
        ((e >> 22) & 0xFFF) - _DEPTH_BIAS,
        (e >> 34) & 0xFFFF,
    )


@_inlined
def _worth(entry, age):  # type: ignore[no-untyped-def]
    """What keeping ``entry`` is worth to a search of ``age``
    (:data:`TT_BUCKET`): its depth, less for each search since it was written."""
    written = (np.int64(entry) >> 50) & 0xFF  # (the age :func:`_pack` put there)
    return _unpack(entry)[2] - TT_BUCKET * PLY * ((age - written) & 0xFF)


@_inlined
def _pick(moves, score, i, n):  # type: ignore[no-untyped-def]
    """Bring the best-scored of ``moves[i:n]`` to place ``i`` (the first of
    equals)."""
    best = i
    for j in range(i + 1, n):
        if score[j] > score[best]:
            best = j
    moves[i], moves[best] = moves[best], moves[i]
    score[i], score[best] = score[best], score[i]


@_inlined
def _select(moves, score, n, top):  # type: ignore[no-untyped-def]
    """Bring the ``top`` best-scored moves to the front, best first (the rest
    stay behind in any order): cheaper than sorting all when few are searched."""
    for i in range(min(n, top)):
        _pick(moves, score, i, n)


@_inlined
def _far(B, a, b):  # type: ignore[no-untyped-def]
    """Whether cells ``a`` and ``b`` are more than 4 apart (Chebyshev; not
    when either is a pass, -1)."""
    if a < 0 or b < 0:
        return False
    stride = B[9][G_STRIDE]
    return max(abs(a // stride - b // stride), abs(a % stride - b % stride)) > 4


@_compiled
def candidates(B, me, ply, mbuf, sbuf, hist, hint, top):  # type: ignore[no-untyped-def]
    """The moves worth searching for ``me`` (0/1) into ``mbuf[ply]``, their
    ordering scores into ``sbuf[ply]`` and the ``top`` best first (0: none
    sorted, for a caller that picks each as it goes); their count, negative
    when they are the answers to a threat, every one to be searched. A four
    to block is the only move (none if renju's black may not block it);
    against an open-four threat only the defences, and with
    :data:`B4F3_DEFENCE` against a four-three threat only its answers
    (:func:`b4f3_defences`); otherwise the cells near the stones, by what
    they make and stop (and the history of cut-offs). Never a point ``me``
    may not play. A move's score: the ordering table's (``pol``: the hand-set
    values, or a policy learned, :func:`unbeatable.solvers.mnk.patterns.policy`)
    for what it makes and what it stops, and its history."""
    bd, pat, ncls, near, cells, pol = B[0], B[2], B[5], B[6], B[13], B[16]
    opp = 1 - me
    moves, score = mbuf[ply], sbuf[ply]
    answers = True
    if ncls[opp, C_FIVE] > 0:
        moves[0] = first_of_class(B, opp, C_FIVE)
        n = 1
    elif ncls[opp, C_FLEX4] > 0:
        n = defences(B, me, moves, score)
    else:
        n = 0
        if B4F3_DEFENCE and ncls[opp, C_B4F3] > 0:
            n = b4f3_defences(B, me, moves)
        if n > 0:
            for i in range(n):
                c = moves[i]
                score[i] = pol[me, 0, pat[me, c]] + pol[opp, 1, pat[opp, c]] + hist[me, c]
        else:
            answers = False
            for c in cells:
                if bd[c] == EMPTY and near[c] > 0:
                    moves[n] = c
                    score[n] = pol[me, 0, pat[me, c]] + pol[opp, 1, pat[opp, c]] + hist[me, c]
                    n += 1
    if restricted(ncls, me):  # renju's black: its forbidden points out
        n = legal_only(B, me, moves, score, n)
    for i in range(n):
        if moves[i] == hint:
            score[i] = INF
    _select(moves, score, n, top)  # (top 0: the caller picks them as it goes)
    return -n if answers else n


@_inlined
def _fours_near(B, me, last, fours, kinds):  # type: ignore[no-untyped-def]
    """The cells where ``me`` may make a four within four cells of ``last``
    on its four lines, into ``fours`` (their classes into ``kinds``); their
    count. The quiescence's moves (:data:`QVCF`): a four far from the
    mover's last stone seldom belongs to a winning line."""
    bd, cls, offs = B[0], B[3], B[8]
    renju_black = restricted(B[5], me)
    n = 0
    for d in range(4):
        for side in range(2):
            o = offs[d] if side == 0 else -offs[d]
            for s in range(1, 5):
                q = last + s * o
                if bd[q] == WALL:
                    break
                if (
                    bd[q] == EMPTY
                    and cls[me, q] >= C_B4
                    and not (renju_black and illegal(B, me, q))
                ):
                    fours[n] = q
                    kinds[n] = cls[me, q]
                    n += 1
    return n


@_inlined
def _corr_slots(B, me, corr):  # type: ignore[no-untyped-def]
    """The slots of the two correction tables for ``me`` to move: by its
    own stones and by the other side's (:data:`CORR`)."""
    h = B[7]
    mask = np.uint64(corr.shape[2] - 1)
    return np.int64(h[me + 1] & mask), np.int64(h[2 - me] & mask)


@_inlined
def _corrected(B, me, raw, corr):  # type: ignore[no-untyped-def]
    """``raw``, an evaluation for ``me``, with what the correction tables
    have learned about positions that share its stones."""
    own, other = _corr_slots(B, me, corr)
    v = raw + (corr[me, 0, own] + corr[me, 1, other]) // (2 * CORR_GRAIN)
    return max(1 - MATE, min(MATE - 1, v))


@_inlined
def _learn(B, me, depth, raw, best, corr):  # type: ignore[no-untyped-def]
    """Move both correction tables' entries for this position towards what
    the search found (``best``) beyond the evaluation (``raw``), the more
    the deeper the search was."""
    own, other = _corr_slots(B, me, corr)
    target = max(-CORR_LIMIT, min(CORR_LIMIT, best - raw)) * CORR_GRAIN
    w = min(depth, CORR_DEPTH)
    corr[me, 0, own] += (target - corr[me, 0, own]) * w // 64
    corr[me, 1, other] += (target - corr[me, 1, other]) * w // 64


@_compiled
def pvs(B, me, depth, alpha, beta, ply, ctl, mbuf, sbuf, hist, tt_key, tt_data, corr):  # type: ignore[no-untyped-def]
    """Negamax principal-variation search for ``me`` (0/1) to move, ``depth``
    sixteenths of a ply (:data:`PLY`) from the leaves.

    Fail-soft alpha-beta with null windows for all but the first move, a
    Zobrist-keyed transposition table, history ordering; a forced block does
    not use up depth; late quiet moves reduced (more at an expected cut node
    and for a side not improving; a ply or two from the leaves, not
    searched) and a null move tried where no threat is faced, a node far
    above beta cut off by its evaluation, one well above it
    searched a ply shallower and one far below alpha, a ply from the leaves,
    searching only its first move and those that make or stop a three or
    four; a node the table holds no move for searched a ply shallower, and a
    leaf below beta trying the mover's fours near its last stone; the
    table's move a ply deeper where it alone holds, more moves where
    many plies are left, and against an open three the far fours that
    only delay the block searched shallower, or not at all near the
    leaves (see :data:`DISTRACT_DEPTH`, :data:`SE_DEPTH`, :data:`DEEP_WIDTH_FROM`,
    :data:`LMR_DEPTH`, :data:`LMP_COUNT`, :data:`NULL_R`, :data:`IIR_DEPTH`, :data:`QVCF`,
    :data:`RFP_MARGIN`, :data:`FHR_MARGIN`, :data:`FUTILITY_MARGIN`,
    :data:`LMR_CUTNODE`, :data:`LMR_WORSENING`: each kept by the engine's
    SPRT games, benchmarks/README.md); in the rule sets that do, the
    evaluation the pruning reads is corrected by what the search has found
    so far (``corr``, :data:`CORR`). Scores from
    ``me``'s view; a mate score here is the search's judgement, never a proof
    (the engine proves results apart, by threat search).
    """
    bd, ncls, h, cells = B[0], B[5], B[7], B[13]
    if tick(ctl):
        return 0
    opp = 1 - me
    if ncls[me, C_FIVE] > 0:
        return WIN - ply - 1
    if ncls[opp, C_FIVE] >= 2:
        return -(WIN - ply - 2)
    if ncls[opp, C_FIVE] == 0 and ncls[me, C_FLEX4] > 0 and can_play_class(B, me, C_FLEX4):
        return WIN - ply - 3
    empty = 0
    for c in cells:
        if bd[c] == EMPTY:
            empty += 1
            break
    if empty == 0:
        return 0
    forced = ncls[opp, C_FIVE] == 1
    if forced and restricted(ncls, me) and illegal(B, me, first_of_class(B, opp, C_FIVE)):
        return -(WIN - ply - 2)  # renju's black may not block white's four
    if depth <= 0 and not forced:
        # (A continuous-four search here cost more nodes than it found: 12
        # games each against Rapfi held to 2 and 6 plies scored 83% and 33%
        # with it, 100% and 83% without; benchmarks/README.md. Only the fours
        # near the mover's last stone are tried, as Rapfi does: :data:`QVCF`.)
        stand = evaluate(B, me)
        if (
            QVCF == 0
            or stand >= beta
            or ply < 2
            or ply >= MAX_PLY - 8
            or stand + QVCF_MARGIN <= alpha
        ):
            return stand
        last = mbuf[ply - 2, PLAYED]
        if last < 0:
            return stand
        fours, kinds = mbuf[ply], sbuf[ply]
        n = _fours_near(B, me, last, fours, kinds)
        best = stand
        for i in range(min(n, QVCF_FOURS)):
            _pick(fours, kinds, i, n)
            q = fours[i]
            mbuf[ply, PLAYED] = q
            play(B, q, me + 1)
            # (``depth``, at most 0 here, not a literal 0: numba would compile
            # a second pvs for the literal, which its cache then loads wrongly.)
            v = -pvs(
                B,
                opp,
                depth,
                -beta,
                -max(alpha, best),
                ply + 1,
                ctl,
                mbuf,
                sbuf,
                hist,
                tt_key,
                tt_data,
                corr,
            )
            unplay(B, q)
            if ctl[ABORTED] != 0:
                return 0
            if v > best:
                best = v
                if best >= beta:
                    break
        return best
    if ply >= MAX_PLY - 4:
        return evaluate(B, me)

    slot = np.int64(h[0] & np.uint64(tt_key.shape[0] - 1))
    if TT_BUCKET > 0:  # the bucket's first entry, or its second if it holds this position
        slot &= ~np.int64(1)
        if tt_key[slot + 1] ^ tt_data[slot + 1] == h[0]:
            slot += 1
    hint = -1
    excluded = mbuf[ply, EXCLUDED] - 1 if SE_DEPTH > 0 else -1  # (-1: none)
    tt_value, tt_flag, tt_depth = 0, UPPER, -1
    entry = tt_data[slot]
    if tt_key[slot] ^ entry == h[0]:
        stored_value, tt_flag, tt_depth, hint = _unpack(entry)
        tt_value = _from_tt(stored_value, ply)
        if tt_depth >= depth and excluded < 0:
            v = tt_value
            if (
                tt_flag == EXACT
                or (tt_flag == LOWER and v >= beta)
                or (tt_flag == UPPER and v <= alpha)
            ):
                return v

    if IIR_DEPTH > 0 and hint < 0 and ply > 0 and not forced and depth >= IIR_DEPTH * PLY:
        depth -= PLY
    rest = (ctl, mbuf, sbuf, hist, tt_key, tt_data, corr)
    # Pruning from the evaluation, where the opponent threatens nothing that
    # a quiet position's evaluation would miss (an open three, a four-three,
    # a double three): the evaluation is read once for all three.
    likely_cut = False
    futile = False
    # (A singular search, the table's move left out, shares this ply's row
    # with the node that asked for it: it leaves that node's marks alone.)
    if (RFP_IMPROVING > 0 or LMR_WORSENING > 0) and excluded < 0:
        sbuf[ply, STATIC] = -INF
    cut_node = False
    if LMR_CUTNODE > 0:
        cut_node = ply > 0 and alpha + 1 == beta and sbuf[ply - 1, CUT_NODE] == 0
        if excluded < 0:
            sbuf[ply, CUT_NODE] = 1 if cut_node else 0
    worsening = False
    raw = -INF  # the evaluation before correction, where one was read
    static = -INF
    if (
        ply > 0
        and not forced
        and excluded < 0
        and ncls[opp, C_FLEX4] + ncls[opp, C_B4F3] + ncls[opp, C_F3F3] == 0
    ):
        static = evaluate(B, me)
        if CORR > 0 and B[9][G_CORR] != 0:
            raw = static
            static = _corrected(B, me, raw, corr)
        margin_depth = depth
        if RFP_IMPROVING > 0 or LMR_WORSENING > 0:
            sbuf[ply, STATIC] = static
            if ply >= 3 and sbuf[ply - 2, STATIC] > -INF:
                if static > sbuf[ply - 2, STATIC]:
                    margin_depth = depth - RFP_IMPROVING * PLY
                else:
                    worsening = LMR_WORSENING > 0
        # Fail-high reduction: well above beta the node will most likely cut;
        # its moves that make no four are searched a ply shallower (below).
        likely_cut = (
            FHR_MARGIN > 0
            and alpha + 1 == beta
            and abs(beta) < MATE
            and static - FHR_MARGIN * depth // PLY >= beta
        )
        # Futility: so far below alpha that only a threat could lift it.
        futile = FUTILITY_MARGIN > 0 and depth <= PLY and static + FUTILITY_MARGIN <= alpha
        # Reverse futility: far enough above beta that no reply brings it down.
        if (
            RFP_MARGIN > 0
            and depth <= RFP_DEPTH * PLY
            and abs(beta) < MATE
            and static - RFP_MARGIN * margin_depth // PLY >= beta
        ):
            return static
        # Null move: a pass, searched shallower, that still fails high.
        if NULL_R > 0 and depth > NULL_R * PLY and abs(beta) < MATE and static >= beta:
            reduction = (NULL_R + (depth // PLY // NULL_DIV if NULL_DIV > 0 else 0)) * PLY
            h[0] ^= NULL_KEY
            if QVCF > 0:
                mbuf[ply, PLAYED] = -1
            v = -pvs(B, opp, depth - PLY - reduction, -beta, 1 - beta, ply + 1, *rest)
            h[0] ^= NULL_KEY
            if ctl[ABORTED] != 0:
                return 0
            if v >= beta:
                return v if v < MATE else beta

    # Singular extension: is the table's move the only one that holds?
    singular = -1
    if (
        SE_DEPTH > 0
        and excluded < 0
        and ply > 0
        and not forced
        and hint >= 0
        and depth >= SE_DEPTH * PLY
        and tt_flag != UPPER
        and tt_depth >= depth - SE_SHALLOWER * PLY
        and abs(tt_value) < MATE
        and ply < MAX_PLY // 2
    ):
        s_beta = tt_value - SE_MARGIN * depth // PLY
        mbuf[ply, EXCLUDED] = hint + 1
        v = pvs(B, me, (depth - PLY) // (2 * PLY) * PLY, s_beta - 1, s_beta, ply, *rest)
        mbuf[ply, EXCLUDED] = 0
        if ctl[ABORTED] != 0:
            return 0
        if v < s_beta:
            singular = hint
        elif s_beta >= beta:
            return s_beta

    # Each move is picked from the rest just before it is searched: most
    # nodes cut off after one or two, and sorting the best fourteen of a
    # hundred first took more time than the rest of such a node.
    n = candidates(B, me, ply, mbuf, sbuf, hist, hint, 0)
    if n < 0:  # the answers to a threat: every one
        n = -n
        searched = n
    else:
        width = WIDTH
        if DEEP_WIDTH_FROM > 0 and depth > DEEP_WIDTH_FROM * PLY:
            width = min(ROOT_WIDTH, WIDTH + DEEP_WIDTH_STEP * (depth // PLY - DEEP_WIDTH_FROM))
        searched = min(n, ROOT_WIDTH if ply == 0 else width)
    child_depth = depth if forced else depth - PLY
    alpha0 = alpha
    best = -INF
    best_move = -1
    moves, score = mbuf[ply], sbuf[ply]
    cls = B[3]
    calm = not forced and depth >= LMR_DEPTH * PLY and ncls[opp, C_FLEX4] == 0
    prune = (
        LMP_COUNT * depth // (PLY * (max(LMP_WORSENING, 1) if worsening else 1))
        if LMP_COUNT > 0
        and ply > 0
        and not forced
        and depth <= LMP_DEPTH * PLY
        and ncls[opp, C_FLEX4] == 0
        else searched
    )
    # (The last stones are known from the second ply on, with QVCF's column.)
    defending = (
        (DISTRACT_DEPTH > 0 or DEFEND_CUT_OPP + DEFEND_CUT_SELF > 0)
        and QVCF > 0
        and ply >= 2
        and not forced
        and ncls[opp, C_FLEX4] > 0
    )
    distract_ok = depth <= DISTRACT_DEPTH * PLY
    for i in range(searched):
        _pick(moves, score, i, n)
        c = moves[i]
        if c == excluded:
            continue
        quiet = cls[me, c] < C_F3 and cls[opp, c] < C_F3  # makes and stops no three or four
        if (i >= prune or (futile and i > 0)) and quiet and best > -MATE:
            continue
        useless = defending and cls[opp, c] < C_B4  # takes no cell of the opponent's four
        far_opp = useless and _far(B, c, mbuf[ply - 1, PLAYED])
        far_self = useless and _far(B, c, mbuf[ply - 2, PLAYED])
        if DISTRACT_DEPTH > 0 and far_opp and far_self and distract_ok and best > -MATE:
            continue
        full = child_depth - PLY if likely_cut and cls[me, c] < C_B4 else child_depth
        if c == singular:
            full = child_depth + PLY
        cut = 0  # (sixteenths of a ply)
        if calm and i >= LMR_FROM and quiet:
            cut = 2 * PLY if i >= LMR_MORE else PLY
            if worsening and cut == 2 * PLY:  # (each flag false where its switch is off)
                cut += PLY
            if cut_node:
                cut += LMR_CUTNODE * PLY
        elif LMR_STOPS > 0 and calm and i >= LMR_FROM and cls[me, c] < C_F3 and cls[opp, c] == C_F3:
            cut = (LMR_STOPS + (LMR_CUTNODE if cut_node else 0)) * PLY
        elif useless and i > 0:
            cut = (DEFEND_CUT_OPP if far_opp else 0) + (DEFEND_CUT_SELF if far_self else 0)
        if QVCF > 0:
            mbuf[ply, PLAYED] = c
        play(B, c, me + 1)
        if i == 0:
            v = -pvs(B, opp, full, -beta, -alpha, ply + 1, *rest)
        else:
            v = -pvs(B, opp, full - cut, -alpha - 1, -alpha, ply + 1, *rest)
            if cut and v > alpha:
                v = -pvs(B, opp, full, -alpha - 1, -alpha, ply + 1, *rest)
            if alpha < v < beta:
                v = -pvs(B, opp, full, -beta, -alpha, ply + 1, *rest)
        unplay(B, c)
        if ctl[ABORTED] != 0:
            return 0
        if v > best:
            best, best_move = v, c
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    if HIST_MAX > 0:
                        bonus = min(depth * depth // (PLY * PLY), HIST_MAX)
                        hist[me, c] += bonus - hist[me, c] * bonus // HIST_MAX
                        for j in range(i):
                            m = moves[j]
                            hist[me, m] -= bonus + hist[me, m] * bonus // HIST_MAX
                    else:
                        hist[me, c] += depth * depth // (PLY * PLY)
                    break
    if excluded >= 0:  # a singular search: nothing stored, nothing learned
        return best if best_move >= 0 else alpha
    if best_move < 0:
        return evaluate(B, me)
    flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
    if (
        CORR > 0
        and raw > -INF
        and abs(best) < MATE
        and not (flag == LOWER and best <= static)
        and not (flag == UPPER and best >= static)
    ):
        _learn(B, me, depth // PLY, raw, best, corr)
    entry = _pack(_to_tt(best, ply), flag, depth, best_move, ctl[AGE])
    if TT_BUCKET > 0:  # this position's entry, else the one worth least
        slot &= ~np.int64(1)
        second = tt_key[slot + 1] ^ tt_data[slot + 1] == h[0]
        if not second and tt_key[slot] ^ tt_data[slot] != h[0]:
            second = _worth(tt_data[slot + 1], ctl[AGE]) < _worth(tt_data[slot], ctl[AGE])
        slot += 1 if second else 0
    tt_data[slot] = entry
    tt_key[slot] = h[0] ^ entry
    return best
