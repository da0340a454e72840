"""The library's front door: analyse, solve and play any registered game.

Every function takes a game (its registry name or a :class:`Game` object) and a
position (its notation or a position object), so the CLI, the web API and
Python users share one code path. Engines are created once per process and
keep what they learn, so repeated queries get faster.

Every function is safe to call from several threads at once: engines keep
their search state per call, and the caches here are locked.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Hashable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from unbeatable.games import Description, Game, get_game
from unbeatable.games.base import GameError, IllegalMoveError
from unbeatable.search.analysis import Analysis, MoveValue, move_value, obvious, resisting
from unbeatable.search.analysis import analyze as _analyze
from unbeatable.search.engine import KNOWN_ONLY, UNLIMITED, Engine, Limits, Outcome
from unbeatable.search.memo import Memo
from unbeatable.search.negamax import Negamax
from unbeatable.solvers import has_specialised_engine, specialised_engine

if TYPE_CHECKING:
    import random

ALGORITHMS: tuple[str, ...] = ("minimax", "alphabeta", "negamax")

#: Proven analyses and AI moves per (game object, algorithm, position); the
#: position itself, not its table key, which mirror images may share:
#: values never change, and the AI meets the same positions again and again.
_analyses: Memo[tuple[Any, str | None, Hashable], Analysis] = Memo(1 << 14)
_moves: Memo[tuple[Any, Hashable], MoveValue] = Memo(1 << 14)

#: A stop switch that is already set: pass it as ``stop`` to get only what the
#: engines know without searching (an opening book, a remembered answer).
STOPPED = KNOWN_ONLY.stop

#: What :func:`analysis.obvious` found: the move any player makes at once and
#: its outcome when known without search, or None when nothing is forced.
Forced = tuple[Any, Outcome | None] | None


def resolve(game: str | Game[Any, Any], position: Any = None) -> tuple[Game[Any, Any], Any]:
    """The rules object and the parsed position (the initial one for ``None``)."""
    rules = get_game(game) if isinstance(game, str) else game
    if position is None:
        return rules, rules.initial()
    if isinstance(position, str):
        return rules, rules.parse(position)
    return rules, position


@lru_cache(maxsize=64)
def _engine(rules: Any, algorithm: str) -> Engine:
    if algorithm == "special":
        special = specialised_engine(rules.name)
        assert special is not None
        return special
    if algorithm == "negamax":
        return Negamax(rules)
    if algorithm in ("minimax", "alphabeta"):
        # The teaching engines are imported only when asked for: start-up stays light.
        from unbeatable.search import minimax

        return minimax.TextbookEngine(rules, getattr(minimax, algorithm))
    raise GameError(f"unknown algorithm {algorithm!r} (use one of: {', '.join(ALGORITHMS)})")


def engine(game: str | Game[Any, Any], algorithm: str | None = None) -> Engine:
    """The process-wide engine for ``game`` (the 64 most recently used games
    keep theirs). ``None`` picks the fastest exact one: the game's specialised
    solver if it has one, else negamax."""
    rules = get_game(game) if isinstance(game, str) else game
    if algorithm is None:
        algorithm = "special" if has_specialised_engine(rules.name) else "negamax"
    hashable_rules: Any = rules  # rules objects hash by identity
    return _engine(hashable_rules, algorithm)


@lru_cache(maxsize=64)
def _description(rules: Any) -> Description | None:
    try:
        description: Description = rules.describe()
    except NotImplementedError:
        return None
    return description


def describe(game: str | Game[Any, Any]) -> Description | None:
    """The game's description (None for games without a board to show)."""
    rules: Any = get_game(game) if isinstance(game, str) else game
    return _description(rules)


def default_time_limit(game: str | Game[Any, Any]) -> float | None:
    """The budget applied when the caller gives none (None: always solved
    exactly), as the game describes it."""
    description = describe(game)
    return None if description is None else description.time_limit


#: Seconds of a time limit kept for answering after the search stops (a
#: fallback move, the reply): at most a tenth of the limit.
ANSWER_RESERVE = 0.03


def limits(time_limit: float | None, stop: threading.Event | None = None) -> Limits:
    """The search limits of a time limit in seconds (None or infinity: none).

    The search ends :data:`ANSWER_RESERVE` early, so that the answer, not
    just the search, comes within the limit."""
    if time_limit is not None and (math.isnan(time_limit) or time_limit <= 0):
        raise GameError(f"time limit must be a positive number of seconds, got {time_limit}")
    if time_limit is not None and not math.isinf(time_limit):
        time_limit -= min(ANSWER_RESERVE, time_limit / 10)
    return Limits.seconds(time_limit, stop)


