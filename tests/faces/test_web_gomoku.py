"""Gomoku over HTTP: offered with its budget, the ``threat`` field that names a
win by continuous fours (the one field the web adds to the library's
analysis), and big boards kept off the event loop's quick path.

Positions are near-finished, so every request is answered fast whichever
engine serves Gomoku.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from unbeatable import api
from unbeatable.games import get_game
from unbeatable.web import app as web_app

#: x to move wins by continuous fours in 3 with l8 (two fours at once: i8-l8
#: and l8-l11); o's other stones sit in the corners.
DOUBLE_FOUR = ["i8", "h8", "j8", "a1", "k8", "o1", "l9", "l12", "l10", "a15", "l11", "o15"]


def position_after(game: str, moves: list[str]) -> str:
    rules = get_game(game)
    pos = rules.initial()
    for move in moves:
        pos = api.play_move(rules, pos, move)
    return rules.format(pos)


def check_threats(game: str, position: str, data: dict[str, Any]) -> None:
    """Every ``threat`` field is the rules' own name for that move's line, and
    every move whose complete line the rules name carries it."""
    rules, pos = api.resolve(game, position)
    for value in data["moves"]:
        line = value["line"]
        named = None
        if value["result"] in ("win", "loss") and len(line) == value["plies"]:
            moves, at = [], pos
            for text in line:
                moves.append(rules.parse_move(at, text))
                at = rules.play(at, moves[-1])
            named = rules.threat_win(pos, moves)  # type: ignore[attr-defined]
        assert value.get("threat") == named, value


def test_gomoku_is_offered_with_its_budget(web_client: TestClient) -> None:
    games = {g["name"]: g for g in web_client.get("/api/games").json()["games"]}
    gomoku = games["gomoku"]
    assert (gomoku["rows"], gomoku["columns"], gomoku["goal"]) == (15, 15, "five in a row")
    assert gomoku["time_limit"] == 1.0 and gomoku["exact"] is False
    assert gomoku["column_labels"][-1] == "o" and gomoku["row_labels"][0] == "15"


def test_a_win_by_continuous_fours_is_named(web_client: TestClient) -> None:
    position = position_after("gomoku", DOUBLE_FOUR)
    data = web_client.post("/api/analyze", json={"game": "gomoku", "position": position}).json()
    best = next(m for m in data["moves"] if m["move"] == data["best"]["move"])
    assert (best["move"], best["result"], best["plies"]) == ("l8", "win", 3)
    assert best["threat"] == "continuous fours" and len(best["line"]) == 3
    check_threats("gomoku", position, data)


def test_the_explained_move_carries_the_same_words(web_client: TestClient) -> None:
    position = position_after("gomoku", DOUBLE_FOUR)
    body = {"game": "gomoku", "position": position, "explain": True}
    data = web_client.post("/api/move", json=body).json()
    assert data["move"]["move"] == "l8"
    chosen = next(m for m in data["analysis"]["moves"] if m["move"] == "l8")
    assert chosen["threat"] == "continuous fours"
    check_threats("gomoku", position, data["analysis"])


def test_threats_where_four_in_a_row_wins(web_client: TestClient) -> None:
    position = position_after("mnk:5,5,4", ["b2", "a1", "c3", "e5", "b4", "a5", "c2", "e1"])
    data = web_client.post("/api/analyze", json={"game": "mnk:5,5,4", "position": position}).json()
    check_threats("mnk:5,5,4", position, data)
    assert any(m.get("threat") == "continuous threes" for m in data["moves"])


def test_games_whose_rules_name_no_threats_get_the_library_json(web_client: TestClient) -> None:
    data = web_client.post("/api/analyze", json={"game": "connect4", "position": "4444"}).json()
    assert all("threat" not in m for m in data["moves"])


def test_big_boards_skip_the_quick_path(
    web_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stopped analysis still asks the engine about every move: on the event
    loop, Gomoku's 200-odd would hold up every other request."""
    stopped: list[str] = []
    real = api.analyze

    def spy(request: api.Request) -> Any:  # the web asks with the request it resolved
        if request.stop is api.STOPPED:
            stopped.append(request.game.name)
        return real(request)

    monkeypatch.setattr(api, "analyze", spy)
    position = position_after("gomoku", DOUBLE_FOUR)
    for path, extra in (("/api/analyze", {}), ("/api/move", {"explain": True})):
        body = {"game": "gomoku", "position": position, **extra}
        assert web_client.post(path, json=body).status_code == 200
    assert stopped == []
    assert web_app.quick_analysis("connect4", "4444")
    assert not web_app.quick_analysis("gomoku", position)


def test_the_largest_board_is_accepted(web_client: TestClient) -> None:
    rules = get_game("mnk:20,20,5")
    position = rules.format(api.play_move(rules, rules.initial(), "t1"))
    assert len(position) > 400
    body = {"game": "mnk:20,20,5", "position": position, "move": "a20"}
    data = web_client.post("/api/position", json=body).json()
    assert data["board"][0][0] == "o" and data["board"][19][19] == "x"
