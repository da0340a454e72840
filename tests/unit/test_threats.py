"""What a k-in-a-row move does, in the game's words (games/threats.py) and the
analysis said once (api.explain), on positions written by hand.

The issue's position is Gomoku after ``ISSUE``: x's four g8-j11 waits at k12,
o's open three e8-g6 has its points at d9 and h5. ``DOUBLE_FOUR``: x's l8
makes two fours at once. The rule sets: standard's overline is no five,
renju's forbidden points are named with their reason and a three whose open
four would land on one is no three. Hypothesis checks the fours against the
rules' own winning moves on random boards of every rule. Analyses are built
by hand, so no test here waits for an engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unbeatable import api
from unbeatable.games import get_game
from unbeatable.games import threats as T
from unbeatable.games.mnk import EMPTY, MNKGame, MNKPosition, O, X
from unbeatable.search.analysis import Analysis, MoveValue, move_value
from unbeatable.search.engine import UNKNOWN, Outcome


def moves(text: str) -> list[str]:
    return text.split()


ISSUE = moves(
    "h8 i9 j8 j9 h9 i8 h7 h6 i10 h10 g8 f7 g9 i6 j6 i7 i5 g6 g11 g10 h11 f11 k7 l8 e9 e8 j11"
)
DOUBLE_FOUR = moves("i8 h8 j8 a1 k8 o1 l9 l12 l10 a15 l11 o15")


def game_of(name: str) -> MNKGame:
    game = get_game(name)
    assert isinstance(game, MNKGame)
    return game


GOMOKU, STANDARD, RENJU = game_of("gomoku"), game_of("gomoku:standard"), game_of("renju")


def played(game: MNKGame, moves: list[str]) -> MNKPosition:
    pos = game.initial()
    for move in moves:
        pos = api.play_move(game, pos, move)
    return pos


def board(game: MNKGame, black: str, white: str, to_move: str = X) -> MNKPosition:
    """These stones, the counts evened out by stones on the edge rows, far
    from the shapes (x on row 15 from b, o on row 1 from a, every other cell)."""
    stones = {X: black.split(), O: white.split()}
    want = {X: len(stones[O]) + (to_move == O), O: len(stones[X]) - (to_move == O)}
    pads = {X: [f"{c}15" for c in "bdfhjln"], O: [f"{c}1" for c in "acegikmo"]}
    for mark in (X, O):
        stones[mark] += pads[mark][: max(0, want[mark] - len(stones[mark]))]
    cells = [EMPTY] * game.size
    for mark, names in stones.items():
        for name in names:
            cells[game.parse_move(game.initial(), name)] = mark
    return game.from_cells("".join(cells), to_move)


def said(game: MNKGame, pos: MNKPosition) -> dict[str, list[str]]:
    """Each side's shapes in words, with their points."""
    read = T.read(game, pos)
    out: dict[str, list[str]] = {X: [], O: []}
    for shape in read.shapes:
        points = " ".join(game.format_move(p) for p in shape.points)
        out[shape.side].append(f"{T.shape_words(game, shape, owner=False)} at {points}")
    return out


def does(game: MNKGame, pos: MNKPosition, move: str) -> list[str]:
    return T.move_words(game, T.move_facts(game, pos, game.parse_move(pos, move)))


# -- the facts ----------------------------------------------------------------------


def test_the_issues_position_read_as_a_player_reads_it() -> None:
    pos = played(GOMOKU, ISSUE)
    assert said(GOMOKU, pos) == {
        X: ["a four (g8\N{EN DASH}j11) at k12"],
        O: ["an open three (e8\N{EN DASH}g6) at d9 h5"],
    }
    assert does(GOMOKU, pos, "k12") == ["blocks x's four (g8\N{EN DASH}j11)"]
    assert does(GOMOKU, pos, "d9") == ["makes an open four (d9\N{EN DASH}g6)"]
    assert does(GOMOKU, pos, "c10") == ["makes a four (c10\N{EN DASH}g6)"]  # c10 . e8 f7 g6
    assert does(GOMOKU, pos, "a1") == []
    # x to move instead: the open three is stopped at its points and nowhere else near.
    three = next(s for s in T.read(GOMOKU, pos).shapes if s.kind is T.Kind.open_three)
    assert [GOMOKU.format_move(c) for c in three.defences] == ["d9", "h5"]
    assert T.threat_words(GOMOKU, pos, X) == "a four (g8\N{EN DASH}j11)"


