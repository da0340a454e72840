"""The k-in-a-row engines of the m,n,k family, beside :mod:`unbeatable.games.mnk`.

- :mod:`.exact` and :mod:`.exact_kernel`: exact solving of boards of at most
  36 cells (5x5 four in a row is a draw, 6x5 a first-player win in 11),
  bitboards in numba.
- :mod:`.patterns`, :mod:`.kernel` and :mod:`.engine`: Gomoku under its three
  rule sets and every other big board with k of 4 or more: line patterns kept
  up to date per cell (tabled up to k = 6, read off the board past it),
  renju's forbidden points, threat-space search (continuous fours, threes)
  proving forced wins and losses, and iterative-deepening principal-variation
  search for everything else.
- :mod:`.proof_first`: boards of 32-36 cells, the exact proof first and the
  k-in-a-row engine when a budget runs short of it.

Names are imported on first use, so that choosing an engine loads no numba.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unbeatable.solvers.mnk.engine import GomokuEngine
    from unbeatable.solvers.mnk.exact import ExactEngine
    from unbeatable.solvers.mnk.proof_first import ProofFirstEngine

_WHERE = {"ExactEngine": "exact", "GomokuEngine": "engine", "ProofFirstEngine": "proof_first"}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ExactEngine", "GomokuEngine", "ProofFirstEngine"]
