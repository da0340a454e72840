"""The k-in-a-row engine: threat-space proofs first, then a timed search.

Past exact reach (Gomoku's 15x15 has about 3^225 positions), a strong
player reads forcing sequences and otherwise plays good shape. So does
:class:`GomokuEngine`, in this order, for the side to move:

1. **Obvious moves**, at once: a five; two of the opponent's fours, or one
   black may not block (lost); the empty board (the centre).
2. **Continuous fours (VCF)**: a forced win where every move makes a four. The
   defender's replies are forced, so a win found is proven.
3. **Threats (VCT)**: fours and threes, the defender trying every defence
   that could stop a three. A win found is proven.
4. **The opponent's threats**: if it threatens a four or an open four, each
   defence is tried; when all of them lose to its threat search, the loss is
   proven and the longest defence is played.
5. Otherwise **iterative-deepening principal-variation search** over the
   candidate moves near the stones (ordered by the threats they make and
   stop), each depth in an aspiration window about the last one's value,
   until the budget or a proof runs out. Its move is the engine's
   judgement: ``exact`` is False.

Search state (board, counters, move buffers, history) is made per call and
the transposition table is the process's, shared without locks, so one engine
serves any number of threads (:meth:`GomokuEngine.configure` sizes the table
and sets the threads of a timed search); the kernel runs without the GIL, and
a watcher ends it at the deadline or when the stop switch is set. A win or
loss proven by threat search is exact, its ``plies`` the length of the forced
line found (the fastest win may be shorter: threat search does not look at
quiet moves).

Rules: the game's :attr:`~unbeatable.games.mnk.MNKGame.rule` sets what a
five is for each side (k or more; exactly k in standard Gomoku, and for
renju's black), and in renju black's forbidden points are no move of black's
anywhere in the search, so a four of white's that black may not block wins
(:mod:`.kernel`). Any k of 4 or more: up to k = 6 the line patterns come
from tables, past it they are read off the board (slower, same threats).
"""

from __future__ import annotations

import itertools
import math
import os
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from unbeatable.games.mnk import EMPTY, MNKGame, MNKPosition, X
from unbeatable.search.engine import UNKNOWN, UNLIMITED, Limits, Outcome, Result, Solved
from unbeatable.solvers.mnk import kernel as K
from unbeatable.solvers.mnk.patterns import (
    C_F3,
    C_FIVE,
    C_FLEX4,
    MAX_TABLE_REACH,
    NCLASSES,
    NLEVELS,
    combinations,
    fitted,
    kinds,
    policy,
    reach,
    tables,
)

#: Transposition-table entries (two 8-byte words each: 16 MB), until
#: :meth:`GomokuEngine.configure` says otherwise.
TT_ENTRIES = 1 << 20
#: The fewest entries a configured table keeps (2 MiB): a limit below what the
#: engine needs is then exceeded by that much. Smaller tables cost strength
#: fast (held to 200,000 nodes a move, against Rapfi at 8 plies, 20 games:
#: 70% with 2 MiB, 45% with 64 KiB; benchmarks/README.md, "Memory").
MIN_TT_ENTRIES = 1 << 17
#: Threes deep the threat search looks at most.
VCT_DEPTH = 6
#: Where in the budget each proof must end (fractions of the time, from the
#: start): continuous fours, threats by threes, the opponent's threats. The
#: rest is the main search's.
VCF_SHARE, VCT_SHARE, DEFEND_SHARE = 0.05, 0.15, 0.2
#: A deeper iteration is begun only while what is left of the budget (time or
#: nodes) is at least this many times what the last one took. One cut short
#: still counts: its first root move is the last one's best, and any move it
#: finished that beats it is better. 1, where 3 had left half the budget
#: unspent: +35 Elo in 431 pairs (benchmarks/README.md, the SPRT table). 0,
#: every deeper iteration begun while any budget is left (at 1 s a move the
#: median move had taken 0.61 s), with :data:`kernel.TT_BUCKET` 4: +15.3 Elo
#: in 1,110 pairs (benchmarks/README.md, "Tests of 2026-12-07 (late)").
ITERATION_ROOM = 0.0
#: Rule sets whose search corrects its evaluation by what it learns as it
#: goes (kernel.CORR): those whose harness test accepted it. Freestyle's:
#: +35.7 Elo in 459 pairs; standard's stood undecided at +4.1 after 1,326
#: pairs, renju's leaned to H0 (benchmarks/README.md, "Tests of 2026-12-05"
#: and "of 2026-12-06").
CORRECTED = frozenset({"freestyle"})
#: Aspiration windows: a depth is first searched within this much either side
#: of the last depth's value (0: the full window), the side that fails
#: widened twofold each time and opened fully past ``ASPIRATION_OPEN``.
#: 100: +35.4 Elo in 443 pairs (benchmarks/README.md, the SPRT table).
ASPIRATION = 100
ASPIRATION_OPEN = 1000
#: Late-move reductions at the root too (0: none): with no four or open three
#: of the opponent's to answer and ``kernel.LMR_DEPTH`` plies or more, the
#: root's moves from the ``kernel.LMR_FROM``-th that neither make nor stop a
#: three or four are searched one ply shallower first (two from
#: ``kernel.LMR_MORE``), again in full if they beat the best so far. The root
#: weighs forty moves where a node inside weighs fourteen, all at full depth.
#: 1: +8.6 Elo after 1,279 pairs alone (undecided); with ``kernel.LMR_STOPS``
#: +31.3 in 529 (benchmarks/README.md, "Tests of 2026-12-07 (evening)").
ROOT_LMR = 1
#: Whether the search orders its moves by the learned policy of the rule set
#: (``patterns.POLICIES``), where there is one, or by the hand-set values.
#: Freestyle's: +72.9 Elo in 191 pairs (benchmarks/README.md, "The move
#: ordering, learned").
POLICY = True
#: What the learned policy's scores are multiplied by (against the history of
#: cut-offs, which is added to them). 2, with :data:`kernel.B4F3_DEFENCE`:
#: +18.5 Elo in 929 pairs, where each alone had stood near +5
#: (benchmarks/README.md, "Tests of 2026-12-02").
POLICY_SCALE = 2.0
#: Nodes the fixed-size search of :meth:`GomokuEngine.guess` may visit.
GUESS_NODES = 40_000


