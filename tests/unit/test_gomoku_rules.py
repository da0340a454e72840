"""Gomoku's three rule sets: freestyle (five or more), standard (exactly five)
and renju (RIF: black's double three, double four and overline forbidden).

The renju positions are written from the rules, one shape each, with the
reason in words; benchmarks/gomoku_rules_check.py checks the detector
against a tournament engine on thousands of random crowded boards. Every
position here has black (x) to move unless it says otherwise; the stones
named are the interesting ones, and far-away stones on the first and last
rows even out the counts."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from unbeatable import api
from unbeatable.cli.play import Match
from unbeatable.games import IllegalMoveError, InvalidPositionError, UnknownGameError, get_game
from unbeatable.games.gomoku import DOUBLE_FOUR, DOUBLE_THREE, OVERLINE, GomokuGame, Rule
from unbeatable.games.mnk import EMPTY, MNKGame, MNKPosition, O, X
from unbeatable.search.analysis import obvious
from unbeatable.search.engine import Outcome
from unbeatable.search.negamax import Negamax


def member(name: str) -> GomokuGame:
    game = get_game(name)
    assert isinstance(game, GomokuGame)
    return game


RENJU, STANDARD, FREESTYLE = member("renju"), member("gomoku:standard"), member("gomoku")
#: Stones that even out the counts, far from every shape below.
_PAD = {
    O: [f"{column}{row}" for row in (1, 15) for column in "acegikmo"],
    X: [f"{column}15" for column in "bdfhjln"],
}


def position(game: GomokuGame, black: str, white: str = "", to_move: str = X) -> MNKPosition:
    """The board with these stones (moves' names) and ``to_move`` to move."""
    stones = {X: black.split(), O: white.split()}
    want = {X: len(stones[O]) + (to_move == O), O: len(stones[X]) - (to_move == O)}
    for mark in (X, O):
        stones[mark] += _PAD[mark][: max(0, want[mark] - len(stones[mark]))]
    cells = [EMPTY] * game.size
    for mark, names in stones.items():
        for name in names:
            cells[game.parse_move(game.initial(), name)] = mark
    return game.from_cells("".join(cells), to_move)


def forbidden(black: str, white: str = "") -> dict[str, str]:
    pos = position(RENJU, black, white)
    return {RENJU.format_move(cell): why for cell, why in RENJU.forbidden(pos).items()}


# -- names and descriptions -------------------------------------------------------


def test_names_members_and_errors() -> None:
    # (Looked up here: a test elsewhere may refresh the registry, making new objects.)
    free, renju, standard = member("gomoku"), member("renju"), member("gomoku:standard")
    assert get_game("GOMOKU:Freestyle,15") is free is get_game("mnk:15,15,5")
    assert get_game("gomoku:renju") is renju is get_game(" gomoku : RENJU , 15 ")
    assert get_game("gomoku:standard,15") is standard
    big = member("gomoku:standard,22")
    assert isinstance(big, MNKGame) and (big.rows, big.columns, big.k) == (22, 22, 5)
    assert [g.name for g in (free, renju, standard, big)] == [
        "gomoku", "renju", "gomoku:standard,15", "gomoku:standard,22",
    ]  # fmt: skip
    assert [g.rule for g in (FREESTYLE, STANDARD, RENJU)] == ["freestyle", "standard", "renju"]
    plain = get_game("mnk:5,5,4")
    assert RENJU.rule is Rule.RENJU and isinstance(plain, MNKGame) and plain.rule is Rule.FREESTYLE
    assert big.format_move(21) == "v22"  # columns a-v
    for bad, message in [
        ("gomoku:caro", "unknown Gomoku rule 'caro' in 'gomoku:caro': use freestyle, standard"),
        ("gomoku:renju,14", "board size 14 in 'gomoku:renju,14' is out of range: Gomoku is"),
        ("gomoku:renju,23", "is played on 15-22 a side"),
        ("gomoku:renju,big", "bad board size 'big' in 'gomoku:renju,big'"),
        ("gomoku:renju,15,5", "bad Gomoku game 'gomoku:renju,15,5': write gomoku:RULE[,SIZE]"),
        ("mnk:23,23,5", "board sides must be 1-22"),
    ]:  # fmt: skip
        with pytest.raises(UnknownGameError, match=re.escape(message)):
            get_game(bad)


def test_descriptions_say_the_rule_and_which_mark_is_black() -> None:
    free, standard, renju = (g.describe() for g in (FREESTYLE, STANDARD, RENJU))
    assert (free.title, free.goal) == ("Gomoku", "five in a row")
    times = "\N{MULTIPLICATION SIGN}"
    assert standard.title == f"Gomoku (exactly five), 15{times}15"
    assert standard.goal == "exactly five in a row"
    assert renju.title == "Renju" and renju.goal.startswith("five in a row (black exactly five")
    assert get_game("gomoku:renju,19").describe().title == f"Renju, 19{times}19"
    assert [side.name for side in renju.sides] == ["Black", "White"]
    assert all("x (black, who moves first)" in d.notation for d in (free, standard, renju))
    assert {"gomoku:standard,15", "renju"} <= set(api.OFFERED)


# -- renju's forbidden points -------------------------------------------------------------

#: (black stones, white stones, black's forbidden points): the shapes of the
#: RIF rules, each against its near miss.
LITERATURE = [
    pytest.param("f8 g8 h9 h10", "", {"h8": DOUBLE_THREE}, id="double-three"),
    pytest.param("e8 g8 h9 h10", "", {"h8": DOUBLE_THREE}, id="split-three-makes-a-double-three"),
    pytest.param("f8 g8 h9 h10 i7 j6", "", {"h8": DOUBLE_THREE}, id="triple-three"),
    # o x x h8 . .: only f8-i8 can be made, and e8 is white: a four, never straight.
    pytest.param("f8 g8 h9 h10", "e8", {}, id="three-blocked-at-one-end-is-no-three"),
    # o . x x h8 o: both fours end on a white stone.
    pytest.param("f8 g8 h9 h10", "d8 i8", {}, id="three-blocked-one-apart-is-no-three"),
    # x8's row runs into the edge: a8-d8 has no end to the left.
    pytest.param("a8 b8 c9 c10", "", {}, id="three-against-the-edge-is-no-three"),
    pytest.param("b8 c8 d9 d10", "", {"d8": DOUBLE_THREE}, id="three-one-from-the-edge-is-a-three"),
    # c8 . . f8 g8 h8 . o: e8 makes e8-h8, whose end d8 would make six (c8-h8);
    # i8 makes f8-i8 against white's j8. Its only straight four is an overline.
    pytest.param("c8 f8 g8 h9 h10", "j8", {}, id="three-whose-straight-four-would-be-an-overline"),
    pytest.param("f8 g8 h9 h10", "j8", {"h8": DOUBLE_THREE}, id="the-same-without-c8-is-a-three"),
    # h8-h10's only four point is h7 (h12 is white), and h7 makes d7-h7 a five:
    # "a three ... to which you, without at the same time a five in a row is
    # made, can add one more stone to attain a straight four" (RIF).
    pytest.param("f8 g8 h9 h10 d7 e7 f7 g7", "h12", {}, id="three-whose-four-point-makes-five"),
    pytest.param("f8 g8 h9 h10", "h12", {"h8": DOUBLE_THREE}, id="the-same-without-the-five"),
    # The row's only four point is i8 (d8 is white); i8 would make the straight
    # four f8-i8 and the four i8-i11: a double four, so h8's row is no three.
    pytest.param("f8 g8 h9 h10 i9 i10 i11", "d8", {}, id="false-three-four-point-double-four"),
    # Now i8 would make the straight four and two threes (j9 k10, i7 i6): a
    # double three, forbidden itself (listed), so again h8's row is no three.
    pytest.param(
        "f8 g8 h9 h10 j9 k10 i7 i6",
        "d8",
        {"i8": DOUBLE_THREE, "g9": DOUBLE_THREE, "h7": DOUBLE_THREE, "i10": DOUBLE_THREE},
        id="false-three-four-point-double-three",
    ),
    # Recursively: with i10 white, i8's column three i6-i8 has one four point,
    # i5, and f5 g5 h5 make i5 a double four. So i8 makes a four and one three
    # (allowed), h8's row is a three after all, and h8 is forbidden.
    pytest.param(
        "f8 g8 h9 h10 j9 k10 i7 i6 f5 g5 h5",
        "d8 i10",
        {"h8": DOUBLE_THREE, "i8": DOUBLE_THREE, "g9": DOUBLE_THREE},
        id="false-three-undone-two-levels-down",
    ),
    pytest.param(
        "f8 g8 h9 h10 j9 k10 i7 i6",
        "d8 i10",
        {"i8": DOUBLE_THREE, "g9": DOUBLE_THREE, "h7": DOUBLE_THREE},
        id="the-same-without-the-double-four-two-levels-down",
    ),
    pytest.param("d8 f8 h8 j8", "", {"g8": DOUBLE_FOUR}, id="four-four-in-one-line-x.xxx.x"),
    pytest.param("c8 d8 f8 i8 j8", "", {"g8": DOUBLE_FOUR}, id="four-four-in-one-line-xx.xx.xx"),
    pytest.param("b8 c8 d8 h8 i8 j8", "", {"f8": DOUBLE_FOUR}, id="four-four-in-line-xxx.x.xxx"),
    # b8 c8 . e8 . g8 h8: e8 makes neither a four (d8 and f8 make four in a row)
    # nor a three (each straight four would run on into b8 c8 or g8 h8).
    pytest.param("b8 c8 g8 h8 e9 e10", "", {}, id="xx.x.xx-is-neither-four-nor-three"),
    # b8 c8 . e8 f8 g8 . i8: d8 would make six, so f8 makes one four (h8).
    pytest.param("b8 c8 e8 g8 i8", "", {}, id="a-four-whose-five-is-an-overline-is-no-four"),
    pytest.param("f8 g8 i8 h9 h10", "e8", {}, id="four-three-is-allowed"),
    pytest.param(
        "f8 g8 i8 h9 h10 g7 f6",
        "e8",
        {"h8": DOUBLE_THREE, "f7": DOUBLE_THREE, "g9": DOUBLE_THREE, "g10": DOUBLE_THREE},
        id="four-three-three",
    ),
    pytest.param(
        "f8 g8 i8 h9 h10 h11 g7 f6",
        "e8 h12",
        {"h8": DOUBLE_FOUR, "f7": DOUBLE_THREE, "g9": DOUBLE_THREE, "g10": DOUBLE_THREE},
        id="four-four-three",
    ),
    pytest.param("d8 e8 f8 h8 i8", "", {"g8": OVERLINE}, id="overline"),
    pytest.param("c8 d8 e8 f8 h8 i8", "", {"g8": OVERLINE}, id="overline-of-seven"),
    # g8 makes six in the row and five in the column: the five wins.
    pytest.param("d8 e8 f8 h8 i8 g4 g5 g6 g7", "", {"f6": DOUBLE_THREE}, id="overline-with-a-five"),
    # g8 makes x.xxx.x in the row and g4-g8: the five wins.
    pytest.param(
        "d8 f8 h8 j8 g4 g5 g6 g7",
        "g3",
        {"f6": DOUBLE_THREE, "h6": DOUBLE_THREE},
        id="double-four-with-a-five",
    ),
]


@pytest.mark.parametrize(("black", "white", "expected"), LITERATURE)
def test_forbidden_points_of_the_rules(black: str, white: str, expected: dict[str, str]) -> None:
    assert forbidden(black, white) == expected


@pytest.mark.parametrize(
    ("black", "five"),
    [("d8 e8 f8 h8 i8 g4 g5 g6 g7", "g8"), ("d8 f8 h8 j8 g4 g5 g6 g7", "g8")],
)
def test_a_five_wins_through_a_forbidden_shape(black: str, five: str) -> None:
    pos = position(RENJU, black)
    move = RENJU.parse_move(pos, five)
    assert move in RENJU.moves(pos) and move in RENJU.winning_moves(pos, X)
    after = RENJU.play(pos, move)
    assert after.winner == X and RENJU.win_reason(after) == "five in a row"
    again = RENJU.parse(RENJU.format(after))
    assert again == after and again.winner == X


def test_forbidden_points_are_no_moves_for_black_only() -> None:
    pos = position(RENJU, "f8 g8 h9 h10")
    h8 = RENJU.parse_move(RENJU.initial(), "h8")
    assert RENJU.forbidden(pos) == {h8: DOUBLE_THREE}
    assert RENJU.forbidden_reason(pos, h8) == DOUBLE_THREE
    assert h8 not in RENJU.moves(pos) and h8 not in RENJU.ordered_moves(pos)
    assert len(RENJU.moves(pos)) == len(RENJU.ordered_moves(pos)) == pos.cells.count(EMPTY) - 1
    with pytest.raises(IllegalMoveError, match=r"^h8 is forbidden for black: double three$"):
        RENJU.parse_move(pos, "H8")
    # The same board, white to move: white has no forbidden points.
    white = position(RENJU, "f8 g8 h9 h10 a8", to_move=O)
    assert RENJU.forbidden(white) == {} and RENJU.parse_move(white, "h8") == h8
    # Nor do the other rule sets.
    for game in (FREESTYLE, STANDARD):
        same = position(game, "f8 g8 h9 h10")
        assert game.forbidden(same) == {} and game.parse_move(same, "h8") == h8


def test_a_threat_on_a_forbidden_point_cannot_be_blocked() -> None:
    """White's four h4-h7 wins on h8 (h3 is black), where black may not play
    (a double three). Black loses in two, and no search or hint blocks there."""
    pos = position(RENJU, "f8 g8 i9 j10 h3", "h4 h5 h6 h7")
    h8 = RENJU.parse_move(RENJU.initial(), "h8")
    assert RENJU.winning_moves(pos, O) == [h8] and RENJU.forbidden_reason(pos, h8) == DOUBLE_THREE
    found = obvious(RENJU, pos)
    assert found is not None and found[0] != h8 and found[1] == Outcome("loss", 2)
    value, proven, _ = Negamax(RENJU).search(pos, -2.0 * RENJU.win_score, 2.0 * RENJU.win_score, 1)
    assert proven and value == -(RENJU.win_score - 2)
    # A line that plays the forbidden point is no legal line.
    assert RENJU.threat_win(pos, [h8, h8 + 1, h8 + 2]) is None


def test_white_wins_with_an_overline_black_never_does() -> None:
    pos = position(RENJU, "b2 b4 b6 b10 b12 n2", "d8 e8 f8 h8 i8")
    assert pos.to_move == X
    white = position(RENJU, "b2 b4 b6 b10 b12 n2", "d8 e8 f8 h8 i8", to_move=O)
    g8 = RENJU.parse_move(white, "g8")
    assert RENJU.winning_moves(white, O) == [g8]
    after = RENJU.play(white, g8)
    assert after.winner == O and RENJU.win_reason(after) == "six in a row"
    # Black's overline is no win, and no legal move.
    black = position(RENJU, "d8 e8 f8 h8 i8")
    assert RENJU.winning_moves(black, X) == [] and RENJU.forbidden_reason(black, g8) == OVERLINE


def test_a_renju_board_holds_a_black_overline_only_beside_its_five() -> None:
    won = position(RENJU, "d8 e8 f8 g8 h8 i8 g4 g5 g6 g7", to_move=O)
    assert won.winner == X and RENJU.winning_line(won) is not None
    g8 = RENJU.parse_move(RENJU.initial(), "g8")
    assert g8 in (RENJU.winning_line(won) or ())
    for black in ("d8 e8 f8 g8 h8 i8", "d8 e8 f8 g8 h8 i8 k4 k5 k6 k7 k8"):
        with pytest.raises(InvalidPositionError, match="overline is forbidden for black"):
            position(RENJU, black, to_move=O)
    # Standard and freestyle read the same board: six is no win, or a win.
    assert position(STANDARD, "d8 e8 f8 g8 h8 i8", to_move=O).winner is None
    assert position(FREESTYLE, "d8 e8 f8 g8 h8 i8", to_move=O).winner == X


# -- standard: exactly five, for both --------------------------------------------------


@pytest.mark.parametrize("mark", [X, O])
def test_standard_overlines_win_nothing(mark: str) -> None:
    stones, others = "d8 e8 f8 h8 i8", "b2 b4 b6 b10 b12"
    black, white = (stones, others) if mark == X else (others + " n2", stones)
    pos = position(STANDARD, black, white, to_move=mark)
    g8 = STANDARD.parse_move(pos, "g8")
    assert STANDARD.winning_moves(pos, mark) == [] and g8 in STANDARD.moves(pos)
    six = STANDARD.play(pos, g8)
    assert six.winner is None and not STANDARD.is_terminal(six)
    again = STANDARD.parse(STANDARD.format(six))
    assert again == six and again.winner is None
    # Freestyle: the same move wins.
    free = position(FREESTYLE, black, white, to_move=mark)
    assert FREESTYLE.winning_moves(free, mark) == [g8] and FREESTYLE.play(free, g8).winner == mark


def test_standard_fours_and_lines_read_the_rule() -> None:
    """x has a10 . c10 d10 e10: f10 makes a four both ways, but b10 then
    makes six, a win in freestyle only; and a row that runs on into x's own
    stones counts for nothing in standard's evaluation."""
    free, standard = (position(game, "a10 c10 d10 e10") for game in (FREESTYLE, STANDARD))
    b10, f10, g10 = (FREESTYLE.parse_move(free, name) for name in ("b10", "f10", "g10"))
    assert FREESTYLE.winning_moves(FREESTYLE.play(free, f10), X) == [b10, g10]
    assert STANDARD.winning_moves(STANDARD.play(standard, f10), X) == [g10]
    line = [f10, g10, b10]  # x's four, o blocks the five, x makes six
    assert FREESTYLE.threat_win(free, line) == "continuous fours"
    assert STANDARD.threat_win(standard, line) is None
    assert STANDARD.play(STANDARD.play(STANDARD.play(standard, f10), g10), b10).winner is None
    assert STANDARD.evaluate(standard) < FREESTYLE.evaluate(free)


# -- every rule, every size: round trips and winners against a brute force --------------


def _run(game: MNKGame, cells: str, cell: int, mark: str, dr: int, dc: int) -> int:
    """How long ``mark``'s row through ``cell`` is along (dr, dc), ``cell`` included."""
    r0, c0 = divmod(cell, game.columns)
    length = 1
    for sign in (1, -1):
        r, c = r0 + sign * dr, c0 + sign * dc
        while 0 <= r < game.rows and 0 <= c < game.columns and cells[r * game.columns + c] == mark:
            length += 1
            r, c = r + sign * dr, c + sign * dc
    return length


def wins_at(game: MNKGame, cells: str, cell: int, mark: str) -> bool:
    """Whether ``mark`` on the empty ``cell`` wins under the game's rule."""
    exact = game.rule == Rule.STANDARD or (game.rule == Rule.RENJU and mark == X)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        length = _run(game, cells, cell, mark, dr, dc)
        if length == 5 or (length > 5 and not exact):
            return True
    return False


@st.composite
def games_and_positions(draw: st.DrawFn) -> tuple[GomokuGame, MNKPosition]:
    """A rule set, a size, and a position of a random game played in a small
    corner of the board (crowded, so that rows and shapes happen)."""
    rule = draw(st.sampled_from(list(Rule)))
    size = draw(st.sampled_from([15, 16, 19, 22]))
    game = member(f"gomoku:{rule},{size}")
    side = draw(st.integers(6, 9))
    top, left = draw(st.integers(0, size - side)), draw(st.integers(0, size - side))
    window = {(top + r) * size + left + c for r in range(side) for c in range(side)}
    pos = game.initial()
    for _ in range(draw(st.integers(0, side * side * 3 // 4))):
        legal = [m for m in game.moves(pos) if m in window]
        if not legal:
            break
        pos = game.play(pos, legal[draw(st.integers(0, len(legal) - 1))])
        if game.is_terminal(pos):
            break
    return game, pos


@settings(max_examples=40, deadline=None)
@given(games_and_positions())
def test_round_trips_and_winners_under_every_rule(case: tuple[GomokuGame, MNKPosition]) -> None:
    game, pos = case
    text = game.format(pos)
    again = game.parse(text)
    assert again == pos and again.winner == pos.winner and game.format(again) == text
    assert game.parse(text.upper()) == pos
    empties = [i for i, mark in enumerate(pos.cells) if mark == EMPTY]
    for mark in (X, O):  # both sides' winning moves, against the brute force
        expected = [] if pos.winner else [q for q in empties if wins_at(game, pos.cells, q, mark)]
        assert game.winning_moves(pos, mark) == expected
    points = game.forbidden(pos)
    if game.rule != Rule.RENJU or pos.to_move == O or pos.winner:
        assert points == {}
    assert set(points) <= set(empties)
    assert set(points.values()) <= {DOUBLE_THREE, DOUBLE_FOUR, OVERLINE}
    moves = game.moves(pos)
    assert sorted(moves) == sorted(game.ordered_moves(pos))
    if pos.winner is None:
        assert sorted(moves) == sorted(set(empties) - set(points))
    for move in moves:
        assert game.parse_move(pos, game.format_move(move)) == move
        child = game.play(pos, move)
        assert (child.winner == pos.to_move) == wins_at(game, pos.cells, move, pos.to_move)
    for cell, why in points.items():
        assert not wins_at(game, pos.cells, cell, X)  # a five is never forbidden
        with pytest.raises(IllegalMoveError, match=f"is forbidden for black: {why}$"):
            game.parse_move(pos, game.format_move(cell))


# -- the faces follow the rules ----------------------------------------------------------


def test_the_api_and_the_faces_leave_forbidden_points_out(web_client: TestClient) -> None:
    pos = position(RENJU, "f8 g8 h9 h10")
    text = RENJU.format(pos)
    view = api.view("renju", text)
    assert "h8" not in {cell.move for cell in view.moves} and "i8" in {c.move for c in view.moves}
    with pytest.raises(IllegalMoveError, match="h8 is forbidden for black: double three"):
        api.play_move("renju", text, "h8")
    body = {"game": "renju", "position": text, "move": "h8"}
    response = web_client.post("/api/position", json=body)
    assert response.status_code == 400
    assert response.json() == {"error": "h8 is forbidden for black: double three"}
    response = web_client.post("/api/position", json={"game": "renju", "position": text})
    assert "h8" not in {cell["move"] for cell in response.json()["moves"]}
    console = Console(record=True, width=100, color_system=None)
    match = Match(RENJU, X, "impossible", console=console)
    match.history.append(pos)
    assert match.human_turn("h8") and match.position == pos  # refused: nothing played
    assert "h8 is forbidden for black: double three" in console.export_text()
