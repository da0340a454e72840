"""The Gomoku search's move lists: which moves a node tries, in what order.

Against a four-three threat only its answers are searched
(:func:`kernel.b4f3_defences`): every move left out must lose to the threat
(the threat search proves it, in every rule set, on positions of games the
engine played with random moves among its own). The ordering table
(:func:`patterns.policy`) without a learned policy is the hand-set ordering,
cell for cell.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from unbeatable.games import get_game
from unbeatable.games.mnk import MNKGame, MNKPosition, X
from unbeatable.solvers.mnk import kernel as K
from unbeatable.solvers.mnk.engine import GomokuEngine, _Search, board_of, rule_of
from unbeatable.solvers.mnk.patterns import (
    C_B4F3,
    C_FIVE,
    C_FLEX4,
    ORDER_DEFENCE,
    policy,
)

RULES = ["gomoku", "gomoku:standard,15", "renju"]


def game_of(name: str) -> MNKGame:
    game = get_game(name)
    assert isinstance(game, MNKGame)
    return game


def middle_games(game: MNKGame, seeds: range, plies: int = 50) -> Iterator[MNKPosition]:
    """Every position of games the engine plays against itself at a few
    hundred nodes a move, every third move or so random near the stones,
    one game after another (a test takes as many as it needs)."""
    engine = GomokuEngine(game, threads=1)
    for seed in seeds:
        rng = random.Random(seed)
        position = game.initial()
        for _ in range(plies):
            if game.is_terminal(position):
                break
            yield position
            board = board_of(game, position.cells)
            pad = _Search(engine.geometry, position.cells, table=False).geometry.to_pad
            near = [m for m in game.moves(position) if board.near[pad[m]] > 0]
            if near and rng.random() < 0.3:
                move = rng.choice(near)
            else:
                solved = engine.solve_nodes(position, 600)
                assert solved.move is not None
                move = solved.move
            position = game.play(position, move)


@pytest.mark.parametrize("name", RULES)
def test_every_move_left_out_against_a_four_three_loses(name: str) -> None:
    game = game_of(name)
    engine = GomokuEngine(game, threads=1)
    threatened = left_out = 0
    # As many games as it takes to meet enough threats: how often a four-three
    # comes up depends on how the engine plays, which changes.
    for position in middle_games(game, range(400)):
        if threatened >= 8 and left_out >= 300:
            break
        search = _Search(engine.geometry, position.cells, table=False)
        board = search.board
        me = 0 if position.to_move == X else 1
        opp = 1 - me
        n = board.ncls
        if n[opp, C_FIVE] or n[opp, C_FLEX4] or n[me, C_FIVE] or n[me, C_FLEX4]:
            continue
        if n[opp, C_B4F3] == 0:
            continue
        out = np.zeros(len(board.cells) + 1, dtype=np.int64)
        count = int(K.b4f3_defences(board, me, out))
        if count == 0:
            continue
        threatened += 1
        answers = set(out[:count].tolist())
        assert all(board.bd[c] == K.EMPTY for c in answers)
        for c in board.cells:
            if board.bd[c] != K.EMPTY or board.near[c] == 0 or int(c) in answers:
                continue
            if K.illegal(board, me, c):
                continue
            K.play(board, c, me + 1)
            wins = search.threats(opp, 3, K.VCT)
            K.unplay(board, c)
            assert wins > 0, f"{name}: {search.cell(c)} answers the four-three of {position.cells}"
            left_out += 1
    assert threatened >= 8 and left_out >= 300


@pytest.mark.parametrize("name", RULES)
def test_without_a_learned_policy_the_ordering_is_the_hand_set_one(name: str) -> None:
    game = game_of(name)
    table = policy(rule_of(game), learned=False)
    assert table.dtype == np.int16
    for position in list(middle_games(game, range(2), plies=30))[::5]:
        board = board_of(game, position.cells)
        for me in range(2):
            opp = 1 - me
            for c in board.cells:
                if board.bd[c] != K.EMPTY or board.cls[me, c] == C_FIVE:
                    continue
                if board.cls[opp, c] == C_FIVE:
                    continue
                by_table = int(table[me, 0, code(board.pat[me, c])]) + int(
                    table[opp, 1, code(board.pat[opp, c])]
                )
                assert by_table == board.val[me, c] + board.val[opp, c] * ORDER_DEFENCE // 5


def code(word: int) -> int:
    """A packed word of four levels as :func:`patterns.code_of`'s code."""
    levels = [(int(word) >> (4 * d)) & 15 for d in range(4)]
    return ((levels[0] * 12 + levels[1]) * 12 + levels[2]) * 12 + levels[3]
