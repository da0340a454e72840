"""Drawing boards, move tables and game trees for the terminal (rich).

Boards are drawn from the game's own description (its shape and its column
and row labels in the move notation) and ``game.grid(position)``; hints go in
the cell each move fills (``game.cell``), or, in games whose pieces move
(``Description.moves_from``), on the piece each move takes (``game.origin``):
there several moves may reach one cell, a capture's cell is occupied, and a
piece is what the player picks. No game is special-cased here.
Colour is added by rich only when the output is a terminal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rich.style import Style
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from unbeatable import api
from unbeatable.api import Analysis, Description, MoveValue, TracedTree, TreeNode

RESULT_STYLE = {"win": "green", "draw": "yellow", "loss": "red", "unknown": "dim"}
#: Every cell is this wide, hint or not, so that the board never jumps.
CELL_WIDTH = 3
#: Where pieces move, a hint shares its cell with the piece: ``W L12``.
PIECE_CELL_WIDTH = 5
#: Boards with a side this long or longer are drawn compactly, one character a
#: cell: the boxed table would take 6 columns and 2 lines a cell, and 15x15
#: (Gomoku) would need 96 columns and 33 lines.
COMPACT_SIDE = 10
#: Equally good moves named after the best one; past this, the rest are counted.
TIES_NAMED = 6
#: What marks the engine's pick among moves whose value is not proven.
GUESS = "*"
#: A loss shared by more moves than this is left off a hint's board: two
#: hundred cells of ``L2`` say less than the one sentence that counts them.
CROWD = 16
#: How a stone in a four or an open three is drawn when hints are on; the
#: threats are named in words below the board too.
THREAT_STYLE = "underline"
#: A point black may not play (renju), on a hint's board.
FORBIDDEN = Text("\N{MULTIPLICATION SIGN}", style="bold red")

Cell = tuple[int, int]


def winning_cells(game: Any, position: Any) -> list[Cell]:
    """The (row, col) cells of the line that won, if any."""
    return list(api.status(game, position).line or ())


def is_compact(game: Any) -> bool:
    """Whether ``game``'s board is drawn one character a cell (big boards)."""
    description: Description = game.describe()
    return max(description.rows, description.columns) >= COMPACT_SIDE


def moves_pieces(game: Any) -> bool:
    """Whether ``game``'s moves take a piece from one cell to another."""
    description: Description = game.describe()
    return description.moves_from


def last_cell(game: Any, before: Any, after: Any) -> Cell | None:
    """The cell the move from ``before`` to ``after`` filled, read off the
    two boards as drawn: the one cell that changed, or, where a piece moved
    (its old cell emptied, a captured piece gone), the one changed cell that
    now holds a piece; None otherwise."""
    grid = game.grid(after).split("/")
    changed = [
        (r, c)
        for r, (old, new) in enumerate(zip(game.grid(before).split("/"), grid, strict=True))
        for c, (a, b) in enumerate(zip(old, new, strict=True))
        if a != b
    ]
    if len(changed) == 1:
        return changed[0]
    marks = {side.mark for side in game.describe().sides}
    filled = [(r, c) for r, c in changed if grid[r][c] in marks]
    return filled[0] if len(filled) == 1 else None


