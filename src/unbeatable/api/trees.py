"""Game trees as the textbook's algorithms walk them: below a position
(:func:`tree`) or over leaf scores (:func:`textbook_tree`); the tracer is
:mod:`unbeatable.search.explore`'s, imported on first use."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from unbeatable.api import engines
from unbeatable.api.request import TimeLimit, asked
from unbeatable.games import GameError

if TYPE_CHECKING:
    from unbeatable.games import Game
    from unbeatable.search.explore import Cutoff, TracedTree, TreeAlgorithm


def _tree_algorithm(algorithm: str) -> TreeAlgorithm:
    from unbeatable.search.explore import TREE_ALGORITHMS

    for known in TREE_ALGORITHMS:
        if algorithm == known:
            return known
    names = " or ".join(TREE_ALGORITHMS)
    raise GameError(f"unknown algorithm {algorithm!r} (use {names})")


def _cutoff(cutoff: str) -> Cutoff:
    from unbeatable.search.explore import CUTOFFS

    for known in CUTOFFS:
        if cutoff == known:
            return known
    raise GameError(f"unknown cutoff {cutoff!r} (use {' or '.join(CUTOFFS)})")


def tree(
    game: str | Game[Any, Any],
    position: Any,
    *,
    depth: int = 2,
    algorithm: str = "minimax",
    time_limit: TimeLimit = None,
    stop: threading.Event | None = None,
    cutoff: str = "exact",
) -> TracedTree:
    """The game tree below ``position``, ``depth`` plies deep, as minimax or
    alpha-beta (``algorithm``) walks it: every node with its move, position,
    value (``result``/``plies`` for the player who made the move, as in
    analysis; ``score`` for the root player, as in the textbook), whether it
    is on the best line, the order it was entered in, alpha and beta then, and
    whether alpha-beta pruned it. Leaves at the depth limit are valued exactly
    by the engine (within ``time_limit``: None or ``math.inf`` for none,
    :data:`GAME_DEFAULT` for the game's budget), or with
    ``cutoff="heuristic"`` by the game's evaluation function, as depth-limited
    search sees them (a value resting on an estimate has the ``result``
    ``unknown``). Raises :class:`TreeTooLarge` (a :class:`GameError`) for
    more than 5,000 nodes, and :class:`GameError` for heuristic leaves in a
    game without an evaluation function."""
    from unbeatable.search.explore import trace

    walk = _tree_algorithm(algorithm)
    valued = _cutoff(cutoff)
    request = asked(game, position, math.inf, time_limit, stop=stop)
    rules, pos = request.game, request.position
    solver = engines.engine(rules) if valued == "exact" else None
    return trace(rules, pos, depth, solver, request.limits(), walk, valued)


def textbook_tree(leaves: str | Sequence[Any], algorithm: str = "minimax") -> TracedTree:
    """The textbook exercise: minimax or alpha-beta over a tree of leaf scores,
    MAX to move at the root; the same tree as :func:`tree` gives, without
    ``result``/``plies``. ``leaves`` is a power of two of numbers (or their
    text, as typed on a command line) for a binary tree, nested lists for any
    other shape, or those nested lists as JSON text."""
    from unbeatable.games.tree import parse_leaf, tree_from_json, tree_from_leaves, tree_from_lists
    from unbeatable.search.explore import trace_textbook

    walk = _tree_algorithm(algorithm)
    try:
        items: list[Any] = [] if isinstance(leaves, str) else list(leaves)
        if isinstance(leaves, str):
            shape = tree_from_json(leaves)
        elif items and all(isinstance(x, str) for x in items):
            shape = tree_from_leaves([parse_leaf(x) for x in items])
        elif all(isinstance(x, int | float) and not isinstance(x, bool) for x in items):
            shape = tree_from_leaves(items)
        else:
            shape = tree_from_lists(items)
    except GameError as exc:  # the games module speaks of positions; these are leaves
        raise GameError(f"leaves: {exc}") from None
    return trace_textbook(shape, walk)


__all__ = ["textbook_tree", "tree"]
