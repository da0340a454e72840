"""Connect Four through the command line: the same shapes as tic-tac-toe."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import CliRun
from unbeatable.cli.play import line_name
from unbeatable.games import get_game

# From the public End-Easy set: o to move loses, x winning with its 21st stone (score -1).
ENDGAME = "2252576253462244111563365343671351441"


def test_analyze_json_shape(run_cli: CliRun) -> None:
    code, out, err = run_cli("analyze", "connect4", ENDGAME, "--json")
    assert code == 0, err
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
        "exact",
    ]
    assert (data["result"], data["plies"], data["score"], data["exact"]) == ("loss", 4, -1, True)
    # Full columns are left out; each move names its 1-based column and 0-based col.
    assert [m["move"] for m in data["moves"]] == ["6", "7"]
    first = data["moves"][0]
    assert {k: v for k, v in first.items() if k != "line"} == {
        "move": "6",
        "col": 5,
        "result": "loss",
        "plies": 4,
        "score": -1,
    }
    # Best play to the end: o plays 6, then both sides as the solver proves best.
    assert len(first["line"]) == 4 and first["line"][0] == "6"
    assert data["best"] == {"move": "6", "col": 5} and data["line"] == first["line"]


def test_solve_json_and_weak(run_cli: CliRun) -> None:
    code, out, _ = run_cli("solve", "connect4", ENDGAME, "--json")
    data = json.loads(out)
    assert code == 0
    assert list(data) == [
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
    assert (data["to_move"], data["result"], data["score"], data["exact"]) == (
        "o",
        "loss",
        -1,
        True,
    )
    code, out, _ = run_cli("solve", "connect4", ENDGAME, "--json", "--weak")
    weak = json.loads(out)
    assert (weak["result"], weak["plies"], weak["score"]) == ("loss", None, None)


def test_time_limit_gives_an_unproven_answer_rather_than_hanging(
    run_cli: CliRun,
) -> None:
    # Two stones in: far outside any book this deep, and far too hard for 10 ms.
    code, out, _ = run_cli("solve", "connect4", "1726354", "--json", "--time-limit", "0.01")
    data = json.loads(out)
    assert code == 0
    if not data["exact"]:
        assert data["result"] == "unknown" and data["plies"] is None


def test_grid_positions_and_errors(run_cli: CliRun) -> None:
    grid = "......./......./......./......./......./...x..."
    code, out, _ = run_cli("solve", "connect4", grid, "--json", "--time-limit", "5")
    assert code == 0 and json.loads(out)["to_move"] == "o"
    for bad, fragment in [("48", "column"), ("4444444", "full"), ("x", "")]:
        code, out, err = run_cli("analyze", "connect4", bad)
        assert code == 2 and out == "" and fragment in err and err.count("\n") == 1


def test_stdin_json_lines(run_cli: CliRun) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "unbeatable", "solve", "connect4", "-"],
        input=f"{ENDGAME}\n9\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["score"] == -1
    assert second["position"] == "9" and "error" in second


def play_as_x(keys: str, seed: int = 2) -> str:
    """The terminal game of Connect Four played as x with ``keys`` typed; its
    output. The seed picks the AI's replies among moves of equal value: with
    2, it answers 1 1 7 2 in column 4 all along."""
    result = subprocess.run(
        [sys.executable, "-m", "unbeatable", "play", "connect4", "--as", "x", "--seed", str(seed)],
        input=keys,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_scripted_connect4_game_in_the_terminal() -> None:
    out = play_as_x("4\n?\n9\nq\n")
    assert "The AI (o) plays" in out
    assert "You quit." in out
    assert "column" in out.lower()  # the bad move 9 is explained


def test_the_terminal_says_where_the_four_is() -> None:
    """Connect Four's rows have no names: the line is told by its columns and
    its rows counted from the bottom (a vertical four, then others)."""
    out = play_as_x("1\n1\n7\n2\nn\n")
    assert "Yellow (o): four in a row on column 4, rows 1-4 from the bottom. The AI wins." in out
    description = get_game("connect4").describe()
    assert line_name(description, [(5, 1), (5, 2), (5, 3), (5, 4)]) == (
        "columns 2-5, row 1 from the bottom"
    )
    assert line_name(description, [(2, 3), (3, 2), (4, 1), (5, 0)]) == (
        "columns 1-4, rows 1-4 from the bottom"
    )
    assert line_name(get_game("tictactoe").describe(), [(0, 0), (1, 1), (2, 2)]) == "a3, b2, c1"


def test_book_build_command(tmp_path: Path, run_cli: CliRun) -> None:
    out_file = tmp_path / "book.bin"
    code, out, err = run_cli(
        "book",
        "build",
        "connect4",
        "--plies",
        "39",
        "--root",
        ENDGAME,
        "--out",
        str(out_file),
        "--workers",
        "2",
    )
    assert code == 0, err
    assert out_file.exists() and "wrote" in out
    code, _, err = run_cli("book", "build", "tictactoe", "--plies", "2", "--out", str(out_file))
    assert code == 2 and "no opening book" in err
