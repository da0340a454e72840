"""Hexapawn, a game of pawns, as a plug-in game for Unbeatable.

Martin Gardner's Hexapawn (1962): three white pawns on the bottom row of a
3x3 board, three black ones on the top row. White moves first. A pawn steps
one cell straight ahead onto an empty cell, or one cell diagonally ahead onto
an opponent's pawn, which it captures. A player wins by getting a pawn to the
far row, by capturing every opposing pawn, or when the opponent, to move,
has no legal move. There is no draw. Black, the second player, wins with
perfect play.

Positions are written as Unbeatable writes its boards: rows from the top,
separated by ``/``, cells ``w``, ``b`` or ``.``, then a space and the side to
move (``w`` if left out; it cannot be told from the counts, as captures change
them): the start is ``bbb/.../www w``. A move names the cell its pawn leaves and
the cell it reaches, a column letter and a row number from the bottom as in
chess: ``b1b2`` steps ahead, ``a1b2`` captures (``a1xb2`` and ``a1-b2`` are
read too).

The package registers two games in Unbeatable's ``unbeatable.games``
entry-point group (see ``pyproject.toml``): ``hexapawn``, the 3x3 game, and
the family ``hexapawn:COLUMNS,ROWS`` on other boards (``hexapawn:4,4`` is
Octapawn). Nothing else: every face of Unbeatable follows from the
description below.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from unbeatable.games.base import (
    Description,
    Game,
    IllegalMoveError,
    InvalidPositionError,
    Side,
    StaticEvaluation,
)

__all__ = ["Hexapawn", "HexapawnPosition", "hexapawn", "hexapawn_game"]

WHITE, BLACK, EMPTY = "w", "b", "."
#: The sides' names, as the faces show them.
NAMES = {WHITE: "White", BLACK: "Black"}
#: Characters read as an empty cell.
EMPTIES = frozenset(".-_")
#: Smallest and largest board sides of the family.
MIN_SIDE, MAX_SIDE = 3, 8
#: Largest board the family offers: the generic engine solves every position
#: of a board this size exactly in well under a second.
MAX_CELLS = 16
LETTERS = "abcdefgh"
#: Positions where the count of pawns and rows misleads a shallow search
#: (Unbeatable's Learn view, depth lesson).
_HORIZON_EXAMPLES = (("A capture that loses", ".bb/.w./w.. b"),)

#: A move: the flat indices (row-major from the top-left) of the cell the pawn
#: leaves and the cell it reaches.
Move = tuple[int, int]


@dataclass(frozen=True, slots=True)
class HexapawnPosition:
    """A board (one character a cell, row-major from the top-left) and the
    side to move. Immutable and hashable: the engines key tables on it."""

    cells: str
    to_move: str


class Hexapawn(Game[HexapawnPosition, Move]):
    """Hexapawn on a board of ``columns`` x ``rows``; White starts on the bottom row."""

    players = (WHITE, BLACK)

    def __init__(self, columns: int = 3, rows: int = 3) -> None:
        if not (MIN_SIDE <= columns <= MAX_SIDE and MIN_SIDE <= rows <= MAX_SIDE):
            raise InvalidPositionError(
                f"hexapawn boards have {MIN_SIDE} to {MAX_SIDE} columns and rows, "
                f"not {columns}x{rows}"
            )
        if columns * rows > MAX_CELLS:
            raise InvalidPositionError(
                f"hexapawn:{columns},{rows} has {columns * rows} cells; this example "
                f"solves boards of at most {MAX_CELLS}"
            )
        self.columns, self.rows = columns, rows
        self.name = "hexapawn" if (columns, rows) == (3, 3) else f"hexapawn:{columns},{rows}"
        # Every pawn steps at most rows - 1 times, the last step ending the game,
        # so no game lasts 2 * columns * (rows - 1) plies: wins always outscore draws.
        self.win_score = 2 * columns * (rows - 1) + 1

    def __repr__(self) -> str:
        return f"Hexapawn({self.columns}, {self.rows})"

    # -- positions -------------------------------------------------------------

    def initial(self) -> HexapawnPosition:
        middle = EMPTY * (self.columns * (self.rows - 2))
        return HexapawnPosition(BLACK * self.columns + middle + WHITE * self.columns, WHITE)

    def parse(self, text: str) -> HexapawnPosition:
        if not text.strip():
            return self.initial()
        board, _, side = text.strip().lower().partition(" ")
        side = side.strip() or WHITE
        if side not in self.players:
            raise InvalidPositionError(f"the side to move is w or b, not {side!r}")
        rows = board.split("/")
        if len(rows) != self.rows:
            raise InvalidPositionError(
                f"wrong shape: expected {self.rows} rows separated by '/', got {len(rows)}"
            )
        for number, row in enumerate(rows, 1):
            if len(row) != self.columns:
                raise InvalidPositionError(
                    f"row {number} has {len(row)} cells; expected {self.columns}"
                )
            wrong = set(row) - EMPTIES - {WHITE, BLACK}
            if wrong:
                raise InvalidPositionError(
                    f"unknown cell {sorted(wrong)[0]!r} in row {number} (use w, b or .)"
                )
        cells = "".join(EMPTY if ch in EMPTIES else ch for ch in "".join(rows))
        for pawn in self.players:
            if cells.count(pawn) > self.columns:
                raise InvalidPositionError(
                    f"{cells.count(pawn)} {pawn} pawns: each side has at most {self.columns}"
                )
        white_home, black_home = cells[: self.columns], cells[-self.columns :]
        if WHITE in white_home and BLACK in black_home:
            raise InvalidPositionError("both sides have a pawn on the far row")
        if (WHITE in white_home and side == WHITE) or (BLACK in black_home and side == BLACK):
            raise InvalidPositionError(
                f"{side} to move, but {side} already has a pawn on the far row"
            )
        return HexapawnPosition(cells, side)

    def format(self, position: HexapawnPosition) -> str:
        return f"{self.grid(position)} {position.to_move}"

    def grid(self, position: HexapawnPosition) -> str:
        cells, width = position.cells, self.columns
        return "/".join(cells[start : start + width] for start in range(0, len(cells), width))

    def key(self, position: HexapawnPosition) -> Hashable:
        return position

    # -- rules -----------------------------------------------------------------

    def to_move(self, position: HexapawnPosition) -> str:
        return position.to_move

    def _steps(self, position: HexapawnPosition) -> list[Move]:
        """The side to move's moves, ignoring whether the game is over."""
        cells, width, me = position.cells, self.columns, position.to_move
        other = BLACK if me == WHITE else WHITE
        ahead = -width if me == WHITE else width
        found: list[Move] = []
        for start, ch in enumerate(cells):
            if ch != me:
                continue
            target = start + ahead
            if not 0 <= target < len(cells):
                continue
            column = start % width
            for dc in (-1, 0, 1):
                if not 0 <= column + dc < width:
                    continue
                wanted = EMPTY if dc == 0 else other
                if cells[target + dc] == wanted:
                    found.append((start, target + dc))
        return found

    def winner(self, position: HexapawnPosition) -> str | None:
        cells, width = position.cells, self.columns
        if WHITE in cells[:width] or BLACK not in cells:
            return WHITE
        if BLACK in cells[-width:] or WHITE not in cells:
            return BLACK
        if not self._steps(position):  # the side to move is stuck: it loses
            return BLACK if position.to_move == WHITE else WHITE
        return None

    def is_terminal(self, position: HexapawnPosition) -> bool:
        return self.winner(position) is not None

    def moves(self, position: HexapawnPosition) -> Sequence[Move]:
        if self.is_terminal(position):
            return []
        return sorted(self._steps(position))

    def ordered_moves(self, position: HexapawnPosition) -> Sequence[Move]:
        """Captures first, then the pawns furthest forward: the moves that
        end games soonest, so that alpha-beta cuts off early."""
        toward = -1 if position.to_move == WHITE else 1

        def promise(move: Move) -> tuple[bool, int]:
            target = move[1]
            return (position.cells[target] == EMPTY, -toward * (target // self.columns))

        return sorted(self.moves(position), key=promise)

    def play(self, position: HexapawnPosition, move: Move) -> HexapawnPosition:
        start, target = move
        cells = list(position.cells)
        cells[target], cells[start] = cells[start], EMPTY
        other = BLACK if position.to_move == WHITE else WHITE
        return HexapawnPosition("".join(cells), other)

    # -- notation ---------------------------------------------------------------

    def _square(self, index: int) -> str:
        row, column = divmod(index, self.columns)
        return f"{LETTERS[column]}{self.rows - row}"

    def _index(self, text: str, whole: str) -> int:
        if len(text) != 2 or text[0] not in LETTERS[: self.columns] or not text[1].isdigit():
            raise IllegalMoveError(
                f"{whole!r} is not a move: write the cell a pawn leaves and the cell it "
                f"reaches, as b1b2 (columns a-{LETTERS[self.columns - 1]}, rows 1-{self.rows})"
            )
        number = int(text[1])
        if not 1 <= number <= self.rows:
            raise IllegalMoveError(f"{whole!r}: rows are numbered 1-{self.rows}")
        return (self.rows - number) * self.columns + LETTERS.index(text[0])

    def parse_move(self, position: HexapawnPosition, text: str) -> Move:
        compact = "".join(text.split()).lower().replace("-", "").replace("x", "")
        move = (self._index(compact[:2], text), self._index(compact[2:], text))
        if move not in self.moves(position):
            if self.is_terminal(position):
                raise IllegalMoveError(f"{text.strip()} is not legal: the game is over")
            mover = position.to_move
            if position.cells[move[0]] != mover:
                raise IllegalMoveError(
                    f"{text.strip()} is not legal: no {mover} pawn on {self._square(move[0])}"
                )
            raise IllegalMoveError(
                f"{text.strip()} is not legal: a pawn steps straight ahead onto an empty "
                "cell or diagonally ahead onto an opponent's pawn"
            )
        return move

    def format_move(self, move: Move) -> str:
        return self._square(move[0]) + self._square(move[1])

    def move_fields(self, move: Move) -> dict[str, Any]:
        start, target = move
        row, col = divmod(target, self.columns)
        from_row, from_col = divmod(start, self.columns)
        return {"row": row, "col": col, "from_row": from_row, "from_col": from_col}

    # -- what the faces draw -----------------------------------------------------

    def describe(self) -> Description:
        size = f"{self.columns}x{self.rows}"
        return Description(
            name=self.name,
            title="Hexapawn" if self.name == "hexapawn" else f"Hexapawn {size}",
            sides=(Side(WHITE, NAMES[WHITE], "#b7791f"), Side(BLACK, NAMES[BLACK], "#2d3748")),
            rows=self.rows,
            columns=self.columns,
            gravity=False,
            column_labels=tuple(LETTERS[: self.columns]),
            row_labels=tuple(str(self.rows - row) for row in range(self.rows)),
            goal="reaching the far row, taking every pawn or leaving the opponent no move",
            keys=(),
            moves_from=True,
            notation=(
                "Rows from the top separated by /, cells w, b or . (empty), then the side "
                f"to move: {self.format(self.initial())}"
            ),
        )

    def static_evaluation(self) -> StaticEvaluation[HexapawnPosition]:
        """A count a learner can make at a glance: every pawn is worth one,
        and one more for each row it has advanced; White's total minus
        Black's. It sees material and progress, not the capture or the race
        one move away, which is what depth-limited search is for."""
        rule = (
            "each pawn counts 1 and 1 more per row it has advanced: "
            "White's (w) count minus Black's (b)"
        )
        examples = _HORIZON_EXAMPLES if self.name == "hexapawn" else ()
        return StaticEvaluation(rule, self.columns * self.rows, self._advance, examples)

    def _advance(self, position: HexapawnPosition) -> int:
        value = 0
        for index, mark in enumerate(position.cells):
            row = index // self.columns
            if mark == WHITE:
                value += 1 + (self.rows - 1 - row)
            elif mark == BLACK:
                value -= 1 + row
        return value

    def cell(self, position: HexapawnPosition, move: Move) -> tuple[int, int]:
        row, col = divmod(move[1], self.columns)
        return row, col

    def origin(self, position: HexapawnPosition, move: Move) -> tuple[int, int]:
        row, col = divmod(move[0], self.columns)
        return row, col

    def win_reason(self, position: HexapawnPosition) -> str | None:
        """Hexapawn is won three ways; the faces say which one ended this game."""
        winner = self.winner(position)
        if winner is None:
            return None
        cells, width = position.cells, self.columns
        if WHITE in cells[:width] or BLACK in cells[-width:]:
            return "a pawn through to the far row"
        loser = BLACK if winner == WHITE else WHITE
        name = NAMES[loser]
        if loser not in cells:
            return f"every {name.lower()} pawn taken"
        return f"{name} to move has no move left"

    def winning_line(self, position: HexapawnPosition) -> tuple[int, ...] | None:
        """The pawn that reached the far row, if that is how the game was won."""
        cells, width = position.cells, self.columns
        if WHITE in cells[:width]:
            return (cells.index(WHITE),)
        if BLACK in cells[-width:]:
            return (len(cells) - width + cells[-width:].index(BLACK),)
        return None


def hexapawn() -> Hexapawn:
    """The 3x3 game: the entry point ``hexapawn``."""
    return Hexapawn()


def hexapawn_game(parameters: str) -> Hexapawn:
    """A board of the family, from the text after ``hexapawn:``
    (``COLUMNS,ROWS``): the entry point ``hexapawn:COLUMNS,ROWS``."""
    parts = parameters.split(",")
    if len(parts) != 2 or not all(part.strip().isdigit() for part in parts):
        raise InvalidPositionError(
            f"hexapawn:{parameters}: write hexapawn:COLUMNS,ROWS, such as hexapawn:4,4"
        )
    return Hexapawn(int(parts[0]), int(parts[1]))
