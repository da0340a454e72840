"""The HTTP API: every endpoint agrees with the library, and every class of bad
input is a 4xx with a precise ``{"error": ...}`` message, never a 500 or a hang."""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2 as httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel

import unbeatable
from unbeatable import api
from unbeatable.games import OFFERED
from unbeatable.web import app as web_app
from unbeatable.web import create_app, models, serve, url

TTT = "tictactoe"
#: Positions of every kind: opening, middle game, forced win, forced loss, near the end.
POSITIONS = [
    ".../.../...",
    "x../.../...",
    "x../.o./...",
    "xox/oox/...",
    "xo./.x./..o",
    "xx./oo./...",
    "xox/xo./o..",
    "xox/oxx/o..",
]
FINISHED = {
    "xxx/oo./...": "x",
    "xox/oxo/oxx": "x",
    "xox/xoo/oxx": None,
}


def error_of(response: httpx.Response) -> str:
    """The error message, after checking the body is exactly ``{"error": str}``."""
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert isinstance(body["error"], str) and body["error"]
    return body["error"]


def without_effort(data: dict[str, Any]) -> dict[str, Any]:
    """The answer without time and node counts, which depend on what the
    process-wide engine has already learned."""
    return {k: v for k, v in data.items() if k not in ("time_ms", "nodes")}


# -- endpoints -------------------------------------------------------------------


def test_health(web_client: TestClient) -> None:
    response = web_client.get("/api/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_games_are_described_by_the_games_themselves(web_client: TestClient) -> None:
    games = web_client.get("/api/games").json()["games"]
    by_name = {g["name"]: g for g in games}
    # The built-in games, then any plug-in installed (CI installs examples/hexapawn).
    assert list(by_name)[:9] == [
        "tictactoe",
        "connect4",
        "connect4:6,5",
        "connect4:8,7",
        "gomoku",
        "gomoku:standard,15",
        "renju",
        "mnk:4,4,4",
        "mnk:5,5,4",
    ]
    ttt = by_name["tictactoe"]
    evaluation = unbeatable.get_game(TTT).static_evaluation()
    assert evaluation is not None
    assert ttt == {
        **unbeatable.get_game(TTT).describe().to_dict(),
        "exact": True,
        "initial": ".../.../... x",
        "time_limit": None,
        "lesson": {
            "rule": evaluation.rule,
            "examples": [{"name": n, "position": p} for n, p in evaluation.examples],
        },
    }
    assert ttt == api.game_info(TTT).to_dict()
    assert (ttt["rows"], ttt["columns"], ttt["gravity"], ttt["exact"]) == (3, 3, False, True)
    assert ttt["keys"][0] == {"key": "1", "move": "a3"}
    c4 = by_name["connect4"]
    assert c4["initial"] == "" and c4["time_limit"] > 0 and c4["gravity"]
    assert [side["name"] for side in c4["sides"]] == ["Red", "Yellow"]
    assert by_name["mnk:4,4,4"]["title"] == "4\N{MULTIPLICATION SIGN}4, four in a row"
    small = by_name["connect4:6,5"]
    assert (small["columns"], small["rows"], small["gravity"]) == (6, 5, True)
    assert small["title"] == "Connect Four, 6\N{MULTIPLICATION SIGN}5"
    assert small["time_limit"] == c4["time_limit"] and small["initial"] == ""


@pytest.mark.parametrize(
    ("game", "position", "move", "cells"),
    [
        (TTT, "", None, [(r, c) for r in range(3) for c in range(3)]),
        ("connect4", "4", "4", [(5, 0), (5, 1), (5, 2), (3, 3), (5, 4), (5, 5), (5, 6)]),
        ("mnk:4,4,4", "", "b2", [(r, c) for r in range(4) for c in range(4) if (r, c) != (2, 1)]),
    ],
)
def test_position_shows_every_move_and_the_cell_it_fills(
    web_client: TestClient, game: str, position: str, move: str | None, cells: list[Any]
) -> None:
    body = {"game": game, "position": position, **({"move": move} if move else {})}
    response = web_client.post("/api/position", json=body)
    assert response.status_code == 200
    data = response.json()
    assert data == api.view(game, position, move).to_dict()
    assert [(m["row"], m["col"]) for m in data["moves"]] == cells
    assert data["status"] == {"over": False, "winner": None, "line": None, "reason": None}


def test_position_refuses_an_illegal_move(web_client: TestClient) -> None:
    body = {"game": TTT, "position": "x../.../...", "move": "a3"}
    response = web_client.post("/api/position", json=body)
    assert response.status_code == 400
    assert error_of(response) == "a3 is already taken"


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "mnk:4,4,4", "mnk:1,5,3"])
def test_the_empty_position_is_the_initial_one_for_every_game(
    web_client: TestClient, game: str
) -> None:
    response = web_client.post("/api/position", json={"game": game, "position": ""})
    rules = unbeatable.get_game(game)
    assert response.json()["position"] == rules.format(rules.initial())
    assert web_client.post("/api/analyze", json={"game": game, "position": ""}).status_code == 200


