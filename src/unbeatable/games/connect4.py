"""Connect Four on a board of any shape that fits 64 bits: stones drop to the
lowest free cell, four in a row (any direction) wins, a full board is a draw;
x moves first. ``connect4`` is the standard board, 7 columns by 6 rows;
``connect4:COLUMNS,ROWS`` any other (:func:`connect4_game`).

Notation
--------
Positions are written either as the move sequence from the empty board, one
character per move naming its column (``4453``; the empty board is ``""``),
which is the notation of the public benchmark sets, or as a grid: the rows
from top to bottom separated by ``/``, cells ``x``, ``o`` or ``.`` (``_`` and
``-`` also mean empty; any case), optionally a space and the side to move.
Output is the move sequence when it is known, else the canonical grid with
the side to move.

Columns are 1-based digits on boards of up to 9 columns, and letters ``a``,
``b``, ``c``, ... (any case) on wider ones (10 to 12 columns), so that a move
stays one character and a sequence needs no separator; the board's column
labels are the same characters. Moves are 0-based column numbers internally.

Bit layout
----------
Boards are Python ints in Pascal Pons' layout, ``rows + 1`` bits per column
with a sentinel row on top, so that a column's stones never carry into the
next (hence ``columns * (rows + 1) <= 64``). On the standard board::

    .  .  .  .  .  .  .     <- sentinel row (always 0)
    5 12 19 26 33 40 47
    4 11 18 25 32 39 46
    3 10 17 24 31 38 45
    2  9 16 23 30 37 44
    1  8 15 22 29 36 43
    0  7 14 21 28 35 42     <- bottom row

Everything that follows from the board's size (masks, lines of four, score
bounds, the centre-first order) lives in one :class:`Shape`, which every
position and rules object carries.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Literal

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
#: Results a game can end in (the search's Result without "unknown").
FinalResult = Literal["win", "draw", "loss"]
#: The smallest board side: a four must fit both across and up.
MIN_SIDE = 4
#: Bits a board may use: ``columns * (rows + 1)`` (the sentinel row included).
MAX_BITS = 64
#: Columns written as digits 1-9; wider boards write letters a, b, c, ...
MAX_DIGIT_COLUMNS = 9


def win_now_score(cells: int, stones: int) -> int:
    """Pons score of the side to move on a board of ``cells`` cells holding
    ``stones`` stones when it wins with its next stone (the opponent's score
    when the side to move loses to the opponent's next stone is
    ``-win_now_score(cells, stones + 1)``). The solver's kernel compiles this
    very function."""
    return (cells + 1 - stones) // 2


class Shape:
    """A board's columns and rows, and everything that follows from them.

    One instance per size (:func:`shape`), so comparing two is usually an
    identity test; shapes pickle back to that instance.
    """

    __slots__ = (
        "_hash",
        "board",
        "bottom",
        "cells",
        "centre_order",
        "column_bits",
        "column_labels",
        "columns",
        "fours",
        "fours_through",
        "rows",
        "stride",
    )

    def __init__(self, columns: int, rows: int) -> None:
        if columns < MIN_SIDE or rows < MIN_SIDE:
            raise ValueError(f"is too small: columns and rows must be at least {MIN_SIDE}")
        if columns * (rows + 1) > MAX_BITS:
            raise ValueError(
                f"does not fit a {MAX_BITS}-bit board: columns x (rows + 1) must be at "
                f"most {MAX_BITS}"
            )
        self.columns = columns
        self.rows = rows
        #: Bits per column: the rows and the sentinel above them.
        self.stride = rows + 1
        self.cells = columns * rows
        #: The ``stride`` bits of one column, sentinel included.
        self.column_bits = (1 << self.stride) - 1
        #: One bit per column, on the bottom row.
        self.bottom = sum(1 << (c * self.stride) for c in range(columns))
        #: Every playable cell (the sentinel row excluded).
        self.board = self.bottom * ((1 << rows) - 1)
        #: Columns from the centre outwards (left first among equals): the
        #: strongest first guess in Connect Four.
        self.centre_order: tuple[int, ...] = tuple(
            sorted(range(columns), key=lambda c: (abs(2 * c - (columns - 1)), c))
        )
        #: Every line of four cells as a bitmask (69 on the standard board).
        self.fours: tuple[int, ...] = tuple(self._four_masks())
        #: For every cell's bit index, the fours through it (a move can
        #: complete only these).
        self.fours_through: dict[int, tuple[int, ...]] = {
            c * self.stride + r: tuple(f for f in self.fours if f >> (c * self.stride + r) & 1)
            for c in range(columns)
            for r in range(rows)
        }
        #: Every column's label in the notation, left to right.
        self.column_labels: tuple[str, ...] = tuple(self.column_label(c) for c in range(columns))
        self._hash = hash((columns, rows))

    def __repr__(self) -> str:
        return f"Shape({self.columns}, {self.rows})"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Shape):
            return NotImplemented
        return (self.columns, self.rows) == (other.columns, other.rows)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return shape, (self.columns, self.rows)

    @property
    def size(self) -> str:
        """``COLUMNSxROWS``, as people write a board's size (``7x6``)."""
        return f"{self.columns}x{self.rows}"

    def bit(self, col: int, row: int) -> int:
        """The bit of cell (``col``, ``row``), row 0 at the bottom."""
        return 1 << (col * self.stride + row)

    def _four_masks(self) -> Iterator[int]:
        for c in range(self.columns):
            for r in range(self.rows):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    ec, er = c + 3 * dc, r + 3 * dr
                    if 0 <= ec < self.columns and 0 <= er < self.rows:
                        yield sum(self.bit(c + i * dc, r + i * dr) for i in range(4))

    def has_four(self, stones: int) -> bool:
        """Whether ``stones`` (one player's bitboard) contains four in a row.

        Shift-and-mask per direction: 1 = vertical, ``stride`` horizontal,
        ``stride - 1`` and ``stride + 1`` the diagonals; the sentinel row keeps
        lines from wrapping between columns.
        """
        for shift in (1, self.stride, self.rows, self.stride + 1):
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> (2 * shift)):
                return True
        return False

    def mirror(self, stones: int) -> int:
        """The bitboard reflected left-right (column c <-> columns - 1 - c)."""
        out = 0
        last = self.columns - 1
        for c in range(self.columns):
            out |= ((stones >> (c * self.stride)) & self.column_bits) << ((last - c) * self.stride)
        return out

    def column_label(self, col: int) -> str:
        """Column ``col`` (0-based) as the notation writes it: a digit 1-9, or
        on boards wider than nine columns a letter a, b, c, ..."""
        if self.columns <= MAX_DIGIT_COLUMNS:
            return str(col + 1)
        return chr(ord("a") + col)

    def is_label_kind(self, text: str) -> bool:
        """Whether ``text`` is one character of the kind this board's labels
        are (a digit, or a letter on wide boards), in range or not."""
        if len(text) != 1 or not text.isascii():
            return False
        return text.isdigit() if self.columns <= MAX_DIGIT_COLUMNS else text.isalpha()

    def column_of(self, text: str) -> int | None:
        """The 0-based column a one-character label names, or None (not a
        label of this board)."""
        low = text.lower()
        return self.column_labels.index(low) if low in self.column_labels else None

    @property
    def label_range(self) -> str:
        """The labels in words (``1-7``, ``a-j``), for error messages."""
        return f"{self.column_label(0)}-{self.column_label(self.columns - 1)}"

    # -- Pons scores ------------------------------------------------------------

    def win_now(self, stones: int) -> int:
        """:func:`win_now_score` on this board."""
        return win_now_score(self.cells, stones)

    def pons_score(self, stones: int, result: str, plies: int) -> int:
        """Score in Pons' convention for the side to move of a board with
        ``stones`` stones, from a result and the game's remaining length in
        plies.

        A win scores one more than the stones its winner would still have
        to play after the winning one if the game went on to a full board
        (on 7x6, 22 minus the winner's stones at the end); a loss the
        negative of the opponent's winning score; a draw 0. The first
        player holds one stone more than the second at the end of an odd
        board, which is why this counts from the last stone played and not
        from half the board: it is :func:`win_now_score` of the position
        just before the winning stone. Raises ValueError for a length the
        result cannot have (a win ends on an odd ply, a loss on an even one;
        a loss in 0 plies is a game the opponent's last stone has won).
        """
        if result == "draw":
            return 0
        if result not in ("win", "loss"):
            raise ValueError(f"no Pons score for result {result!r}")
        least = 1 if result == "win" else 0 if stones else 2  # a game may be lost already
        if plies < least or stones + plies > self.cells or plies % 2 != (result == "win"):
            raise ValueError(
                f"a {result} in {plies} plies is impossible with {stones} stones on the board"
            )
        value = win_now_score(self.cells, stones + plies - 1)
        return value if result == "win" else -value

    def pons_outcome(self, stones: int, score: int) -> tuple[FinalResult, int]:
        """Inverse of :meth:`pons_score`: ``(result, plies)`` for the side to move.

        Plies count half-moves to the end under perfect play (a draw fills the
        board), so the game's last stone is the ``stones + plies``-th. Raises
        ValueError for a score impossible with that many stones.
        """
        if score == 0:
            return "draw", self.cells - stones
        result: FinalResult = "win" if score > 0 else "loss"
        # win_now_score(cells, n) == score for exactly two stone counts n
        # before the last stone, one of each parity; the winner's parity picks one.
        before = self.cells + 1 - 2 * abs(score)  # stones before the winning one, or one more
        plies = before - stones + 1
        if plies % 2 != (result == "win"):
            plies -= 1
        least = 1 if result == "win" else 0 if stones else 2  # a game may be lost already
        if plies < least or stones + plies > self.cells:
            raise ValueError(f"score {score} is impossible with {stones} stones on the board")
        return result, plies


