"""ExactEngine: the exact solver of small m,n,k boards (at most 36 cells).

The generic negamax solves 4x4 four-in-a-row in seconds but not 5x5 in
minutes; this engine searches the same game tree with bitboards in a
compiled kernel (:mod:`.exact_kernel`: the rules it exploits and the table
are described there) and answers in the project's terms: an
:class:`~unbeatable.search.engine.Outcome` whose plies are exact, as the
generic engine's, and a move proven to keep it.

How a value is found: null-window tests ("is the score above s?", the MTD
way), first at 0 (most small boards are draws), then towards the answer,
each test a fail-soft search whose returned bound moves the interval. The
root's move behind the last test that raised the lower bound keeps the
value, so the move costs nothing more (it is the search's own choice: the
most threatening and central move proven good, not the first in board
order; analysis ranks every move itself).

Searches run in slices of :data:`SLICE` nodes, resumed where they stopped,
with or without limits: between slices the limits (deadline, stop switch)
are checked, the progress is reported (nodes, and the window the score is
known to lie in, in the game's units) and Python gets the thread back, so
Ctrl-C ends even an unlimited proof within milliseconds. A stopped search
answers ``unknown`` with the ordering's favourite move. The kernel releases
the GIL; each thread has its own stacks, and the engine's table (bounds
only, each entry one self-checking word) is shared by all of them.

No opening book is needed: 5x5 four-in-a-row is proved a draw from the
empty board in about 25,000 nodes, 6x5 a first-player win in 11 plies in
about 13,000, and every board of at most 31 cells with k of 4 or more from
the empty board in at most about 2 million (4x7; see
``benchmarks/mnk_exact.py``), inside a move's budget. Boards
of 32-36 cells fit the kernel too, but some of their proofs take minutes
(4x9 four in a row) or more: the solver registry gives those boards to
:class:`~unbeatable.solvers.mnk.proof_first.ProofFirstEngine`, which plays
within a budget with the k-in-a-row engine when the proof does not come.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from unbeatable.games.mnk import EMPTY, MNKGame, MNKPosition, X
from unbeatable.search.engine import (
    UNKNOWN,
    UNLIMITED,
    Limits,
    Outcome,
    Progress,
    Result,
    SearchTimeout,
    Solved,
)

if TYPE_CHECKING:
    from types import ModuleType

#: Largest board this engine solves (the kernel's ``MAX_CELLS``: its keys' width).
MAX_CELLS = 36
#: Nodes per slice of a search (a few ms): how often limits are checked,
#: progress reported and Ctrl-C let in.
SLICE = 20_000
_UNLIMITED_NODES = 1 << 62
#: Node budget of :meth:`ExactEngine.guess` (a few ms), with a table of its own.
GUESS_NODES = 20_000
_GUESS_TABLE = 1 << 14
#: Boards with at most this many stones share table entries with their
#: mirror images and rotations (past it the images rarely recur).
SYMMETRIC_UNTIL = 8
#: The helpers an engine can do without (see :mod:`.exact_kernel`), each with
#: the kernel's rule bit it clears ("" for the symmetric keys).
HELPERS = {
    "symmetry": "",
    "bounds": "USE_BOUNDS",
    "potential": "USE_POTENTIAL",
    "dead cells": "USE_DEAD_CELLS",
    "double threats": "USE_DOUBLE_THREATS",
}


@cache
def _kernel() -> ModuleType:
    """The compiled kernel, loaded (numba with it) at the first search."""
    from unbeatable.solvers.mnk import exact_kernel

    return exact_kernel


def _prime_at_least(n: int) -> int:
    """The smallest prime >= n (trial division: called once per table)."""
    candidate = max(n, 2)
    while any(candidate % p == 0 for p in range(2, int(candidate**0.5) + 1)):
        candidate += 1
    return candidate


@dataclass(frozen=True, slots=True)
class _Geometry:
    """The game's precomputed arrays, as the kernel takes them."""

    geometry: np.ndarray
    lines: np.ndarray
    cell_lines: np.ndarray
    sym_keys: np.ndarray
    sym_moves: np.ndarray

    @classmethod
    def of(cls, game: MNKGame, symmetric_until: int, rules: int) -> _Geometry:
        kernel = _kernel()
        cells = game.size
        masks = [sum(1 << cell for cell in line) for line in game.lines]
        through = [game.lines_through[cell] for cell in range(cells)]
        index = {line: i for i, line in enumerate(game.lines)}
        cell_lines = np.zeros((cells, 1 + max((len(t) for t in through), default=0)), np.int64)
        for cell, indices in enumerate(through):
            cell_lines[cell, 0] = len(indices)
            cell_lines[cell, 1 : 1 + len(indices)] = [index[line] for line in indices]
        # Each symmetry, the identity first, as a permutation of the cells.
        maps = [tuple(range(cells)), *game.symmetries()]
        chunks = (cells + 4) // 5
        sym_keys = np.zeros((len(maps), chunks, 32), np.int64)
        sym_moves = np.zeros((len(maps), 2, kernel.MAX_CELLS), np.int64)
        for s, forward in enumerate(maps):
            for cell, image in enumerate(forward):
                sym_moves[s, 0, cell] = image
                sym_moves[s, 1, image] = cell
            for j in range(chunks):
                for pattern in range(32):
                    sym_keys[s, j, pattern] = sum(
                        3 ** forward[5 * j + b]
                        for b in range(5)
                        if pattern >> b & 1 and 5 * j + b < cells
                    )
        geometry = np.zeros(kernel.GEOMETRY_SIZE, np.int64)
        geometry[kernel.G_CELLS] = cells
        geometry[kernel.G_K] = game.k
        geometry[kernel.G_FULL] = (1 << cells) - 1
        geometry[kernel.G_LINES] = len(masks)
        geometry[kernel.G_SYMS] = len(maps)
        geometry[kernel.G_SYM_UNTIL] = symmetric_until
        geometry[kernel.G_CHUNKS] = chunks
        geometry[kernel.G_RULES] = rules
        lines = np.array(masks or [0], dtype=np.int64)
        return cls(geometry, lines, cell_lines, sym_keys, sym_moves)