@pytest.mark.parametrize("position", POSITIONS + list(FINISHED))
def test_analyze_is_the_library_analysis(web_client: TestClient, position: str) -> None:
    response = web_client.post("/api/analyze", json={"game": TTT, "position": position})
    assert response.status_code == 200
    expected = unbeatable.analyze(TTT, position, time_limit=api.default_time_limit(TTT))
    assert without_effort(response.json()) == without_effort(expected.to_dict())
    assert "exact" not in response.json()  # tic-tac-toe is always solved exactly


def test_analyze_example_from_the_readme(web_client: TestClient) -> None:
    data = web_client.post("/api/analyze", json={"game": TTT, "position": "xox/oox/..."}).json()
    assert data["best"] == {"move": "c1", "row": 2, "col": 2}
    assert data["position"] == "xox/oox/... x"
    assert [(m["move"], m["result"], m["plies"]) for m in data["moves"]] == [
        ("a1", "loss", 2),
        ("b1", "draw", 3),
        ("c1", "win", 1),
    ]


@pytest.mark.parametrize("position", POSITIONS)
def test_move_impossible_plays_the_best_move(web_client: TestClient, position: str) -> None:
    """A move as good as the best (moves of equal value are drawn at random;
    a seed draws the library's own choice)."""
    body = {"game": TTT, "position": position, "seed": 5}
    response = web_client.post("/api/move", json=body)
    assert response.status_code == 200
    data = response.json()
    best = unbeatable.best_move(TTT, position)
    chosen = unbeatable.choose_move(TTT, position, seed=5)
    assert best is not None and chosen is not None
    assert data["move"] == chosen.ref()
    assert (chosen.result, chosen.plies) == (best.result, best.plies)
    after = api.play_move(TTT, position, chosen.move)
    assert data["position"] == unbeatable.get_game(TTT).format(after)
    assert data["status"] == api.status(TTT, after).to_dict()


def test_move_that_wins_reports_the_line(web_client: TestClient) -> None:
    data = web_client.post("/api/move", json={"game": TTT, "position": "xox/oox/..."}).json()
    view = api.view(TTT, "xox/oox/..x o").to_dict()
    assert data == {
        "move": {"move": "c1", "row": 2, "col": 2},
        "position": "xox/oox/..x o",
        "status": {
            "over": True,
            "winner": "x",
            "line": [[0, 2], [1, 2], [2, 2]],
            "reason": "three in a row",
        },
        "view": view,
        "proven": True,
    }
    assert view["moves"] == [] and view["status"] == data["status"]


def test_only_the_impossible_level_says_whether_its_move_is_proven(
    web_client: TestClient,
) -> None:
    body = {"game": "connect4", "position": "2252576253462244111563"}
    assert web_client.post("/api/move", json=body).json()["proven"] is True
    easy = web_client.post("/api/move", json={**body, "level": "easy", "seed": 1}).json()
    assert easy["proven"] is None


def test_move_that_draws_has_no_winner(web_client: TestClient) -> None:
    data = web_client.post("/api/move", json={"game": TTT, "position": "xox/xoo/ox."}).json()
    assert data["move"]["move"] == "c1"
    assert data["status"] == {"over": True, "winner": None, "line": None, "reason": None}


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_seed_makes_weaker_levels_reproducible(web_client: TestClient, level: str) -> None:
    def moves(seed: int) -> list[str]:
        out = []
        for position in POSITIONS:
            body = {"game": TTT, "position": position, "level": level, "seed": seed}
            out.append(web_client.post("/api/move", json=body).json()["move"]["move"])
        return out

    assert moves(7) == moves(7)
    # The seed matters: across a few seeds, the weaker levels do not always agree.
    assert len({tuple(moves(seed)) for seed in range(6)}) > 1


