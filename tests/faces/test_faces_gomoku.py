"""Gomoku in the terminal: the rules' name for a win by threats, the compact
board for big boards (readable in 80 columns, the last move in brackets),
hints and explanations whose words stay true when values are not proven.

Positions are near-finished or analyses are built by hand, so every test runs
fast whichever engine serves Gomoku.
"""

from __future__ import annotations

import io
import subprocess
import sys
from typing import Any

import pytest
from rich.console import Console

from unbeatable import api
from unbeatable.cli import render
from unbeatable.cli.play import explain_choice
from unbeatable.games import get_game
from unbeatable.search.analysis import Analysis, MoveValue, move_value
from unbeatable.search.engine import UNKNOWN, Outcome

#: x has i8 j8 k8 (h8 taken by o) and l9 l10 l11 (l12 taken by o): l8 makes
#: two fours at once, so x wins by continuous fours in 3 (l8, a block, the other
#: five); o's other stones sit in the corners, threatening nothing.
DOUBLE_FOUR = ["i8", "h8", "j8", "a1", "k8", "o1", "l9", "l12", "l10", "a15", "l11", "o15"]


def play(game: Any, moves: list[str], start: Any = None) -> Any:
    pos = game.initial() if start is None else start
    for move in moves:
        pos = api.play_move(game, pos, move)
    return pos


def raw(game: Any, pos: Any, line: list[str]) -> list[int]:
    out = []
    for text in line:
        move = game.parse_move(pos, text)
        out.append(move)
        pos = game.play(pos, move)
    return out


def plain(renderable: Any, width: int = 80) -> str:
    console = Console(width=width, color_system=None, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


# -- the rules: continuous fours ------------------------------------------------------


def test_a_double_four_is_a_win_by_continuous_fours() -> None:
    game = get_game("gomoku")
    pos = play(game, DOUBLE_FOUR)
    for line in (["l8", "m8", "l7"], ["l8", "l7", "m8"]):
        assert game.threat_win(pos, raw(game, pos, line)) == "continuous fours"  # type: ignore[attr-defined]


def test_the_loser_may_move_first() -> None:
    game = get_game("gomoku")
    pos = play(game, DOUBLE_FOUR[:-1])  # o to move
    line = raw(game, pos, ["a7", "l8", "m8", "l7"])
    assert game.threat_win(pos, line) == "continuous fours"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "line",
    [
        ["l8", "m8"],  # does not end in a win
        ["a9", "l8", "l7", "m8", "b9", "l13"],  # nobody wins
        ["a14", "m8", "l8", "b2", "l7"],  # x's a14 makes no four before the win
    ],
)
def test_other_lines_are_not_named(line: list[str]) -> None:
    game = get_game("gomoku")
    pos = play(game, DOUBLE_FOUR)
    assert game.threat_win(pos, raw(game, pos, line)) is None  # type: ignore[attr-defined]


def test_a_win_in_one_is_no_sequence_of_fours() -> None:
    game = get_game("gomoku")
    pos = play(game, ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"])
    assert game.threat_win(pos, raw(game, pos, ["l8"])) is None  # type: ignore[attr-defined]


def test_the_threat_is_named_by_k_minus_one() -> None:
    game = get_game("mnk:5,5,4")
    pos = play(game, ["b2", "a1", "c3", "e5", "b4", "a5", "c2", "e1", "b3", "a3"])
    # c5 leaves c2 c3 c5 with c4 empty (a "three" where four in a row wins).
    assert game.threat_win(pos, raw(game, pos, ["c5", "c4", "b5"])) == "continuous threes"  # type: ignore[attr-defined]
    ttt = get_game("tictactoe")
    pos = play(ttt, ["a1", "b2", "a3", "c3"])
    assert ttt.threat_win(pos, raw(ttt, pos, ["a2"])) is None  # type: ignore[attr-defined]


# -- the compact board -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "lines", "columns"), [("gomoku", 17, 37), ("mnk:20,20,5", 22, 47)]
)
def test_big_boards_fit_80_columns(game: str, lines: int, columns: int) -> None:
    rules = get_game(game)
    last_col = rules.describe().column_labels[-1]
    pos = play(rules, [f"{last_col}1", "a1"])
    text = plain(render.board(rules, pos, last=(rules.describe().rows - 1, 0)))
    rows = text.rstrip("\n").split("\n")
    assert len(rows) == lines and max(len(r) for r in rows) == columns
    bottom = rows[-2]
    assert bottom.startswith(" 1 [O]") and bottom.rstrip().endswith("X  1")
    assert rows[0].split() == list(rules.describe().column_labels) == rows[-1].split()