def board(
    game: Any,
    position: Any,
    notes: Mapping[Cell, Text] | None = None,
    highlight: Iterable[Cell] = (),
    last: Cell | None = None,
    emphasis: Iterable[Cell] = (),
) -> Table | Text:
    """The board with the game's coordinates: a boxed table, or on big boards
    (:func:`is_compact`) one character a cell with the column letters above
    and below and the row numbers on both sides. ``notes`` maps a (row, col)
    cell to text drawn in it while empty (hints), or, where pieces move, beside
    the piece on it (on a compact board, in its place, reversed); ``highlight``
    lists the cells of a winning line; ``last`` is the cell of the last move,
    drawn in brackets: ``[X]``; the stones on ``emphasis`` are underlined
    (the threats a hint marks: :func:`threat_cells`)."""
    description = game.describe()
    sides = {side.mark: side for side in description.sides}
    rows = game.grid(position).split("/")
    marked = set(highlight)
    stressed = set(emphasis)
    notes = notes or {}
    compact = is_compact(game)

    def content(r: int, c: int, ch: str) -> Text:
        side = sides.get(ch)
        note = notes.get((r, c))
        if side is None:
            return note or Text("·", style="dim")
        # The mark as written in positions, in its side's colour.
        style = f"bold {side.colour}" + (" reverse" if (r, c) in marked else "")
        style += f" {THREAT_STYLE}" if (r, c) in stressed else ""
        mark = Text(ch.upper(), style)
        if note is None or not description.moves_from:
            return mark
        if compact:  # one character: the hint's, reversed to say a piece is there
            return Text(note.plain, Style.parse(str(note.style or "")) + Style(reverse=True))
        return Text.assemble(mark, " ", note)

    if compact:
        return _compact(description, rows, content, last)
    table = Table(show_header=True, show_lines=True)
    if description.row_labels:
        table.add_column("", justify="right", style="dim")
    width = PIECE_CELL_WIDTH if description.moves_from else CELL_WIDTH
    for label in description.column_labels:
        table.add_column(label, justify="center", min_width=width, max_width=width)
    for r, row in enumerate(rows):
        cells: list[Text] = []
        for c, ch in enumerate(row):
            text = content(r, c, ch)
            if (r, c) == last:
                text = Text.assemble("[", text, "]")
            cells.append(text)
        if description.row_labels:
            table.add_row(description.row_labels[r], *cells)
        else:
            table.add_row(*cells)
    return table


def _compact(
    description: Any, rows: list[str], content: Callable[[int, int, str], Text], last: Cell | None
) -> Text:
    """A big board, one character a cell and a space between: 15x15 in 37
    columns and 17 lines, 20x20 in 47 and 22. The last move's neighbouring
    spaces become its brackets."""
    width = max(len(label) for label in (*description.row_labels, ""))
    letters = " " * (width + 2) + " ".join(description.column_labels)
    out = Text(letters, style="dim")
    for r, row in enumerate(rows):
        label = description.row_labels[r] if description.row_labels else ""
        out.append("\n")
        out.append(f"{label:>{width}} ", style="dim")
        last_col = last[1] if last is not None and last[0] == r else None
        for c, ch in enumerate(row):
            out.append("[" if c == last_col else "]" if last_col == c - 1 else " ", "bold")
            out.append_text(content(r, c, ch))
        out.append("]" if last_col == len(row) - 1 else " ", "bold")
        out.append(f" {label}", style="dim")
    out.append("\n" + letters, style="dim")
    return out