class Table:
    """Bounds on scores keyed by board (see :mod:`.exact_kernel`), one
    int64 word an entry; cleared in O(1) by a new generation."""

    def __init__(self, cells: int, entries: int) -> None:
        # The key's quotient by the size must fit its field.
        size = _prime_at_least(max(entries, 3**cells >> _kernel().QUOTIENT_BITS) + 1)
        self.entries = np.zeros(size, dtype=np.int64)
        self.generation = 1

    def clear(self) -> None:
        """Forget every entry."""
        self.generation += 1
        if self.generation > _kernel().MAX_GENERATION:
            self.entries.fill(0)
            self.generation = 1


def default_table_entries(cells: int) -> int:
    """Table entries for a board of ``cells``: 2**18 (2 MiB) whatever the board.
    The bounds rules leave little to remember: on 5x5 four-in-a-row, tables
    from 2**16 to 2**22 entries search within 1% of the same nodes, and a
    small table keeps many engines (one per game) cheap."""
    return 1 << 18


class _Scratch(threading.local):
    """Per-thread search stacks (the table is shared, the stacks cannot be)."""

    def __init__(self, cells: int, lines: int) -> None:
        kernel = _kernel()
        self.stack, self.counts = kernel.new_stacks(cells, lines)
        self.stats = kernel.new_stats()


class _Run:
    """One query's state: its limits, nodes and scratch, and the window the
    score is known to lie in (the kernel's units) for the progress reports."""

    __slots__ = ("limits", "max_nodes", "nodes", "scratch", "table", "window")

    def __init__(
        self, limits: Limits, scratch: _Scratch, table: Table, max_nodes: int | None = None
    ) -> None:
        self.limits = limits
        self.nodes = 0
        self.scratch = scratch
        self.table = table
        #: A fixed node budget for the whole query (a guess), or None.
        self.max_nodes = max_nodes
        self.window: tuple[int, int] | None = None


