"""Exact Connect Four solver in Pascal Pons' design: bitboards, negamax with
alpha-beta and null windows, threat-aware ordering, a transposition table, the
hot loop compiled with numba, and a shipped opening book.

Modules: :mod:`.kernel` (all numba code), :mod:`.table` (the shared table),
:mod:`.engine` (the Engine protocol), :mod:`.heuristic` (answers past the
deadline), :mod:`.book` (opening book: build, load). Names are imported on
first use, so that answers from the book never load numba.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unbeatable.solvers.connect4.book import Book, BookStats, build_book, load_book
    from unbeatable.solvers.connect4.engine import Connect4Engine
    from unbeatable.solvers.connect4.heuristic import Guess, best_guess

_WHERE = {
    "Book": "book",
    "BookStats": "book",
    "build_book": "book",
    "load_book": "book",
    "Connect4Engine": "engine",
    "Guess": "heuristic",
    "best_guess": "heuristic",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Book",
    "BookStats",
    "Connect4Engine",
    "Guess",
    "best_guess",
    "build_book",
    "load_book",
]