def analyze(
    game: str | Game[Any, Any],
    position: Any,
    *,
    algorithm: str | None = None,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
) -> Analysis:
    """The value of ``position`` for the side to move and of every legal move.

    ``algorithm`` selects the engine (default: negamax, or the game's
    specialised solver). With a ``time_limit`` in seconds the answer carries
    ``exact``; moves that could not be proven in time are ``"unknown"``.
    ``stop``, set from another thread, ends the work early the same way.
    Proven analyses are remembered, so asking again costs a lookup.
    """
    rules, pos = resolve(game, position)
    # Games that may be answered unproven always say whether this one is.
    report_exact = time_limit is not None or default_time_limit(rules) is not None
    known = _analyses.get((rules, algorithm, pos))
    if known is not None:  # the same board, maybe reached by another move order
        return known._replace(position=rules.format(pos), exact=True if report_exact else None)
    return _analyze_afresh(rules, pos, algorithm, time_limit, stop, report_exact)


def _analyze_afresh(
    rules: Game[Any, Any],
    pos: Any,
    algorithm: str | None,
    time_limit: float | None,
    stop: threading.Event | None,
    report_exact: bool,
) -> Analysis:
    analysis = _analyze(
        rules,
        pos,
        engine(rules, algorithm),
        limits(time_limit, stop),
        report_exact,
        line_engine=engine(rules),
    )
    if analysis.complete:  # a line cut short by the limits is not remembered
        _analyses.put((rules, algorithm, pos), analysis)
    return analysis


def best_move(
    game: str | Game[Any, Any], position: Any, *, algorithm: str | None = None
) -> MoveValue | None:
    """The best move (``analyze(...).best``): fastest win, else a draw, else the
    slowest loss; ties broken in the game's order. None if the game is over.

    Answers are remembered per position, so a repeated query costs a lookup.
    """
    rules, pos = resolve(game, position)
    known = _analyses.get((rules, algorithm, pos))  # the common case: no copy to make
    if known is not None:
        return known.best
    return analyze(rules, pos, algorithm=algorithm, time_limit=default_time_limit(rules)).best


class Solution(NamedTuple):
    """The value of one position (``unbeatable solve``)."""

    game: str
    position: str
    to_move: str
    result: str
    plies: int | None
    score: int | None
    nodes: int
    time_ms: float
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """The JSON object printed by ``unbeatable solve --json``: the fields in order."""
        return self._asdict()


def solve(
    game: str | Game[Any, Any],
    position: Any,
    *,
    weak: bool = False,
    algorithm: str | None = None,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
) -> Solution:
    """The value of ``position`` for the side to move. ``weak`` asks only for
    win/draw/loss (no distance: ``plies`` and ``score`` are None), which is faster."""
    rules, pos = resolve(game, position)
    start = time.perf_counter()
    solved = engine(rules, algorithm).value(pos, limits(time_limit, stop), weak)
    outcome = solved.outcome
    score = None if outcome.plies is None else rules.score(pos, outcome.result, outcome.plies)
    return Solution(
        game=rules.name,
        position=rules.format(pos),
        to_move=rules.to_move(pos),
        result=outcome.result,
        plies=outcome.plies,
        score=score,
        nodes=solved.nodes,
        time_ms=round((time.perf_counter() - start) * 1000, 3),
        exact=outcome.exact,
    )


def choose_move(
    game: str | Game[Any, Any],
    position: Any,
    level: str = "impossible",
    rng: random.Random | None = None,
    time_limit: float | None = None,
    *,
    analysis: Analysis | None = None,
    stop: threading.Event | None = None,
) -> MoveValue | None:
    """The move an AI of ``level`` plays (None if the game is over).

    The impossible level plays the move that keeps the position's value, the
    first in tie-break order (the analysis' best move; when every move loses,
    the most resisting of the slowest), proven within the time limit (the
    game's default if None) or, past it, the engine's best guess. The weaker
    levels cost no more: the same move, plus what they see within their
    short horizon. At every level, the obvious is played at once: a win in
    one, the block of a lone threat (see :func:`analysis.obvious`). With an
    ``analysis`` of the position (the AI explains itself), the choice is made
    from it instead, with no search.
    """
    import random as random_module

    from unbeatable.search.levels import SKILLS, Level, choose, choose_from, within_horizon

    rules, pos = resolve(game, position)
    if analysis is not None:
        forced = obvious(rules, pos)
        if forced is not None:
            same = [m for m in analysis.moves if m.raw == forced[0]]
            if same:
                return same[0]
        return choose_from(analysis, level, rng or random_module.Random())
    if not rules.moves(pos):
        return None
    level = Level(level)
    limit = time_limit if time_limit is not None else default_time_limit(rules)
    forced = obvious(rules, pos)
    if level is Level.impossible or limit is None:
        best = _ai_move(rules, pos, limits(limit, stop), forced)
    else:
        # A game whose search is timed: the weaker levels take the engine's
        # untimed guess (a book move, or a fixed-size search), so that their
        # choice never depends on how far a timed search got.
        best = _guessed(rules, pos, forced)
    if best is None:  # stopped before anything was found: the most resisting move
        first = next(resisting(rules, pos, rules.moves(pos)))
        best = move_value(rules, pos, first, Outcome("unknown", None, False))
    if level is Level.impossible or forced is not None:
        return best
    horizon = SKILLS[level].horizon

    def seen() -> list[MoveValue]:  # looked at only when the level misses the best move
        return within_horizon(rules, pos, horizon)

    return choose(best, seen, level, rng or random_module.Random())


