"""Connect4Engine: the exact solver behind the Engine protocol.

Answers come from, in order: the game's own end (won or full board), the
opening book, then the compiled search. Without a deadline the whole search
runs inside one numba call; with one, Python drives the null-window steps in
node-budgeted slices and checks the clock between them. Past the deadline the
answer is ``unknown`` with the best move of a short depth-limited search.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np

from unbeatable.games.connect4 import CELLS, Connect4Position, connect4, pons_outcome
from unbeatable.search.engine import Outcome, SearchTimeout, Solved
from unbeatable.solvers.connect4 import kernel
from unbeatable.solvers.connect4.book import DEFAULT_BOOK, Book, load_book
from unbeatable.solvers.connect4.heuristic import best_guess
from unbeatable.solvers.connect4.table import TranspositionTable, shared_table

#: Nodes of the first budgeted slice when a deadline is set (a few ms).
FIRST_SLICE = 20_000
#: Nodes per slice of the best-move searches under a deadline.
_MOVE_SLICE = 200_000
_UNLIMITED = 1 << 62

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
        self.stats = np.zeros(4, dtype=np.int64)
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

    # -- scores -----------------------------------------------------------------

    def solve_score(
        self,
        position: Connect4Position,
        weak: bool = False,
        deadline: float | None = None,
        guess: int | None = None,
    ) -> tuple[int, int]:
        """Exact Pons score for the side to move (weak: -1, 0 or 1) and nodes searched.

        ``guess``, a likely score (a sibling's, in a book build), is tested
        first: right or close, it saves null-window searches; wrong, it costs
        little. The book is not consulted (benchmarks measure the search). Raises
        :class:`SearchTimeout` if ``deadline`` passes first, and ValueError for
        a finished game.
        """
        if position.winner is not None or position.stones == CELLS:
            raise ValueError("the game is over: nothing to solve")
        s = self._scratch
        stats = s.stats
        stats[kernel.NODES] = 0
        stats[kernel.ABORTED] = 0
        stats[kernel.GENERATION] = self.table.generation
        cur, mask = np.uint64(position.current()), np.uint64(position.mask)
        if deadline is None:
            stats[kernel.BUDGET] = _UNLIMITED
            score = kernel.solve(
                cur,
                mask,
                position.stones,
                weak,
                kernel.NO_GUESS if guess is None else guess,
                self.table.entries,
                s.bits,
                s.ints,
                stats,
            )
            return int(score), int(stats[kernel.NODES])
        return self._solve_sliced(cur, mask, position.stones, weak, deadline)

    def _solve_sliced(
        self, cur: np.uint64, mask: np.uint64, stones: int, weak: bool, deadline: float
    ) -> tuple[int, int]:
        """The null-window narrowing in node-budgeted slices, clock checked between.

        An aborted slice restarts its null-window step, which the table makes
        cheap; budgets double so every step eventually fits in one slice.
        """
        s = self._scratch
        stats = s.stats
        if kernel.can_win_next(cur, mask):
            return (1 if weak else (CELLS + 1 - stones) // 2), 1
        lo, hi = (-1, 1) if weak else (-((CELLS - stones) // 2), (CELLS + 1 - stones) // 2)
        budget = FIRST_SLICE
        started = time.perf_counter()
        while lo < hi:
            now = time.perf_counter()
            if now >= deadline:
                raise SearchTimeout(f"deadline passed after {int(stats[kernel.NODES])} nodes")
            done = int(stats[kernel.NODES])
            if done:  # never plan a slice longer than the time left
                rate = done / max(now - started, 1e-6)
                budget = max(1_000, min(budget, int(rate * (deadline - now)) + 1))
            stats[kernel.BUDGET] = done + budget
            stats[kernel.ABORTED] = 0
            lo, hi = kernel.narrow(
                cur,
                mask,
                stones,
                lo,
                hi,
                kernel.NO_GUESS,
                self.table.entries,
                s.bits,
                s.ints,
                stats,
            )
            budget *= 2
        score = min(max(lo, -1), 1) if weak else lo
        return score, int(stats[kernel.NODES])

    # -- the Engine protocol ----------------------------------------------------

    def solve(
        self, position: Connect4Position, deadline: float | None = None, weak: bool = False
    ) -> Solved:
        """Outcome for the side to move and a move that achieves it.

        Exact unless ``deadline`` passes first: then ``unknown`` (or a result a
        short depth-limited search proved) with its best guess of a move.
        """
        stones = position.stones
        if position.winner is not None:
            return Solved(Outcome("loss", 0), 0)
        if stones == CELLS:
            return Solved(Outcome("draw", 0), 0)
        score = self.book.get(position) if self.book is not None else None
        nodes = 0
        if score is None:
            try:
                score, nodes = self.solve_score(position, weak=weak, deadline=deadline)
            except SearchTimeout:
                guess = best_guess(position)
                spent = int(self._scratch.stats[kernel.NODES]) + guess.nodes
                return Solved(guess.outcome, spent, guess.move)
        if weak:
            score = (score > 0) - (score < 0)
        move, more, proven = self._best_move(position, score, weak, deadline)
        return Solved(self._outcome(stones, score, weak), nodes + more, move, proven)

    @staticmethod
    def _outcome(stones: int, score: int, weak: bool) -> Outcome:
        if weak:
            return Outcome("win" if score > 0 else "loss" if score < 0 else "draw", None)
        result, plies = pons_outcome(stones, score)
        return Outcome(result, plies)

    def _best_move(
        self, position: Connect4Position, score: int, weak: bool, deadline: float | None
    ) -> tuple[int, int, bool]:
        """A move that keeps ``score``, the nodes it took to find, and whether
        it is proven (False: the deadline passed and it is a heuristic pick).

        An immediate win if there is one; else the first child, in search
        order (most threats, then centre first), whose value the book gives or
        a null-window search proves to be at most ``-score``. Should the
        deadline pass meanwhile, the move of a short heuristic search.
        """
        game = connect4()
        s = self._scratch
        for col in game.ordered_moves(position):
            if game.play(position, col).winner is not None:
                return col, 0, True
        cur, mask = np.uint64(position.current()), np.uint64(position.mask)
        count = kernel.ordered_children(cur, mask, s.columns)
        candidates = [int(c) for c in s.columns[:count]]
        if not candidates or (weak and score < 0):
            # Lost whatever we do (weak mode can't tell losses apart): the most
            # promising move that doesn't lose at once, else the most central.
            return (candidates or game.ordered_moves(position))[0], 0, True
        nodes = 0
        stats = s.stats
        stats[kernel.GENERATION] = self.table.generation
        for col in candidates:
            child = game.play(position, col)
            known = self.book.get(child) if self.book is not None else None
            if known is not None:
                if -known >= score:
                    return col, nodes, True
                continue
            child_cur, child_mask = np.uint64(child.current()), np.uint64(child.mask)
            stats[kernel.NODES] = 0
            while True:
                stats[kernel.ABORTED] = 0
                if deadline is None:
                    stats[kernel.BUDGET] = _UNLIMITED
                elif time.perf_counter() >= deadline:
                    # Out of time: the value stands, the move is a heuristic pick.
                    guess = best_guess(position)
                    move = guess.move if guess.move is not None else candidates[0]
                    return move, nodes + int(stats[kernel.NODES]) + guess.nodes, False
                else:
                    stats[kernel.BUDGET] = int(stats[kernel.NODES]) + _MOVE_SLICE
                value = kernel.negamax(
                    child_cur,
                    child_mask,
                    child.stones,
                    -score,
                    -score + 1,
                    self.table.entries,
                    s.bits,
                    s.ints,
                    stats,
                )
                if not stats[kernel.ABORTED]:
                    break
            nodes += int(stats[kernel.NODES])
            if value <= -score:
                return col, nodes, True
        return candidates[0], nodes, True  # pragma: no cover - some child keeps the score
