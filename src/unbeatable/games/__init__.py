"""Game rules: positions, legal moves, winners and notation. No search, no I/O.

Games are looked up by name with :func:`get_game` (any letter case): the named
games (``tictactoe``, ``connect4``, ``gomoku``) and the families written
``FAMILY:PARAMETERS`` (``mnk:ROWS,COLS,K``, the m,n,k-games: ``mnk:4,4,4`` is
4x4 with four in a row; ``mnk:3,3,3`` is tic-tac-toe itself; and
``connect4:COLUMNS,ROWS``, Connect Four on any board that fits 64 bits:
``connect4:6,5``; ``connect4:7,6`` is ``connect4`` itself). Each module is
imported only when its game is first asked for, so ``import unbeatable`` stays
light. A game is one module: every face follows from its description.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from typing import Any

from unbeatable.games.base import (
    Description,
    Game,
    GameError,
    IllegalMoveError,
    InvalidPositionError,
    Side,
    StaticEvaluation,
    UnknownGameError,
)

#: name -> (module, factory) of every named game.
_NAMED: dict[str, tuple[str, str]] = {
    "tictactoe": ("unbeatable.games.mnk", "tictactoe"),
    "connect4": ("unbeatable.games.connect4", "connect4"),
    "gomoku": ("unbeatable.games.mnk", "gomoku"),
}
#: family -> (module, factory taking the parameter text, what the parameters are).
_FAMILIES: dict[str, tuple[str, str, str]] = {
    "mnk": ("unbeatable.games.mnk", "mnk_game", "mnk:ROWS,COLS,K"),
    "connect4": ("unbeatable.games.connect4", "connect4_game", "connect4:COLUMNS,ROWS"),
}

#: The named games.
GAME_NAMES: tuple[str, ...] = tuple(_NAMED)
#: The games the faces offer in their game choices: the named ones and a few
#: of each family (any other member can still be asked for by name).
OFFERED: tuple[str, ...] = (
    "tictactoe",
    "connect4",
    "connect4:6,5",
    "connect4:8,7",
    "gomoku",
    "mnk:4,4,4",
    "mnk:5,5,4",
)
#: How to name any game, for help texts and error messages.
NAMING = ", ".join((*GAME_NAMES, *(form for _, _, form in _FAMILIES.values())))


def normalise(name: str) -> str:
    """The registry spelling of a game name: lower case, no spaces."""
    return "".join(name.split()).lower()


def get_game(name: str) -> Game[Any, Any]:
    """The rules object registered as ``name`` (any letter case); raises
    :class:`UnknownGameError` naming the games there are."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name must be a string (known games: {NAMING})")
    return _load(normalise(name))


@lru_cache(maxsize=64)
def _load(name: str) -> Game[Any, Any]:
    if name in _NAMED:
        module, factory = _NAMED[name]
        game: Game[Any, Any] = getattr(import_module(module), factory)()
        return game
    family, _, parameters = name.partition(":")
    if family in _FAMILIES and parameters:
        module, factory, _form = _FAMILIES[family]
        member: Game[Any, Any] = getattr(import_module(module), factory)(parameters)
        return member
    shown = name if len(name) <= 40 else name[:37] + "..."
    raise UnknownGameError(f"unknown game {shown!r} (known games: {NAMING})")


def describe_all(names: tuple[str, ...] = OFFERED) -> list[Description]:
    """The descriptions of the offered games, in order."""
    return [get_game(name).describe() for name in names]


__all__ = [
    "GAME_NAMES",
    "NAMING",
    "OFFERED",
    "Description",
    "Game",
    "GameError",
    "IllegalMoveError",
    "InvalidPositionError",
    "Side",
    "StaticEvaluation",
    "UnknownGameError",
    "describe_all",
    "get_game",
    "normalise",
]
