"""Gomoku as people play it: three rule sets on square boards of 15 to 22.

The family ``gomoku:RULE[,SIZE]`` (any letter case):

* ``freestyle``: five or more in a row wins, for both players (``gomoku``
  itself is ``gomoku:freestyle,15``, the 15,15,5-game).
* ``standard``: exactly five wins, for both players; six or more in a row
  wins nothing, and the game goes on.
* ``renju``: the RIF rules. Black (``x``, who moves first) wins with exactly
  five and may not play a forbidden point: a move that makes a double three,
  a double four or an overline (:mod:`unbeatable.games.renju` says exactly
  what those are), unless it makes a five at the same time. White (``o``)
  has no forbidden points and wins with five or more. ``renju`` is
  ``gomoku:renju,15``.

SIZE is the board's side, 15 (the default) to 22. Positions and moves are
written as every m,n,k-game's (:mod:`unbeatable.games.mnk`); black is always
``x``. A forbidden point is no legal move: :meth:`GomokuGame.moves` leaves
it out and :meth:`GomokuGame.parse_move` refuses it with the reason.
"""

from __future__ import annotations

from functools import lru_cache

from unbeatable.games.base import Description, IllegalMoveError, InvalidPositionError
from unbeatable.games.mnk import _NUMBER_WORDS, EMPTY, MNKGame, MNKPosition, O, Rule, X
from unbeatable.games.renju import DOUBLE_FOUR, DOUBLE_THREE, OVERLINE, Forbidden

__all__ = [
    "DOUBLE_FOUR",
    "DOUBLE_THREE",
    "MAX_SIZE",
    "MIN_SIZE",
    "OVERLINE",
    "GomokuGame",
    "Rule",
    "gomoku",
    "gomoku_game",
    "renju",
]

#: The board sides the family is played on: 15 (the rule sets' own board)
#: to 22 (the biggest a tournament engine accepts).
MIN_SIZE, MAX_SIZE = 15, 22
DEFAULT_SIZE = 15
#: Registry names of the family's named members.
_NAMED = {(Rule.FREESTYLE, DEFAULT_SIZE): "gomoku", (Rule.RENJU, DEFAULT_SIZE): "renju"}
_TITLE = {Rule.FREESTYLE: "Gomoku", Rule.STANDARD: "Gomoku (exactly five)", Rule.RENJU: "Renju"}
#: What wins, as the faces say it ("X: five in a row on h8-l8.").
_GOAL = {
    Rule.FREESTYLE: "five in a row",
    Rule.STANDARD: "exactly five in a row",
    Rule.RENJU: (
        "five in a row (black exactly five, and black may not make "
        "a double three, a double four or an overline)"
    ),
}
#: Who needs exactly five: nobody, both, black.
_EXACT = {Rule.FREESTYLE: frozenset(), Rule.STANDARD: frozenset((X, O)), Rule.RENJU: frozenset(X)}
_FORMS = "gomoku:RULE[,SIZE] with RULE freestyle, standard or renju and SIZE 15-22"


