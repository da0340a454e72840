"""The command line: shapes of the JSON, errors on stderr with exit code 2,
JSON Lines from stdin, perft, the tree command and a scripted game."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import CliRun
from unbeatable import api


def cli(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The real console entry point, in a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", "unbeatable", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_analyze_json_is_exactly_the_documented_object(run_cli: CliRun) -> None:
    code, out, err = run_cli("analyze", "tictactoe", "xox/oox/...", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == [
        "game",
        "position",
        "to_move",
        "result",
        "plies",
        "score",
        "best",
        "line",
        "moves",
        "nodes",
        "time_ms",
    ]
    assert data["position"] == "xox/oox/... x"
    assert data["best"] == {"move": "c1", "row": 2, "col": 2}
    assert data["moves"][0] == {
        "move": "a1",
        "row": 2,
        "col": 0,
        "result": "loss",
        "plies": 2,
        "score": -8,
        "line": ["a1", "b1"],
    }
    assert data["line"] == ["c1"]
    assert (data["result"], data["plies"], data["score"]) == ("win", 1, 9)
    assert isinstance(data["nodes"], int) and isinstance(data["time_ms"], float)


def test_analyze_human_output_shows_board_and_table(run_cli: CliRun) -> None:
    code, out, _ = run_cli("analyze", "tictactoe", "xox/oox/...")
    assert code == 0
    assert "best move c1" in out and "W1" in out and "L2" in out and "win in 1" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["analyze", "tictactoe", "xox/oo/..."], "row 2 has 2 cells"),
        (["analyze", "chess", "x"], "chess"),
        (["analyze", "tictactoe"], "Missing argument"),
        (["analyze", "tictactoe", "xxx/ooo/..."], "both x and o have a line"),
        (["analyze", "tictactoe", "x../.../...", "--algorithm", "magic"], "magic"),
        (["tree", "1", "2", "3"], "power of two"),
        (["tree", "[1, [2"], "not valid JSON"),
        (["tree", "1", "x"], "not a number"),
        (["play", "--as", "x", "--first", "ai"], "x always moves first"),
        (["perft", "tictactoe", "xxx/ooo/..."], "both x and o"),
        (["solve", "tictactoe", "x../.../...", "--time-limit", "-1"], "time-limit"),
        (["frobnicate"], "frobnicate"),
    ],
)
def test_errors_are_one_line_on_stderr_with_exit_code_2(
    run_cli: CliRun, argv: list[str], fragment: str
) -> None:
    code, out, err = run_cli(*argv)
    assert code == 2
    assert out == ""
    assert fragment in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_stdin_gives_json_lines_and_goes_on_after_a_bad_line() -> None:
    result = cli("analyze", "tictactoe", "-", stdin="xox/oox/...\nbogus\nx.o/x.x/oo.\n")
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line.get("best", {}).get("move") if "best" in line else None for line in lines] == [
        "c1",
        None,
        "b2",
    ]
    assert lines[1] == {"position": "bogus", "error": lines[1]["error"]}
    assert "expected 3 rows" in lines[1]["error"]


def test_stdin_all_good_exits_0() -> None:
    result = cli("solve", "tictactoe", "-", stdin=".../.../...\nxox/oox/...\n")
    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert list(first) == [
        "game",
        "position",
        "to_move",
        "result",
        "plies",
        "score",
        "nodes",
        "time_ms",
        "exact",
    ]
    assert (first["result"], first["plies"], first["score"]) == ("draw", 9, 0)
    assert (second["result"], second["plies"], second["score"]) == ("win", 1, 9)


def test_perft_counts(run_cli: CliRun) -> None:
    code, out, _ = run_cli("perft", "tictactoe", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["games"] == 255_168
    assert data["outcomes"] == {"draw": 46_080, "o": 77_904, "x": 131_184}
    assert data["positions"] == 5_478 and data["terminal"] == 958
    code, out, _ = run_cli("perft", "tictactoe")
    assert "255,168" in out and "5,478" in out and "958" in out


def test_tree_prints_value_and_pruned_leaves(run_cli: CliRun) -> None:
    code, out, _ = run_cli("tree", "3", "5", "2", "9", "12", "5", "23", "23", "--alphabeta")
    assert code == 0
    assert out.splitlines()[0] == "12"
    assert "MAX 12" in out and "MIN 5" in out
    assert out.count("pruned") == 1
    code, out, _ = run_cli("tree", "[[3, 12, 8], [2, 4, 6], [14, 5, 2]]", "--json", "--alphabeta")
    data = json.loads(out)
    root = data["root"]
    pruned_leaves = []
    for node in root["children"]:
        pruned_leaves += [leaf["position"] for leaf in node["children"] if leaf["pruned"]]
    assert root["value"] == 3 and pruned_leaves == ["1.1", "1.2"]
    # The same tree, in the same JSON, as the library and the web API answer it.
    assert data == api.textbook_tree([[3, 12, 8], [2, 4, 6], [14, 5, 2]], "alphabeta").to_dict()


def test_scripted_game_against_the_impossible_ai() -> None:
    # The human plays x and tries a1, c1, b1 ... the AI must not lose; bad input is explained.
    result = cli("play", "--as", "x", stdin="b2\nzz\n?\na3\nu\nc1\na1\nb1\nc2\na2\nb3\nc3\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "The AI (o) plays" in out
    assert "bad move 'zz'" in out
    assert "Took back your last move." in out
    assert "You beat the AI" not in out
    assert "Draw" in out or "The AI wins" in out


def test_ai_opens_when_you_play_o_and_quit_works() -> None:
    result = cli("play", "--as", "o", "--level", "easy", "--seed", "3", stdin="q\n")
    assert result.returncode == 0
    assert "The AI (x) plays" in result.stdout and "You quit." in result.stdout


def test_explain_shows_the_ai_reasoning() -> None:
    result = cli("play", "--first", "ai", "--explain", stdin="q\n")
    assert result.returncode == 0
    assert "It valued" in result.stdout and "draw" in result.stdout


def test_analyze_all_positions_from_stdin() -> None:
    """The 4,520 non-terminal positions through one process (speed is in benchmarks/)."""
    from unbeatable.games import get_game

    game = get_game("tictactoe")
    seen, stack = {}, [game.initial()]
    while stack:
        position = stack.pop()
        if position.cells not in seen:
            seen[position.cells] = position
            stack.extend(game.play(position, m) for m in game.moves(position))
    lines = [game.format(p) for p in seen.values() if not game.is_terminal(p)]
    result = cli("analyze", "tictactoe", "-", stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr[-500:]
    out = result.stdout.splitlines()
    assert len(out) == 4520
    assert all('"best": {' in line for line in out)
