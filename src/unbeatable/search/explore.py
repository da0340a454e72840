"""The game tree made visible: minimax and alpha-beta, step by step.

:func:`game_tree` builds the tree below a position to a depth (every node of
it, so that a learner sees what alpha-beta skips), scores its leaves (a
finished game by the game's depth-aware utility; a position at the depth
limit by its exact value from an engine, or by the leaf score of a textbook
tree), then replays the chosen algorithm over it, recording for every node
when it was entered, alpha and beta at that moment, what value the algorithm
returned for it (a bound, when alpha-beta cut off below it) and whether it was
ever looked at. The exact minimax value of every node and the line of best
play are recorded too, so pruned nodes can still be shown, faded.

Values are from the root player's view (the maximizer, ``MAX`` in the
textbook), as in the textbook pictures; :meth:`Node.to_dict` also gives each
move's value from the view of the player making it (``result``/``plies``), as
analysis does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unbeatable.games.base import Game, GameError

#: Largest tree drawn: bigger requests are refused (ask for less depth).
MAX_NODES = 5000


class TreeTooLarge(GameError):
    """The requested tree has more nodes than :data:`MAX_NODES`."""


@dataclass(slots=True, eq=False)
class Node:
    """One node of a traced tree."""

    move: Any
    position: Any
    ply: int
    children: list[Node] = field(default_factory=list)
    #: Minimax value (root player's view); exact unless a leaf below it that
    #: it depends on could not be valued (then ``exact`` is False).
    minimax: float = 0.0
    exact: bool = True
    #: The value the replayed algorithm returned here, and whether it is only a
    #: bound (``"lower"``: at least; ``"upper"``: at most).
    value: float | None = None
    bound: str | None = None
    #: 1-based order in which the algorithm entered the node (None: pruned).
    order: int | None = None
    #: How many nodes had been entered when its value was known.
    known_at: int | None = None
    alpha: float | None = None
    beta: float | None = None
    best: bool = False

    @property
    def pruned(self) -> bool:
        return self.order is None

    def count(self) -> int:
        return 1 + sum(child.count() for child in self.children)


#: Scores a leaf at the depth limit: (root player's value, whether exact).
LeafValue = Callable[[Any, int], tuple[float, bool]]


def game_tree(
    game: Game[Any, Any],
    position: Any,
    depth: int,
    leaf_value: LeafValue,
    alphabeta: bool = False,
    max_nodes: int = MAX_NODES,
) -> Node:
    """The traced tree below ``position``, ``depth`` plies deep.

    ``leaf_value(position, ply)`` scores a position at the depth limit that is
    not finished (root player's view, depth-aware like ``game.utility``).
    Raises :class:`TreeTooLarge` before any work if the tree would have more
    than ``max_nodes`` nodes.
    """
    if depth < 0:
        raise GameError(f"depth must be 0 or more, got {depth}")
    root = Node(None, position, 0)
    _expand(game, root, depth, max_nodes, [1])
    maximizer = game.to_move(position)
    _score(game, root, depth, leaf_value, maximizer)
    _mark_best(game, root, maximizer)
    counter = [0]
    if alphabeta:
        _alphabeta(game, root, maximizer, -math.inf, math.inf, counter)
    else:
        _minimax(game, root, counter)
    return root


def _expand(game: Game[Any, Any], node: Node, depth: int, limit: int, seen: list[int]) -> None:
    if node.ply >= depth or game.is_terminal(node.position):
        return
    for move in game.moves(node.position):
        seen[0] += 1
        if seen[0] > limit:
            raise TreeTooLarge(
                f"the tree has more than {limit:,} nodes at depth {depth}: ask for less depth"
            )
        child = Node(move, game.play(node.position, move), node.ply + 1)
        node.children.append(child)
    for child in node.children:
        _expand(game, child, depth, limit, seen)


def _score(
    game: Game[Any, Any], node: Node, depth: int, leaf_value: LeafValue, maximizer: str
) -> float:
    """Fill every node's exact minimax value (the root player's view)."""
    if game.is_terminal(node.position):
        value = game.utility(node.position, node.ply)
        # utility is players[0]'s view; turn it to the root player's.
        node.minimax = value if maximizer == game.players[0] else -value
    elif not node.children:
        node.minimax, node.exact = leaf_value(node.position, node.ply)
    else:
        values = [_score(game, child, depth, leaf_value, maximizer) for child in node.children]
        mover = game.to_move(node.position)
        node.minimax = max(values) if mover == maximizer else min(values)
        node.exact = all(child.exact for child in node.children)
    return node.minimax


def _mark_best(game: Game[Any, Any], node: Node, maximizer: str) -> None:
    """Mark the line of best play: at each node the first child, in the game's
    tie-break order, whose value is the node's."""
    node.best = True
    if not node.children:
        return
    child_of = {child.move: child for child in node.children}
    for move in game.tie_break(node.position, list(child_of)):
        child = child_of[move]
        if child.minimax == node.minimax:
            _mark_best(game, child, maximizer)
            return


def _minimax(game: Game[Any, Any], node: Node, counter: list[int]) -> float:
    counter[0] += 1
    node.order = counter[0]
    for child in node.children:
        _minimax(game, child, counter)
    node.value = node.minimax
    node.known_at = counter[0]
    return node.minimax


def _alphabeta(
    game: Game[Any, Any],
    node: Node,
    maximizer: str,
    alpha: float,
    beta: float,
    counter: list[int],
) -> float:
    """Textbook alpha-beta (MAX raises alpha, MIN lowers beta) over the built
    tree; children it never enters stay pruned."""
    counter[0] += 1
    node.order, node.alpha, node.beta = counter[0], alpha, beta
    if not node.children:
        value = node.minimax
    elif game.to_move(node.position) == maximizer:
        value = -math.inf
        for child in node.children:
            value = max(value, _alphabeta(game, child, maximizer, alpha, beta, counter))
            if value >= beta:
                node.bound = "lower"  # the rest cannot matter: MIN avoids this node
                break
            alpha = max(alpha, value)
    else:
        value = math.inf
        for child in node.children:
            value = min(value, _alphabeta(game, child, maximizer, alpha, beta, counter))
            if value <= alpha:
                node.bound = "upper"  # MAX avoids this node
                break
            beta = min(beta, value)
    node.value = value
    node.known_at = counter[0]
    return value


def to_dict(
    game: Game[Any, Any],
    node: Node,
    outcome: Callable[[Node], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The JSON form of a traced tree (``unbeatable tree --json``, ``/api/tree``).

    ``outcome(node)`` adds game-specific fields (result and plies for the
    player who made the move); textbook trees have none.
    """
    data: dict[str, Any] = {
        "move": None if node.move is None else game.format_move(node.move),
        "position": game.format(node.position),
        "to_move": game.to_move(node.position),
        "score": _number(node.minimax),
    }
    if outcome is not None:
        data.update(outcome(node))
    data.update(
        {
            "value": None if node.value is None else _number(node.value),
            "bound": node.bound,
            "best": node.best,
            "order": node.order,
            "known_at": node.known_at,
            "alpha": None if node.alpha is None else _number(node.alpha),
            "beta": None if node.beta is None else _number(node.beta),
            "pruned": node.pruned,
            "children": [to_dict(game, child, outcome) for child in node.children],
        }
    )
    return data


def _number(value: float) -> float | int | str:
    """JSON-friendly: whole numbers as ints, infinities as strings."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value


def visited(node: Node) -> int:
    """Nodes the algorithm entered."""
    return (0 if node.pruned else 1) + sum(visited(child) for child in node.children)
