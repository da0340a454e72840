"""Minimax and alpha-beta, written to be read beside the textbook pseudocode.

Values are from the *maximiser's* view (``game.players[0]``, x in tic-tac-toe):
``max_value`` and ``min_value`` call each other, one level per ply. Terminal
positions are scored by ``game.utility(position, plies)``: for win/loss games
that is ``win_score - plies`` for a win of the first player, its negative for
a win of the second and 0 for a draw (tic-tac-toe's ``win_score`` is 10: +10
for x, -10 for o, one less per ply), so the maximiser prefers the fastest win
and the slowest loss.

These are teaching engines: no tables, no ordering, nothing hidden. The
production engine is :mod:`unbeatable.search.negamax`. Both functions accept an
optional ``on_node(position, value)`` callback, called once per visited node
after its value is known, to watch the search (the tests do). The ``tree``
command and Learn draw :mod:`unbeatable.search.explore`'s replays instead,
which record alpha, beta and every line of the pseudocode as they run.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from unbeatable.games.base import Game
from unbeatable.search.analysis import resisting
from unbeatable.search.engine import (
    UNKNOWN,
    UNLIMITED,
    Limits,
    Outcome,
    SearchTimeout,
    Solved,
    outcome_from_value,
)

P = TypeVar("P")
M = TypeVar("M")

NodeCallback = Callable[[Any, float], None]


@dataclass(slots=True)
class Stats:
    """Work done by one search."""

    nodes: int = 0
    cutoffs: int = 0


class _Budget:
    """Limits check shared by the teaching engines (every 1,024 nodes, so that
    the clock costs nothing measurable)."""

    __slots__ = ("limits", "stats")

    def __init__(self, stats: Stats, limits: Limits) -> None:
        self.stats = stats
        self.limits = limits

    def visit(self) -> None:
        self.stats.nodes += 1
        if self.stats.nodes & 1023 == 0 and self.limits.bounded and self.limits.expired():
            raise SearchTimeout("search limits reached", self.stats.nodes)


def minimax(
    game: Game[P, M],
    position: P,
    plies: int = 0,
    *,
    on_node: NodeCallback | None = None,
    limits: Limits = UNLIMITED,
) -> tuple[float, Stats]:
    """The minimax value of ``position`` (maximiser's view) and the work done.

    ``plies`` is how deep ``position`` lies below the root whose moves are being
    valued, so that depth-aware scores count from that root.
    """
    stats = Stats()
    budget = _Budget(stats, limits)
    maximiser = game.players[0]

    def max_value(state: P, depth: int) -> float:
        budget.visit()
        if game.is_terminal(state):
            value = game.utility(state, depth)
        else:
            value = -math.inf
            for move in game.moves(state):
                value = max(value, min_value(game.play(state, move), depth + 1))
        if on_node is not None:
            on_node(state, value)
        return value

    def min_value(state: P, depth: int) -> float:
        budget.visit()
        if game.is_terminal(state):
            value = game.utility(state, depth)
        else:
            value = math.inf
            for move in game.moves(state):
                value = min(value, max_value(game.play(state, move), depth + 1))
        if on_node is not None:
            on_node(state, value)
        return value

    first = max_value if game.to_move(position) == maximiser else min_value
    return first(position, plies), stats


def alphabeta(
    game: Game[P, M],
    position: P,
    plies: int = 0,
    *,
    on_node: NodeCallback | None = None,
    limits: Limits = UNLIMITED,
) -> tuple[float, Stats]:
    """Minimax with alpha-beta pruning: the same value, fewer nodes.

    ``alpha`` is the best value the maximiser is already sure of on the path to
    the root, ``beta`` the best the minimiser is sure of. Once a node's value
    can no longer fall between them its remaining moves cannot matter, so they
    are skipped (a *cut-off*). The root is searched with the full window, so the
    returned value is exact.
    """
    stats = Stats()
    budget = _Budget(stats, limits)
    maximiser = game.players[0]

    def max_value(state: P, depth: int, alpha: float, beta: float) -> float:
        budget.visit()
        if game.is_terminal(state):
            value = game.utility(state, depth)
        else:
            value = -math.inf
            for move in game.moves(state):
                value = max(value, min_value(game.play(state, move), depth + 1, alpha, beta))
                if value >= beta:
                    stats.cutoffs += 1
                    break
                alpha = max(alpha, value)
        if on_node is not None:
            on_node(state, value)
        return value

    def min_value(state: P, depth: int, alpha: float, beta: float) -> float:
        budget.visit()
        if game.is_terminal(state):
            value = game.utility(state, depth)
        else:
            value = math.inf
            for move in game.moves(state):
                value = min(value, max_value(game.play(state, move), depth + 1, alpha, beta))
                if value <= alpha:
                    stats.cutoffs += 1
                    break
                beta = min(beta, value)
        if on_node is not None:
            on_node(state, value)
        return value

    first = max_value if game.to_move(position) == maximiser else min_value
    return first(position, plies, -math.inf, math.inf), stats


Algorithm = Callable[..., tuple[float, Stats]]


class TextbookEngine:
    """Adapts :func:`minimax` or :func:`alphabeta` to the Engine protocol, so
    analysis can run on the teaching engines too (and be checked against the
    production one). Nothing is remembered between queries."""

    def __init__(self, game: Game[Any, Any], algorithm: Algorithm) -> None:
        self.game = game
        self.algorithm = algorithm

    def solve(self, position: Any, limits: Limits = UNLIMITED, weak: bool = False) -> Solved:
        """The value and the best move: the root's children searched one by
        one, the first of the best values in tie-break order kept (in a lost
        position the most resisting, :func:`analysis.resisting`), as analysis
        picks it (minimax visits the same nodes as from the root; alpha-beta
        gives up its cut-offs at the root, to value every child exactly)."""
        game = self.game
        if game.is_terminal(position):
            return self.value(position, limits, weak)
        sign = 1 if game.to_move(position) == game.players[0] else -1
        values, nodes = [], 1
        try:
            for move in game.tie_break(position, game.moves(position)):
                value, stats = self.algorithm(game, game.play(position, move), 1, limits=limits)
                nodes += stats.nodes
                values.append((move, sign * value))
        except SearchTimeout as timeout:
            return Solved(UNKNOWN, nodes + timeout.nodes)
        best = max(value for _, value in values)
        equal = [move for move, value in values if value == best]
        best_move = next(resisting(game, position, equal)) if best <= -1 else equal[0]
        return Solved(self._outcome(position, best, weak), nodes, best_move, move_proven=True)

    def value(self, position: Any, limits: Limits = UNLIMITED, weak: bool = False) -> Solved:
        """The outcome for the side to move, from one search of ``position``."""
        try:
            value, stats = self.algorithm(self.game, position, limits=limits)
        except SearchTimeout as timeout:
            return Solved(UNKNOWN, timeout.nodes)
        if self.game.to_move(position) != self.game.players[0]:
            value = -value
        return Solved(self._outcome(position, value, weak), stats.nodes)

    def _outcome(self, position: Any, value: float, weak: bool) -> Outcome:
        outcome = outcome_from_value(self.game, position, value)
        return Outcome(outcome.result, None) if weak else outcome

    def guess(self, position: Any) -> Solved:
        """The best move, searched exactly (these engines have no cheaper guess)."""
        return self.solve(position)
