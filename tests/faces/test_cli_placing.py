"""The terminal game on a plug-in that places, then moves its pieces (Three
Men's Morris, from examples/morris): while pieces are put down, the prompt's
example, the help and a hint read as in a game of stones (a cell is the
move; each placement's value in the cell it fills), and once they move, as
in Hexapawn (a move from cell to cell; each piece shows its best value)."""

from __future__ import annotations

import io
import re
import sys

import pytest
from rich.console import Console

from unbeatable import api
from unbeatable.cli import render
from unbeatable.cli.play import Match

pytest.importorskip("unbeatable_morris")

COLUMNS = 80
#: o puts down its last man; every placement loses in 2 (proven at once: x mills next).
PLACING = "xo./.xx/o.. o"
#: Every man is down: x moves one along a line (a3a2 and c2c1 win at once).
MOVING = "xoo/.xx/o.. x 6"
PIECES_LEGEND = "each piece shows the value of its best move"


def played(monkeypatch: pytest.MonkeyPatch, typed: str, position: str, human: str) -> str:
    """Everything the terminal game shows from ``position`` with ``typed``
    piped in; hints are exact (these positions take a moment), so that
    what they show does not hang on a busy machine's speed."""
    monkeypatch.setattr(api.engines, "default_time_limit", lambda game: None)
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    shown = io.StringIO()
    game = api.get_game("morris")
    console = Console(file=shown, width=COLUMNS, highlight=False)
    match = Match(game, human, "impossible", console=console)
    match.history = [game.parse(position)]
    match.run()
    return shown.getvalue()


def cells_of(out: str, row: str) -> list[str]:
    """The three cells of a board row (``3``, ``2``, ``1``) as drawn last."""
    line = [text for text in out.splitlines() if text.startswith(f"│ {row} │")][-1]
    return [cell.strip() for cell in line.split("│")[2:5]]


def test_while_placing_a_cell_is_the_move_and_the_hint_fills_the_empty_cells(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = played(monkeypatch, "h\n?\nq\n", PLACING, "o")
    legal = [cell.move for cell in api.view("morris", PLACING).moves]
    helps = re.findall(r"Enter a move \((\w+)\), \? for a hint", " ".join(out.split()))
    assert len(helps) == 2 and helps[0] in legal, out  # the opening line and h
    assert "or just" not in out and "if no other move goes there" not in out
    hint = out.split("Your move (o): ?")[1]
    # Each placement's value in the empty cell it fills (all lose in 2).
    assert cells_of(hint, "3") == ["X", "O", "L2"]
    assert cells_of(hint, "2") == ["L2", "X", "X"]
    assert cells_of(hint, "1") == ["O", "L2", "L2"]
    assert "o to move: loss in 2" in hint
    # No list of moves piece by piece, no word of pieces carrying values.
    assert PIECES_LEGEND not in out and "c3 L2" not in hint
    assert all(len(line) <= COLUMNS for line in out.splitlines())


def test_once_every_piece_is_down_moves_go_from_cell_to_cell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = played(monkeypatch, "?\nq\n", MOVING, "x")
    text = " ".join(out.split())
    example = re.search(r"Enter a move \((\w\d)(\w\d), or just (\w\d) if no other move", text)
    assert example is not None and example[2] == example[3], text
    assert example[1] + example[2] in [cell.move for cell in api.view("morris", MOVING).moves]
    hint = out.split("Your move (x): ?")[1]
    assert PIECES_LEGEND in hint
    assert "a3a2 W1" in hint and "c2c1 W1" in hint  # the pieces' moves, listed
    assert cells_of(hint, "3")[0] == "X W1"  # a3's best, on the piece


def test_hint_notes_and_the_legend_follow_what_the_moves_are() -> None:
    game = api.get_game("morris")
    mixed = {
        PLACING: ({(0, 2), (1, 0), (2, 1), (2, 2)}, False),
        MOVING: ({(0, 0), (1, 1), (1, 2)}, True),
    }
    for text, (cells, pieces) in mixed.items():
        position = game.parse(text)
        analysis = api.analyze(game, position)  # exact: every move valued
        notes = render.hint_notes(game, position, analysis)
        assert set(notes) == cells, text
        assert (render.piece_moves(game, position, analysis) is not None) == pieces
        legend = render.hint_legend(game, analysis)
        assert (legend is not None and PIECES_LEGEND in legend.plain) == pieces
