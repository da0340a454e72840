"""What a position is worth: every move's value (:func:`analyze`), the best
move (:func:`best_move`) and the position's value alone (:func:`solve`)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from unbeatable.answers import answer, json_object
from unbeatable.api import engines
from unbeatable.api.request import GAME_DEFAULT, Request, TimeLimit, asked, resolve
from unbeatable.search.analysis import Analysis, MoveValue
from unbeatable.search.analysis import analyse as _analyse  # the search layer's: engine given
from unbeatable.search.engine import Progress, Result

if TYPE_CHECKING:
    from unbeatable.games import Game


@overload
def analyze(request: Request, /) -> Analysis: ...
@overload
def analyze(
    game: str | Game[Any, Any],
    position: Any,
    *,
    algorithm: str | None = None,
    time_limit: TimeLimit = None,
    stop: threading.Event | None = None,
    book: bool = True,
    progress: Callable[[Progress], None] | None = None,
) -> Analysis: ...
def analyze(
    game: str | Game[Any, Any] | Request,
    position: Any = None,
    *,
    algorithm: str | None = None,
    time_limit: TimeLimit = None,
    stop: threading.Event | None = None,
    book: bool = True,
    progress: Callable[[Progress], None] | None = None,
) -> Analysis:
    """The value of ``position`` for the side to move and of every legal move.

    ``algorithm`` selects the engine (default: negamax, or the game's
    specialised solver). ``time_limit``: seconds, ``math.inf`` or None for
    none (the exact answer), :data:`GAME_DEFAULT` for the game's budget. Under
    a budget, or on a game that has one, the answer carries ``exact``; moves
    that could not be proven in time are ``"unknown"``. ``stop``, set from
    another thread, ends the work early the same way. Proven analyses are
    remembered, so asking again costs a lookup. ``book=False`` searches every
    value without the game's opening book (nothing remembered is reused
    either: the proof is searched anew); ``progress`` receives reports of a
    long search (see :class:`Limits`). Or pass one :class:`Request`.
    """
    request = asked(
        game,
        position,
        math.inf,
        time_limit,
        stop=stop,
        algorithm=algorithm,
        book=book,
        progress=progress,
    )
    return analysis(request)


def analysis(request: Request) -> Analysis:
    """:func:`analyze`'s answer to a resolved request."""
    game, pos = request.game, request.position
    key = (game, request.algorithm, pos)
    known = engines.analyses.get(key) if request.book else None
    if known is not None:  # the same board, maybe reached by another move order
        exact = True if request.budgeted else None
        return known._replace(position=game.format(pos), exact=exact)
    # Compiling is no part of the search's time.
    engines.warmed(game, request.algorithm, request.stop, request.book)
    found = _analyse(
        game,
        pos,
        engines.engine(game, request.algorithm, book=request.book),
        request.limits(),
        request.budgeted,
        line_engine=engines.engine(game, book=request.book),
    )
    # A line cut short by the limits is not remembered; nor is an analysis
    # without the book (asked for as a proof searched anew, it is not looked up).
    if found.complete and request.book:
        engines.analyses.put(key, found)
    return found


def best_move(
    game: str | Game[Any, Any], position: Any, *, algorithm: str | None = None
) -> MoveValue | None:
    """The best move (``analyze(...).best``): fastest win, else a draw, else the
    slowest loss; ties broken in the game's order. None if the game is over.
    Searched within the game's budget.

    Answers are remembered per position, so a repeated query costs a lookup.
    """
    game, pos = resolve(game, position)
    known = engines.analyses.get((game, algorithm, pos))  # the common case: no copy to make
    if known is not None:
        return known.best
    return analyze(game, pos, algorithm=algorithm, time_limit=GAME_DEFAULT).best


@answer()
class Solution(NamedTuple):
    """The value of one position (``unbeatable solve``)."""

    game: str
    position: str
    to_move: str
    result: Result
    plies: int | None
    score: int | None
    nodes: int
    time_ms: float
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """The JSON object printed by ``unbeatable solve --json``: the fields in order."""
        return json_object(self)


@overload
def solve(request: Request, /, *, weak: bool = False) -> Solution: ...
@overload
def solve(
    game: str | Game[Any, Any],
    position: Any,
    *,
    weak: bool = False,
    algorithm: str | None = None,
    time_limit: TimeLimit = None,
    stop: threading.Event | None = None,
    book: bool = True,
    progress: Callable[[Progress], None] | None = None,
) -> Solution: ...
def solve(
    game: str | Game[Any, Any] | Request,
    position: Any = None,
    *,
    weak: bool = False,
    algorithm: str | None = None,
    time_limit: TimeLimit = None,
    stop: threading.Event | None = None,
    book: bool = True,
    progress: Callable[[Progress], None] | None = None,
) -> Solution:
    """The value of ``position`` for the side to move. ``weak`` asks only for
    win/draw/loss (no distance: ``plies`` and ``score`` are None), which is
    faster. ``time_limit`` as for :func:`analyze` (None: no limit).
    ``book=False`` searches without the game's opening book (for benchmarks,
    and for a proof); ``progress`` receives reports of a long search (see
    :class:`Limits`). Or pass one :class:`Request`."""
    request = asked(
        game,
        position,
        math.inf,
        time_limit,
        stop=stop,
        algorithm=algorithm,
        book=book,
        progress=progress,
    )
    rules, pos = request.game, request.position
    # Compiling is no part of the search's time.
    engines.warmed(rules, request.algorithm, request.stop, request.book, value_of=pos)
    start = time.perf_counter()
    solver = engines.engine(rules, request.algorithm, book=request.book)
    outcome, nodes = solver.value(pos, request.limits(), weak)[:2]
    score = None if outcome.plies is None else rules.score(pos, outcome.result, outcome.plies)
    return Solution(
        game=rules.name,
        position=rules.format(pos),
        to_move=rules.to_move(pos),
        result=outcome.result,
        plies=outcome.plies,
        score=score,
        nodes=nodes,
        time_ms=round((time.perf_counter() - start) * 1000, 3),
        exact=outcome.exact,
    )


__all__ = ["Solution", "analysis", "analyze", "best_move", "solve"]
