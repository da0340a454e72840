"""Threats of k in a row: the shapes on the board and what a move makes and stops.

A player explains a Gomoku move by its threats, not by its value: it makes an
open four, it blocks the opponent's four, it is forbidden for black. These are
facts of the rules, read off the lines through a cell, and they follow the
game's rule (``game.rule``: freestyle, standard or renju): where exactly k in
a row wins (standard, and black in renju) an overline is no five, so a line
that would become one is no four; in renju black's three counts only if the
point of its open four is not forbidden, and black's forbidden points are
named with their reason.

The shapes, named as in Gomoku (k = 5) and by k - 1 and k - 2 elsewhere (where
four in a row wins, a "four" is three stones: :func:`shape_name`):

* a **five**: k in a row, the game won;
* a **four**: one move from a five, at its one *point*;
* an **open four**: k - 1 in a row with a point at both ends: it cannot be
  stopped;
* an **open three**: one move (at one of its points) from an open four; the
  other side stops it at one of its *defences*.

Everything is read from the lines of 2k + 1 cells through a cell, in each of
the four directions, as short strings (``o`` the side's stone, ``#`` the other
side's or the board's edge, ``.`` empty) whose meaning is remembered: a
Gomoku board's facts cost a few milliseconds. The words are here too, once
(:func:`shape_words`, :func:`move_words`, :func:`threat_words`): every face
says them as the rules name them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple

from unbeatable.games.mnk import EMPTY, MNKGame, MNKPosition, Rule
from unbeatable.games.renju import Forbidden

_NUMBERS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty",
)  # fmt: skip
#: A line's cells as the analysis of one side reads them.
OWN, BLOCKED, OPEN = "o", "#", "."
#: The four directions of a line: along a row, down a column, and both diagonals.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
#: The player renju's forbidden points bind (the first, who plays black).
BLACK = "black"


class Kind(StrEnum):
    """A shape on the board, named as in Gomoku (:func:`shape_name` names it
    for any k)."""

    five = "five"
    open_four = "open four"
    four = "four"
    open_three = "open three"


class Makes(StrEnum):
    """What a move makes, the strongest first, named as in Gomoku: a five;
    threats the other side cannot answer with one stone (an open four, two
    fours, a four and an open three); one that must be answered (a four);
    two open threes; one open three."""

    five = "five"
    open_four = "open four"
    double_four = "double four"
    four_three = "four-three"
    four = "four"
    double_three = "double three"
    open_three = "open three"


#: What wins unless the other side wins first: the point of a winning threat.
WINNING = frozenset({Makes.five, Makes.open_four, Makes.double_four, Makes.four_three})


class Shape(NamedTuple):
    """One side's shape on one line of the board."""

    side: str
    kind: Kind
    #: The side's stones that make it, in the line's order.
    stones: tuple[int, ...]
    #: Empty cells: where a four or an open four becomes a five, where an open
    #: three becomes an open four.
    points: tuple[int, ...] = ()
    #: Empty cells where the other side's stone stops it (a four: its point;
    #: an open three: its points and the cells that spoil its open four);
    #: none for an open four or a five.
    defences: tuple[int, ...] = ()


class Board(NamedTuple):
    """The threats standing on a board: every four, open four and open three
    of both sides, and renju's forbidden points for black."""

    shapes: tuple[Shape, ...]
    #: Black's forbidden points and why (``"double three"``): renju only.
    forbidden: dict[int, str]
    #: Per side, the empty cells where it would make two threats at one
    #: stroke (a double four, a four-three), were it its move; in renju
    #: black's forbidden points left out.
    combos: dict[str, dict[int, Makes]]

    def of(self, side: str) -> list[Shape]:
        return [shape for shape in self.shapes if shape.side == side]

    def stopped_at(self, side: str) -> dict[int, list[Shape]]:
        """``side``'s fours and open threes by the cells that stop them (a
        four's point, an open three's defences)."""
        return _stopped_at(self.shapes, side)


@lru_cache(maxsize=64)
def _stopped_at(shapes: tuple[Shape, ...], side: str) -> dict[int, list[Shape]]:
    found: dict[int, list[Shape]] = {}
    for shape in shapes:
        if shape.side != side:
            continue
        cells = shape.points if shape.kind is Kind.four else ()
        cells = shape.defences if shape.kind is Kind.open_three else cells
        for cell in cells:
            found.setdefault(cell, []).append(shape)
    return found