class GomokuGame(MNKGame):
    """Gomoku under ``rule`` on a ``size`` x ``size`` board; an m,n,k-game
    (five in a row), so everything that serves those serves it."""

    def __init__(self, rule: Rule, size: int = DEFAULT_SIZE) -> None:
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"Gomoku boards are {MIN_SIZE}-{MAX_SIZE} a side, not {size}")
        rule = Rule(rule)
        name = _NAMED.get((rule, size), f"gomoku:{rule},{size}")
        super().__init__(size, size, 5, name=name, exact=_EXACT[rule])
        self.rule = rule
        self._renju = rule is Rule.RENJU
        self._detector = Forbidden(size, size)
        # The points of a board are asked for again and again (moves, the
        # parse of a move, the end of the game): read once per board.
        self._points = lru_cache(maxsize=1 << 14)(self._detector.points)

    def __repr__(self) -> str:
        return f"GomokuGame({str(self.rule)!r}, {self.rows})"

    def describe(self) -> Description:
        base = super().describe()
        title = _TITLE[self.rule]
        if self.name not in ("gomoku", "renju"):
            title += f", {self.rows}\N{MULTIPLICATION SIGN}{self.columns}"
        x, o = base.sides
        if self._renju:  # the rules name the colours
            x, o = x._replace(name="Black"), o._replace(name="White")
        return base._replace(
            title=title,
            sides=(x, o),
            goal=_GOAL[self.rule],
            notation=(
                "Rows from the top separated by /, cells x (black, who moves first), o (white) "
                f"or . (empty), then the side to move: {self.format(self.play(self.initial(), 0))}"
            ),
        )

    def win_reason(self, position: MNKPosition) -> str | None:
        """Renju's winner in plain words (its goal states the whole rule):
        five in a row, or white's longer row."""
        if not self._renju or position.winner is None or position.line is None:
            return None
        if position.winner == X:
            return "five in a row"
        return f"{_NUMBER_WORDS[self._run(position.cells, position.line) - 1]} in a row"

    def _run(self, cells: str, line: tuple[int, ...]) -> int:
        """How many stones long the row holding ``line`` is."""
        mark = cells[line[0]]
        (r0, c0), (r1, c1) = divmod(line[0], self.columns), divmod(line[1], self.columns)
        dr, dc = r1 - r0, c1 - c0
        length = len(line)
        for sign, (r, c) in ((-1, (r0, c0)), (1, divmod(line[-1], self.columns))):
            while True:
                r, c = r + sign * dr, c + sign * dc
                if not (0 <= r < self.rows and 0 <= c < self.columns):
                    break
                if cells[r * self.columns + c] != mark:
                    break
                length += 1
        return length

    # -- forbidden points -----------------------------------------------------

    def forbidden(self, position: MNKPosition) -> dict[int, str]:
        """Black's forbidden points, cell -> ``"double three"``, ``"double
        four"`` or ``"overline"``: empty unless renju with black to move in a
        game still running."""
        if not self._renju or position.to_move != X or position.winner is not None:
            return {}
        return dict(self._points(position.cells))

    def forbidden_reason(self, position: MNKPosition, move: int) -> str | None:
        if not self._renju or position.to_move != X or position.winner is not None:
            return None
        return self._points(position.cells).get(move)

    def moves(self, position: MNKPosition) -> list[int]:
        found = super().moves(position)
        if self._renju and position.to_move == X and found:
            points = self._points(position.cells)
            if points:
                return [move for move in found if move not in points]
        return found

    def ordered_moves(self, position: MNKPosition) -> list[int]:
        found = super().ordered_moves(position)
        if self._renju and position.to_move == X and found:
            points = self._points(position.cells)
            if points:
                return [move for move in found if move not in points]
        return found

    def is_terminal(self, position: MNKPosition) -> bool:
        """Won, or no legal move left: a full board, or (in renju, in theory)
        every empty cell forbidden for black. Either is a draw."""
        if super().is_terminal(position):
            return True
        if not self._renju or position.to_move != X:
            return False
        return len(self._points(position.cells)) == position.cells.count(EMPTY)

    def parse_move(self, position: MNKPosition, text: str) -> int:
        move = super().parse_move(position, text)
        why = self.forbidden_reason(position, move)
        if why is not None:
            raise IllegalMoveError(f"{self.format_move(move)} is forbidden for black: {why}")
        return move

    def from_cells(self, cells: str, to_move: str | None = None) -> MNKPosition:
        """As every m,n,k board, read under the rule (a standard board's six
        wins nothing); in renju a black overline arises only with the five
        that ended the game, from the same last stone."""
        position = super().from_cells(cells, to_move)
        if self._renju:
            overlines = self._overlines(cells)
            if overlines:
                won = position.winner == X and position.line is not None
                last = set(position.line or ()).intersection(*overlines)
                if not won or not last:
                    raise InvalidPositionError(
                        "x has six or more in a row: an overline is forbidden for black in renju "
                        "(it stands only beside the five that won the game)"
                    )
        return position

    def _overlines(self, cells: str) -> list[set[int]]:
        """The cells of each of black's rows of six or more."""
        found = []
        for line, (before, after) in zip(self.lines, self.line_ends, strict=True):
            if before >= 0 and cells[before] == X and all(cells[i] == X for i in line):
                found.append({before, *line})
            elif after >= 0 and cells[after] == X and all(cells[i] == X for i in line):
                found.append({*line, after})
        return found


def gomoku() -> GomokuGame:
    """Freestyle Gomoku on 15x15 (also ``gomoku:freestyle,15`` and ``mnk:15,15,5``)."""
    return GomokuGame(Rule.FREESTYLE, DEFAULT_SIZE)


def renju() -> GomokuGame:
    """Renju on 15x15 (also ``gomoku:renju,15``)."""
    return GomokuGame(Rule.RENJU, DEFAULT_SIZE)


def gomoku_game(parameters: str) -> GomokuGame:
    """The family member ``RULE[,SIZE]`` (the registry's ``gomoku:`` family);
    another spelling of a member is the same rules object."""
    from unbeatable.games import UnknownGameError, get_game

    shown = f"gomoku:{parameters}"[:40]
    parts = parameters.split(",")
    if len(parts) > 2:
        raise UnknownGameError(f"bad Gomoku game {shown!r}: write {_FORMS}")
    try:
        rule = Rule(parts[0])
    except ValueError:
        raise UnknownGameError(
            f"unknown Gomoku rule {parts[0][:20]!r} in {shown!r}: "
            "use freestyle, standard or renju (e.g. gomoku:renju,15)"
        ) from None
    size = DEFAULT_SIZE
    if len(parts) == 2:
        try:
            size = int(parts[1])
        except ValueError:
            raise UnknownGameError(
                f"bad board size {parts[1][:20]!r} in {shown!r}: write {_FORMS}"
            ) from None
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise UnknownGameError(
                f"board size {size} in {shown!r} is out of range: "
                f"Gomoku is played on {MIN_SIZE}-{MAX_SIZE} a side"
            )
    canonical = _NAMED.get((rule, size), f"gomoku:{rule},{size}")
    if canonical != f"gomoku:{parameters}":  # one rules object, one engine, per member
        game = get_game(canonical)
        assert isinstance(game, GomokuGame)
        return game
    return GomokuGame(rule, size)
