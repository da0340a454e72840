"""Exact Connect Four solver: bitboards, negamax, numba (Pascal Pons' design)."""

from unbeatable.solvers.connect4.engine import Connect4Engine

__all__ = ["Connect4Engine"]
