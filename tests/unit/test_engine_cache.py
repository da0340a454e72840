"""One bounded cache of engines (unbeatable.api.engines): a process asked
about any number of boards keeps at most ENGINES_KEPT engines, the
specialised ones included, and its memory stays flat."""

from __future__ import annotations

import gc
import itertools
import os
from pathlib import Path

import pytest

from unbeatable import api
from unbeatable.games import get_game


def resident_mib() -> float:
    """The process's resident memory now, in MiB (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def boards(count: int) -> list[tuple[int, int, int]]:
    """``count`` different m,n,k boards (rows, columns, k), by turns the
    exact solver's (10-31 cells: a compiled engine with a 2 MiB table each;
    477 of them) and negamax's (past 36 cells, k of 3 or less); each big
    enough for a win in one to be set up on it."""
    exact, negamax = [], []
    for rows, columns in itertools.product(range(1, 21), repeat=2):
        cells = rows * columns
        for k in range(2, max(rows, columns) + 1):
            if 2 * k - 1 > cells:
                continue
            if 10 <= cells <= 31:
                exact.append((rows, columns, k))
            elif cells > 36 and k <= 3:
                negamax.append((rows, columns, k))
    mixed = itertools.chain.from_iterable(itertools.zip_longest(exact, negamax))
    chosen = [board for board in mixed if board is not None][:count]
    assert len(set(chosen)) == count
    return chosen


def win_in_one(rows: int, columns: int, k: int) -> str:
    """x to move with k - 1 in a row (along the first row, else down the
    first column) and the k-th cell free; o's stones in the last cells."""
    cells = ["."] * (rows * columns)
    step = 1 if columns >= k else columns
    line = [i * step for i in range(k)]
    for cell in line[:-1]:
        cells[cell] = "x"
    others = [c for c in reversed(range(rows * columns)) if c not in line][: k - 1]
    for cell in others:
        cells[cell] = "o"
    grid = "/".join("".join(cells[r * columns : (r + 1) * columns]) for r in range(rows))
    return f"{grid} x"


def test_the_cache_keeps_the_most_recently_used_engines() -> None:
    first = api.engine("mnk:4,4,3")  # the exact solver's
    assert api.engine("mnk:4,4,3") is first
    for rows, columns, k in boards(api.ENGINES_KEPT + 1)[1:]:
        api.engine(f"mnk:{rows},{columns},{k}")
    assert len(api.engines._engines) == api.ENGINES_KEPT
    assert api.engine("mnk:4,4,3") is not first  # dropped, made anew
    # A new engine is readied anew: readiness belongs to the engine, not to
    # an id a new one may reuse.
    assert api.warm("mnk:4,4,3")


@pytest.mark.slow
def test_a_thousand_boards_hold_memory_flat() -> None:
    """1,000 different boards asked about through the api, each a proof (a
    win in one): past the first few hundred, memory stays where it is (a
    cache that kept every engine grows by about 150 MiB every 200 boards)."""
    resident = []
    for asked, (rows, columns, k) in enumerate(boards(1000), 1):
        name = f"mnk:{rows},{columns},{k}"
        solution = api.solve(get_game(name), win_in_one(rows, columns, k))
        assert (solution.result, solution.plies) == ("win", 1), name
        if asked in (400, 1000):
            gc.collect()
            resident.append(resident_mib())
        assert len(api.engines._engines) <= api.ENGINES_KEPT
    before, after = resident
    # Bounded, not constant: the later boards are bigger (up to 20x20), the
    # allocator keeps some freed pages, and in the suite other tests share
    # the process (25-75 MiB seen); a cache that kept every engine would
    # add about 450 MiB over these 600 boards.
    assert after - before < 150, resident
