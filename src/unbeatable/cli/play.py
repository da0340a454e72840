"""The terminal game: you against the AI, with hints, undo and explanations.

Moves are read line by line, from the keyboard or, when standard input is not
a terminal, from a pipe, so a whole game can be scripted:
``printf 'b2\\na1\\n' | unbeatable play``. After each game the player may play
again; a tally of wins, draws and losses is kept for the session.

Where pieces move (``Description.moves_from``: Hexapawn), a move names the
cell its piece leaves and the cell it reaches (``b1b2``); the cell alone is
short for the one move that reaches it, and when several do, or the cell is a
piece's, the player is told the moves to choose from rather than given one.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from unbeatable import api
from unbeatable.api import Analysis, Description, GameError, Level, MoveValue
from unbeatable.cli import render

T = TypeVar("T")

#: Rows of the moves table shown with --explain (big boards have hundreds of moves).
EXPLAIN_ROWS = 12
#: Lines of equal value a hint says (the best first), where the rules name threats.
HINT_LINES = 3
HELP = "a move ({example}), ? for a hint, u to undo your last move, h for help, q to quit"
#: The example where pieces move: the target cell alone is a move too.
PIECE_EXAMPLE = "{move}, or just {cell} if no other move goes there"
QUIT = frozenset({"q", "quit", "exit"})
#: Answers to "Play again? [y/N]": the capital N says Enter alone means no;
#: anything else is asked again rather than taken as a no.
YES = frozenset({"y", "yes"})
NO = frozenset({"", "n", "no"}) | QUIT


class Match:
    """Games between a human and the AI, one after another, with a tally."""

    def __init__(
        self,
        game: Any,
        human: str,
        level: Level | str,
        seed: int | None = None,
        explain: bool = False,
        console: Console | None = None,
    ) -> None:
        self.game = game
        self.description = game.describe()
        self.human = human
        self.ai = game.players[1] if human == game.players[0] else game.players[0]
        self.level = Level(level)
        self.rng = random.Random(seed)
        self.explain = explain
        self.console = console or Console(highlight=False)
        self.history: list[Any] = [game.initial()]
        self.tally: Counter[str] = Counter()

    @property
    def position(self) -> Any:
        return self.history[-1]

    def side(self, mark: str) -> str:
        """A player as the game calls it: ``X``, or ``Red (x)``."""
        for side in self.description.sides:
            if side.mark == mark:
                return side.name if side.name.lower() == mark else f"{side.name} ({mark})"
        return mark  # pragma: no cover - every mark has a side

    def example(self) -> str:
        """A move that is legal right now, for the prompts' examples; where
        pieces move, with its cell alone when no other move reaches it (a
        piece put down is named by its cell already: ``b2``)."""
        game = self.game
        legal: list[str] = [game.format_move(m) for m in game.ordered_moves(self.position)]
        if not legal:
            return "-"
        if self.description.moves_from:
            cells = api.view(game, self.position).moves
            for move in legal:
                reached = next(c for c in cells if c.move == move)
                if reached.origin is None:  # a placement
                    return move
                target = (reached.row, reached.col)
                if sum((c.row, c.col) == target for c in cells) == 1:
                    return PIECE_EXAMPLE.format(move=move, cell=self.cell_name(*target))
        return legal[0]

    def cell_name(self, row: int, col: int) -> str:
        """A cell as moves name it: ``b2``."""
        labels: Description = self.description
        return labels.column_labels[col] + (labels.row_labels[row] if labels.row_labels else "")

    def help_text(self) -> str:
        return "Enter " + HELP.format(example=self.example()) + "."

    def last(self) -> tuple[int, int] | None:
        """The cell of the last move played, if any (the AI's, on your turn)."""
        if len(self.history) < 2:
            return None
        return render.last_cell(self.game, self.history[-2], self.history[-1])

    def draw(
        self,
        notes: dict[tuple[int, int], Text] | None = None,
        emphasis: Sequence[tuple[int, int]] = (),
    ) -> None:
        highlight = render.winning_cells(self.game, self.position)
        last = self.last()
        board = render.board(self.game, self.position, notes, highlight, last, emphasis)
        self.console.print(board)

    def read(self, prompt: str) -> str | None:
        """One line of input, or None at the end of input. The prompt is plain
        text: ``[y/N]`` is not markup."""
        if sys.stdin.isatty():
            try:
                return self.console.input(Text(prompt))
            except EOFError:  # Ctrl-D: end the prompt's line
                self.console.print()
                return None
        self.console.print(Text(prompt), end="")
        line = sys.stdin.readline()
        if not line:
            self.console.print()
            return None
        self.console.print(line.rstrip("\n"))
        return line

    def run(self) -> None:
        """Play games until the player quits or input ends."""
        first = self.game.players[0]
        self.console.print(
            f"You play {self.side(self.human)}, the AI plays {self.side(self.ai)} "
            f"({self.level.value}). {self.side(first)} moves first; "
            f"{self.description.goal} wins."
        )
        self.console.print(Text(self.help_text(), style="dim"))
        while self.play_one() and self.again():
            self.history = [self.game.initial()]

    def play_one(self) -> bool:
        """One game; False if the player quit or input ended during it."""
        game = self.game
        self.draw()
        while not game.is_terminal(self.position):
            if game.to_move(self.position) == self.ai:
                self.ai_move()
                continue
            line = self.read(f"Your move ({self.human}): ")
            if line is None:
                self.console.print("Input ended: game abandoned.")
                return False
            if not self.human_turn(line.strip()):
                self.console.print("You quit.")
                return False
        self.console.print(self.result_line())
        return True

    def again(self) -> bool:
        """Offer another game (same sides), the tally so far first: y or yes
        plays on; n, no, Enter alone, q or the end of input stops; anything
        else is asked again (a move typed too late is not a no)."""
        wins, draws, losses = self.tally["win"], self.tally["draw"], self.tally["loss"]
        self.console.print(f"Your record: {wins} won, {draws} drawn, {losses} lost.")
        while True:
            answer = self.read("Play again? [y/N]: ")
            if answer is None:  # end of input (Ctrl-D): no more games
                return False
            word = answer.strip().lower()
            if word in YES:
                return True
            if word in NO:
                return False
            self.console.print(Text("Please answer y (yes) or n (no).", style="yellow"))

    def human_turn(self, command: str) -> bool:
        """Handle one line; False when the player quits."""
        game = self.game
        low = command.lower()
        if low in QUIT:
            return False
        if low in ("?", "hint"):
            analysis = self.think(
                lambda: api.analyze(game, self.position, time_limit=api.GAME_DEFAULT)
            )
            explained = api.explain(game, self.position, analysis)
            marked = render.threat_cells(explained, self.description)
            self.draw(render.hint_notes(game, self.position, analysis, explained), marked)
            self.console.print(render.summary(analysis, explained))
            by_piece = render.piece_moves(game, self.position, analysis)
            if by_piece is not None:
                self.console.print(by_piece)
            lines = render.explanation_lines(explained, HINT_LINES, summary=False)
            if lines is not None:  # the moves in the game's words, equal values in one line
                self.console.print(lines)
            elif render.is_compact(game):  # the board shows proven values by their letter only
                proven = render.proven_moves(analysis)
                if proven is not None:
                    self.console.print(proven)
            threats = render.threats_said(explained)
            if threats is not None:
                self.console.print(threats)
            legend = render.hint_legend(game, analysis)
            if legend is not None:
                self.console.print(legend, style="dim")
            return True
        if low in ("h", "help"):
            self.console.print(self.help_text())
            return True
        if low in ("u", "undo"):
            self.undo()
            return True
        if not low:
            return True
        try:
            self.history.append(api.play_move(game, self.position, command))
        except GameError as exc:
            move = self.by_cell(low)
            if move is None:
                self.console.print(Text(f"{exc}. {self.help_text()}", "red"))
                return True
            if not move:  # the player was told which moves to choose from
                return True
            self.console.print(Text(f"{low}: you play {move}.", "dim"))
            self.history.append(api.play_move(game, self.position, move))
        if game.is_terminal(self.position):
            self.draw()  # otherwise the AI's answer shows the board with both moves
        return True

    def by_cell(self, text: str) -> str | None:
        """Where pieces move, a cell typed alone (``b2``, in lower case): the
        one move that reaches it; or "" after telling the player the moves to
        choose from when several reach it or it holds a piece that moves (a
        cell never stands for one of several moves); None if ``text`` names no
        cell or pieces do not move in this game."""
        if not self.description.moves_from:
            return None
        cells = api.view(self.game, self.position).moves
        reaching = [c.move for c in cells if self.cell_name(c.row, c.col).lower() == text]
        leaving = [c.move for c in cells if c.origin and self.cell_name(*c.origin).lower() == text]
        if len(reaching) == 1 and not leaving:
            return reaching[0]
        if not reaching and not leaving:
            if not self._is_cell(text):
                return None
            told = f"No move of yours reaches or leaves {text}"
            self.console.print(Text(f"{told}. {self.help_text()}", "yellow"))
            return ""
        parts = []
        if reaching:
            parts.append(f"{text} is reached by {_either(reaching, 'and')}")
        if leaving:
            piece = "its piece" if reaching else f"The piece on {text}"
            parts.append(f"{piece} can play {_either(leaving, 'or')}")
        # A cell name opens the sentence as moves write it: "b2 is reached by".
        self.console.print(Text(f"{'; '.join(parts)}: type the whole move.", "yellow"))
        return ""

    def _is_cell(self, text: str) -> bool:
        description = self.description
        return any(
            self.cell_name(row, col).lower() == text
            for row in range(description.rows)
            for col in range(description.columns)
        )

    def undo(self) -> None:
        """Take back the human's last move and the AI's answer to it."""
        game = self.game
        index = len(self.history) - 2
        while index >= 0 and game.to_move(self.history[index]) != self.human:
            index -= 1
        if index < 0:
            self.console.print(Text("Nothing to undo yet.", style="yellow"))
            return
        del self.history[index + 1 :]
        self.console.print("Took back your last move.")
        self.draw()

    def ai_move(self) -> None:
        game, before = self.game, self.position
        turn = self.think(
            lambda: api.ai_turn(game, before, self.level, rng=self.rng, explain=self.explain)
        )
        assert turn is not None  # no stop switch: the turn is always searched
        self.history.append(turn.after)
        move = turn.move
        note = (
            # (True of every unproven move: the engine's centre on an empty
            # board is played at once, its budget never ran out.)
            " (a heuristic pick: no proof found in its time)"
            if turn.proven is False
            else ""
        )
        self.console.print(f"The AI ({self.ai}) plays {move.move}.{note}")
        if turn.analysis is not None:
            explained = api.explain(game, before, turn.analysis, chosen=move.move)
            lines = render.explanation_lines(explained)
            # Where the rules name threats, the moves in the game's words,
            # equal values in one line; elsewhere every move's row.
            table = render.moves_table(turn.analysis, limit=EXPLAIN_ROWS)
            self.console.print(table if lines is None else lines)
            why = explain_choice(move, turn.analysis, self.level, game, before, explained)
            self.console.print(why)
        self.draw()

    def think(self, work: Callable[[], T]) -> T:
        """``work()`` with a spinner and the time it has taken, on a terminal.

        Keys typed meanwhile would otherwise be read as the next move once
        the AI has answered: they are dropped, and the player told so.
        """
        if not self.console.is_terminal:
            return work()
        with Progress(
            SpinnerColumn(),
            TextColumn(f"The AI ({self.ai}) is thinking"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        ):
            result = work()
        if _discard_typeahead():
            self.console.print(Text("(Ignored what you typed while the AI was thinking.)", "dim"))
        return result

    def result_line(self) -> Text:
        """Who won and where the line is; counted in the tally."""
        game = self.game
        winner = game.winner(self.position)
        if winner is None:
            self.tally["draw"] += 1
            why = api.status(game, self.position).reason or "the game is over with no winner"
            return Text(f"Draw: {why}.", style="bold yellow")
        cells = render.winning_cells(game, self.position)
        # The goal stands alone ("reaching the far row" reads as well as
        # "three in a row"); the cells only when the win has a line to show.
        where = " on " + line_name(self.description, cells) if cells else ""
        reason = api.status(game, self.position).reason or self.description.goal
        said = f"{self.side(winner)}: {reason}{where}."
        if winner == self.human:
            self.tally["win"] += 1
            return Text(f"{said} You beat the AI!", "bold green")
        self.tally["loss"] += 1
        return Text(f"{said} The AI wins.", style="bold red")


def _either(moves: Sequence[str], word: str) -> str:
    """``a1b2 and c1b2``, ``a1b2, b1b2 or c1b2``."""
    return moves[0] if len(moves) == 1 else f"{', '.join(moves[:-1])} {word} {moves[-1]}"


def line_name(description: Description, cells: Sequence[tuple[int, int]]) -> str:
    """Where a winning line is, in the game's coordinates: ``a1, b2, c3``, or,
    where rows have no names (Connect Four), its columns and its rows counted
    from the bottom: ``column 4, rows 1-4 from the bottom``."""
    columns, rows = description.column_labels, description.row_labels
    if rows:
        return ", ".join(f"{columns[col]}{rows[row]}" for row, col in cells)
    cols = sorted({col for _, col in cells})
    heights = sorted({description.rows - row for row, _ in cells})
    where_cols = (
        f"column {columns[cols[0]]}"
        if len(cols) == 1
        else f"columns {columns[cols[0]]}-{columns[cols[-1]]}"
    )
    where_rows = f"row {heights[0]}" if len(heights) == 1 else f"rows {heights[0]}-{heights[-1]}"
    return f"{where_cols}, {where_rows} from the bottom"


def explain_choice(
    move: MoveValue,
    analysis: Analysis,
    level: Level | str = Level.impossible,
    game: Any = None,
    position: Any = None,
    explanation: api.Explanation | None = None,
) -> str:
    """Why the AI played ``move``: what it does in the game's words (from
    ``explanation``, where the rules name threats: ``k12 blocks x's four
    (g8-j11).``), its value, how it compares with the best, and, with the
    ``game`` and ``position``, how a win by threats is won. An unproven
    value is called so, never compared as if it were known."""
    best = analysis.best
    played = next((m for m in analysis.moves if m.move == move.move), move)
    does = None if explanation is None else explanation.does(move.move)
    text = f"{move.move} {does}. " if does else ""
    if played.result == "unknown":
        text += f"It could not prove the value of {move.move} within the time budget"
        text += "; it is the engine's best guess." if best and best.move == move.move else "."
    else:
        text += f"It valued {move.move} as {played.words}."
        if game is not None:
            words = render.threat_words(game, position, played, analysis.to_move)
            if words is not None:
                text += f" {words[0].upper()}{words[1:]}."
    equal = [
        m.move
        for m in analysis.moves
        if m.move != move.move
        and played.result in ("win", "draw")
        and (m.result, m.plies) == (played.result, played.plies)
    ]
    if equal and (best is None or (best.result, best.plies) == (played.result, played.plies)):
        named = ", ".join(equal[:5]) + (f" and {len(equal) - 5} more" if len(equal) > 5 else "")
        others = "move was" if len(equal) == 1 else "moves were"
        return text + f" {len(equal)} other {others} as good ({named}): it chose at random."
    if best is None or move.move == best.move:
        return text
    level = f"the {Level(level).value} level"
    if best.result == "unknown":
        return text + f" The engine's best guess was {best.move}: {level} plays below its best."
    if (played.result, played.plies) == (best.result, best.plies):
        return text + f" {best.move} is just as good."
    if played.result == "unknown":
        return text + f" {best.move} is proven: {best.words}."
    return text + f" {best.move} was better ({best.words}): {level} makes mistakes on purpose."


def _discard_typeahead() -> bool:
    """Drop keys waiting on a terminal's standard input; whether there were any."""
    if not sys.stdin.isatty():
        return False
    try:
        import select
        import termios
    except ImportError:  # pragma: no cover - not a POSIX terminal
        return False
    ready, _, _ = select.select([sys.stdin], [], [], 0)
    if not ready:
        return False
    termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    return True