class MoveFacts(NamedTuple):
    """What one move does in the game's terms."""

    move: int
    side: str
    #: The strongest thing it makes (None: no threat).
    makes: Makes | None
    #: The shapes it makes, the strongest first.
    made: tuple[Shape, ...]
    #: The other side's shapes it stops.
    stops: tuple[Shape, ...]
    #: The other side's double four or four-three whose point it takes.
    takes: Makes | None = None


# -- reading lines ------------------------------------------------------------------


class _Line(NamedTuple):
    """One side's line through a cell it holds (the centre of a window of
    2k + 1 cells); cells are indices into the window."""

    #: The five through the centre: its first and last index.
    five: tuple[int, int] | None
    #: Each empty cell that makes a five with the centre: (point, stones).
    fours: tuple[tuple[int, tuple[int, ...]], ...]
    #: k - 1 in a row through the centre with a point at both ends: its
    #: stones (empty if none).
    open_four: tuple[int, ...]
    #: Each empty cell that makes an open four with the centre: (point, the
    #: open four's other stones).
    threes: tuple[tuple[int, tuple[int, ...]], ...]


def _run(window: str, at: int) -> tuple[int, int]:
    """The first and last index of the run of own stones through ``at``."""
    lo = hi = at
    while lo > 0 and window[lo - 1] == OWN:
        lo -= 1
    while hi < len(window) - 1 and window[hi + 1] == OWN:
        hi += 1
    return lo, hi


@lru_cache(maxsize=1 << 16)
def _line(window: str, exact: bool) -> _Line:
    """What the side holding the window's centre has on that line. ``exact``:
    only exactly k in a row wins (an overline is no five).

    A point that makes a five with the centre, or an open four with it, is
    next to the centre's run: the cells between them must be the side's."""
    k = len(window) // 2
    lo, hi = _run(window, k)

    def wins(length: int) -> bool:
        return length == k if exact else length >= k

    if wins(hi - lo + 1):
        return _Line((lo, hi), (), (), ())
    fours = []
    for point in (lo - 1, hi + 1):
        if 0 <= point < len(window) and window[point] == OPEN:
            placed = window[:point] + OWN + window[point + 1 :]
            a, b = _run(placed, point)
            if wins(b - a + 1):
                fours.append((point, tuple(i for i in range(a, b + 1) if i != point)))
    open_four = tuple(range(lo, hi + 1)) if hi - lo + 2 == k and len(fours) == 2 else ()
    threes = []
    if not fours:
        for point in (lo - 1, hi + 1):
            if 0 < point < len(window) - 1 and window[point] == OPEN:
                placed = window[:point] + OWN + window[point + 1 :]
                if _line(placed, exact).open_four:
                    a, b = _run(placed, k)
                    threes.append((point, tuple(i for i in range(a, b + 1) if i != point)))
    return _Line(None, tuple(fours), open_four, tuple(threes))


class _Geometry(NamedTuple):
    """Every cell's lines: per cell, per direction, the cells of the window
    of 2k + 1 around it (the board's size stands for off the board), and a
    getter that reads them from a board string with one cell past its end."""

    cells: tuple[tuple[tuple[int, ...], ...], ...]
    getters: tuple[tuple[Any, ...], ...]


@lru_cache(maxsize=16)
def _geometry(rows: int, columns: int, k: int) -> _Geometry:
    size = rows * columns
    cells = []
    for cell in range(size):
        r, c = divmod(cell, columns)
        lines = []
        for dr, dc in DIRECTIONS:
            line = []
            for i in range(-k, k + 1):
                rr, cc = r + dr * i, c + dc * i
                line.append(rr * columns + cc if 0 <= rr < rows and 0 <= cc < columns else size)
            lines.append(tuple(line))
        cells.append(tuple(lines))
    getters = tuple(tuple(itemgetter(*line) for line in lines) for lines in cells)
    return _Geometry(tuple(cells), getters)