def test_small_boards_keep_the_table_and_mark_the_last_move() -> None:
    rules = get_game("tictactoe")
    pos = play(rules, ["b2"])
    text = plain(render.board(rules, pos, last=(1, 1)))
    assert "┃" in text and "[X]" in text


def test_the_last_cell_is_read_off_the_boards() -> None:
    rules = get_game("gomoku")
    before = play(rules, ["h8"])
    after = play(rules, ["h9"], before)
    assert render.last_cell(rules, before, after) == (6, 7)
    assert render.last_cell(rules, before, before) is None
    c4 = get_game("connect4")
    assert render.last_cell(c4, c4.parse("44"), c4.parse("443")) == (5, 2)


# -- hints and their words ---------------------------------------------------------------


def unknown(game: Any, pos: Any, move: int) -> MoveValue:
    return move_value(game, pos, move, UNKNOWN)


def analysis_of(
    game: Any, pos: Any, values: list[MoveValue], best: MoveValue, **root: Any
) -> Analysis:
    fields = {"result": "unknown", "plies": None, "score": None, **root}
    return Analysis(
        game=game.name,
        position=game.format(pos),
        to_move=game.to_move(pos),
        best=best,
        moves=tuple(values),
        nodes=1,
        time_ms=1.0,
        exact=False,
        **fields,
    )


def test_an_unproven_hint_marks_only_the_engines_pick() -> None:
    game = get_game("gomoku")
    pos = play(game, ["h8", "h9"])
    values = [unknown(game, pos, m) for m in game.moves(pos)]
    lost = move_value(game, pos, values[0].raw, Outcome("loss", 6))
    values[0] = lost
    best = next(v for v in values if v.move == "g9")
    analysis = analysis_of(game, pos, values, best)
    notes = render.hint_notes(game, pos, analysis)
    assert {text.plain for text in notes.values()} == {"L", render.GUESS}
    assert notes[(6, 6)].plain == render.GUESS and notes[(0, 0)].plain == "L"
    words = render.summary(analysis).plain
    assert words == "x to move: no value proven within the time budget; best guess g9"
    legend = render.hint_legend(game, analysis)
    assert legend is not None and "best guess" in legend.plain and "L loss for x" in legend.plain
    proven = render.proven_moves(analysis)
    assert proven is not None and proven.plain == "1 move loses (in 6)"


def test_a_proven_root_with_an_unproven_pick_says_so() -> None:
    """The issue's 'loss in 4 (score -222); best move h5 (not proven…)': the
    pick is a guess, and nothing claims a best move."""
    game = get_game("gomoku")
    pos = play(game, ["h8", "h9"])
    values = [unknown(game, pos, m) for m in game.moves(pos)]
    best = next(v for v in values if v.move == "h5")
    analysis = analysis_of(game, pos, values, best, result="loss", plies=4, score=-222)
    words = render.summary(analysis).plain.split("\n")
    assert words[0] == "x to move: loss in 4 (score -222); best guess h5"
    # The position is lost, so every move is, proven one by one or not.
    assert words[1:] == ["Every move loses."]


def test_a_proven_best_among_unknowns_is_not_the_positions_exact_value() -> None:
    game = get_game("gomoku")
    pos = play(game, DOUBLE_FOUR)
    values = [unknown(game, pos, m) for m in game.moves(pos)]
    at = next(i for i, v in enumerate(values) if v.move == "l8")
    win = move_value(game, pos, values[at].raw, Outcome("win", 3))._replace(line=("l8", "m8", "l7"))
    values[at] = win
    analysis = analysis_of(game, pos, values, win, result="win", plies=3, score=223)
    words = render.summary(analysis).plain.split("\n")
    assert words[0] == (
        "x to move: a win; best move l8 (win in 3, proven); "
        f"{len(values) - 1} other moves not valued in time"
    )
    assert words[1] == "X wins by continuous fours in 3: l8 m8 l7."