class ExactEngine:
    """Exact solver of an m,n,k game of at most 36 cells (the Engine protocol).

    ``table_entries``: size of the transposition table (allocated at the
    first search; by default :func:`default_table_entries`). ``without``
    names helpers to switch off, of :data:`HELPERS` (benchmarks measure what
    each is worth; the answers stay exact). Raises ValueError for a bigger
    board or an unknown helper.
    """

    def __init__(
        self, game: MNKGame, table_entries: int | None = None, without: Collection[str] = ()
    ) -> None:
        if game.size > MAX_CELLS:
            raise ValueError(
                f"the exact m,n,k engine solves boards of at most {MAX_CELLS} cells, "
                f"not {game.rows}x{game.columns}"
            )
        unknown = set(without) - set(HELPERS)
        if unknown:
            raise ValueError(f"unknown helpers {sorted(unknown)} (known: {', '.join(HELPERS)})")
        self.without = frozenset(without)
        self.game = game
        self.cells = game.size
        self.table_entries = table_entries or default_table_entries(game.size)
        self._geometry: _Geometry | None = None
        self._table: Table | None = None
        self._scratch: _Scratch | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        off = f", without={sorted(self.without)!r}" if self.without else ""
        return f"ExactEngine({self.game!r}{off})"

    # -- lazily made state --------------------------------------------------------

    @property
    def geometry(self) -> _Geometry:
        with self._lock:
            if self._geometry is None:
                kernel = _kernel()
                rules = kernel.ALL_RULES
                for name, bit in HELPERS.items():
                    if name in self.without and bit:
                        rules &= ~getattr(kernel, bit)
                until = -1 if "symmetry" in self.without else SYMMETRIC_UNTIL
                self._geometry = _Geometry.of(self.game, until, rules)
            return self._geometry

    @property
    def table(self) -> Table:
        """The shared transposition table, allocated at the first search."""
        with self._lock:
            if self._table is None:
                self._table = Table(self.cells, self.table_entries)
            return self._table

    def _thread_scratch(self) -> _Scratch:
        geometry = self.geometry
        with self._lock:
            if self._scratch is None:
                self._scratch = _Scratch(self.cells, len(geometry.lines))
            return self._scratch

    def reset(self) -> None:
        """Forget what the table learnt (benchmarks time each solve cold)."""
        self.table.clear()

    def warm_up(self) -> None:
        """Load the compiled kernel and the table now, not in the first request
        (a guess: a few ms of search once loaded, whatever the board)."""
        self.table.entries.fill(0)  # (touch its pages: it is empty anyway)
        self.guess(self.game.initial())

    # -- the search -----------------------------------------------------------------

    def _bits(self, position: MNKPosition) -> tuple[int, int, int]:
        """(mover's stones, the other's, stones on the board) as bitboards."""
        x = o = 0
        for cell, mark in enumerate(position.cells):
            if mark == X:
                x |= 1 << cell
            elif mark != EMPTY:
                o |= 1 << cell
        stones = x.bit_count() + o.bit_count()
        return (x, o, stones) if position.to_move == X else (o, x, stones)

    def _search(self, run: _Run, position: MNKPosition, alpha: int, beta: int) -> tuple[int, int]:
        """One fail-soft null-window (or any) search: (value, the root's move),
        in resumable slices with the limits checked and the progress reported
        between them; raises :class:`SearchTimeout` once the limits expire."""
        kernel = _kernel()
        g = self.geometry
        s = run.scratch
        stats = s.stats
        me, opp, stones = self._bits(position)
        stats[kernel.NODES] = 0
        stats[kernel.GENERATION] = run.table.generation
        stats[kernel.STONES] = stones
        allowed = _UNLIMITED_NODES if run.max_nodes is None else run.max_nodes - run.nodes
        report = run.limits.progress
        reported = 0
        resume = False
        try:
            while True:
                done = int(stats[kernel.NODES])
                if report is not None and done > reported:
                    report(self._progress(position, done - reported, run.window))
                    reported = done
                if done >= allowed or (run.limits.bounded and run.limits.expired()):
                    raise SearchTimeout(f"limits reached after {done:,} nodes")
                stats[kernel.BUDGET] = done + min(SLICE, allowed - done)
                value = kernel.search(
                    me,
                    opp,
                    alpha,
                    beta,
                    g.geometry,
                    g.lines,
                    g.cell_lines,
                    g.sym_keys,
                    g.sym_moves,
                    run.table.entries,
                    s.stack,
                    s.counts,
                    stats,
                    resume,
                )
                if not stats[kernel.ABORTED]:
                    return int(value), int(stats[kernel.ROOT_MOVE])
                resume = True
        finally:
            done = int(stats[kernel.NODES])
            run.nodes += done
            if report is not None and done > reported:
                report(self._progress(position, done - reported, run.window))

    def _progress(
        self, position: MNKPosition, nodes: int, window: tuple[int, int] | None
    ) -> Progress:
        """A progress report: ``nodes``, and the kernel's score window in the
        game's score units (the faces show those), when a distance is asked."""
        if window is None:
            return Progress(nodes)
        low, high = (self._game_score(position, bound) for bound in window)
        return Progress(nodes, low, high)

    def _game_score(self, position: MNKPosition, score: int) -> int:
        """The game's score (:meth:`MNKGame.score`) of a kernel score: the two
        scales order outcomes alike, so a bound maps to a bound."""
        outcome = self._outcome(position, score, weak=False)
        return self.game.score(position, outcome.result, outcome.plies or 0)

    def _score(self, run: _Run, position: MNKPosition, weak: bool) -> tuple[int, int]:
        """The exact score (weak: its sign) and a move keeping it, by
        null-window tests: is it above 0, then above -1 (most small boards
        are draws), then bisection of what is left. Raises SearchTimeout."""
        stones = self.cells - position.cells.count(EMPTY)
        left = self.cells - stones
        lo, hi = (-1, 1) if weak else (-left, left)
        keeper = -1
        while lo < hi:
            run.window = None if weak else (lo, hi)
            if lo < 0 < hi:
                med = 0
            elif hi == 0:
                med = -1
            else:
                med = lo + (hi - lo) // 2
            value, move = self._search(run, position, med, med + 1)
            if value <= med:
                hi = max(value, lo)
            else:
                lo = min(value, hi)
                keeper = move
        if keeper < 0:  # the lowest score there could be: any move that reaches it
            run.window = None if weak else (lo, lo)
            _, keeper = self._search(run, position, lo - 1, lo)
        return lo, keeper

    def _outcome(self, position: MNKPosition, score: int, weak: bool) -> Outcome:
        if score == 0:
            return Outcome(Result.draw, None if weak else position.cells.count(EMPTY))
        if weak:
            return Outcome(Result.win if score > 0 else Result.loss, None)
        stones = self.cells - position.cells.count(EMPTY)
        end = self.cells + 1 - abs(score)  # stones on the board when it is won
        return Outcome(Result.win if score > 0 else Result.loss, end - stones)

    # -- the Engine protocol ------------------------------------------------------------

    def solve(
        self, position: MNKPosition, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """Outcome for the side to move and a move proven to keep it; out of
        time, ``unknown`` and the move ordering's favourite (no move once the
        stop switch is set). Never raises for running out of time."""
        if (over := _finished(position)) is not None:
            return over
        if limits.bounded and limits.expired():
            return Solved(UNKNOWN, 0, None)
        run = _Run(limits, self._thread_scratch(), self.table)
        try:
            score, move = self._score(run, position, weak)
        except SearchTimeout:
            stopped = limits.stop is not None and limits.stop.is_set()
            favourite = None if stopped else self._favourite(position, run.table)
            return Solved(UNKNOWN, run.nodes, favourite)
        return Solved(self._outcome(position, score, weak), run.nodes, move, move_proven=True)

    def value(
        self, position: MNKPosition, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """The outcome for the side to move (its move comes free: see
        :meth:`solve`)."""
        return self.solve(position, limits, weak)

    def guess(self, position: MNKPosition) -> Solved:
        """A search of :data:`GUESS_NODES` nodes with a table of its own (so
        the same answer every time): exact if that finishes, else the move
        ordering's favourite."""
        if (over := _finished(position)) is not None:
            return over
        table = Table(self.cells, _GUESS_TABLE)
        run = _Run(UNLIMITED, self._thread_scratch(), table, max_nodes=GUESS_NODES)
        try:
            score, move = self._score(run, position, False)
        except SearchTimeout:
            favourite = self._favourite(position, table)
            return Solved(UNKNOWN, run.nodes, favourite)
        return Solved(self._outcome(position, score, False), run.nodes, move, move_proven=True)

    def _favourite(self, position: MNKPosition, table: Table) -> int | None:
        """The move the search would try first (a win, a forced block, a
        double threat, else the most threatening and central; the table's
        move if it has one): one node of search."""
        kernel = _kernel()
        run = _Run(UNLIMITED, self._thread_scratch(), table)
        stats = run.scratch.stats
        stats[kernel.NODES] = 0
        stats[kernel.BUDGET] = 1
        g = self.geometry
        me, opp, stones = self._bits(position)
        stats[kernel.GENERATION] = table.generation
        stats[kernel.STONES] = stones
        kernel.search(
            me,
            opp,
            0,
            1,
            g.geometry,
            g.lines,
            g.cell_lines,
            g.sym_keys,
            g.sym_moves,
            table.entries,
            run.scratch.stack,
            run.scratch.counts,
            stats,
            False,
        )
        move = int(stats[kernel.ROOT_MOVE])
        if move == kernel.NO_MOVE:
            move = int(run.scratch.stack[0, kernel.F_MOVE0])
        return move if position.cells[move] == EMPTY else None


def _finished(position: MNKPosition) -> Solved | None:
    """The answer for a finished game (the side to move has lost, or a draw)."""
    if position.winner is not None:
        return Solved(Outcome(Result.loss, 0), 0)
    if EMPTY not in position.cells:
        return Solved(Outcome(Result.draw, 0), 0)
    return None
