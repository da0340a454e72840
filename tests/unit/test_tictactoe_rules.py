"""Tic-tac-toe rules and notation: parsing, canonical output, precise errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unbeatable.games import GameError, IllegalMoveError, InvalidPositionError, get_game
from unbeatable.games.mnk import MNKGame

ttt = get_game("tictactoe")


def test_canonical_output_and_inferred_side() -> None:
    assert ttt.format(ttt.parse("xox/oox/...")) == "xox/oox/... x"
    assert ttt.format(ttt.parse("X__/-O-/... ")) == "x../.o./... x"
    assert ttt.format(ttt.parse("x../.../...")) == "x../.../... o"
    assert ttt.format(ttt.parse("x../.../... O")) == "x../.../... o"
    assert ttt.format(ttt.initial()) == ".../.../... x"


def test_move_notation_matches_chess_coordinates() -> None:
    empty = ttt.initial()
    assert ttt.format_move(0) == "a3"  # top-left
    assert ttt.format_move(8) == "c1"  # bottom-right
    assert ttt.parse_move(empty, "a3") == 0
    assert ttt.parse_move(empty, "C1") == 8
    assert ttt.move_fields(ttt.parse_move(empty, "b1")) == {"row": 2, "col": 1}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("xo/oox/...", "row 1 has 2 cells"),
        ("xox/oox", "expected 3 rows"),
        ("xox/oox/../...", "expected 3 rows"),
        ("xoz/oox/...", "unknown character 'z' in row 1"),
        ("xxx/xx./...", "impossible counts: 5 x and 0 o"),
        ("ooo/x../...", "impossible counts"),
        ("x../.../... x", "side to move 'x' contradicts the counts"),
        ("x../.../... y", "unknown side to move 'y'"),
        ("xxx/ooo/...", "both x and o have a line"),
        ("xxx/oo./o..", "moved after the game was won"),
        ("ooo/xx./xx.", "moved after the game was won"),
        ("xox/oox/... x extra", "separated by one space"),
    ],
)
def test_invalid_positions_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(InvalidPositionError, match=fragment):
        ttt.parse(text)


def test_the_empty_string_is_the_empty_board() -> None:
    assert ttt.parse("") == ttt.parse("   ") == ttt.initial()


def test_two_lines_completed_by_one_last_move_are_legal() -> None:
    # x's last move at the centre completes a row and a diagonal at once.
    position = ttt.parse("x.o/xxx/o.o")
    assert ttt.winner(position) == "x"


def test_two_separate_lines_cannot_both_be_last() -> None:
    game = MNKGame(4, 4, 3)
    with pytest.raises(InvalidPositionError, match="no single last move"):
        game.parse("xxx./o.o./xxx./oo.o")


@pytest.mark.parametrize(
    ("position", "move", "fragment"),
    [
        (".../.../...", "d1", "off the board"),
        (".../.../...", "a4", "off the board"),
        (".../.../...", "b", "expected a column letter"),
        ("x../.../...", "a3", "a3 is already taken"),
        ("xxx/oo./...", "c2", "the game is over"),
    ],
)
def test_illegal_moves_are_explained(position: str, move: str, fragment: str) -> None:
    with pytest.raises(IllegalMoveError, match=fragment):
        ttt.parse_move(ttt.parse(position), move)


def test_winner_and_winning_line() -> None:
    position = ttt.play(ttt.parse("xox/oox/..."), ttt.parse_move(ttt.parse("xox/oox/..."), "c1"))
    assert ttt.winner(position) == "x"
    assert ttt.winning_line(position) == (2, 5, 8)
    assert ttt.is_terminal(position) and ttt.moves(position) == []


def random_game(draw: st.DrawFn) -> str:
    position = ttt.initial()
    for _ in range(draw(st.integers(0, 9))):
        moves = ttt.moves(position)
        if not moves:
            break
        position = ttt.play(position, draw(st.sampled_from(moves)))
    return ttt.format(position)


reachable = st.composite(random_game)


@given(reachable(), st.booleans(), st.booleans())
def test_notation_round_trips(text: str, upper: bool, drop_side: bool) -> None:
    written = text.upper() if upper else text
    if drop_side:
        written = written.split()[0]
    position = ttt.parse(written.replace(".", "_") if upper else written)
    assert ttt.format(position) == text
    assert ttt.parse(ttt.format(position)) == position


@settings(max_examples=300)
@given(st.text(max_size=30))
def test_garbage_never_crashes_the_parser(text: str) -> None:
    try:
        position = ttt.parse(text)
    except GameError:
        return
    assert ttt.parse(ttt.format(position)) == position


@settings(max_examples=200)
@given(reachable(), st.text(max_size=6))
def test_garbage_moves_never_crash(text: str, move: str) -> None:
    position = ttt.parse(text)
    try:
        index = ttt.parse_move(position, move)
    except GameError:
        return
    assert index in ttt.moves(position)