def test_seeded_move_matches_the_library(web_client: TestClient) -> None:
    body = {"game": TTT, "position": ".../.../...", "level": "easy", "seed": 7}
    data = web_client.post("/api/move", json=body).json()
    expected = api.choose_move(TTT, ".../.../...", "easy", random.Random(7))
    assert expected is not None
    assert data["move"] == expected.ref()


@pytest.mark.parametrize(("position", "winner"), FINISHED.items())
def test_move_on_a_finished_game_is_409(
    web_client: TestClient, position: str, winner: str | None
) -> None:
    response = web_client.post("/api/move", json={"game": TTT, "position": position})
    assert response.status_code == 409
    message = error_of(response)
    assert message.startswith("the game is over")
    assert (f"{winner} has won" if winner else "draw") in message


@pytest.mark.parametrize("position", POSITIONS + list(FINISHED))
@pytest.mark.parametrize("weak", [False, True])
def test_solve_is_the_library_solution(web_client: TestClient, position: str, weak: bool) -> None:
    body = {"game": TTT, "position": position, "weak": weak}
    response = web_client.post("/api/solve", json=body)
    assert response.status_code == 200
    data = response.json()
    expected = unbeatable.solve(TTT, position, weak=weak).to_dict()
    assert set(data) == {
        "game",
        "position",
        "to_move",
        "result",
        "plies",
        "score",
        "nodes",
        "time_ms",
        "exact",
    }
    for key in ("game", "position", "to_move", "result", "plies", "score", "exact"):
        assert data[key] == expected[key]


def test_solve_defaults_to_strong(web_client: TestClient) -> None:
    data = web_client.post("/api/solve", json={"game": TTT, "position": ".../.../..."}).json()
    assert (data["result"], data["plies"], data["score"]) == ("draw", 9, 0)


# -- bad input ---------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/analyze", "/api/move", "/api/solve"])
def test_unknown_game_names_the_known_ones(web_client: TestClient, path: str) -> None:
    response = web_client.post(path, json={"game": "chess", "position": "xox/oox/..."})
    assert response.status_code == 422
    # The built-in games, then any plug-in installed (CI installs examples/hexapawn).
    built_in = (
        "tictactoe, connect4, gomoku, renju, mnk:ROWS,COLS,K, connect4:COLUMNS,ROWS, "
        "gomoku:RULE[,SIZE]"
    )
    assert api.naming().startswith(built_in)
    assert error_of(response) == f"game: unknown game 'chess' (known games: {api.naming()})"