def hint_notes(
    game: Any, position: Any, analysis: Analysis, explanation: api.Explanation | None = None
) -> dict[Cell, Text]:
    """Each proven move's value, coloured by result, in the cell it fills: its
    short value (``W3``), or on a compact board its letter (``W``, ``D``,
    ``L``). Moves not proven in time are left blank, but for the engine's
    pick, marked :data:`GUESS`: a board of question marks says nothing; so
    are losses shared by more than :data:`CROWD` moves (:func:`crowded`),
    which the words count. With an ``explanation``, black's forbidden points
    (renju) are marked :data:`FORBIDDEN`.

    Where pieces move, a cell may be reached by several moves and a capture's
    cell holds a piece: each piece that can move carries the best value of its
    own moves instead (its unproven moves count only if one is the engine's
    pick), so the best move always shows, on the piece that makes it. A piece
    put down (a placement: no origin) shows in the cell it fills, as stones do."""
    compact = is_compact(game)
    best = analysis.best
    hidden = crowded(analysis)

    def note(m: MoveValue) -> Text:
        if m.result == "unknown":
            return Text(GUESS, style="bold")
        text = m.result[0].upper() if compact else api.value_letters(m.result, m.plies)
        return Text(text, style=RESULT_STYLE[m.result])

    def shown(m: MoveValue) -> bool:
        if best is not None and m.move == best.move:
            return True
        return m.result != "unknown" and (m.result, m.plies) not in hidden

    if not moves_pieces(game):
        notes = {game.cell(position, m.raw): note(m) for m in analysis.moves if shown(m)}
        for point in explanation.forbidden if explanation is not None else ():
            notes[(point.row, point.col)] = FORBIDDEN
        return notes
    placed: dict[Cell, Text] = {}
    tops: dict[Cell, MoveValue] = {}
    for m in analysis.moves:
        if not shown(m):
            continue
        piece = game.origin(position, m.raw)
        if piece is None:  # put down: no other move fills this empty cell
            placed[game.cell(position, m.raw)] = note(m)
            continue
        top = tops.get(piece)
        if top is None or m.rank > top.rank:
            tops[piece] = m
    return placed | {piece: note(m) for piece, m in tops.items()}


def crowded(analysis: Analysis) -> dict[tuple[str, int | None], int]:
    """The losses shared by more than :data:`CROWD` moves, with how many
    share each (``{("loss", 2): 197}``): a hint leaves them off the board."""
    counts = Counter((m.result, m.plies) for m in analysis.moves if m.result == "loss")
    return {value: n for value, n in counts.items() if n > CROWD}


def threat_cells(explanation: api.Explanation, description: Description) -> list[Cell]:
    """The cells of the stones in a four or an open three, of both sides."""
    cells = []
    for mark in explanation.threats:
        for stone in mark.stones:
            cells.append(_cell_of(description, stone))
    return cells


def _cell_of(description: Description, move: str) -> Cell:
    """(row, col) of a cell named as moves name it (``g8``)."""
    col = description.column_labels.index(move[0])
    row = description.row_labels.index(move[1:])
    return row, col


def threats_said(explanation: api.Explanation) -> Text | None:
    """The threats a hint marks, in words: ``Threats (underlined): x's four
    (g8-j11); o's open three (e8-g6).`` and renju's forbidden points:
    a cross, then ``forbidden for black: h8 (double three).`` None when there
    are none."""
    parts: list[Text] = []
    if explanation.threats:
        said = "; ".join(mark.words for mark in explanation.threats)
        parts.append(Text.assemble("Threats (", ("underlined", THREAT_STYLE), f"): {said}."))
    if explanation.forbidden:
        points = ", ".join(f"{p.move} ({p.reason})" for p in explanation.forbidden)
        words = explanation.forbidden[0].words.split(":")[0]
        parts.append(Text.assemble(FORBIDDEN, f" {words}: {points}."))
    return Text("\n").join(parts) if parts else None


def explanation_lines(
    explanation: api.Explanation, groups: int | None = None, summary: bool = True
) -> Text | None:
    """The explanation as the terminal says it: the summary (unless told
    not to), then the moves in lines of equal value (the first ``groups`` of
    them; all by default), then the rest counted. None when the game's moves
    have no words."""
    if explanation.summary is None and not explanation.groups:
        return None
    lines: list[Text] = []
    if explanation.summary is not None and summary:
        lines.append(Text(explanation.summary, style="bold"))
    shown = explanation.groups if groups is None else explanation.groups[:groups]
    for group in shown:
        lines.append(Text.assemble("- ", (group.words, RESULT_STYLE[group.result])))
    left = len(explanation.groups) - len(shown)
    if left:
        lines.append(Text(f"  ({left} more {'line' if left == 1 else 'lines'})", style="dim"))
    if explanation.more is not None and groups is None:
        lines.append(Text(f"  {explanation.more}", style="dim"))
    return Text("\n").join(lines)


