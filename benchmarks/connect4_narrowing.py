"""Where an exact Connect Four solve spends its nodes: the narrowing's tests.

An exact score is found by null-window tests ("is the score more than s?")
placed by the kernel's narrowing; their costs differ by orders of magnitude,
and the ones next to the true score dominate. This runs the tests one after
another on one thread, over one table cleared at the start, exactly where
the narrowing would place them (or at the points given with ``--tests``,
to see what another schedule would cost), and prints each test's answer,
the window left, nodes and seconds.

Usage::

    python benchmarks/connect4_narrowing.py                # the empty 7x6 board
    python benchmarks/connect4_narrowing.py "" --tests 0,1  # the two tests a known score needs
    python benchmarks/connect4_narrowing.py 4455 --board 7x6
"""

from __future__ import annotations

import argparse
import time

from unbeatable.games.connect4 import rules_for, shape
from unbeatable.solvers.connect4 import kernel as kernel_module
from unbeatable.solvers.connect4.sliced import SlicedSearch
from unbeatable.solvers.connect4.table import TranspositionTable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("position", nargs="?", default="", help="moves (column digits)")
    parser.add_argument("--board", default="7x6", help="WxH (default 7x6)")
    parser.add_argument("--tests", default="", help="the points s to test first, e.g. 0,1")
    args = parser.parse_args()
    columns, _, rows = args.board.partition("x")
    board = shape(int(columns), int(rows))
    rules = rules_for(board)
    position = rules.parse(args.position)
    if rules.winning_moves(position, position.to_move):
        parser.error("the side to move wins at once: nothing to narrow")
    search = SlicedSearch(TranspositionTable(board), board, helpers=False)
    k = kernel_module.for_shape(board)
    bits, ints = k.new_stacks()
    stats = k.new_stats()
    search.clear()
    stats[k.GENERATION] = search.table.generation
    lo, hi = -board.win_now(position.stones + 1), board.win_now(position.stones)
    points = [int(p) for p in args.tests.split(",") if p.strip()]
    cur, mask = k.U(position.current()), k.U(position.mask)
    total = 0
    while lo < hi:
        med = points.pop(0) if points else int(kernel_module.probe_point(lo, hi, k.NO_GUESS))
        med = min(max(med, lo), hi - 1)
        stats[k.NODES] = 0
        stats[k.BUDGET] = 1 << 62
        start = time.perf_counter()
        r = int(
            k.search(
                cur, mask, position.stones, med, med + 1, k.EXACT,
                search.table.entries, bits, ints, stats, False,
            )
        )  # fmt: skip
        nodes = int(stats[k.NODES])
        total += nodes
        if r <= med:
            hi = r
        else:
            lo = r
        answer = "yes" if r > med else "no"
        print(
            f"more than {med:>3}? {answer:<3} window [{lo}, {hi}]  {nodes:>13,} nodes"
            f"  {time.perf_counter() - start:6.1f} s",
            flush=True,
        )
    print(f"score {lo}: {total:,} nodes in all")


if __name__ == "__main__":
    main()