@pytest.mark.parametrize(
    ("position", "reason"),
    [
        ("xox/oox", "wrong shape: expected 3 rows separated by '/', got 2"),
        ("xox/oox/..", "wrong shape: row 3 has 2 cells, expected 3"),
        ("xoz/oox/...", "unknown character 'z' in row 1"),
        ("xox/oox/... q", "unknown side to move 'q'"),
        ("xxx/x../...", "impossible counts: 4 x and 0 o"),
        ("xxx/ooo/x..", "both x and o have a line"),
        ("xox/oox/... o", "side to move 'o' contradicts the counts"),
    ],
)
@pytest.mark.parametrize("path", ["/api/analyze", "/api/move", "/api/solve"])
def test_bad_positions_are_400_with_the_reason(
    web_client: TestClient, path: str, position: str, reason: str
) -> None:
    response = web_client.post(path, json={"game": TTT, "position": position})
    assert response.status_code == 400
    message = error_of(response)
    assert message.startswith("invalid position: ")
    assert reason in message


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": TTT}, "position: required field missing"),
        ({"position": "..."}, "game: required field missing"),
        ({"game": TTT, "position": 3}, "position: Input should be a valid string"),
        ({"game": 1, "position": "..."}, "game: Input should be a valid string"),
        ({"game": TTT, "position": None}, "position: Input should be a valid string"),
        ({"game": TTT, "position": "...", "postion": "x"}, "postion: unknown field"),
        ({"game": TTT, "position": "x" * 513}, "position: String should have at most 512"),
        ({"game": "g" * 33, "position": "..."}, "game: String should have at most 32"),
        ({"game": "", "position": "..."}, "game: String should have at least 1"),
    ],
)
@pytest.mark.parametrize("path", ["/api/analyze", "/api/move", "/api/solve"])
def test_schema_violations_are_422_naming_the_field(
    web_client: TestClient, path: str, body: dict[str, Any], message: str
) -> None:
    response = web_client.post(path, json=body)
    assert response.status_code == 422
    assert message in error_of(response)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"level": "hard"}, "level: Input should be 'easy', 'medium' or 'impossible'"),
        ({"level": 2}, "level: Input should be 'easy', 'medium' or 'impossible'"),
        ({"seed": "7"}, "seed: Input should be a valid integer"),
        ({"seed": 1.5}, "seed: Input should be a valid integer"),
        ({"seed": True}, "seed: Input should be a valid integer"),
        ({"seed": -1}, "seed: Input should be greater than or equal to 0"),
        ({"seed": 2**53}, "seed: Input should be less than or equal to"),
    ],
)
def test_move_options_are_validated(
    web_client: TestClient, extra: dict[str, Any], message: str
) -> None:
    body = {"game": TTT, "position": "...", **extra}
    response = web_client.post("/api/move", json=body)
    assert response.status_code == 422
    assert message in error_of(response)


def test_weak_must_be_a_boolean(web_client: TestClient) -> None:
    body = {"game": TTT, "position": ".../.../...", "weak": "yes"}
    response = web_client.post("/api/solve", json=body)
    assert response.status_code == 422
    assert error_of(response) == "weak: Input should be a valid boolean"


def test_several_problems_are_all_named(web_client: TestClient) -> None:
    response = web_client.post("/api/move", json={"level": "hard"})
    assert response.status_code == 422
    message = error_of(response)
    for field in ("game:", "position:", "level:"):
        assert field in message


@pytest.mark.parametrize(
    ("content", "content_type", "status", "message"),
    [
        (b"{not json", "application/json", 400, "body: invalid JSON"),
        (b"\xff\xfe\xfa", "application/json", 400, "body: invalid JSON"),
        (b"", "application/json", 422, "body: missing"),
        (b"[1, 2]", "application/json", 422, "body: expected a JSON object"),
        (b'"text"', "application/json", 422, "body: expected a JSON object"),
        (b"game=tictactoe", "application/x-www-form-urlencoded", 422, "expected a JSON object"),
        (b'{"game": "tictactoe", "position": "..."}', "text/plain", 422, "expected a JSON"),
    ],
)
def test_bodies_that_are_not_json_objects(
    web_client: TestClient, content: bytes, content_type: str, status: int, message: str
) -> None:
    response = web_client.post(
        "/api/analyze", content=content, headers={"content-type": content_type}
    )
    assert response.status_code == status
    assert message in error_of(response)


def test_missing_content_type_is_refused(web_client: TestClient) -> None:
    response = web_client.post("/api/analyze", content=b'{"game": "tictactoe", "position": "."}')
    assert response.status_code == 422
    assert "expected a JSON object" in error_of(response)