@cache
def shape(columns: int, rows: int) -> Shape:
    """The one :class:`Shape` of a board size; raises ValueError if the board
    is too small or does not fit 64 bits."""
    return Shape(columns, rows)


#: The standard board: 7 columns, 6 rows.
STANDARD = shape(7, 6)

#: Standard-board positions where counting open lines misleads a shallow
#: search (Learn's depth lesson): what decides lies past its horizon.
_HORIZON_EXAMPLES = (
    ("A win four plies deep", "444145167325"),
    ("A loss three plies deep", "474531556"),
)


# -- positions ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connect4Position:
    """A Connect Four board: its :class:`Shape` and the ``x`` and ``o``
    bitboards (layout in the module doc).

    Equality and hashing use the shape and the stones only. ``moves`` is the
    move sequence (in the notation) when known, None after a grid parse: it
    decides the printed notation but not identity, so transpositions compare
    equal. ``winner`` is derived data kept so nobody rescans the board.
    """

    shape: Shape
    x: int
    o: int
    moves: str | None = field(default="", compare=False)
    winner: str | None = field(default=None, compare=False)

    @property
    def mask(self) -> int:
        """All occupied cells."""
        return self.x | self.o

    @property
    def stones(self) -> int:
        """Number of stones on the board (= plies played)."""
        return (self.x | self.o).bit_count()

    @property
    def to_move(self) -> str:
        """Whose turn it is: x when the counts are equal."""
        return X if self.stones % 2 == 0 else O

    def current(self) -> int:
        """The side to move's stones (the solver's view)."""
        return self.x if self.stones % 2 == 0 else self.o

    def height(self, col: int) -> int:
        """Number of stones in column ``col``."""
        shape = self.shape
        return ((self.mask >> (col * shape.stride)) & shape.column_bits).bit_length()


