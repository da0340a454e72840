"""Hexapawn's rules, its known values, and the game played through every face
of Unbeatable that a plug-in reaches: the library, the command line, the API.

Run from Unbeatable's repository (``.ci/run`` installs the plug-in and runs
these with the rest) or from this folder after ``pip install -e .``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import unbeatable
from unbeatable import api
from unbeatable.games import GameError, IllegalMoveError, InvalidPositionError, game_names

hexapawn_module = pytest.importorskip(
    "unbeatable_hexapawn", reason="install the plug-in first: pip install -e examples/hexapawn"
)
Hexapawn = hexapawn_module.Hexapawn

GAME = Hexapawn()
START = "bbb/.../www w"


def test_the_plugin_is_installed_as_a_game() -> None:
    assert {"hexapawn"} <= set(game_names())
    assert unbeatable.get_game("hexapawn").name == "hexapawn"
    assert unbeatable.get_game("hexapawn:4,3").name == "hexapawn:4,3"
    assert unbeatable.get_game("Hexapawn") is unbeatable.get_game("hexapawn")
    assert unbeatable.get_game("hexapawn:3,3") is unbeatable.get_game("hexapawn")


# -- rules ------------------------------------------------------------------------


def test_the_start_and_its_moves() -> None:
    start = GAME.initial()
    assert GAME.format(start) == START
    assert GAME.parse("") == start and GAME.parse(START) == start
    assert [GAME.format_move(m) for m in GAME.moves(start)] == ["a1a2", "b1b2", "c1c2"]


def test_pawns_capture_diagonally_and_only_so() -> None:
    position = GAME.parse("b.b/.b./www w")
    moves = [GAME.format_move(m) for m in GAME.moves(position)]
    # a1 and c1 capture on b2 (two moves onto one cell), b1 is blocked, a1/c1 step ahead.
    assert sorted(moves) == ["a1a2", "a1b2", "c1b2", "c1c2"]
    assert GAME.cell(position, GAME.parse_move(position, "a1b2")) == (1, 1)
    assert GAME.origin(position, GAME.parse_move(position, "a1b2")) == (2, 0)
    assert GAME.origin(position, GAME.parse_move(position, "c1xb2")) == (2, 2)


@pytest.mark.parametrize(
    ("position", "winner"),
    [
        ("wbb/.../.w. b", "w"),  # a white pawn on the far row
        ("bb./.../.wb w", "b"),  # a black pawn on White's row
        ("w../.../... b", "w"),  # every black pawn taken
        ("b../b../w.. w", "b"),  # white, to move, is stuck
        (START, None),
    ],
)
def test_how_games_end(position: str, winner: str | None) -> None:
    parsed = GAME.parse(position)
    assert GAME.winner(parsed) == winner
    assert GAME.is_terminal(parsed) == (winner is not None)
    assert (GAME.moves(parsed) == []) == (winner is not None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bbb/... w", "expected 3 rows"),
        ("bbb/..../www w", "row 2 has 4 cells"),
        ("bbq/.../www w", "unknown cell 'q'"),
        ("bbb/.../www x", "the side to move is w or b"),
        ("bbb/bbb/www w", "each side has at most 3"),
    ],
)
def test_bad_positions_say_why(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        GAME.parse(text)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("b1", "is not a move"),
        ("d1d2", "is not a move"),
        ("a1a5", "rows are numbered 1-3"),
        ("a3a2", "no w pawn on a3"),
        ("a1b2", "diagonally ahead onto an opponent's pawn"),
    ],
)
def test_bad_moves_say_why(move: str, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        GAME.parse_move(GAME.initial(), move)


def test_boards_out_of_the_family_are_refused() -> None:
    with pytest.raises(GameError, match="at most 16"):
        unbeatable.get_game("hexapawn:5,5")
    with pytest.raises(GameError, match="write hexapawn:COLUMNS,ROWS"):
        unbeatable.get_game("hexapawn:four")


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from(["3,3", "4,3", "3,4", "4,4"]))
def test_every_reachable_position_reads_back_as_written(seed: int, board: str) -> None:
    game = unbeatable.get_game(f"hexapawn:{board}")
    rng = random.Random(seed)
    position = game.initial()
    while True:
        assert game.parse(game.format(position)) == position
        for move in game.moves(position):
            assert game.parse_move(position, game.format_move(move)) == move
        if game.is_terminal(position):
            break
        position = game.play(position, rng.choice(list(game.moves(position))))
    assert game.winner(position) in game.players


# -- values: the generic engines play it perfectly -------------------------------


def test_black_wins_the_3x3_game_in_six_plies() -> None:
    solved = unbeatable.solve("hexapawn", "")
    assert (solved.result, solved.plies) == ("loss", 6)
    counted = api.perft(GAME, GAME.initial())
    assert (counted.games, counted.outcomes["b"], counted.outcomes["w"]) == (134, 70, 64)
    # Every engine agrees.
    for algorithm in ("minimax", "alphabeta", "negamax"):
        assert api.analyze("hexapawn", "", algorithm=algorithm).result == "loss"


def test_the_static_evaluation_counts_pawns_and_rows() -> None:
    """One a pawn, one more a row advanced: even at the start, White up after
    a step; the lesson's example is a capture a one-ply search takes and a
    deeper one sees lose."""
    evaluation = GAME.static_evaluation()
    assert evaluation.value(GAME.initial()) == 0
    assert evaluation.value(GAME.parse("bbb/w../.ww b")) == 1
    assert evaluation.value(GAME.parse(".bb/.w./w.. b")) == (2 + 1) - (1 + 1)
    ((name, example),) = evaluation.examples
    exact = {str(m.move): m.result for m in unbeatable.analyze("hexapawn", example).moves}

    def chosen(depth: int) -> str:
        root = api.tree("hexapawn", example, depth=depth, cutoff="heuristic").root
        return next(str(child.move) for child in root.children if child.best)

    assert (chosen(1), exact[chosen(1)]) == ("c3b2", "loss")
    assert (chosen(2), exact[chosen(2)]) == ("c3c2", "win")
    assert api.game_info("hexapawn").to_dict()["lesson"]["examples"] == [
        {"name": name, "position": example}
    ]
    assert api.game_info("hexapawn:4,3").to_dict()["lesson"]["examples"] == []


def test_the_ai_never_loses_as_black() -> None:
    """Every white line against the impossible AI ends in a black win."""

    def white_lines(position: object) -> int:
        if GAME.is_terminal(position):
            assert GAME.winner(position) == "b"
            return 1
        total = 0
        for move in GAME.moves(position):
            after = GAME.play(position, move)
            if not GAME.is_terminal(after):
                reply = api.choose_move(GAME, after, "impossible").move
                after = GAME.play(after, GAME.parse_move(after, reply))
            total += white_lines(after)
        return total

    assert white_lines(GAME.initial()) > 3


# -- through the command line and the HTTP API ------------------------------------


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "unbeatable", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
    )


def test_the_command_line_solves_and_analyses_it() -> None:
    solved = cli("solve", "hexapawn", "", "--json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["result"] == "loss"
    analysed = cli("analyze", "hexapawn", START, "--json")
    assert analysed.returncode == 0, analysed.stderr
    answer = json.loads(analysed.stdout)
    assert answer["best"]["move"] == "b1b2" and answer["plies"] == 6
    assert (answer["best"]["from_row"], answer["best"]["from_col"]) == (2, 1)
    assert cli("perft", "hexapawn", "--json").stdout.count('"games": 134') == 1
    assert "hexapawn" in cli("play", "--help").stdout


def test_the_command_line_refuses_bad_input_in_one_line() -> None:
    for args in (("solve", "hexapawn", "bbb/..."), ("analyze", "hexapawn:9,9", "")):
        said = cli(*args)
        assert said.returncode == 2 and said.stdout == ""
        assert len(said.stderr.strip().splitlines()) == 1, said.stderr


def test_the_terminal_game_is_played_to_the_end() -> None:
    """A whole game typed at the terminal: the AI (black) wins."""
    # (Seeded: the AI draws among equally good replies, and an unseeded one
    # may leave the scripted moves illegal.)
    said = cli("play", "hexapawn", "--as", "w", "--seed", "1", stdin="b1b2\na1a2\nn\n")
    assert said.returncode == 0, said.stderr
    assert "Your move (w)" in said.stdout
    assert "Black (b): a pawn through to the far row on b1. The AI wins." in said.stdout
    assert "Your record: 0 won, 0 drawn, 1 lost." in said.stdout


def test_the_api_plays_it() -> None:
    from fastapi.testclient import TestClient

    from unbeatable.web import create_app

    with TestClient(create_app()) as client:
        listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        info = listed["hexapawn"]
        # A plug-in with no engine of its own gets the default budget (its
        # answers are exact all the same: the whole game is solved in ms).
        assert info["moves_from"] is True and info["time_limit"] == 2.0
        assert [side["name"] for side in info["sides"]] == ["White", "Black"]
        position = START
        while True:
            view = client.post("/api/position", json={"game": "hexapawn", "position": position})
            assert view.status_code == 200, view.text
            data = view.json()
            if data["status"]["over"]:
                assert data["status"]["winner"] == "b"
                break
            for move in data["moves"]:
                assert len(move["origin"]) == 2
            # White plays its first legal move; black answers with the AI.
            white = data["moves"][0]["move"]
            after = client.post(
                "/api/position", json={"game": "hexapawn", "position": position, "move": white}
            ).json()
            position = after["position"]
            if after["status"]["over"]:
                continue
            reply = client.post("/api/move", json={"game": "hexapawn", "position": position})
            assert reply.status_code == 200, reply.text
            assert reply.json()["proven"] is True
            position = reply.json()["position"]
        bad = client.post(
            "/api/position", json={"game": "hexapawn", "position": START, "move": "a1b2"}
        )
        assert bad.status_code in (400, 422) and "diagonally" in bad.json()["error"]


@pytest.mark.parametrize(
    ("position", "reason"),
    [
        ("wbb/.../.w. b", "a pawn through to the far row"),
        (".../.w./... b", "every black pawn taken"),
        ("b../b../w.. w", "White to move has no move left"),
        (START, None),
    ],
)
def test_the_faces_say_how_the_game_was_won(position: str, reason: str | None) -> None:
    assert unbeatable.status("hexapawn", position).reason == reason
