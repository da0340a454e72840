"""The game tree made visible: minimax and alpha-beta, step by step.

:func:`game_tree` builds the tree below a position to a depth (every node of
it, so that a learner sees what alpha-beta skips), scores its leaves (a
finished game by the game's depth-aware utility; a position at the depth
limit by its exact value from an engine, by the game's evaluation function
(``cutoff="heuristic"``: the classic depth-limited search, horizon effect
and all), or by the leaf score of a textbook tree), then replays the chosen
algorithm over it, recording for every node when it was entered, alpha and
beta at that moment, what value the algorithm returned for it (a bound, when
alpha-beta cut off below it) and whether it was ever looked at. The minimax
value of every node and the line of best play are recorded too, so pruned
nodes can still be shown, faded.

Values are from the root player's view (the maximiser, ``MAX`` in the
textbook), as in the textbook pictures; :func:`trace` also gives each move's
value from the view of the player making it (``result``/``plies``), as
analysis does. The answer is a :class:`TracedTree` of :class:`TreeNode`:
moves and positions in the game's notation, ready to show or to send.

The walk is also recorded line by line: the tree carries the algorithm's
pseudocode (:func:`pseudocode`, the textbook's MAX-VALUE and MIN-VALUE) and
the :class:`TraceStep` each line run made, with v, alpha and beta after it,
so that a face can show the line the walk is on without a second copy of the
algorithm. The replays below are written line for line as that pseudocode.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, NamedTuple

from unbeatable.answers import answer, computed, json_object
from unbeatable.answers import field as json_field
from unbeatable.games.base import Game, GameError
from unbeatable.games.tree import MAX_DEPTH, ExplicitTree, Tree
from unbeatable.search.engine import UNKNOWN, Engine, Limits, Outcome, Result

#: Largest tree drawn: bigger requests are refused (ask for less depth).
MAX_NODES = 5000


class TreeAlgorithm(StrEnum):
    """The walks a tree can be traced with."""

    minimax = "minimax"
    alphabeta = "alphabeta"


TREE_ALGORITHMS: tuple[TreeAlgorithm, ...] = tuple(TreeAlgorithm)


class Cutoff(StrEnum):
    """How positions at the depth limit are valued: exactly, by an engine,
    or by the game's evaluation function (:meth:`Game.static_evaluation`),
    as the textbooks' depth-limited search does."""

    exact = "exact"
    heuristic = "heuristic"


CUTOFFS: tuple[Cutoff, ...] = tuple(Cutoff)


class Bound(StrEnum):
    """Whether alpha-beta's value at a node is only a bound: at least
    (``"lower"``, it cut off: MIN avoids the node) or at most (``"upper"``:
    MAX avoids it). (The members' names are not ``lower`` and ``upper``,
    which would hide ``str``'s methods of those names.)"""

    at_least = "lower"
    at_most = "upper"


class StepKind(StrEnum):
    """What one line of the pseudocode did, as a step of the walk: ``enter``
    (a node's v starts at -inf or +inf), ``terminal`` (a finished game or a
    textbook leaf returns its utility), ``cutoff`` (a position at the depth
    limit returns its estimate or solved value), ``update`` (v takes in a
    child's value), ``pass``/``cut`` (alpha-beta's test: go on, or return at
    once), ``alpha``/``beta`` (the window narrows), ``return`` (every child
    seen) and ``result`` (the search answers the root's value). (``pass``
    and ``return`` are Python's words: those members are ``passes`` and
    ``returns``.)"""

    enter = "enter"
    terminal = "terminal"
    cutoff = "cutoff"
    update = "update"
    passes = "pass"
    cut = "cut"
    alpha = "alpha"
    beta = "beta"
    returns = "return"
    result = "result"


class Function(StrEnum):
    """Which function of the pseudocode runs a line."""

    SEARCH = "SEARCH"
    MAX = "MAX"
    MIN = "MIN"


