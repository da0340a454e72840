"""Connect4Engine: the exact solver behind the Engine protocol.

A position's value comes from, in order: the game's own end (won or full
board), the opening book, then the compiled search. One stone past the book
the search starts from a bound the book gives (see :meth:`Book.parent_bound`):
against a perfect opponent it is the exact value, proved by one null-window
search. The best move is the first child, in tie-break order (centre first),
that a null-window test proves keeps the value.

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
from pathlib import Path

import numpy as np

from unbeatable.games.connect4 import (
    CELLS,
    CENTRE_ORDER,
    Connect4Position,
    connect4,
    pons_outcome,
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
from unbeatable.solvers.connect4 import kernel
from unbeatable.solvers.connect4.book import DEFAULT_BOOK, Book, load_book
from unbeatable.solvers.connect4.heuristic import best_guess
from unbeatable.solvers.connect4.table import TranspositionTable, shared_table

#: Nodes per slice of a limited search (about 10 ms): how often the limits
#: are checked.
SLICE = 100_000
_UNLIMITED_NODES = 1 << 62

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
    """Per-thread search stacks: the table is shared, the stacks cannot be."""

    def __init__(self) -> None:
        self.bits, self.ints = kernel.new_stacks()
        self.stats = kernel.new_stats()
        self.columns = np.zeros(kernel.WIDTH, dtype=np.int64)


class Connect4Engine:
    """Exact Connect Four solver (Pons' design: bitboards, negamax, numba).

    All engines share one process-wide transposition table (128 MiB, see
    :mod:`.table`) unless given their own, so repeated queries get faster.
    ``book``: ``"default"`` for the shipped book, None for none, or a :class:`Book`
    or path.
    """

    def __init__(
        self,
        table: TranspositionTable | None = None,
        book: Book | Path | str | None = "default",
    ) -> None:
        self.table = shared_table() if table is None else table
        if isinstance(book, str) and book == "default":
            self.book: Book | None = default_book()
        elif isinstance(book, str | Path):
            self.book = load_book(book)
        else:
            self.book = book
        self._scratch = _Scratch()

    def __repr__(self) -> str:
        return f"Connect4Engine(book={self.book!r})"

    def reset(self) -> None:
        """Forget what the table learnt (benchmarks time each position from scratch)."""
        self.table.clear()

    def warm_up(self) -> None:
        """Load the compiled kernel and the book now, not in the first request
        (a server calls this at start)."""
        self.solve_score(connect4().parse("2252576253462244111563365343671351441"))
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
        s = self._scratch
        stats = s.stats
        self._start(stats, _UNLIMITED_NODES)
        score = kernel.solve(
            np.uint64(position.current()),
            np.uint64(position.mask),
            position.stones,
            weak,
            kernel.NO_GUESS if guess is None else guess,
            self.table.entries,
            s.bits,
            s.ints,
            stats,
        )
        return int(score), int(stats[kernel.NODES])

    def _start(self, stats: np.ndarray, budget: int) -> None:
        stats[kernel.NODES] = 0
        stats[kernel.BUDGET] = budget
        stats[kernel.GENERATION] = self.table.generation

    def _search(
        self, cur: np.uint64, mask: np.uint64, stones: int, alpha: int, beta: int, limits: Limits
    ) -> int:
        """One exact alpha-beta search, in resumable slices with the limits
        checked between them; raises :class:`SearchTimeout` once they expire.
        Nodes accumulate in this thread's ``stats``."""
        s = self._scratch
        stats = s.stats
        resume = False
        while True:
            if limits.bounded and limits.expired():
                raise SearchTimeout(f"limits reached after {int(stats[kernel.NODES]):,} nodes")
            stats[kernel.BUDGET] = stats[kernel.NODES] + SLICE
            value = kernel.search(
                cur,
                mask,
                stones,
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
        cur, mask, stones = np.uint64(position.current()), np.uint64(position.mask), position.stones
        if kernel.can_win_next(cur, mask):
            return 1 if weak else win_now_score(stones)
        lo, hi = (-1, 1) if weak else (-win_now_score(stones + 1), win_now_score(stones))
        guess, guided = kernel.NO_GUESS, 0
        if lower is not None:
            lo = max(lo, min(lower, 1) if weak else lower)
            guess, guided = lo, kernel.GUIDED
        while lo < hi:
            med = kernel.probe_point(lo, hi, guess if guided > 0 else kernel.NO_GUESS)
            r = self._search(cur, mask, stones, med, med + 1, limits)
            if r <= med:
                hi = r
            else:
                lo = r
            guided -= 1
            guess = kernel.next_guess(lo, hi, r <= med)
        return lo

    def _value(self, position: Connect4Position, limits: Limits, weak: bool) -> int:
        """The book's score, else a search's (from the book's bound one stone past
        it); raises :class:`SearchTimeout`."""
        book = self.book
        if book is not None:
            known = book.get(position)
            if known is not None:
                return ((known > 0) - (known < 0)) if weak else known
            lower = book.parent_bound(position)
        else:
            lower = None
        return self._score(position, limits, weak, lower)

    # -- the Engine protocol ----------------------------------------------------

    def value(
        self, position: Connect4Position, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """The outcome for the side to move, without a move: what analysis asks
        of every child. ``unknown`` (exact=False) if the limits expire first."""
        if (over := _finished(position)) is not None:
            return over
        s = self._scratch
        self._start(s.stats, 0)
        try:
            score = self._value(position, limits, weak)
        except SearchTimeout:
            return Solved(Outcome("unknown", None, exact=False), int(s.stats[kernel.NODES]))
        return Solved(_outcome(position.stones, score, weak), int(s.stats[kernel.NODES]))

    def solve(
        self, position: Connect4Position, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """Outcome for the side to move and a move that achieves it.

        Exact unless the limits expire first: then ``unknown`` (or a result a
        short depth-limited search proved) with its best guess of a move.
        """
        if (over := _finished(position)) is not None:
            return over
        s = self._scratch
        self._start(s.stats, 0)
        unknown = Outcome("unknown", None, exact=False)
        try:
            score = self._value(position, limits, weak)
        except SearchTimeout:
            return self._guess(position, limits, unknown, use_outcome=False)
        outcome = _outcome(position.stones, score, weak)
        try:
            move = self._best_move(position, score, weak, limits)
        except SearchTimeout:
            # Out of time: the value stands, the move is a heuristic pick.
            return self._guess(position, limits, outcome, use_outcome=True)
        return Solved(outcome, int(s.stats[kernel.NODES]), move, move_proven=True)

    def guess(self, position: Connect4Position) -> Solved:
        """The book's proven move where the book has it (its children too),
        else the node-budgeted heuristic search's: never a timed search, and
        the same answer every time (see the Engine protocol)."""
        known = self.solve(position, KNOWN_ONLY)
        if known.move is not None:
            return known
        guess = best_guess(position)
        return Solved(guess.outcome, guess.nodes, guess.move)

    def _guess(
        self, position: Connect4Position, limits: Limits, outcome: Outcome, use_outcome: bool
    ) -> Solved:
        """The answer once the limits expired: the heuristic search's move (and
        its outcome, unless ``use_outcome`` keeps the proven one). Nobody wants
        a guess once the stop switch is set: then no move at all."""
        spent = int(self._scratch.stats[kernel.NODES])
        if limits.stop is not None and limits.stop.is_set():
            return Solved(outcome, spent, None)
        guess = best_guess(position)
        return Solved(outcome if use_outcome else guess.outcome, spent + guess.nodes, guess.move)

    def _best_move(self, position: Connect4Position, score: int, weak: bool, limits: Limits) -> int:
        """The first move in tie-break order (centre first) that keeps ``score``
        (strong or weak): an immediate win if there is one, else a child whose
        value, from the book or a null-window test, is at most ``-score``.
        Raises :class:`SearchTimeout`.

        Taking the first in centre order makes the move the one analysis calls
        best (ties go to the centre), so the AI and its explanation agree.
        """
        game = connect4()
        s = self._scratch
        for col in game.ordered_moves(position):
            if game.play(position, col).winner is not None:
                return col
        cur, mask = np.uint64(position.current()), np.uint64(position.mask)
        count = kernel.ordered_children(cur, mask, s.columns)
        safe = set(s.columns[:count].tolist())
        candidates = [c for c in CENTRE_ORDER if c in safe]
        if not candidates or (weak and score < 0):
            # Lost whatever we do (weak scores can't tell losses apart): the
            # most central move that doesn't lose at once, if any.
            return (candidates or game.ordered_moves(position))[0]
        for col in candidates:
            child = game.play(position, col)
            known = self.book.get(child) if self.book is not None else None
            if known is None:
                if child.stones == CELLS:
                    known = 0
                else:  # the opponent cannot win at once: it is a safe move
                    child_cur, child_mask = np.uint64(child.current()), np.uint64(child.mask)
                    known = self._search(
                        child_cur, child_mask, child.stones, -score, -score + 1, limits
                    )
            if -known >= score:
                return col
        return candidates[0]  # pragma: no cover - some child keeps the score


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


def _outcome(stones: int, score: int, weak: bool) -> Outcome:
    if weak:
        return Outcome("win" if score > 0 else "loss" if score < 0 else "draw", None)
    result, plies = pons_outcome(stones, score)
    return Outcome(result, plies)
