"""An explicit game tree of leaf scores: the textbook minimax exercise as a Game.

The tree is nested lists: an inner node is a non-empty list of children, a leaf
a number (its score for the maximiser). ``MAX`` moves at the root and the
levels alternate. Because it implements the Game protocol, the very same
:func:`~unbeatable.search.minimax.minimax` and
:func:`~unbeatable.search.minimax.alphabeta` that play tic-tac-toe evaluate it.

A position is the path from the root: the tuple of child indices taken.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from unbeatable.games.base import Game, IllegalMoveError, InvalidPositionError

Tree = float | list["Tree"]
Path = tuple[int, ...]

#: Bounds that keep any tree small enough to search and draw instantly.
MAX_LEAVES = 4096
MAX_DEPTH = 16


def tree_from_leaves(leaves: Sequence[float]) -> Tree:
    """A complete binary tree over ``leaves`` (their number must be a power of two)."""
    n = len(leaves)
    if n < 1 or n & (n - 1):
        raise InvalidPositionError(
            f"got {n}, but a binary tree needs a power of two (2, 4, 8, 16, ...) of them; "
            "use a nested JSON list for other shapes"
        )
    if n > MAX_LEAVES:
        raise InvalidPositionError(f"got {n}, but at most {MAX_LEAVES} are supported")
    level: list[Tree] = list(leaves)
    if n == 1:
        return level
    while len(level) > 1:
        level = [[level[i], level[i + 1]] for i in range(0, len(level), 2)]
    return level[0]


def parse_leaf(text: str) -> float:
    """A leaf score from the command line: a finite number."""
    try:
        value = float(text)
    except ValueError:
        raise InvalidPositionError(f"leaf {text!r} is not a number") from None
    if not math.isfinite(value):
        raise InvalidPositionError(f"leaf {text!r} is not a finite number")
    return int(value) if value.is_integer() else value


def tree_from_json(text: str) -> Tree:
    """A tree from nested JSON lists of numbers, e.g. ``[[3, 5], [2, [9, 1]]]``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidPositionError(f"not valid JSON: {exc.msg} at character {exc.pos}") from None
    return tree_from_lists(data)


def tree_from_lists(data: Any) -> Tree:
    """A tree from nested lists of numbers (as JSON reads them), checked:
    finite numbers, no empty inner node, within :data:`MAX_DEPTH` and
    :data:`MAX_LEAVES`, and a list at the root."""
    leaves = 0

    def check(node: Any, depth: int, where: str) -> Tree:
        nonlocal leaves
        if isinstance(node, bool) or not isinstance(node, int | float | list):
            raise InvalidPositionError(
                f"{where}: expected a number or a list of children, "
                f"got {json.dumps(node, default=repr)}"
            )
        if isinstance(node, list):
            if not node:
                raise InvalidPositionError(f"{where}: an inner node needs at least one child")
            if depth >= MAX_DEPTH:
                raise InvalidPositionError(f"tree deeper than {MAX_DEPTH} levels")
            return [check(child, depth + 1, f"{where}[{i}]") for i, child in enumerate(node)]
        leaves += 1
        if leaves > MAX_LEAVES:
            raise InvalidPositionError(f"more than {MAX_LEAVES} leaves")
        if not math.isfinite(node):
            raise InvalidPositionError(f"{where}: leaf is not a finite number")
        return node

    tree = check(data, 0, "root")
    if not isinstance(tree, list):
        raise InvalidPositionError("the root must be a list of children, not a single number")
    return tree


class ExplicitTree(Game[Path, int]):
    """A fixed tree of leaf scores; MAX to move at the root."""

    name = "tree"
    players = ("MAX", "MIN")
    win_score = 0  # leaf scores are given as they are: no depth-aware adjustment

    def __init__(self, tree: Tree) -> None:
        self.tree = tree

    def node(self, path: Path) -> Tree:
        node = self.tree
        for i in path:
            assert isinstance(node, list)
            node = node[i]
        return node

    def initial(self) -> Path:
        return ()

    def parse(self, text: str) -> Path:
        """A path such as ``0.1.1`` (child indices from the root); ``root`` is ()."""
        text = text.strip()
        if text in ("", "root"):
            return ()
        try:
            path = tuple(int(part) for part in text.split("."))
        except ValueError:
            raise InvalidPositionError(f"bad path {text!r}: use child indices like 0.1.1") from None
        node = self.tree
        for i in path:
            if not isinstance(node, list) or not 0 <= i < len(node):
                raise InvalidPositionError(f"path {text!r} leaves the tree")
            node = node[i]
        return path

    def format(self, position: Path) -> str:
        return ".".join(map(str, position)) or "root"

    def to_move(self, position: Path) -> str:
        return self.players[len(position) % 2]

    def moves(self, position: Path) -> list[int]:
        node = self.node(position)
        return list(range(len(node))) if isinstance(node, list) else []

    def play(self, position: Path, move: int) -> Path:
        return (*position, move)

    def winner(self, position: Path) -> str | None:
        return None

    def is_terminal(self, position: Path) -> bool:
        return not isinstance(self.node(position), list)

    def key(self, position: Path) -> Path:
        return position

    def parse_move(self, position: Path, text: str) -> int:
        legal = self.moves(position)
        if not text.strip().isdigit() or int(text) not in legal:
            raise IllegalMoveError(f"bad move {text!r}: choose a child index 0-{len(legal) - 1}")
        return int(text)

    def format_move(self, move: int) -> str:
        return str(move)

    def move_fields(self, move: int) -> dict[str, Any]:
        return {"child": move}

    def utility(self, position: Path, plies: int) -> float:
        leaf = self.node(position)
        assert not isinstance(leaf, list)
        return leaf
