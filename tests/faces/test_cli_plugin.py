"""The terminal faces on a plug-in game whose pieces move (Hexapawn, from
examples/hexapawn): a whole game typed in, a cell that two moves reach, hints
on the pieces, the result sentence, and analyze, solve, tree and perft."""

from __future__ import annotations

import io
import json
import sys

import pytest
from rich.console import Console
from rich.text import Text

from conftest import CliRun
from test_cli import cli
from unbeatable import api
from unbeatable.cli import render
from unbeatable.cli.play import Match

pytest.importorskip("unbeatable_hexapawn")

#: The width the terminal game is checked at.
COLUMNS = 80


def game_played(
    monkeypatch: pytest.MonkeyPatch, typed: str, position: str = "", human: str = "w"
) -> tuple[Match, str]:
    """Hexapawn in the terminal from ``position`` with ``typed`` piped in,
    on an 80-column console; the match and everything shown."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    shown = io.StringIO()
    console = Console(file=shown, width=COLUMNS, highlight=False)
    game = api.get_game("hexapawn")
    match = Match(game, human, "impossible", console=console)
    if position:
        match.history = [game.parse(position)]
    match.run()
    return match, shown.getvalue()


def test_a_whole_game_typed_in_is_won_by_the_ai() -> None:
    """Black, the second player, wins with perfect play: through the real
    command, with a cell alone for a move and two moves onto one cell."""
    # (The seed picks the AI's replies among moves of equal value.)
    result = cli("play", "hexapawn", "--seed", "1", stdin="b2\nb2\nc1b2\na2\nn\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "You play White (w), the AI plays Black (b)" in out
    assert "b2: you play b1b2." in out  # the only move that reaches b2
    assert "The AI (b) plays a3b2." in out
    # White's a1 and c1 pawns can both take on b2: the cell alone chooses neither.
    assert "b2 is reached by a1b2 and c1b2: type the whole move." in out
    assert out.count("The AI (b) plays") == 3
    assert "Black (b): a pawn through to the far row on c1. The AI wins." in out
    assert "Your record: 0 won, 0 drawn, 1 lost." in out
    assert " on ." not in out and " has " not in out


def test_cells_that_name_no_single_move_are_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    # After b1b2 a3b2: a1 and c1 can both capture on b2.
    match, out = game_played(monkeypatch, "b2\na1\nb3\nzz\nq\n", ".bb/.b./w.w w")
    assert len(match.history) == 1  # nothing was played
    assert "b2 is reached by a1b2 and c1b2: type the whole move." in out
    assert "The piece on a1 can play a1a2 or a1b2: type the whole move." in out
    assert "No move of yours reaches or leaves b3." in out
    assert "'zz' is not a move" in out  # not a cell: the game's own reason
    assert "You quit." in out


def test_whole_moves_and_lone_cells_both_play(monkeypatch: pytest.MonkeyPatch) -> None:
    match, out = game_played(monkeypatch, "a1b2\nq\n", ".bb/.b./w.w w")
    assert match.history[1] == match.game.parse(".bb/.w./..w b")
    match, out = game_played(monkeypatch, "a2\nq\n", ".bb/.b./w.w w")
    assert "a2: you play a1a2." in out and len(match.history) == 3  # and the AI answered


def test_the_hint_shows_on_the_pieces_and_names_the_whole_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The best move captures on an occupied cell: its value is on the pawn
    that makes it, and the hint line names the move from cell to cell."""
    _, out = game_played(monkeypatch, "?\nq\n", ".bb/.b./w.w w")
    board = out.split("Your move (w): ?")[1]
    bottom = next(line for line in board.splitlines() if line.startswith("│ 1 │"))
    assert bottom.split("│")[2:5] == [" W L2  ", "   ·   ", " W L4  "]
    assert "w to move: loss in 4 (score -9); best move c1b2" in board
    assert "a1a2 L2, a1b2 L2; c1b2 L4, c1c2 L2" in board
    assert "each piece shows the value of its best move" in board
    assert all(len(line) <= COLUMNS for line in out.splitlines())


