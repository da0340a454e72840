"""Connect Four: 7 columns by 6 rows, stones drop to the lowest free cell,
four in a row (any direction) wins, a full board is a draw; x moves first.

Notation
--------
Positions are written either as the move sequence from the empty board, one
1-based column digit per move (``4453``; the empty board is ``""``), which is
the notation of the public benchmark sets, or as a grid: 6 rows from top to
bottom separated by ``/``, cells ``x``, ``o`` or ``.`` (``_`` and ``-`` also
mean empty; any case), optionally a space and the side to move. Output is the
move sequence when it is known, else the canonical grid with the side to move.

Moves are 0-based column numbers internally and 1-based digits in text.

Bit layout
----------
Boards are Python ints in Pascal Pons' layout, 7 bits per column with a
sentinel row on top, so that a column's stones never carry into the next::

    .  .  .  .  .  .  .     <- sentinel row (always 0)
    5 12 19 26 33 40 47
    4 11 18 25 32 39 46
    3 10 17 24 31 38 45
    2  9 16 23 30 37 44
    1  8 15 22 29 36 43
    0  7 14 21 28 35 42     <- bottom row
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from unbeatable.games.base import (
    Description,
    Game,
    IllegalMoveError,
    InvalidPositionError,
    Side,
    StaticEvaluation,
    side_from_counts,
)

X, O, EMPTY = "x", "o", "."
WIDTH, HEIGHT = 7, 6
CELLS = WIDTH * HEIGHT
_EMPTY_ALIASES = frozenset("._-")
#: Columns from the centre outwards: the strongest first guess in Connect Four.
CENTRE_ORDER: tuple[int, ...] = (3, 2, 4, 1, 5, 0, 6)
#: Results a game can end in (the search's Result without "unknown").
FinalResult = Literal["win", "draw", "loss"]
_CENTRE_RANK = {col: rank for rank, col in enumerate(CENTRE_ORDER)}

#: One bit per column, on the bottom row.
BOTTOM_ROW = sum(1 << (c * (HEIGHT + 1)) for c in range(WIDTH))
#: Every playable cell (the sentinel row excluded).
BOARD_MASK = BOTTOM_ROW * ((1 << HEIGHT) - 1)
#: Stones each player has when the board is full, plus one: Pons scores count
#: down from it (a win with one's n-th stone scores ``PONS_BASE - n``).
PONS_BASE = CELLS // 2 + 1


def bit(col: int, row: int) -> int:
    """The bit of cell (``col``, ``row``), row 0 at the bottom."""
    return 1 << (col * (HEIGHT + 1) + row)


def _four_masks() -> tuple[int, ...]:
    """Every line of four cells as a bitmask (69 of them)."""
    lines = []
    for c in range(WIDTH):
        for r in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                ec, er = c + 3 * dc, r + 3 * dr
                if 0 <= ec < WIDTH and 0 <= er < HEIGHT:
                    lines.append(sum(bit(c + i * dc, r + i * dr) for i in range(4)))
    return tuple(lines)


FOURS: tuple[int, ...] = _four_masks()
#: For every cell bit index, the fours through it (a move can only complete these).
_FOURS_THROUGH: dict[int, tuple[int, ...]] = {
    c * (HEIGHT + 1) + r: tuple(f for f in FOURS if f >> (c * (HEIGHT + 1) + r) & 1)
    for c in range(WIDTH)
    for r in range(HEIGHT)
}


def has_four(stones: int) -> bool:
    """Whether ``stones`` (one player's bitboard) contains four in a row.

    Shift-and-mask per direction: 1 = vertical, 7 = horizontal, 6 and 8 the
    diagonals; the sentinel row keeps lines from wrapping between columns.
    """
    for shift in (1, 7, 6, 8):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def mirror_bits(stones: int) -> int:
    """The bitboard reflected left-right (column c <-> 6 - c)."""
    out = 0
    for c in range(WIDTH):
        out |= ((stones >> (c * (HEIGHT + 1))) & 0x7F) << ((WIDTH - 1 - c) * (HEIGHT + 1))
    return out


# -- Pons scores ----------------------------------------------------------------


def win_now_score(stones: int) -> int:
    """Pons score of the side to move on a board of ``stones`` stones when it
    wins with its next stone (the opponent's score when the side to move
    loses to the opponent's next stone is ``-win_now_score(stones + 1)``).
    The solver's kernel compiles this very function."""
    return (CELLS + 1 - stones) // 2


def pons_score(stones: int, result: str, plies: int) -> int:
    """Score in Pons' convention for the side to move of a board with
    ``stones`` stones, from a result and the game's remaining length in plies.

    A win scores 22 minus the stones the winner has played when it connects
    four (winning stone included); a loss the negative of the opponent's
    winning score; a draw 0.
    """
    if result == "draw":
        return 0
    mine, theirs = stones // 2, stones - stones // 2
    if result == "win":
        return PONS_BASE - (mine + (plies + 1) // 2)
    if result == "loss":
        return -(PONS_BASE - (theirs + plies // 2))
    raise ValueError(f"no Pons score for result {result!r}")


def pons_outcome(stones: int, score: int) -> tuple[FinalResult, int]:
    """Inverse of :func:`pons_score`: ``(result, plies)`` for the side to move.

    Plies count half-moves to the end under perfect play (a draw fills the board).
    Raises ValueError for a score impossible with that many stones.
    """
    mine, theirs = stones // 2, stones - stones // 2
    result: FinalResult
    if score == 0:
        return "draw", CELLS - stones
    if score > 0:
        more = PONS_BASE - score - mine  # stones the side to move still plays, winning one included
        plies = 2 * more - 1
        result = "win"
    else:
        more = PONS_BASE + score - theirs
        plies = 2 * more
        result = "loss"
    if more < 1 or stones + plies > CELLS:
        raise ValueError(f"score {score} is impossible with {stones} stones on the board")
    return result, plies


# -- positions ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connect4Position:
    """A Connect Four board: ``x`` and ``o`` bitboards (layout in the module doc).

    Equality and hashing use the board only. ``moves`` is the move sequence
    (1-based digits) when known, None after a grid parse: it decides the
    printed notation but not identity, so transpositions compare equal.
    ``winner`` is derived data kept so nobody rescans the board.
    """

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
        return ((self.mask >> (col * (HEIGHT + 1))) & 0x7F).bit_length()


def predecessors(position: Connect4Position) -> Iterator[tuple[int, Connect4Position]]:
    """Every position one move earlier that leads here, with that move's
    column: a top stone of the player who moved last, taken back.

    The board does not say which stone came last, so a fact that holds for
    each predecessor holds for the position whatever its history.
    """
    last = position.x if position.to_move == O else position.o
    for col in range(WIDTH):
        height = position.height(col)
        top = bit(col, height - 1) if height else 0
        if top & last:
            yield col, Connect4Position(position.x & ~top, position.o & ~top, None, None)


def position_key(current: int, mask: int) -> int:
    """Pons' unique 49-bit key: the side to move's stones plus the mask.

    Adding the mask sets the bit just above each column's top stone and keeps
    the side to move's stones below it, so the key encodes the whole board.
    """
    return current + mask


def canonical_key(position: Connect4Position) -> int:
    """The smaller of the keys of the position and its mirror image (book keys)."""
    cur, mask = position.current(), position.mask
    return min(position_key(cur, mask), position_key(mirror_bits(cur), mirror_bits(mask)))


@lru_cache(maxsize=1)
def connect4() -> Connect4Game:
    """The standard 7x6 Connect Four rules (registry factory)."""
    return Connect4Game()


class Connect4Game(Game[Connect4Position, int]):
    """Rules of 7x6 Connect Four."""

    name = "connect4"
    players = (X, O)
    #: Exceeds the 42 plies of the longest game.
    win_score = 43

    def __repr__(self) -> str:
        return "Connect4Game()"

    def describe(self) -> Description:
        return Description(
            name=self.name,
            title="Connect Four",
            sides=(Side(X, "Red", "#ef4444"), Side(O, "Yellow", "#facc15")),
            rows=HEIGHT,
            columns=WIDTH,
            gravity=True,
            column_labels=tuple(str(c + 1) for c in range(WIDTH)),
            row_labels=(),
            goal="four in a row",
            keys=tuple((str(c + 1), str(c + 1)) for c in range(WIDTH)),
        )

    # -- positions ------------------------------------------------------------

    def initial(self) -> Connect4Position:
        return Connect4Position(0, 0, "")

    def to_move(self, position: Connect4Position) -> str:
        return position.to_move

    def winner(self, position: Connect4Position) -> str | None:
        return position.winner

    def is_terminal(self, position: Connect4Position) -> bool:
        return position.winner is not None or position.mask == BOARD_MASK

    def key(self, position: Connect4Position) -> int:
        return position_key(position.current(), position.mask)

    def moves(self, position: Connect4Position) -> list[int]:
        if position.winner is not None:
            return []
        mask = position.mask
        return [c for c in range(WIDTH) if not mask & bit(c, HEIGHT - 1)]

    def ordered_moves(self, position: Connect4Position) -> list[int]:
        legal = set(self.moves(position))
        return [c for c in CENTRE_ORDER if c in legal]

    def tie_break(self, position: Connect4Position, moves: Sequence[int]) -> Sequence[int]:
        return sorted(moves, key=_CENTRE_RANK.__getitem__)

    def static_evaluation(self) -> StaticEvaluation[Connect4Position]:
        """A classic hand-countable evaluation: each of the 69 lines of four
        that only one player has discs in counts for that player, once per
        disc (a line with three discs is closer to a four than a line with
        one); x's count minus o's. No line of an unfinished game holds four,
        so no estimate exceeds 69 * 3."""
        rule = (
            "each line of four cells holding discs of one player only counts for that "
            "player, once per disc in it: Red's (x) count minus Yellow's (o)"
        )
        return StaticEvaluation(rule, len(FOURS) * 3, _open_fours)

    def draw_plies(self, position: Connect4Position) -> int:
        return CELLS - position.stones

    def score(self, position: Connect4Position, result: str, plies: int) -> int:
        """Pons' convention (see :func:`pons_score`), the one of the public test sets."""
        return pons_score(position.stones, result, plies)

    def play(self, position: Connect4Position, move: int) -> Connect4Position:
        mask = position.mask
        cell = (mask + bit(move, 0)) & (0x7F << (move * (HEIGHT + 1)))
        moves = None if position.moves is None else position.moves + str(move + 1)
        index = cell.bit_length() - 1
        if position.stones % 2 == 0:
            x = position.x | cell
            won = any(x & f == f for f in _FOURS_THROUGH[index])
            return Connect4Position(x, position.o, moves, X if won else None)
        o = position.o | cell
        won = any(o & f == f for f in _FOURS_THROUGH[index])
        return Connect4Position(position.x, o, moves, O if won else None)

    def cell(self, position: Connect4Position, move: int) -> tuple[int, int]:
        """Where a disc dropped in column ``move`` lands (row 0 at the top)."""
        return HEIGHT - 1 - position.height(move), move

    def winning_moves(self, position: Connect4Position, player: str) -> list[int]:
        """Columns where a disc of ``player``'s would complete a four now."""
        if position.winner is not None:
            return []
        stones = position.x if player == X else position.o
        mask = position.mask
        found = []
        for col in range(WIDTH):
            if mask & bit(col, HEIGHT - 1):
                continue
            cell = (mask + bit(col, 0)) & (0x7F << (col * (HEIGHT + 1)))
            mine = stones | cell
            index = cell.bit_length() - 1
            if any(mine & f == f for f in _FOURS_THROUGH[index]):
                found.append(col)
        return found

    def winning_line(self, position: Connect4Position) -> tuple[int, ...] | None:
        """Flat indices (``row * 7 + col``, row 0 at the top) of a four that
        won the game, or None; the web and terminal highlight them."""
        if position.winner is None:
            return None
        stones = position.x if position.winner == X else position.o
        for four in FOURS:
            if stones & four == four:
                return tuple(sorted(_flat(i) for i in range(49) if four >> i & 1))
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

    def _parse_sequence(self, text: str) -> Connect4Position:
        position = self.initial()
        for number, ch in enumerate(text, start=1):
            if not "0" <= ch <= "9":
                raise InvalidPositionError(
                    f"unknown character {ch!r} at move {number}: expected a column digit 1-7 "
                    "(or a grid of 6 rows separated by '/')"
                )
            col = int(ch) - 1
            if not 0 <= col < WIDTH:
                raise InvalidPositionError(f"move {number}: column {ch} is outside 1-7")
            if position.winner is not None:
                raise InvalidPositionError(
                    f"move {number} (column {ch}) comes after the game was won by "
                    f"{position.winner} at move {number - 1}"
                )
            if position.mask & bit(col, HEIGHT - 1):
                raise InvalidPositionError(f"move {number}: column {ch} is full")
            position = self.play(position, col)
        return position

    def _parse_grid(self, text: str) -> Connect4Position:
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
        if len(rows) != HEIGHT:
            raise InvalidPositionError(
                f"wrong shape: expected {HEIGHT} rows separated by '/', got {len(rows)}"
            )
        x = o = 0
        for r, row in enumerate(rows):
            if len(row) != WIDTH:
                raise InvalidPositionError(
                    f"wrong shape: row {r + 1} has {len(row)} cells, expected {WIDTH}"
                )
            for c, ch in enumerate(row):
                low = ch.lower()
                if low == X:
                    x |= bit(c, HEIGHT - 1 - r)
                elif low == O:
                    o |= bit(c, HEIGHT - 1 - r)
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
        if x & o or (x | o) & ~BOARD_MASK:
            raise InvalidPositionError("overlapping or off-board stones")
        mask = x | o
        for c in range(WIDTH):
            column = (mask >> (c * (HEIGHT + 1))) & 0x7F
            if column & (column + 1):
                raise InvalidPositionError(
                    f"floating stone in column {c + 1}: a stone sits above an empty cell"
                )
        inferred = side_from_counts(x.bit_count(), o.bit_count(), side, self.players, "stones")
        x_won, o_won = has_four(x), has_four(o)
        if x_won and o_won:
            raise InvalidPositionError("both x and o have four in a row")
        last = O if inferred == X else X
        winner = X if x_won else O if o_won else None
        if winner is not None and winner != last:
            raise InvalidPositionError(
                f"{winner} has four in a row, but {last} moved after the game was won"
            )
        if not _reachable(x, o, winner is not None):
            detail = (
                "no last move completes every four (moves were made after the win)"
                if winner is not None
                else "no alternating order of moves x, o, x, ... builds these columns"
            )
            raise InvalidPositionError(f"unreachable position: {detail}")
        return Connect4Position(x, o, "" if mask == 0 else None, winner)

    def format(self, position: Connect4Position) -> str:
        if position.moves is not None:
            return position.moves
        return f"{self.grid(position)} {position.to_move}"

    def grid(self, position: Connect4Position) -> str:
        """The board as 6 rows from top to bottom separated by ``/`` (no side to move)."""
        rows = []
        for r in range(HEIGHT - 1, -1, -1):
            rows.append(
                "".join(
                    X if position.x & bit(c, r) else O if position.o & bit(c, r) else EMPTY
                    for c in range(WIDTH)
                )
            )
        return "/".join(rows)

    # -- moves ----------------------------------------------------------------

    def format_move(self, move: int) -> str:
        return str(move + 1)

    def move_fields(self, move: int) -> dict[str, int]:
        return {"col": move}

    def parse_move(self, position: Connect4Position, text: str) -> int:
        t = text.strip() if isinstance(text, str) else ""
        if len(t) != 1 or not "0" <= t <= "9":
            raise IllegalMoveError(f"bad move {text!r}: expected a column digit 1-7")
        col = int(t) - 1
        if not 0 <= col < WIDTH:
            raise IllegalMoveError(f"column {t} is outside 1-7")
        if self.is_terminal(position):
            raise IllegalMoveError("the game is over: no more moves")
        if position.mask & bit(col, HEIGHT - 1):
            raise IllegalMoveError(f"column {t} is full")
        return col


def _open_fours(position: Connect4Position) -> int:
    """x's discs in lines of four that o has no disc in, minus o's discs in
    lines x has none in (:meth:`Connect4Game.static_evaluation`)."""
    x, o = position.x, position.o
    value = 0
    for four in FOURS:
        if not four & o:
            value += (four & x).bit_count()
        elif not four & x:
            value -= (four & o).bit_count()
    return value


def _flat(index: int) -> int:
    """Bit index -> row-major cell index from the top-left (row 0 at the top)."""
    col, row = divmod(index, HEIGHT + 1)
    return (HEIGHT - 1 - row) * WIDTH + col


def _reachable(x: int, o: int, won: bool) -> bool:
    """Whether alternating moves from the empty board can build this board
    (with the four, if any, completed by the very last move).

    Searches backwards, taking top stones off in reverse move order, over the
    column heights with memoisation: at most 7**7 states, usually a straight path.
    """
    heights = tuple(((x | o) >> (c * (HEIGHT + 1)) & 0x7F).bit_length() for c in range(WIDTH))
    total = sum(heights)
    seen: set[tuple[int, ...]] = set()

    def back(hs: tuple[int, ...], n: int) -> bool:
        if n == 0:
            return True
        if hs in seen:
            return False
        seen.add(hs)
        stones = x if n % 2 == 1 else o  # the n-th move was x's when n is odd
        for c in CENTRE_ORDER:
            h = hs[c]
            if h and stones & bit(c, h - 1):
                rest = (*hs[:c], h - 1, *hs[c + 1 :])
                if back(rest, n - 1):
                    return True
        return False

    if not won:
        return back(heights, total)
    winner = x if total % 2 == 1 else o
    for c in range(WIDTH):
        h = heights[c]
        if h and winner & bit(c, h - 1):
            before = winner & ~bit(c, h - 1)
            if not has_four(before):
                rest = (*heights[:c], h - 1, *heights[c + 1 :])
                if back(rest, total - 1):
                    return True
    return False