def test_two_threats_at_a_stroke() -> None:
    pos = played(GOMOKU, DOUBLE_FOUR)
    assert does(GOMOKU, pos, "l8") == ["makes a double four (i8\N{EN DASH}l8, l8\N{EN DASH}l11)"]
    # Were it o's move, x's point would be taken: o's l8 says so.
    o_view = MNKPosition(pos.cells, O)
    assert "takes the point of x's double four" in does(GOMOKU, o_view, "l8")
    assert T.threat_words(GOMOKU, o_view, X) == "a double four at l8"
    after = played(GOMOKU, [*DOUBLE_FOUR, "l8"])
    assert T.threat_words(GOMOKU, after, X) == ("two fours (i8\N{EN DASH}l8, l8\N{EN DASH}l11)")
    # A five wins, whatever else the move does.
    assert does(GOMOKU, played(GOMOKU, [*DOUBLE_FOUR, "l8", "m8"]), "l7") == [
        "wins with five in a row (l7\N{EN DASH}l11)"
    ]


def test_a_four_three() -> None:
    pos = board(GOMOKU, "e5 f5 g5 h7 h8", "d5 a14 c14 e14 g14")
    assert does(GOMOKU, pos, "h5") == ["makes a four-three (e5\N{EN DASH}h5, h5\N{EN DASH}h8)"]


def test_an_overline_is_no_five_in_standard() -> None:
    """d8 e8 f8 g8 . i8: h8 makes six. Freestyle: an open four (c8 or h8
    wins); standard: a four (only c8 makes exactly five)."""
    black, white = "d8 e8 f8 g8 i8", "a1 c1 e1 g1 i1"
    free = said(GOMOKU, board(GOMOKU, black, white))[X]
    assert free == ["an open four (d8\N{EN DASH}g8) at c8 h8"]
    pos = board(STANDARD, black, white)
    assert said(STANDARD, pos)[X] == ["a four (d8\N{EN DASH}g8) at c8"]
    assert does(STANDARD, pos, "h8") == []  # six in a row: nothing
    assert does(GOMOKU, board(GOMOKU, black, white), "h8") == [
        "wins with five in a row (d8\N{EN DASH}i8)"
    ]


def test_renju_forbidden_points_and_false_threes() -> None:
    # h8 makes two open threes: forbidden for black, with the reason.
    pos = board(RENJU, "f8 g8 h9 h10", "a14 c14 e14 g14")
    read = T.read(RENJU, pos)
    named = {RENJU.format_move(c): why for c, why in read.forbidden.items()}
    assert named == {"h8": "double three"}
    assert T.forbidden_words(RENJU, "double three") == "forbidden for black: double three"
    # Read for white to move too: white plays against black's forbidden points.
    white = board(RENJU, "f8 g8 h9 h10 n15", "a14 c14 e14 g14", to_move=O)
    assert T.read(RENJU, white).forbidden == read.forbidden
    # e8 f8 g8 would be an open three, but d8 and h8 are double fours for
    # black: no three. d9-d11 keeps one point (d12), and so its three.
    black = "e8 f8 g8 d9 d10 d11 h9 h10 h11"
    white_stones = "a2 c2 e2 g2 i2 k2 m2 o2 a4"
    pos = board(RENJU, black, white_stones)
    assert said(RENJU, pos)[X] == [
        "an open three (d9\N{EN DASH}d11) at d12",
        "an open three (h9\N{EN DASH}h11) at h12",
    ]
    free = said(GOMOKU, board(GOMOKU, black, white_stones))[X]
    assert "an open three (e8\N{EN DASH}g8) at d8 h8" in free


def test_renju_overlines_black_and_white() -> None:
    black, white = "d8 e8 f8 g8 i8", "a2 c2 e2 g2 i2"
    pos = board(RENJU, black, white)
    assert said(RENJU, pos)[X] == ["a four (d8\N{EN DASH}g8) at c8"]
    assert T.read(RENJU, pos).forbidden[RENJU.parse_move(RENJU.initial(), "h8")] == "overline"
    # White wins with six: the same stones are an open four for white.
    pos = board(RENJU, white, black)
    assert said(RENJU, pos)[O] == ["an open four (d8\N{EN DASH}g8) at c8 h8"]


