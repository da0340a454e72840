"""Drawing boards, move tables and game trees for the terminal (rich).

Board games are drawn from ``game.grid(position)`` (rows top to bottom
separated by ``/``, one character per cell), with coordinates around the board in the game's move
notation. Colour is added by rich only when the output is a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from unbeatable.search.analysis import Analysis, MoveValue

MARK_STYLE = {"x": "bold cyan", "o": "bold magenta"}
RESULT_STYLE = {"win": "green", "draw": "yellow", "loss": "red", "unknown": "dim"}


def short_value(m: MoveValue) -> str:
    """A move's value in a few characters: ``W1`` (win in 1), ``D``, ``L4``, ``?``."""
    if m.result == "draw":
        return "D"
    if m.result == "unknown" or m.plies is None:
        return "?"
    return f"{m.result[0].upper()}{m.plies}"


def describe(m: MoveValue) -> str:
    """A move's value in words: ``win in 1``, ``draw``, ``loss in 4``."""
    if m.result in ("draw", "unknown") or m.plies is None:
        return m.result
    return f"{m.result} in {m.plies}"


def drops_in_columns(game: Any) -> bool:
    """Whether moves name only a column (Connect Four) rather than a cell."""
    return "row" not in game.move_fields(0)


def board(
    game: Any,
    position: Any,
    notes: Mapping[int, Text] | None = None,
    highlight: Iterable[int] = (),
) -> Table:
    """The board as a rich table with coordinates. ``notes`` maps a flat cell
    index (row-major from the top-left) to text drawn in that empty cell
    (hints); ``highlight`` lists the cells of a winning line."""
    rows = game.grid(position).split("/")
    n_rows, n_cols = len(rows), len(rows[0])
    column_drop = drops_in_columns(game)
    marked = set(highlight)
    notes = notes or {}
    table = Table(show_header=True, show_lines=True)
    table.add_column("", justify="right", style="dim")
    for c in range(n_cols):
        table.add_column(str(c + 1) if column_drop else chr(ord("a") + c), justify="center")
    for r, row in enumerate(rows):
        cells: list[Text] = []
        for c, ch in enumerate(row):
            index = r * n_cols + c
            if ch in MARK_STYLE:
                style = MARK_STYLE[ch] + (" reverse green" if index in marked else "")
                cells.append(Text(ch.upper(), style=style))
            else:
                cells.append(notes.get(index) or Text("·", style="dim"))
        table.add_row("" if column_drop else str(n_rows - r), *cells)
    return table


def move_cell(game: Any, position: Any, move: MoveValue) -> int:
    """The flat index of the cell a move fills (for a column, where the disc lands)."""
    rows = game.grid(position).split("/")
    col = move.fields["col"]
    row = move.fields.get("row")
    if row is None:
        row = max(r for r in range(len(rows)) if rows[r][col] == ".")
    return int(row) * len(rows[0]) + int(col)


def hint_notes(game: Any, position: Any, analysis: Analysis) -> dict[int, Text]:
    """Each move's short value, coloured by result, keyed by the cell it fills."""
    return {
        move_cell(game, position, m): Text(short_value(m), style=RESULT_STYLE[m.result])
        for m in analysis.moves
    }


def moves_table(analysis: Analysis) -> Table:
    """Every legal move with its value; the best one marked."""
    table = Table(title=None, show_edge=False)
    table.add_column("move")
    table.add_column("result")
    table.add_column("plies", justify="right")
    table.add_column("score", justify="right")
    table.add_column("")
    best = analysis.best.move if analysis.best else None
    for m in analysis.moves:
        table.add_row(
            m.move,
            Text(m.result, style=RESULT_STYLE[m.result]),
            "-" if m.plies is None else str(m.plies),
            "-" if m.score is None else str(m.score),
            "best" if m.move == best else "",
        )
    return table


def summary(analysis: Analysis) -> Text:
    """One line: the position's value for the side to move and the best move."""
    if not analysis.moves:
        over = "draw" if analysis.result == "draw" else f"{analysis.to_move} has lost"
        return Text(f"Game over: {over}.")
    value = (
        analysis.result
        if analysis.plies is None or analysis.result == "draw"
        else f"{analysis.result} in {analysis.plies}"
    )
    text = Text(f"{analysis.to_move} to move: ")
    text.append(value, style=RESULT_STYLE[analysis.result])
    if analysis.score is not None:
        text.append(f" (score {analysis.score})")
    if analysis.best is not None:
        text.append(f"; best move {analysis.best.move}")
    if analysis.exact is False:
        text.append(" (not proven: the time budget ran out)", style="dim")
    return text


def number(value: float) -> str:
    """A score without a needless ``.0``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def game_tree(
    game: Any,
    values: Mapping[tuple[int, ...], float],
    visited: Callable[[tuple[int, ...]], bool] | None = None,
) -> Tree:
    """The explicit game tree with every node's minimax value; with ``visited``,
    nodes alpha-beta never reached are marked as pruned."""

    def label(path: tuple[int, ...]) -> Text:
        pruned = visited is not None and not visited(path)
        value = number(values[path])
        if game.is_terminal(path):
            text = Text(f"leaf {value}", style="dim" if pruned else "")
        else:
            text = Text(f"{game.to_move(path)} {value}", style="dim" if pruned else "bold")
        if pruned:
            text.append("  ✂ pruned", style="yellow")
        return text

    def add(branch: Tree, path: tuple[int, ...]) -> None:
        for move in game.moves(path):
            child = (*path, move)
            add(branch.add(label(child)), child)

    root = Tree(label(()))
    add(root, ())
    return root