#: How JSON writes an infinite alpha, beta or v (it has no infinity).
Infinity = Literal["inf", "-inf"]


def _number(value: float) -> float | int | str:
    """JSON-friendly: whole numbers as ints, infinities as strings."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return int(value) if float(value).is_integer() else value


def _maybe(value: float | None) -> float | int | str | None:
    return None if value is None else _number(value)


def _in_a_game(node: TreeNode) -> bool:
    return node.result is not None


@answer(
    "One node of a traced tree.",
    move=json_field("The move into this node (null at the root)."),
    score=json_field(
        "Minimax value for the root player (MAX); with heuristic leaves, an estimate, or "
        "beyond estimate_bound a game finished in the tree.",
        write=_number,
        shape=float,
    ),
    result=json_field(
        "For the player who made the move (absent on a tree of leaf scores).",
        when=_in_a_game,
    ),
    plies=json_field("Plies to the end, the move included.", when=_in_a_game),
    value=json_field("What the algorithm returned here.", write=_maybe, shape=float | None),
    bound=json_field("When that value is a bound."),
    best=json_field("On the line of best play."),
    order=json_field("When the algorithm entered it (null: pruned)."),
    known_at=json_field("Entries made when its value was known."),
    alpha=json_field(
        "Alpha when alpha-beta entered it.", write=_maybe, shape=float | Infinity | None
    ),
    beta=json_field(
        "Beta when alpha-beta entered it.", write=_maybe, shape=float | Infinity | None
    ),
    pruned=computed(lambda node: node.pruned, bool),
    json_order=(
        "move",
        "position",
        "to_move",
        "score",
        "result",
        "plies",
        "value",
        "bound",
        "best",
        "order",
        "known_at",
        "alpha",
        "beta",
        "pruned",
        "children",
    ),
)
class TreeNode(NamedTuple):
    """One node of a traced tree, as faces show it."""

    #: The move into this node in the game's notation (None at the root).
    move: str | None
    #: The node's position in the game's notation.
    position: str
    #: The player to move here.
    to_move: str
    #: The minimax value for the root player (MAX): exact, unless the leaves
    #: at the cut-off are estimates (``cutoff="heuristic"``: then a finished
    #: game scores beyond the evaluation's bound, a win for MAX above it).
    score: float
    #: The value for the player who made the move into the node (at the
    #: root, for the side to move): ``unknown`` when a leaf below could not
    #: be valued, or was only estimated. None on textbook trees, which have
    #: no game to win.
    result: Result | None
    #: Plies to the end of the game under best play, the move included.
    plies: int | None
    #: What the algorithm returned here (None if it never entered the node).
    value: float | None
    #: When ``value`` is only a bound (alpha-beta cut off below the node).
    bound: Bound | None
    #: On the line of best play.
    best: bool
    #: When the algorithm entered the node, 1 first (None: pruned).
    order: int | None
    #: How many nodes had been entered when its value was known.
    known_at: int | None
    #: Alpha and beta as alpha-beta entered the node (None with minimax).
    alpha: float | None
    beta: float | None
    children: tuple[TreeNode, ...]

    @property
    def pruned(self) -> bool:
        """Whether the algorithm never looked at the node."""
        return self.order is None

    def walk(self) -> list[TreeNode]:
        """This node and every node below it, depth first, left to right."""
        out = [self]
        for child in self.children:
            out.extend(child.walk())
        return out

    def to_dict(self) -> dict[str, Any]:
        """Infinite alpha and beta written ``"inf"``/``"-inf"``, whole numbers as integers;
        ``result`` and ``plies`` only where there is a game."""
        return json_object(self)


@answer(
    "One line of the walk's pseudocode as it ran.",
    line=json_field("The line run, 1 for the first of pseudocode."),
    does=json_field("What the line did."),
    node=json_field("The order of the node whose function ran it."),
    v=json_field("v in that call after the line.", write=_number, shape=float | Infinity),
    alpha=json_field(
        "Alpha then (null with minimax).", write=_maybe, shape=float | Infinity | None
    ),
    beta=json_field("Beta then (null with minimax).", write=_maybe, shape=float | Infinity | None),
    child=json_field("With update: the child whose value came back."),
)
class TraceStep(NamedTuple):
    """One line of the pseudocode as the walk ran it."""

    #: The line run, 1 for the first of :attr:`TracedTree.pseudocode`.
    line: int
    does: StepKind
    #: The node whose MAX-VALUE or MIN-VALUE ran it (its ``order``).
    node: int
    #: v in that call after the line (at ``result``: the root's value).
    v: float
    #: Alpha and beta in that call after the line (None with minimax).
    alpha: float | None
    beta: float | None
    #: With ``update``: the child whose value came back (its ``order``).
    child: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Infinities written ``"inf"``/``"-inf"``, as on the nodes."""
        return json_object(self)


