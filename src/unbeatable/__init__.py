"""Unbeatable: two-player board games played perfectly, with every move's value explained.

Quick start::

    import unbeatable
    unbeatable.best_move("tictactoe", "xox/oox/...").move        # 'c1'
    unbeatable.analyze("tictactoe", "xox/oox/...").to_dict()     # every move's value

The public functions live in :mod:`unbeatable.api` and are loaded on first use,
so ``import unbeatable`` costs next to nothing.
"""

from __future__ import annotations

from importlib import import_module

from unbeatable import compiled as _compiled

#: ``typing`` alone costs several milliseconds to import: only type checkers read it here.
TYPE_CHECKING = False

#: The one version of the package (semantic versioning: CHANGELOG.md); the
#: distribution's metadata, ``unbeatable --version`` and the HTTP API read it.
__version__ = "0.2.0"

# Compiled kernels go to the user's cache folder, not into the package: set
# before anything of the package imports numba (see unbeatable.compiled).
_compiled.use()

_API = (
    "ai_turn",
    "analyze",
    "best_move",
    "solve",
    "choose_move",
    "play_move",
    "status",
    "view",
    "tree",
    "textbook_tree",
    "describe",
    "engine",
)

if TYPE_CHECKING:
    from typing import Any

    from unbeatable.api import (
        ai_turn,
        analyze,
        best_move,
        choose_move,
        describe,
        engine,
        play_move,
        solve,
        status,
        textbook_tree,
        tree,
        view,
    )
    from unbeatable.games import get_game


def __getattr__(name: str) -> Any:
    if name in _API:
        value = getattr(import_module("unbeatable.api"), name)
    elif name == "get_game":
        value = import_module("unbeatable.games").get_game
    else:
        raise AttributeError(f"module 'unbeatable' has no attribute {name!r}")
    globals()[name] = value  # imported once: later look-ups are plain attributes
    return value


__all__ = [
    "__version__",
    "ai_turn",
    "analyze",
    "best_move",
    "choose_move",
    "describe",
    "engine",
    "get_game",
    "play_move",
    "solve",
    "status",
    "textbook_tree",
    "tree",
    "view",
]
