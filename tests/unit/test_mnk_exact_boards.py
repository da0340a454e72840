"""The exact m,n,k solver against the generic negamax on every board it serves
(issue 37, point 3): every rows x columns of 10-36 cells, every k the board
allows, a few positions each (near the end on the big boards, where the
generic engine answers in milliseconds). Result and distance must agree,
and so must each move's value with the value of the position it leads to."""

from __future__ import annotations

import random

import pytest

from unbeatable.games.mnk import MAX_SIDE, MNKGame, MNKPosition
from unbeatable.search.analysis import value_moves
from unbeatable.search.engine import Outcome
from unbeatable.search.negamax import Negamax
from unbeatable.solvers import NEGAMAX_CELLS
from unbeatable.solvers.mnk.exact import MAX_CELLS, ExactEngine

#: Every board shape the exact solver serves: (rows, columns).
SHAPES = [
    (rows, columns)
    for rows in range(1, MAX_SIDE + 1)
    for columns in range(1, MAX_SIDE + 1)
    if NEGAMAX_CELLS < rows * columns <= MAX_CELLS
]
#: Empty cells left in a position of a board past this many cells: few, so
#: that the generic engine's search stays small.
BIG = 16


def played(game: MNKGame, rng: random.Random, empty: int) -> MNKPosition:
    """A position of random play with ``empty`` cells left, every move one
    that does not end the game (so fewer stones only where every move would:
    four in a row fills a board, one in a row does not start it)."""
    position = game.initial()
    while game.size - position.cells.count("x") - position.cells.count("o") > empty:
        moves = game.moves(position)
        rng.shuffle(moves)
        going = (game.play(position, move) for move in moves)
        after = next((child for child in going if not game.is_terminal(child)), None)
        if after is None:
            break
        position = after
    return position


def positions(game: MNKGame, seed: int) -> list[MNKPosition]:
    """Two positions of the board: on a small board any number of empty cells
    (up to ten), on a big one five to eight."""
    rng = random.Random(seed)
    most = min(game.size, 10) if game.size <= BIG else 8
    least = 2 if game.size <= BIG else 5
    return [played(game, rng, rng.randint(least, most)) for _ in range(2)]


@pytest.mark.parametrize(("rows", "columns"), SHAPES, ids=[f"{r}x{c}" for r, c in SHAPES])
def test_exact_agrees_with_negamax_on_every_board(rows: int, columns: int) -> None:
    for k in range(1, max(rows, columns) + 1):
        game = MNKGame(rows, columns, k)
        exact = ExactEngine(game, table_entries=1 << 12)
        generic: Negamax[MNKPosition, int] = Negamax(game, max_entries=1 << 16)
        for position in positions(game, seed=1000 * rows + 10 * columns + k):
            where = f"mnk:{rows},{columns},{k} {game.format(position)}"
            solved = exact.solve(position)
            expected = generic.solve(position).outcome
            assert solved.outcome == expected, where
            if game.is_terminal(position):
                continue
            assert solved.move_proven and solved.move in game.moves(position), where
            # Every move's value is its child's value, seen from the mover, by
            # both engines; the position's value is its best move's.
            valued = value_moves(game, position, exact)
            for move, outcome in valued.moves:
                child = game.play(position, move)
                assert outcome == exact.solve(child).outcome.parent(), (where, move)
                assert outcome == generic.solve(child).outcome.parent(), (where, move)
            kept = exact.solve(game.play(position, solved.move)).outcome.parent()
            assert kept == solved.outcome == best(o for _, o in valued.moves), where


def best(outcomes: object) -> Outcome:
    """The best outcome for the mover: the fastest win, a draw, the slowest loss."""

    def rank(outcome: Outcome) -> tuple[int, int]:
        plies = outcome.plies or 0
        return {"win": (2, -plies), "draw": (1, 0), "loss": (0, plies)}[outcome.result]

    return max(outcomes, key=rank)  # type: ignore[call-overload, no-any-return]
