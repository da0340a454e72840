"""The terminal game: you against the AI, with hints, undo and explanations.

Moves are read line by line, from the keyboard or, when standard input is not
a terminal, from a pipe, so a whole game can be scripted:
``printf 'b2\\na1\\n' | unbeatable play``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from unbeatable import api
from unbeatable.cli import render
from unbeatable.games.base import GameError
from unbeatable.search.analysis import Analysis
from unbeatable.search.levels import Level, choose_from

T = TypeVar("T")

HELP = "a move ({example}), ? for a hint, u to undo your last move, q to quit"


class Match:
    """One game between a human and the AI."""

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
        self.human = human
        self.ai = game.players[1] if human == game.players[0] else game.players[0]
        self.level = Level(level)
        self.rng = random.Random(seed)
        self.explain = explain
        self.console = console or Console(highlight=False)
        start = game.initial()
        self.history: list[Any] = [start]
        legal = game.moves(start)
        self.example = game.format_move(legal[len(legal) // 2])

    @property
    def position(self) -> Any:
        return self.history[-1]

    def draw(self, notes: dict[int, Text] | None = None) -> None:
        line = self.game.winning_line(self.position)
        self.console.print(render.board(self.game, self.position, notes, line or ()))

    def read(self, prompt: str) -> str | None:
        """One line of input, or None at the end of input."""
        if sys.stdin.isatty():
            try:
                return self.console.input(prompt)
            except EOFError:
                return None
        self.console.print(prompt, end="")
        line = sys.stdin.readline()
        if not line:
            self.console.print()
            return None
        self.console.print(line.rstrip("\n"))
        return line

    def run(self) -> None:
        game = self.game
        self.console.print(
            f"You play {self.human.upper()}, the AI plays {self.ai.upper()} "
            f"({self.level.value}). {game.players[0].upper()} moves first."
        )
        self.console.print(Text("Enter " + HELP.format(example=self.example) + ".", style="dim"))
        self.draw()
        while not game.is_terminal(self.position):
            if game.to_move(self.position) == self.ai:
                self.ai_move()
                continue
            line = self.read(f"Your move ({self.human}): ")
            if line is None:
                self.console.print("Input ended: game abandoned.")
                return
            if not self.human_turn(line.strip()):
                self.console.print("You quit.")
                return
        self.console.print(self.result_line())

    def human_turn(self, command: str) -> bool:
        """Handle one line; False when the player quits."""
        game = self.game
        low = command.lower()
        if low in ("q", "quit", "exit"):
            return False
        if low in ("?", "h", "hint"):
            analysis = api.analyze(game, self.position, time_limit=api.default_time_limit(game))
            self.draw(render.hint_notes(game, self.position, analysis))
            self.console.print(render.summary(analysis))
            return True
        if low in ("u", "undo"):
            self.undo()
            return True
        if not low:
            return True
        try:
            self.history.append(api.play_move(game, self.position, command))
        except GameError as exc:
            self.console.print(Text(f"{exc}. Enter {HELP.format(example=self.example)}.", "red"))
            return True
        if game.is_terminal(self.position):
            self.draw()  # otherwise the AI's answer shows the board with both moves
        return True

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

    def ai_move(self, show: bool = True) -> None:
        game = self.game
        analysis: Analysis | None = None
        if self.explain:
            analysis = self.think(
                lambda: api.analyze(game, self.position, time_limit=api.default_time_limit(game))
            )
            move = choose_from(analysis, self.level, self.rng)
        else:
            move = self.think(lambda: api.choose_move(game, self.position, self.level, self.rng))
        assert move is not None
        self.history.append(api.play_move(game, self.position, move.move))
        self.console.print(f"The AI ({self.ai}) plays {move.move}.")
        if analysis is not None:
            self.console.print(render.moves_table(analysis))
            note = "" if move is analysis.best else " (not the best: this level makes mistakes)"
            self.console.print(f"It valued {move.move} as {render.describe(move)}.{note}")
        if show:
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
        winner = self.game.winner(self.position)
        if winner is None:
            return Text("Draw: nobody wins.", style="bold yellow")
        if winner == self.human:
            return Text(f"{winner.upper()} wins: you beat the AI!", style="bold green")
        return Text(f"{winner.upper()} wins: the AI wins.", style="bold red")


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
