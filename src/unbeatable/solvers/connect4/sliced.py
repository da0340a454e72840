"""The sliced search driver: the compiled searches, run a slice at a time.

The kernel's searches stop when a node budget runs out and carry on exactly
where they stopped when called again (see :mod:`.kernel`). :class:`SlicedSearch`
calls them in slices of :data:`SLICE` nodes and checks the caller's limits
(deadline, stop switch) between slices, so a search can be stopped within
milliseconds and never redoes any work. It also holds what a search needs
besides the position: the transposition table (shared by every thread),
each thread's stacks, and each thread's node count. A long narrowing search
takes the second core with a helper thread (:class:`_Race`).

The kernel (numba, numpy) is imported at the first search, so that answers
from the opening book alone never load it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from unbeatable.games.connect4 import STANDARD, Connect4Position, Shape, rules_for
from unbeatable.search.engine import Limits, Progress, SearchTimeout

if TYPE_CHECKING:
    import numpy as np

    from unbeatable.solvers.connect4.kernel import Kernel
    from unbeatable.solvers.connect4.table import TranspositionTable

#: Nodes per slice of a search (about 10 ms): how often the limits are checked.
SLICE = 100_000
#: Slices after which a narrowing search gets a helper thread on the other
#: core (about a tenth of a second: shorter searches are not worth a thread;
#: they stay on one, deterministic node for node).
HELPER_AFTER = 10
_UNLIMITED_NODES = 1 << 62


def kernel(shape: Shape) -> Kernel:
    """A board's compiled kernel, loaded (numba and numpy with it) at the first
    search."""
    from unbeatable.solvers.connect4.kernel import for_shape

    return for_shape(shape)


class _Stacks(threading.local):
    """This thread's search stacks and statistics (the table is shared, these
    cannot be), made at the thread's first search."""

    def __init__(self, k: Kernel) -> None:
        self.bits, self.ints = k.new_stacks()
        self.stats = k.new_stats()


class _Count(threading.local):
    """Nodes searched by this thread."""

    nodes = 0


