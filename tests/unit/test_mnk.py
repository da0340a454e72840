"""The m,n,k family: registered by name, described for the faces, solved
exactly on small boards (known results, and agreement with plain alpha-beta),
answered within a budget on big ones."""

from __future__ import annotations

import math
import random

import pytest

import unbeatable
from unbeatable.games import UnknownGameError, get_game
from unbeatable.games.mnk import MNKGame
from unbeatable.search.minimax import alphabeta
from unbeatable.search.negamax import Negamax


@pytest.mark.parametrize(
    ("name", "result"),
    [("mnk:3,4,3", "win"), ("mnk:4,4,3", "win"), ("mnk:3,4,4", "draw"), ("mnk:4,4,4", "draw")],
)
def test_known_results_from_the_empty_board(name: str, result: str) -> None:
    solution = unbeatable.solve(name, "")
    assert solution.result == result and solution.exact


def test_names_parameters_and_errors() -> None:
    assert get_game("mnk:3,3,3") is get_game("tictactoe")
    assert get_game(" MNK:4,4,4 ") is get_game("mnk:4,4,4")
    game = get_game("mnk:5,6,4")
    assert isinstance(game, MNKGame) and (game.rows, game.columns, game.k) == (5, 6, 4)
    assert game.name == "mnk:5,6,4" and game.parse("") == game.initial()
    for bad, fragment in [
        ("mnk:4,4", "write mnk:ROWS,COLS,K"),
        ("mnk:a,b,c", "write mnk:ROWS,COLS,K"),
        ("mnk:23,4,4", "board sides must be 1-22"),
        ("mnk:3,3,4", "k must be 1-3"),
        ("mnk:", "unknown game"),
        ("go", "known games: tictactoe, connect4, gomoku, renju, mnk:ROWS,COLS,K"),
    ]:
        with pytest.raises(UnknownGameError, match=fragment):
            get_game(bad)


def test_descriptions_and_policies_drive_the_faces() -> None:
    """The rules describe the board; the solver registry says how exact the
    engines are and what budget they need (gomoku: a second)."""
    small = get_game("mnk:4,4,4").describe()
    assert (small.rows, small.columns, small.gravity, small.goal) == (4, 4, False, "four in a row")
    policy = unbeatable.api.policy("mnk:4,4,4")
    assert small.keys == () and not policy.exact and policy.time_limit
    ttt = get_game("tictactoe").describe()
    policy = unbeatable.api.policy("tictactoe")
    assert policy.exact and policy.time_limit is None and len(ttt.keys) == 9
    assert unbeatable.api.policy("gomoku") == (False, 1.0)
    assert unbeatable.api.policy("mnk:6,6,3") == (False, 2.0)  # negamax, with a budget


def random_positions(game: MNKGame, count: int, marks: int, seed: int) -> list[object]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        position = game.initial()
        while game.size - position.cells.count(".") < marks and not game.is_terminal(position):
            position = game.play(position, rng.choice(game.moves(position)))
        if not game.is_terminal(position):
            out.append(position)
    return out


@pytest.mark.parametrize(("name", "marks"), [("mnk:3,4,3", 3), ("mnk:4,4,3", 6), ("mnk:3,4,4", 4)])
def test_negamax_agrees_with_plain_alphabeta(name: str, marks: int) -> None:
    """Tactics (immediate wins, forced blocks) and mirror-image keys change the
    work, never the value: plain alpha-beta, which has neither, agrees."""
    game = get_game(name)
    assert isinstance(game, MNKGame)
    engine = Negamax(game)
    for position in random_positions(game, 25, marks, seed=marks):
        value, proven, _ = engine.search(position, -math.inf, math.inf)
        plain, _ = alphabeta(game, position)
        if game.to_move(position) != game.players[0]:
            plain = -plain
        assert proven and value == plain, game.format(position)


def test_a_big_board_answers_within_its_budget_with_a_heuristic_move() -> None:
    analysis = unbeatable.analyze("mnk:9,9,5", "", time_limit=0.3)
    assert analysis.exact is False and analysis.best is not None
    move = unbeatable.choose_move("mnk:9,9,5", "", "impossible", time_limit=0.3)
    assert move is not None and move.move in {m.move for m in analysis.moves}


def test_mirror_images_share_values_but_never_moves() -> None:
    game = get_game("mnk:4,4,4")
    engine = Negamax(game)
    left = game.parse("x.../..../..../...o")
    right = game.parse("...x/..../..../o...")
    assert game.key(left) == game.key(right)
    engine.solve(left)
    solved = engine.solve(right)
    assert solved.move in game.moves(right)
    assert solved.outcome == Negamax(game).solve(right).outcome