def test_oversized_body_is_413_before_it_is_read(web_client: TestClient) -> None:
    huge = json.dumps({"game": TTT, "position": "x" * 10_000})
    response = web_client.post(
        "/api/analyze", content=huge, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert error_of(response) == "request body too large: the limit is 4096 bytes"


def test_oversized_chunked_body_is_413(web_client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"game": "tictactoe", "position": "'
        for _ in range(100):
            yield b"x" * 100
        yield b'"}'

    response = web_client.post(
        "/api/analyze", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert "too large" in error_of(response)


def test_body_at_the_limit_is_read(web_client: TestClient) -> None:
    body = json.dumps({"game": TTT, "position": "xox/oox/..."}).encode()
    padded = body[:-1] + b" " * (4096 - len(body)) + b"}"
    assert len(padded) == 4096
    response = web_client.post(
        "/api/analyze", content=padded, headers={"content-type": "application/json"}
    )
    assert response.status_code == 200


def test_long_field_names_are_not_echoed_at_length(web_client: TestClient) -> None:
    body = {"game": TTT, "position": "...", "k" * 3000: 1}
    response = web_client.post("/api/analyze", json=body)
    assert response.status_code == 422
    assert len(error_of(response)) < 200


def test_unknown_path_is_404_json(web_client: TestClient) -> None:
    response = web_client.get("/api/nothing")
    assert response.status_code == 404
    assert error_of(response) == "Not Found"


def test_wrong_method_is_405_json(web_client: TestClient) -> None:
    response = web_client.get("/api/move")
    assert response.status_code == 405
    assert error_of(response) == "Method Not Allowed"
    assert "POST" in response.headers["allow"]


# -- server-side safety nets ---------------------------------------------------------


def test_requests_run_side_by_side(live_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """No lock serialises engine work: two searches are under way at once."""
    both = threading.Barrier(2, timeout=10)
    real = api.solve

    def meet(*args: Any, **kwargs: Any) -> Any:
        both.wait()  # breaks (and the request fails) unless the other one runs too
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "solve", meet)

    def ask(position: str) -> int:
        with httpx.Client(base_url=live_server, timeout=20) as client:
            body = {"game": "connect4", "position": position}
            return client.post("/api/solve", json=body).status_code

    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(ask, ["2252576253462244111563", "22525762534622441115"])) == [200, 200]


def test_a_search_stops_when_its_client_goes_away(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    stopped = threading.Event()
    real = api.solve

    def patient(request: api.Request, **kwargs: Any) -> Any:
        stop = request.stop  # the web asks the library with the request it resolved
        assert stop is not None
        if stop.wait(20):
            stopped.set()
        # Then answer as a stopped search does (not by raising: the server
        # would log a traceback into the test run's output after it ended).
        return real(request, **kwargs)

    monkeypatch.setattr(api, "solve", patient)
    with (
        httpx.Client(base_url=live_server, timeout=0.3) as client,
        pytest.raises(httpx.ReadTimeout),
    ):
        client.post("/api/solve", json={"game": "connect4", "position": "4453"})
    assert stopped.wait(10)


@pytest.mark.parametrize(
    ("game", "position", "threads"),
    [
        (TTT, "x../.../...", ["loop"]),  # exact in microseconds: always inline
        ("connect4", "44", ["loop"]),  # every child in the opening book
        ("connect4", "2252576253462244111563", ["loop", "worker"]),  # needs a search
    ],
)
def test_known_answers_never_wait_for_a_thread(
    web_client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    position: str,
    threads: list[str],
) -> None:
    """What the engines know is answered on the event loop; searches run in
    the threadpool, never blocking it."""
    seen: list[str] = []
    real = api.analyze

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append("worker" if threading.current_thread().name.startswith("AnyIO") else "loop")
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "analyze", spy)
    response = web_client.post("/api/analyze", json={"game": game, "position": position})
    assert response.status_code == 200
    assert seen == threads


def test_missing_engine_is_503(web_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(*args: Any, **kwargs: Any) -> Any:
        raise ModuleNotFoundError("No module named 'numba'")

    monkeypatch.setattr(api, "solve", missing)
    response = web_client.post("/api/solve", json={"game": TTT, "position": ".../.../..."})
    assert response.status_code == 503
    assert error_of(response) == "the tictactoe engine is not available on this server"


def test_unexpected_failure_is_a_json_500(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    with TestClient(create_app(), raise_server_exceptions=False) as client:
        monkeypatch.setattr(api, "analyze", broken)
        response = client.post("/api/analyze", json={"game": TTT, "position": ".../.../..."})
    assert response.status_code == 500
    assert error_of(response) == "internal server error"


#: A Connect Four position whose answers need a search (past the book, no
#: move forced), for the budget's test.
SEARCHED = "2252576253462244111563"


@pytest.mark.parametrize("path", ["/api/analyze", "/api/move", "/api/solve", "/api/review"])
def test_each_request_gets_the_games_time_budget(
    monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """The deadline that reaches the engine is the game's budget (2 s for
    Connect Four), or this server's where ``create_app(time_limits=...)``
    says so: a server that dropped its own budget would search within the
    game's 2 s, one that dropped both without any deadline."""
    api.warm("connect4")  # its readying searches under a clock of its own
    engine = api.engine("connect4")
    given: list[float] = []
    for name in ("solve", "value"):
        real = getattr(engine, name)

        def spy(position: Any, limits: Any = None, weak: bool = False, real: Any = real) -> Any:
            if limits is not None and limits.deadline is not None:
                given.append(limits.remaining())
            return real(position, limits, weak)

        monkeypatch.setattr(engine, name, spy)
    body: dict[str, Any] = {"game": "connect4", "position": SEARCHED}
    if path == "/api/review":
        body = {"game": "connect4", "position": SEARCHED[:-1], "moves": [SEARCHED[-1]]}
    for budget, overrides in ((2.0, None), (30.0, {"connect4": 30.0})):
        assert budget == (overrides or {}).get("connect4", api.default_time_limit("connect4"))
        api.clear_caches()  # nothing remembered: every answer is searched
        given.clear()
        client = TestClient(create_app(time_limits=overrides))
        assert client.post(path, json=body).status_code == 200
        # The whole budget (less the answer's reserve), or a share of it
        # (an analysis values the position itself with half).
        assert given and budget / 3 < max(given) <= budget, (path, budget, given)
    api.clear_caches()


def test_concurrent_requests_agree_with_the_library(live_server: str) -> None:
    def play(position: str) -> dict[str, Any]:
        with httpx.Client(base_url=live_server, timeout=10) as client:
            body = {"game": TTT, "position": position, "seed": len(position)}
            result: dict[str, Any] = client.post("/api/move", json=body).json()
            return result

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(play, POSITIONS * 10))
    for position, answer in zip(POSITIONS * 10, answers, strict=True):
        chosen = unbeatable.choose_move(TTT, position, seed=len(position))
        assert chosen is not None
        assert answer["move"] == chosen.ref()


# -- pages ---------------------------------------------------------------------------


def test_openapi_documents_every_endpoint(web_client: TestClient) -> None:
    spec = web_client.get("/openapi.json").json()
    assert set(spec["paths"]) == {
        "/api/health",
        "/api/games",
        "/api/games/{name}",
        "/api/analyze",
        "/api/move",
        "/api/position",
        "/api/review",
        "/api/solve",
        "/api/tree",
    }
    move = spec["paths"]["/api/move"]["post"]
    assert {"200", "400", "409", "413", "422", "503"} <= set(move["responses"])
    request = spec["components"]["schemas"]["MoveRequest"]
    game = request["properties"]["game"]
    assert game["anyOf"][0]["enum"] == list(OFFERED)
    assert re.fullmatch(game["anyOf"][1]["pattern"], "mnk:15,15,5")
    assert request["additionalProperties"] is False


@pytest.mark.parametrize("path", ["/", "/docs", "/docs/swagger"])
def test_pages_load_nothing_from_elsewhere(web_client: TestClient, path: str) -> None:
    response = web_client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    # Every script, stylesheet and image comes from this server.
    for ref in re.findall(r'(?:src|href)="([^"]+)"', response.text):
        assert ref.startswith(("/", "#", "data:")), ref
    assert "cdn" not in response.text.lower()


@pytest.mark.parametrize(
    ("asset", "kind"),
    [
        ("app.js", "javascript"),
        ("style.css", "text/css"),
        ("swagger/swagger-ui-bundle.js", "javascript"),
        ("swagger/swagger-ui.css", "text/css"),
    ],
)
def test_static_assets_are_served(web_client: TestClient, asset: str, kind: str) -> None:
    response = web_client.get(f"/static/{asset}")
    assert response.status_code == 200
    assert kind in response.headers["content-type"]
    if not asset.startswith("swagger/"):  # Swagger UI's own code names its home page
        assert "http://" not in response.text and "https://" not in response.text


def _without_costs(data: Any) -> Any:
    """An answer without what differs from run to run (the work it took)."""
    if isinstance(data, dict):
        return {k: _without_costs(v) for k, v in data.items() if k not in ("nodes", "time_ms")}
    if isinstance(data, list):
        return [_without_costs(v) for v in data]
    return data


def test_the_docs_show_real_answers_to_real_requests(web_client: TestClient) -> None:
    """Every endpoint's documented answer is what the server answers its
    documented request (no "string" placeholders), and the page lists them all."""
    spec = web_client.get("/openapi.json").json()
    page = web_client.get("/docs").text
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            example = operation["responses"]["200"]["content"]["application/json"]["example"]
            assert f"<code>{path}</code>" in page
            if method != "post":
                continue
            body = operation["requestBody"]["content"]["application/json"]["example"]
            answer = web_client.post(path, json=body)
            assert answer.status_code == 200, path
            assert _without_costs(answer.json()) == _without_costs(example), path
    position = spec["paths"]["/api/analyze"]["post"]["responses"]["200"]
    assert position["content"]["application/json"]["example"]["position"] == "xox/oox/... x"


@pytest.mark.parametrize("escape", ["%2e%2e/app.py", "..%2fapp.py", "%2E%2E/%2E%2E/web/app.py"])
def test_static_paths_cannot_escape(web_client: TestClient, escape: str) -> None:
    """Dots the client does not resolve (percent-encoded: httpx resolves a
    plain ``/static/../app.py`` to ``/app.py`` before sending it) reach the
    static files' handler as ``..`` and name web/app.py, which is refused."""
    assert (web_app.STATIC_DIR.parent / "app.py").is_file()  # what an escape would serve
    response = web_client.get(f"/static/{escape}")
    assert response.status_code == 404
    assert error_of(response) == "Not Found"


def _cdn_page(text: str) -> bool:
    """Whether a page loads Swagger UI or ReDoc from a CDN, as FastAPI's own
    docs pages do (cdn.jsdelivr.net)."""
    return re.search(r"(?:src|href)=['\"]https?://", text) is not None


def test_fastapis_swagger_and_redoc_cdn_pages_are_off(web_client: TestClient) -> None:
    """FastAPI's own documentation pages (Swagger UI at /docs, ReDoc at /redoc,
    Swagger's OAuth redirect) load their code from a CDN: none is served, at
    those paths or any other; /docs and /docs/swagger are this server's."""
    assert web_client.get("/redoc").status_code == 404
    assert web_client.get("/docs/oauth2-redirect").status_code == 404
    pages = [
        route.path
        for route in web_client.app.routes  # type: ignore[attr-defined]
        if "GET" in getattr(route, "methods", ()) and "{" not in route.path
    ]
    assert {"/docs", "/docs/swagger"} <= set(pages)
    for path in pages:
        response = web_client.get(path)
        assert response.status_code == 200, path
        assert not _cdn_page(response.text), path


def test_page_has_the_named_controls(web_client: TestClient) -> None:
    html = web_client.get("/").text
    for name in ("Play Game", "New Game", "Undo", "Hint", "Explain"):
        assert f">{name}<" in html
    assert 'aria-live="polite"' in html


# -- Connect Four ----------------------------------------------------------------------


def test_connect4_analyze_move_and_solve(web_client: TestClient) -> None:
    body = {"game": "connect4", "position": "4453"}
    analysis = web_client.post("/api/analyze", json=body).json()
    assert analysis["game"] == "connect4"
    assert analysis["position"] == "4453"
    assert [m["move"] for m in analysis["moves"]] == list("1234567")
    assert all(set(m) >= {"move", "col", "result"} and "row" not in m for m in analysis["moves"])
    assert "exact" in analysis
    move = web_client.post("/api/move", json=body).json()
    assert move["position"] == "4453" + move["move"]["move"]
    assert move["move"]["col"] == int(move["move"]["move"]) - 1
    solved = web_client.post("/api/solve", json=body).json()
    assert solved["to_move"] == "x"


def test_connect4_win_and_finished_game(web_client: TestClient) -> None:
    # x has three in column 1 and plays the fourth.
    data = web_client.post("/api/move", json={"game": "connect4", "position": "121212"}).json()
    assert data["move"]["move"] == "1"
    assert data["status"]["over"] is True
    assert data["status"]["winner"] == "x"
    over = web_client.post("/api/move", json={"game": "connect4", "position": "1212121"})
    assert over.status_code == 409


def test_connect4_bad_positions_are_400(web_client: TestClient) -> None:
    for position, reason in [
        ("48", "column 8 is outside 1-7"),
        ("1111111", "column 1 is full"),
        ("12a", "unknown character 'a'"),
    ]:
        response = web_client.post("/api/analyze", json={"game": "connect4", "position": position})
        assert response.status_code == 400
        assert reason in error_of(response)


# -- serving -------------------------------------------------------------------------


def test_url_brackets_ipv6_hosts() -> None:
    assert url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert url("::1", 8080) == "http://[::1]:8080/"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"workers": 0}, "workers must be at least 1"), ({"port": 70000}, "port must be between")],
)
def test_serve_rejects_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        serve(**kwargs)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _nodelay_of_accepted(sock: socket.socket) -> int:
    """TCP_NODELAY on a connection accepted by asyncio from ``sock``, as
    uvicorn's event loop accepts them."""
    import asyncio

    async def main() -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                conn = transport.get_extra_info("socket")
                accepted.set_result(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        port = sock.getsockname()[1]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        value = await asyncio.wait_for(accepted, 10)
        writer.close()
        server.close()
        return value

    # On a thread of its own: a test process may hold a running loop already
    # (the browser tests' Playwright, shared by the process).
    found: list[int] = []
    worker = threading.Thread(target=lambda: found.append(asyncio.run(main())))
    worker.start()
    worker.join(timeout=30)
    assert found, "the probe connection was not accepted"
    return found[0]


@pytest.mark.parametrize("workers", [1, 2])
def test_served_connections_send_small_answers_at_once(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nagle's algorithm is off on every connection (TCP_NODELAY): with it on,
    each small answer on a kept-alive connection waits ~40 ms for the client's
    delayed ACK. asyncio turns it off only on sockets that say they are TCP."""
    import uvicorn
    import uvicorn.supervisors

    handed: list[socket.socket] = []

    def fake_run(self: Any, sockets: list[socket.socket] | None = None) -> None:
        handed.extend(sockets or [])

    class FakeSupervisor:
        def __init__(self, config: Any, sockets: list[socket.socket]) -> None:
            handed.extend(sockets)

        def run(self) -> None:
            pass

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    monkeypatch.setattr(uvicorn.supervisors, "Multiprocess", FakeSupervisor)
    serve(port=0, workers=workers)
    assert len(handed) == 1
    with handed[0] as sock:
        assert _nodelay_of_accepted(sock) != 0


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_serve_prints_the_url_and_answers(workers: int) -> None:
    """``serve()`` runs uvicorn in-process, by import string so workers > 1 work."""
    port = free_port()
    code = f"from unbeatable.web import serve; serve(port={port}, workers={workers})"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        assert response.json() == {"status": "ok"}
        move = httpx.post(
            f"http://127.0.0.1:{port}/api/move",
            json={"game": TTT, "position": "xox/oox/..."},
            timeout=10,
        )
        assert move.json()["move"]["move"] == "c1"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# -- the documented JSON is the JSON sent ---------------------------------------------


def test_answers_validate_against_their_models(web_client: TestClient) -> None:
    """The library's JSON fits the documented models (made from the same
    statement of each answer's JSON), with no field left undocumented."""

    def check(model: type[BaseModel], data: dict[str, Any]) -> None:
        # A field the model does not know would be dropped on the way back.
        assert model.model_validate(data).model_dump(exclude_unset=True) == data

    turn = api.ai_turn("connect4", "4453", explain=True)
    assert turn is not None
    check(models.MoveResponse, turn.to_dict())
    check(models.View, api.view(TTT, "xxx/oo./...").to_dict())
    check(models.TracedTree, api.tree(TTT, "xo./.x./..o", algorithm="alphabeta").to_dict())
    check(models.TracedTree, api.textbook_tree([3, 5, 2, 9], "alphabeta").to_dict())
    check(models.Solution, api.solve(TTT, "x../.../...").to_dict())
    check(models.Analysis, api.analyze("mnk:4,4,4", "x.../..o./..../....").to_dict())
    check(models.Review, api.review(TTT, "b2 c2 a1").to_dict())
    for name in api.OFFERED:
        check(models.GameInfo, api.game_info(name).to_dict())