#: The entries of a table by codes (its type kept when re-indexed).
_Entry = TypeVar("_Entry", bound=np.generic)


class Board(NamedTuple):
    """One search's arrays (the kernel's ``B`` tuple, in its order)."""

    bd: npt.NDArray[np.int8]
    key: npt.NDArray[np.int64]
    #: Per player and cell, the four directions' levels, four bits each.
    pat: npt.NDArray[np.uint16]
    cls: npt.NDArray[np.uint8]
    val: npt.NDArray[np.int64]
    ncls: npt.NDArray[np.int64]
    near: npt.NDArray[np.int16]
    h: npt.NDArray[np.uint64]
    offs: npt.NDArray[np.int64]
    geo: npt.NDArray[np.int64]
    #: Both players' level per key, x's in the low four bits, o's in the high.
    levels: npt.NDArray[np.uint8]
    #: Per line kind and packed levels (``pat``'s word), ``value << 4 | class``.
    combos: npt.NDArray[np.int32]
    zob: npt.NDArray[np.uint64]
    cells: npt.NDArray[np.int64]
    ev: npt.NDArray[np.int32]
    #: The records :func:`kernel.play` keeps for :func:`kernel.unplay` (row 0: how many).
    undo: npt.NDArray[np.int64]
    #: The move ordering's table by packed levels (:func:`patterns.policy`).
    pol: npt.NDArray[np.int16]


#: The arrays of :class:`Board` that a search changes (the rest are read-only tables).
_MUTABLE = ("bd", "key", "pat", "cls", "val", "ncls", "near", "h", "undo")


def _by_packed_levels(table: npt.NDArray[_Entry]) -> npt.NDArray[_Entry]:
    """``table``'s last axis re-indexed from :func:`patterns.code_of`'s codes
    to the kernel's packed words (four bits a direction), so that a cell's
    word indexes it with no arithmetic; what the fitted tables keep past
    every code (the tempo, then the threat masks') moves to
    :data:`kernel.PACKED_TEMPO` and on."""
    words = np.arange(K.PACKED_TEMPO)
    levels = [(words >> (4 * d)) & 15 for d in range(4)]
    valid = np.logical_and.reduce([lv < NLEVELS for lv in levels])
    codes = ((levels[0] * NLEVELS + levels[1]) * NLEVELS + levels[2]) * NLEVELS + levels[3]
    tail = table.shape[-1] - NLEVELS**4
    out = np.zeros((*table.shape[:-1], K.PACKED_TEMPO + tail), dtype=table.dtype)
    out[..., : K.PACKED_TEMPO][..., valid] = table[..., codes[valid]]
    out[..., K.PACKED_TEMPO :] = table[..., NLEVELS**4 :]
    return out


def near_empty(board: Board) -> npt.NDArray[np.int64]:
    """The empty cells near the stones, in board order: the cells the
    kernel's evaluation reads (for tests and fitting)."""
    cells = board.cells
    near: npt.NDArray[np.int64] = cells[(board.bd[cells] == K.EMPTY) & (board.near[cells] > 0)]
    return near


def levels_of(board: Board) -> npt.NDArray[np.uint8]:
    """``[p, d, cell]``: the level each player makes at each cell in each
    direction, unpacked from the board's words (for tests and fitting)."""
    return np.stack([(board.pat >> (4 * d)) & 15 for d in range(4)], axis=1).astype(np.uint8)


class _Geometry(NamedTuple):
    """How a game's cells map into the kernel's padded board."""

    k: int
    stride: int
    size: int
    #: game cell index -> padded index, and back (-1 off the board).
    to_pad: npt.NDArray[np.int64]
    to_cell: npt.NDArray[np.int64]
    empty: Board


def rule_of(game: MNKGame) -> str:
    """The game's rule set: ``freestyle`` for every plain m,n,k-game."""
    return str(getattr(game, "rule", "freestyle"))