class SlicedSearch:
    """Exact searches of one board's positions over one transposition table,
    each run in slices with the limits checked between them.

    The table defaults to the board's process-wide one (128 MiB on the
    standard board, 1 GiB past 42 cells, see :mod:`.table`), allocated at the first search. Safe to
    share between threads: each thread searches with its own stacks and
    counts its own nodes.
    """

    def __init__(
        self,
        table: TranspositionTable | None = None,
        shape: Shape = STANDARD,
        *,
        helpers: bool = True,
    ) -> None:
        if table is not None and table.shape != shape:
            raise ValueError(f"a table of {table.shape.size} boards cannot serve {shape.size}")
        #: The board searched.
        self.shape = shape
        #: Whether a narrowing search past :data:`HELPER_AFTER` slices gets a
        #: helper thread (lazy SMP on the second core).
        self.helpers = helpers
        self._table = table
        self._stacks: _Stacks | None = None
        self._count = _Count()
        self._lock = threading.Lock()

    @property
    def own_table(self) -> TranspositionTable | None:
        """The table this search was given, or None: the board's shared one."""
        return self._table

    @property
    def table(self) -> TranspositionTable:
        """The transposition table given, else the board's shared one
        (allocated at the first search; looked up each time, not held, so
        the shared tables' bound on memory holds: see :mod:`.table`)."""
        if self._table is not None:
            return self._table
        from unbeatable.solvers.connect4.table import shared_table

        return shared_table(self.shape)

    @property
    def _mine(self) -> _Stacks:
        """This thread's stacks."""
        with self._lock:
            if self._stacks is None:
                self._stacks = _Stacks(kernel(self.shape))
            return self._stacks

    @property
    def nodes(self) -> int:
        """Nodes this thread has searched so far: callers report differences."""
        return self._count.nodes

    def credit(self, nodes: int) -> None:
        """Count on this thread nodes that a helper thread searched for it."""
        self._count.nodes += nodes

    def solve_score(
        self, position: Connect4Position, *, weak: bool = False, guess: int | None = None
    ) -> tuple[int, int]:
        """Exact Pons score (weak: -1, 0 or 1) and nodes searched, in one
        compiled call with no limits; ``guess``: a likely score to test first.
        The side to move may win at once; nobody may have won yet."""
        k = self._kernel(position)
        stacks = self._mine
        stats = stacks.stats
        stats[k.NODES] = 0
        stats[k.BUDGET] = _UNLIMITED_NODES
        table = self.table  # one table for the whole search
        stats[k.GENERATION] = table.generation
        score = k.solve(
            k.U(position.current()),
            k.U(position.mask),
            position.stones,
            weak,
            k.NO_GUESS if guess is None else guess,
            table.entries,
            stacks.bits,
            stacks.ints,
            stats,
        )
        nodes = int(stats[k.NODES])
        self._count.nodes += nodes
        return int(score), nodes

    def test(self, position: Connect4Position, alpha: int, beta: int, limits: Limits) -> int:
        """One exact alpha-beta search within ``(alpha, beta)`` (a null window,
        for a test), under the kernel's contract: the side to move cannot win
        at once. Raises :class:`SearchTimeout` once the limits expire."""
        k = self._kernel(position)
        stacks = self._mine
        cur, mask = k.U(position.current()), k.U(position.mask)
        table = self.table  # one table for the whole search
        entries = table.entries

        def step(resume: bool) -> int:
            return int(
                k.search(
                    cur,
                    mask,
                    position.stones,
                    alpha,
                    beta,
                    k.EXACT,
                    entries,
                    stacks.bits,
                    stacks.ints,
                    stacks.stats,
                    resume,
                )
            )

        return self._in_slices(step, stacks.stats, table.generation, limits)

    def score(
        self,
        position: Connect4Position,
        limits: Limits,
        *,
        weak: bool = False,
        lower: int | None = None,
    ) -> int:
        """The exact score (weak: its sign, or a bound of the right sign) by
        the kernel's null-window narrowing (:func:`~.kernel.narrow`), in
        slices. ``lower``: a known lower bound, also tested first as the
        likely score. Raises :class:`SearchTimeout` once the limits expire."""
        stones, shape = position.stones, self.shape
        if rules_for(shape).winning_moves(position, position.to_move):
            return 1 if weak else shape.win_now(stones)
        k = self._kernel(position)
        lo, hi = (-1, 1) if weak else (-shape.win_now(stones + 1), shape.win_now(stones))
        guess = k.NO_GUESS
        if lower is not None:
            lo = max(lo, min(lower, 1) if weak else lower)
            guess = lo
        if lo >= hi:
            return lo
        stacks = self._mine
        cur, mask = k.U(position.current()), k.U(position.mask)
        table = self.table  # one table for the whole search
        entries = table.entries

        def narrowing(thread: _Stacks, resume: bool) -> int:
            """The narrowing on ``thread``'s stacks, a slice further."""
            return int(
                k.narrow(
                    cur,
                    mask,
                    stones,
                    lo,
                    hi,
                    guess,
                    entries,
                    thread.bits,
                    thread.ints,
                    thread.stats,
                    resume,
                )
            )

        def helper(race: _Race) -> int | None:
            """The same narrowing on this (helper) thread, each test beside
            the main thread's (see :func:`~.kernel.other_probe_point`), in
            slices until it or the main search ends (None then)."""
            mine = self._mine
            race.stats = mine.stats  # its nodes, read as it goes
            mine.stats[k.HELPER] = 1
            try:
                return self._in_slices(
                    lambda resume: narrowing(mine, resume),
                    mine.stats,
                    table.generation,
                    race.limits,
                )
            except SearchTimeout:
                return None
            finally:
                mine.stats[k.HELPER] = 0

        return self._in_slices(
            lambda resume: narrowing(stacks, resume),
            stacks.stats,
            table.generation,
            limits,
            narrowing=True,
            helper=helper if self.helpers else None,
        )

    def clear(self) -> None:
        """Forget what the table learnt (benchmarks time positions from scratch)."""
        self.table.clear()

    def _kernel(self, position: Connect4Position) -> Kernel:
        """The board's kernel, checking that ``position`` is on that board."""
        if position.shape != self.shape:
            raise ValueError(
                f"a {position.shape.size} position given to a {self.shape.size} search"
            )
        return kernel(self.shape)

    def _in_slices(
        self,
        step: Callable[[bool], int],
        stats: np.ndarray,
        generation: int,
        limits: Limits,
        *,
        narrowing: bool = False,
        helper: Callable[[_Race], int | None] | None = None,
    ) -> int:
        """Run a kernel search, ``step(resume)``, :data:`SLICE` nodes at a time
        until it finishes, checking the limits before each slice (and
        reporting to ``limits.progress``: nodes, and the score window when
        the step is :func:`~.kernel.narrow`); raises :class:`SearchTimeout`
        once they expire. Counts its nodes. With a ``helper``, a search past
        :data:`HELPER_AFTER` slices runs it on a thread of its own (see
        :class:`_Race`): its nodes are counted and reported too, and if it
        finishes first its value is the answer."""
        k = kernel(self.shape)
        stats[k.NODES] = 0
        stats[k.GENERATION] = generation
        report = limits.progress
        reported = 0
        resume = False
        slices = 0
        race: _Race | None = None
        try:
            while True:
                if limits.bounded and limits.expired():
                    raise SearchTimeout(f"limits reached after {int(stats[k.NODES]):,} nodes")
                if race is not None and race.value is not None:
                    return race.value  # the helper finished first
                slices += 1
                if helper is not None and race is None and slices > HELPER_AFTER:
                    race = _Race(helper, k.NODES)
                stats[k.BUDGET] = stats[k.NODES] + SLICE
                value = step(resume)
                if report is not None:
                    nodes = int(stats[k.NODES]) + (0 if race is None else race.nodes)
                    if narrowing and stats[k.ABORTED]:
                        report(Progress(nodes - reported, int(stats[k.LO]), int(stats[k.HI])))
                    else:
                        report(Progress(nodes - reported))
                    reported = nodes
                if not stats[k.ABORTED]:
                    return value
                resume = True
        finally:
            nodes = int(stats[k.NODES])
            if race is not None:
                nodes += race.end()
                if report is not None and nodes > reported:
                    report(Progress(nodes - reported))  # the helper's last nodes
            self._count.nodes += nodes


