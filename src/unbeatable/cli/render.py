"""Drawing boards, move tables and game trees for the terminal (rich).

Boards are drawn from the game's own description (its shape and its column
and row labels in the move notation) and ``game.grid(position)``; hints go in
the cell each move fills (``game.cell``). No game is special-cased here.
Colour is added by rich only when the output is a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from unbeatable import api
from unbeatable.search.analysis import Analysis, MoveValue

RESULT_STYLE = {"win": "green", "draw": "yellow", "loss": "red", "unknown": "dim"}
#: Every cell is this wide, hint or not, so that the board never jumps.
CELL_WIDTH = 3

Cell = tuple[int, int]


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


def winning_cells(game: Any, position: Any) -> list[Cell]:
    """The (row, col) cells of the line that won, if any."""
    line = api.status(game, position)["line"] or []
    return [(row, col) for row, col in line]


def board(
    game: Any,
    position: Any,
    notes: Mapping[Cell, Text] | None = None,
    highlight: Iterable[Cell] = (),
) -> Table:
    """The board as a rich table with the game's coordinates. ``notes`` maps a
    (row, col) cell to text drawn in it while empty (hints); ``highlight``
    lists the cells of a winning line."""
    description = game.describe()
    sides = {side.mark: side for side in description.sides}
    rows = game.grid(position).split("/")
    marked = set(highlight)
    notes = notes or {}
    table = Table(show_header=True, show_lines=True)
    if description.row_labels:
        table.add_column("", justify="right", style="dim")
    for label in description.column_labels:
        table.add_column(label, justify="center", min_width=CELL_WIDTH, max_width=CELL_WIDTH)
    for r, row in enumerate(rows):
        cells: list[Text] = []
        for c, ch in enumerate(row):
            side = sides.get(ch)
            if side is not None:  # the mark as written in positions, in its side's colour
                style = f"bold {side.colour}" + (" reverse" if (r, c) in marked else "")
                cells.append(Text(ch.upper(), style))
            else:
                cells.append(notes.get((r, c)) or Text("·", style="dim"))
        if description.row_labels:
            table.add_row(description.row_labels[r], *cells)
        else:
            table.add_row(*cells)
    return table


def hint_notes(game: Any, position: Any, analysis: Analysis) -> dict[Cell, Text]:
    """Each move's short value, coloured by result, in the cell it fills."""
    return {
        game.cell(position, m.raw): Text(short_value(m), style=RESULT_STYLE[m.result])
        for m in analysis.moves
    }


#: Moves of a line shown in the table (Connect Four lines run to 42).
LINE_SHOWN = 8


def moves_table(analysis: Analysis) -> Table:
    """Every legal move with its value and its line of best play; the best
    ones marked (every move as good as the best is)."""
    table = Table(title=None, show_edge=False)
    table.add_column("move")
    table.add_column("result")
    table.add_column("plies", justify="right")
    table.add_column("score", justify="right")
    table.add_column("best")
    table.add_column("line of best play")
    best = analysis.best
    for m in analysis.moves:
        top = best is not None and (m.result, m.plies) == (best.result, best.plies)
        line = " ".join(m.line[:LINE_SHOWN]) + (" …" if len(m.line) > LINE_SHOWN else "")
        table.add_row(
            m.move,
            Text(m.result, style=RESULT_STYLE[m.result]),
            "-" if m.plies is None else str(m.plies),
            "-" if m.score is None else str(m.score),
            "yes" if top and m.result != "unknown" else "",
            Text(line, style="dim"),
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
    best = analysis.best
    if best is not None:
        text.append(f"; best move {best.move}")
        ties = [
            m.move
            for m in analysis.moves
            if m.move != best.move and (m.result, m.plies) == (best.result, best.plies)
        ]
        if ties and best.result != "unknown":
            text.append(f" ({', '.join(ties)} {'is' if len(ties) == 1 else 'are'} just as good)")
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


def _value_words(node: Mapping[str, Any]) -> str:
    result, plies = node.get("result"), node.get("plies")
    if result in ("win", "loss") and plies is not None:
        return f"{result} in {plies}"
    return str(result)


def traced_tree(data: Mapping[str, Any]) -> Tree:
    """The tree below a position as :func:`unbeatable.api.tree` traced it:
    each move with its value for the player making it, the visit order (and
    alpha and beta with alpha-beta), the best line starred, pruned nodes faded."""
    alphabeta = data.get("algorithm") == "alphabeta"

    def label(node: Mapping[str, Any], root: bool) -> Text:
        pruned = node["pruned"]
        head = f"{node['to_move']} to move: " if root else f"{node['move']}: "
        text = Text(head, style="dim" if pruned else "bold")
        text.append(_value_words(node), style="dim" if pruned else RESULT_STYLE[node["result"]])
        if node["best"]:
            text.append(" *best*" if root else " * best", style="bold green")
        if pruned:
            text.append("  ✂ pruned", style="yellow")
        else:
            detail = f"  #{node['order']}"
            if alphabeta:
                detail += f" alpha={node['alpha']} beta={node['beta']}"
            text.append(detail, style="dim")
        return text

    def add(branch: Tree, node: Mapping[str, Any]) -> None:
        for child in node["children"]:
            add(branch.add(label(child, False)), child)

    top = Tree(label(data["root"], True))
    add(top, data["root"])
    return top


def tree_summary(data: Mapping[str, Any]) -> str:
    """One line: how much of the tree the algorithm looked at."""
    name = "alpha-beta" if data.get("algorithm") == "alphabeta" else "minimax"
    return (
        f"{data['nodes']:,} nodes to depth {data['depth']}; {name} entered "
        f"{data['visited']:,} of them"
    )