@cache
def _geometry(rows: int, columns: int, k: int, rule: str = "freestyle") -> _Geometry:
    line_kinds = kinds(rule)
    if rule == "renju" and k != 5:
        raise ValueError(f"renju is five in a row, not {k}")
    pad = reach(k, line_kinds)
    direct = pad > MAX_TABLE_REACH  # lines too long to table: read off the board
    stride = columns + 2 * pad
    size = (rows + 2 * pad) * stride
    to_pad = np.array(
        [(r + pad) * stride + c + pad for r in range(rows) for c in range(columns)], dtype=np.int64
    )
    to_cell = np.full(size, -1, dtype=np.int64)
    to_cell[to_pad] = np.arange(rows * columns)
    if direct:
        levels = np.zeros((2, 1), dtype=np.uint8)
        classes, values = combinations()
    else:
        levels, classes, values = tables(k, rule)
    # One load a key and one a code where two were (each player's level; a
    # class and a value): placing a stone reads these for some 30 cells.
    packed = (levels[0] | (levels[1] << 4)).astype(np.uint8)
    combos = _by_packed_levels((values << 4) | classes.astype(np.int32))
    bd = np.full(size, K.WALL, dtype=np.int8)
    bd[to_pad] = K.EMPTY
    # Fixed seeds (keys are reproducible), one per board, k and rule set: the
    # games share one table, so each hashes into keys of its own, the empty
    # board too.
    rules = ("freestyle", "standard", "renju").index(rule)
    rng = np.random.default_rng([20260517, rows, columns, k, rules])
    zob = rng.integers(1, 2**63, size=(2, size), dtype=np.int64).astype(np.uint64)
    base = rng.integers(1, 2**63, size=1, dtype=np.int64).astype(np.uint64)
    geo = [k, stride, pad, int(direct), int(rule == "renju"), *line_kinds, int(rule in CORRECTED)]
    board = Board(
        bd=bd,
        key=np.zeros((4, size), dtype=np.int64),
        pat=np.zeros((2, size), dtype=np.uint16),
        cls=np.zeros((2, size), dtype=np.uint8),
        val=np.zeros((2, size), dtype=np.int64),
        ncls=np.zeros((2, NCLASSES + 1), dtype=np.int64),
        near=np.zeros(size, dtype=np.int16),
        # The position's key, then each colour's stones' alone (kernel.CORR).
        h=np.array([base[0], 0, 0], dtype=np.uint64),
        offs=np.array([1, stride, stride + 1, stride - 1], dtype=np.int64),
        geo=np.array(geo, dtype=np.int64),
        levels=packed,
        combos=combos,
        zob=zob,
        cells=to_pad,
        ev=_by_packed_levels(fitted(rule)),
        undo=np.zeros((K.UNDO_LEVELS, K.UNDO_WORDS), dtype=np.int64),
        pol=_by_packed_levels(policy(rule, POLICY, POLICY_SCALE)),
    )
    board.ncls[0, K.RESTRICTED] = int(rule == "renju")  # black's forbidden points
    K.init_walls(board)
    return _Geometry(k, stride, size, to_pad, to_cell, board)


class _Table:
    """The process's transposition table, shared by every search on every
    thread and kept from one call to the next: an entry is a true bound for
    its position whichever search wrote it (each board and rule set hashes
    into keys of its own, and an entry torn by two threads writing at once no
    longer matches its key), and allocating it per call would cost more than
    many searches. :meth:`GomokuEngine.configure` sizes it."""

    def __init__(self, entries: int) -> None:
        self.resize(entries)

    def resize(self, entries: int) -> None:
        """A fresh, empty table of ``entries`` slots (a power of two). A
        search already running keeps the table it started with."""
        self.key = np.zeros(entries, dtype=np.uint64)
        self.data = np.zeros(entries, dtype=np.uint64)

    @property
    def entries(self) -> int:
        return len(self.key)

    @property
    def nbytes(self) -> int:
        return int(self.key.nbytes + self.data.nbytes)

    def clear(self) -> None:
        self.key.fill(0)
        self.data.fill(0)


_tables = _Table(TT_ENTRIES)
#: Each search's age, one more than the last's (modulo 256 where it is used).
_ages = itertools.count(1)