class _Race:
    """A helper thread running ``helper(race)`` beside a search (lazy SMP:
    both search the same position over the shared table, so each finds what
    the other stored): its value once it finishes first, and its nodes (at
    ``nodes_field`` of the ``stats`` it searches with)."""

    def __init__(self, helper: Callable[[_Race], int | None], nodes_field: int) -> None:
        self.value: int | None = None
        #: The helper's ``stats`` (set by the helper as it starts).
        self.stats: np.ndarray | None = None
        self._nodes_field = nodes_field
        self._ended = threading.Event()
        #: The helper's limits: they expire when the search is over.
        self.limits = Limits(stop=self._ended)
        self._failed: list[BaseException] = []
        self._thread = threading.Thread(
            target=self._run, args=(helper,), name="connect4-helper", daemon=True
        )
        self._thread.start()

    def _run(self, helper: Callable[[_Race], int | None]) -> None:
        try:
            self.value = helper(self)
        except BaseException as error:  # raised again in the searching thread
            self._failed.append(error)

    @property
    def nodes(self) -> int:
        """Nodes the helper has searched so far."""
        return 0 if self.stats is None else int(self.stats[self._nodes_field])

    def end(self) -> int:
        """Stop the helper (within a slice) and return the nodes it searched."""
        self._ended.set()
        self._thread.join()
        if self._failed:
            raise self._failed[0]
        return self.nodes
