"""The k-in-a-row engines of the m,n,k family, beside :mod:`unbeatable.games.mnk`.

- :mod:`.exact` and :mod:`.exact_kernel`: exact solving of boards of at most
  25 cells (5x5 four in a row is a draw), bitboards in numba.
- :mod:`.patterns`, :mod:`.kernel` and :mod:`.engine`: Gomoku under its three
  rule sets and every other big board with k of 4 or more: line patterns kept
  up to date per cell (tabled up to k = 6, read off the board past it),
  renju's forbidden points, threat-space search (continuous fours, threes)
  proving forced wins and losses, and iterative-deepening principal-variation
  search for everything else.

Names are imported on first use, so that choosing an engine loads no numba.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unbeatable.solvers.mnk.engine import GomokuEngine
    from unbeatable.solvers.mnk.exact import ExactEngine

_WHERE = {"ExactEngine": "exact", "GomokuEngine": "engine"}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ExactEngine", "GomokuEngine"]
