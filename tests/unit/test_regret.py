"""``benchmarks/gomoku_regret.py``: Rapfi's values read as numbers, and the
engine's constants set as ``gomoku_sprt.py`` sets them. The screen's figures
in benchmarks/README.md rest on both."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from gomoku_refs import Eval
from gomoku_regret import PROVED, value_of
from gomoku_sprt import apply_settings, parse_settings
from unbeatable.solvers.mnk import engine as E


@pytest.mark.parametrize(
    ("text", "value"),
    [("+M9", PROVED), ("-M8", -PROVED), ("-274", -274), ("126", 126), ("9000", PROVED)],
)
def test_a_proof_counts_as_the_largest_value_and_a_score_as_itself(text: str, value: int) -> None:
    assert value_of(Eval(text)) == value


def test_no_value_and_a_proof_without_a_distance_are_not_counted() -> None:
    assert value_of(None) is None
    assert value_of(Eval("+M*")) is None


def test_settings_reach_the_engine_modules_and_a_wrong_name_stops_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(E, "ASPIRATION", E.ASPIRATION)  # restored after the test
    apply_settings(parse_settings("engine.ASPIRATION=50"))
    assert E.ASPIRATION == 50
    with pytest.raises(SystemExit, match="NOPE does not exist"):
        apply_settings(parse_settings("kernel.NOPE=1"))