def test_hint_notes_sit_on_the_pieces_that_move() -> None:
    game = api.get_game("hexapawn")
    position = game.parse(".bb/.b./w.w w")
    analysis = api.analyze(game, position)
    notes = render.hint_notes(game, position, analysis)
    assert {cell: text.plain for cell, text in notes.items()} == {(2, 0): "L2", (2, 2): "L4"}
    start = game.initial()
    notes = render.hint_notes(game, start, api.analyze(game, start))
    assert {cell: text.plain for cell, text in notes.items()} == {
        (2, 0): "L4",
        (2, 1): "L6",
        (2, 2): "L4",
    }
    # The last move's cell is where the piece went, not the cell it left.
    after = game.parse(".bb/.b./w.w w")
    assert render.last_cell(game, game.parse("bbb/.w./w.w b"), after) == (1, 1)
    # Built-in games keep values in the cells moves fill, and no move list.
    ttt = api.get_game("tictactoe")
    empty = ttt.initial()
    analysis = api.analyze(ttt, empty)
    assert len(render.hint_notes(ttt, empty, analysis)) == 9
    assert render.piece_moves(ttt, empty, analysis) is None


def test_the_widest_hexapawn_board_fits_80_columns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nq\n"))
    shown = io.StringIO()
    console = Console(file=shown, width=COLUMNS, highlight=False)
    Match(api.get_game("hexapawn:5,3"), "w", "impossible", console=console).run()
    out = shown.getvalue()
    assert "each piece shows the value of its best move" in out
    assert max(len(line) for line in out.splitlines()) <= COLUMNS


@pytest.mark.parametrize(
    ("position", "human", "said"),
    [
        ("w.b/..b/... b", "w", "White (w): a pawn through to the far row on a3. You beat the AI!"),
        # Every black pawn taken: a win with no line to show, and no " on ."
        (".../.w./... b", "w", "White (w): every black pawn taken. You beat the AI!"),
        ("..b/.../.bw w", "w", "Black (b): a pawn through to the far row on b1. The AI wins."),
    ],
)
def test_the_result_sentence_reads_right(
    monkeypatch: pytest.MonkeyPatch, position: str, human: str, said: str
) -> None:
    match, out = game_played(monkeypatch, "n\n", position, human)
    assert said in out
    assert match.tally["win" if said.endswith("You beat the AI!") else "loss"] == 1


def test_a_draw_says_the_game_is_over(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))
    shown = io.StringIO()
    game = api.get_game("tictactoe")
    match = Match(game, "x", "impossible", console=Console(file=shown, width=COLUMNS))
    match.history = [game.parse("xox/xoo/oxx")]
    match.run()
    assert "Draw: the game is over with no winner." in shown.getvalue()
    match.history = [game.parse("xxx/oo./...")]
    assert match.result_line().plain == "X: three in a row on a3, b3, c3. You beat the AI!"


def test_analyze_solve_tree_and_perft_on_the_plugin(run_cli: CliRun) -> None:
    """b, the second player, wins in 6 plies from the start."""
    code, out, err = run_cli("analyze", "hexapawn", "")
    assert code == 0, err
    assert "w to move: loss in 6 (score -7); best move b1b2" in out
    assert "W L6" in out  # the hint on the b1 pawn
    code, out, err = run_cli("analyze", "hexapawn", "", "--json")
    data = json.loads(out)
    assert (data["to_move"], data["result"], data["plies"]) == ("w", "loss", 6)
    assert data["best"]["move"] == "b1b2" and data["line"][-1] == "c2c1"
    code, out, err = run_cli("solve", "hexapawn", "")
    assert code == 0, err
    assert "'bbb/.../www w': w to move, loss in 6, score -7" in out
    code, out, err = run_cli("tree", "hexapawn", "", "--depth", "1")
    assert code == 0, err
    assert "w to move: loss in 6 *best*" in out and "b1b2: loss in 6 * best" in out
    game = api.get_game("hexapawn")
    counted = api.perft(game, game.initial())
    assert (counted.games, counted.positions) == (134, 135)
    code, out, err = run_cli("perft", "hexapawn", "", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == counted.games and data["positions"] == counted.positions
    assert data["outcomes"] == dict(counted.outcomes) == {"b": 70, "w": 64}
    code, out, err = run_cli("perft", "hexapawn", "--depth", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["leaves"] == api.perft_leaves(game, game.initial(), 3) == 28


def test_a_compact_board_shows_a_pieces_value_in_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a board drawn one character a cell, the value takes the piece's
    place, reversed: a piece is there, and the legend says what it means."""
    monkeypatch.setattr(render, "COMPACT_SIDE", 3)
    game = api.get_game("hexapawn")
    position = game.parse(".bb/.b./w.w w")
    analysis = api.analyze(game, position)
    drawn = render.board(game, position, render.hint_notes(game, position, analysis))
    assert isinstance(drawn, Text)
    assert drawn.plain.splitlines()[3] == "1  L · L  1"
    assert any(span.style and "reverse" in str(span.style) for span in drawn.spans)
    legend = render.hint_legend(game, analysis)
    assert legend is not None and "each piece shows the value of its best move" in legend.plain
