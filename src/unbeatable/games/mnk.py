"""m,n,k-games: ``k`` in a row on an ``m``-column by ``n``-row board.

Tic-tac-toe is the 3,3,3-game; the same class covers 4x4 tic-tac-toe,
Gomoku (15,15,5) and friends, so only the board size differs between them.

Notation
--------
Positions: rows from top to bottom separated by ``/``; cells ``x``, ``o`` or
``.`` (``_`` and ``-`` also mean empty; any letter case); optionally a space
and the side to move. Output is canonical: lower case, ``.`` for empty, side
to move always written, e.g. ``xox/oox/... x``.

Moves: a column letter from the left and a row number from the bottom, as in
chess and Renju: on 3x3 the top-left cell is ``a3`` and the bottom-right ``c1``.
Internally a move is the cell index in row-major order from the top-left.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from unbeatable.games.base import (
    Game,
    IllegalMoveError,
    InvalidPositionError,
    side_from_counts,
)

X, O, EMPTY = "x", "o", "."
_EMPTY_ALIASES = frozenset("._-")
_MOVE_RE = re.compile(r"([a-z])(\d+)")


class MNKPosition(NamedTuple):
    """An m,n,k position: ``cells`` row-major from the top-left (``x``/``o``/``.``).

    ``winner`` and ``line`` are derived data kept so that search never has to
    rescan the board; ``key`` in :class:`MNKGame` uses ``cells`` only.
    """

    cells: str
    to_move: str
    winner: str | None = None
    line: tuple[int, ...] | None = None


class MNKGame(Game[MNKPosition, int]):
    """Rules of the m,n,k-game; x moves first."""

    players = (X, O)

    def __init__(self, columns: int, rows: int, k: int, name: str | None = None) -> None:
        if not (1 <= columns <= 26 and rows >= 1 and 1 <= k <= max(columns, rows)):
            raise ValueError(f"unsupported board {columns}x{rows} with k={k}")
        self.columns, self.rows, self.k = columns, rows, k
        self.name = name or f"mnk-{columns}-{rows}-{k}"
        self.size = columns * rows
        self.win_score = max(10, self.size + 1)
        self.lines = self._all_lines()
        # For each cell, the lines through it: only these can be completed by a move there.
        self.lines_through: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(line for line in self.lines if cell in line) for cell in range(self.size)
        )
        self._parse_cached = lru_cache(maxsize=1 << 16)(self._parse)
        centre_r, centre_c = (rows - 1) / 2, (columns - 1) / 2
        # Centre first, then by how many lines a cell lies on: the usual strong ordering.
        self._preference = sorted(
            range(self.size),
            key=lambda i: (
                -len(self.lines_through[i]),
                abs(i // columns - centre_r) + abs(i % columns - centre_c),
                i,
            ),
        )

    def _all_lines(self) -> tuple[tuple[int, ...], ...]:
        lines = []
        for r in range(self.rows):
            for c in range(self.columns):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = r + dr * (self.k - 1), c + dc * (self.k - 1)
                    if 0 <= end_r < self.rows and 0 <= end_c < self.columns:
                        lines.append(
                            tuple((r + dr * i) * self.columns + c + dc * i for i in range(self.k))
                        )
        return tuple(lines)

    def __repr__(self) -> str:
        return f"MNKGame({self.columns}, {self.rows}, {self.k}, name={self.name!r})"

    # -- positions ------------------------------------------------------------

    def initial(self) -> MNKPosition:
        return MNKPosition(EMPTY * self.size, X)

    def to_move(self, position: MNKPosition) -> str:
        return position.to_move

    def winner(self, position: MNKPosition) -> str | None:
        return position.winner

    def is_terminal(self, position: MNKPosition) -> bool:
        return position.winner is not None or EMPTY not in position.cells

    def key(self, position: MNKPosition) -> str:
        return position.cells

    def moves(self, position: MNKPosition) -> list[int]:
        if position.winner is not None:
            return []
        cells = position.cells
        return [i for i in range(self.size) if cells[i] == EMPTY]

    def ordered_moves(self, position: MNKPosition) -> list[int]:
        if position.winner is not None:
            return []
        cells = position.cells
        return [i for i in self._preference if cells[i] == EMPTY]

    def play(self, position: MNKPosition, move: int) -> MNKPosition:
        mark = position.to_move
        cells = position.cells[:move] + mark + position.cells[move + 1 :]
        # Only lines through the new mark can have been completed by it. (Plain
        # loops: this is the hottest function of the tic-tac-toe search.)
        for line in self.lines_through[move]:
            for i in line:
                if cells[i] != mark:
                    break
            else:
                return MNKPosition(cells, O if mark == X else X, mark, line)
        return MNKPosition(cells, O if mark == X else X)

    def grid(self, position: MNKPosition) -> str:
        c = self.columns
        return "/".join(position.cells[i : i + c] for i in range(0, self.size, c))

    def winning_line(self, position: MNKPosition) -> tuple[int, ...] | None:
        return position.line

    def from_cells(self, cells: str, to_move: str | None = None) -> MNKPosition:
        """Validate a row-major board (``x``/``o``/``.``) and build its position.

        Raises :class:`InvalidPositionError` naming the first problem found.
        """
        inferred = side_from_counts(cells.count(X), cells.count(O), to_move, self.players)
        won = {
            mark: [line for line in self.lines if all(cells[i] == mark for i in line)]
            for mark in (X, O)
        }
        if won[X] and won[O]:
            raise InvalidPositionError("both x and o have a line")
        for mark, lines in won.items():
            if not lines:
                continue
            last_mover = O if inferred == X else X
            if mark != last_mover:
                raise InvalidPositionError(
                    f"{mark} already has a line, but {last_mover} moved after the game was won"
                )
            common = set(lines[0]).intersection(*lines[1:])
            if not common:
                raise InvalidPositionError(
                    f"{mark} has lines that no single last move could complete: "
                    "moves were made after the game was won"
                )
            return MNKPosition(cells, inferred, mark, lines[0])
        return MNKPosition(cells, inferred)

    def parse(self, text: str) -> MNKPosition:
        if not isinstance(text, str):
            raise InvalidPositionError("a position must be a string")
        return self._parse_cached(text)

    def _parse(self, text: str) -> MNKPosition:
        """Parse without the cache (positions are immutable, so caching is safe;
        it makes repeated queries from the CLI and the web cost a lookup)."""
        parts = text.strip().split()
        if not parts:
            raise InvalidPositionError("empty position")
        if len(parts) > 2:
            raise InvalidPositionError(
                "expected the board and optionally the side to move, separated by one space"
            )
        to_move = None
        if len(parts) == 2:
            to_move = parts[1].lower()
            if to_move not in (X, O):
                raise InvalidPositionError(f"unknown side to move '{parts[1]}' (use x or o)")
        rows = parts[0].split("/")
        if len(rows) != self.rows:
            raise InvalidPositionError(
                f"wrong shape: expected {self.rows} rows separated by '/', got {len(rows)}"
            )
        out = []
        for r, row in enumerate(rows, start=1):
            if len(row) != self.columns:
                raise InvalidPositionError(
                    f"wrong shape: row {r} has {len(row)} cells, expected {self.columns}"
                )
            for ch in row:
                low = ch.lower()
                if low in (X, O):
                    out.append(low)
                elif ch in _EMPTY_ALIASES:
                    out.append(EMPTY)
                else:
                    raise InvalidPositionError(
                        f"unknown character {ch!r} in row {r} (use x, o, or . _ - for empty)"
                    )
        return self.from_cells("".join(out), to_move)

    def format(self, position: MNKPosition) -> str:
        return f"{self.grid(position)} {position.to_move}"

    # -- moves ----------------------------------------------------------------

    def row_col(self, move: int) -> tuple[int, int]:
        """0-based (row, col) from the top-left."""
        return divmod(move, self.columns)

    def format_move(self, move: int) -> str:
        row, col = divmod(move, self.columns)
        return f"{chr(ord('a') + col)}{self.rows - row}"

    def move_fields(self, move: int) -> dict[str, int]:
        row, col = divmod(move, self.columns)
        return {"row": row, "col": col}

    def parse_move(self, position: MNKPosition, text: str) -> int:
        m = _MOVE_RE.fullmatch(text.strip().lower())
        last_col = chr(ord("a") + self.columns - 1)
        if not m:
            raise IllegalMoveError(
                f"bad move {text.strip()!r}: expected a column letter a-{last_col} "
                f"and a row number 1-{self.rows}, e.g. a1"
            )
        col = ord(m.group(1)) - ord("a")
        number = int(m.group(2))
        if col >= self.columns or not 1 <= number <= self.rows:
            raise IllegalMoveError(
                f"{text.strip()!r} is off the board (columns a-{last_col}, rows 1-{self.rows})"
            )
        if self.is_terminal(position):
            raise IllegalMoveError("the game is over: no more moves")
        move = (self.rows - number) * self.columns + col
        if position.cells[move] != EMPTY:
            raise IllegalMoveError(f"{self.format_move(move)} is already taken")
        return move

    def tie_break(self, position: MNKPosition, moves: Sequence[int]) -> Sequence[int]:
        return sorted(moves)

    def draw_plies(self, position: MNKPosition) -> int:
        # Nobody can win before the board is full in a drawn game, so it ends then.
        return position.cells.count(EMPTY)


def tictactoe() -> MNKGame:
    """Classic 3x3 tic-tac-toe."""
    return MNKGame(3, 3, 3, name="tictactoe")
