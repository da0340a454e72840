"""Specialised solvers, each beside the game it serves.

:func:`specialised_engine` returns a game's registered fast solver, if it has
one (the library falls back to the generic negamax otherwise), and
:func:`book_builder` the function that builds its opening book, if it uses
one. Solver modules are imported only when first used (they may load numba).

The m,n,k family picks its engine by the board: tic-tac-toe's 9 cells stay
with the generic negamax (the textbook engines' game), boards of 10-25 cells
get the exact bitboard solver, and bigger boards with k = 4-6 (Gomoku) the
k-in-a-row engine of threat search and principal-variation search.
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
    "connect4": ("unbeatable.solvers.connect4.book_builder", "build_book"),
}


#: Boards of at most this many cells are solved by the exact m,n,k engine.
EXACT_MNK_CELLS = 25


def _mnk_solver(name: str) -> tuple[str, str] | None:
    """(module, class) of the engine of an m,n,k game, or None (negamax)."""
    from unbeatable.games import GameError, get_game
    from unbeatable.games.mnk import EXACT_CELLS, MNKGame

    try:
        game = get_game(name)
    except GameError:
        return None
    if not isinstance(game, MNKGame) or game.size <= EXACT_CELLS:
        return None
    if game.size <= EXACT_MNK_CELLS:
        return ("unbeatable.solvers.mnk.exact", "ExactEngine")
    if 4 <= game.k <= 6:
        return ("unbeatable.solvers.mnk.engine", "GomokuEngine")
    return None


def _solver(name: str) -> tuple[str, str, bool] | None:
    """(module, factory, whether it takes the game) of game ``name``'s solver."""
    if name in _SOLVERS:
        return (*_SOLVERS[name], False)
    if name == "gomoku" or name.startswith("mnk:"):
        found = _mnk_solver(name)
        return None if found is None else (*found, True)
    return None


@cache
def specialised_engine(name: str) -> Engine | None:
    """The process-wide specialised engine of game ``name``, or None."""
    found = _solver(name)
    if found is None:
        return None
    module, factory, takes_game = found
    make = getattr(import_module(module), factory)
    if takes_game:
        from unbeatable.games import get_game

        engine: Engine = make(get_game(name))
    else:
        engine = make()
    return engine


def has_specialised_engine(name: str) -> bool:
    """Whether game ``name`` has a specialised solver (without importing it)."""
    return _solver(name) is not None


def book_builder(name: str) -> Callable[..., Any] | None:
    """The function that builds game ``name``'s opening book, or None."""
    if name not in _BOOKS:
        return None
    module, function = _BOOKS[name]
    builder: Callable[..., Any] = getattr(import_module(module), function)
    return builder


__all__ = ["book_builder", "has_specialised_engine", "specialised_engine"]
