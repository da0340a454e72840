"""What makes the opening book's build fast, measured step by step.

The build solves every position of its deepest level (91,295 positions for 8
stones, mirror images merged). This script takes a block of consecutive
positions of that level, in the build's order (sorted by move sequence, so
siblings and cousins sit together), and solves it three ways in one run:

* ``cold``: the table cleared before each position (each solved on its own);
* ``warm``: the table kept, as a build worker keeps it: neighbours reuse
  what the previous positions proved;
* ``warm+guess``: also testing each score first at its predecessor's
  (neighbours' scores are close), as the build does.

It prints the time and nodes per position of each, the ratio to ``cold``, and
the projected time of the whole level on the given number of workers.

Usage: ``python benchmarks/connect4_book.py [--plies 8] [--start 40000] [--count 40]``
"""

from __future__ import annotations

import argparse
import sys
import time

from unbeatable.games.connect4 import connect4
from unbeatable.solvers.connect4 import Connect4Engine
from unbeatable.solvers.connect4.book_builder import enumerate_positions

game = connect4()


def run(engine: Connect4Engine, moves: list[str], mode: str) -> tuple[float, int, list[int]]:
    """Seconds, nodes and scores of solving ``moves`` one after another."""
    engine.reset()
    total, nodes, scores = 0.0, 0, []
    guess: int | None = None
    for m in moves:
        if mode == "cold":
            engine.reset()
        position = game.parse(m)
        start = time.perf_counter()
        score, n = engine.solve_score(position, guess=guess if mode == "warm+guess" else None)
        total += time.perf_counter() - start
        nodes += n
        scores.append(score)
        guess = score
    return total, nodes, scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=8, help="the book's depth")
    parser.add_argument("--start", type=int, default=40_000, help="first position of the block")
    parser.add_argument("--count", type=int, default=40, help="positions in the block")
    parser.add_argument("--workers", type=int, default=2, help="for the projection")
    args = parser.parse_args(argv)
    level = enumerate_positions(args.plies)[-1]
    block = [m for _, m in level[args.start : args.start + args.count]]
    engine = Connect4Engine(book=None)
    engine.solve_score(game.parse("2252576253462244111563365343671351441"))  # compile / load
    print(
        f"{len(block)} positions of {len(level):,} with {args.plies} stones, "
        f"from #{args.start} ({block[0]} .. {block[-1]})"
    )
    print(f"{'mode':<11} {'per position':>12} {'nodes':>12} {'x cold':>7} {'whole level':>12}")
    base = None
    reference: list[int] | None = None
    for mode in ("cold", "warm", "warm+guess"):
        seconds, nodes, scores = run(engine, block, mode)
        if reference is None:
            reference = scores
        assert scores == reference, f"{mode} disagrees"
        per = seconds / len(block)
        base = base or per
        hours = per * len(level) / args.workers / 3600
        print(
            f"{mode:<11} {per:>10.3f} s {nodes / len(block):>12,.0f} {base / per:>6.2f}x"
            f" {hours:>9.1f} h",
            flush=True,
        )
    print(f"(projection: {args.workers} workers, every position of the level like this block)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
