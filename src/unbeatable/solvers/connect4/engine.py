"""Connect4Engine: the exact solver behind the Engine protocol.

A position's value comes from, in order: the game's own end (won or full
board), the opening book, then the compiled search. The best move is the
first child that a null-window test proves keeps the value: in tie-break
order (centre first) within the book, the move analysis calls best; past it,
a short heuristic search's favourite first (it is the keeper more often, so
fewer refutations come before the proof), and under a time limit two tests
at once, on this thread and a helper, the first proof ending both (a slow
refutation then no longer holds up a quick proof).

Past the book, the value is often already bounded from below by what was
proved before: the book one or two stones back (:meth:`Book.parent_bound`,
:meth:`Book.grandparent_bound`), or a move the engine proved earlier in the
game (it remembers the bound each proof gave the position it led to). After
a perfect opponent's move that bound *is* the value, and proving a move that
keeps it is cheap, while proving that nothing does better (the exact value)
can take far longer than a move may. So :meth:`Connect4Engine.solve` first
finds a move keeping the bound, then spends the rest of the budget on the
exact value (and a better move, should the opponent have erred); out of time
there, it answers with the move that keeps the bound and an inexact outcome.

Searches run in resumable slices of :data:`SLICE` nodes, and the limits
(deadline, stop switch) are checked between slices: a search can be stopped
within milliseconds and never redoes work. Past the deadline the value is
``unknown`` and the move that of a short, node-budgeted heuristic search.

The engine is safe to share between threads: the transposition table is one
array of self-checking words (a lost update only costs a re-search), and each
thread gets its own stacks. The kernel releases the GIL, so searches from
different threads use different cores.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from unbeatable.games.connect4 import (
    CELLS,
    Connect4Position,
    canonical_key,
    connect4,
    pons_outcome,
    predecessors,
    win_now_score,
)
from unbeatable.search.engine import (
    KNOWN_ONLY,
    UNLIMITED,
    Limits,
    Outcome,
    SearchTimeout,
    Solved,
)
from unbeatable.solvers.connect4.book import DEFAULT_BOOK, Book, load_book

if TYPE_CHECKING:
    from types import ModuleType

    from unbeatable.solvers.connect4.table import TranspositionTable

#: Nodes per slice of a limited search (about 10 ms): how often the limits
#: are checked.
SLICE = 100_000
#: Upper bounds the engine remembers from its proofs (a few MB at most).
PROVEN_LIMIT = 1 << 16
_UNLIMITED_NODES = 1 << 62


@cache
def _kernel() -> ModuleType:
    """The compiled kernel, loaded (numba and numpy with it) at the first search:
    answers from the book alone never pay for it."""
    from unbeatable.solvers.connect4 import kernel

    return kernel


_default_book: Book | None = None
_book_loaded = False
_book_lock = threading.Lock()


def default_book() -> Book | None:
    """The shipped opening book, loaded on first use (None if not shipped)."""
    global _default_book, _book_loaded
    with _book_lock:
        if not _book_loaded:
            _book_loaded = True
            if DEFAULT_BOOK.exists():
                _default_book = load_book(DEFAULT_BOOK)
        return _default_book


class _Scratch(threading.local):
    """Per-thread search stacks (the table is shared, the stacks cannot be),
    made at a thread's first search."""

    def __init__(self) -> None:
        kernel = _kernel()
        self.bits, self.ints = kernel.new_stacks()
        self.stats = kernel.new_stats()


class _Count(threading.local):
    """Nodes searched by this thread (engines report each call's share)."""

    nodes = 0


