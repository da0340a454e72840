"""One question, resolved once at the door (unbeatable.api.Request): the
budget has one meaning (GAME_DEFAULT, seconds, math.inf for none), each
public function's None keeps its documented meaning, and a move asked of the
web is parsed, budgeted and read for its obvious move once."""

from __future__ import annotations

import math
from typing import Any

import pytest
from fastapi.testclient import TestClient

from unbeatable import api
from unbeatable.search import analysis as search_analysis
from unbeatable.search.engine import Limits
from unbeatable.web import create_app

#: Connect Four past its book, with no move forced: every answer is searched.
SEARCHED = "2252576253462244111563"


def test_the_budget_has_one_meaning() -> None:
    connect4, tictactoe = api.get_game("connect4"), api.get_game("tictactoe")
    assert api.budget(connect4, api.GAME_DEFAULT) == api.default_time_limit(connect4) == 2.0
    assert api.budget(tictactoe, api.GAME_DEFAULT) == math.inf  # always exact: no limit
    assert api.budget(connect4, 0.5) == 0.5
    assert api.budget(connect4, math.inf) == math.inf
    for bad in (0, -1.0, math.nan):
        with pytest.raises(api.GameError, match="positive number of seconds"):
            api.budget(connect4, bad)
    request = api.ask("connect4", SEARCHED, time_limit=math.inf)
    assert request.time_limit == math.inf and request.limits().deadline is None
    timed = api.ask("connect4", SEARCHED)
    assert timed.time_limit == 2.0 and 1.9 < timed.limits().remaining() <= 2.0
    with pytest.raises(api.GameError, match="unknown level 'hard'"):
        api.ask("connect4", "", level="hard")


def deadlines(monkeypatch: pytest.MonkeyPatch) -> list[float | None]:
    """The seconds left on each search's limits the Connect Four engine gets
    from now on (None: no deadline)."""
    api.warm("connect4")  # its readying searches under a clock of its own
    engine = api.engine("connect4")
    seen: list[float | None] = []
    for name in ("solve", "value"):
        real = getattr(engine, name)

        def spy(position: Any, limits: Limits, weak: bool = False, real: Any = real) -> Any:
            if not (limits.stop is not None and limits.stop.is_set()):
                seen.append(None if limits.deadline is None else limits.remaining())
            return real(position, limits, weak)

        monkeypatch.setattr(engine, name, spy)
    return seen


@pytest.mark.parametrize(
    ("ask", "budget"),
    [
        # None: no limit for the value questions...
        (lambda: api.solve("connect4", SEARCHED), None),
        (lambda: api.analyze("connect4", SEARCHED), None),
        # ...and the game's own budget for the AI's move.
        (lambda: api.choose_move("connect4", SEARCHED, seed=1), 2.0),
        (lambda: api.ai_turn("connect4", SEARCHED, seed=1), 2.0),
        # The sentinel and infinity say the same wherever they are given.
        (lambda: api.solve("connect4", SEARCHED, time_limit=api.GAME_DEFAULT), 2.0),
        (lambda: api.ai_turn("connect4", SEARCHED, time_limit=math.inf, seed=1), None),
        (lambda: api.ai_turn(api.ask("connect4", SEARCHED, time_limit=0.5)), 0.5),
    ],
)
def test_each_functions_none_keeps_its_meaning(
    monkeypatch: pytest.MonkeyPatch, ask: Any, budget: float | None
) -> None:
    seen = deadlines(monkeypatch)
    api.clear_caches()
    ask()
    api.clear_caches()
    assert seen, "the engine was asked"
    if budget is None:
        assert set(seen) == {None}
    else:
        assert all(left is not None and left <= budget for left in seen)
        assert max(left for left in seen if left is not None) > budget / 3


def test_a_move_asked_of_the_web_is_resolved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``POST /api/move`` on a position that needs a search (tried from what
    is known on the event loop first, then searched in the threadpool): the
    position is parsed once, the budget decided once, the obvious move
    looked for once."""
    game = api.get_game("connect4")
    counts = {"parse": 0, "budget": 0, "obvious": 0}
    real_parse, real_budget, real_obvious = (
        game.parse,
        api.request.budget,
        search_analysis.obvious,
    )

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(game, "parse", counted("parse", real_parse))
    monkeypatch.setattr(api.request, "budget", counted("budget", real_budget))
    monkeypatch.setattr(search_analysis, "obvious", counted("obvious", real_obvious))
    api.warm(game)
    api.clear_caches()
    client = TestClient(create_app())
    answer = client.post("/api/move", json={"game": "connect4", "position": SEARCHED, "seed": 1})
    api.clear_caches()
    assert answer.status_code == 200
    assert counts == {"parse": 1, "budget": 1, "obvious": 1}
