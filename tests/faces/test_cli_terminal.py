"""The terminal's words and refusals (issue 19): the play-again prompt, a
finished game's value, ply counts, perft's estimate and the book's cost."""

from __future__ import annotations

import io
import itertools
import sys
from pathlib import Path

import pytest
from rich.console import Console

from conftest import CliRun
from test_cli import cli
from unbeatable.api import get_game
from unbeatable.cli.play import Match
from unbeatable.search import perft as perft_module
from unbeatable.search.perft import Probe, estimate
from unbeatable.solvers.connect4.book_builder import (
    BookPlan,
    build_book,
    enumerate_positions,
    rough_seconds,
)


class _Keyboard(io.StringIO):
    """Lines typed at a terminal: ``isatty`` says so, so the prompt goes
    through Rich's ``Console.input`` as it does for a person."""

    def isatty(self) -> bool:
        return True


def _again(monkeypatch: pytest.MonkeyPatch, typed: str, tty: bool) -> tuple[bool, str]:
    """Ask "Play again?" with ``typed`` as the input; (the answer, what was shown)."""
    monkeypatch.setattr(sys, "stdin", _Keyboard(typed) if tty else io.StringIO(typed))
    shown = io.StringIO()
    monkeypatch.setattr(sys, "stdout", shown)  # input() writes its own prompt there
    console = Console(file=shown, force_terminal=tty, width=80, highlight=False)
    match = Match(get_game("tictactoe"), "x", "impossible", console=console)
    return match.again(), shown.getvalue()


@pytest.mark.parametrize("tty", [True, False])
def test_play_again_shows_its_choices_and_asks_until_answered(
    monkeypatch: pytest.MonkeyPatch, tty: bool
) -> None:
    answer, shown = _again(monkeypatch, "y\n", tty)
    assert answer is True and "Play again? [y/N]: " in shown  # not read as markup
    for typed in ("YES\n", "Y\n"):
        assert _again(monkeypatch, typed, tty)[0] is True
    for typed in ("n\n", "No\n", "\n", "q\n", ""):  # "" is the end of input (Ctrl-D)
        assert _again(monkeypatch, typed, tty)[0] is False
    answer, shown = _again(monkeypatch, "b2\nmaybe\nyes\n", tty)
    assert answer is True and shown.count("Play again? [y/N]") == 3
    assert shown.count("Please answer y (yes) or n (no).") == 2
    answer, shown = _again(monkeypatch, "b2\n", tty)  # then the input ends: stop
    assert answer is False and shown.count("Play again?") == 2