def piece_moves(game: Any, position: Any, analysis: Analysis) -> Text | None:
    """Every move of a piece with its short value, piece by piece (left to
    right), best first, where pieces move: the board shows only each piece's
    best, so a piece's other moves are told here: ``a1a2 L4; b1b2 L6; c1c2
    L4``. None in other games, and while pieces are only put down (each
    placement's value is in its own cell)."""
    if not moves_pieces(game) or not analysis.moves:
        return None
    pieces: dict[Cell, list[MoveValue]] = {}
    for m in analysis.moves:
        piece = game.origin(position, m.raw)
        if piece is not None:
            pieces.setdefault(piece, []).append(m)
    if not pieces:
        return None
    text = Text("")
    for i, (_, moves) in enumerate(sorted(pieces.items(), key=lambda item: item[0][::-1])):
        text.append("; " if i else "")
        for j, m in enumerate(sorted(moves, key=lambda m: m.rank, reverse=True)):
            text.append(", " if j else "")
            text.append(m.move, "bold")
            text.append(" " + api.value_letters(m.result, m.plies), RESULT_STYLE[m.result])
    return text


def pieces_move_now(game: Any, analysis: Analysis) -> bool:
    """Whether any of ``analysis``'s moves takes a piece from a cell (where
    pieces move; a game that places, then moves, only puts them down at first)."""
    if not moves_pieces(game):
        return False
    _, position = api.resolve(game, analysis.position)
    return any(game.origin(position, m.raw) is not None for m in analysis.moves)


def hint_legend(game: Any, analysis: Analysis) -> Text | None:
    """What the hint's marks mean, when the board cannot say it in full: on a
    compact board, where pieces move (the values are on the pieces; not
    while they are only put down), or when values are not proven (None
    otherwise)."""
    compact = is_compact(game)
    pieces = pieces_move_now(game, analysis)
    guessed = analysis.best is not None and analysis.best.result == "unknown"
    unproven = any(m.result == "unknown" for m in analysis.moves)
    hidden = crowded(analysis)
    if not compact and not pieces and not guessed and not unproven and not hidden:
        return None
    parts: list[Text] = []
    if compact:
        parts.append(
            Text.assemble(
                ("W", RESULT_STYLE["win"]),
                " win, ",
                ("D", RESULT_STYLE["draw"]),
                " draw, ",
                ("L", RESULT_STYLE["loss"]),
                f" loss for {analysis.to_move} (proven)",
            )
        )
    if pieces:
        parts.append(Text("each piece shows the value of its best move"))
    if guessed:
        parts.append(Text.assemble((GUESS, "bold"), " best guess"))
    if unproven:
        parts.append(Text("· not valued in time"))
    for (_, plies), n in sorted(hidden.items(), key=lambda item: item[0][1] or 0):
        parts.append(Text(f"unmarked: {n} moves that {_lose(plies)}"))
    return Text("; ").join(parts)


def _lose(plies: int | None) -> str:
    """``lose in 2``: a loss in words, for after a plural subject."""
    return "lose" if plies is None else f"lose in {plies}"


def proven_moves(analysis: Analysis, shown: int = 6) -> Text | None:
    """The proven moves in words, best first, when a compact board shows them
    only by their letter: ``h8 win in 7, i9 win in 9; 12 moves lose (in 2 to
    4)``. At most ``shown`` wins and draws are named; losses are counted."""
    good = sorted(
        (m for m in analysis.moves if m.result in ("win", "draw")),
        key=lambda m: m.rank,
        reverse=True,
    )
    losses = [m.plies for m in analysis.moves if m.result == "loss" and m.plies is not None]
    if not good and not losses:
        return None
    text = Text("")
    for i, m in enumerate(good[:shown]):
        text.append(", " if i else "")
        text.append(m.move, "bold")
        text.append(f" {m.words}", RESULT_STYLE[m.result])
    if len(good) > shown:
        text.append(f" and {len(good) - shown} more")
    if losses:
        low, high = min(losses), max(losses)
        span = f"in {low}" if low == high else f"in {low} to {high}"
        if len(losses) == len(analysis.moves):
            moves = "every move loses"
        else:
            moves = f"{len(losses)} {'move loses' if len(losses) == 1 else 'moves lose'}"
        text.append("; " if good else "")
        text.append(f"{moves} ({span})", RESULT_STYLE["loss"])
    return text


