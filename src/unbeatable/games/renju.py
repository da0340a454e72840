"""Renju's forbidden points: the cells where black may not play.

The rules (RIF, the Renju International Federation's), as this module reads
them, for black (``x``, the first player) placing a stone on an empty cell:

* A *five* is exactly five black stones in a row; an *overline* six or more.
  A move that makes a five wins, whatever else it makes (an overline in
  another line, two fours, two threes): it is never forbidden.
* A *four* made by the move is a row through the new stone that one more
  stone turns into a five (exactly five). A *straight four* is a row of four
  with both ends making a five (``.xxxx.``): one four, not two. Two fours in
  one line are two fours (``x.xxx.x``, ``xx.xx.xx``, ``xxx.x.xxx`` with the
  stone in the middle).
* A *three* made by the move is a row through the new stone that one more
  stone turns into a straight four without making a five at the same time,
  where that stone itself may be played: a three whose only four point is
  forbidden (a double three, a double four or an overline there, read the
  same way, recursively) or makes a five in another line is no three.
* Black may not make an overline, two or more fours (a *double four*), or
  two or more threes in different lines (a *double three*). A four and a
  three together are allowed.

White has no forbidden points, and wins with five or more.

The detector works on a padded copy of the board (five wall cells beyond
every edge, so that no walk along a line needs a bounds check) and tries a
cell only when black has at least four stones within four cells of it on its
lines: the fewest any forbidden shape needs. It is the reference that the
engine's compiled kernel is checked against.
"""

from __future__ import annotations

from typing import Final

#: Why a point is forbidden (the values of :meth:`Forbidden.points`).
DOUBLE_THREE: Final = "double three"
DOUBLE_FOUR: Final = "double four"
OVERLINE: Final = "overline"

#: What :meth:`Forbidden._placed` answers for a move that makes a five.
_FIVE: Final = "five"

_EMPTY, _BLACK, _WHITE, _WALL = 0, 1, 2, 3
#: Wall cells beyond each edge: a line is read up to five cells from a stone.
_PAD = 5
_CODE = {".": _EMPTY, "x": _BLACK, "o": _WHITE}
#: Black stones within four cells of a point on its four lines needed for any
#: forbidden shape: a double three has two in each of two lines, a double four
#: in one line (``x.xxx.x``) four, an overline of six at least four.
_NEAR = 4


