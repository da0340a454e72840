"""Specialised solvers, each beside the game it serves.

:func:`specialised_engine` returns a game's registered fast solver, if it has
one (the library falls back to the generic negamax otherwise), and
:func:`book_builder` the function that builds its opening book, if it uses
one. Solver modules are imported only when first used (they may load numba).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import Any

from unbeatable.search.engine import Engine

#: game name -> (module, factory) of its specialised engine.
_SOLVERS: dict[str, tuple[str, str]] = {
    "connect4": ("unbeatable.solvers.connect4", "Connect4Engine"),
}
#: game name -> (module, function) that builds its opening book.
_BOOKS: dict[str, tuple[str, str]] = {
    "connect4": ("unbeatable.solvers.connect4.book", "build_book"),
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


def book_builder(name: str) -> Callable[..., Any] | None:
    """The function that builds game ``name``'s opening book, or None."""
    if name not in _BOOKS:
        return None
    module, function = _BOOKS[name]
    builder: Callable[..., Any] = getattr(import_module(module), function)
    return builder


__all__ = ["book_builder", "has_specialised_engine", "specialised_engine"]