def predecessors(position: Connect4Position) -> Iterator[tuple[int, Connect4Position]]:
    """Every position one move earlier that leads here, with that move's
    column: a top stone of the player who moved last, taken back.

    The board does not say which stone came last, so a fact that holds for
    each predecessor holds for the position whatever its history.
    """
    shape = position.shape
    last = position.x if position.to_move == O else position.o
    for col in range(shape.columns):
        height = position.height(col)
        top = shape.bit(col, height - 1) if height else 0
        if top & last:
            yield col, Connect4Position(shape, position.x & ~top, position.o & ~top, None, None)


def position_key(current: int, mask: int) -> int:
    """Pons' unique key (``columns * (rows + 1)`` bits, 49 on the standard
    board): the side to move's stones plus the mask.

    Adding the mask sets the bit just above each column's top stone and keeps
    the side to move's stones below it, so the key encodes the whole board.
    """
    return current + mask


def canonical_key(position: Connect4Position) -> int:
    """The smaller of the keys of the position and its mirror image (book keys).

    A key's column never carries into the next (the sum fits in the column's
    ``rows + 1`` bits), so the mirror image's key is the key mirrored: one
    mirror, not two (a book's walk takes a third less time)."""
    key = position_key(position.current(), position.mask)
    return min(key, position.shape.mirror(key))


