"""How the environments number a board's actions and draw its observation planes.

One numbering for every board game of the library, read from its description
(:meth:`Numbering.of`), shared by :mod:`unbeatable.envs.pettingzoo` and
:mod:`unbeatable.envs.openspiel`: an action is the cell a move fills,
``row * columns + column`` from the top-left; the column alone where stones
drop (Connect Four); and in games whose pieces move from cell to cell,
``origin * cells + target``, a new piece put down being ``target * cells +
target``. Needs numpy only (a dependency of the library), no framework.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from unbeatable import api

#: Observation planes: one 0/1 array per kind of cell.
Planes = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Numbering:
    """How an environment numbers a board's actions and lays out its
    observation planes: the library's own (:meth:`of`) or another framework's
    (:data:`NUMBERINGS`), so that one agent can read both."""

    #: The environment's name (PettingZoo's ``metadata["name"]``).
    name: str
    rows: int
    columns: int
    #: An action names a column, where the stone drops; else it names a cell.
    gravity: bool
    #: Cells are numbered column by column from the top-left, and the
    #: observation's first axis is the column (PettingZoo's ``tictactoe_v3``);
    #: else row by row, the first axis the row (the library's, ``connect_four_v3``).
    column_major: bool = False
    #: An action names the cell a piece leaves and the cell it reaches
    #: (``origin * cells + target``): games whose pieces move. A move that
    #: puts a new piece down in such a game (a placement, as in the morris
    #: games before every piece is on the board) leaves no cell: it is
    #: ``target * cells + target``, a number no move of a piece can have.
    moves_from: bool = False

    @classmethod
    def of(cls, description: api.Description) -> Numbering:
        """The library's numbering of a described board."""
        return cls(
            f"unbeatable:{description.name}",
            description.rows,
            description.columns,
            description.gravity,
            moves_from=description.moves_from,
        )

    @property
    def actions(self) -> int:
        """The size of the action space."""
        cells = self.rows * self.columns
        return self.columns if self.gravity else cells * cells if self.moves_from else cells

    @property
    def shape(self) -> tuple[int, int, int]:
        """The observation planes' shape."""
        if self.column_major:
            return (self.columns, self.rows, 2)
        return (self.rows, self.columns, 2)

    def action(self, row: int, col: int, origin: tuple[int, int] | None = None) -> int:
        """The action of the move that fills ``(row, col)``, 0-based from the
        top-left, and in games whose pieces move leaves ``origin`` (None: a
        new piece put down)."""
        if self.gravity:
            return col
        if self.column_major:
            return col * self.rows + row
        target = row * self.columns + col
        if not self.moves_from:
            return target
        # A placement (no origin) is numbered as a piece that stays where it is.
        start = target if origin is None else origin[0] * self.columns + origin[1]
        return start * self.rows * self.columns + target

    def planes(self, board: Sequence[str], own: str, other: str) -> Planes:
        """The observation of ``board`` (rows from the top, one character a
        cell, as :class:`api.View` has them) for the player of mark ``own``:
        plane 0 its stones, plane 1 the ``other`` mark's."""
        cells = np.array([list(row.lower()) for row in board])
        stacked = np.stack([cells == own.lower(), cells == other.lower()], axis=2)
        if self.column_major:
            stacked = stacked.transpose(1, 0, 2)
        return np.ascontiguousarray(stacked, dtype=np.int8)

    def board(self, planes: Any, own: str, other: str) -> tuple[str, ...]:
        """The board's rows from the top, one character a cell (``.`` empty),
        read back from an observation's planes: the inverse of :meth:`planes`.
        Raises :class:`ValueError` for planes of another shape."""
        array = np.asarray(planes)
        if array.shape != self.shape:
            raise ValueError(f"{self.name} observations have shape {self.shape}, not {array.shape}")
        if self.column_major:
            array = array.transpose(1, 0, 2)
        return tuple(
            "".join(
                own if array[row, col, 0] else other if array[row, col, 1] else "."
                for col in range(self.columns)
            )
            for row in range(self.rows)
        )


__all__ = ["Numbering", "Planes"]
