"""Connect Four is exact on every board, odd areas included.

On a board with an odd number of cells the first player holds one stone more
than the second when it is full, so the conversion between the solver's
scores and the moves on which games end cannot count from half the board.
Here:

* the one conversion (:meth:`Shape.pons_score`, :meth:`Shape.pons_outcome`)
  is checked on every board the family allows against a definition written
  here from Pons' words (a win scores one more than the stones its winner
  would still hold if the game went on to a full board);
* random positions of the small boards (legal, not over, every stone count the
  solver answers in a moment) are solved by the specialised solver, by the
  brute force of ``test_connect4_boards`` (nothing of the project's code) and
  by the generic negamax near the end, and every move's value in the analysis
  must agree with the position's and with the value of the position it leads to.

The bigger boards are checked against Pons' solver, compiled for each board,
by ``benchmarks/connect4_boards.py`` (results in ``benchmarks/README.md``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_connect4_boards import as_columns, brute_force, outcome_of
from unbeatable import api
from unbeatable.games import get_game
from unbeatable.games.connect4 import (
    MAX_BITS,
    MIN_SIDE,
    Connect4Game,
    Connect4Position,
    shape,
    win_now_score,
)
from unbeatable.search.engine import Outcome

#: Every board of the family: at least 4x4, columns x (rows + 1) at most 64 bits.
FAMILY = [
    (columns, rows)
    for columns in range(MIN_SIDE, MAX_BITS)
    for rows in range(MIN_SIDE, MAX_BITS)
    if columns * (rows + 1) <= MAX_BITS
]


def test_the_family_is_what_the_rules_accept() -> None:
    assert len(FAMILY) == 42  # 12 boards 4 wide (4x4 to 4x15), ..., one 12x4
    assert {(5, 5), (7, 5), (9, 5), (7, 7), (5, 11), (12, 4), (4, 15)} <= set(FAMILY)
    for columns, rows in FAMILY:
        assert get_game(f"connect4:{columns},{rows}").describe().columns == columns


def expected_score(cells: int, stones: int, result: str, plies: int) -> int:
    """The score by Pons' definition, counted from the end of the game: the
    winner's stones on a full board, minus those it has when it connects
    four, plus one; positive for the side to move's win."""
    if result == "draw":
        return 0
    last = stones + plies  # the winning stone's number, from 1
    first_player_won = last % 2 == 1
    full = (cells + 1) // 2 if first_player_won else cells // 2
    held = (last + 1) // 2 if first_player_won else last // 2
    value = full - held + 1
    return value if result == "win" else -value