@lru_cache(maxsize=1)
def connect4() -> Connect4Game:
    """The standard 7x6 Connect Four rules (registry factory)."""
    return Connect4Game()


def rules_for(board: Shape) -> Connect4Game:
    """The rules object of a board (solvers find it from a position's shape)."""
    return connect4() if board == STANDARD else _other_rules(board.columns, board.rows)


@lru_cache(maxsize=64)
def _other_rules(columns: int, rows: int) -> Connect4Game:
    return Connect4Game(columns, rows)


def connect4_game(parameters: str) -> Connect4Game:
    """The board ``COLUMNS,ROWS`` (the registry's ``connect4:`` family);
    ``connect4:7,6`` is the standard game itself. Raises
    :class:`UnknownGameError` saying what is wrong with the parameters."""
    name = f"connect4:{parameters}"
    try:
        columns, rows = (int(part) for part in parameters.split(","))
    except ValueError:
        raise UnknownGameError(
            f"bad Connect Four board {name[:40]!r}: write connect4:COLUMNS,ROWS, "
            "e.g. connect4:6,5 for 6 columns and 5 rows"
        ) from None
    if (columns, rows) == (STANDARD.columns, STANDARD.rows):
        return connect4()  # the same rules: one rules object, one engine
    try:
        return _other_rules(columns, rows)
    except ValueError as exc:
        raise UnknownGameError(f"connect4:{columns},{rows} {exc}") from None


