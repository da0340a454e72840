"""Game rules: positions, legal moves, winners and notation. No search, no I/O.

Games are looked up by name with :func:`get_game`; each module is imported only
when its game is first asked for, so ``import unbeatable`` stays light.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from unbeatable.games.base import (
    Game,
    GameError,
    IllegalMoveError,
    InvalidPositionError,
    UnknownGameError,
)

#: name -> (module, factory) of every built-in game.
_REGISTRY: dict[str, tuple[str, str]] = {
    "tictactoe": ("unbeatable.games.mnk", "tictactoe"),
    "connect4": ("unbeatable.games.connect4", "connect4"),
}

GAME_NAMES: tuple[str, ...] = tuple(_REGISTRY)


@cache
def get_game(name: str) -> Game[Any, Any]:
    """The rules object registered as ``name``; raises :class:`UnknownGameError`."""
    try:
        module, factory = _REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(GAME_NAMES)
        raise UnknownGameError(f"unknown game {name!r} (known games: {known})") from None
    game: Game[Any, Any] = getattr(import_module(module), factory)()
    return game


__all__ = [
    "GAME_NAMES",
    "Game",
    "GameError",
    "IllegalMoveError",
    "InvalidPositionError",
    "UnknownGameError",
    "get_game",
]
