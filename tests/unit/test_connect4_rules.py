"""Connect Four rules and notation: both notations, precise errors, wins, Pons scores."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unbeatable.games import GameError, IllegalMoveError, InvalidPositionError, get_game
from unbeatable.games.connect4 import (
    STANDARD,
    Connect4Game,
    Connect4Position,
    canonical_key,
    position_key,
    predecessors,
)
from unbeatable.solvers.connect4.book import book_key

c4: Connect4Game = get_game("connect4")  # type: ignore[assignment]


def replay(moves: str) -> Connect4Position:
    return c4.parse(moves)


# -- notation ---------------------------------------------------------------------


def test_protocol_constants() -> None:
    assert c4.name == "connect4"
    assert c4.players == ("x", "o")
    assert c4.win_score == 43


def test_empty_board_is_the_empty_string() -> None:
    empty = c4.initial()
    assert c4.format(empty) == ""
    assert c4.parse("") == empty
    assert c4.parse("   ") == empty
    assert c4.parse("......./......./......./......./......./.......") == empty
    assert c4.format(c4.parse("......./......./......./......./......./.......")) == ""
    assert c4.to_move(empty) == "x"


def test_move_sequence_round_trips_and_grid_matches() -> None:
    p = c4.parse("4453")
    assert c4.format(p) == "4453"
    assert c4.grid(p) == "......./......./......./......./...o.../..oxx.."
    assert c4.to_move(p) == "x"
    assert c4.to_move(c4.parse("445")) == "o"


def test_grid_parse_accepts_aliases_case_and_side() -> None:
    canonical = "......./......./......./......./...o.../..oxx.. x"
    for text in (
        "......./......./......./......./...o.../..oxx..",
        "_______/-------/......./......./...O.../..OXx.. X",
        "......./......./......./......./...o.../..oxx.. x",
    ):
        p = c4.parse(text)
        assert p.moves is None
        assert c4.format(p) == canonical
        assert p == c4.parse("4453")  # same board, whatever the notation
    assert c4.key(c4.parse(canonical)) == c4.key(c4.parse("4453"))


def test_moves_in_board_order_and_centre_first() -> None:
    full_col = c4.parse("444444")
    assert c4.moves(full_col) == [0, 1, 2, 4, 5, 6]
    assert c4.ordered_moves(c4.initial()) == [3, 2, 4, 1, 5, 0, 6]
    assert c4.ordered_moves(full_col) == [2, 4, 1, 5, 0, 6]
    assert list(c4.tie_break(c4.initial(), [0, 1, 2, 3, 4, 5, 6])) == [3, 2, 4, 1, 5, 0, 6]
    assert c4.draw_plies(c4.parse("4453")) == 38


def test_move_notation() -> None:
    p = c4.initial()
    assert c4.format_move(3) == "4"
    assert c4.move_fields(3) == {"col": 3}
    assert c4.parse_move(p, "4") == 3
    assert c4.parse_move(p, " 1 ") == 0


@pytest.mark.parametrize(
    ("position", "text", "message"),
    [
        ("", "8", "outside 1-7"),
        ("", "0", "outside 1-7"),
        ("", "a", "bad move"),
        ("", "12", "bad move"),
        ("", "", "bad move"),
        ("444444", "4", "column 4 is full"),
        ("1212121", "3", "game is over"),
    ],
)
def test_parse_move_errors(position: str, text: str, message: str) -> None:
    with pytest.raises(IllegalMoveError, match=message):
        c4.parse_move(c4.parse(position), text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4458", r"move 4: column 8 is outside 1-7"),
        ("40", r"move 2: column 0 is outside 1-7"),
        ("4444444", r"move 7: column 4 is full"),
        ("12121212", r"move 8 \(column 2\) comes after the game was won by x at move 7"),
        ("44a", r"unknown character 'a' at move 3"),
        ("......./......./......./......./......./......", "row 6 has 6 cells"),
        ("......./......./......./......./.......", "expected 6 rows"),
        ("......./......./......./......./......./...z...", "unknown character 'z' in row 6"),
        ("......./......./......./......./...x.../.......", "floating stone in column 4"),
        ("......./......./......./......./......./xx.....", "impossible counts: 2 x and 0 o"),
        ("......./......./......./......./......./o......", "impossible counts: 0 x and 1 o"),
        ("......./......./......./......./......./x...... x", "contradicts the counts"),
        ("......./......./......./......./......./x...... q", "unknown side to move"),
        ("......./......./......./......./......./x...... o extra", "separated by one space"),
        ("......./......./......./......./oooo.../xxxx... x", "both x and o have four"),
        (
            "......./......./......./o....../o....../oxxxx.o x",
            "x has four in a row, but o moved after the game was won",
        ),
        ("......./......./......./......./xx...../oo..... x", "unreachable position"),
        (
            "......./......./......x/......x/ooo.oox/xxxxoox o",
            "unreachable position: no last move completes every four",
        ),
    ],
)
def test_parse_errors_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        c4.parse(text)


def test_non_string_position_is_an_error() -> None:
    with pytest.raises(InvalidPositionError):
        c4.parse(4453)  # type: ignore[arg-type]


# -- wins and draws ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "winner", "line"),
    [
        ("1212121", "x", (14, 21, 28, 35)),  # vertical in column 1 (flat, row 0 = top)
        ("1122334", "x", (35, 36, 37, 38)),  # bottom row, columns 1-4
        ("1321454327344", "x", (17, 23, 29, 35)),  # rising diagonal from the bottom-left
        ("51755464644", "x", (17, 25, 33, 41)),  # falling diagonal to the bottom-right
        ("71122334", "o", (35, 36, 37, 38)),  # o wins on the bottom row
    ],
)
def test_fours_in_every_direction(moves: str, winner: str, line: tuple[int, ...]) -> None:
    p = c4.parse(moves)
    assert c4.winner(p) == winner
    assert c4.is_terminal(p)
    assert c4.moves(p) == []
    assert c4.winning_line(p) == line
    # The grid of a won position parses back to the same winner.
    assert c4.parse(c4.grid(p)).winner == winner


def test_running_game_has_no_winning_line() -> None:
    p = c4.parse("4453")
    assert c4.winner(p) is None
    assert c4.winning_line(p) is None
    assert not c4.is_terminal(p)


def test_full_board_is_a_draw() -> None:
    rng = random.Random(7)
    while True:
        p = c4.initial()
        while not c4.is_terminal(p):
            p = c4.play(p, rng.choice(c4.moves(p)))
        if p.winner is None:
            break
    assert p.stones == STANDARD.cells
    assert c4.moves(p) == []
    assert c4.winner(p) is None
    assert c4.draw_plies(p) == 0
    assert c4.parse(c4.format(p)) == p


# -- Pons scores ------------------------------------------------------------------


def test_pons_score_examples() -> None:
    # x to move on an empty board wins with its 4th stone at the earliest: 22 - 4.
    assert STANDARD.pons_score(0, "win", 7) == 18
    assert STANDARD.pons_score(0, "loss", 8) == -18
    assert STANDARD.pons_score(10, "draw", 32) == 0
    # Immediate win: (43 - stones) // 2, the largest score.
    for stones in range(0, 42):
        assert STANDARD.pons_score(stones, "win", 1) == (43 - stones) // 2
    assert STANDARD.pons_outcome(0, 1) == ("win", 41)
    assert STANDARD.pons_outcome(35, -3) == ("loss", 2)


def test_pons_conversions_round_trip() -> None:
    for stones in range(STANDARD.cells):
        for plies in range(1, STANDARD.cells - stones + 1):
            result = "win" if plies % 2 == 1 else "loss"
            score = STANDARD.pons_score(stones, result, plies)
            assert STANDARD.pons_outcome(stones, score) == (result, plies)
        assert STANDARD.pons_outcome(stones, 0) == ("draw", STANDARD.cells - stones)
    with pytest.raises(ValueError):
        STANDARD.pons_outcome(40, 10)
    with pytest.raises(ValueError):
        STANDARD.pons_score(3, "unknown", 1)


def test_score_override_uses_pons_convention() -> None:
    p = c4.parse("4453")
    assert c4.score(p, "win", 3) == STANDARD.pons_score(4, "win", 3) == 22 - (2 + 2)
    assert c4.score(p, "draw", 38) == 0


def test_mirror_and_canonical_key() -> None:
    left, right = c4.parse("1"), c4.parse("7")
    assert STANDARD.mirror(left.x) == right.x
    assert canonical_key(left) == canonical_key(right)
    assert canonical_key(c4.parse("4453")) == canonical_key(c4.parse("4435"))


def test_evaluate_is_a_bounded_guess() -> None:
    for moves in ("", "4453", "445362", "121"):
        assert -1 < c4.evaluate(c4.parse(moves)) < 1


# -- properties -------------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> tuple[str, Connect4Position]:
    """A random legal move sequence and its position (possibly finished)."""
    p = c4.initial()
    moves = ""
    for _ in range(draw(st.integers(0, 42))):
        legal = c4.moves(p)
        if not legal:
            break
        col = draw(st.sampled_from(legal))
        p = c4.play(p, col)
        moves += str(col + 1)
    return moves, p


@given(games())
def test_the_canonical_key_is_the_smaller_image_key(game: tuple[str, Connect4Position]) -> None:
    # It mirrors the key once; the image's own key is built here from its stones.
    moves, p = game
    image = c4.parse("".join(str(8 - int(m)) for m in moves))
    own = position_key(p.current(), p.mask)
    assert canonical_key(p) == canonical_key(image) == min(
        own, position_key(image.current(), image.mask)
    )
    key, mirrored = book_key(p)
    assert key == canonical_key(p) and mirrored == (key != own)


@settings(max_examples=150, deadline=None)
@given(games())
def test_sequence_and_grid_round_trip(game: tuple[str, Connect4Position]) -> None:
    moves, p = game
    assert c4.format(p) == moves
    assert c4.parse(moves) == p
    assert c4.parse(c4.format(p)) == p
    grid = f"{c4.grid(p)} {c4.to_move(p)}"
    q = c4.parse(grid)
    assert q == p
    assert q.winner == p.winner
    assert c4.format(q) == (grid if moves else "")
    assert c4.format(c4.parse(c4.format(q))) == c4.format(q)
    assert c4.winning_line(q) == c4.winning_line(p)
    assert c4.key(q) == c4.key(p)


@settings(max_examples=150, deadline=None)
@given(games())
def test_predecessors_are_the_positions_one_move_back(game: tuple[str, Connect4Position]) -> None:
    """Every predecessor leads here by its move, the real last move is one of
    them, and there is one per top stone of the player who moved last."""
    moves, p = game
    back = list(predecessors(p))
    for col, before in back:
        assert before.stones == p.stones - 1
        assert c4.play(before, col) == p
    if moves:
        assert (int(moves[-1]) - 1, c4.parse(moves[:-1])) in back
    last = p.o if c4.to_move(p) == "x" else p.x
    tops = [p.height(c) for c in range(7)]
    assert len(back) == sum(1 for c, h in enumerate(tops) if h and last >> (c * 7 + h - 1) & 1)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789xo.-_/XO ab\n", max_size=60))
def test_garbage_raises_only_game_errors(text: str) -> None:
    try:
        p = c4.parse(text)
    except GameError:
        return
    assert c4.parse(c4.format(p)) == p


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from("xo.."), min_size=42, max_size=42),
    st.sampled_from(["", " x", " o"]),
)
def test_random_grids_validate_or_raise_game_errors(cells: list[str], side: str) -> None:
    text = "/".join("".join(cells[r * 7 : r * 7 + 7]) for r in range(6)) + side
    try:
        p = c4.parse(text)
    except GameError:
        return
    assert c4.parse(c4.format(p)) == p


@settings(max_examples=200, deadline=None)
@given(games(), st.text(max_size=4))
def test_parse_move_accepts_legal_or_raises_illegal(
    game: tuple[str, Connect4Position], text: str
) -> None:
    _, p = game
    try:
        col = c4.parse_move(p, text)
    except IllegalMoveError:
        return
    assert col in c4.moves(p)
