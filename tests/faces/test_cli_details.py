"""The command line's details that a new user ran into: limits, paths, pipes,
names, help, advice, long or broken input, the fast path, interrupting a build."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import CliRun
from unbeatable.cli import full
from unbeatable.games import get_game, naming


def cli(*argv: str, stdin: str | bytes = "", **kwargs: object) -> subprocess.CompletedProcess[str]:
    """The real console entry point, in a fresh process."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "unbeatable", *argv],
        input=data,
        capture_output=True,
        timeout=120,
        **kwargs,  # type: ignore[call-overload]
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    )


@pytest.mark.parametrize("limit", ["inf", "1e308"])
def test_an_endless_time_limit_means_none(run_cli: CliRun, limit: str) -> None:
    code, out, err = run_cli("solve", "connect4", "4453", "--time-limit", limit, "--json")
    assert code == 0, err
    assert json.loads(out)["exact"] is True


def test_book_build_checks_its_output_first(run_cli: CliRun, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "b.bin"
    code, out, err = run_cli("book", "build", "connect4", "--plies", "4", "--out", str(missing))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "does not exist" in err and "solving" not in err
    code, _, err = run_cli("book", "build", "connect4", "--plies", "4", "--out", str(tmp_path))
    assert code == 2 and "is a directory" in err


@pytest.mark.slow
def test_book_build_stops_at_ctrl_c_and_keeps_its_checkpoint(tmp_path: Path) -> None:
    out = tmp_path / "book.bin"
    # A subtree book whose positions take a while each: the build is mid-way at Ctrl-C.
    command = ["book", "build", "connect4", "--plies", "16", "--root", "445344521"]
    build = subprocess.Popen(
        [sys.executable, "-m", "unbeatable", *command, "--out", str(out), "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    checkpoint = out.with_name("book.bin.partial")
    deadline = time.monotonic() + 240
    while not (checkpoint.exists() and checkpoint.read_text().strip()):
        assert build.poll() is None, build.stderr.read() if build.stderr else ""
        assert time.monotonic() < deadline, "no position solved in 4 minutes"
        time.sleep(0.2)
    build.send_signal(signal.SIGINT)
    _, err = build.communicate(timeout=30)  # stops within seconds, not at the end of a chunk
    assert build.returncode == 130
    assert "interrupted" in err and "run the same command to resume" in err
    assert checkpoint.read_text().strip() and not out.exists()


def test_warm_readies_each_kind_of_game_in_a_process_of_its_own() -> None:
    """Games of different rules are readied in processes of their own, at once
    (two here), each saying so in its line; a count of no process is refused."""
    pytest.importorskip("unbeatable_hexapawn")
    command = [sys.executable, "-m", "unbeatable", "warm", "--jobs", "2", "tictactoe", "hexapawn"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    said = sorted(done.stderr.splitlines())
    assert said == [f"{name}: ready (nothing to compile)" for name in ("hexapawn", "tictactoe")]
    assert done.stdout.startswith("compiled engines are kept in ")
    refused = subprocess.run([*command[:5], "0", "tictactoe"], capture_output=True, text=True)
    assert refused.returncode == 2 and "--jobs" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_perft_counts_lines_to_a_depth_and_refuses_huge_games_at_once(run_cli: CliRun) -> None:
    counts = []
    for depth in range(1, 6):
        code, out, _ = run_cli("perft", "connect4", "--depth", str(depth), "--json")
        assert code == 0
        counts.append(json.loads(out)["leaves"])
    assert counts == [7, 49, 343, 2401, 16807]
    code, out, err = run_cli("perft", "connect4")
    assert code == 2 and "perft --depth N" in err


def test_negative_leaves_are_leaves(run_cli: CliRun) -> None:
    code, out, err = run_cli("tree", "3", "-5", "2", "9", "--json")
    assert code == 0, err
    assert json.loads(out)["root"]["value"] == 2  # MAX of MIN(3, -5) and MIN(2, 9)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["play", "--level", "magic"], "'magic' is not one of 'easy', 'medium', 'impossible'"),
        (["analyze", "tictactoe", "x", "--algorithm", "magic"], "'magic' is not one of"),
        (["analyze", "chess", "x"], "unknown game 'chess' (known games: tictactoe, connect4"),
    ],
)
def test_errors_speak_plainly(run_cli: CliRun, argv: list[str], fragment: str) -> None:
    code, _, err = run_cli(*argv)
    assert code == 2 and fragment in err and "Value error" not in err


def test_game_names_take_any_case(run_cli: CliRun) -> None:
    code, out, _ = run_cli("solve", "TicTacToe", "xox/oox/...", "--json")
    assert code == 0 and json.loads(out)["game"] == "tictactoe"
    code, out, _ = run_cli("solve", "MNK:3,4,3", "", "--json")
    assert code == 0 and json.loads(out)["result"] == "win"


def test_help_and_version(run_cli: CliRun) -> None:
    code, out, _ = run_cli("-h")
    assert code == 0 and "analyze" in out and "Usage" in out
    code, out, _ = run_cli("analyze", "-h")
    # Every name the library gives, built-in and installed, whatever the list holds.
    assert code == 0 and f"Which game: {naming()}." in " ".join(out.split())
    assert naming().startswith("tictactoe, connect4, gomoku, renju, mnk:ROWS,COLS,K")
    code, out, _ = run_cli("--version")
    assert code == 0 and out.startswith("unbeatable ")


def test_the_version_comes_the_fast_way_as_the_full_way_says_it(
    run_cli: CliRun, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--version`` alone is answered without Typer; the full way (Typer's
    eager option, as with ``--version --help``) says the very same line."""
    fast = run_cli("--version")
    with pytest.raises(SystemExit) as exit_info:
        full(["--version"])
    assert (exit_info.value.code or 0, capsys.readouterr().out, "") == fast
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "unbeatable", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout == fast[1]
    assert "typer" not in result.stderr and "unbeatable.api" not in result.stderr


def test_a_long_bad_line_is_echoed_short_and_output_stays_utf8() -> None:
    long = "x" * 1_000_000
    broken = b"\xff\xfe not utf-8 \xed\xa0\x80"
    result = cli("analyze", "tictactoe", "-", stdin=long.encode() + b"\n" + broken + b"\n")
    assert result.returncode == 2
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert len(first["position"]) < 200 and "1,000,000 characters" in first["position"]
    assert "1,000,000 characters" in first["error"]
    assert "\ufffd" in second["position"]
    result.stdout.encode("utf-8")  # no lone surrogates


def test_a_closed_pipe_ends_quietly() -> None:
    lines = "\n".join(["xox/oox/..."] * 20_000) + "\n"
    shell = f"{sys.executable} -m unbeatable analyze tictactoe - | head -1"
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", shell], input=lines, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout.startswith("{")


def test_advice_points_the_right_way(run_cli: CliRun) -> None:
    code, _, err = run_cli("play", "--as", "o", "--first", "me")
    assert code == 2 and "to move first, play --as x" in err
    code, _, err = run_cli("play", "--as", "x", "--first", "ai")
    assert code == 2 and "to let the AI open, play --as o" in err


def test_the_terminal_game_helps_retries_with_a_legal_example_and_plays_again() -> None:
    # As x: b2, then b2 again (taken), help, then finish a game and play another.
    result = cli("play", "--as", "x", stdin="b2\nb2\nhelp\na1\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    taken = next(line for line in out.splitlines() if "is already taken" in line)
    example = taken.split("a move (")[1].split(")")[0]
    assert example != "b2"
    assert "? for a hint, u to undo your last move, h for help" in out
    # Every cell in turn, each followed by "y": during a game "y" is a bad move
    # (explained, ignored); once the game is over it answers "Play again?".
    cells = ["b2", "a3", "b3", "c3", "a2", "c2", "a1", "b1", "c1"]
    script = "".join(f"{cell}\ny\n" for cell in cells * 2) + "q\n"
    result = cli("play", "--as", "x", stdin=script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("Play again?") >= 1 and "Your record: 0 won" in result.stdout
    assert result.stdout.count("You play X") == 1  # the second game goes on in the same session


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze", "tictactoe", "xox/oox/...", "--json"],
        ["analyze", "tictactoe", "", "--json", "--algorithm", "alphabeta"],
        ["solve", "tictactoe", "x../.../...", "--json", "--weak"],
        ["solve", "connect4", "4453", "--json", "--time-limit=30"],
        ["solve", "mnk:3,4,3", "", "--json"],
    ],
)
def test_the_fast_path_answers_as_the_full_way_does(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    def effortless(text: str) -> dict[str, object]:
        data = json.loads(text)
        return {k: v for k, v in data.items() if k not in ("nodes", "time_ms")}

    fast = cli(*argv)
    assert fast.returncode == 0, fast.stderr
    with pytest.raises(SystemExit) as done:
        full(argv)
    assert done.value.code == 0
    assert effortless(fast.stdout) == effortless(capsys.readouterr().out)


def test_every_offered_game_plays_in_the_terminal() -> None:
    for name in ("mnk:4,4,4", "connect4"):
        game = get_game(name)
        first = game.format_move(game.ordered_moves(game.initial())[0])
        result = cli("play", name, "--as", "x", stdin=f"{first}\nq\n")
        assert result.returncode == 0, result.stderr
        assert "The AI (o) plays" in result.stdout


def test_no_unhandled_output_on_bad_environment() -> None:
    env = {**os.environ, "COLUMNS": "20"}
    result = cli("analyze", "connect4", "2252576253462244111563", env=env)
    assert result.returncode == 0 and "Traceback" not in result.stderr
