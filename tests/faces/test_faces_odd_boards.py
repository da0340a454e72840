"""Connect Four on odd boards (5x5, 7x5, 9x5) through every face, whole games
with hints and explanations on: the API, the terminal game and the page.

On these boards the first player holds one stone more than the second when
the board is full; counting distances as if it did not made the solver's
answers fail an invariant, which reached users as "internal error" (issue
37). Here each face plays whole games with every explanation it offers, and
each value it shows must be one the independent checks agree with
(``test_connect4_exact_everywhere``).
"""

from __future__ import annotations

import io
import random
import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright import sync_api
from rich.console import Console

from test_web_browser import column, open_page, settle
from unbeatable import api
from unbeatable.cli.play import Match
from unbeatable.games import get_game
from unbeatable.web import create_app

#: (board, stones of the start position): 9x5 is a first-player win on move 41
#: that takes minutes from the empty board, so its games start in the middle.
BOARDS = [("connect4:5,5", 0), ("connect4:7,5", 0), ("connect4:9,5", 20)]
#: Seconds each request may search: enough for exact answers near the end.
BUDGET = 0.5


def start_moves(name: str, stones: int, seed: int) -> list[str]:
    """The moves of a random game's first ``stones`` stones, not over."""
    game = get_game(name)
    rng = random.Random(seed)
    while True:
        position, moves = game.initial(), []
        while len(moves) < stones and not game.is_terminal(position):
            move = rng.choice(game.moves(position))
            moves.append(game.format_move(move))
            position = game.play(position, move)
        if not game.is_terminal(position) and not game.winning_moves(position, "x"):
            return moves


def check_analysis(data: dict[str, Any]) -> None:
    """An analysis's values hold together: the best move's value is the
    position's, and a line starts with its move and never runs past the end
    its value says (under a budget a line may stop short of it)."""
    assert data["best"] is not None
    best = next(m for m in data["moves"] if m["move"] == data["best"]["move"])
    assert (best["result"], best["plies"]) == (data["result"], data["plies"])
    for move in data["moves"]:
        assert move["line"][:1] == [move["move"]], move
        if move["result"] != "unknown":
            assert len(move["line"]) <= move["plies"], move


@pytest.fixture
def client() -> Iterator[TestClient]:
    budgets = {name: BUDGET for name, _ in BOARDS}
    with TestClient(create_app(time_limits=budgets)) as web:
        yield web


@pytest.mark.parametrize(("name", "stones"), BOARDS)
def test_the_api_plays_whole_games_with_explanations(
    client: TestClient, name: str, stones: int
) -> None:
    rng = random.Random(7)
    moves = start_moves(name, stones, seed=3)
    view = client.post("/api/position", json={"game": name, "position": "".join(moves)})
    assert view.status_code == 200, view.text
    notation = view.json()["position"]
    while not view.json()["status"]["over"]:
        # The player asks for the analysis (the page's hints), then plays a
        # random legal move; the AI answers with its explanation.
        hint = client.post("/api/analyze", json={"game": name, "position": notation})
        assert hint.status_code == 200, hint.text
        check_analysis(hint.json())
        mine = rng.choice(view.json()["moves"])["move"]
        view = client.post("/api/position", json={"game": name, "position": notation, "move": mine})
        assert view.status_code == 200, view.text
        notation = view.json()["position"]
        if view.json()["status"]["over"]:
            break
        answer = client.post(
            "/api/move",
            json={"game": name, "position": notation, "level": "impossible", "explain": True},
        )
        assert answer.status_code == 200, answer.text
        body = answer.json()
        check_analysis(body["analysis"])
        assert body["move"]["move"] in {m["move"] for m in view.json()["moves"]}
        notation = body["position"]
        view = client.post("/api/position", json={"game": name, "position": notation})
    assert view.json()["status"]["over"]


