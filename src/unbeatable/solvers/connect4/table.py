"""The solver's transposition table: one shared, bounded numpy array per board.

A single process-wide table per board (on the standard board 128 MiB: 2**23
+ 9 buckets of two 8-byte entries, packed as described in :mod:`.kernel`; smaller
boards get smaller ones) serves every engine and every thread, so
repeated queries (a web session, a book build) reuse what earlier solves
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


#: Other boards' tables kept at once besides the standard board's: each
#: costs up to 128 MiB, and any client (the HTTP API too) may ask for any
#: board, so the least recently used one is let go beyond this many.
OTHER_BOARDS_KEPT = 2

_shared: OrderedDict[Shape, TranspositionTable] = OrderedDict()
_shared_lock = threading.Lock()


def shared_table(shape: Shape = STANDARD) -> TranspositionTable:
    """The process-wide table of a board, allocated on first use. Memory stays
    bounded: besides the standard board's, only the :data:`OTHER_BOARDS_KEPT`
    most recently used boards keep theirs (a search under way keeps its own
    until it ends; what a dropped table knew is searched again if needed)."""
    with _shared_lock:
        table = _shared.get(shape)
        if table is None:
            others = [s for s in _shared if s != STANDARD]
            while shape != STANDARD and len(others) >= OTHER_BOARDS_KEPT:
                del _shared[others.pop(0)]
            table = _shared[shape] = TranspositionTable(shape)
        _shared.move_to_end(shape)
        return table
