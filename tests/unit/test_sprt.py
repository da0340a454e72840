"""The sequential test that decides Gomoku engine changes
(``benchmarks/gomoku_sprt.py``): its arithmetic against values worked out by
hand, and its verdicts on clear cases, since every kept change rests on it."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from gomoku_sprt import Spec, Sprt, elo_of, expected_score


def test_elo_and_expected_score_are_inverse() -> None:
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)
    for elo in (-300.0, -10.0, 0.0, 5.0, 120.0):
        assert elo_of(expected_score(elo)) == pytest.approx(elo)


def test_the_llr_is_the_normal_approximation_worked_by_hand() -> None:
    sprt = Sprt(0, 10, 0.05, 0.05, pentanomial=[10, 20, 40, 20, 10])
    # Pair scores 0, .25, .5, .75, 1 with those counts: mean 0.5, variance
    # (10 * .25 + 20 * .0625) * 2 / 100 = 0.075.
    assert sprt.mean_and_variance() == pytest.approx((0.5, 0.075))
    s0, s1 = 0.5, expected_score(10)
    assert sprt.llr() == pytest.approx(100 * (s1 - s0) * (1 - s0 - s1) / (2 * 0.075))
    assert sprt.bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))


def test_clear_cases_are_decided_and_even_ones_are_not() -> None:
    stronger = Sprt(0, 10, 0.05, 0.05, pentanomial=[50, 150, 300, 250, 100])
    assert stronger.verdict() == "H1"
    elo, low, high = stronger.elo()
    assert low < elo < high and low > 0
    weaker = Sprt(0, 10, 0.05, 0.05, pentanomial=[100, 250, 300, 150, 50])
    assert weaker.verdict() == "H0"
    even = Sprt(0, 10, 0.05, 0.05, pentanomial=[3, 5, 10, 5, 3])
    assert even.verdict() is None
    # Identical versions at a fixed node count play the same game twice with
    # colours swapped: every pair is 1-1, no spread, no evidence either way.
    assert Sprt(0, 10, 0.05, 0.05, pentanomial=[0, 0, 40, 0, 0]).llr() == 0


def test_versions_are_written_as_revision_and_settings() -> None:
    spec = Spec.parse("HEAD@kernel.WIDTH=16,engine.VCT_DEPTH=8")
    assert spec == Spec("HEAD", (("kernel.WIDTH", "16"), ("engine.VCT_DEPTH", "8")))
    assert str(spec) == "HEAD@kernel.WIDTH=16,engine.VCT_DEPTH=8"
    assert Spec.parse(".") == Spec(".", ())
    with pytest.raises(SystemExit, match=r"module\.NAME=VALUE"):
        Spec.parse("HEAD@WIDTH")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--resume", "1,2", "--offset", "3"], "five counts"),
        (["--resume", "1,2,x,0,0", "--offset", "3"], "five counts"),
        (["--resume", "1,2,3,4,5", "--offset", "3"], "give --offset at least 15"),
        (["--resume", "1,2,3,4,5", "--offset", "14"], "give --offset at least 15"),
    ],
)
def test_a_resumed_test_needs_its_five_counts_and_its_offset(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from gomoku_sprt import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and says in capsys.readouterr().err


def test_a_resumed_test_may_go_on_from_a_later_opening(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A test begun past the book's start resumes past its pairs: the counts
    are taken and the versions are fetched next (stopped there)."""
    import gomoku_sprt

    class Reached(Exception):
        pass

    def fetch(revision: str, scratch: object) -> None:
        raise Reached(revision)

    monkeypatch.setattr(gomoku_sprt, "source_of", fetch)
    monkeypatch.setattr(gomoku_sprt.tempfile, "mkdtemp", lambda prefix: str(tmp_path))
    with pytest.raises(Reached):
        gomoku_sprt.main(["--resume", "1,2,3,4,5", "--offset", "40"])


def test_the_table_is_kept_only_within_one_game() -> None:
    """``--keep-table`` keeps a version's table from its last search only
    when the new position goes on from it: the other colour of a pair
    replays the same opening and starts afresh."""
    from gomoku_sprt import continues

    assert continues(["112", "113", "97"], ["112"])
    assert continues(["112"], [])
    assert not continues(["112", "113"], ["112", "113"])  # the same position again
    assert not continues(["112", "113"], ["112", "113", "97"])  # a new game, shorter
    assert not continues(["112", "98", "97"], ["112", "113"])  # another game


def test_keeping_the_table_needs_a_version_that_can(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A version whose engine cannot keep its table is refused before any game."""
    import gomoku_sprt

    def fetch(revision: str, scratch: object) -> Path:
        engine_py = tmp_path / revision / "src" / "unbeatable" / "solvers" / "mnk" / "engine.py"
        engine_py.parent.mkdir(parents=True, exist_ok=True)
        engine_py.write_text("def solve_nodes(position, nodes): ...\n")
        return tmp_path / revision / "src"

    monkeypatch.setattr(gomoku_sprt, "source_of", fetch)
    monkeypatch.setattr(gomoku_sprt.tempfile, "mkdtemp", lambda prefix: str(tmp_path))
    with pytest.raises(SystemExit, match="cannot keep its table"):
        gomoku_sprt.main(["--keep-table", "--base", "old", "--test", "old"])


def test_a_version_that_cannot_start_stops_the_test_with_its_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A version that compiles but dies when a game's process starts (numba
    loading a bad cache did so) stops the test with that process's last
    words, not an "undecided" as if the book had run out."""
    import gomoku_sprt

    class Dies:
        def __init__(
            self, spec: object, source: object, game: str, cache: Path, log: Path, memory: int = 0
        ) -> None:
            self.probe = log.name.endswith("--1.log")  # the compiling run starts

        def ready(self, timeout: float) -> bool:
            return self.probe

        def error(self) -> str:
            return "(Segmentation fault)"

        def close(self) -> None:
            pass

    monkeypatch.setattr(gomoku_sprt, "source_of", lambda revision, scratch: tmp_path)
    monkeypatch.setattr(gomoku_sprt.tempfile, "mkdtemp", lambda prefix: str(tmp_path))
    monkeypatch.setattr(gomoku_sprt, "Worker", Dies)
    with pytest.raises(SystemExit, match=r"did not start \(Segmentation fault\)"):
        gomoku_sprt.main(["--base", "old", "--test", "old", "--max-pairs", "4"])
