"""The solver's transposition table: one shared, bounded numpy array.

A single process-wide table (128 MiB: 2**24 + 43 entries of 8 bytes, packed
as described in :mod:`.kernel`) serves every engine and every thread, so
repeated queries (a web session, a book build) reuse what earlier solves
proved. Memory never grows. Threads need no lock: each entry is one aligned
word that checks its own key, so a race can only lose an entry, never make
one wrong.
"""

from __future__ import annotations

import contextlib
import mmap
import threading

import numpy as np

from unbeatable.solvers.connect4.kernel import MAX_GENERATION, TABLE_SIZE


class TranspositionTable:
    """Bounds on exact scores, keyed by position; cleared in O(1) by generation."""

    def __init__(self, size: int = TABLE_SIZE) -> None:
        if size != TABLE_SIZE:
            raise ValueError(f"the compiled kernel expects {TABLE_SIZE} entries")
        # Anonymous memory advised into huge pages where the kernel allows:
        # every probe is a random access, and 4 KiB pages would make most of
        # them TLB misses too.
        self._buffer = mmap.mmap(-1, size * 8)
        if hasattr(mmap, "MADV_HUGEPAGE"):
            with contextlib.suppress(OSError):  # kernels without THP
                self._buffer.madvise(mmap.MADV_HUGEPAGE)
        self.entries: np.ndarray = np.frombuffer(self._buffer, dtype=np.uint64)
        # Touch every page now: the OS maps zeroed memory lazily, and taking
        # those page faults inside timed solves would cost up to ~1 us a node.
        self.entries.fill(0)
        self.generation = 1

    def clear(self) -> None:
        """Forget every entry (a new generation; a real wipe once in 67 M clears)."""
        self.generation += 1
        if self.generation > MAX_GENERATION:
            self.entries.fill(0)
            self.generation = 1


_shared: TranspositionTable | None = None
_shared_lock = threading.Lock()


def shared_table() -> TranspositionTable:
    """The process-wide table, allocated on first use."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = TranspositionTable()
        return _shared
