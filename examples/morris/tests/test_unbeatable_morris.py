"""Three Men's Morris, the plug-in, on every face of Unbeatable: the rules
(placing, then moving; the ply limit's draw, said in words), its notation,
its known value near the end, and the game played through the library, the
command line, the terminal game, the HTTP API, PettingZoo and OpenSpiel.

Run from Unbeatable's repository (``.ci/run`` installs the plug-in and runs
these with the rest) or from this folder after ``pip install -e .``.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip(
    "unbeatable_morris", reason="install the plug-in first: pip install -e examples/morris"
)

from unbeatable_morris import PLY_LIMIT, Morris

import unbeatable
from unbeatable import api

GAME = Morris()


def test_men_are_placed_then_moved_along_lines() -> None:
    start = GAME.initial()
    assert len(GAME.moves(start)) == 9 and all(move[0] is None for move in GAME.moves(start))
    position = GAME.parse("xo./ox./... x")  # x's third man still in hand
    assert all(move[0] is None for move in GAME.moves(position))
    moved = GAME.parse("xox/ox./o.. x 6")  # all six down: men move
    assert all(move[0] is not None for move in GAME.moves(moved))
    assert [GAME.format_move(m) for m in GAME.moves(moved)] == ["c3c2", "b2c2", "b2b1", "b2c1"]


def test_three_in_a_row_wins() -> None:
    before = GAME.parse("xx./oo./... x")
    won = GAME.play(before, GAME.parse_move(before, "c3"))
    assert GAME.winner(won) == "x" and GAME.winning_line(won) == (0, 1, 2)
    assert api.status(GAME, won).reason == "three in a row"


def test_the_ply_limit_draws_and_says_so() -> None:
    last = GAME.parse(f"xxo/xoo/... o {PLY_LIMIT - 1}")
    ended = GAME.play(last, GAME.parse_move(last, "b2a1"))
    assert GAME.is_terminal(ended) and GAME.winner(ended) is None
    assert GAME.draw_reason(ended) == f"{PLY_LIMIT} plies without a mill"
    status = api.status(GAME, ended)
    assert status.over and status.winner is None and status.reason == GAME.draw_reason(ended)
    assert GAME.draw_reason(last) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("xox/ox./o.. x 6", "still puts"),  # not given as a placement test: see below
    ],
)
def test_bad_moves_say_why(text: str, reason: str) -> None:
    placing = GAME.parse("x../.o./... x")
    with pytest.raises(api.IllegalMoveError, match="still puts men down"):
        GAME.parse_move(placing, "a3b3")
    moving = GAME.parse(text)
    with pytest.raises(api.IllegalMoveError, match="all of x's men are down"):
        GAME.parse_move(moving, "c1")
    with pytest.raises(api.IllegalMoveError, match="along a line"):
        GAME.parse_move(moving, "a3c1")
    with pytest.raises(api.InvalidPositionError, match="side to move and the plies"):
        GAME.parse("xox/ox./o..")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_position_reads_back_as_written(seed: int) -> None:
    rng = random.Random(seed)
    position = GAME.initial()
    while not GAME.is_terminal(position):
        assert GAME.parse(GAME.format(position)) == position
        move = rng.choice(GAME.moves(position))
        assert GAME.parse_move(position, GAME.format_move(move)) == move
        position = GAME.play(position, move)
    assert GAME.parse(GAME.format(position)) == position


@pytest.mark.slow
def test_known_values_and_the_ai_never_loses() -> None:
    # Two men down each, x to place its third: it wins at once on the line it has open.
    assert unbeatable.solve("morris", "xx./oo./... x").result == "win"
    rng = random.Random(5)
    for _ in range(2):  # the AI as x against random moves, from two men down each
        position = GAME.parse("x../.o./..x o")
        position = GAME.play(position, rng.choice(GAME.moves(position)))
        while not GAME.is_terminal(position):
            turn = api.ai_turn(GAME, position)
            assert turn is not None
            position = turn.after
            if not GAME.is_terminal(position):
                position = GAME.play(position, rng.choice(GAME.moves(position)))
        assert GAME.winner(position) != "o"


@pytest.mark.slow
def test_the_command_line_and_the_terminal_game() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "unbeatable", "solve", "morris", "xx./oo./... x", "--json"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0 and '"result": "win"' in run.stdout
    # The terminal: place with a cell, ask for a hint while placing, quit.
    played = subprocess.run(
        [sys.executable, "-m", "unbeatable", "play", "morris", "--as", "x"],
        input="b2\n?\nq\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    assert "Traceback" not in played.stderr
    assert "The AI (o) plays" in played.stdout


def test_the_api_answers_within_the_budget() -> None:
    from fastapi.testclient import TestClient

    from unbeatable.web import create_app

    with TestClient(create_app()) as client:
        info = client.get("/api/games/morris").json()
        assert info["moves_from"] is True and info["time_limit"] == 2.0
        view = client.post("/api/position", json={"game": "morris", "position": ""}).json()
        assert all("origin" not in move for move in view["moves"])  # placements
        reply = client.post("/api/move", json={"game": "morris", "position": ""})
        assert reply.status_code == 200, reply.text
        assert reply.json()["proven"] in (True, False)
        drawn = f"xxo/xoo/... o {PLY_LIMIT - 1}"
        after = client.post(
            "/api/position", json={"game": "morris", "position": drawn, "move": "b2a1"}
        ).json()
        assert after["status"] == {
            "over": True,
            "winner": None,
            "line": None,
            "reason": f"{PLY_LIMIT} plies without a mill",
        }


def test_pettingzoo_and_openspiel_play_it() -> None:
    pettingzoo = pytest.importorskip("unbeatable.envs.pettingzoo")
    from pettingzoo.test import api_test

    environment = pettingzoo.env("morris")
    environment.reset()
    api_test(environment, num_cycles=20)
    pyspiel = pytest.importorskip("pyspiel")
    from unbeatable.envs import openspiel

    game = pyspiel.load_game("unbeatable_morris")
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    assert openspiel.bot(game, 0).step(game.new_initial_state()) in range(81)