def test_named_by_k_where_four_in_a_row_wins() -> None:
    game = game_of("mnk:5,5,4")
    pos = played(game, ["b3", "a1"])
    assert T.supports(game) and not T.supports(get_game("tictactoe"))
    assert does(game, pos, "c3") == ["makes an open two (b3\N{EN DASH}c3)"]  # d3 makes b3-d3
    pos = played(game, ["b3", "a1", "c3", "a2"])
    assert does(game, pos, "d3") == ["makes an open three (b3\N{EN DASH}d3)"]  # a3 or e3 wins
    assert T.shape_name(T.Makes.four_three, 4) == "three-two"
    assert T.shape_name(T.Kind.five, 4) == "four in a row"


def crowded(game: MNKGame, seed: int, stones: int) -> MNKPosition | None:
    """A random board of ``stones`` stones near the centre, nobody having won
    (None if a line was made on the way)."""
    rng = random.Random(seed)
    pos = game.initial()
    centre = game.size // 2
    for _ in range(stones):
        row, col = divmod(centre, game.columns)
        near = [
            m
            for m in game.moves(pos)
            if abs(m // game.columns - row) <= 4 and abs(m % game.columns - col) <= 4
        ]
        if not near:
            return None
        pos = game.play(pos, rng.choice(near))
        if pos.winner is not None:
            return None
    return pos


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["gomoku", "gomoku:standard", "renju"]),
    st.integers(0, 2**32),
    st.integers(6, 40),
)
def test_the_fours_points_are_the_rules_winning_moves(name: str, seed: int, stones: int) -> None:
    """Every cell where a side makes five is a point of one of its fours (or
    open fours), and every point is such a cell: the rules' winning moves."""
    game = game_of(name)
    pos = crowded(game, seed, stones)
    if pos is None:
        return
    read = T.read(game, pos)
    for side in game.players:
        fours = [s for s in read.of(side) if s.kind in (T.Kind.four, T.Kind.open_four)]
        points = {p for s in fours for p in s.points}
        assert points == set(game.winning_moves(pos, side)), (name, game.format(pos), side)
        # An open three's point makes an open four holding the three's stones.
        for three in (s for s in read.of(side) if s.kind is T.Kind.open_three):
            for point in three.points:
                after = MNKPosition(pos.cells[:point] + side + pos.cells[point + 1 :], side)
                fours = [s for s in T.read(game, after).of(side) if s.kind is T.Kind.open_four]
                assert any(set(three.stones) | {point} == set(s.stones) for s in fours)


# -- said once: api.explain ----------------------------------------------------------------


Values = dict[str, tuple[Outcome, tuple[str, ...]]]


def analysis_of(
    game: MNKGame,
    pos: MNKPosition,
    values: Values,
    default: tuple[Outcome, int] | None = None,
    best: str | None = None,
) -> Analysis:
    """An analysis as the engine would give it: ``values`` for some moves,
    the rest ``default`` (an outcome, and the reply: the line ``move reply``)."""
    valued: list[MoveValue] = []
    for raw in game.moves(pos):
        name = game.format_move(raw)
        if name in values:
            outcome, line = values[name]
        else:
            assert default is not None
            outcome, line = default[0], (name, game.format_move(default[1]))
        valued.append(move_value(game, pos, raw, outcome)._replace(line=line))
    top = next(m for m in valued if m.move == best) if best else max(valued, key=lambda m: m.rank)
    exact = all(m.result != "unknown" for m in valued)
    head = (game.name, game.format(pos), pos.to_move, top.result, top.plies, top.score)
    return Analysis(*head, top, tuple(valued), 0, 0.0, exact=exact)


