"""Exact Connect Four solver in Pascal Pons' design: bitboards, negamax with
alpha-beta and null windows, threat-aware ordering, a transposition table, the
hot loop compiled with numba, and a shipped opening book.

Modules: :mod:`.kernel` (all numba code), :mod:`.table` (the shared table),
:mod:`.engine` (the Engine protocol), :mod:`.heuristic` (answers past the
deadline), :mod:`.book` (opening book: build, load).
"""

from unbeatable.solvers.connect4.book import Book, BookStats, build_book, load_book
from unbeatable.solvers.connect4.engine import Connect4Engine
from unbeatable.solvers.connect4.heuristic import Guess, best_guess

__all__ = [
    "Book",
    "BookStats",
    "Connect4Engine",
    "Guess",
    "best_guess",
    "build_book",
    "load_book",
]
