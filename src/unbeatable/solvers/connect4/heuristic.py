"""Best guess when time runs out: a short depth-limited search with a heuristic.

The evaluation (:func:`.kernel.evaluate`) counts open threats, favouring
those on rows of the owner's parity (odd rows for the first player, even for
the second: who gets to fill which row decides most Connect Four endgames),
plus centre-column stones. The search (:func:`.kernel.search` with a horizon) deepens one ply
at a time within a fixed node budget, so a guess costs a few milliseconds
whatever the position. When the search proves the game's end within its
horizon, the guess is exact.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np

from unbeatable.games.connect4 import Connect4Position, rules_for
from unbeatable.search.engine import UNKNOWN, Outcome, Result
from unbeatable.solvers.connect4.kernel import PROVEN, for_shape

#: Node budget of a guess (~5-20 ms).
GUESS_NODES = 100_000
_INF = 1 << 40
#: Depth-limited search never touches the table.
_NO_TABLE = np.zeros(1, dtype=np.uint64)


@dataclass(frozen=True, slots=True)
class Guess:
    """A depth-limited answer: outcome (exact only if proven), move, work done."""

    outcome: Outcome
    move: int | None
    nodes: int
    depth: int


def best_guess(
    position: Connect4Position, nodes: int = GUESS_NODES, exclude: Collection[int] = ()
) -> Guess:
    """Best move by iterative deepening within ``nodes`` nodes (at least depth 1).

    ``exclude``: moves already proven to give value away (a timed-out exact
    search's findings), left out unless nothing else remains.
    """
    game, shape = rules_for(position.shape), position.shape
    moves = game.ordered_moves(position)
    if not moves:
        return Guess(UNKNOWN, None, 0, 0)
    for col in moves:
        if game.play(position, col).winner is not None:
            return Guess(Outcome(Result.win, 1), col, len(moves), 1)
    kernel = for_shape(shape)
    bits, ints = kernel.new_stacks()
    stats = kernel.new_stats()
    columns = np.zeros(shape.columns, dtype=np.int64)
    cur, mask = np.uint64(position.current()), np.uint64(position.mask)
    count = kernel.ordered_children(cur, mask, columns)
    candidates = [int(c) for c in columns[:count]]
    candidates = [c for c in candidates if c not in exclude] or candidates
    if not candidates:  # every move loses at once
        return Guess(Outcome(Result.loss, 2), moves[0], 1, 1)
    stats[kernel.BUDGET] = nodes
    best_move, best_value, reached = candidates[0], 0, 0
    for depth in range(1, shape.cells + 1 - position.stones):
        value, move = -_INF, candidates[0]
        for col in candidates:
            child = game.play(position, col)
            v = -kernel.search(
                np.uint64(child.current()),
                np.uint64(child.mask),
                child.stones,
                -_INF,
                -value,
                depth - 1,
                _NO_TABLE,
                bits,
                ints,
                stats,
                False,
            )
            if stats[kernel.ABORTED]:
                break
            if v > value:
                value, move = v, col
        if stats[kernel.ABORTED]:
            break
        best_move, best_value, reached = move, value, depth
        # Best first next time: the principal move leads the deeper search.
        candidates.remove(move)
        candidates.insert(0, move)
        if abs(value) >= PROVEN:
            break
    spent = int(stats[kernel.NODES])
    if reached and abs(best_value) >= PROVEN:
        result, plies = shape.pons_outcome(position.stones, best_value // PROVEN)
        return Guess(Outcome(Result(result), plies), best_move, spent, reached)
    return Guess(UNKNOWN, best_move, spent, reached)