class Forbidden:
    """Black's forbidden points on a board of ``rows`` x ``columns`` cells
    (row-major from the top-left, as :class:`~unbeatable.games.mnk.MNKGame`
    numbers them). Stateless between calls: one object serves any number of
    threads."""

    def __init__(self, rows: int, columns: int) -> None:
        self.rows, self.columns = rows, columns
        width = columns + _PAD  # a row's walls are also the next row's left edge
        self._steps = (1, width, width + 1, width - 1)
        self._to_pad = tuple((r + _PAD) * width + c for r in range(rows) for c in range(columns))
        self._from_pad = {p: i for i, p in enumerate(self._to_pad)}
        self._walls = [_WALL] * ((rows + 2 * _PAD) * width)

    def __repr__(self) -> str:
        return f"Forbidden({self.rows}, {self.columns})"

    def _board(self, cells: str) -> list[int]:
        board = self._walls.copy()
        for p, ch in zip(self._to_pad, cells, strict=True):
            board[p] = _CODE[ch]
        return board

    def points(self, cells: str) -> dict[int, str]:
        """Every empty cell where black may not play, with the reason, in
        board order (``cells``: ``x``, ``o`` and ``.``, row-major)."""
        board = self._board(cells)
        near: dict[int, int] = {}
        for s in (self._to_pad[i] for i, ch in enumerate(cells) if ch == "x"):
            for d in self._steps:
                for sign in (d, -d):
                    q = s
                    for _ in range(4):
                        q += sign
                        mark = board[q]
                        if mark == _WALL:
                            break
                        if mark == _EMPTY:
                            near[q] = near.get(q, 0) + 1
        found = {}
        for p in sorted(q for q, count in near.items() if count >= _NEAR):
            why = self._reason(board, p)
            if why is not None:
                found[self._from_pad[p]] = why
        return found

    def reason(self, cells: str, cell: int) -> str | None:
        """Why black may not play on ``cell`` (an empty cell), or None."""
        board = self._board(cells)
        p = self._to_pad[cell]
        if board[p] != _EMPTY:
            return None
        return self._reason(board, p)

    def _reason(self, board: list[int], p: int) -> str | None:
        """Why black may not play on the empty padded cell ``p`` of ``board``
        (which is restored before returning), or None."""
        why = self._try(board, p)
        return None if why == _FIVE else why

    def _try(self, board: list[int], p: int) -> str | None:
        """:meth:`_placed` for a stone put on ``p`` and taken back."""
        board[p] = _BLACK
        try:
            return self._placed(board, p)
        finally:
            board[p] = _EMPTY

    def _placed(self, board: list[int], p: int) -> str | None:
        """What black's stone just placed on ``p`` makes that is forbidden,
        or ``"five"`` (which wins, so nothing is forbidden), or None."""
        # Per line: the direction, the first cell past black's run each way
        # (behind, ahead) and the run's stones on each side of p.
        runs = []
        overline = False
        for d in self._steps:
            ahead = p + d
            while board[ahead] == _BLACK:
                ahead += d
            behind = p - d
            while board[behind] == _BLACK:
                behind -= d
            length = (ahead - behind) // d - 1
            if length == 5:
                return _FIVE  # a five wins, whatever else the move makes
            overline = overline or length > 5
            runs.append((d, behind, ahead, length))
        if overline:
            return OVERLINE
        fours = 0
        three_points: list[list[int]] = []
        for d, behind, ahead, length in runs:
            # Black's stones just past each gap: a gap filled joins them.
            past_ahead = past_behind = 0
            end_ahead = end_behind = -1  # the first cell past those stones
            if board[ahead] == _EMPTY:
                end_ahead = ahead + d
                while board[end_ahead] == _BLACK:
                    end_ahead += d
                past_ahead = (end_ahead - ahead) // d - 1
            if board[behind] == _EMPTY:
                end_behind = behind - d
                while board[end_behind] == _BLACK:
                    end_behind -= d
                past_behind = (behind - end_behind) // d - 1
            four_ahead = end_ahead >= 0 and length + 1 + past_ahead == 5
            four_behind = end_behind >= 0 and length + 1 + past_behind == 5
            if four_ahead and four_behind:
                # .xxxx. is one (straight) four; x.xxx.x and the like are two.
                fours += 1 if past_ahead == 0 else 2
                continue
            if four_ahead or four_behind:
                fours += 1
                continue
            # A three: one stone next to the run makes a straight four
            # (exactly four, both ends empty, and neither end running on into
            # black, so that each makes exactly five).
            points = []
            if (
                end_ahead >= 0
                and end_behind >= 0
                and length + 1 + past_ahead == 4
                and past_behind == 0
                and board[end_ahead] == _EMPTY
                and board[end_ahead + d] != _BLACK
            ):
                points.append(ahead)
            if (
                end_behind >= 0
                and end_ahead >= 0
                and length + 1 + past_behind == 4
                and past_ahead == 0
                and board[end_behind] == _EMPTY
                and board[end_behind - d] != _BLACK
            ):
                points.append(behind)
            if points:
                three_points.append(points)
        if fours >= 2:
            return DOUBLE_FOUR
        if len(three_points) < 2:
            return None
        threes = 0
        for points in three_points:
            if self._real_three(board, points):
                threes += 1
                if threes == 2:
                    return DOUBLE_THREE
        return None

    def _real_three(self, board: list[int], points: list[int]) -> bool:
        """Whether a three whose straight four is made on one of ``points``
        counts: only if that stone may be played, and makes no five at the
        same time (RIF's definition of a three)."""
        return any(self._try(board, q) is None for q in points)
