"""Specialised solvers, each beside the game it serves.

:func:`engine_for` returns the fastest exact engine for a game: a registered
specialised solver if there is one, else the generic negamax. Solver modules
are imported only when first used (they may load numba).
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from unbeatable.search.engine import Engine

#: game name -> (module, factory) of its specialised engine.
_SOLVERS: dict[str, tuple[str, str]] = {
    "connect4": ("unbeatable.solvers.connect4", "Connect4Engine"),
}


@cache
def specialised_engine(name: str) -> Engine | None:
    """The process-wide specialised engine of game ``name``, or None."""
    try:
        module, factory = _SOLVERS[name]
    except KeyError:
        return None
    engine: Engine = getattr(import_module(module), factory)()
    return engine


def has_specialised_engine(name: str) -> bool:
    """Whether game ``name`` has a specialised solver (without importing it)."""
    return name in _SOLVERS


__all__ = ["has_specialised_engine", "specialised_engine"]
