"""Connect Four from scratch: each board's empty position, no opening book.

Solves the empty board of each board size named (strong: the exact score,
so the outcome and the move on which perfect play ends) from an empty
transposition table, with no book, in this process: once on one thread and
once with the helper thread on the second core (lazy SMP, as ``unbeatable
solve connect4:W,H "" --no-book`` runs it), and, for 7x6 with ``--reference
PATH``, through the reference solver's executable (Pascal Pons' ``c4solver``
reads a move sequence per line, the empty line being the empty board, and
prints its score; build it outside this repository and give it no book
file). Prints wall and CPU seconds, nodes, and the ratios: two threads
against one, and ours against the reference, all from the one run.

Usage::

    python benchmarks/connect4_scratch.py --boards 4x4,5x4,6x4,5x5,6x5
    python benchmarks/connect4_scratch.py --boards 7x6 --reference /path/to/c4solver
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

from unbeatable.games.connect4 import Shape, rules_for, shape
from unbeatable.search.engine import Limits
from unbeatable.solvers.connect4.sliced import SlicedSearch
from unbeatable.solvers.connect4.table import TranspositionTable


def board(text: str) -> Shape:
    """``WxH`` as a board shape (ValueError if it is not one)."""
    columns, _, rows = text.partition("x")
    return shape(int(columns), int(rows))


def solve_ours(board: Shape, helpers: bool) -> tuple[int, int, float, float]:
    """Score, nodes, wall and CPU seconds of the empty board from a fresh
    table (the kernel compiled before the clock starts)."""
    search = SlicedSearch(TranspositionTable(board), board, helpers=helpers)
    rules = rules_for(board)
    start_position = rules.initial()
    # Compile (or load) the board's kernel first, on a random position a few
    # cells from full that nobody has won and the side to move cannot win at once.
    rng = random.Random(1)
    while True:
        warm = start_position
        while warm.stones < board.cells - 6 and rules.winner(warm) is None:
            warm = rules.play(warm, rng.choice(rules.moves(warm)))
        if rules.winner(warm) is None and not rules.winning_moves(warm, warm.to_move):
            break
    search.score(warm, Limits())
    search.clear()
    before = search.nodes
    wall, cpu = time.perf_counter(), time.process_time()
    score = search.score(start_position, Limits())
    return (
        score,
        search.nodes - before,
        time.perf_counter() - wall,
        time.process_time() - cpu,
    )


def solve_reference(binary: Path) -> tuple[int, float, float]:
    """The reference's score of the empty 7x6 board, its wall time net of
    start-up, and its CPU time."""

    def timed(text: str) -> tuple[str, float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([str(binary)], input=text, capture_output=True, text=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return done.stdout, time.perf_counter() - start, cpu

    idle = min(timed("")[1] for _ in range(3))
    out, wall, cpu = timed("\n")
    return int(out.split()[-1]), max(wall - idle, 0.0), cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="7x6", help="comma-separated WxH (default 7x6)")
    parser.add_argument("--reference", type=Path, help="the reference solver (7x6 only)")
    args = parser.parse_args(argv)
    try:
        shapes = [board(text) for text in args.boards.split(",")]
    except ValueError as error:
        print(f"--boards: {error}", file=sys.stderr)
        return 2
    print(
        f"{'board':6} {'threads':>7} {'score':>5} {'nodes':>15} {'wall':>9} {'cpu':>9} "
        f"{'ratio':>24}",
        flush=True,
    )
    for each in shapes:
        size = f"{each.columns}x{each.rows}"
        one = solve_ours(each, helpers=False)
        print(
            f"{size:6} {1:>7} {one[0]:>5} {one[1]:>15,} {one[2]:>8.2f}s {one[3]:>8.2f}s", flush=True
        )
        two = solve_ours(each, helpers=True)
        assert two[0] == one[0], f"{size}: {two[0]} with a helper, {one[0]} without"
        print(
            f"{size:6} {2:>7} {two[0]:>5} {two[1]:>15,} {two[2]:>8.2f}s {two[3]:>8.2f}s "
            f"{'wall 2 / 1 threads ' + format(two[2] / one[2], '.2f'):>24}",
            flush=True,
        )
        if args.reference is not None and size == "7x6":
            score, wall, cpu = solve_reference(args.reference)
            assert score == one[0], f"the reference says {score}, we say {one[0]}"
            print(
                f"{'7x6':6} {'ref':>7} {score:>5} {'':>15} {wall:>8.2f}s {cpu:>8.2f}s "
                f"{'wall ours (2) / ref ' + format(two[2] / wall, '.2f'):>24}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