#: Moves of a line shown in the table (Connect Four lines run to 42).
LINE_SHOWN = 8
#: Rows of a moves table: past this, the best moves and a count of the rest.
MOVES_SHOWN = 25


def moves_table(analysis: Analysis, limit: int = MOVES_SHOWN) -> Table:
    """Every legal move with its value and its line of best play; the best
    ones marked (every move as good as the best is). With more than ``limit``
    moves (big boards), the proven ones by value and the engine's pick, and a
    last row counting the others by value."""
    table = Table(title=None, show_edge=False)
    table.add_column("move")
    table.add_column("result")
    table.add_column("plies", justify="right")
    table.add_column("score", justify="right")
    table.add_column("best")
    table.add_column("line of best play")
    best = analysis.best
    best_move = None if best is None else best.move
    moves = list(analysis.moves)
    rest: list[MoveValue] = []
    groups: list[list[MoveValue]] = [[m] for m in moves]
    if len(moves) > limit:
        # The proven ones and the engine's pick, best first; moves of one
        # value answered the same way are one row ("a15, b15, c15 +9": each
        # loses to k12), not a screen of equal losses.
        ordered = sorted(moves, key=lambda m: _move_rank(m, best), reverse=True)
        groups = []
        for m in ordered:
            if m.result == "unknown" and m.move != best_move:
                rest.append(m)
            elif groups and m.result != "unknown" and _same_row(groups[-1][0], m):
                groups[-1].append(m)
            else:
                groups.append([m])
        rest = [m for group in groups[limit - 1 :] for m in group] + rest
        groups = groups[: limit - 1]
    for group in groups:
        m = group[0]
        top = best is not None and (m.result, m.plies) == (best.result, best.plies)
        line = " ".join(m.line[:LINE_SHOWN]) + (" …" if len(m.line) > LINE_SHOWN else "")
        named = m.move
        if len(group) > 1:
            named = ", ".join(g.move for g in group[:3])
            named += f" +{len(group) - 3}" if len(group) > 3 else ""
            line = "… " + " ".join(m.line[1 : LINE_SHOWN + 1])
        table.add_row(
            named,
            Text(m.result, style=RESULT_STYLE[m.result]),
            "-" if m.plies is None else str(m.plies),
            "-" if m.score is None else str(m.score),
            "yes" if top and m.result != "unknown" else "",
            Text(line, style="dim"),
        )
    if rest:
        counts = Counter(m.words for m in rest)
        words = ", ".join(f"{n} {value}" for value, n in counts.most_common())
        table.add_row(f"+{len(rest)}", Text(f"more moves: {words}", style="dim"), "", "", "", "")
    return table


def _same_row(first: MoveValue, m: MoveValue) -> bool:
    """Whether ``m`` shares ``first``'s row in a cut-short table: the same
    value and the same play after it."""
    return (m.result, m.plies, m.line[1:]) == (first.result, first.plies, first.line[1:])


def _move_rank(m: MoveValue, best: MoveValue | None) -> tuple[int, int, int]:
    """Sort key of a move in a cut-short table: by value, the engine's pick
    first among equals."""
    return (*m.rank, 1 if best is not None and m.move == best.move else 0)