class Pseudocode(NamedTuple):
    """The algorithm as the textbook writes it, and where each step is."""

    lines: tuple[str, ...]
    #: (function, what the step does) -> its line, 1-based; ``pass`` and
    #: ``cut`` share the line of the test.
    at: dict[tuple[Function, StepKind], int]


#: The pseudocode's symbols, by name (ruff would read a Greek alpha as an "a").
_A, _B = "\N{GREEK SMALL LETTER ALPHA}", "\N{GREEK SMALL LETTER BETA}"
_LOW, _HIGH = "\N{MINUS SIGN}\N{INFINITY}", "+\N{INFINITY}"
_GETS, _AT_LEAST, _AT_MOST = (
    "\N{LEFTWARDS ARROW}",
    "\N{GREATER-THAN OR EQUAL TO}",
    "\N{LESS-THAN OR EQUAL TO}",
)


def pseudocode(algorithm: TreeAlgorithm, cutoff: Cutoff | None = None) -> Pseudocode:
    """Minimax or alpha-beta in the textbook's pseudocode (MAX-VALUE and
    MIN-VALUE calling each other; Russell and Norvig's names), with the
    depth limit's line when the tree has one (``cutoff``: how a position
    there is valued). :class:`_Walk` runs it line for line. Alpha-beta's
    MAX-VALUE reads::

        function MAX-VALUE(state, a, b)
          if IS-TERMINAL(state) then return UTILITY(state)
          if IS-CUTOFF(state) then return EVAL(state)
          v <- -inf
          for each child of state do
            v <- MAX(v, MIN-VALUE(child, a, b))
            if v >= b then return v
            a <- MAX(a, v)
          return v

    (with the Greek letters, arrows and infinities)."""
    ab = algorithm == "alphabeta"
    window = f", {_A}, {_B}" if ab else ""
    search = "ALPHA-BETA-SEARCH" if ab else "MINIMAX-SEARCH"
    lines: list[str] = [f"function {search}(state)"]
    at: dict[tuple[Function, StepKind], int] = {}

    def add(text: str, function: Function, *kinds: StepKind) -> None:
        lines.append(text)
        for kind in kinds:
            at[function, kind] = len(lines)

    search_line = f"  return MAX-VALUE(state{f', {_LOW}, {_HIGH}' if ab else ''})"
    add(search_line, Function.SEARCH, StepKind.result)
    leaf = {"heuristic": "EVAL(state)", "exact": "SOLVED-VALUE(state)"}
    sides: tuple[tuple[Function, str, str, str, str, StepKind], ...] = (
        (
            Function.MAX,
            "MIN",
            _LOW,
            f"v {_AT_LEAST} {_B}",
            f"{_A} {_GETS} MAX({_A}, v)",
            StepKind.alpha,
        ),
        (
            Function.MIN,
            "MAX",
            _HIGH,
            f"v {_AT_MOST} {_A}",
            f"{_B} {_GETS} MIN({_B}, v)",
            StepKind.beta,
        ),
    )
    for me, other, start, test, narrow, narrows in sides:
        lines.append(f"function {me}-VALUE(state{window})")
        add("  if IS-TERMINAL(state) then return UTILITY(state)", me, StepKind.terminal)
        if cutoff is not None:
            add(f"  if IS-CUTOFF(state) then return {leaf[cutoff]}", me, StepKind.cutoff)
        add(f"  v {_GETS} {start}", me, StepKind.enter)
        lines.append("  for each child of state do")
        add(f"    v {_GETS} {me}(v, {other}-VALUE(child{window}))", me, StepKind.update)
        if ab:
            add(f"    if {test} then return v", me, StepKind.passes, StepKind.cut)
            add(f"    {narrow}", me, narrows)
        add("  return v", me, StepKind.returns)
    return Pseudocode(tuple(lines), at)


