"""Connect Four at the impossible level: every move keeps the exact value
(fastest win, slowest loss), whole games against a perfect opponent end at the
opening's exact value, and the AI converts won positions against any opponent
it meets."""

from __future__ import annotations

import random

import pytest

import unbeatable
from connect4_sets import cases, sample
from unbeatable.games.connect4 import STANDARD, Connect4Position, connect4
from unbeatable.solvers.connect4 import Connect4Engine
from unbeatable.solvers.connect4.table import TranspositionTable

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


class PerfectOpponent:
    """Plays a move of the best value, at random among the best, by the
    project's exact solver with a table of its own (it must not warm the AI's)."""

    def __init__(self, seed: int) -> None:
        self.engine = Connect4Engine(table=TranspositionTable(), book=None)
        self.rng = random.Random(seed)

    def move(self, position: Connect4Position) -> int:
        values = {}
        for col in game.moves(position):
            child = game.play(position, col)
            if child.winner is not None:
                values[col] = STANDARD.pons_score(position.stones, "win", 1)
            elif game.is_terminal(child):
                values[col] = 0
            else:
                values[col] = -self.engine.solve_score(child)[0]
        top = max(values.values())
        return self.rng.choice([col for col, value in values.items() if value == top])


def final_score(start: Connect4Position, end: Connect4Position) -> int:
    """The finished game's Pons score for the side to move at ``start``."""
    if end.winner is None:
        return 0
    result = "win" if end.winner == start.to_move else "loss"
    return STANDARD.pons_score(start.stones, result, end.stones - start.stones)


@pytest.mark.parametrize("name", ["Test_L1_R1", "Test_L1_R2", "Test_L2_R2"])
def test_whole_games_against_perfect_play_end_at_the_exact_value(name: str) -> None:
    """The AI takes the side to move in each opening (wins, draws and losses
    alike) and must finish every game exactly where perfect play says: no
    win thrown away, no loss hastened."""
    opponent = PerfectOpponent(seed=5)
    openings = [case for case in cases(name) if len(case[0]) >= 10][:8]
    for moves, score in openings:
        start = game.parse(moves)
        position = start
        while not game.is_terminal(position):
            if game.to_move(position) == start.to_move:
                move = unbeatable.choose_move(game, position, "impossible", time_limit=60)
                assert move is not None and move.result != "unknown"
                position = game.play(position, move.raw)
            else:
                position = game.play(position, opponent.move(position))
        assert final_score(start, position) == score, (moves, position.moves)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_weaker_levels_repeat_with_a_seed_whatever_the_budget(level: str) -> None:
    """Their choice depends on the seed, the best move and what they see
    within their horizon, never on how far a timed search got."""
    positions = ["", "4", "435", "4453", *(m for m, _ in cases("Test_L2_R1", 10))]

    def choices(budget: float) -> list[str]:
        out = []
        for moves in positions:
            move = unbeatable.choose_move(
                "connect4", moves, level, random.Random(len(moves)), time_limit=budget
            )
            assert move is not None
            out.append(move.move)
        return out

    assert choices(0.5) == choices(30) == choices(0.5)


def test_explained_move_is_the_analysis_best() -> None:
    for moves, _ in cases("Test_L2_R2", 10):
        analysis = unbeatable.analyze("connect4", moves)
        chosen = unbeatable.choose_move("connect4", moves, "impossible", analysis=analysis, seed=1)
        best = analysis.best
        assert best is not None and chosen is not None and chosen in analysis.moves
        # One of the moves of the best's value (drawn at random among equals).
        assert (chosen.result, chosen.plies) == (best.result, best.plies)
        # Without an analysis the move is as good (past the book it is the
        # first proven in the heuristic's order, not always the most central).
        alone = unbeatable.choose_move("connect4", moves, "impossible", time_limit=30)
        values = {m.move: m.score for m in analysis.moves}
        assert alone is not None and values[alone.move] == analysis.best.score
