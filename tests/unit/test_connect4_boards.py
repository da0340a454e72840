"""Connect Four on every board (``connect4:COLUMNS,ROWS``): the family's names
and notation, and exact solving with the same compiled solver as 7x6.

Every board of at most 20 cells (4x4, 5x4, 4x5) is checked against a
brute-force solver written here, with rules of its own (columns as strings of
discs) and an alpha-beta search over a memo of bounds: nothing of the
project's code. Bigger boards are checked against published results: the
outcome and the move on which perfect play ends, from the table in
ChristopheSteininger/c4's README (Tromp's results, extended), as the README's
Connect Four section cites.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from unbeatable import api
from unbeatable.games import GameError, IllegalMoveError, InvalidPositionError, get_game
from unbeatable.games.connect4 import Connect4Game, Connect4Position, Shape
from unbeatable.search.engine import Outcome
from unbeatable.solvers import has_specialised_engine, policy
from unbeatable.solvers.connect4 import Connect4Engine

# -- the family and its notation ---------------------------------------------------


def test_the_family_names_boards_and_7x6_is_connect4_itself() -> None:
    assert get_game("connect4:7,6") is get_game("connect4")
    game = get_game("Connect4: 6, 5")
    assert isinstance(game, Connect4Game) and game.name == "connect4:6,5"
    description = game.describe()
    assert (description.columns, description.rows) == (6, 5)
    assert description.title == "Connect Four, 6\N{MULTIPLICATION SIGN}5"
    assert description.column_labels == ("1", "2", "3", "4", "5", "6")
    assert [key for key, _ in description.keys] == list(description.column_labels)
    assert get_game("connect4").describe().title == "Connect Four"
    assert "connect4:6,5" in api.OFFERED and "connect4:8,7" in api.OFFERED


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "connect4:9,7",
            "connect4:9,7 does not fit a 64-bit board: columns x (rows + 1) must be at most 64",
        ),
        ("connect4:3,6", "connect4:3,6 is too small: columns and rows must be at least 4"),
        ("connect4:6,3", "connect4:6,3 is too small: columns and rows must be at least 4"),
        ("connect4:6", "bad Connect Four board 'connect4:6': write connect4:COLUMNS,ROWS"),
        ("connect4:a,b", "bad Connect Four board 'connect4:a,b': write connect4:COLUMNS,ROWS"),
    ],
)
def test_boards_that_cannot_be_are_refused_precisely(name: str, message: str) -> None:
    with pytest.raises(GameError) as caught:
        get_game(name)
    assert str(caught.value).startswith(message)


def test_the_biggest_boards_fit_and_wide_ones_write_letters() -> None:
    for name in ("connect4:12,4", "connect4:4,15", "connect4:8,7", "connect4:9,6"):
        get_game(name)  # 64 bits or fewer
    wide = get_game("connect4:10,5")
    assert wide.describe().column_labels == tuple("abcdefghij")
    position = wide.parse("ajAJ")
    assert wide.format(position) == "ajaj" and wide.format_move(9) == "j"
    assert wide.parse_move(position, "E") == 4
    with pytest.raises(InvalidPositionError, match="column k is outside a-j"):
        wide.parse("ak")
    with pytest.raises(InvalidPositionError, match="expected a column letter a-j"):
        wide.parse("a1")
    with pytest.raises(IllegalMoveError, match="expected a column letter a-j"):
        wide.parse_move(position, "3")
    narrow = get_game("connect4:6,5")
    with pytest.raises(InvalidPositionError, match="column 7 is outside 1-6"):
        narrow.parse("7")
    with pytest.raises(InvalidPositionError, match="expected 5 rows"):
        narrow.parse("....../......")


@st.composite
def boards_and_games(draw: st.DrawFn) -> tuple[Connect4Game, list[int]]:
    """A board of any size that fits, and a random game's moves on it."""
    columns = draw(st.integers(4, 12))
    rows = draw(st.integers(4, 64 // columns - 1))
    game = get_game(f"connect4:{columns},{rows}")
    assert isinstance(game, Connect4Game)
    position = game.initial()
    moves = []
    for _ in range(draw(st.integers(0, game.shape.cells))):
        legal = game.moves(position)
        if not legal:
            break
        move = draw(st.sampled_from(legal))
        moves.append(move)
        position = game.play(position, move)
    return game, moves


@settings(max_examples=150, deadline=None)
@given(boards_and_games())
def test_notation_round_trips_on_every_board(case: tuple[Connect4Game, list[int]]) -> None:
    game, moves = case
    position = game.initial()
    for move in moves:
        text = game.format_move(move)
        assert game.parse_move(position, text) == move
        assert game.describe().column_labels[move] == text
        position = game.play(position, move)
    text = game.format(position)
    assert text == "".join(game.format_move(m) for m in moves)
    assert game.parse(text) == position
    from_grid = game.parse(f"{game.grid(position)} {position.to_move}")
    assert from_grid == position and from_grid.winner == position.winner
    assert game.parse(game.format(from_grid)) == position
    assert game.is_terminal(position) == (position.winner is not None or not game.moves(position))


def test_positions_of_different_boards_differ() -> None:
    small, standard = get_game("connect4:6,5"), get_game("connect4")
    assert small.parse("") != standard.parse("")
    assert isinstance(small.parse("").shape, Shape)


# -- an independent brute-force solver ----------------------------------------------

#: Scores are absolute: a win when the game ends with T stones on the board is
#: worth BIG - T to the winner (a faster win more), -(BIG - T) to the loser.
BIG = 100
INF = 1000

Columns = tuple[str, ...]


def brute_force(columns: int, rows: int) -> Callable[[Columns], int]:
    """A solver for the board: columns are strings of discs, bottom first.

    Alpha-beta negamax over a memo of proven bounds (keyed by the board and
    its mirror image); the score of a board is exact when asked with the
    whole window.
    """
    cells = columns * rows
    order = sorted(range(columns), key=lambda c: abs(2 * c - columns + 1))
    memo: dict[Columns, tuple[int, int]] = {}

    def four_through(cols: Columns, c: int) -> bool:
        r = len(cols[c]) - 1
        me = cols[c][r]
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                cc, rr = c + sign * dc, r + sign * dr
                while 0 <= cc < columns and 0 <= rr < len(cols[cc]) and cols[cc][rr] == me:
                    run += 1
                    cc, rr = cc + sign * dc, rr + sign * dr
            if run >= 4:
                return True
        return False

    def search(cols: Columns, stones: int, alpha: int, beta: int) -> int:
        if stones == cells:
            return 0
        key = min(cols, cols[::-1])
        lo, hi = memo.get(key, (-INF, INF))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        me = "x" if stones % 2 == 0 else "o"
        children = []
        for c in order:
            if len(cols[c]) < rows:
                child = (*cols[:c], cols[c] + me, *cols[c + 1 :])
                if four_through(child, c):
                    memo[key] = (BIG - stones - 1, BIG - stones - 1)
                    return BIG - stones - 1
                children.append(child)
        best = -INF
        for child in children:
            best = max(best, -search(child, stones + 1, -beta, -max(alpha, best)))
            if best >= beta:
                break
        if best <= alpha:
            memo[key] = (lo, min(hi, best))
        elif best >= beta:
            memo[key] = (max(lo, best), hi)
        else:
            memo[key] = (best, best)
        return best

    def score(cols: Columns) -> int:
        return search(cols, sum(map(len, cols)), -INF, INF)

    return score


def as_columns(position: Connect4Position) -> Columns:
    """The project's position as the brute force's columns (read off the grid)."""
    shape = position.shape
    rows = get_game(f"connect4:{shape.columns},{shape.rows}").grid(position).split("/")[::-1]
    return tuple("".join(row[c] for row in rows).rstrip(".") for c in range(shape.columns))


def outcome_of(score: int, stones: int, cells: int) -> Outcome:
    """The brute force's score as the outcome for the side to move."""
    if score > 0:
        return Outcome("win", BIG - score - stones)
    if score < 0:
        return Outcome("loss", BIG + score - stones)
    return Outcome("draw", cells - stones)


def random_positions(game: Connect4Game, count: int, seed: int) -> list[Connect4Position]:
    """Positions of random games, cut at random points before their end."""
    rng = random.Random(seed)
    found: list[Connect4Position] = []
    while len(found) < count:
        position = game.initial()
        stop = rng.randrange(game.shape.cells)
        while position.stones < stop and not game.is_terminal(position):
            position = game.play(position, rng.choice(game.moves(position)))
        if not game.is_terminal(position):
            found.append(position)
    return found


@pytest.mark.parametrize(("columns", "rows"), [(4, 4), (5, 4), (4, 5)])
def test_every_small_board_is_solved_exactly_strong_and_weak(columns: int, rows: int) -> None:
    game = get_game(f"connect4:{columns},{rows}")
    assert isinstance(game, Connect4Game)
    engine = api.engine(game)
    assert isinstance(engine, Connect4Engine) and engine.book is None
    truth = brute_force(columns, rows)
    cells = game.shape.cells
    for position in [game.initial(), *random_positions(game, 80, seed=columns * 10 + rows)]:
        expected = outcome_of(truth(as_columns(position)), position.stones, cells)
        solved = engine.solve(position)
        assert solved.outcome == expected, game.format(position)
        assert solved.move_proven
        child = game.play(position, solved.move)
        if child.winner is None and not game.is_terminal(child):
            # The move keeps the value: the opponent's best is its negation.
            assert truth(as_columns(child)) == -truth(as_columns(position))
        weak = engine.value(position, weak=True).outcome.result
        assert weak == expected.result, game.format(position)


def test_a_board_of_64_bits_is_solved_exactly_near_its_end() -> None:
    # 8x7 uses every bit of the word (the last column's sentinel is bit 63)
    # and the table's widest keys: endgames the brute force solves at once.
    game = get_game("connect4:8,7")
    assert isinstance(game, Connect4Game)
    truth = brute_force(8, 7)
    engine = api.engine(game)
    rng = random.Random(87)
    checked = 0
    while checked < 20:
        position = game.initial()
        while position.stones < 44 and not game.is_terminal(position):
            position = game.play(position, rng.choice(game.moves(position)))
        if game.is_terminal(position):
            continue
        expected = outcome_of(truth(as_columns(position)), position.stones, 56)
        assert engine.solve(position).outcome == expected, game.format(position)
        checked += 1


def test_the_empty_small_boards_are_draws_that_fill_the_board() -> None:
    # Published too (Tromp; ChristopheSteininger/c4): 4x4, 5x4 and 4x5 are drawn.
    for columns, rows in ((4, 4), (5, 4), (4, 5)):
        assert brute_force(columns, rows)(("",) * columns) == 0
        solution = api.solve(f"connect4:{columns},{rows}", "")
        assert (solution.result, solution.plies) == ("draw", columns * rows)


def test_the_generic_search_agrees_with_the_fast_solver() -> None:
    game = get_game("connect4:5,4")
    fast, generic = api.engine(game), api.engine(game, "negamax")
    assert isinstance(fast, Connect4Engine) and not isinstance(generic, Connect4Engine)
    for position in random_positions(game, 30, seed=7):
        if position.stones < 6:
            continue  # keep the generic search's share short
        assert generic.value(position).outcome == fast.value(position).outcome


# -- bigger boards, against published results -----------------------------------------

#: (columns, rows, result for the first player, the move on which perfect play
#: ends): ChristopheSteininger/c4's README tables "Outcome" and "Last Move"
#: (for w + h <= 15 the outcomes are John Tromp's).
PUBLISHED = [
    (6, 4, "loss", 24),  # the second player wins on the last move
    (5, 5, "draw", 25),
    (6, 5, "draw", 30),
]
# 7x4 (draw on move 28) and 4x6 (draw on move 24) agree too (README's table),
# checked by `unbeatable solve` rather than here: seconds each in the suite.


@pytest.mark.parametrize(("columns", "rows", "result", "last_move"), PUBLISHED)
def test_bigger_boards_match_the_published_results(
    columns: int, rows: int, result: str, last_move: int
) -> None:
    game = get_game(f"connect4:{columns},{rows}")
    engine = Connect4Engine(game=game)  # no book for these boards
    assert engine.book is None
    solved = engine.solve(game.initial())
    assert solved.outcome == Outcome(result, last_move) and solved.move_proven


# -- the registry gives every board the same solver ----------------------------------


def test_every_board_gets_the_compiled_solver_and_the_standard_keeps_its_book() -> None:
    for name in ("connect4", "connect4:6,5", "connect4:12,4"):
        assert has_specialised_engine(name)
        assert policy(name) == policy("connect4")
    assert not has_specialised_engine("connect4:9,7")
    standard = api.engine("connect4")
    assert isinstance(standard, Connect4Engine) and standard.book is not None
    other = api.engine("connect4:6,5")
    assert isinstance(other, Connect4Engine) and other.book is None
    with pytest.raises(ValueError, match="a book of the 7x6 board cannot serve the 6x5 board"):
        Connect4Engine(game=get_game("connect4:6,5"), book=standard.book)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a 7x6 position given to a 6x5 search"):
        other.solve_score(get_game("connect4").parse("4"))  # type: ignore[attr-defined]


# -- the HTTP API follows the description ------------------------------------------


def test_the_api_serves_any_board_in_its_notation(web_client: TestClient) -> None:
    body = {"game": "connect4:10,5", "position": "aj", "move": "J"}
    data = web_client.post("/api/position", json=body).json()
    assert data["position"] == "ajj"
    assert [m["move"] for m in data["moves"]] == list("abcdefghij")
    assert (data["moves"][9]["row"], data["moves"][9]["col"]) == (2, 9)
    solved = web_client.post("/api/solve", json={"game": "connect4:4,4", "position": ""}).json()
    assert (solved["result"], solved["plies"], solved["exact"]) == ("draw", 16, True)
    refused = web_client.post("/api/solve", json={"game": "connect4:9,7", "position": ""})
    assert refused.status_code == 422
    assert "connect4:9,7 does not fit a 64-bit board" in refused.text


def test_the_shared_tables_stay_bounded_whatever_boards_are_asked_for() -> None:
    """Any client may name any board, and each board's table costs up to 128
    MiB: besides the standard board's, only the most recently used few stay."""
    from unbeatable.games.connect4 import STANDARD, shape
    from unbeatable.solvers.connect4 import table

    standard = table.shared_table(STANDARD)
    boards = [shape(4, 4), shape(5, 4), shape(4, 5)]
    tables = [table.shared_table(board) for board in boards]
    kept = list(table._shared)
    assert STANDARD in kept and len(kept) <= 1 + table.OTHER_BOARDS_KEPT
    assert boards[-1] in kept and boards[0] not in kept  # the least recently used went
    assert table.shared_table(STANDARD) is standard
    assert table.shared_table(boards[-1]) is tables[-1]
    # A dropped board's engine simply gets a new table, and is still right:
    # 4x4 is a draw that fills the board.
    solution = api.solve("connect4:4,4", "")
    assert (solution.result, solution.plies) == ("draw", 16)
    assert shape(4, 4) in table._shared


def test_a_board_past_42_cells_gets_a_1_gib_table_and_the_others_a_bounded_sum() -> None:
    """Trees past 42 cells are tens of times bigger: their table is 1 GiB (6x8
    from scratch took 38% fewer nodes than with 128 MiB), sized without
    allocating; and the other boards' tables together stay within a byte
    budget, so a big board keeps no other board's table beside it."""
    from unbeatable.games.connect4 import STANDARD, shape
    from unbeatable.solvers.connect4 import kernel, table

    def size(columns: int, rows: int) -> int:
        return int(kernel.shape_constants(shape(columns, rows))["TABLE_SIZE"]) * 8

    assert size(7, 6) == size(6, 7) < 1 << 28
    for board in [(8, 6), (6, 8), (7, 7), (9, 5), (8, 7), (12, 4)]:
        assert 1 << 30 <= size(*board) < (1 << 30) + (1 << 20), board
        constants = kernel.shape_constants(shape(*board))
        assert constants["MAX_GENERATION"] >= 127  # room for the clears' generations
    small = [shape(4, 4), shape(5, 4)]
    original = table.OTHER_BOARDS_BYTES
    try:  # the budget as if a big table had taken all but one small one's room
        table.OTHER_BOARDS_BYTES = size(5, 4) + size(4, 4) - 1
        for board in small:
            table.shared_table(board)
        kept = [s for s in table._shared if s != STANDARD]
        assert kept == [shape(5, 4)]
    finally:
        table.OTHER_BOARDS_BYTES = original