def _of_a_game(tree: TracedTree) -> bool:
    return tree.game is not None


def _estimated(tree: TracedTree) -> bool:
    return tree.evaluation is not None


@answer(
    "A tree as minimax or alpha-beta walked it.",
    game=json_field("Absent on a tree of leaf scores.", when=_of_a_game),
    position=json_field(when=_of_a_game),
    depth=json_field(when=_of_a_game),
    cutoff=json_field("How the depth limit's positions were valued.", when=_of_a_game),
    evaluation=json_field(
        "With heuristic leaves: the evaluation function in words.", when=_estimated
    ),
    estimate_bound=json_field(
        "With heuristic leaves: no estimate exceeds it (in absolute value).", when=_estimated
    ),
    pseudocode=json_field("The walk's algorithm, one line each."),
    steps=json_field("The walk, line by line, in the order it ran."),
    json_order=(
        "game",
        "position",
        "depth",
        "cutoff",
        "evaluation",
        "estimate_bound",
        "algorithm",
        "nodes",
        "visited",
        "root",
        "pseudocode",
        "steps",
    ),
)
class TracedTree(NamedTuple):
    """A tree as minimax or alpha-beta walked it (``unbeatable tree``,
    ``POST /api/tree``)."""

    algorithm: TreeAlgorithm
    #: Nodes in the tree, and how many of them the algorithm entered.
    nodes: int
    visited: int
    root: TreeNode
    #: The game, the root position and the depth asked for (None on a
    #: textbook tree of leaf scores).
    game: str | None = None
    position: str | None = None
    depth: int | None = None
    #: How the leaves at the depth limit were valued (None on a textbook tree).
    cutoff: Cutoff | None = None
    #: With heuristic leaves: the evaluation function in words, and its
    #: bound (every estimate lies within it; a ``score`` beyond it is a
    #: finished game).
    evaluation: str | None = None
    estimate_bound: int | None = None
    #: The walk's algorithm in pseudocode, one line each, and the walk line
    #: by line: every node entered, every child's value taken in, every test
    #: and every return, in the order it ran.
    pseudocode: tuple[str, ...] = ()
    steps: tuple[TraceStep, ...] = ()

    @property
    def cutoffs(self) -> int:
        """Nodes where alpha-beta stopped early: their value is only a bound."""
        return sum(1 for node in self.root.walk() if node.bound is not None)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object printed by ``unbeatable tree --json`` and served by ``POST
        /api/tree``; a textbook tree has no game, position, depth or cut-off, and only
        heuristic leaves have an evaluation."""
        return json_object(self)


class TreeTooLarge(GameError):
    """The requested tree has more nodes than :data:`MAX_NODES`."""


@dataclass(slots=True, eq=False)
class Node:
    """One node of a tree while it is traced (raw moves and positions, filled
    in step by step); :func:`trace` answers its frozen copy, a :class:`TreeNode`."""

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
    bound: Bound | None = None
    #: 1-based order in which the algorithm entered the node (None: pruned).
    order: int | None = None
    #: How many nodes had been entered when its value was known.
    known_at: int | None = None
    alpha: float | None = None
    beta: float | None = None
    best: bool = False
    #: A finished game (a textbook leaf), not a position at the depth limit.
    terminal: bool = False

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
    beyond: int = 0,
    cutoff: Cutoff | None = None,
) -> tuple[Node, Pseudocode, list[TraceStep]]:
    """The traced tree below ``position``, ``depth`` plies deep, with the
    pseudocode of the walk and its steps, line by line.

    ``leaf_value(position, ply)`` scores a position at the depth limit that is
    not finished (root player's view, depth-aware like ``game.utility``); a
    finished game's score is pushed ``beyond`` further from 0, above every
    estimate ``leaf_value`` may give. ``cutoff`` names how the depth limit's
    positions are valued, for the pseudocode (None: a textbook tree, whose
    leaves are all finished). Raises :class:`TreeTooLarge` before any work if
    the tree would have more than ``max_nodes`` nodes.
    """
    if depth < 0:
        raise GameError(f"depth must be 0 or more, got {depth}")
    root = Node(None, position, 0)
    _expand(game, root, depth, max_nodes, [1])
    maximiser = game.to_move(position)
    _score(game, root, leaf_value, maximiser, beyond)
    _mark_best(game, root, maximiser)
    code = pseudocode(TreeAlgorithm.alphabeta if alphabeta else TreeAlgorithm.minimax, cutoff)
    walk = _Walk(game, maximiser, code)
    value = walk.alphabeta(root, -math.inf, math.inf) if alphabeta else walk.minimax(root)
    walk.step(StepKind.result, root, Function.SEARCH, value)
    return root, code, walk.steps


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
    game: Game[Any, Any], node: Node, leaf_value: LeafValue, maximiser: str, beyond: int
) -> float:
    """Fill every node's minimax value (the root player's view)."""
    if game.is_terminal(node.position):
        node.terminal = True
        value = game.utility(node.position, node.ply)
        if value:
            value += beyond if value > 0 else -beyond
        # utility is players[0]'s view; turn it to the root player's.
        node.minimax = value if maximiser == game.players[0] else -value
    elif not node.children:
        node.minimax, node.exact = leaf_value(node.position, node.ply)
    else:
        values = [_score(game, child, leaf_value, maximiser, beyond) for child in node.children]
        mover = game.to_move(node.position)
        node.minimax = max(values) if mover == maximiser else min(values)
        # Beyond an evaluation's bound (``beyond`` > 0) the value is a game
        # finished in the tree: a result, however its siblings were guessed,
        # and no faster one hides below the cut-off, which is deeper still.
        node.exact = bool(beyond and abs(node.minimax) > beyond) or all(
            child.exact for child in node.children
        )
    return node.minimax


def _mark_best(game: Game[Any, Any], node: Node, maximiser: str) -> None:
    """Mark the line of best play: at each node the first child, in the game's
    tie-break order, whose value is the node's."""
    node.best = True
    if not node.children:
        return
    child_of = {child.move: child for child in node.children}
    for move in game.tie_break(node.position, list(child_of)):
        child = child_of[move]
        if child.minimax == node.minimax:
            _mark_best(game, child, maximiser)
            return


