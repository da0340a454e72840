"""Memory for big search tables: private, zeroed, advised into huge pages.

A transposition table is probed at random. With 4 KiB pages, nearly every
probe of a 128 MiB table also misses the CPU's address cache (the TLB) and
walks the page tables; with 2 MiB pages the whole table fits in it. Linux
gives huge pages to *private* anonymous memory that asks for them (when
``/sys/kernel/mm/transparent_hugepage/enabled`` says ``madvise`` or
``always``). Python's ``mmap.mmap(-1, n)`` alone maps *shared* memory,
which that setting does not cover; hence the flags below. Measured on the
Connect Four solver: from the empty board on two threads, a median of 28 s
against 33 s (benchmarks/README.md).
"""

from __future__ import annotations

import contextlib
import mmap
from typing import Any

import numpy as np


def zeroed_table(count: int, dtype: Any) -> np.ndarray:
    """A zeroed array of ``count`` items, in private anonymous memory advised
    into huge pages where the system allows (elsewhere plain memory).

    Every page is touched here: the OS maps zeroed memory lazily, and taking
    those page faults inside timed searches would cost up to ~1 us a node.
    One byte written a page is enough (anonymous memory comes zeroed): for
    the standard board's 128 MiB, which every process that plays Connect
    Four allocates, 14-16 ms in fresh processes here against 18-31 ms for
    writing every byte (which took 0.13-0.55 s in some runs on a busy machine).
    The array keeps its memory alive (it is the array's ``base``).
    """
    size = count * np.dtype(dtype).itemsize
    flags = getattr(mmap, "MAP_PRIVATE", 0) | getattr(mmap, "MAP_ANONYMOUS", 0)
    buffer = mmap.mmap(-1, size, flags=flags) if flags else mmap.mmap(-1, size)
    if hasattr(mmap, "MADV_HUGEPAGE"):
        with contextlib.suppress(OSError):  # kernels without transparent huge pages
            buffer.madvise(mmap.MADV_HUGEPAGE)
    array = np.frombuffer(buffer, dtype=dtype)
    array.view(np.uint8)[:: mmap.PAGESIZE] = 0
    return array