def test_a_losing_move_names_the_opponents_threats() -> None:
    game = get_game("gomoku")
    pos = play(game, DOUBLE_FOUR[:-1])
    lost = move_value(game, pos, game.parse_move(pos, "a7"), Outcome("loss", 4))
    lost = lost._replace(line=("a7", "l8", "m8", "l7"))
    words = render.threat_words(game, pos, lost, "o")
    assert words == "after a7, x wins by continuous fours in 3: l8 m8 l7"
    cut = lost._replace(line=("a7", "l8"))  # a line cut short by the budget proves nothing
    assert render.threat_words(game, pos, cut, "o") is None


def test_a_big_moves_table_is_bounded() -> None:
    game = get_game("gomoku")
    pos = play(game, ["h8", "h9"])
    values = [unknown(game, pos, m) for m in game.moves(pos)]
    for i in range(20, 40):  # proven losses, the slowest first in the table
        values[i] = move_value(game, pos, values[i].raw, Outcome("loss", 2 + i % 3))
    analysis = analysis_of(game, pos, values, values[5])
    text = plain(render.moves_table(analysis, limit=10), width=160)
    rows = [[cell.strip() for cell in r.split("│")] for r in text.split("\n") if "│" in r]
    # The engine's pick (not proven, above any loss), then one row for each
    # value the 20 proven losses share, the slowest first, then the rest.
    assert len(rows) == 5
    assert rows[0][0] == values[5].move
    assert [(row[1], row[2]) for row in rows[1:4]] == [("loss", "4"), ("loss", "3"), ("loss", "2")]
    slowest = [v.move for v in values[20:40] if v.plies == 4]
    assert rows[1][0] == ", ".join(slowest[:3]) + f" +{len(slowest) - 3}"
    assert rows[-1][0] == f"+{len(values) - 21}"
    assert f"{len(values) - 21} not proven" in rows[-1][1]


def test_explaining_an_unproven_move_never_compares_unknowns() -> None:
    game = get_game("mnk:5,5,4")
    pos = game.initial()
    values = [unknown(game, pos, m) for m in game.moves(pos)]
    best = values[12]
    analysis = analysis_of(game, pos, values, best)
    said = explain_choice(best, analysis, "impossible", game, pos)
    assert said == (
        "It could not prove the value of c3 within the time budget; it is the engine's best guess."
    )
    other = explain_choice(values[0], analysis, "easy", game, pos)
    assert "was better" not in other and "The engine's best guess was c3" in other


# -- a game in the terminal ----------------------------------------------------------------


def test_gomoku_plays_in_80_columns_with_the_last_move_marked() -> None:
    script = "h8\n?\nq\n"
    result = subprocess.run(
        [sys.executable, "-m", "unbeatable", "play", "gomoku"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "80", "LINES": "24", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert max(len(line) for line in out.split("\n")) <= 80
    ai = out.split("The AI (o) plays ", 1)[1].split(".", 1)[0]
    # Unproven, and said so without blaming a budget (the reply may come at once).
    said = out.split("The AI (o) plays ", 1)[1].split("\n", 1)[0]
    assert said.endswith("(a heuristic pick: no proof found in its time)"), said
    board = out.split("The AI (o) plays ", 1)[1].split("Your move")[0]
    column = "abcdefghijklmno".index(ai[0])
    row = next(line for line in board.split("\n") if line[:2].strip() == ai[1:])
    assert row[3 + 2 * column : 6 + 2 * column] == "[O]"
    hint = out.split("Your move (x): ?")[1]
    assert "?" not in hint.split("x to move")[0]  # no board of question marks
    assert "x to move: " in hint


def test_prompts_are_plain_text() -> None:
    """'Play again? [y/N]' lost its '[y/N]' to rich's markup."""
    result = subprocess.run(
        [sys.executable, "-m", "unbeatable", "play", "tictactoe"],
        input="a1\na2\nb1\nn\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Play again? [y/N]: " in result.stdout