class _Walk:
    """Minimax or alpha-beta replayed over the built tree, line for line as
    :func:`pseudocode` writes it: each line run is a :class:`TraceStep`, and
    every node gets its entry order, alpha and beta then, the value returned
    and whether it is only a bound."""

    def __init__(self, game: Game[Any, Any], maximiser: str, code: Pseudocode) -> None:
        self.game = game
        self.maximiser = maximiser
        self.code = code
        self.entered = 0
        self.steps: list[TraceStep] = []

    def step(
        self,
        does: StepKind,
        node: Node,
        function: Function,
        v: float,
        alpha: float | None = None,
        beta: float | None = None,
        child: Node | None = None,
    ) -> None:
        line = self.code.at[function, does]
        assert node.order is not None
        below = None if child is None else child.order
        self.steps.append(TraceStep(line, does, node.order, v, alpha, beta, below))

    def enter(self, node: Node) -> Function:
        """Count the node in; the function that runs it (MAX-VALUE where the
        root player moves)."""
        self.entered += 1
        node.order = self.entered
        return Function.MAX if self.game.to_move(node.position) == self.maximiser else Function.MIN

    def minimax(self, node: Node) -> float:
        me = self.enter(node)
        if not node.children:
            value = node.minimax
            self.step(StepKind.terminal if node.terminal else StepKind.cutoff, node, me, value)
        else:
            value = -math.inf if me == "MAX" else math.inf
            self.step(StepKind.enter, node, me, value)
            for child in node.children:
                got = self.minimax(child)
                value = max(value, got) if me == "MAX" else min(value, got)
                self.step(StepKind.update, node, me, value, child=child)
            self.step(StepKind.returns, node, me, value)
        node.value = value
        node.known_at = self.entered
        return value

    def alphabeta(self, node: Node, alpha: float, beta: float) -> float:
        """Textbook alpha-beta (MAX raises alpha, MIN lowers beta); children
        it never enters stay pruned."""
        me = self.enter(node)
        node.alpha, node.beta = alpha, beta
        low, high = alpha, beta
        if not node.children:
            value = node.minimax
            self.step(
                StepKind.terminal if node.terminal else StepKind.cutoff,
                node,
                me,
                value,
                alpha,
                beta,
            )
        else:
            value = -math.inf if me == "MAX" else math.inf
            self.step(StepKind.enter, node, me, value, alpha, beta)
            for i, child in enumerate(node.children):
                got = self.alphabeta(child, alpha, beta)
                value = max(value, got) if me == "MAX" else min(value, got)
                self.step(StepKind.update, node, me, value, alpha, beta, child)
                if value >= beta if me == "MAX" else value <= alpha:
                    if i + 1 < len(node.children):
                        # The rest cannot matter: MIN above avoids this node
                        # (at least value), or MAX does (at most value).
                        node.bound = Bound.at_least if me == "MAX" else Bound.at_most
                    self.step(StepKind.cut, node, me, value, alpha, beta)
                    break
                self.step(StepKind.passes, node, me, value, alpha, beta)
                if me == "MAX":
                    alpha = max(alpha, value)
                    self.step(StepKind.alpha, node, me, value, alpha, beta)
                else:
                    beta = min(beta, value)
                    self.step(StepKind.beta, node, me, value, alpha, beta)
            else:
                self.step(StepKind.returns, node, me, value, alpha, beta)
        if node.bound is None and any(child.bound is not None for child in node.children):
            # Every child was examined, but a child's value was only a bound: so
            # is this one, when it lies outside the window the node was given.
            if value <= low:
                node.bound = Bound.at_most
            elif value >= high:
                node.bound = Bound.at_least
        node.value = value
        node.known_at = self.entered
        return value