def knows_move(game: str | Game[Any, Any], position: Any) -> bool:
    """Whether the impossible level's move is known without searching (it was
    proven before, an opening book gives it, or it is a win in one): the web
    answers those at once."""
    rules, pos = resolve(game, position)
    if not rules.moves(pos):
        return False
    known = _ai_move(rules, pos, KNOWN_ONLY, obvious(rules, pos))
    return known is not None and known.result != "unknown"


def _ai_move(
    rules: Game[Any, Any], pos: Any, search_limits: Limits, forced: Forced = None
) -> MoveValue | None:
    """The impossible level's move with its value, remembered once proven
    (None only if the limits were stopped before anything was found).

    ``forced`` is :func:`analysis.obvious`'s move: played at once when its
    value needs no search; a forced block is played whatever the engine
    says, with the value the engine found for the position."""
    if forced is not None and forced[1] is not None:
        return move_value(rules, pos, forced[0], forced[1])
    memo_key = (rules, pos)
    known = _moves.get(memo_key)
    if known is not None:
        return known
    exact = _analyses.get((rules, None, pos))
    if exact is not None and exact.best is not None:
        return exact.best
    solver = engine(rules)
    solved = solver.solve(pos, search_limits)
    proven = solved.move_proven and solved.outcome.exact
    move = solved.move
    if forced is not None and move != forced[0]:
        move, proven = forced[0], solved.outcome.exact  # the only move that holds
    if move is None:
        return None
    outcome = solved.outcome if proven else Outcome("unknown", None, False)
    chosen = move_value(rules, pos, move, outcome)
    if proven:
        _moves.put(memo_key, chosen)
    return chosen


def _guessed(rules: Game[Any, Any], pos: Any, forced: Forced) -> MoveValue | None:
    """The weaker levels' best move on a timed game: the obvious one, else the
    engine's untimed guess (None if it has none)."""
    if forced is not None:
        return move_value(rules, pos, forced[0], forced[1] or Outcome("unknown", None, False))
    guessed = engine(rules).guess(pos)
    if guessed.move is None:
        return None
    proven = guessed.move_proven and guessed.outcome.exact
    outcome = guessed.outcome if proven else Outcome("unknown", None, False)
    return move_value(rules, pos, guessed.move, outcome)


def play_move(game: str | Game[Any, Any], position: Any, move: str) -> Any:
    """The position after ``move`` (in the game's notation); raises
    :class:`IllegalMoveError` with the reason if it is not legal."""
    rules, pos = resolve(game, position)
    if not isinstance(move, str):
        raise IllegalMoveError("a move must be a string in the game's notation")
    return rules.play(pos, rules.parse_move(pos, move))


def status(game: str | Game[Any, Any], position: Any) -> dict[str, Any]:
    """Whether the game is over, who won, and the cells of the winning line
    (``[[row, col], ...]``, 0-based from the top-left) if the game has one."""
    rules, pos = resolve(game, position)
    line = None
    cells = rules.winning_line(pos)
    description = describe(rules)
    if cells is not None and description is not None:
        line = [list(divmod(cell, description.columns)) for cell in cells]
    return {"over": rules.is_terminal(pos), "winner": rules.winner(pos), "line": line}


