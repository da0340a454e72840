"""Big search tables get private memory that huge pages can back."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from unbeatable.solvers.memory import zeroed_table

THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def _mapping_of(address: int) -> tuple[str, dict[str, str]]:
    """The permissions and fields of the mapping holding ``address`` in
    /proc/self/smaps."""
    perms, fields, inside = "", {}, False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()
        if "-" in head[0] and len(head) >= 5 and ":" not in head[0]:
            start, end = (int(x, 16) for x in head[0].split("-"))
            inside = start <= address < end
            if inside:
                perms = head[1]
        elif inside and ":" in head[0]:
            fields[head[0].rstrip(":")] = " ".join(head[1:])
    return perms, fields


def test_a_table_is_zeroed_and_writable() -> None:
    table = zeroed_table(1000, np.uint64)
    assert table.shape == (1000,) and table.dtype == np.uint64
    assert not table.any()
    table[999] = 7
    assert table[999] == 7


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_a_table_is_private_memory_eligible_for_huge_pages() -> None:
    # Python's mmap(-1, n) alone maps shared memory, which Linux backs with
    # huge pages only under another setting: the solver's table had 4 KiB pages.
    table = zeroed_table(4 << 20, np.uint64)  # 32 MiB
    perms, fields = _mapping_of(table.ctypes.data)
    assert perms.endswith("p"), f"shared mapping: {perms}"
    status = Path("/proc/self/status").read_text()
    thp_on = THP.exists() and "[never]" not in THP.read_text() and "THP_enabled:\t0" not in status
    if thp_on and "THPeligible" in fields:
        assert fields["THPeligible"] == "1"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_the_connect_four_table_uses_it() -> None:
    from unbeatable.games.connect4 import Shape
    from unbeatable.solvers.connect4.table import TranspositionTable

    table = TranspositionTable(Shape(4, 4))
    perms, _ = _mapping_of(table.entries.ctypes.data)
    assert perms.endswith("p"), f"shared mapping: {perms}"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_every_page_is_in_memory_before_any_search() -> None:
    # A page first touched inside a timed search costs that search its fault.
    table = zeroed_table(4 << 20, np.uint64)  # 32 MiB
    _, fields = _mapping_of(table.ctypes.data)
    assert int(fields["Rss"].split()[0]) * 1024 >= table.nbytes, fields["Rss"]
    assert not table.any()
