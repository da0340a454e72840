"""The solver's transposition table: one shared, bounded numpy array per board.

A single process-wide table per board (on the standard board 128 MiB: 2**23
+ 9 buckets of two 8-byte entries, packed as described in :mod:`.kernel`; smaller
boards get smaller ones, boards past 42 cells 1 GiB) serves every engine and
every thread, so repeated queries (a web session, a book build) reuse what earlier solves
proved. Memory never grows. Threads need no lock: each entry is one aligned
word that checks its own key, so a race can only lose an entry, never make
one wrong.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from unbeatable.games.connect4 import STANDARD, Shape
from unbeatable.solvers.connect4.kernel import for_shape
from unbeatable.solvers.memory import zeroed_table


class TranspositionTable:
    """Bounds on exact scores of one board's positions, keyed by position;
    cleared in O(1) by generation. Its size is the one the board's kernel
    expects."""

    def __init__(self, shape: Shape = STANDARD) -> None:
        kernel = for_shape(shape)
        #: The board whose positions it holds.
        self.shape = shape
        self._max_generation = kernel.max_generation
        # Probed at random: huge pages where the system allows (solvers.memory).
        self.entries: np.ndarray = zeroed_table(kernel.table_size, np.uint64)
        self.generation = 1

    def clear(self) -> None:
        """Forget every entry (a new generation; a real wipe once in 4 M clears
        on the standard board, once in 127 on the biggest)."""
        self.generation += 1
        if self.generation > self._max_generation:
            self.entries.fill(0)
            self.generation = 1


#: Other boards' tables kept at once besides the standard board's: any
#: client (the HTTP API too) may ask for any board, so the least recently
#: used one is let go beyond this many, or beyond :data:`OTHER_BOARDS_BYTES`.
OTHER_BOARDS_KEPT = 2
#: Memory the other boards' tables may hold together (one board past 42
#: cells takes 1 GiB, and then keeps no other board's table beside it).
OTHER_BOARDS_BYTES = (1 << 30) + (1 << 28)

_shared: OrderedDict[Shape, TranspositionTable] = OrderedDict()
_shared_lock = threading.Lock()


def shared_table(shape: Shape = STANDARD) -> TranspositionTable:
    """The process-wide table of a board, allocated on first use. Memory stays
    bounded: besides the standard board's, only the :data:`OTHER_BOARDS_KEPT`
    most recently used boards keep theirs, within :data:`OTHER_BOARDS_BYTES`
    together (a search under way keeps its own until it ends; what a dropped
    table knew is searched again if needed)."""
    with _shared_lock:
        table = _shared.get(shape)
        if table is None:
            others = [s for s in _shared if s != STANDARD]
            size = for_shape(shape).table_size * 8

            def crowded() -> bool:
                held = sum(_shared[s].entries.nbytes for s in others)
                return len(others) >= OTHER_BOARDS_KEPT or held + size > OTHER_BOARDS_BYTES

            while shape != STANDARD and others and crowded():
                del _shared[others.pop(0)]
            table = _shared[shape] = TranspositionTable(shape)
        _shared.move_to_end(shape)
        return table