class Connect4Game(Game[Connect4Position, int]):
    """Rules of Connect Four on a board of ``columns`` x ``rows`` (7 x 6 by
    default); raises ValueError for a board too small or too big for 64 bits."""

    players = (X, O)

    def __init__(self, columns: int = STANDARD.columns, rows: int = STANDARD.rows) -> None:
        #: The board's size and what follows from it.
        self.shape: Shape = shape(columns, rows)
        standard = self.shape == STANDARD
        self.name = "connect4" if standard else f"connect4:{columns},{rows}"
        #: Exceeds the plies of the longest game.
        self.win_score = self.shape.cells + 1
        self._centre_rank = {col: rank for rank, col in enumerate(self.shape.centre_order)}
        self._empty = Connect4Position(self.shape, 0, 0, "")

    def __repr__(self) -> str:
        if self.shape == STANDARD:
            return "Connect4Game()"
        return f"Connect4Game({self.shape.columns}, {self.shape.rows})"

    def describe(self) -> Description:
        shape = self.shape
        title = "Connect Four"
        if shape != STANDARD:
            title += f", {shape.columns}\N{MULTIPLICATION SIGN}{shape.rows}"
        return Description(
            name=self.name,
            title=title,
            sides=(Side(X, "Red", "#ef4444"), Side(O, "Yellow", "#facc15")),
            rows=shape.rows,
            columns=shape.columns,
            gravity=True,
            column_labels=shape.column_labels,
            row_labels=(),
            goal="four in a row",
            keys=tuple((label, label) for label in shape.column_labels),
            notation=(
                f"The columns played from the empty board, {self._expected_column()} each, "
                f"in one string: {''.join(shape.column_labels[c] for c in shape.centre_order[:3])}"
            ),
        )

    # -- positions ------------------------------------------------------------

    def initial(self) -> Connect4Position:
        return self._empty

    def to_move(self, position: Connect4Position) -> str:
        return position.to_move

    def winner(self, position: Connect4Position) -> str | None:
        return position.winner

    def is_terminal(self, position: Connect4Position) -> bool:
        return position.winner is not None or position.mask == self.shape.board

    def key(self, position: Connect4Position) -> int:
        return position_key(position.current(), position.mask)

    def moves(self, position: Connect4Position) -> list[int]:
        if position.winner is not None:
            return []
        mask, shape = position.mask, self.shape
        top = shape.rows - 1
        return [c for c in range(shape.columns) if not mask & shape.bit(c, top)]

    def ordered_moves(self, position: Connect4Position) -> list[int]:
        legal = set(self.moves(position))
        return [c for c in self.shape.centre_order if c in legal]

    def tie_break(self, position: Connect4Position, moves: Sequence[int]) -> Sequence[int]:
        return sorted(moves, key=self._centre_rank.__getitem__)

    def static_evaluation(self) -> StaticEvaluation[Connect4Position]:
        """A classic hand-countable evaluation: each line of four (69 on the
        standard board) that only one player has discs in counts for that
        player, once per disc (a line with three discs is closer to a four
        than a line with one); x's count minus o's. No line of an unfinished
        game holds four, so no estimate exceeds the lines times 3."""
        rule = (
            "each line of four cells holding discs of one player only counts for that "
            "player, once per disc in it: Red's (x) count minus Yellow's (o)"
        )
        examples = _HORIZON_EXAMPLES if self.shape == STANDARD else ()
        return StaticEvaluation(rule, len(self.shape.fours) * 3, _open_fours, examples)

    def draw_plies(self, position: Connect4Position) -> int:
        return self.shape.cells - position.stones

    def score(self, position: Connect4Position, result: str, plies: int) -> int:
        """Pons' convention (see :meth:`Shape.pons_score`), the one of the public test sets."""
        return self.shape.pons_score(position.stones, result, plies)

    def play(self, position: Connect4Position, move: int) -> Connect4Position:
        shape = self.shape
        mask = position.mask
        cell = (mask + shape.bit(move, 0)) & (shape.column_bits << (move * shape.stride))
        moves = None if position.moves is None else position.moves + shape.column_labels[move]
        through = shape.fours_through[cell.bit_length() - 1]
        if position.stones % 2 == 0:
            x = position.x | cell
            won = any(x & f == f for f in through)
            return Connect4Position(shape, x, position.o, moves, X if won else None)
        o = position.o | cell
        won = any(o & f == f for f in through)
        return Connect4Position(shape, position.x, o, moves, O if won else None)

    def cell(self, position: Connect4Position, move: int) -> tuple[int, int]:
        """Where a disc dropped in column ``move`` lands (row 0 at the top)."""
        return self.shape.rows - 1 - position.height(move), move

    def winning_moves(self, position: Connect4Position, player: str) -> list[int]:
        """Columns where a disc of ``player``'s would complete a four now."""
        if position.winner is not None:
            return []
        shape = self.shape
        stones = position.x if player == X else position.o
        mask = position.mask
        top = shape.rows - 1
        found = []
        for col in range(shape.columns):
            if mask & shape.bit(col, top):
                continue
            cell = (mask + shape.bit(col, 0)) & (shape.column_bits << (col * shape.stride))
            mine = stones | cell
            if any(mine & f == f for f in shape.fours_through[cell.bit_length() - 1]):
                found.append(col)
        return found

    def winning_line(self, position: Connect4Position) -> tuple[int, ...] | None:
        """Flat indices (``row * columns + col``, row 0 at the top) of a four
        that won the game, or None; the web and terminal highlight them."""
        if position.winner is None:
            return None
        shape = self.shape
        stones = position.x if position.winner == X else position.o
        for four in shape.fours:
            if stones & four == four:
                cells = (i for i in range(shape.columns * shape.stride) if four >> i & 1)
                return tuple(sorted(_flat(shape, i) for i in cells))
        return None  # pragma: no cover - a winner always has a four

    # -- notation -------------------------------------------------------------

    def parse(self, text: str) -> Connect4Position:
        """Read a move sequence or a grid; raises :class:`InvalidPositionError`."""
        if not isinstance(text, str):
            raise InvalidPositionError("a position must be a string")
        text = text.strip()
        if "/" in text:
            return self._parse_grid(text)
        return self._parse_sequence(text)

    def _expected_column(self) -> str:
        """What a move must be, in words, for error messages."""
        shape = self.shape
        kind = "digit" if shape.columns <= MAX_DIGIT_COLUMNS else "letter"
        return f"a column {kind} {shape.label_range}"

    def _parse_sequence(self, text: str) -> Connect4Position:
        shape = self.shape
        position = self.initial()
        top = shape.rows - 1
        for number, ch in enumerate(text, start=1):
            col = shape.column_of(ch)
            if col is None:
                if shape.is_label_kind(ch):
                    raise InvalidPositionError(
                        f"move {number}: column {ch} is outside {shape.label_range}"
                    )
                raise InvalidPositionError(
                    f"unknown character {ch!r} at move {number}: expected "
                    f"{self._expected_column()} (or a grid of {shape.rows} rows separated by '/')"
                )
            if position.winner is not None:
                raise InvalidPositionError(
                    f"move {number} (column {ch}) comes after the game was won by "
                    f"{position.winner} at move {number - 1}"
                )
            if position.mask & shape.bit(col, top):
                raise InvalidPositionError(f"move {number}: column {ch} is full")
            position = self.play(position, col)
        return position

    def _parse_grid(self, text: str) -> Connect4Position:
        shape = self.shape
        parts = text.split()
        if len(parts) > 2:
            raise InvalidPositionError(
                "expected the grid and optionally the side to move, separated by one space"
            )
        side = None
        if len(parts) == 2:
            side = parts[1].lower()
            if side not in (X, O):
                raise InvalidPositionError(f"unknown side to move {parts[1]!r} (use x or o)")
        rows = parts[0].split("/")
        if len(rows) != shape.rows:
            raise InvalidPositionError(
                f"wrong shape: expected {shape.rows} rows separated by '/', got {len(rows)}"
            )
        x = o = 0
        for r, row in enumerate(rows):
            if len(row) != shape.columns:
                raise InvalidPositionError(
                    f"wrong shape: row {r + 1} has {len(row)} cells, expected {shape.columns}"
                )
            for c, ch in enumerate(row):
                low = ch.lower()
                if low == X:
                    x |= shape.bit(c, shape.rows - 1 - r)
                elif low == O:
                    o |= shape.bit(c, shape.rows - 1 - r)
                elif ch not in _EMPTY_ALIASES:
                    raise InvalidPositionError(
                        f"unknown character {ch!r} in row {r + 1}, column {c + 1} "
                        "(use x, o, or . _ - for empty)"
                    )
        return self.from_bitboards(x, o, side)

    def from_bitboards(self, x: int, o: int, side: str | None = None) -> Connect4Position:
        """Validate a board given as bitboards and build its position.

        Raises :class:`InvalidPositionError` naming the first problem: floating
        stones, impossible counts, a contradicting side to move, fours for both
        players, a four by the player who did not move last, or a board that
        no alternating order of moves can build.
        """
        shape = self.shape
        if x & o or (x | o) & ~shape.board:
            raise InvalidPositionError("overlapping or off-board stones")
        mask = x | o
        for c in range(shape.columns):
            column = (mask >> (c * shape.stride)) & shape.column_bits
            if column & (column + 1):
                raise InvalidPositionError(
                    f"floating stone in column {shape.column_label(c)}: a stone sits above "
                    "an empty cell"
                )
        inferred = side_from_counts(x.bit_count(), o.bit_count(), side, self.players, "stones")
        x_won, o_won = shape.has_four(x), shape.has_four(o)
        if x_won and o_won:
            raise InvalidPositionError("both x and o have four in a row")
        last = O if inferred == X else X
        winner = X if x_won else O if o_won else None
        if winner is not None and winner != last:
            raise InvalidPositionError(
                f"{winner} has four in a row, but {last} moved after the game was won"
            )
        if not _reachable(shape, x, o, winner is not None):
            detail = (
                "no last move completes every four (moves were made after the win)"
                if winner is not None
                else "no alternating order of moves x, o, x, ... builds these columns"
            )
            raise InvalidPositionError(f"unreachable position: {detail}")
        return Connect4Position(shape, x, o, "" if mask == 0 else None, winner)

    def format(self, position: Connect4Position) -> str:
        if position.moves is not None:
            return position.moves
        return f"{self.grid(position)} {position.to_move}"

    def grid(self, position: Connect4Position) -> str:
        """The board as its rows from top to bottom separated by ``/`` (no side to move)."""
        shape = self.shape
        rows = []
        for r in range(shape.rows - 1, -1, -1):
            rows.append(
                "".join(
                    X
                    if position.x & shape.bit(c, r)
                    else O
                    if position.o & shape.bit(c, r)
                    else EMPTY
                    for c in range(shape.columns)
                )
            )
        return "/".join(rows)

    # -- moves ----------------------------------------------------------------

    def format_move(self, move: int) -> str:
        return self.shape.column_labels[move]

    def move_fields(self, move: int) -> dict[str, int]:
        return {"col": move}

    def parse_move(self, position: Connect4Position, text: str) -> int:
        shape = self.shape
        t = text.strip() if isinstance(text, str) else ""
        col = shape.column_of(t) if len(t) == 1 else None
        if col is None:
            if shape.is_label_kind(t):
                raise IllegalMoveError(f"column {t} is outside {shape.label_range}")
            raise IllegalMoveError(f"bad move {text!r}: expected {self._expected_column()}")
        if self.is_terminal(position):
            raise IllegalMoveError("the game is over: no more moves")
        if position.mask & shape.bit(col, shape.rows - 1):
            raise IllegalMoveError(f"column {t} is full")
        return col