def trace(
    game: Game[Any, Any],
    position: Any,
    depth: int,
    engine: Engine | None,
    limits: Limits,
    algorithm: TreeAlgorithm = TreeAlgorithm.minimax,
    cutoff: Cutoff = Cutoff.exact,
) -> TracedTree:
    """The tree below ``position``, ``depth`` plies deep, as ``algorithm``
    walks it: leaves at the depth limit valued by ``engine`` within
    ``limits`` (a leaf it could not prove counts as a draw and leaves the
    nodes above it unproven), or with ``cutoff="heuristic"`` estimated by
    the game's evaluation function (no engine needed: the search sees only
    as far as its depth, as the textbooks' depth-limited search does); every
    node also valued for the player who made the move into it, as analysis
    values moves. Raises :class:`GameError` for heuristic leaves in a game
    without an evaluation function."""
    maximiser = game.to_move(position)
    win = game.win_score
    evaluation = game.static_evaluation() if cutoff == "heuristic" else None
    if cutoff == "heuristic" and evaluation is None:
        raise GameError(f"{game.name} has no evaluation function: ask for exact leaves")
    if cutoff == "exact" and engine is None:
        raise ValueError("exact leaves need an engine")
    beyond = 0 if evaluation is None else evaluation.bound

    def estimate(leaf: Any, _ply: int) -> tuple[float, bool]:
        assert evaluation is not None
        value = float(evaluation.value(leaf))  # players[0]'s view
        # (0.0 - value, not -value: a zero stays 0, never the -0.0 that prints as "-0")
        return (value if maximiser == game.players[0] else 0.0 - value), False

    def leaf_value(leaf: Any, ply: int) -> tuple[float, bool]:
        assert engine is not None
        outcome = engine.value(leaf, limits).outcome
        if not outcome.exact or outcome.result == "unknown" or outcome.plies is None:
            return 0.0, False
        if outcome.result == "draw":
            return 0.0, True
        value = win - (ply + outcome.plies)
        side_wins = outcome.result == "win"
        return (value if side_wins == (game.to_move(leaf) == maximiser) else -value), True

    def mover_outcome(node: Node) -> Outcome:
        """The node's minimax value (the root player's) as the outcome for
        the player who moved into it; at the root, for the side to move."""
        if not node.exact:
            return UNKNOWN
        viewer_is_max = node.ply == 0 or node.ply % 2 == 1
        extra = 0 if node.ply == 0 else 1  # plies count the node's own move
        if node.minimax == 0:
            return Outcome(Result.draw, game.draw_plies(node.position) + extra)
        remaining = int(win + beyond - abs(node.minimax) - node.ply)
        won = (node.minimax > 0) == viewer_is_max
        return Outcome(Result.win if won else Result.loss, remaining + extra)

    root, code, steps = game_tree(
        game,
        position,
        depth,
        leaf_value if evaluation is None else estimate,
        alphabeta=algorithm == "alphabeta",
        beyond=beyond,
        cutoff=cutoff,
    )
    return TracedTree(
        game=game.name,
        position=game.format(position),
        depth=depth,
        algorithm=algorithm,
        nodes=root.count(),
        visited=visited(root),
        root=_frozen(game, root, mover_outcome),
        cutoff=cutoff,
        evaluation=None if evaluation is None else evaluation.rule,
        estimate_bound=None if evaluation is None else evaluation.bound,
        pseudocode=code.lines,
        steps=tuple(steps),
    )