class _Reader:
    """One side's view of one board: windows, and the rule that applies."""

    def __init__(self, game: MNKGame, cells: str, side: str) -> None:
        self.game, self.cells, self.side = game, cells, side
        other = next(p for p in game.players if p != side)
        self.board = cells.translate(str.maketrans(side + other, OWN + BLOCKED)) + BLOCKED
        self.geometry = _geometry(game.rows, game.columns, game.k)
        self.exact = exact_five(game, side)
        self.k = game.k
        # Renju: black's three counts only where its four point is allowed.
        self.checks_forbidden = is_renju(game) and side == game.players[0]

    def window(self, cell: int, direction: int, placed: bool = False) -> str:
        text = "".join(self.geometry.getters[cell][direction](self.board))
        if placed:
            text = text[: self.k] + OWN + text[self.k + 1 :]
        return text

    def cell_at(self, cell: int, direction: int, index: int) -> int:
        return self.geometry.cells[cell][direction][index]

    def ordered(self, cells: Iterable[int]) -> tuple[int, ...]:
        """Cells of a line as players name them: from the left, and up a
        column from the bottom (``g8``, ``h9``, ``i10``)."""
        columns = self.game.columns
        return tuple(sorted(cells, key=lambda i: (i % columns, -(i // columns))))

    def allowed(self, point: int, cells: str) -> bool:
        """Whether the side may play ``point`` on ``cells`` (renju's black)."""
        if not self.checks_forbidden:
            return True
        return forbidden_reason(self.game, cells, point) is None

    def shapes(
        self, cell: int, placed: bool, cells: str, blocked: int | None = None
    ) -> list[Shape]:
        """The side's shapes through ``cell`` (its stone, or placed there);
        ``blocked``: a cell the other side has taken since this board."""
        found: list[Shape] = []
        for d in range(len(DIRECTIONS)):
            window = self.window(cell, d, placed)
            line_cells = self.geometry.cells[cell][d]
            if blocked is not None and blocked in line_cells:
                at_blocked = line_cells.index(blocked)
                window = window[:at_blocked] + BLOCKED + window[at_blocked + 1 :]
            line = _line(window, self.exact)

            def at(indices: Iterable[int], d: int = d) -> tuple[int, ...]:
                return self.ordered(self.cell_at(cell, d, i) for i in indices)

            if line.five is not None:
                lo, hi = line.five
                found.append(Shape(self.side, Kind.five, at(range(lo, hi + 1))))
                continue
            if line.open_four:
                points = at(p for p, _ in line.fours)
                found.append(Shape(self.side, Kind.open_four, at(line.open_four), points))
                continue
            for point, stones in line.fours:
                found.append(Shape(self.side, Kind.four, at(stones), at([point]), at([point])))
            by_stones: dict[tuple[int, ...], list[int]] = {}
            for point, stones in line.threes:
                target = self.cell_at(cell, d, point)
                if self.allowed(target, cells):
                    by_stones.setdefault(at(stones), []).append(target)
            for three, targets in by_stones.items():
                found.append(Shape(self.side, Kind.open_three, three, tuple(targets)))
        return found

    def defences(self, three: Shape, cells: str) -> tuple[int, ...]:
        """The empty cells where the other side's stone leaves ``three`` no
        open four to make: on its line, within two cells of its stones."""
        stones = three.stones
        middle = stones[len(stones) // 2]
        d = _direction(self.game, stones)
        line = self.geometry.cells[middle][d]
        window = self.window(middle, d)
        at = sorted(line.index(stone) for stone in stones)
        first, last = at[0], at[-1]
        found: list[int] = []
        for i in range(max(0, first - 2), min(len(line), last + 3)):
            if window[i] != OPEN:
                continue
            blocked = window[:i] + BLOCKED + window[i + 1 :]
            left = _line(blocked, self.exact)
            keeps = left.open_four or any(
                set(stones) <= {line[j] for j in (*others, point)}
                and self.allowed(line[point], cells)
                for point, others in left.threes
            )
            if not keeps:
                found.append(line[i])
        return self.ordered(found)


@lru_cache(maxsize=64)
def _reader(game: MNKGame, cells: str, side: str) -> _Reader:
    """One side's reader of a board, kept while the board is being explained."""
    return _Reader(game, cells, side)


def _direction(game: MNKGame, stones: Sequence[int]) -> int:
    """The direction of the line through two or more cells."""
    (r0, c0), (r1, c1) = divmod(stones[0], game.columns), divmod(stones[1], game.columns)
    step = (_sign(r1 - r0), _sign(c1 - c0))
    return DIRECTIONS.index(step) if step in DIRECTIONS else DIRECTIONS.index((-step[0], -step[1]))


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


# -- the rule ---------------------------------------------------------------------


def is_renju(game: MNKGame) -> bool:
    """Whether black's forbidden points bind (``game.rule`` is renju)."""
    return game.rule == Rule.RENJU


def exact_five(game: MNKGame, side: str) -> bool:
    """Whether only exactly k in a row wins for ``side`` (standard: both;
    renju: black), as the rules object says."""
    return side in game.exact


def forbidden_points(game: MNKGame, position: MNKPosition) -> dict[int, str]:
    """Black's forbidden points and why, as the rules say (renju only),
    whoever is to move: white plays against them too."""
    if not is_renju(game) or position.winner is not None:
        return {}
    return game.forbidden(MNKPosition(position.cells, game.players[0]))


def forbidden_reason(game: MNKGame, cells: str, point: int) -> str | None:
    """Why black may not play ``point`` on the board ``cells`` (None: it
    may), whoever is to move there: black's threes look one move ahead, on
    boards nobody asked about as a whole, so one point is read, not the
    board's every point (the rules' own detector, :mod:`games.renju`)."""
    if not is_renju(game):
        return None
    return _detector(game.rows, game.columns).reason(cells, point)


@lru_cache(maxsize=8)
def _detector(rows: int, columns: int) -> Forbidden:
    return Forbidden(rows, columns)


# -- the facts ------------------------------------------------------------------------


def supports(game: Any) -> bool:
    """Whether the game's moves are explained by threats: k in a row with k
    of 4 or more (below that nobody names threats)."""
    return isinstance(game, MNKGame) and 4 <= game.k < len(_NUMBERS)


def read(game: MNKGame, position: MNKPosition) -> Board:
    """Every four, open four and open three on the board, of both sides,
    each once, and renju's forbidden points."""
    cells = position.cells
    shapes: dict[tuple[str, str, tuple[int, ...]], Shape] = {}
    for side in game.players:
        reader = _reader(game, cells, side)
        for cell in (i for i, mark in enumerate(cells) if mark == side):
            for shape in reader.shapes(cell, placed=False, cells=cells):
                if shape.kind is Kind.five:
                    continue  # an overline that does not win (standard): no threat
                key = (side, shape.kind, shape.stones)
                known = shapes.get(key)
                if known is None:
                    shapes[key] = shape
                elif shape.kind is Kind.open_three:
                    points = tuple(dict.fromkeys((*known.points, *shape.points)))
                    shapes[key] = known._replace(points=points)
        for seen, shape in list(shapes.items()):
            if shape.side == side and shape.kind is Kind.open_three:
                shapes[seen] = shape._replace(defences=reader.defences(shape, cells))
    # A four at a point of an open four is that open four read from its far
    # side (x x x x . x in freestyle): said once.
    ends = {(s.side, p) for s in shapes.values() if s.kind is Kind.open_four for p in s.points}
    ordered = sorted(
        (s for s in shapes.values() if not (s.kind is Kind.four and (s.side, s.points[0]) in ends)),
        key=lambda s: (_KIND_ORDER[s.kind], s.stones),
    )
    combos: dict[str, dict[int, Makes]] = {
        side: {
            point: makes
            for point, makes in winning_points(game, position, side).items()
            if makes in (Makes.double_four, Makes.four_three)
        }
        for side in game.players
    }
    return Board(tuple(ordered), forbidden_points(game, position), combos)


_KIND_ORDER = {Kind.five: 0, Kind.open_four: 1, Kind.four: 2, Kind.open_three: 3}


def move_facts(
    game: MNKGame, position: MNKPosition, move: int, board: Board | None = None
) -> MoveFacts:
    """What ``move`` does for the side to move: the shapes it makes through
    its cell, the strongest of them by name, and the other side's shapes
    it stops (a four at its point, an open three at one of its defences).
    ``board``: :func:`read` of ``position``, when already known."""
    side = position.to_move
    board = board if board is not None else read(game, position)
    cells = position.cells
    after = cells[:move] + side + cells[move + 1 :]
    made = tuple(_reader(game, cells, side).shapes(move, placed=True, cells=after))
    other = next(p for p in game.players if p != side)
    stops = tuple(board.stopped_at(other).get(move, ()))
    takes = board.combos[other].get(move)
    return MoveFacts(move, side, strongest(made), _strongest_first(made), stops, takes)


def made_by(game: MNKGame, position: MNKPosition, move: int) -> MoveFacts:
    """What ``move`` makes for the side to move (not what it stops): cheap
    enough for every empty cell, to find a side's winning points."""
    side = position.to_move
    cells = position.cells
    after = cells[:move] + side + cells[move + 1 :]
    made = tuple(_reader(game, cells, side).shapes(move, placed=True, cells=after))
    return MoveFacts(move, side, strongest(made), _strongest_first(made), ())


def made_in_reply(game: MNKGame, position: MNKPosition, move: int, reply: int) -> MoveFacts:
    """What ``reply`` makes for the other side after ``move`` of the side to
    move: :func:`made_by` on the board after ``move``, read from this board's
    lines (every move of an analysis has its reply; their boards differ by
    one stone each)."""
    side = position.to_move
    other = next(p for p in game.players if p != side)
    cells = position.cells
    after = cells[:move] + side + cells[move + 1 :]
    after = after[:reply] + other + after[reply + 1 :]
    reader = _reader(game, cells, other)
    made = tuple(reader.shapes(reply, placed=True, cells=after, blocked=move))
    return MoveFacts(reply, other, strongest(made), _strongest_first(made), ())


def strongest(made: Sequence[Shape]) -> Makes | None:
    """The name of what a move makes with ``made``, its shapes through one cell."""
    kinds = [shape.kind for shape in made]
    fours = kinds.count(Kind.four)
    threes = kinds.count(Kind.open_three)
    if Kind.five in kinds:
        return Makes.five
    if Kind.open_four in kinds:
        return Makes.open_four
    if fours >= 2:
        return Makes.double_four
    if fours and threes:
        return Makes.four_three
    if fours:
        return Makes.four
    if threes >= 2:
        return Makes.double_three
    if threes:
        return Makes.open_three
    return None


def _strongest_first(made: Sequence[Shape]) -> tuple[Shape, ...]:
    return tuple(sorted(made, key=lambda s: _KIND_ORDER[s.kind]))


def winning_points(game: MNKGame, position: MNKPosition, side: str) -> dict[int, Makes]:
    """The empty cells where ``side`` would make a winning threat (a five, an
    open four, two fours, a four-three), were it ``side``'s move; in renju
    black's forbidden points left out."""
    cells = position.cells
    view = MNKPosition(cells, side)
    near_cells = near(game, cells)
    found: dict[int, Makes] = {}
    for cell in near_cells:
        makes = made_by(game, view, cell).makes
        if (
            makes is not None
            and makes in WINNING
            and (
                makes is Makes.five
                or not (is_renju(game) and side == game.players[0])
                or forbidden_reason(game, cells, cell) is None
            )
        ):
            found[cell] = makes
    return found


def near(game: MNKGame, cells: str) -> list[int]:
    """The empty cells within k - 1 of a stone along a line, in board order:
    only there can a stone make a threat with others."""
    return list(_near(game.rows, game.columns, game.k, cells))


@lru_cache(maxsize=64)
def _near(rows: int, columns: int, k: int, cells: str) -> tuple[int, ...]:
    lines = _geometry(rows, columns, k).cells
    size = len(cells)
    found: set[int] = set()
    for stone in (i for i, mark in enumerate(cells) if mark != EMPTY):
        for line in lines[stone]:
            found.update(i for i in line[1:-1] if i < size and cells[i] == EMPTY)
    return tuple(sorted(found))


# -- words ----------------------------------------------------------------------------


def shape_name(kind: str, k: int) -> str:
    """A shape's or a move's name where ``k`` in a row wins (``kind`` as in
    Gomoku): ``four``, ``open three``, ``four-three``; where four in a row
    wins ``three``, ``open two``, ``three-two``. A five is ``five in a row``."""
    if kind == Kind.five:
        return f"{_NUMBERS[k]} in a row"
    counts = {"four": _NUMBERS[k - 1], "three": _NUMBERS[k - 2]}
    words = []
    for word in kind.split(" "):
        words.append("-".join(counts.get(part, part) for part in word.split("-")))
    return " ".join(words)


def _a(noun: str) -> str:
    """``a four``, ``an open three``; no article for ``five in a row``."""
    if noun.endswith(" in a row"):
        return noun
    return ("an " if noun[0] in "aeio" else "a ") + noun


@lru_cache(maxsize=64)
def side_word(game: MNKGame, side: str) -> str:
    """How the words call a side: its mark (``x``), or its name where the
    game gives it one longer than a letter (``black``)."""
    for described in game.describe().sides:
        if described.mark == side and len(described.name) > 1:
            return described.name.lower()
    return side


def span(game: MNKGame, cells: Sequence[int]) -> str:
    """A shape's place: its first and last stone, ``g8-j11``."""
    if len(cells) == 1:
        return game.format_move(cells[0])
    return f"{game.format_move(cells[0])}\N{EN DASH}{game.format_move(cells[-1])}"


def shape_words(game: MNKGame, shape: Shape, owner: bool = True) -> str:
    """``x's four (g8-j11)``; without ``owner``, ``a four (g8-j11)``."""
    name = shape_name(shape.kind, game.k)
    where = f" ({span(game, shape.stones)})"
    if owner:
        return f"{side_word(game, shape.side)}'s {name}{where}"
    return _a(name) + where


def made_words(game: MNKGame, facts: MoveFacts) -> str | None:
    """What a move makes: ``five in a row (g8-k12)``, ``an open four
    (h8-k8)``, ``a four-three (h9-k9, h9-h11)``; None for nothing."""
    if facts.makes is None:
        return None
    name = shape_name(facts.makes, game.k)
    if facts.makes in (Makes.double_four, Makes.four_three, Makes.double_three):
        shown = [s for s in facts.made if s.kind in (Kind.four, Kind.open_three)][:2]
    else:
        shown = [next(s for s in facts.made if s.kind.value == facts.makes.value)]
    return f"{_a(name)} ({', '.join(span(game, s.stones) for s in shown)})"


def move_words(game: MNKGame, facts: MoveFacts) -> list[str]:
    """What a move does, in the game's words, each a phrase: ``wins with five
    in a row (g8-k12)``, ``blocks x's four (g8-j11)``, ``stops x's open
    three (f5-h7)``, ``makes an open four (h8-k8)``."""
    made = made_words(game, facts)
    words = []
    if facts.makes is Makes.five and made is not None:
        return [f"wins with {made}"]
    for shape in facts.stops:
        verb = "blocks" if shape.kind is Kind.four else "stops"
        words.append(f"{verb} {shape_words(game, shape)}")
    if facts.takes is not None:
        other = next(p for p in game.players if p != facts.side)
        name = shape_name(facts.takes, game.k)
        words.append(f"takes the point of {side_word(game, other)}'s {name}")
    if made is not None:
        words.append(f"makes {made}")
    return words


def forbidden_words(game: MNKGame, reason: str) -> str:
    """``forbidden for black: double three``."""
    return f"forbidden for {BLACK}: {reason}"


def threat_words(
    game: MNKGame, position: MNKPosition, side: str, board: Board | None = None
) -> str | None:
    """``side``'s strongest threat on the board, as a noun phrase for after
    the side's name (``has …``) or possessive (``'s …``): ``an open four
    (h8-k8)``, ``two fours (g8-j11, a1-d4)``, ``a four (g8-j11)``, ``a
    four-three at h9``, ``an open three (f5-h7)``; None when it has none."""
    board = board if board is not None else read(game, position)
    own = board.of(side)
    open_fours = [s for s in own if s.kind is Kind.open_four]
    if open_fours:
        return shape_words(game, open_fours[0], owner=False)
    fours = [s for s in own if s.kind is Kind.four]
    points = {p for s in fours for p in s.points}
    if len(points) >= 2:
        name = f"two {shape_name(Kind.four, game.k)}s"
        return f"{name} ({', '.join(span(game, s.stones) for s in fours[:2])})"
    said = [shape_words(game, fours[0], owner=False)] if fours else []
    # Two threats at one stroke, at a point; else the open threes whose
    # open four wins (named as the threes, as players say it).
    combos = board.combos[side]
    threes = [s for s in own if s.kind is Kind.open_three]
    if combos:
        point, makes = min(combos.items(), key=lambda item: (_MAKES_ORDER[item[1]], item[0]))
        said.append(f"{_a(shape_name(makes, game.k))} at {game.format_move(point)}")
    elif len(threes) >= 2:
        name = f"two {shape_name(Kind.open_three, game.k)}s"
        said.append(f"{name} ({', '.join(span(game, s.stones) for s in threes[:2])})")
    elif threes:
        said.append(shape_words(game, threes[0], owner=False))
    return " and ".join(said) or None


_MAKES_ORDER = {makes: i for i, makes in enumerate(Makes)}