class _Search:
    """One call's working state: the board with the position's stones, the
    control words, move buffers, history and the transposition table (the
    process's, or with ``table=False`` a small fresh one, so that the
    answer never depends on earlier calls; or ``share``'s, for a helper thread)."""

    def __init__(
        self, geometry: _Geometry, cells: str, table: bool = True, share: _Search | None = None
    ) -> None:
        empty = geometry.empty
        # Fresh copies of the mutable arrays; the tables are shared read-only.
        self.board = empty._replace(**{name: getattr(empty, name).copy() for name in _MUTABLE})
        self.geometry = geometry
        for i, mark in enumerate(cells):
            if mark != EMPTY:
                K.place(self.board, geometry.to_pad[i], 1 if mark == X else 2)
        self.ctl = np.zeros(K.AGE + 1, dtype=np.int64)  # (AGE, the last word)
        # The search's age, which the table's entries carry (kernel.TT_BUCKET).
        self.ctl[K.AGE] = share.ctl[K.AGE] if share is not None else next(_ages) & 0xFF
        self.mbuf = np.zeros((K.MAX_PLY, len(cells) + 2), dtype=np.int64)
        self.sbuf = np.zeros((K.MAX_PLY, len(cells) + 2), dtype=np.int64)
        self.line = np.full(2 * K.MAX_PLY + 8, -1, dtype=np.int64)
        self.hist = np.zeros((2, geometry.size), dtype=np.int64)
        # Corrections of the evaluation, learned as this search goes (kernel.CORR).
        corrected = K.CORR and empty.geo[K.G_CORR]
        # (16 bits an entry: a correction is at most CORR_LIMIT * CORR_GRAIN, 6,400.)
        self.corr = np.zeros((2, 2, K.CORR_ENTRIES if corrected else 1), dtype=np.int16)
        self.cells = cells
        self.tt_key: npt.NDArray[np.uint64]
        self.tt_data: npt.NDArray[np.uint64]
        # The threat search's failures (proofs run on the main search's thread only).
        self.seen: npt.NDArray[np.uint64]
        if share is not None:  # a helper thread: the main search's tables
            self.tt_key, self.tt_data = share.tt_key, share.tt_data
            self.seen = share.seen
            return
        self.seen = np.zeros((2, K.SEEN_ENTRIES), dtype=np.uint64)
        if table:
            self.tt_key, self.tt_data = _tables.key, _tables.data
        else:
            self.tt_key = np.zeros(1 << 12, dtype=np.uint64)
            self.tt_data = np.zeros(1 << 12, dtype=np.uint64)

    def threats(self, att: int, depth: int, kind: int) -> int:
        """The kernel's threat search from this position (see :func:`kernel.threats`)."""
        args = (self.ctl, self.mbuf, self.sbuf, self.line, self.seen)
        return int(K.threats(self.board, att, depth, 0, kind, *args))

    def iteration(
        self,
        me: int,
        depth: int,
        roots: npt.NDArray[np.int64],
        count: int,
        scores: npt.NDArray[np.int64],
        guess: int | None = None,
    ) -> int:
        """One depth of principal-variation search over the root moves
        ``roots[:count]``, each move's score into ``scores`` (-INF: not
        searched); re-sorts both best first. With a ``guess`` (the last
        depth's value) and :data:`ASPIRATION`, first in a window about it,
        widened on the side that fails until the value falls inside."""
        if not ASPIRATION or guess is None or depth < 3 or abs(guess) >= K.MATE:
            return self._root(me, depth, roots, count, scores, -K.INF, K.INF)
        delta = ASPIRATION
        lo, hi = guess - delta, guess + delta
        while True:
            value = self._root(me, depth, roots, count, scores, lo, hi)
            if self.ctl[K.ABORTED] != 0:
                return value
            if lo < value < hi:
                return value
            delta *= 2
            if value <= lo:
                lo = -K.INF if delta > ASPIRATION_OPEN else value - delta
            else:
                hi = K.INF if delta > ASPIRATION_OPEN else value + delta
            if abs(value) >= K.MATE:
                lo, hi = -K.INF, K.INF

    def _root(
        self,
        me: int,
        depth: int,
        roots: npt.NDArray[np.int64],
        count: int,
        scores: npt.NDArray[np.int64],
        lo: int,
        hi: int,
    ) -> int:
        """The root's moves searched in the window (``lo``, ``hi``): a move
        that reaches ``hi`` ends it (it goes first); when every move fails
        low the order stays as it was (their scores are only bounds). The
        loop over a few dozen root moves is in Python: the time goes to the
        searches below them."""
        board, ctl = self.board, self.ctl
        opp = 1 - me
        alpha, best = lo, -K.INF
        scores[:count] = -K.INF
        args = (ctl, self.mbuf, self.sbuf, self.hist, self.tt_key, self.tt_data, self.corr)
        ncls, cls = board.ncls, board.cls
        calm = (
            ROOT_LMR > 0
            and depth >= K.LMR_DEPTH
            and ncls[opp, C_FIVE] == 0
            and ncls[opp, C_FLEX4] == 0
        )
        full = (depth - 1) * K.PLY  # (the kernel counts depth in sixteenths of a ply)
        for i in range(count):
            c = roots[i]
            cut = 0
            if calm and i >= K.LMR_FROM and cls[me, c] < C_F3 and cls[opp, c] < C_F3:
                cut = (2 if i >= K.LMR_MORE else 1) * K.PLY
            self.mbuf[0, K.PLAYED] = c  # (read by the leaves' quiescence, kernel.QVCF)
            K.play(board, c, me + 1)
            if i == 0:
                v = -K.pvs(board, opp, full, -hi, -alpha, 1, *args)
            else:
                v = -K.pvs(board, opp, full - cut, -alpha - 1, -alpha, 1, *args)
                if cut and v > alpha and ctl[K.ABORTED] == 0:
                    v = -K.pvs(board, opp, full, -alpha - 1, -alpha, 1, *args)
                if alpha < v < hi and ctl[K.ABORTED] == 0:
                    v = -K.pvs(board, opp, full, -hi, -alpha, 1, *args)
            K.unplay(board, c)
            if ctl[K.ABORTED] != 0:
                break
            scores[i] = v
            best = max(best, v)
            alpha = max(alpha, v)
            if v >= hi:
                break
        if best <= lo and lo > -K.INF:
            scores[:count] = -K.INF  # all failed low: keep the order, no move searched counts
            return int(best)
        order = np.argsort(-scores[:count], kind="stable")
        roots[:count] = roots[:count][order]
        scores[:count] = scores[:count][order]
        return int(best)

    @property
    def nodes(self) -> int:
        return int(self.ctl[K.NODES])

    def cell(self, padded: int) -> int:
        return int(self.geometry.to_cell[padded])

    def run(self, limits: Limits, call: Callable[[], int]) -> tuple[int, bool]:
        """Run ``call`` (a kernel search) on a worker thread until it ends or
        ``limits`` expire (then the stop word ends it); ``(result, finished)``.
        The caller's thread stays in Python, so Ctrl-C reaches it."""
        self.ctl[K.STOP] = 0
        self.ctl[K.ABORTED] = 0
        self.ctl[K.CUT] = 0
        if limits.expired():
            return 0, False
        result: list[int] = []
        failure: list[BaseException] = []

        def work() -> None:
            try:
                result.append(call())
            except BaseException as exc:  # pragma: no cover - re-raised below
                failure.append(exc)

        worker = threading.Thread(target=work, name="gomoku-search", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(min(0.005, max(limits.remaining(), 0.0005)))
                if limits.expired():
                    self.ctl[K.STOP] = 1
        except BaseException:
            self.ctl[K.STOP] = 1
            worker.join()
            raise
        if failure:
            raise failure[0]
        return result[0], self.ctl[K.ABORTED] == 0


class _Helper:
    """A second thread on the same position (Lazy SMP, as chess engines use
    their other cores): it runs its own iterative deepening a ply ahead of the
    main search, sharing its transposition table, so the bounds and best moves
    it stores cut and order the main search's tree. Its own answer is never
    used; it stops when the main search does."""

    def __init__(self, main: _Search, me: int, roots: npt.NDArray[np.int64], count: int) -> None:
        self.search = _Search(main.geometry, main.cells, share=main)
        self.me, self.count = me, count
        self.roots = roots.copy()
        self.scores = np.zeros_like(roots)
        #: The main search's current depth (the helper keeps a ply ahead).
        self.main_depth = 1
        self.failure: BaseException | None = None
        self.thread = threading.Thread(target=self._work, name="gomoku-helper", daemon=True)
        self.thread.start()

    def _work(self) -> None:
        search, depth = self.search, 1
        try:
            while search.ctl[K.STOP] == 0:
                depth = max(depth, self.main_depth) + 1
                search.iteration(self.me, depth, self.roots, self.count, self.scores)
        except BaseException as exc:  # pragma: no cover - re-raised by stop()
            self.failure = exc

    def stop(self) -> int:
        """End the helper's search; the nodes it visited."""
        self.search.ctl[K.STOP] = 1
        self.thread.join()
        if self.failure is not None:
            raise self.failure
        return self.search.nodes


def board_of(game: MNKGame, cells: str) -> Board:
    """The kernel's arrays for a board of ``game`` (row-major ``x``/``o``/``.``):
    what the tests compare incremental updates against."""
    return _Search(
        _geometry(game.rows, game.columns, game.k, rule_of(game)), cells, table=False
    ).board


#: The kernel's reasons (:func:`kernel.forbidden`) in the rules' words.
REASONS = {
    K.DOUBLE_THREE: "double three",
    K.DOUBLE_FOUR: "double four",
    K.OVERLINE_MOVE: "overline",
}


def forbidden_points(game: MNKGame, cells: str) -> dict[int, str]:
    """Black's forbidden points on a board of ``game`` (renju; none under
    other rules) as the kernel reads them, cell -> reason in the words of
    :mod:`unbeatable.games.renju`, whose detector they must agree with."""
    board = board_of(game, cells)
    if board.geo[K.G_RENJU] == 0:
        return {}
    found = {}
    for cell, mark in enumerate(cells):
        if mark == EMPTY:
            why = int(K.forbidden(board, board.cells[cell]))
            if why != K.LEGAL:
                found[cell] = REASONS[why]
    return found


def padded(game: MNKGame, cell: int) -> int:
    """The kernel's index of the game's cell ``cell``."""
    return int(_geometry(game.rows, game.columns, game.k, rule_of(game)).to_pad[cell])


#: The steps that can be switched off (benchmarks measure what each is worth):
#: continuous fours, threats by threes, proofs of the opponent's wins.
STEPS = ("vcf", "vct", "defend")


class GomokuEngine:
    """Strong play, and proofs of the wins it finds, for k in a row (any k
    of 4 or more; Gomoku's three rule sets, :attr:`MNKGame.rule`) on boards
    too big to solve: the Engine protocol of :mod:`unbeatable.search.engine`.

    ``without`` names steps of :data:`STEPS` to leave out (for benchmarks).
    """

    def __init__(
        self, game: MNKGame, without: tuple[str, ...] = (), threads: int | None = None
    ) -> None:
        if threads is not None and threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        if game.k < 4:
            raise ValueError(f"the k-in-a-row engine plays k of 4 or more, not {game.k}")
        unknown = set(without) - set(STEPS)
        if unknown:
            raise ValueError(f"unknown steps {sorted(unknown)} (known: {', '.join(STEPS)})")
        self.game = game
        self.rule = rule_of(game)
        kinds(self.rule)  # an unknown rule set is refused here, not at the first search
        self.without = frozenset(without)
        self.win_score = game.win_score
        #: Threads of a timed main search (the caller's worker and helpers).
        self.threads = threads if threads is not None else min(2, os.cpu_count() or 1)

    @property
    def geometry(self) -> _Geometry:
        """The board's layout and empty arrays (built, and numba loaded, on first use)."""
        return _geometry(self.game.rows, self.game.columns, self.game.k, self.rule)

    def __repr__(self) -> str:
        off = f", without={tuple(sorted(self.without))!r}" if self.without else ""
        return f"GomokuEngine({self.game!r}{off})"

    def warm_up(self) -> None:
        """Compile (or load from numba's cache) every kernel the engine calls
        and build the game's pattern tables now, so that no timed move pays
        for it (servers and the brain call it at start). Runs without a clock,
        bounded by nodes, on a few stones at the centre, then calls once each
        kernel that a move reaches only now and then (blocks, renju's
        forbidden points). The kernels are the same for every board and rule
        set: compiled once, on the first board, they load in well under a
        second on the next ones."""
        game = self.game
        order = game.ordered_moves(game.initial())  # the centre first
        cells = [EMPTY] * game.size
        for i, cell in enumerate(order[:5]):
            cells[cell] = X if i < 3 else "o"
        position = game.from_cells("".join(cells), "o")
        self._think(position, UNLIMITED, proofs=True, node_limit=20_000, max_depth=2)
        self.guess(position)
        board = board_of(game, position.cells)
        cell = int(board.cells[order[5]])
        K.illegal(board, 0, cell)
        K.forbidden(board, cell)
        K.legal_of_class(board, 0, C_FIVE)
        K.free_move(board, 0)

    def reset(self) -> None:
        """Forget what earlier searches left in the transposition table
        (:func:`unbeatable.api.clear_caches`: a cold start)."""
        _tables.clear()

    def configure(self, *, memory: int | None = None, threads: int | None = None) -> None:
        """Fit the engine to a tournament's limits (Gomocup's ``INFO
        max_memory`` and ``INFO thread_num``); None leaves a setting as it is.

        ``memory``: bytes for everything the engine allocates. The pattern
        tables and each search thread's buffers are fixed by the board; the
        transposition table (the process's, shared by every search) takes the
        largest power of two of 16-byte entries that fits in what they leave,
        at least :data:`MIN_TT_ENTRIES` (so a limit smaller than the fixed
        part still plays, over it by that much). What the Python process holds
        besides (the interpreter, numpy, numba and the compiled kernels) is
        not the engine's and is not counted: see :meth:`memory_use`.

        ``threads``: threads of a timed main search (the caller's worker and
        ``threads - 1`` helpers sharing its table).
        """
        if threads is not None:
            if threads < 1:
                raise ValueError(f"threads must be at least 1, not {threads}")
            self.threads = threads
        if memory is not None:
            if memory < 0:
                raise ValueError(f"memory must not be negative, not {memory}")
            room = (memory - self._fixed_bytes()) // 16
            entries = 1 << max(room, 1).bit_length() - 1
            entries = max(MIN_TT_ENTRIES, entries)
            if entries != _tables.entries:
                _tables.resize(entries)

    def _fixed_bytes(self) -> int:
        """Bytes the engine holds whatever the table: the pattern tables and
        the empty board (shared), one search's working arrays per thread, and
        the threat search's table (the proofs' search is the main thread's)."""
        empty = self.geometry.empty
        shared = sum(getattr(empty, name).nbytes for name in Board._fields)
        search = _Search(self.geometry, EMPTY * self.game.size, table=False)
        kept = ("mbuf", "sbuf", "line", "hist", "corr", "ctl")
        own = sum(getattr(search, name).nbytes for name in kept)
        own += sum(getattr(search.board, name).nbytes for name in _MUTABLE)
        return int(shared + self.threads * own + search.seen.nbytes)

    def memory_use(self) -> int:
        """Bytes the engine holds at most while searching: its fixed part and
        the transposition table. The rest of the process is not counted: a
        Python interpreter with numpy, numba and the kernels loaded holds about
        170 MB more on its own (benchmarks/README.md, "Gomoku: memory")."""
        return self._fixed_bytes() + _tables.nbytes

    # -- the Engine protocol ---------------------------------------------------

    def solve(
        self, position: MNKPosition, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """The value of ``position`` for the side to move and a move: proven
        when a threat search proves it, else the timed search's judgement."""
        return self._think(position, limits, proofs=True)

    def value(
        self, position: MNKPosition, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        return self._think(position, limits, proofs=True)

    def solve_nodes(self, position: MNKPosition, nodes: int, *, keep_table: bool = False) -> Solved:
        """:meth:`solve` with a budget of ``nodes`` instead of seconds, shared
        out between the steps as the time is, from an empty transposition
        table: the same answer on any machine under any load and after any
        earlier search, so benchmarks can compare versions of the engine, and
        games between them can be replayed. With ``keep_table`` the table
        keeps what the earlier searches left, as it does in play from one move
        to the next: the answer then depends on those searches too (the same
        again after the same ones)."""
        if nodes <= 0:
            raise ValueError(f"a node budget must be positive, not {nodes}")
        if not keep_table:
            self.reset()
        return self._think(position, UNLIMITED, proofs=True, node_limit=nodes, node_clock=True)

    def guess(self, position: MNKPosition) -> Solved:
        """A fixed-size search's move (the same every time): the weaker levels
        play it. Wins in one and forced blocks are never missed."""
        return self._think(position, UNLIMITED, proofs=False, node_limit=GUESS_NODES, max_depth=4)

    # -- the work ----------------------------------------------------------------

    def _think(
        self,
        position: MNKPosition,
        limits: Limits,
        proofs: bool,
        node_limit: int = 0,
        max_depth: int | None = None,
        node_clock: bool = False,
    ) -> Solved:
        game = self.game
        if game.is_terminal(position):
            over: Result = Result.draw if position.winner is None else Result.loss
            return Solved(Outcome(over, 0), 0, None)
        empties = position.cells.count(EMPTY)
        centre = (game.rows // 2) * game.columns + game.columns // 2
        if empties == game.size and limits.bounded:  # the first move: the centre, at once
            return Solved(UNKNOWN, 0, centre)
        search = _Search(self.geometry, position.cells, table=proofs)
        board = search.board
        me = 0 if position.to_move == X else 1
        opp = 1 - me
        ncls = board.ncls

        def proven(result: Result, plies: int, move: int) -> Solved:
            return Solved(Outcome(result, plies), search.nodes, search.cell(move), True)

        # 1. The obvious.
        if ncls[me, C_FIVE] > 0:
            return proven(Result.win, 1, K.first_of_class(board, me, C_FIVE))
        if ncls[opp, C_FIVE] > 0:
            blocks = self._blocks(search, me)
            if ncls[opp, C_FIVE] >= 2 or not blocks:  # two fives, or one black may not block
                return proven(Result.loss, 2, blocks[0] if blocks else self._any_move(search, me))
        if empties == 1:  # one cell left: play it (draw or a five, found above)
            return Solved(Outcome(Result.draw, 1), 0, position.cells.index(EMPTY), True)
        if ncls[opp, C_FIVE] == 0 and ncls[me, C_FLEX4] > 0:
            flex = K.legal_of_class(board, me, C_FLEX4)
            if flex >= 0:
                return proven(Result.win, 3, flex)

        search.ctl[K.NODE_LIMIT] = node_limit
        budget = limits.remaining()
        start = time.perf_counter()

        def share(fraction: float) -> Limits:
            if node_clock:  # the same shares, of the nodes
                search.ctl[K.NODE_LIMIT] = max(1, int(node_limit * fraction))
            if math.isinf(budget):
                return limits
            return Limits(start + budget * fraction, limits.stop)

        # 2-4. Proofs: our threats, then theirs.
        if proofs:
            # Continuous fours, shortest first (each try is cheap: replies are forced).
            for most in range(3, K.MAX_PLY if "vcf" not in self.without else 0, 4):
                plies, finished = search.run(
                    share(VCF_SHARE),
                    lambda d=most: search.threats(me, d, K.VCF),  # type: ignore[misc]
                )
                if plies:
                    return proven(Result.win, plies, int(search.line[0]))
                if not finished or search.ctl[K.CUT] == 0:
                    break  # out of time, or no line was cut short: longer ones find nothing
            found = None
            if "vct" not in self.without:
                found = self._deepening_proof(
                    search, me, K.VCT, range(1, VCT_DEPTH + 1), share(VCT_SHARE)
                )
            if found is not None:
                return proven(Result.win, found, int(search.line[0]))
            if "defend" not in self.without and (ncls[opp, C_FIVE] or ncls[opp, C_FLEX4]):
                found = self._deepening_proof(
                    search, opp, K.DEFEND, range(VCT_DEPTH + 1), share(DEFEND_SHARE)
                )
                if found is not None:
                    return proven(Result.loss, found, int(search.line[0]))

        # 5. The timed search.
        search.ctl[K.NODE_LIMIT] = node_limit
        move = self._deepen(
            search, me, limits, start, budget, max_depth, node_limit if node_clock else 0
        )
        return Solved(UNKNOWN, search.nodes, search.cell(move), False)

    @staticmethod
    def _deepening_proof(
        search: _Search, att: int, kind: int, depths: range, limits: Limits
    ) -> int | None:
        """A threat search of ``kind`` for attacker ``att``, one more three deep
        each time, until it proves a result (its plies; the line in
        ``search.line``) or ``limits`` end it (None)."""
        for depth in depths:
            plies, finished = search.run(
                limits,
                lambda d=depth: search.threats(att, d, kind),  # type: ignore[misc]
            )
            if plies:
                return plies
            if not finished:
                break
        return None

    @staticmethod
    def _blocks(search: _Search, me: int) -> list[int]:
        """The opponent's five points that ``me`` may play (renju's black may
        not block on a forbidden point), the one worth most first."""
        board = search.board
        opp = 1 - me
        cells = [
            int(c)
            for c in board.cells
            if board.bd[c] == K.EMPTY
            and board.cls[opp, c] >= C_FIVE
            and not K.illegal(board, me, c)
        ]
        return sorted(cells, key=lambda c: -(int(board.val[opp, c]) + int(board.val[me, c])))

    def _any_move(self, search: _Search, me: int) -> int:
        """A move ``me`` may play, worth most to it (the lost side's move)."""
        move = int(K.free_move(search.board, me))
        if move < 0:  # none: the rules would have said the game is over
            return int(self.geometry.to_pad[search.cells.index(EMPTY)])
        return move

    def _deepen(
        self,
        search: _Search,
        me: int,
        limits: Limits,
        start: float,
        budget: float,
        max_depth: int | None,
        node_budget: int = 0,
    ) -> int:
        """Iterative deepening at the root until the budget is spent (an
        iteration is not started when less of the time, or the
        ``node_budget``, is left than :data:`ITERATION_ROOM` times the last
        one took), a mate score appears or every line reaches the full board;
        the best move of the deepest iteration, finished or not (one cut short
        searches the last one's best first)."""
        board = search.board
        roots = np.zeros(len(board.cells) + 1, dtype=np.int64)
        scores = np.zeros(len(board.cells) + 1, dtype=np.int64)
        count = K.candidates(board, me, 0, search.mbuf, search.sbuf, search.hist, -1, len(roots))
        answers = count < 0  # the answers to a threat: every one is searched
        count = abs(count)
        roots[:count] = search.mbuf[0, :count]
        if count == 0:
            game = self.game
            if EMPTY * game.size == search.cells:  # no stone yet: the centre stands for all
                roots[0] = self.geometry.to_pad[(game.rows // 2) * game.columns + game.columns // 2]
            else:  # renju's black with every cell near the stones forbidden: any other
                roots[0] = self._any_move(search, me)
            count = 1
        if count > K.ROOT_WIDTH and not answers:
            count = K.ROOT_WIDTH
        best = int(roots[0])
        if count == 1 and limits.bounded:
            return best  # the only move: at once
        if limits.expired():
            # No time left: the first candidate, as a search cut short before its
            # first node returns, without starting and joining the helpers (which
            # made an analysis's last moves overrun its budget).
            return best
        helpers = []
        if limits.bounded and not node_budget and max_depth is None:  # timed: all cores
            helpers = [_Helper(search, me, roots, count) for _ in range(self.threads - 1)]
        try:
            return self._iterate(
                search,
                me,
                limits,
                start,
                budget,
                max_depth,
                node_budget,
                roots,
                count,
                scores,
                helpers,
            )
        finally:
            for helper in helpers:
                search.ctl[K.NODES] += helper.stop()

    @staticmethod
    def _iterate(
        search: _Search,
        me: int,
        limits: Limits,
        start: float,
        budget: float,
        max_depth: int | None,
        node_budget: int,
        roots: npt.NDArray[np.int64],
        count: int,
        scores: npt.NDArray[np.int64],
        helpers: list[_Helper],
    ) -> int:
        best = int(roots[0])
        # Past this depth every line already ends on a full board.
        deepest = search.cells.count(EMPTY)
        depth = 1
        guess: int | None = None
        while max_depth is None or depth <= max_depth:
            for helper in helpers:
                helper.main_depth = depth
            began = time.perf_counter()
            nodes_before = search.nodes
            value, finished = search.run(
                limits,
                lambda d=depth, g=guess: search.iteration(me, d, roots, count, scores, g),  # type: ignore[misc]
            )
            if finished:
                guess = value
            if finished or scores[0] > -K.INF:
                best = int(roots[0])
            if not finished or abs(value) >= K.MATE:
                break
            if depth >= deepest:
                break  # deeper finds nothing new
            spent = time.perf_counter() - began
            left = budget - (time.perf_counter() - start)
            if not math.isinf(budget) and spent * ITERATION_ROOM > left:
                break  # the next depth would not finish in time
            used = search.nodes - nodes_before
            if node_budget and used * ITERATION_ROOM > node_budget - search.nodes:
                break  # nor in the nodes left
            depth += 1
        return best