class Typist(io.StringIO):
    """A player at the terminal: asks for a hint, then plays a random column,
    reading the position off the match (so the input follows the game)."""

    def __init__(self, match_ref: list[Match], seed: int) -> None:
        super().__init__()
        self.match_ref = match_ref
        self.rng = random.Random(seed)
        self.hinted = False

    def isatty(self) -> bool:
        return False

    def readline(self, size: int | None = -1) -> str:
        match = self.match_ref[0]
        if match.game.is_terminal(match.position):
            return "n\n"  # no other game
        if not self.hinted:
            self.hinted = True
            return "?\n"
        self.hinted = False
        move = self.rng.choice(match.game.moves(match.position))
        return match.game.format_move(move) + "\n"


@pytest.mark.parametrize(("name", "stones"), BOARDS)
def test_the_terminal_plays_whole_games_with_hints(
    monkeypatch: pytest.MonkeyPatch, name: str, stones: int
) -> None:
    game = get_game(name)
    monkeypatch.setattr(api.engines, "default_time_limit", lambda _game: BUDGET)
    shown = io.StringIO()
    match = Match(game, "x", "impossible", explain=True, console=Console(file=shown, width=80))
    start = game.initial()
    for move in start_moves(name, stones, seed=4):
        start = game.play(start, game.parse_move(start, move))
    match.history = [start]
    monkeypatch.setattr(sys, "stdin", Typist([match], seed=5))
    match.run()
    out = shown.getvalue()
    assert game.is_terminal(match.position)
    assert "internal error" not in out and "Traceback" not in out
    assert re.search(r"(You win|The AI wins|draw)", out), out[-400:]
    assert sum(match.tally.values()) == 1


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize(("name", "stones"), [BOARDS[0], BOARDS[2]])
def test_the_page_opens_any_board_by_link_and_plays_it_out(
    browser: sync_api.Browser, live_server: str, name: str, stones: int
) -> None:
    """A link to a board the game list does not offer opens it (the list
    gains it); hints, Explain and Explore work on it to the end."""
    ctx, page = open_page(browser, live_server)
    expect = sync_api.expect
    try:
        moves = "+".join(start_moves(name, stones, seed=6))
        page.goto(f"{live_server}/#game={name}&side=x&explain=1&moves={moves}")
        page.reload()  # a new hash alone loads nothing: as a link opened afresh
        settle(page)
        expect(page.get_by_label("Game", exact=True)).to_have_value(name)
        game = get_game(name)
        expect(page.locator("#status")).to_contain_text(re.compile("Your turn|move first"))
        rng = random.Random(8)
        explored = False
        while True:
            settle(page)
            text = page.locator("#board").get_attribute("data-position") or ""
            position = game.parse(text)
            if game.is_terminal(position):
                break
            page.get_by_role("button", name="Hint", exact=True).click()
            settle(page)
            if not explored:
                page.get_by_role("button", name="Explore").click()
                settle(page)
                explored = True
            label = game.format_move(rng.choice(game.moves(position)))
            column(page, label).click()
        expect(page.locator("#status")).to_contain_text(re.compile("win|draw", re.I))
        assert not page.locator("#status").inner_text().lower().count("internal")
        foreign, problems = ctx.checks
        assert not foreign and not problems, (foreign, problems)
    finally:
        ctx.close()


def test_any_board_of_a_family_is_described_by_name(client: TestClient) -> None:
    listed = {game["name"] for game in client.get("/api/games").json()["games"]}
    assert "connect4:9,5" not in listed
    one = client.get("/api/games/connect4:9,5")
    assert one.status_code == 200, one.text
    body = one.json()
    assert (body["name"], body["columns"], body["rows"]) == ("connect4:9,5", 9, 5)
    assert body["time_limit"] == BUDGET  # this server's budget, as the list says it
    assert client.get("/api/games/Connect4: 9, 5").json()["name"] == "connect4:9,5"
    for bad, words in (("chess", "unknown game 'chess'"), ("connect4:9,9", "64-bit")):
        answer = client.get(f"/api/games/{bad}")
        assert answer.status_code == 404 and words in answer.json()["error"]
