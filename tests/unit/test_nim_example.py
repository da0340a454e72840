"""The Game protocol documented by a second game: the engine plays Nim perfectly."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from functools import reduce
from operator import xor
from pathlib import Path

import pytest

import unbeatable
from unbeatable.games.base import Game, GameError

spec = importlib.util.spec_from_file_location(
    "nim_example", Path(__file__).resolve().parents[2] / "examples" / "nim.py"
)
assert spec is not None and spec.loader is not None
nim_module = importlib.util.module_from_spec(spec)
sys.modules["nim_example"] = nim_module  # dataclasses look their module up there
spec.loader.exec_module(nim_module)
Nim = nim_module.Nim


def test_nim_implements_the_protocol() -> None:
    assert isinstance(Nim(), Game)


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "negamax"])
def test_engine_agrees_with_nim_theory(algorithm: str) -> None:
    game = Nim()
    for heaps in itertools.product(range(4), repeat=3):
        if algorithm == "minimax" and sum(heaps) > 7:
            continue  # plain minimax is exponential; small heaps suffice for it
        position = game.parse(" ".join(map(str, heaps)))
        analysis = unbeatable.analyze(game, position, algorithm=algorithm)
        theory_wins = reduce(xor, heaps, 0) != 0
        if not any(heaps):
            assert analysis.result == "loss" and analysis.best is None
            continue
        assert (analysis.result == "win") == theory_wins, heaps
        if theory_wins:
            # The best move leaves a position whose heaps XOR to zero.
            assert analysis.best is not None
            after = game.play(position, analysis.best.raw)
            assert reduce(xor, after.heaps, 0) == 0


def test_nim_errors_are_game_errors() -> None:
    game = Nim()
    with pytest.raises(GameError):
        game.parse("3 x")
    with pytest.raises(GameError):
        game.parse_move(game.parse("1 2"), "3:1")


def test_example_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    nim_module.main(["3 4 5"])
    assert capsys.readouterr().out.strip() == "3 4 5 /a: win, best move 1:2"