def test_a_scripted_game_asks_again_until_yes_or_no() -> None:
    # x plays b2 a1 c1 and o has won; then two moves typed too late, then "n".
    # (The seed picks the AI's replies among moves of equal value.)
    result = cli("play", "--as", "x", "--seed", "1", stdin="b2\na1\nc1\nb1\nb3\nn\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "The AI wins" in out and out.count("Play again? [y/N]: ") == 3
    assert "Please answer y (yes) or n (no)." in out and out.count("You play X") == 1


@pytest.mark.parametrize(
    ("name", "position"),
    [("connect4", "441155223"), ("tictactoe", "xxx/oo./..."), ("tictactoe", "xox/oxx/oxo")],
)
def test_solve_says_a_finished_game_is_over_as_analyze_does(
    run_cli: CliRun, name: str, position: str
) -> None:
    code, solved, err = run_cli("solve", name, position)
    assert code == 0, err
    code, analysed, err = run_cli("analyze", name, position)
    assert code == 0, err
    over = next(line for line in analysed.splitlines() if line.startswith("Game over: "))
    assert solved.splitlines()[0].endswith(f": {over}")
    assert "plies" not in solved and "to move" not in solved


def test_one_ply_and_one_node_are_singular(run_cli: CliRun) -> None:
    code, out, err = run_cli("solve", "tictactoe", "xx./oo./...")
    assert code == 0, err
    assert "x to move, win in 1, score 9" in out  # the words analyze uses
    assert "1 node in" in out and "plies" not in out and "1 nodes" not in out
    code, out, err = run_cli("tree", "tictactoe", "xox/oxx/oxo")
    assert code == 0, err
    assert "1 node to depth 2" in out


def test_perft_refuses_a_depth_that_would_take_hours_with_its_estimate(run_cli: CliRun) -> None:
    code, out, err = run_cli("perft", "connect4", "--depth", "14")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "--depth 14: about " in err and " lines, about " in err and "to count" in err
    assert "or less takes under" in err
    code, out, err = run_cli("perft", "tictactoe", "--depth", "9")  # the game ends first
    assert code == 0 and out.startswith("depth 9: 127,872 leaves"), err


def test_perft_counts_a_small_game_to_the_end_however_slow_the_machine(
    run_cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a loaded machine the shallow counts' pace once refused tic-tac-toe's
    depth 9 (5,478 positions) as 'about 6 minutes'; a small tree is counted."""
    ticks = (10.0 ** min(k, 300) for k in itertools.count(-6))  # ten times the last
    monkeypatch.setattr(perft_module.time, "perf_counter", lambda: next(ticks))
    code, out, err = run_cli("perft", "tictactoe", "--depth", "9")
    assert code == 0 and out.startswith("depth 9: 127,872 leaves"), err
    ticks = (10.0 ** min(k, 300) for k in itertools.count(-6))
    code, out, err = run_cli("perft", "connect4", "--depth", "9")  # 4.5e7 lines: refused
    assert code == 2 and out == "" and "--depth 9: about " in err


def test_perft_estimates_from_the_shallower_counts_pace() -> None:
    probes = [Probe(4, 2401, 0.05), Probe(5, 16807, 0.2)]
    lines, seconds, growth = estimate(probes, 7)
    assert growth == pytest.approx(4.0)  # the time's growth: below the branching factor
    assert lines == pytest.approx(16807 * 49) and seconds == pytest.approx(0.2 * 16)
    # Time growing faster than the lines (noise at small counts) is held to the branching.
    lines, seconds, growth = estimate([Probe(1, 7, 0.001), Probe(2, 49, 0.5)], 3)
    assert growth == pytest.approx(7.0) and seconds == pytest.approx(3.5)
    # A game that has ended by the probe's depth has nothing more to count.
    assert estimate([Probe(9, 0, 0.3)], 12) == (0.0, 0.3, 1.0)
    # Where the probes know their work, its growth is the pace, not two noisy
    # timings (here a slowed short count made the time grow only 1.05-fold).
    noisy = [Probe(5, 16807, 0.2, 2_000), Probe(6, 117649, 0.21, 12_000)]
    lines, seconds, growth = estimate(noisy, 14)
    assert growth == pytest.approx(6.0) and seconds == pytest.approx(0.21 * 6.0**8)


# From the public End-Easy set: o to move loses, x winning with its 21st stone.
ENDGAME = "2252576253462244111563365343671351441"


def test_book_build_says_its_cost_first_and_leaves_no_checkpoint(
    run_cli: CliRun, tmp_path: Path
) -> None:
    out_file = tmp_path / "book.bin"
    argv = ["--plies", "39", "--root", ENDGAME, "--out", str(out_file), "--workers", "1"]
    code, out, err = run_cli("book", "build", "connect4", *argv)
    assert code == 0, err
    assert "with 39 stones to solve: roughly under a minute on 1 worker" in err
    assert out.startswith(f"wrote {out_file}:") and "up to 39 plies" in out
    assert out_file.exists() and not tmp_path.joinpath("book.bin.partial").exists()


class _Planned(Exception):
    """Stops a build once it has said what it will do."""


def test_a_book_of_few_stones_is_announced_as_long(tmp_path: Path) -> None:
    plans: list[BookPlan] = []

    def stop(plan: BookPlan) -> None:
        plans.append(plan)
        raise _Planned

    with pytest.raises(_Planned):
        build_book(3, tmp_path / "b.bin", workers=2, plan=stop)
    (plan,) = plans
    assert (plan.positions, plan.todo, plan.stones, plan.workers) == (121, 121, 3, 2)
    assert plan.seconds > 10 * 60  # "looks small": about half an hour, not seconds
    deeper = rough_seconds(5) * len(enumerate_positions(5)[-1]) / 2
    assert rough_seconds(2) > rough_seconds(3) > rough_seconds(8) and deeper > plan.seconds