def threat_words(game: Any, position: Any, m: MoveValue, mover: str) -> str | None:
    """How move ``m``'s proven line wins, in words, when the rules can name
    it (:meth:`MNKGame.threat_win`): ``x wins by continuous fours in 7: h8 i9
    …`` for a winning move, the opponent's win after it for a losing one.
    None otherwise (a line cut short by the time budget proves nothing)."""
    name = api.threat(game, position, m)
    if name is None or m.plies is None:
        return None
    if m.result == "win":
        winner, plies, line = mover, m.plies, m.line
    else:
        other = [p for p in game.players if p != mover]
        winner, plies, line = other[0], m.plies - 1, m.line[1:]
    shown = " ".join(line[:LINE_SHOWN]) + (" …" if len(line) > LINE_SHOWN else "")
    after = "" if m.result == "win" else f"after {m.move}, "
    return f"{after}{winner} wins by {name} in {plies}: {shown}"


def game_over(result: str, to_move: str) -> str:
    """A finished game's value in words, as ``analyze`` and ``solve`` say it:
    ``Game over: o has lost.`` (the side to move can only have lost, or drawn)."""
    over = "draw" if result == "draw" else f"{to_move} has lost"
    return f"Game over: {over}."


def counted(n: int, noun: str, nouns: str | None = None) -> str:
    """``1 ply``, ``2 plies``, ``1,000 nodes``: a count with its noun, singular
    for one (``nouns`` when the plural is not ``noun + "s"``)."""
    return f"{n:,} {noun if n == 1 else (nouns or noun + 's')}"


def unproven_because(timed: bool) -> str:
    """Why a value is not proven, in words that stay true: the time budget
    ran out only when one was set (``timed``); without one, the engine
    stopped short of a proof because it can search no further."""
    if timed:
        return "the time budget ran out"
    return "the engine found no proof (it cannot search further)"


def summary(
    analysis: Analysis, explanation: api.Explanation | None = None, *, timed: bool = True
) -> Text:
    """The position's value for the side to move and the best move, in words
    that stay true when the time budget ran out (``timed``: one was set; without
    one, an engine that stopped short of a proof says so): then the best move's proven
    value, or the engine's pick called a guess; on a second line, how a win
    by threats is won (:func:`threat_words`); on the last, where the rules
    name threats, the position in one sentence (``k12 is the only move:
    every other loses to x's four (g8-j11).``): ``explanation``'s, else
    :func:`api.explain`'s."""
    if not analysis.moves:
        return Text(game_over(analysis.result, analysis.to_move))
    text = Text(f"{analysis.to_move} to move: ")
    best = analysis.best
    game, position = api.resolve(analysis.game, analysis.position)
    if explanation is None:
        explanation = api.explain(game, position, analysis)
    # Where the rules name threats, one sentence says which moves are equal.
    said = explanation.summary is not None
    unproven = sum(1 for m in analysis.moves if m.result == "unknown")
    if analysis.result == "unknown" and not timed:
        text.append(f"no value proven: {unproven_because(timed)}", style=RESULT_STYLE["unknown"])
    elif analysis.result == "unknown":
        text.append("no value proven within the time budget", style=RESULT_STYLE["unknown"])
    elif analysis.exact is False and analysis.result in ("win", "draw"):
        # Only a lower bound: a move not valued in time may do better.
        value = "a win" if analysis.result == "win" else "at least a draw"
        text.append(value, style=RESULT_STYLE[analysis.result])
    else:
        value = (
            analysis.result
            if analysis.plies is None or analysis.result == "draw"
            else f"{analysis.result} in {analysis.plies}"
        )
        text.append(value, style=RESULT_STYLE[analysis.result])
        if analysis.score is not None:
            text.append(f" (score {analysis.score})")
    if best is not None and best.result == "unknown":
        text.append(f"; best guess {best.move}")
    elif best is not None:
        text.append(f"; best move {best.move}")
        if analysis.exact is False:
            text.append(f" ({best.words}, proven)")
        ties = [
            m.move
            for m in analysis.moves
            if m.move != best.move and (m.result, m.plies) == (best.result, best.plies)
        ]
        if said:
            ties = []
        if len(ties) > TIES_NAMED:  # a lost position on a big board: hundreds of them
            named = f"{', '.join(ties[: TIES_NAMED - 1])} and {len(ties) - TIES_NAMED + 1} others"
            text.append(f" ({named} are just as good)")
        elif ties:
            text.append(f" ({', '.join(ties)} {'is' if len(ties) == 1 else 'are'} just as good)")
    if unproven and best is not None and best.result != "unknown":
        moves = "move" if unproven == 1 else "moves"
        late = "not valued in time" if timed else "not proven"
        text.append(f"; {unproven} other {moves} {late}", style="dim")
    if best is not None:
        words = threat_words(game, position, best, analysis.to_move)
        if words is not None:
            text.append("\n" + words[0].upper() + words[1:] + ".")
    if explanation.summary is not None:
        text.append("\n" + explanation.summary, style="bold")
    return text


