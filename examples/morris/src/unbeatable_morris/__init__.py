"""Three Men's Morris as a plug-in game for Unbeatable: place, then move.

The board is the 3x3 grid of points, joined by its three rows, three columns
and two diagonals. x and o each have three men. While a side has men in hand
it puts one down on an empty point (a placement); once all six are down, a
move takes a man along a line to a neighbouring empty point. Three men of a
side on one of the eight lines win at once. A side to move that cannot move
loses. Games could go round for ever, so the game is drawn after
:data:`PLY_LIMIT` plies; the plies played are part of the position (and of
its key, since the same board with fewer plies left may have another value).

Notation: rows from the top separated by ``/``, cells ``x``, ``o`` or ``.``,
then the side to move and the plies played: ``x.o/.x./o.. x 6`` (the side and
the count may be left out while placing: they follow from the men on the
board). A placement names its point as in tic-tac-toe (``b2``); a move names
the point its man leaves and the point it reaches (``a1b2``).

The package registers the game ``morris`` in Unbeatable's ``unbeatable.games``
entry-point group; every face follows from the description below.
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
)

__all__ = ["PLY_LIMIT", "Morris", "MorrisPosition", "morris"]

X, O, EMPTY = "x", "o", "."
MEN = 3
SIZE = 3
LETTERS = "abc"
#: The game is drawn once this many plies are played without a mill.
PLY_LIMIT = 40
#: The eight lines (flat indices, row-major from the top-left).
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip
#: Points joined by a line segment: a man moves between them.
NEIGHBOURS: dict[int, frozenset[int]] = {
    point: frozenset(
        other
        for line in LINES
        if point in line
        for other in line
        if abs(line.index(other) - line.index(point)) == 1
    )
    for point in range(SIZE * SIZE)
}

#: A move: (the point its man leaves, or None for a placement; the point it reaches).
Move = tuple[int | None, int]


@dataclass(frozen=True, slots=True)
class MorrisPosition:
    """The points (row-major from the top-left), the side to move and the
    plies played. Immutable and hashable: the engines key tables on it."""

    cells: str
    to_move: str
    plies: int


class Morris(Game[MorrisPosition, Move]):
    """Three Men's Morris (see the module's docstring)."""

    name = "morris"
    players = (X, O)
    # No game lasts PLY_LIMIT + 1 plies: a win always outscores a draw.
    win_score = PLY_LIMIT + 1

    def __repr__(self) -> str:
        return "Morris()"

    # -- positions -------------------------------------------------------------

    def initial(self) -> MorrisPosition:
        return MorrisPosition(EMPTY * SIZE * SIZE, X, 0)

    def parse(self, text: str) -> MorrisPosition:
        words = text.strip().lower().split()
        if not words:
            return self.initial()
        if len(words) > 3:
            raise InvalidPositionError(
                f"{text.strip()!r}: write the board, then the side to move and the plies "
                "played, as x.o/.x./o.. x 6"
            )
        rows = words[0].split("/")
        if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
            raise InvalidPositionError(
                f"{words[0]!r}: the board is three rows of three points separated by '/'"
            )
        cells = "".join(rows).replace("-", EMPTY).replace("_", EMPTY)
        wrong = set(cells) - {X, O, EMPTY}
        if wrong:
            raise InvalidPositionError(f"unknown point {sorted(wrong)[0]!r} (use x, o or .)")
        xs, os = cells.count(X), cells.count(O)
        if xs > MEN or os > MEN:
            raise InvalidPositionError(f"{xs} x and {os} o: each side has {MEN} men")
        placing = xs + os < 2 * MEN
        if len(words) == 1 and not placing:
            raise InvalidPositionError(
                "once every man is down, say the side to move and the plies played: "
                f"{words[0]} x 6"
            )
        side = words[1] if len(words) > 1 else (X if xs == os else O)
        if side not in self.players:
            raise InvalidPositionError(f"the side to move is x or o, not {side!r}")
        if placing and (xs - os) != (0 if side == X else 1):
            raise InvalidPositionError(
                f"{xs} x and {os} o with {side} to move: men are put down in turn, x first"
            )
        plies = xs + os
        if len(words) == 3:
            if not words[2].isdigit():
                raise InvalidPositionError(f"the plies played are a number, not {words[2]!r}")
            plies = int(words[2])
        if placing and plies != xs + os:
            raise InvalidPositionError(f"{xs + os} men are down, so {xs + os} plies were played")
        if plies < xs + os or plies > PLY_LIMIT or (plies % 2 == 0) != (side == X):
            raise InvalidPositionError(
                f"{plies} plies with {side} to move cannot be: x moves on even plies, "
                f"at most {PLY_LIMIT}"
            )
        position = MorrisPosition(cells, side, plies)
        mills = [player for player in self.players if self._mill(cells, player)]
        if len(mills) == 2 or (mills and mills[0] == side):
            raise InvalidPositionError("a mill of the side to move cannot be: the game ended")
        return position

    def format(self, position: MorrisPosition) -> str:
        return f"{self.grid(position)} {position.to_move} {position.plies}"

    def grid(self, position: MorrisPosition) -> str:
        cells = position.cells
        return "/".join(cells[row * SIZE : row * SIZE + SIZE] for row in range(SIZE))

    def key(self, position: MorrisPosition) -> Hashable:
        # The plies belong to the key: the same board nearer the limit is another game.
        return position

    # -- rules -----------------------------------------------------------------

    def to_move(self, position: MorrisPosition) -> str:
        return position.to_move

    @staticmethod
    def _mill(cells: str, player: str) -> tuple[int, int, int] | None:
        return next((line for line in LINES if all(cells[i] == player for i in line)), None)

    def _steps(self, position: MorrisPosition) -> list[Move]:
        """The side to move's moves, whether or not the game is over."""
        cells, me = position.cells, position.to_move
        empty = [i for i, c in enumerate(cells) if c == EMPTY]
        if cells.count(me) < MEN:
            return [(None, point) for point in empty]
        return sorted(
            (start, target)
            for start, c in enumerate(cells)
            if c == me
            for target in sorted(NEIGHBOURS[start])
            if cells[target] == EMPTY
        )

    def winner(self, position: MorrisPosition) -> str | None:
        for player in self.players:
            if self._mill(position.cells, player):
                return player
        if position.plies < PLY_LIMIT and not self._steps(position):
            return O if position.to_move == X else X  # blocked: the side to move loses
        return None

    def is_terminal(self, position: MorrisPosition) -> bool:
        return self.winner(position) is not None or position.plies >= PLY_LIMIT

    def moves(self, position: MorrisPosition) -> Sequence[Move]:
        if self.is_terminal(position):
            return []
        return self._steps(position)

    def play(self, position: MorrisPosition, move: Move) -> MorrisPosition:
        start, target = move
        cells = list(position.cells)
        if start is not None:
            cells[start] = EMPTY
        cells[target] = position.to_move
        other = O if position.to_move == X else X
        return MorrisPosition("".join(cells), other, position.plies + 1)

    def draw_plies(self, position: MorrisPosition) -> int:
        return PLY_LIMIT - position.plies

    def draw_reason(self, position: MorrisPosition) -> str | None:
        """A drawn game ends at the ply limit; say so, not just "no winner"."""
        if self.is_terminal(position) and self.winner(position) is None:
            return f"{PLY_LIMIT} plies without a mill"
        return None

    def win_reason(self, position: MorrisPosition) -> str | None:
        winner = self.winner(position)
        if winner is None or self._mill(position.cells, winner):
            return None  # the goal says it: three in a row
        return f"{position.to_move} to move has no move left"

    def winning_line(self, position: MorrisPosition) -> tuple[int, ...] | None:
        winner = self.winner(position)
        return None if winner is None else self._mill(position.cells, winner)

    # -- notation ---------------------------------------------------------------

    def _point(self, index: int) -> str:
        row, column = divmod(index, SIZE)
        return f"{LETTERS[column]}{SIZE - row}"

    def _index(self, text: str, whole: str) -> int:
        if len(text) != 2 or text[0] not in LETTERS or text[1] not in "123":
            raise IllegalMoveError(
                f"{whole.strip()!r} is not a move: put a man down with its point (b2), or "
                "move one with the point it leaves and the point it reaches (a1b2)"
            )
        return (SIZE - int(text[1])) * SIZE + LETTERS.index(text[0])

    def parse_move(self, position: MorrisPosition, text: str) -> Move:
        compact = "".join(text.split()).lower().replace("-", "")
        said = text.strip()
        if len(compact) == 2:
            move: Move = (None, self._index(compact, text))
        else:
            move = (self._index(compact[:2], text), self._index(compact[2:], text))
        if move in self.moves(position):
            return move
        if self.is_terminal(position):
            raise IllegalMoveError(f"{said} is not legal: the game is over")
        me = position.to_move
        placing = position.cells.count(me) < MEN
        start, target = move
        if placing and start is not None:
            raise IllegalMoveError(f"{said} is not legal: {me} still puts men down (b2)")
        if not placing and start is None:
            raise IllegalMoveError(
                f"{said} is not legal: all of {me}'s men are down; move one (a1b2)"
            )
        if start is not None and position.cells[start] != me:
            raise IllegalMoveError(f"{said} is not legal: no {me} man on {self._point(start)}")
        if position.cells[target] != EMPTY:
            raise IllegalMoveError(f"{said} is not legal: {self._point(target)} is taken")
        raise IllegalMoveError(f"{said} is not legal: a man moves along a line to the next point")

    def format_move(self, move: Move) -> str:
        start, target = move
        return self._point(target) if start is None else self._point(start) + self._point(target)

    def move_fields(self, move: Move) -> dict[str, Any]:
        start, target = move
        fields: dict[str, Any] = {"row": target // SIZE, "col": target % SIZE}
        if start is not None:
            fields |= {"from_row": start // SIZE, "from_col": start % SIZE}
        return fields

    # -- what the faces draw -----------------------------------------------------

    def describe(self) -> Description:
        return Description(
            name=self.name,
            title="Three Men's Morris",
            sides=(Side(X, "X", "#d8343f"), Side(O, "O", "#2563eb")),
            rows=SIZE,
            columns=SIZE,
            gravity=False,
            column_labels=tuple(LETTERS),
            row_labels=tuple(str(SIZE - row) for row in range(SIZE)),
            goal="three in a row",
            keys=(),
            moves_from=True,
            notation=(
                "Rows from the top separated by /, points x, o or . (empty), then the side "
                f"to move and the plies played: {self.format(self.initial())}"
            ),
        )

    def cell(self, position: MorrisPosition, move: Move) -> tuple[int, int]:
        return divmod(move[1], SIZE)

    def origin(self, position: MorrisPosition, move: Move) -> tuple[int, int] | None:
        """Where the man comes from; None for a man put down (a placement)."""
        return None if move[0] is None else divmod(move[0], SIZE)


def morris() -> Morris:
    """The entry point ``morris``."""
    return Morris()
