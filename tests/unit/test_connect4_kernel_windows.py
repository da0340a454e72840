"""The kernel's rules that settle a node without searching it, against a brute force.

The exact search cuts nodes off by rules of the game rather than by search:
bounds from how soon either side can win (no move that wins with our next
stone leaves at best a win with the stone after), claimeven and "no four
left" one move ahead for either player, and entries found one or two plies
down. Each is exercised where it decides: every null-window test
"more than s?" for every threshold s a position allows, each from an empty
table, on random positions of small boards of both parities of height, and
the result must keep the search's contract against the brute force of
``test_connect4_boards`` (nothing of the project's code): a value at most
s bounds the true score from above, a value above s from below.
"""

from __future__ import annotations

import random

import pytest

from test_connect4_boards import as_columns, brute_force, outcome_of
from unbeatable.games import get_game
from unbeatable.games.connect4 import Connect4Game
from unbeatable.solvers.connect4 import kernel as kernel_module
from unbeatable.solvers.connect4.table import TranspositionTable

#: Boards (even and odd heights, 20 and 24 cells) and the fewest stones of
#: their positions: the brute force answers each in a moment.
BOARDS = [(5, 4, 4), (4, 5, 4), (6, 4, 8)]


@pytest.mark.parametrize(("columns", "rows", "least"), BOARDS)
def test_every_null_window_keeps_the_contract(columns: int, rows: int, least: int) -> None:
    game = get_game(f"connect4:{columns},{rows}")
    assert isinstance(game, Connect4Game)
    shape = game.shape
    kernel = kernel_module.for_shape(shape)
    table = TranspositionTable(shape)
    bits, ints = kernel.new_stacks()
    truth = brute_force(columns, rows)
    rng = random.Random(columns * 10 + rows)
    tested = 0
    while tested < 25:
        position = game.initial()
        stop = rng.randrange(least, shape.cells - 2)
        while position.stones < stop and not game.is_terminal(position):
            position = game.play(position, rng.choice(game.moves(position)))
        # The search's precondition: nobody has won and the side to move
        # cannot win at once.
        if game.is_terminal(position) or any(
            game.play(position, m).winner is not None for m in game.moves(position)
        ):
            continue
        tested += 1
        outcome = outcome_of(truth(as_columns(position)), position.stones, shape.cells)
        assert outcome.plies is not None
        score = shape.pons_score(position.stones, outcome.result, outcome.plies)
        text = game.format(position)
        cur, mask = kernel.U(position.current()), kernel.U(position.mask)
        lowest = -shape.win_now(position.stones + 1)
        for s in range(lowest, shape.win_now(position.stones)):
            table.clear()
            stats = kernel.new_stats()
            stats[kernel.GENERATION] = table.generation
            stats[kernel.BUDGET] = 1 << 62
            args = (cur, mask, position.stones, s, s + 1, kernel.EXACT)
            v = int(kernel.search(*args, table.entries, bits, ints, stats, False))
            if v <= s:
                assert score <= v, (text, s, v, score)
            else:
                assert score >= v, (text, s, v, score)