def _open_fours(position: Connect4Position) -> int:
    """x's discs in lines of four that o has no disc in, minus o's discs in
    lines x has none in (:meth:`Connect4Game.static_evaluation`)."""
    x, o = position.x, position.o
    value = 0
    for four in position.shape.fours:
        if not four & o:
            value += (four & x).bit_count()
        elif not four & x:
            value -= (four & o).bit_count()
    return value


def _flat(shape: Shape, index: int) -> int:
    """Bit index -> row-major cell index from the top-left (row 0 at the top)."""
    col, row = divmod(index, shape.stride)
    return (shape.rows - 1 - row) * shape.columns + col


def _reachable(shape: Shape, x: int, o: int, won: bool) -> bool:
    """Whether alternating moves from the empty board can build this board
    (with the four, if any, completed by the very last move).

    Searches backwards, taking top stones off in reverse move order, over the
    column heights with memoisation: at most (rows + 1) ** columns states,
    usually a straight path.
    """
    heights = tuple(
        ((x | o) >> (c * shape.stride) & shape.column_bits).bit_length()
        for c in range(shape.columns)
    )
    total = sum(heights)
    seen: set[tuple[int, ...]] = set()
    bit = shape.bit

    def back(hs: tuple[int, ...], n: int) -> bool:
        if n == 0:
            return True
        if hs in seen:
            return False
        seen.add(hs)
        stones = x if n % 2 == 1 else o  # the n-th move was x's when n is odd
        for c in shape.centre_order:
            h = hs[c]
            if h and stones & bit(c, h - 1):
                rest = (*hs[:c], h - 1, *hs[c + 1 :])
                if back(rest, n - 1):
                    return True
        return False

    if not won:
        return back(heights, total)
    winner = x if total % 2 == 1 else o
    for c in range(shape.columns):
        h = heights[c]
        if h and winner & bit(c, h - 1):
            before = winner & ~bit(c, h - 1)
            if not shape.has_four(before):
                rest = (*heights[:c], h - 1, *heights[c + 1 :])
                if back(rest, total - 1):
                    return True
    return False