def trace_textbook(shape: Tree, algorithm: TreeAlgorithm = TreeAlgorithm.minimax) -> TracedTree:
    """The textbook exercise: ``algorithm`` over an explicit tree of leaf
    scores (:class:`ExplicitTree`), MAX to move at the root. Its nodes have no
    ``result`` or ``plies``: there is no game to win, only scores."""
    game = ExplicitTree(shape)
    root, code, steps = game_tree(
        game, (), MAX_DEPTH, lambda _p, _ply: (0.0, True), alphabeta=algorithm == "alphabeta"
    )
    return TracedTree(
        algorithm=algorithm,
        nodes=root.count(),
        visited=visited(root),
        root=_frozen(game, root),
        pseudocode=code.lines,
        steps=tuple(steps),
    )


def _frozen(
    game: Game[Any, Any], node: Node, outcome: Callable[[Node], Outcome] | None = None
) -> TreeNode:
    """The typed, formatted copy of a traced node and everything below it."""
    value = None if outcome is None else outcome(node)
    return TreeNode(
        move=None if node.move is None else game.format_move(node.move),
        position=game.format(node.position),
        to_move=game.to_move(node.position),
        score=node.minimax,
        result=None if value is None else value.result,
        plies=None if value is None else value.plies,
        value=node.value,
        bound=node.bound,
        best=node.best,
        order=node.order,
        known_at=node.known_at,
        alpha=node.alpha,
        beta=node.beta,
        children=tuple(_frozen(game, child, outcome) for child in node.children),
    )


def visited(node: Node) -> int:
    """Nodes the algorithm entered."""
    return (0 if node.pruned else 1) + sum(visited(child) for child in node.children)
