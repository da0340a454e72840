"""Connect Four at the impossible level: every move keeps the exact value
(fastest win, slowest loss), and the AI converts won positions against any
opponent it meets."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import unbeatable
from unbeatable.games.connect4 import connect4
from unbeatable.solvers.connect4 import Connect4Engine

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "connect4"
game = connect4()


def value_after(referee: Connect4Engine, position: object, move: int) -> int:
    """The mover's Pons score after ``move``, by an independent solve."""
    child = game.play(position, move)  # type: ignore[arg-type]
    if game.winner(child) is not None:
        return game.score(position, "win", 1)  # type: ignore[arg-type]
    if game.is_terminal(child):
        return 0
    child_score, _ = referee.solve_score(child)
    return -child_score


def sample(name: str, count: int, seed: int = 1) -> list[tuple[str, int]]:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"public test set {path} not available")
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    picked = random.Random(seed).sample(rows, count)
    return [(moves, int(score)) for moves, score in picked]


@pytest.fixture(scope="module")
def referee() -> Connect4Engine:
    """A separate engine instance (no book), so the check does not share state."""
    return Connect4Engine(book=None)


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_impossible_level_keeps_the_exact_score(name: str, referee: Connect4Engine) -> None:
    for moves, score in sample(name, 60):
        move = unbeatable.choose_move("connect4", moves, "impossible", time_limit=30)
        assert move is not None
        # Pons scores: the mover's score is minus the opponent's after its move.
        assert value_after(referee, game.parse(moves), move.raw) == score, (moves, move.move)
        assert move.score == score


def test_analysis_ranks_every_column_and_breaks_ties_toward_the_centre(
    referee: Connect4Engine,
) -> None:
    for moves, _score in sample("Test_L2_R1", 20, seed=5):
        analysis = unbeatable.analyze("connect4", moves, time_limit=30)
        assert analysis.exact
        position = game.parse(moves)
        for m in analysis.moves:
            assert m.score == value_after(referee, position, m.raw)
        best_score = max(m.score for m in analysis.moves if m.score is not None)
        tied = [int(m.move) for m in analysis.moves if m.score == best_score]
        assert analysis.best is not None
        assert int(analysis.best.move) == min(tied, key=lambda c: (abs(c - 4), c))


def test_the_ai_converts_a_won_position_against_random_play() -> None:
    rng = random.Random(11)
    for moves, score in sample("Test_L2_R1", 4, seed=3):
        if score <= 0:
            continue
        position = game.parse(moves)
        ai = game.to_move(position)
        while not game.is_terminal(position):
            if game.to_move(position) == ai:
                move = unbeatable.choose_move(game, position, "impossible", time_limit=30)
                assert move is not None
                position = game.play(position, move.raw)
            else:
                position = game.play(position, rng.choice(game.moves(position)))
        assert game.winner(position) == ai, moves
