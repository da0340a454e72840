"""Negamax with alpha-beta, a transposition table and move ordering.

This is the production engine for games whose tree fits in memory or that can
be searched to a useful depth. Three ideas on top of :mod:`minimax`:

* **Negamax.** A position's value for the side to move is the negation of its
  best child's value for the opponent, so one function replaces the
  ``max_value``/``min_value`` pair. Scores are from the side to move's view.
* **Transposition table.** Different move orders reach the same position
  (tic-tac-toe has 255,168 games but only 5,478 positions). Each searched
  position's value, bound type and best move are stored under ``game.key``;
  the table lives in the engine object, so a second query in the same process
  starts from everything the first one learned. Scores are stored relative to
  the stored node (a win in 3 plies *from there*), and converted back on use,
  so an entry is valid wherever in any tree the position recurs.
* **Move ordering.** The table's best move first, then ``game.ordered_moves``
  (centre first in tic-tac-toe), so cut-offs come early.

Scores: a win reached ``p`` plies below the root is ``win_score - p``, a loss
its negative, a draw 0; an unfinished leaf at the depth limit gets the game's
heuristic ``evaluate`` in (-1, 1), so proven results always dominate guesses.
The table is bounded (oldest entries are evicted first), and every search
honours a deadline, so no query can run or grow without limit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Iterator
from typing import Generic, NamedTuple, TypeVar

from unbeatable.games.base import Game
from unbeatable.search.engine import Outcome, SearchTimeout, Solved, outcome_from_value

P = TypeVar("P")
M = TypeVar("M")

EXACT, LOWER, UPPER = 0, 1, 2
#: Depth that means "to the end of the game": entries searched that deep are proofs.
FULL_DEPTH = 1 << 30


class Iteration(NamedTuple):
    """Progress record of iterative deepening: the result of one completed depth."""

    depth: int
    value: float
    move: object
    exact: bool
    nodes: int


class Negamax(Generic[P, M]):
    """Negamax search bound to one game, keeping its transposition table
    between queries (bounded to ``max_entries`` positions)."""

    def __init__(self, game: Game[P, M], max_entries: int = 1 << 19) -> None:
        self.game = game
        self.max_entries = max_entries
        # key -> (node-relative value, bound flag, best move, searched depth)
        self.table: dict[Hashable, tuple[float, int, M | None, int]] = {}
        self.nodes = 0
        self._deadline: float | None = None
        self._horizon = False

    def clear(self) -> None:
        """Forget everything learned (benchmarks use it to measure cold searches)."""
        self.table.clear()

    # -- the search ------------------------------------------------------------

    def search(
        self, position: P, alpha: float, beta: float, ply: int = 0, depth: int = FULL_DEPTH
    ) -> float:
        """Negamax value of ``position`` for the side to move, ``ply`` plies
        below the root, searched ``depth`` more plies.

        Fail-soft alpha-beta: the result is exact when it lies strictly inside
        (alpha, beta); at or above ``beta`` it is a lower bound, at or below
        ``alpha`` an upper bound (and the table records which).

        Search state (node count, deadline) lives in the engine, so one engine
        serves one search at a time; the web server keeps one per game behind
        a lock."""
        game = self.game
        self.nodes += 1
        if (
            self._deadline is not None
            and self.nodes & 1023 == 0
            and time.perf_counter() > self._deadline
        ):
            raise SearchTimeout("search deadline reached")
        if game.is_terminal(position):
            value = game.utility(position, ply)
            return value if game.to_move(position) == game.players[0] else -value
        if depth <= 0:
            self._horizon = True
            return game.evaluate(position)

        key = game.key(position)
        entry = self.table.get(key)
        hint: M | None = None
        if entry is not None:
            stored, flag, hint, stored_depth = entry
            if stored_depth >= depth:
                if stored_depth < FULL_DEPTH:
                    self._horizon = True  # a depth-limited guess, not a proof
                value = _from_table(stored, ply)
                if (
                    flag == EXACT
                    or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)
                ):
                    return value

        original_alpha = alpha
        # Track whether *this* subtree meets the depth limit: if it does not,
        # its result is a proof, valid at any depth, and is stored as such.
        outer_horizon, self._horizon = self._horizon, False
        best, best_move = -math.inf, None
        moves = game.ordered_moves(position)
        if hint is not None:
            moves = [hint, *(m for m in moves if m != hint)]
        for move in moves:
            value = -self.search(game.play(position, move), -beta, -alpha, ply + 1, depth - 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break

        proven = not self._horizon
        self._horizon = outer_horizon or self._horizon
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        table = self.table
        if key not in table and len(table) >= self.max_entries:
            del table[next(iter(table))]  # evict the oldest entry
        table[key] = (_to_table(best, ply), flag, best_move, FULL_DEPTH if proven else depth)
        return best

    def best_known_move(self, position: P) -> M | None:
        """The table's best move for ``position``, if it was searched."""
        entry = self.table.get(self.game.key(position))
        return None if entry is None else entry[2]

    # -- entry points -----------------------------------------------------------

    def solve(self, position: P, deadline: float | None = None, weak: bool = False) -> Solved:
        """Value of ``position`` for the side to move (the Engine protocol).

        Without a deadline, one full-depth search proves the value. With one,
        iterative deepening runs until the value is proven or time is up; an
        unproven answer has ``exact=False`` and the deepest iteration's move.
        ``weak`` searches the window (-1, 1): win/draw/loss only, no distance.
        """
        start_nodes = self.nodes
        if self.game.is_terminal(position):
            value = self.search(position, -math.inf, math.inf)
            return Solved(
                outcome_from_value(self.game, position, value), self.nodes - start_nodes, None
            )
        if deadline is None:
            self._deadline = None
            alpha, beta = (-1.0, 1.0) if weak else (-math.inf, math.inf)
            value = self.search(position, alpha, beta)
            return Solved(
                self._weak(position, value)
                if weak
                else outcome_from_value(self.game, position, value),
                self.nodes - start_nodes,
                self.best_known_move(position),
                move_proven=True,
            )
        last: Iteration | None = None
        try:
            for last in self.iterate(position, deadline):
                if last.exact:
                    break
        except SearchTimeout:
            pass
        nodes = self.nodes - start_nodes
        if last is None:  # not even depth 1 finished: any legal move beats none
            moves = self.game.ordered_moves(position)
            return Solved(Outcome("unknown", None, False), nodes, moves[0] if moves else None)
        outcome = outcome_from_value(self.game, position, last.value, last.exact)
        if weak and outcome.exact:
            outcome = Outcome(outcome.result, None, True)
        return Solved(outcome, nodes, last.move, move_proven=last.exact)

    def _weak(self, position: P, value: float) -> Outcome:
        if value >= 1:
            return Outcome("win", None)
        return Outcome("loss", None) if value <= -1 else Outcome("draw", None)

    def iterate(
        self, position: P, deadline: float | None = None, max_depth: int | None = None
    ) -> Iterator[Iteration]:
        """Iterative deepening: yield one :class:`Iteration` per completed depth.

        The caller decides when to stop; the generator stops by itself once a
        depth's value is proven (no leaf was cut off by the depth limit, or the
        value is a proven win or loss). Raises :class:`SearchTimeout` from
        inside a depth when ``deadline`` passes.
        """
        self._deadline = deadline
        try:
            depth = 1
            while max_depth is None or depth <= max_depth:
                self._horizon = False
                start = self.nodes
                value = self.search(position, -math.inf, math.inf, 0, depth)
                exact = not self._horizon or abs(value) >= 1
                yield Iteration(
                    depth, value, self.best_known_move(position), exact, self.nodes - start
                )
                if exact:
                    return
                depth += 1
        finally:
            self._deadline = None


def _to_table(value: float, ply: int) -> float:
    """Root-relative score -> relative to the node being stored."""
    if value >= 1:
        return value + ply
    if value <= -1:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    """Node-relative stored score -> relative to the current root."""
    if value >= 1:
        return value - ply
    if value <= -1:
        return value + ply
    return value