def number(value: float) -> str:
    """A score without a needless ``.0``."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def traced_tree(traced: TracedTree) -> Tree:
    """A tree as :func:`unbeatable.api.tree` or :func:`~unbeatable.api.textbook_tree`
    traced it: each move with its value for the player making it (on a
    textbook tree, each node with its minimax score: ``MAX 12``, ``leaf 3``),
    the visit order (and alpha and beta with alpha-beta), the best line
    starred, pruned nodes faded."""
    alphabeta = traced.algorithm == "alphabeta"
    estimated = traced.cutoff == "heuristic"

    def label(node: TreeNode, root: bool) -> Text:
        pruned = node.pruned
        if node.result is None:  # a textbook tree: scores, no game
            kind = "leaf" if not node.children else node.to_move
            text = Text(f"{kind} {number(node.score)}", style="dim" if pruned else "bold")
        else:
            head = f"{node.to_move} to move: " if root else f"{node.move}: "
            text = Text(head, style="dim" if pruned else "bold")
            if estimated and node.result == "unknown":
                # An estimate at the cut-off (or backed up from one), for MAX.
                words = f"estimate {node.score:+g} for {traced.root.to_move}"
            else:
                words = api.value_words(node.result, node.plies)
            text.append(words, style="dim" if pruned else RESULT_STYLE[node.result])
        if node.best:
            text.append(" *best*" if root else " * best", style="bold green")
        if pruned:
            text.append("  ✂ pruned", style="yellow")
        else:
            detail = f"  #{node.order}"
            if alphabeta:
                detail += f" alpha={_bound(node.alpha)} beta={_bound(node.beta)}"
            text.append(detail, style="dim")
        return text

    def add(branch: Tree, node: TreeNode) -> None:
        for child in node.children:
            add(branch.add(label(child, False)), child)

    top = Tree(label(traced.root, True))
    add(top, traced.root)
    return top


def _bound(value: float | None) -> str:
    return "-" if value is None else number(value)


def tree_summary(traced: TracedTree) -> str:
    """One line: how much of the tree the algorithm looked at."""
    name = "alpha-beta" if traced.algorithm == "alphabeta" else "minimax"
    where = "" if traced.depth is None else f" to depth {traced.depth}"
    line = f"{counted(traced.nodes, 'node')}{where}; {name} entered {traced.visited:,}"
    if traced.depth is None and traced.algorithm == "alphabeta":
        cutoffs = traced.cutoffs
        unseen = sum(1 for n in traced.root.walk() if n.pruned and not n.children)
        line += (
            f", with {cutoffs} {'cut-off' if cutoffs == 1 else 'cut-offs'}, "
            f"never looking at {unseen} {'leaf' if unseen == 1 else 'leaves'}"
        )
        return line
    line += " of them"
    if traced.evaluation is not None:
        line += f"\nestimates: {traced.evaluation}"
    return line