@st.composite
def endings(draw: st.DrawFn) -> tuple[int, int, int, str, int]:
    """A board of the family, a stone count before the end, and a result with
    a length that fits the board (a win ends on an odd ply, a loss on an even
    one)."""
    columns, rows = draw(st.sampled_from(FAMILY))
    cells = columns * rows
    stones = draw(st.integers(0, cells - 1))
    result = draw(st.sampled_from(["win", "loss", "draw"]))
    if result == "draw":
        return columns, rows, stones, result, cells - stones
    first = 1 if result == "win" else 0 if stones else 2  # a loss in 0: already lost
    if first > cells - stones:
        return columns, rows, stones, "win", 1
    plies = draw(st.integers(0, (cells - stones - first) // 2)) * 2 + first
    return columns, rows, stones, result, plies


@given(endings())
def test_one_conversion_is_right_on_every_board(case: tuple[int, int, int, str, int]) -> None:
    columns, rows, stones, result, plies = case
    board = shape(columns, rows)
    score = board.pons_score(stones, result, plies)
    assert score == expected_score(board.cells, stones, result, plies)
    assert board.pons_outcome(stones, score) == (result, plies)
    # The score of a win in one is the solver kernel's own formula.
    if (result, plies) == ("win", 1):
        assert score == win_now_score(board.cells, stones)
    if (result, plies) == ("loss", 2):
        assert score == -win_now_score(board.cells, stones + 1)


@given(st.sampled_from(FAMILY), st.data())
def test_scores_no_game_can_have_are_refused(board: tuple[int, int], data: st.DataObject) -> None:
    columns, rows = board
    board_shape = shape(columns, rows)
    cells = board_shape.cells
    stones = data.draw(st.integers(0, cells - 1))
    # No score beyond a win with the next stone; none on a full board but 0.
    too_big = win_now_score(cells, stones) + 1
    with pytest.raises(ValueError, match="impossible"):
        board_shape.pons_outcome(stones, too_big)
    with pytest.raises(ValueError, match="impossible"):
        # The worst loss: the opponent's last stone has won (none on the empty board).
        worst = -win_now_score(cells, stones - 1 if stones else stones + 1)
        board_shape.pons_outcome(stones, worst - 1)
    with pytest.raises(ValueError, match="impossible"):
        board_shape.pons_score(stones, "win", 2)
    with pytest.raises(ValueError, match="impossible"):
        board_shape.pons_score(stones, "loss", cells - stones + 1)


def test_the_issue_s_positions_have_their_values() -> None:
    # Each raised "score ... is impossible" before the conversion counted
    # from the end of the game.
    assert api.solve("connect4:9,5", "19614766257548")[3:5] == ("win", 1)
    analysis = api.analyze("connect4:5,5", "1122", time_limit=None)
    assert (analysis.result, analysis.plies, analysis.best and analysis.best.move) == (
        "win",
        19,
        "2",
    )
    assert len(analysis.best.line) == 19 if analysis.best else False
    assert api.solve("connect4:5,5", "215224")[3:6] == ("win", 17, 2)
    for position in ("11223", "3344"):
        assert api.analyze("connect4:5,5", position).complete


# -- random positions of the small boards, three ways ---------------------------------

#: (columns, rows, fewest stones the positions have): every board of the
#: suite's size; the fewest stones keep each board's solve under a second.
SMALL = [(4, 4, 0), (5, 4, 0), (4, 5, 0), (6, 4, 0), (4, 6, 0), (5, 5, 0), (7, 5, 8), (9, 5, 22)]
#: Positions with at most this many empty cells are also solved by the brute
#: force, at most the second count by the generic negamax.
BRUTE_EMPTIES, GENERIC_EMPTIES = 16, 11


def random_position(game: Connect4Game, rng: random.Random, least: int) -> Connect4Position:
    """A random game cut at a random stone count from ``least`` on, not over."""
    while True:
        position = game.initial()
        stop = rng.randrange(least, game.shape.cells)
        while position.stones < stop and not game.is_terminal(position):
            position = game.play(position, rng.choice(game.moves(position)))
        if not game.is_terminal(position):
            return position


def move_outcome(game: Connect4Game, position: Connect4Position, move: int) -> Outcome:
    """A move's value for its player, from the value of the position it leads to."""
    child = game.play(position, move)
    if child.winner is not None:
        return Outcome("win", 1)
    if child.stones == game.shape.cells:
        return Outcome("draw", 1)
    after = api.engine(game).solve(child).outcome
    assert after.plies is not None
    flipped = {"win": "loss", "loss": "win", "draw": "draw"}[after.result]
    return Outcome(flipped, after.plies + 1)  # type: ignore[arg-type]


@pytest.mark.parametrize(("columns", "rows", "least"), SMALL)
def test_random_positions_agree_three_ways(columns: int, rows: int, least: int) -> None:
    game = get_game(f"connect4:{columns},{rows}")
    assert isinstance(game, Connect4Game)
    cells = game.shape.cells
    fast, generic = api.engine(game), api.engine(game, "negamax")
    truth = brute_force(columns, rows)
    rng = random.Random(columns * 100 + rows)
    for _ in range(24):
        position = random_position(game, rng, least)
        text = game.format(position)
        solved = fast.solve(position)
        outcome = solved.outcome
        assert outcome.exact and outcome.plies is not None, text
        empties = cells - position.stones
        if empties <= BRUTE_EMPTIES:
            expected = outcome_of(truth(as_columns(position)), position.stones, cells)
            assert outcome == expected, text
        if empties <= GENERIC_EMPTIES:
            assert generic.solve(position).outcome == outcome, text
        # Every face's numbers: the solution's score is the conversion's.
        solution = api.solve(game, position)
        assert (solution.result, solution.plies) == (outcome.result, outcome.plies)
        assert solution.score == game.shape.pons_score(
            position.stones, outcome.result, outcome.plies
        )
        assert fast.value(position, weak=True).outcome.result == outcome.result, text
        # The analysis: each move valued as the position it leads to, the best
        # move's value the position's, each line as long as its value says.
        analysis = api.analyze(game, position)
        assert (analysis.result, analysis.plies) == (outcome.result, outcome.plies), text
        for value in analysis.moves:
            expected_move = move_outcome(game, position, value.raw)
            assert (value.result, value.plies) == expected_move[:2], f"{text} {value.move}"
            assert len(value.line) == value.plies, f"{text} {value.move}"
        best = analysis.best
        assert best is not None and (best.result, best.plies) == (outcome.result, outcome.plies)
        # The solver's own move keeps the value.
        assert move_outcome(game, position, solved.move)[:2] == (outcome.result, outcome.plies)


def _pure_kernel(columns: int, rows: int) -> dict[str, object]:
    """The Connect Four kernel's templates as plain Python over one board's
    constants (as :func:`kernel.for_shape` compiles them), so that a bound can
    be checked apart from the search that trusts it."""
    from types import FunctionType

    from unbeatable.solvers.connect4 import kernel

    space: dict[str, object] = dict(vars(kernel))
    space.update(kernel.shape_constants(shape(columns, rows)))
    for name, func, _ in kernel._TEMPLATES:
        space[name] = FunctionType(func.__code__, space, name, func.__defaults__)
    return space


@pytest.mark.parametrize(("columns", "rows"), [(4, 4), (5, 4), (6, 4)])
def test_the_claimeven_bounds_hold_against_the_brute_force(columns: int, rows: int) -> None:
    """Allis' claimeven, as the solver prunes with it: where the first player
    to move can make no four against it, its score is at most a draw, and at
    most the loss :func:`claimeven_loss` names when the second's claimeven
    cells make a four. Checked on random positions against the brute force,
    which knows nothing of claimeven; both kinds of bound must occur."""
    game = get_game(f"connect4:{columns},{rows}")
    assert isinstance(game, Connect4Game)
    pure = _pure_kernel(columns, rows)
    no_four_left, claimeven_loss = pure["no_four_left"], pure["claimeven_loss"]
    truth = brute_force(columns, rows)
    rng = random.Random(columns * 10 + rows)
    cells = columns * rows
    held = {"draw": 0, "loss": 0}
    for _ in range(3000):
        position = random_position(game, rng, 4)
        if position.stones % 2 or game.moves(position) == []:
            continue
        cur, mask = np.uint64(position.x), np.uint64(position.mask)  # x moves
        if not no_four_left(cur, mask, position.stones):  # type: ignore[operator]
            continue
        bound = int(claimeven_loss(cur, mask))  # type: ignore[operator]
        outcome = outcome_of(truth(as_columns(position)), position.stones, cells)
        assert outcome.plies is not None
        score = game.shape.pons_score(position.stones, outcome.result, outcome.plies)
        assert score <= bound, (game.format(position), score, bound)
        held["loss" if bound < 0 else "draw"] += 1
    assert held["draw"] > 0 and held["loss"] > 0, held


@pytest.mark.parametrize(("columns", "rows"), [(4, 4), (5, 4), (6, 4), (4, 6)])
def test_the_odd_threat_bound_holds_against_the_brute_force(columns: int, rows: int) -> None:
    """The first player's odd threat with follow-up, as the solver prunes with
    it: where the second player is to move, one column has an odd number of
    stones and the first has a threat on an odd row of it that the second
    cannot beat (:func:`odd_threat_loss`), the second's score is at most the
    loss the function names. Checked on random positions against the brute
    force, which knows nothing of it; the bound must occur, and on the taller
    board tighter than the smallest loss too (a threat on row 1 or 3 of 6)."""
    game = get_game(f"connect4:{columns},{rows}")
    assert isinstance(game, Connect4Game)
    pure = _pure_kernel(columns, rows)
    odd_threat_loss, winning_cells = pure["odd_threat_loss"], pure["winning_cells"]
    score_bound = pure["SCORE"]
    truth = brute_force(columns, rows)
    rng = random.Random(columns * 10 + rows + 1)
    cells = columns * rows
    held = {"-1": 0, "lower": 0}
    for _ in range(12000):
        position = random_position(game, rng, 3)
        if position.stones % 2 == 0 or game.moves(position) == []:
            continue
        cur, mask = np.uint64(position.o), np.uint64(position.mask)  # o moves
        threats = winning_cells(np.uint64(position.x), mask)  # type: ignore[operator]
        bound = int(odd_threat_loss(cur, mask, threats))  # type: ignore[operator]
        if bound == score_bound:
            continue
        outcome = outcome_of(truth(as_columns(position)), position.stones, cells)
        assert outcome.plies is not None
        score = game.shape.pons_score(position.stones, outcome.result, outcome.plies)
        assert score <= bound, (game.format(position), score, bound)
        held["-1" if bound == -1 else "lower"] += 1
    assert held["-1"] >= 20 and (held["lower"] > 0 or rows < 6), held


@pytest.mark.parametrize(("columns", "rows"), [(4, 4), (5, 4), (6, 4), (4, 6)])
def test_claimeven_past_the_seconds_threats_holds_against_the_brute_force(
    columns: int, rows: int
) -> None:
    """Claimeven as the search tests it (:func:`claimeven_bound`): the first
    player's cells above a threat of the second on an even row not playable
    now do not count (the second takes that threat with its answer to the
    first's stone under it), and the loss comes no later than the cells the
    first must leave empty allow. Where the first to move then has no four,
    its score is at most the bound; checked against the brute force, and
    positions where only the cut cells gave the first a four, and where the
    loss comes sooner than :func:`claimeven_loss` says, must occur."""
    game = get_game(f"connect4:{columns},{rows}")
    assert isinstance(game, Connect4Game)
    pure = _pure_kernel(columns, rows)
    no_four_left, claimeven_loss = pure["no_four_left"], pure["claimeven_loss"]
    claimeven_bound, winning_cells = pure["claimeven_bound"], pure["winning_cells"]
    truth = brute_force(columns, rows)
    rng = random.Random(columns * 10 + rows + 2)
    cells = columns * rows
    held = {"plain": 0, "cut": 0, "sooner": 0}
    for _ in range(6000):
        position = random_position(game, rng, 4)
        if position.stones % 2 or game.moves(position) == []:
            continue
        cur, mask = np.uint64(position.x), np.uint64(position.mask)  # x moves
        threats = winning_cells(np.uint64(position.o), mask)  # type: ignore[operator]
        bound = int(claimeven_bound(cur, mask, threats))  # type: ignore[operator]
        if bound == pure["SCORE"]:
            continue
        outcome = outcome_of(truth(as_columns(position)), position.stones, cells)
        assert outcome.plies is not None
        score = game.shape.pons_score(position.stones, outcome.result, outcome.plies)
        assert score <= bound <= 0, (game.format(position), score, bound)
        plain = no_four_left(cur, mask, position.stones)  # type: ignore[operator]
        held["plain" if plain else "cut"] += 1
        if plain and bound < int(claimeven_loss(cur, mask)):  # type: ignore[operator]
            held["sooner"] += 1
    assert held["plain"] > 0 and held["cut"] > 0 and held["sooner"] > 0, held
