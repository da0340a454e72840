"""The issue's two Gomoku positions explained through the HTTP API and the
terminal: after ``ISSUE`` the AI blocks at k12, the only move (x's four
g8-j11 waits there); after ``LOST`` every move of o's loses in 2 (x has two
fours), said once rather than as a table of equal losses. The engine proves
both at once (every other move loses to a five), within the game's budget."""

from __future__ import annotations

import io
import re

from fastapi.testclient import TestClient
from rich.console import Console

from test_threats import DOUBLE_FOUR, GOMOKU, ISSUE, played
from unbeatable import api
from unbeatable.cli.play import Match
from unbeatable.web import models

LOST = [*DOUBLE_FOUR, "l8"]  # o to move: x has i8-l8 and l8-l11
FOUR = "x's four (g8\N{EN DASH}j11)"


def test_the_api_says_why_k12(web_client: TestClient) -> None:
    position = GOMOKU.format(played(GOMOKU, ISSUE))
    answer = web_client.post(
        "/api/move", json={"game": "gomoku", "position": position, "explain": True}
    )
    assert answer.status_code == 200
    data = answer.json()
    assert data["move"]["move"] == "k12"
    words = data["analysis"]["explanation"]
    assert words["summary"] == f"k12 is the only move: every other loses to {FOUR}."
    chosen, rest = words["groups"]
    assert chosen["moves"] == ["k12"] and chosen["words"].endswith(f"blocks {FOUR}.")
    assert len(rest["moves"]) == 197 and rest["result"] == "loss" and rest["plies"] == 2
    k12 = next(m for m in data["analysis"]["moves"] if m["move"] == "k12")
    assert [note["words"] for note in k12["notes"]] == [f"blocks {FOUR}"]
    three = "o's open three (e8\N{EN DASH}g6)"
    assert {mark["words"] for mark in words["threats"]} == {FOUR, three}
    # Every field documented: nothing dropped on the way through the model.
    assert models.MoveResponse.model_validate(data).model_dump(exclude_unset=True) == data


def test_the_api_says_a_lost_position_once(web_client: TestClient) -> None:
    position = GOMOKU.format(played(GOMOKU, LOST))
    data = web_client.post("/api/analyze", json={"game": "gomoku", "position": position}).json()
    words = data["explanation"]
    assert words["summary"] == (
        "Every move loses in 2: x has two fours (i8\N{EN DASH}l8, l8\N{EN DASH}l11)."
    )
    assert len(words["groups"]) <= 3  # the two blocks, and the rest in one line
    assert models.Analysis.model_validate(data).model_dump(exclude_unset=True) == data
    # Games whose rules name no threats keep their JSON.
    plain = web_client.post("/api/analyze", json={"game": "tictactoe", "position": ""}).json()
    assert "explanation" not in plain and all("notes" not in m for m in plain["moves"])


def terminal(moves: list[str], human: str) -> tuple[Match, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    match = Match(GOMOKU, human, "impossible", explain=True, console=console)
    pos = GOMOKU.initial()
    match.history = [pos]
    for move in moves:
        pos = api.play_move(GOMOKU, pos, move)
        match.history.append(pos)
    return match, out


def test_the_terminal_says_why_k12() -> None:
    match, out = terminal(ISSUE, human="x")
    match.ai_move()
    text = out.getvalue()
    assert "The AI (o) plays k12." in text
    assert f"k12 is the only move: every other loses to {FOUR}." in text
    assert f"k12 blocks {FOUR}." in text
    assert re.search(r"and 19\d others \(loss in 2\): x answers k12 and wins", text)
    assert "a15 (loss in 2)" not in text and "a15  " not in text  # no table of equal losses


def test_the_terminal_hint_says_a_lost_position_once() -> None:
    match, out = terminal(LOST, human="o")
    match.human_turn("?")
    text = out.getvalue()
    summary = "Every move loses in 2: x has two fours (i8\N{EN DASH}l8, l8\N{EN DASH}l11)."
    assert text.count(summary) == 1
    assert "just as good" not in text  # not "b15, c15 … and 206 others are just as good"
    board = text.split("o to move")[0]
    assert board.count(" L") <= 2  # the best move's letter, not 211 of them
    assert re.search(r"unmarked: 21\d moves that lose in 2", text)
    assert "Threats (underlined): x's four (i8\N{EN DASH}l8); x's four (l8\N{EN DASH}l11)." in text