class Connect4Engine:
    """Exact Connect Four solver (Pons' design: bitboards, negamax, numba).

    All engines share one process-wide transposition table (128 MiB, see
    :mod:`.table`) unless given their own, so repeated queries get faster.
    ``book``: ``"default"`` for the shipped book, None for none, or a :class:`Book`
    or path. The kernel and the table are loaded at the first search, so an
    answer from the book alone costs a lookup. ``race=False`` keeps timed
    move searches on one thread (see :meth:`_race`; benchmarks compare).
    """

    def __init__(
        self,
        table: TranspositionTable | None = None,
        book: Book | Path | str | None = "default",
        race: bool = True,
    ) -> None:
        self._table = table
        #: Whether timed move searches test two moves at once (see :meth:`_race`).
        self.race = race
        if isinstance(book, str) and book == "default":
            self.book: Book | None = default_book()
        elif isinstance(book, str | Path):
            self.book = load_book(book)
        else:
            self.book = book
        self._scratch: _Scratch | None = None
        self._count = _Count()
        self._lock = threading.Lock()
        #: Canonical key -> an upper bound on that position's score, proved
        #: by a null-window test on it as a child of a position being solved.
        self._proven: dict[int, int] = {}
        #: The same for tests the limits cut short: the bound being tested
        #: when time ran out (it most likely holds: a refutation is usually
        #: found fast, a confirmation is the slow part). Only ever a guess.
        self._likely: dict[int, int] = {}

    def __repr__(self) -> str:
        return f"Connect4Engine(book={self.book!r})"

    @property
    def table(self) -> TranspositionTable:
        """The transposition table, allocated (128 MiB) at the first search."""
        with self._lock:
            if self._table is None:
                from unbeatable.solvers.connect4.table import shared_table

                self._table = shared_table()
            return self._table

    @property
    def scratch(self) -> _Scratch:
        """This thread's search stacks."""
        with self._lock:
            if self._scratch is None:
                self._scratch = _Scratch()
            return self._scratch

    def reset(self) -> None:
        """Forget what the table and the proofs learnt (benchmarks time each
        position from scratch)."""
        self.table.clear()
        with self._lock:
            self._proven.clear()
            self._likely.clear()

    def _remember(self, position: Connect4Position, upper: int, proved: bool = True) -> None:
        """Keep an upper bound on ``position``'s score (proved, or only the one
        a cut-short test was trying); the oldest go first."""
        memo = self._proven if proved else self._likely
        key = canonical_key(position)
        with self._lock:
            known = memo.pop(key, None)
            memo[key] = upper if known is None else min(known, upper)
            while len(memo) > PROVEN_LIMIT:
                del memo[next(iter(memo))]

    def _likely_bound(self, position: Connect4Position) -> int | None:
        """A lower bound the position most likely has, not proved: the negated
        bound a cut-short test was trying on a predecessor, or None."""
        return _bound_after(self._likely, position)

    def lower_bound(self, position: Connect4Position) -> int | None:
        """A proved lower bound on the score of a position the book does not
        hold, or None: from the book one or two stones back, or from an
        upper bound proved on a predecessor (the side to move now scores at
        least its negation, whatever move led here)."""
        bounds = [_bound_after(self._proven, position)]
        if self.book is not None:
            bounds += [self.book.parent_bound(position), self.book.grandparent_bound(position)]
        return max((b for b in bounds if b is not None), default=None)

    def warm_up(self) -> None:
        """Load the compiled kernel, the table and the book now, not in the first
        request (a server calls this at start)."""
        self.solve_score(connect4().parse("2252576253462244111563365343671351441"))
        self.value(connect4().parse("1234567"), Limits.seconds(0.05))
        if self.book is not None:
            self.book.get(connect4().initial())

    # -- scores -----------------------------------------------------------------

    def solve_score(
        self, position: Connect4Position, weak: bool = False, guess: int | None = None
    ) -> tuple[int, int]:
        """Exact Pons score for the side to move (weak: -1, 0 or 1) and nodes
        searched, in one compiled call with no limits (benchmarks and book
        builds; the book is not consulted).

        ``guess``, a likely score (a sibling's, in a book build), is tested
        first: right or close, it saves null-window searches; wrong, it costs
        little. Raises ValueError for a finished game.
        """
        _require_running(position)
        kernel = _kernel()
        s = self.scratch
        stats = s.stats
        stats[kernel.NODES] = 0
        stats[kernel.BUDGET] = _UNLIMITED_NODES
        stats[kernel.GENERATION] = self.table.generation
        score = kernel.solve(
            kernel.U(position.current()),
            kernel.U(position.mask),
            position.stones,
            weak,
            kernel.NO_GUESS if guess is None else guess,
            self.table.entries,
            s.bits,
            s.ints,
            stats,
        )
        nodes = int(stats[kernel.NODES])
        self._count.nodes += nodes
        return int(score), nodes

    def _search(self, position: Connect4Position, alpha: int, beta: int, limits: Limits) -> int:
        """One exact alpha-beta search (the side to move cannot win at once),
        in resumable slices with the limits checked before each; raises
        :class:`SearchTimeout` once they expire."""
        kernel = _kernel()
        s = self.scratch
        stats = s.stats
        stats[kernel.NODES] = 0
        stats[kernel.GENERATION] = self.table.generation
        cur, mask = kernel.U(position.current()), kernel.U(position.mask)
        resume = False
        try:
            while True:
                if limits.bounded and limits.expired():
                    raise SearchTimeout(f"limits reached after {int(stats[kernel.NODES]):,} nodes")
                stats[kernel.BUDGET] = stats[kernel.NODES] + SLICE
                value = kernel.search(
                    cur,
                    mask,
                    position.stones,
                    alpha,
                    beta,
                    kernel.EXACT,
                    self.table.entries,
                    s.bits,
                    s.ints,
                    stats,
                    resume,
                )
                if not stats[kernel.ABORTED]:
                    return int(value)
                resume = True
        finally:
            self._count.nodes += int(stats[kernel.NODES])

    def _score(
        self,
        position: Connect4Position,
        limits: Limits,
        weak: bool = False,
        lower: int | None = None,
    ) -> int:
        """Exact score by null-window narrowing (the kernel's :func:`~.kernel.narrow`
        steps, driven from here so that each search is sliced). ``lower``: a
        known lower bound, also tested first as the likely score."""
        stones = position.stones
        if connect4().winning_moves(position, position.to_move):
            return 1 if weak else win_now_score(stones)
        kernel = _kernel()
        lo, hi = (-1, 1) if weak else (-win_now_score(stones + 1), win_now_score(stones))
        guess, guided = kernel.NO_GUESS, 0
        if lower is not None:
            lo = max(lo, min(lower, 1) if weak else lower)
            guess, guided = lo, kernel.GUIDED
        while lo < hi:
            med = kernel.probe_point(lo, hi, guess if guided > 0 else kernel.NO_GUESS)
            r = self._search(position, med, med + 1, limits)
            if r <= med:
                hi = r
            else:
                lo = r
            guided -= 1
            guess = kernel.next_guess(lo, hi, r <= med)
        return lo

    def _value(self, position: Connect4Position, limits: Limits, weak: bool) -> int:
        """The book's score, else a search's (from the best proved lower bound);
        raises :class:`SearchTimeout`."""
        known = self.book.get(position) if self.book is not None else None
        if known is not None:
            return _sign(known) if weak else known
        return self._score(position, limits, weak, self.lower_bound(position))

    # -- the Engine protocol ----------------------------------------------------

    def value(
        self, position: Connect4Position, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """The outcome for the side to move, without a move: what analysis asks
        of every child. ``unknown`` (exact=False) if the limits expire first."""
        if (over := _finished(position)) is not None:
            return over
        start = self._count.nodes
        try:
            score = self._value(position, limits, weak)
        except SearchTimeout:
            unknown = Outcome("unknown", None, exact=False)
            return Solved(unknown, self._count.nodes - start)
        return Solved(_outcome(position.stones, score, weak), self._count.nodes - start)

    def solve(
        self, position: Connect4Position, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """Outcome for the side to move and a move that achieves it.

        Exact unless the limits expire first: then ``unknown`` (or a result a
        short depth-limited search proved) with its best guess of a move, or,
        where a lower bound was proved before (see :meth:`_solve_above`), a
        move proven to keep it with an inexact outcome.
        """
        if (over := _finished(position)) is not None:
            return over
        start = self._count.nodes
        # (Not when nothing may be searched: what KNOWN_ONLY answers must not
        # depend on which proofs this engine happens to remember.)
        if (
            not weak
            and limits.remaining() > 0
            and (self.book is None or self.book.get(position) is None)
        ):
            lower = self.lower_bound(position)
            if lower is None:
                lower = self._likely_bound(position)
            # (A likely bound that no move keeps gives None: search as usual.)
            if lower is not None and (found := self._solve_above(position, lower, limits, start)):
                return found
        try:
            score = self._value(position, limits, weak)
        except SearchTimeout:
            unknown = Outcome("unknown", None, exact=False)
            return self._guess(position, limits, unknown, start, use_outcome=False)
        outcome = _outcome(position.stones, score, weak)
        refuted: list[int] = []
        pending: list[tuple[int, int]] = []
        try:
            lead = None if weak else self._lead(position)
            move = self._best_move(position, score, weak, limits, refuted, pending, lead)
        except SearchTimeout:
            # Out of time: the value stands, the move is a guess among those
            # not yet proven to give value away.
            return self._guess(position, limits, outcome, start, True, refuted, pending)
        return Solved(outcome, self._count.nodes - start, move, move_proven=True)

    def _solve_above(
        self,
        position: Connect4Position,
        lower: int,
        limits: Limits,
        start: int,
    ) -> Solved | None:
        """:meth:`solve` for a position whose score is at least ``lower``: a move
        that keeps ``lower`` first, then the exact score and, if it is higher
        (the opponent erred), a move that keeps it.

        Out of time after the first step, the answer is the move that keeps
        ``lower`` with an inexact outcome ("at least" is all that is known);
        before it, a guess among the moves not proven to fall short of
        ``lower``. ``lower`` may be only likely (not proved): None if no move
        keeps it after all (the caller then searches the value as usual).
        """
        refuted: list[int] = []
        pending: list[tuple[int, int]] = []
        unknown = Outcome("unknown", None, exact=False)
        lead = self._lead(position)
        try:
            keeping = self._best_move(position, lower, False, limits, refuted, pending, lead)
        except SearchTimeout:
            return self._guess(position, limits, unknown, start, True, refuted, pending)
        if keeping is None:  # only a likely bound can be too high
            return None
        try:
            score = self._score(position, limits, False, lower)
        except SearchTimeout:
            at_least = _at_least(lower)
            return Solved(at_least, self._count.nodes - start, keeping, move_proven=True)
        outcome = _outcome(position.stones, score, False)
        if score == lower:
            return Solved(outcome, self._count.nodes - start, keeping, move_proven=True)
        try:
            move = self._best_move(position, score, False, limits, lead=lead)
        except SearchTimeout:
            return Solved(outcome, self._count.nodes - start, keeping)
        return Solved(outcome, self._count.nodes - start, move, move_proven=True)

    def guess(self, position: Connect4Position) -> Solved:
        """The book's proven move where the book has it (its children too),
        else the node-budgeted heuristic search's: never a timed search, and
        the same answer every time (see the Engine protocol)."""
        known = self.solve(position, KNOWN_ONLY)
        if known.move is not None:
            return known
        from unbeatable.solvers.connect4.heuristic import best_guess

        guess = best_guess(position)
        return Solved(guess.outcome, guess.nodes, guess.move)

    def _guess(
        self,
        position: Connect4Position,
        limits: Limits,
        outcome: Outcome,
        start: int,
        use_outcome: bool,
        refuted: Sequence[int] = (),
        pending: Sequence[tuple[int, int]] = (),
    ) -> Solved:
        """The answer once the limits expired: the move whose test was cut
        short, if any (the tests before it refuted their moves; a refutation
        is usually quick, so the one that ran long most likely keeps the
        value), else the heuristic search's move; and the outcome, unless
        ``use_outcome`` keeps the proven one, the heuristic's. The bound the
        cut-short test was trying is remembered as likely, for the next move.
        Nobody wants a guess once the stop switch is set: then no move at all."""
        spent = self._count.nodes - start
        if limits.stop is not None and limits.stop.is_set():
            return Solved(outcome, spent, None)
        if pending:
            col, upper = pending[0]
            self._remember(connect4().play(position, col), upper, proved=False)
            return Solved(outcome if use_outcome else Outcome("unknown", None, False), spent, col)
        from unbeatable.solvers.connect4.heuristic import best_guess

        guess = best_guess(position, exclude=refuted)
        return Solved(outcome if use_outcome else guess.outcome, spent + guess.nodes, guess.move)

    def _lead(self, position: Connect4Position) -> int | None:
        """The move a short heuristic search likes best (a few ms): tested
        first past the book, where a move must be proven within an AI move's
        budget. It keeps the value more often than the most central move, so
        fewer refutations come before the proof, and if time runs out in its
        test, the move played is the one both the heuristic and the clock
        favour (see :meth:`_guess`)."""
        if self.book is not None and position.stones <= self.book.plies:
            return None  # the book has the move, or its children's values
        from unbeatable.solvers.connect4.heuristic import best_guess

        return best_guess(position).move

    def _best_move(
        self,
        position: Connect4Position,
        score: int,
        weak: bool,
        limits: Limits,
        refuted: list[int] | None = None,
        pending: list[tuple[int, int]] | None = None,
        lead: int | None = None,
    ) -> int | None:
        """The first move that keeps ``score`` (strong or weak), testing
        ``lead`` first, then in tie-break order (centre first): an immediate
        win if there is one, else a child whose value, from the book or a
        null-window test, is at most ``-score``; under a time limit (not weak),
        the first proved of two tests run at once (:meth:`_race`). Raises
        :class:`SearchTimeout`.

        With no lead and no limit the move is the one analysis calls best (ties go to the
        centre), as the book stores at its deepest level (proving it there
        can take longer than an AI move may). One stone past the book, a child
        whose bound from the book already exceeds ``-score`` is skipped.
        Moves found to give value away are appended to ``refuted``; the move
        whose test the limits cut short, with the bound the test was trying on
        its position, to ``pending``. None if no move keeps ``score`` (it was
        only a likely bound, and too high).
        """
        refuted = [] if refuted is None else refuted
        game = connect4()
        book = self.book
        if book is not None and (stored := book.move(position)) is not None:
            return stored
        wins = game.winning_moves(position, position.to_move)
        if wins:
            return game.tie_break(position, wins)[0]
        opponent = "o" if position.to_move == "x" else "x"
        children = {col: game.play(position, col) for col in game.moves(position)}
        # Moves after which the opponent cannot win at once (the search's own
        # precondition): the others lose at once.
        order = list(game.tie_break(position, list(children)))
        if lead in children:
            order = [lead] + [c for c in order if c != lead]
        safe = [c for c in order if not game.winning_moves(children[c], opponent)]
        if not safe and not weak and score > -win_now_score(position.stones + 1):
            return None  # every move loses at once: none keeps more
        if not safe or (weak and score < 0):
            # Lost whatever we do (weak scores can't tell losses apart): the
            # most central move that doesn't lose at once, if any.
            return (safe or game.ordered_moves(position))[0]
        racing = self.race and not weak and limits.deadline is not None
        unknown: list[int] = []  # to search, racing
        for col in safe:
            child = children[col]
            known = book.get(child) if book is not None else None
            if known is None and book is not None:
                bound = book.parent_bound(child)
                if bound is not None and (_sign(-bound) if weak else -bound) < score:
                    refuted.append(col)  # the opponent can do better than -score
                    continue
            if known is None:
                if child.stones == CELLS:
                    known = 0
                elif racing:
                    unknown.append(col)
                    continue
                else:
                    try:
                        known = self._search(child, -score, -score + 1, limits)
                    except SearchTimeout:
                        if pending is not None and not weak:
                            pending.append((col, -score))
                        raise
                    if -known >= score and not weak:
                        self._remember(child, known)  # fail-low: at most ``known``
            if -known >= score:
                return col
            refuted.append(col)
        if unknown:
            return self._race(children, unknown, score, limits, refuted, pending)
        return None

    def _race(
        self,
        children: dict[int, Connect4Position],
        order: list[int],
        score: int,
        limits: Limits,
        refuted: list[int],
        pending: list[tuple[int, int]] | None,
    ) -> int | None:
        """:meth:`_best_move`'s null-window tests on two threads (this one
        and a helper), taking the moves in ``order``: the first move proved to
        keep ``score`` ends the other test and is the answer. Why: a keeper's
        proof is often quick, but the refutation of a move before it in the
        order can take a second or more, and the budget of an AI move is 2 s;
        side by side, a slow refutation no longer holds up the proof (the
        kernel releases the GIL and the table is shared). Raises
        :class:`SearchTimeout` if the limits end it with no move proved
        (the tests cut short go to ``pending``, in order)."""
        won = threading.Event()
        race = _Race(limits, won)
        queue = iter(order)
        lock = threading.Lock()
        found: list[int] = []
        cut: list[int] = []
        failed: list[BaseException] = []
        helper_nodes = [0]

        def work(helper: bool) -> None:
            start = self._count.nodes
            try:
                while True:
                    with lock:
                        col = None if won.is_set() else next(queue, None)
                    if col is None:
                        return
                    child = children[col]
                    try:
                        known = self._search(child, -score, -score + 1, race)
                    except SearchTimeout:
                        if not won.is_set():
                            with lock:
                                cut.append(col)
                        return
                    with lock:
                        if -known >= score:
                            found.append(col)
                            won.set()
                        else:
                            refuted.append(col)
                    if -known >= score:
                        self._remember(child, known)  # fail-low: at most ``known``
                        return
            except BaseException as error:  # re-raised in the caller's thread
                failed.append(error)
                won.set()
            finally:
                if helper:
                    helper_nodes[0] = self._count.nodes - start

        thread = threading.Thread(target=work, args=(True,), name="connect4-race", daemon=True)
        thread.start()
        work(False)
        thread.join()
        self._count.nodes += helper_nodes[0]
        if failed:
            raise failed[0]
        if found:
            return found[0]
        if cut:
            if pending is not None:
                pending.extend((col, -score) for col in sorted(cut, key=order.index))
            raise SearchTimeout("limits reached before a move was proved")
        return None


class _Race(Limits):
    """The caller's limits, also ending once a sibling test has won the race."""

    __slots__ = ("won",)

    def __init__(self, limits: Limits, won: threading.Event) -> None:
        super().__init__(limits.deadline, limits.stop)
        self.won = won

    @property
    def bounded(self) -> bool:
        return True

    def remaining(self) -> float:
        return 0.0 if self.won.is_set() else super().remaining()

    def expired(self) -> bool:
        return self.won.is_set() or super().expired()


def _bound_after(uppers: dict[int, int], position: Connect4Position) -> int | None:
    """The best lower bound on ``position`` that upper bounds on its
    predecessors give (the side to move scores at least their negation,
    whatever move led here), or None."""
    if not uppers:
        return None
    found = [uppers.get(canonical_key(before)) for _, before in predecessors(position)]
    return max((-upper for upper in found if upper is not None), default=None)


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def _require_running(position: Connect4Position) -> None:
    if position.winner is not None or position.stones == CELLS:
        raise ValueError("the game is over: nothing to solve")


def _finished(position: Connect4Position) -> Solved | None:
    """The answer for a finished game (the side to move has lost, or a draw)."""
    if position.winner is not None:
        return Solved(Outcome("loss", 0), 0)
    if position.stones == CELLS:
        return Solved(Outcome("draw", 0), 0)
    return None


def _at_least(lower: int) -> Outcome:
    """What a lower bound alone says: a win (how fast unknown) if it is
    positive, else nothing certain."""
    return Outcome("win" if lower > 0 else "unknown", None, exact=False)


def _outcome(stones: int, score: int, weak: bool) -> Outcome:
    if weak:
        return Outcome("win" if score > 0 else "loss" if score < 0 else "draw", None)
    result, plies = pons_outcome(stones, score)
    return Outcome(result, plies)
