"""m,n,k-games: ``k`` in a row on a board of ``m`` rows and ``n`` columns.

Tic-tac-toe is the 3,3,3-game; the same class covers 4x4 tic-tac-toe, Gomoku
(15,15,5) and friends, so only the board differs between them. They are
registered as the family ``mnk:ROWS,COLS,K`` (``mnk:3,3,3`` is tic-tac-toe,
``mnk:15,15,5`` freestyle Gomoku, whose family of rule sets lives in
:mod:`unbeatable.games.gomoku`).

Notation
--------
Positions: rows from top to bottom separated by ``/``; cells ``x``, ``o`` or
``.`` (``_`` and ``-`` also mean empty; any letter case); optionally a space
and the side to move. The empty string is the empty board. Output is
canonical: lower case, ``.`` for empty, side to move always written, e.g.
``xox/oox/... x``.

Moves: a column letter from the left and a row number from the bottom, as in
chess and Renju: on 3x3 the top-left cell is ``a3`` and the bottom-right ``c1``.
Internally a move is the cell index in row-major order from the top-left.

Search helpers
--------------
The board's symmetries (8 on a square board, 4 on another rectangle) give
early positions one transposition key for all their images; ``winning_moves``
reads threats off the lines; ``evaluate`` counts open lines.

Rules
-----
A plain m,n,k-game is won by k or more in a row (:attr:`Rule.FREESTYLE`).
The Gomoku family (:mod:`unbeatable.games.gomoku`) adds the rule sets where
only exactly k wins for a player (six is no five): this class reads a line
as won only when, for such a player, the cells just beyond it are not the
player's too, so winners, threats and the evaluation follow the rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from enum import StrEnum
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from unbeatable.games.base import (
    Description,
    Game,
    IllegalMoveError,
    InvalidPositionError,
    Side,
    StaticEvaluation,
    UnknownGameError,
    side_from_counts,
)

X, O, EMPTY = "x", "o", "."
_EMPTY_ALIASES = frozenset("._-")
_MOVE_RE = re.compile(r"([a-z])(\d+)")
#: Largest board side: moves name columns with one letter (a-v), and the
#: biggest boards Gomoku is played on (Gomocup's 20x20, the 22x22 some
#: engines accept) fit.
MAX_SIDE = 22
#: Boards of at most this many cells (tic-tac-toe's) break ties in board
#: order, so that their answers are the textbook's.
TEXTBOOK_CELLS = 9
_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
#: Weight of an open line holding n marks of one player (and none of the other).
_LINE_WEIGHT = (0, 1, 4, 16, 64, 256, 1024)
#: Tic-tac-toe positions where counting open lines misleads a shallow search
#: (Learn's depth lesson): the threat or fork that decides lies past its horizon.
_HORIZON_EXAMPLES = (
    ("Block or lose", "x.o/.x./... o"),
    ("A fork four plies deep", "xxo/.../.o. x"),
    ("A win beyond the horizon", ".x./.../o.. x"),
    ("The horizon keeps moving", ".o./x../.x. o"),
)


class Rule(StrEnum):
    """Which lines win: the rule sets of Gomoku (:mod:`unbeatable.games.gomoku`).

    Every plain m,n,k-game is :attr:`FREESTYLE`."""

    #: k or more in a row wins, for both players.
    FREESTYLE = "freestyle"
    #: Exactly k in a row wins, for both players: k + 1 or more wins nothing.
    STANDARD = "standard"
    #: The RIF rules: black (x, the first player) wins with exactly five and
    #: may not make a double three, a double four or an overline; white (o)
    #: wins with five or more.
    RENJU = "renju"


class MNKPosition(NamedTuple):
    """An m,n,k position: ``cells`` row-major from the top-left (``x``/``o``/``.``).

    ``to_move`` follows from the counts; ``winner`` and ``line`` are derived
    data kept so that search never has to rescan the board. Two positions are
    equal when their boards are (whichever line a last move completed first).
    """

    cells: str
    to_move: str
    winner: str | None = None
    line: tuple[int, ...] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MNKPosition) and self.cells == other.cells

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.cells)


class MNKGame(Game[MNKPosition, int]):
    """Rules of the m,n,k-game; x moves first.

    ``exact`` names the players whose win needs exactly k in a row (none in a
    plain m,n,k-game; the Gomoku family's rules set it)."""

    players = (X, O)
    #: The rule set (every plain m,n,k-game is freestyle: k or more wins).
    rule: Rule = Rule.FREESTYLE

    def __init__(
        self,
        rows: int,
        columns: int,
        k: int,
        name: str | None = None,
        exact: frozenset[str] = frozenset(),
    ) -> None:
        if not (1 <= columns <= MAX_SIDE and 1 <= rows <= MAX_SIDE):
            raise ValueError(f"board sides must be 1-{MAX_SIDE}, got {rows}x{columns}")
        if not 1 <= k <= max(columns, rows):
            raise ValueError(f"k must be 1-{max(columns, rows)} on a {rows}x{columns} board")
        self.columns, self.rows, self.k = columns, rows, k
        self.name = name or f"mnk:{rows},{columns},{k}"
        self.size = columns * rows
        self.win_score = max(10, self.size + 1)
        lines = self._all_lines()
        self.lines = tuple(line for line, _ in lines)
        #: Players whose line wins only when it is exactly k long.
        self.exact = exact
        #: For each line (aligned with ``lines``), the cells just beyond its
        #: two ends (-1 off the board): the line is exactly k long for a player
        #: when neither is the player's.
        self.line_ends = tuple(ends for _, ends in lines)
        self._ends_of = dict(lines)
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
        self._rank = {cell: i for i, cell in enumerate(self._preference)}
        self._images: list[Callable[[str], tuple[str, ...]]] = (
            [itemgetter(*perm) for perm in self.symmetries()] if self.size > 1 else []
        )
        #: Positions with at most this many marks share a key with their images:
        #: that is where the same position turns up mirrored or rotated.
        self._symmetric_until = self.size // 2

    def _all_lines(self) -> list[tuple[tuple[int, ...], tuple[int, int]]]:
        """Every line of k cells, with the cells just beyond its ends (-1 off
        the board)."""
        rows, cols, k = self.rows, self.columns, self.k

        def at(r: int, c: int) -> int:
            return r * cols + c if 0 <= r < rows and 0 <= c < cols else -1

        lines = []
        for r in range(rows):
            for c in range(cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                    if 0 <= end_r < rows and 0 <= end_c < cols:
                        line = tuple((r + dr * i) * cols + c + dc * i for i in range(k))
                        lines.append((line, (at(r - dr, c - dc), at(end_r + dr, end_c + dc))))
        return lines

    def _exactly(self, cells: str, line: tuple[int, ...], mark: str) -> bool:
        """Whether ``line``, full of ``mark``, wins for it: always, unless the
        mark needs exactly k and the line runs on into more of its marks."""
        if mark not in self.exact:
            return True
        before, after = self._ends_of[line]
        return (before < 0 or cells[before] != mark) and (after < 0 or cells[after] != mark)

    def symmetries(self) -> list[tuple[int, ...]]:
        """Each symmetry of the board other than the identity (7 on a square
        board, 3 on another rectangle), as the cell each image cell comes from:
        transposition keys and the exact solver's symmetric keys use them."""
        rows, cols = self.rows, self.columns
        maps: list[Callable[[int, int], tuple[int, int]]] = [
            lambda r, c: (r, cols - 1 - c),
            lambda r, c: (rows - 1 - r, c),
            lambda r, c: (rows - 1 - r, cols - 1 - c),
        ]
        if rows == cols:
            maps += [
                lambda r, c: (c, r),
                lambda r, c: (cols - 1 - c, rows - 1 - r),
                lambda r, c: (c, rows - 1 - r),
                lambda r, c: (cols - 1 - c, r),
            ]
        perms = []
        for image in maps:
            perm = []
            for i in range(self.size):
                r, c = image(*divmod(i, cols))
                perm.append(r * cols + c)
            perms.append(tuple(perm))
        return perms

    def __repr__(self) -> str:
        return f"MNKGame({self.rows}, {self.columns}, {self.k}, name={self.name!r})"

    def describe(self) -> Description:
        k = self.k
        goal = f"{_NUMBER_WORDS[k - 1] if k <= len(_NUMBER_WORDS) else k} in a row"
        board = f"{self.rows}\N{MULTIPLICATION SIGN}{self.columns}"
        title = {"tictactoe": "Tic-tac-toe", "gomoku": "Gomoku"}.get(self.name, f"{board}, {goal}")
        keys: tuple[tuple[str, str], ...] = ()
        if self.size <= 9:  # one digit key per cell, in reading order
            keys = tuple((str(i + 1), self.format_move(i)) for i in range(self.size))
        return Description(
            name=self.name,
            title=title,
            sides=(Side(X, "X", "#1f5fbf"), Side(O, "O", "#c2185b")),
            rows=self.rows,
            columns=self.columns,
            gravity=False,
            column_labels=tuple(chr(ord("a") + c) for c in range(self.columns)),
            row_labels=tuple(str(self.rows - r) for r in range(self.rows)),
            goal=goal,
            keys=keys,
            notation=(
                "Rows from the top separated by /, cells x, o or . (empty), then the "
                f"side to move: {self.format(self.play(self.initial(), 0))}"
            ),
        )

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
        """The board; early on the smallest of its images under the board's
        symmetries, so mirrored and rotated positions share table entries."""
        cells = position.cells
        if self.size - cells.count(EMPTY) > self._symmetric_until:
            return cells
        return min([cells, *("".join(image(cells)) for image in self._images)])

    def moves(self, position: MNKPosition) -> list[int]:
        if position.winner is not None:
            return []
        cells = position.cells
        return [i for i in range(self.size) if cells[i] == EMPTY]

    def forbidden(self, position: MNKPosition) -> dict[int, str]:
        """Black's forbidden points (cell -> ``"double three"``, ``"double
        four"`` or ``"overline"``): none in an m,n,k-game; renju's are in
        :mod:`unbeatable.games.gomoku`."""
        return {}

    def forbidden_reason(self, position: MNKPosition, move: int) -> str | None:
        """Why ``move`` is forbidden for the side to move, or None (always
        None but in renju with black to move)."""
        return None

    def tie_break(self, position: MNKPosition, moves: Sequence[int]) -> Sequence[int]:
        """Board order on tic-tac-toe's board (its answers are the textbook's);
        on bigger boards the centre first, as a player chooses among equals
        (and as the engines there order their moves)."""
        if self.size <= TEXTBOOK_CELLS:
            return moves
        return sorted(moves, key=self._rank.__getitem__)

    def ordered_moves(self, position: MNKPosition) -> list[int]:
        if position.winner is not None:
            return []
        cells = position.cells
        return [i for i in self._preference if cells[i] == EMPTY]

    def winning_moves(self, position: MNKPosition, player: str) -> list[int]:
        """Empty cells that complete a winning line of ``player``'s (board
        order): under the exact rules not those that make k + 1 or more.
        Such a cell is always a legal move (renju's forbidden points never
        forbid a five)."""
        if position.winner is not None:
            return []
        cells = position.cells
        need = self.k - 1
        exact = player in self.exact
        found: set[int] = set()
        for line, (before, after) in zip(self.lines, self.line_ends, strict=True):
            if exact and (
                (before >= 0 and cells[before] == player) or (after >= 0 and cells[after] == player)
            ):
                continue
            gap = -1
            mine = 0
            for i in line:
                mark = cells[i]
                if mark == player:
                    mine += 1
                elif mark == EMPTY and gap < 0:
                    gap = i
                else:
                    break
            else:
                if mine == need and gap >= 0:
                    found.add(gap)
        return sorted(found)

    def threat_win(self, position: MNKPosition, moves: Sequence[int]) -> str | None:
        """How ``moves``, played from ``position``, win if they win by threats
        alone: ``"continuous fours"`` when the line ends in a win and every
        move of the winner before the last makes a four (a line through it
        holding k - 1 of the winner's marks and one empty cell, so the reply is
        forced), at least one of them. The threat is named by k - 1: fours
        where five in a row wins, threes where four does; None for k < 4
        (nobody names those), for a line that does not end in a win, or for an
        illegal one (a forbidden point included). Under the exact rules a four
        is one whose empty cell makes exactly k. Faces say with it how a
        proven win is won; the line may start with the loser's move."""
        if self.k < 4 or len(moves) < 3:
            return None
        winner_moves = range((len(moves) - 1) % 2, len(moves) - 1, 2)
        pos = position
        for i, move in enumerate(moves):
            if pos.winner is not None or not 0 <= move < self.size or pos.cells[move] != EMPTY:
                return None
            if self.forbidden_reason(pos, move) is not None:
                return None
            mover = pos.to_move
            pos = self.play(pos, move)
            if i in winner_moves and not self._makes_four(pos.cells, move, mover):
                return None
        if pos.winner is None:
            return None
        count = self.k - 1
        return f"continuous {_NUMBER_WORDS[count - 1] if count <= len(_NUMBER_WORDS) else count}s"

    def _makes_four(self, cells: str, move: int, mark: str) -> bool:
        """Whether a line through ``move`` holds k - 1 of ``mark`` and one
        empty cell that would win it for ``mark`` (so the reply is forced)."""
        need = self.k - 1
        for line in self.lines_through[move]:
            mine = gap = 0
            for j in line:
                if cells[j] == mark:
                    mine += 1
                elif cells[j] == EMPTY:
                    gap += 1
            if mine == need and gap == 1 and self._exactly(cells, line, mark):
                return True
        return False

    def evaluate(self, position: MNKPosition) -> float:
        """Open lines for the side to move minus the opponent's, each weighted
        by how full it is, squashed into (-1, 1): guidance for depth-limited
        search on boards too big to solve. Under the exact rules a line that
        runs on into more of a player's marks is no line of the player's: it
        could only become k + 1 or more."""
        cells = position.cells
        me = position.to_move
        exact = self.exact
        raw = 0
        for line in self.lines:
            mine = theirs = 0
            for i in line:
                mark = cells[i]
                if mark == me:
                    mine += 1
                elif mark != EMPTY:
                    theirs += 1
            if not theirs:
                if exact and mine and not self._exactly(cells, line, me):
                    continue
                raw += _LINE_WEIGHT[min(mine, len(_LINE_WEIGHT) - 1)]
            elif not mine:
                if exact and not self._exactly(cells, line, O if me == X else X):
                    continue
                raw -= _LINE_WEIGHT[min(theirs, len(_LINE_WEIGHT) - 1)]
        return raw / (abs(raw) + 64)

    def static_evaluation(self) -> StaticEvaluation[MNKPosition]:
        """The textbook's evaluation: lines still open for x minus lines
        still open for o.

        A line is open for a player while the opponent has no mark in it, so
        it can still become that player's k in a row. Nilsson's 1971 textbook
        taught depth-limited search on tic-tac-toe with this count, and AI
        courses have used it ever since: on the empty board it is 8 - 8 = 0,
        after x takes the centre 8 - 4 = 4. It sees no threats, which is
        what makes the horizon effect easy to show."""
        k = self.k
        lines = "lines" if k == 3 else f"lines of {k}"
        rule = f"{lines} still open for x (no o in them) minus lines still open for o"
        examples: tuple[tuple[str, str], ...] = ()
        if (self.rows, self.columns, k) == (3, 3, 3):
            examples = _HORIZON_EXAMPLES
        return StaticEvaluation(rule, len(self.lines), self._open_lines, examples)

    def _open_lines(self, position: MNKPosition) -> int:
        cells = position.cells
        value = 0
        for line in self.lines:
            marks = {cells[i] for i in line}
            value += (O not in marks) - (X not in marks)
        return value

    def play(self, position: MNKPosition, move: int) -> MNKPosition:
        """The position after ``move``, which must be legal: an empty cell,
        and in renju no forbidden point of black's. Not checked here (search
        plays only the moves it listed, and this is its hottest function);
        :meth:`parse_move` checks every move that comes from outside."""
        mark = position.to_move
        cells = position.cells[:move] + mark + position.cells[move + 1 :]
        # Only lines through the new mark can have been completed by it. (Plain
        # loops: this is the hottest function of the tic-tac-toe search.)
        for line in self.lines_through[move]:
            for i in line:
                if cells[i] != mark:
                    break
            else:
                if not self.exact or self._exactly(cells, line, mark):
                    return MNKPosition(cells, O if mark == X else X, mark, line)
        return MNKPosition(cells, O if mark == X else X)

    def cell(self, position: MNKPosition, move: int) -> tuple[int, int]:
        row, col = divmod(move, self.columns)
        return row, col

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
            mark: [
                line
                for line in self.lines
                if all(cells[i] == mark for i in line) and self._exactly(cells, line, mark)
            ]
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
            return self.initial()
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

    def format_move(self, move: int) -> str:
        row, col = divmod(move, self.columns)
        return f"{chr(ord('a') + col)}{self.rows - row}"

    def move_fields(self, move: int) -> dict[str, int]:
        row, col = divmod(move, self.columns)
        return {"row": row, "col": col}

    def parse_move(self, position: MNKPosition, text: str) -> int:
        m = _MOVE_RE.fullmatch(text.strip().lower()) if isinstance(text, str) else None
        last_col = chr(ord("a") + self.columns - 1)
        if not m:
            shown = text.strip()[:20] if isinstance(text, str) else text
            raise IllegalMoveError(
                f"bad move {shown!r}: expected a column letter a-{last_col} "
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

    def draw_plies(self, position: MNKPosition) -> int:
        # Nobody can win before the board is full in a drawn game, so it ends then.
        return position.cells.count(EMPTY)


def tictactoe() -> MNKGame:
    """Classic 3x3 tic-tac-toe (also ``mnk:3,3,3``)."""
    return MNKGame(3, 3, 3, name="tictactoe")


def mnk_game(parameters: str) -> MNKGame:
    """The m,n,k-game ``ROWS,COLS,K`` (the registry's ``mnk:`` family)."""
    parts = parameters.split(",")
    try:
        rows, columns, k = (int(part) for part in parts)
    except ValueError:
        raise UnknownGameError(
            f"bad m,n,k game {('mnk:' + parameters)[:40]!r}: write mnk:ROWS,COLS,K, "
            "e.g. mnk:4,4,4 for 4x4 with four in a row"
        ) from None
    # Freestyle Gomoku (unbeatable.games.gomoku) is the 15,15,5-game.
    named = {(3, 3, 3): "tictactoe", (15, 15, 5): "gomoku"}.get((rows, columns, k))
    if named is not None:  # the same rules: one rules object, one engine
        from unbeatable.games import get_game

        game = get_game(named)
        assert isinstance(game, MNKGame)
        return game
    try:
        return MNKGame(rows, columns, k)
    except ValueError as exc:
        raise UnknownGameError(f"bad m,n,k game mnk:{rows},{columns},{k}: {exc}") from None