def tree(
    game: str | Game[Any, Any],
    position: Any,
    *,
    depth: int = 2,
    algorithm: str = "minimax",
    time_limit: float | None = None,
    stop: threading.Event | None = None,
) -> dict[str, Any]:
    """The game tree below ``position``, ``depth`` plies deep, as minimax or
    alpha-beta (``algorithm``) walks it: every node with its move, position,
    value (``result``/``plies`` for the player who made the move, as in
    analysis; ``score`` for the root player, as in the textbook), whether it
    is on the best line, the order it was entered in, alpha and beta then, and
    whether alpha-beta pruned it. Leaves at the depth limit are valued exactly
    by the engine (within ``time_limit``). Raises :class:`TreeTooLarge` (a
    :class:`GameError`) for more than 5,000 nodes."""
    from unbeatable.search import explore

    if algorithm not in ("minimax", "alphabeta"):
        raise GameError(f"unknown algorithm {algorithm!r} (use minimax or alphabeta)")
    rules, pos = resolve(game, position)
    solver = engine(rules)
    search_limits = limits(time_limit, stop)
    maximizer = rules.to_move(pos)
    win = rules.win_score

    def leaf_value(leaf: Any, ply: int) -> tuple[float, bool]:
        outcome = solver.value(leaf, search_limits).outcome
        if not outcome.exact or outcome.result == "unknown" or outcome.plies is None:
            return 0.0, False
        if outcome.result == "draw":
            return 0.0, True
        value = win - (ply + outcome.plies)
        side_wins = outcome.result == "win"
        return (value if side_wins == (rules.to_move(leaf) == maximizer) else -value), True

    def mover_view(node: explore.Node) -> dict[str, Any]:
        if not node.exact:
            return {"result": "unknown", "plies": None}
        viewer_is_max = node.ply == 0 or node.ply % 2 == 1  # who moved into the node
        extra = 0 if node.ply == 0 else 1  # plies count the node's own move
        if node.minimax == 0:
            return {"result": "draw", "plies": rules.draw_plies(node.position) + extra}
        remaining = win - abs(node.minimax) - node.ply
        won = (node.minimax > 0) == viewer_is_max
        return {"result": "win" if won else "loss", "plies": int(remaining) + extra}

    root = explore.game_tree(rules, pos, depth, leaf_value, alphabeta=algorithm == "alphabeta")
    return {
        "game": rules.name,
        "position": rules.format(pos),
        "depth": depth,
        "algorithm": algorithm,
        "nodes": root.count(),
        "visited": explore.visited(root),
        "root": explore.to_dict(rules, root, mover_view),
    }


def textbook_tree(leaves: Any, algorithm: str = "minimax") -> dict[str, Any]:
    """The textbook exercise: minimax or alpha-beta over a tree of leaf scores
    (a power of two of numbers, or nested lists), MAX to move at the root;
    the same JSON as :func:`tree` without ``result``/``plies``."""
    import json

    from unbeatable.games.tree import MAX_DEPTH, ExplicitTree, tree_from_json, tree_from_leaves
    from unbeatable.search import explore

    if algorithm not in ("minimax", "alphabeta"):
        raise GameError(f"unknown algorithm {algorithm!r} (use minimax or alphabeta)")
    flat = isinstance(leaves, list) and all(
        isinstance(x, int | float) and not isinstance(x, bool) for x in leaves
    )
    try:
        shape = tree_from_leaves(leaves) if flat else tree_from_json(json.dumps(leaves))
    except GameError as exc:  # the games module speaks of positions; these are leaves
        raise GameError(f"leaves: {exc}") from None
    rules = ExplicitTree(shape)
    root = explore.game_tree(
        rules, (), MAX_DEPTH, lambda _p, _ply: (0.0, True), alphabeta=algorithm == "alphabeta"
    )
    return {
        "algorithm": algorithm,
        "nodes": root.count(),
        "visited": explore.visited(root),
        "root": explore.to_dict(rules, root),
    }


def view(game: str | Game[Any, Any], position: Any, move: str | None = None) -> dict[str, Any]:
    """What a face needs to show a position (after ``move``, if given): its
    notation, the side to move, the board's rows, every legal move with the
    cell it fills, and the status. Faces apply no rules of their own."""
    rules, pos = resolve(game, position)
    if move is not None:
        pos = play_move(rules, pos, move)
    moves = []
    for m in rules.moves(pos):
        row, col = rules.cell(pos, m)
        moves.append({"move": rules.format_move(m), "row": row, "col": col})
    return {
        "game": rules.name,
        "position": rules.format(pos),
        "to_move": rules.to_move(pos),
        "board": rules.grid(pos).split("/"),
        "moves": moves,
        "status": status(rules, pos),
    }


__all__ = [
    "ALGORITHMS",
    "STOPPED",
    "UNLIMITED",
    "analyze",
    "best_move",
    "choose_move",
    "default_time_limit",
    "describe",
    "engine",
    "knows_move",
    "limits",
    "play_move",
    "resolve",
    "solve",
    "status",
    "textbook_tree",
    "tree",
    "view",
]
