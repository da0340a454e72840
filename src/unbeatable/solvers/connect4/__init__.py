"""Exact Connect Four solver in Pascal Pons' design: bitboards, negamax with
alpha-beta and null windows, threat-aware ordering, a transposition table, the
hot loop compiled with numba, and a shipped opening book.

Modules, inside out: :mod:`.kernel` (all numba code), :mod:`.table` (the
shared table), :mod:`.sliced` (the searches, run in slices under limits),
:mod:`.bounds` (bounds earlier proofs showed), :mod:`.keeping` (proving a
move that keeps a score), :mod:`.heuristic` (answers past the deadline),
:mod:`.book` (the opening book: format, lookups), :mod:`.engine` (the Engine
protocol), :mod:`.book_builder` (building the book with the engine). Names
are imported on first use, so that answers from the book never load numba.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unbeatable.solvers.connect4.book import Book, load_book
    from unbeatable.solvers.connect4.book_builder import BookStats, build_book
    from unbeatable.solvers.connect4.engine import Connect4Engine
    from unbeatable.solvers.connect4.heuristic import Guess, best_guess
    from unbeatable.solvers.connect4.keeping import KeepingMove

_WHERE = {
    "Book": "book",
    "load_book": "book",
    "BookStats": "book_builder",
    "build_book": "book_builder",
    "Connect4Engine": "engine",
    "Guess": "heuristic",
    "best_guess": "heuristic",
    "KeepingMove": "keeping",
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
    "KeepingMove",
    "best_guess",
    "build_book",
    "load_book",
]
