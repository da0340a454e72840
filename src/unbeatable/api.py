"""The library's front door: analyse, solve and play any registered game.

Every function takes a game (its registry name or a :class:`Game` object) and a
position (its notation or a position object), so the CLI, the web API and
Python users share one code path. Engines are created once per process and
keep what they learn, so repeated queries get faster.
"""

from __future__ import annotations

import time
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from unbeatable.games import Game, get_game
from unbeatable.games.base import GameError, IllegalMoveError
from unbeatable.search.analysis import Analysis, MoveValue
from unbeatable.search.analysis import analyze as _analyze
from unbeatable.search.engine import Engine
from unbeatable.search.negamax import Negamax
from unbeatable.solvers import has_specialised_engine, specialised_engine

if TYPE_CHECKING:
    import random

ALGORITHMS: tuple[str, ...] = ("minimax", "alphabeta", "negamax")

#: Seconds a query may take by default, for games whose exact solve can be slow
#: (a couple of seconds: the AI must answer a player promptly).
#: Games not listed are small enough to solve exactly every time (tic-tac-toe).
DEFAULT_TIME_LIMITS: dict[str, float] = {"connect4": 2.0}

_ANALYSIS_MEMO_SIZE = 1 << 14
_analysis_memo: dict[tuple[str, str | None, Any], Analysis] = {}


def resolve(game: str | Game[Any, Any], position: Any = None) -> tuple[Game[Any, Any], Any]:
    """The rules object and the parsed position (the initial one for ``None``)."""
    rules = get_game(game) if isinstance(game, str) else game
    if position is None:
        return rules, rules.initial()
    if isinstance(position, str):
        return rules, rules.parse(position)
    return rules, position


@cache
def _engine(name: str, algorithm: str, rules: Any) -> Engine:
    if algorithm == "special":
        special = specialised_engine(name)
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
    """The process-wide engine for ``game``. ``None`` picks the fastest exact
    one: the game's specialised solver if it has one, else negamax."""
    rules = get_game(game) if isinstance(game, str) else game
    if algorithm is None:
        algorithm = "special" if has_specialised_engine(rules.name) else "negamax"
    hashable_rules: Any = rules  # rules objects hash by identity
    return _engine(rules.name, algorithm, hashable_rules)


def default_time_limit(game: str | Game[Any, Any]) -> float | None:
    """The budget applied when the caller gives none (None: always solved exactly)."""
    name = game if isinstance(game, str) else game.name
    return DEFAULT_TIME_LIMITS.get(name)


def _deadline(time_limit: float | None) -> float | None:
    if time_limit is None:
        return None
    if not time_limit > 0:
        raise GameError(f"time limit must be a positive number of seconds, got {time_limit}")
    return time.perf_counter() + time_limit


def analyze(
    game: str | Game[Any, Any],
    position: Any,
    *,
    algorithm: str | None = None,
    time_limit: float | None = None,
) -> Analysis:
    """The value of ``position`` for the side to move and of every legal move.

    ``algorithm`` selects the engine (default: negamax, or the game's
    specialised solver). With a ``time_limit`` in seconds the answer carries
    ``exact``; moves that could not be proven in time are ``"unknown"``.
    """
    rules, pos = resolve(game, position)
    return _analyze(
        rules,
        pos,
        engine(rules, algorithm),
        deadline=_deadline(time_limit),
        report_exact=time_limit is not None,
    )


def _proven_analysis(
    rules: Game[Any, Any], pos: Any, algorithm: str | None, time_limit: float | None
) -> Analysis:
    """``analyze`` remembered per position once proven: the AI's choices at
    every level need only the moves' values, which never change."""
    memo_key = (rules.name, algorithm, rules.key(pos))
    known = _analysis_memo.get(memo_key)
    if known is not None:
        return known
    analysis = analyze(rules, pos, algorithm=algorithm, time_limit=time_limit)
    if analysis.exact is not False:
        if len(_analysis_memo) >= _ANALYSIS_MEMO_SIZE:
            _analysis_memo.clear()
        _analysis_memo[memo_key] = analysis
    return analysis


def best_move(
    game: str | Game[Any, Any], position: Any, *, algorithm: str | None = None
) -> MoveValue | None:
    """The best move (``analyze(...).best``): fastest win, else a draw, else the
    slowest loss; ties broken in the game's order. None if the game is over.

    Answers are remembered per position, so a repeated query costs a lookup.
    """
    rules, pos = resolve(game, position)
    return _proven_analysis(rules, pos, algorithm, default_time_limit(rules)).best


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
) -> Solution:
    """The value of ``position`` for the side to move. ``weak`` asks only for
    win/draw/loss (no distance: ``plies`` and ``score`` are None), which is faster."""
    rules, pos = resolve(game, position)
    start = time.perf_counter()
    solved = engine(rules, algorithm).solve(pos, _deadline(time_limit), weak)
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
) -> MoveValue | None:
    """The move an AI of ``level`` plays (None if the game is over)."""
    import random

    from unbeatable.search.levels import choose

    rules, pos = resolve(game, position)
    limit = time_limit if time_limit is not None else default_time_limit(rules)
    return choose(_proven_analysis(rules, pos, None, limit), level, rng or random.Random())


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
    if cells is not None:
        width = rules.grid(pos).index("/")
        line = [list(divmod(cell, width)) for cell in cells]
    return {"over": rules.is_terminal(pos), "winner": rules.winner(pos), "line": line}