def test_the_only_move_is_said_once() -> None:
    """The issue: k12 not proven, every other move loses in 2. Not "a15 (loss
    in 2): X answers k12 and wins" nine times: one sentence, one line for the
    rest, and k12's own."""
    pos = played(GOMOKU, ISSUE)
    k12 = GOMOKU.parse_move(pos, "k12")
    values: Values = {"k12": (UNKNOWN, ("k12",))}
    analysis = analysis_of(GOMOKU, pos, values, (Outcome("loss", 2), k12), "k12")
    told = api.explain(GOMOKU, pos, analysis)
    assert told.summary == "k12 is the only move: every other loses to x's four (g8\N{EN DASH}j11)."
    first, rest = told.groups
    assert first.words == "k12 (not proven, best): blocks x's four (g8\N{EN DASH}j11)."
    assert first.moves == ("k12",) and len(rest.moves) == 197 and told.more is None
    assert rest.words.endswith(
        "others (loss in 2): x answers k12 and wins: five in a row (g8\N{EN DASH}k12)."
    )
    assert rest.moves[:2] == ("f8", "g7")  # near the centre first, not a15 b15
    assert told.does("k12") == "blocks x's four (g8\N{EN DASH}j11)"
    assert [m.words for m in told.threats] == [
        "x's four (g8\N{EN DASH}j11)",
        "o's open three (e8\N{EN DASH}g6)",
    ]
    # The JSON: notes on the moves, the rest beside them; nothing renamed.
    data = told.annotate(analysis.to_dict())
    k12_json = next(m for m in data["moves"] if m["move"] == "k12")
    assert k12_json["notes"] == [
        {
            "does": "blocks",
            "kind": "four",
            "side": "x",
            "stones": ["g8", "h9", "i10", "j11"],
            "words": "blocks x's four (g8\N{EN DASH}j11)",
        }
    ]
    assert data["explanation"]["summary"] == told.summary
    assert data["explanation"]["threats"][0]["points"] == ["k12"]
    assert set(analysis.to_dict()) < set(data)


def test_every_move_losing_is_said_once() -> None:
    pos = played(GOMOKU, [*DOUBLE_FOUR, "l8"])
    m8 = GOMOKU.parse_move(pos, "m8")
    values: Values = {"m8": (Outcome("loss", 2), ("m8", "l7"))}
    analysis = analysis_of(GOMOKU, pos, values, (Outcome("loss", 2), m8), best="l7")
    told = api.explain(GOMOKU, pos, analysis)
    assert told.summary == (
        "Every move loses in 2: x has two fours (i8\N{EN DASH}l8, l8\N{EN DASH}l11)."
    )
    assert told.groups[0].words.startswith("l7 (loss in 2, best): blocks x's four (l8")
    assert len(told.groups) == 3  # l7, m8 (the other block), and all the rest in one line
    # Losses of different lengths: the longest defence is named.
    pos = played(GOMOKU, DOUBLE_FOUR[:-1])  # o to move; x threatens the double four at l8
    l8 = GOMOKU.parse_move(pos, "l8")
    values = {"l8": (Outcome("loss", 8), ("l8", "k10"))}
    analysis = analysis_of(GOMOKU, pos, values, (Outcome("loss", 4), l8), best="l8")
    told = api.explain(GOMOKU, pos, analysis)
    assert told.summary == (
        "Every move loses: x has a double four at l8; l8 holds out longest (loss in 8)."
    )
    assert told.does("l8") == "takes the point of x's double four"


def test_games_without_threat_words_get_none() -> None:
    analysis = api.analyze("tictactoe", "x../.o./...")
    told = api.explain("tictactoe", "x../.o./...", analysis)
    assert told.summary is None and told.groups == () and told.notes == {}
    assert told.annotate(analysis.to_dict()) == analysis.to_dict()


@pytest.mark.parametrize("name", ["gomoku", "renju"])
def test_a_renju_hint_marks_the_forbidden_points(name: str) -> None:
    game = game_of(name)
    pos = board(game, "f8 g8 h9 h10", "a14 c14 e14 g14")
    analysis = analysis_of(game, pos, {}, (UNKNOWN, 0))
    told = api.explain(game, pos, analysis)
    points = [(p.move, p.reason, p.words) for p in told.forbidden]
    if name == "renju":
        assert points == [("h8", "double three", "forbidden for black: double three")]
        assert not any(m.move == "h8" for m in analysis.moves)
    else:
        assert points == []
        assert told.does("h8") == "makes a double three (f8\N{EN DASH}h8, h8\N{EN DASH}h10)"
