"""Past the opening book: how long the impossible level takes to prove a move
that keeps the value, testing the children in centre order or with the
heuristic's favourite first, one at a time or two at once, side by side on
the same positions.

The positions are those the AI meets right past the book in games against
perfect play: from openings of 2-7 stones of the public set ``Test_L1_R3``
(the sample under ``tests/data/connect4/``, or the set in ``--data FOLDER``),
both sides play book moves of the best value (at random among the best) to 8
stones, then x plays the book's stored move (9 stones, o to move: the book
bounds the value from one stone back), then o a move the engine proves keeps
the value (10 stones, x to move: bounded from two stones back). For each
position and each order, with the table cleared first, it times the search
for a move keeping that bound (the first step of every AI move past the book),
one test at a time, then with the heuristic's order two tests at once (the
engine's default under a time limit), and prints the totals, the median, the
slowest and how many took over 1 s and over 2 s (the AI's budget a move),
then the ratios of the totals.

Usage::

    python benchmarks/connect4_lead.py --openings 150
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from common import CONNECT4_SETS, data_file, data_option
from unbeatable.games.connect4 import Connect4Position, connect4
from unbeatable.search.engine import Limits
from unbeatable.solvers.connect4 import Connect4Engine

game = connect4()


def positions(engine: Connect4Engine, count: int, seed: int, data: Path) -> list[Connect4Position]:
    """9- and 10-stone positions reached by perfect play (see the module docstring)."""
    book = engine.book
    assert book is not None and book.plies == 8, "needs the shipped 8-stone book"
    rng = random.Random(seed)
    rows = [line.split() for line in data_file(data, "Test_L1_R3").read_text().splitlines()]
    short = [moves for moves, _ in rows if 2 <= len(moves) <= 7]
    found = []
    for moves in rng.sample(short, min(count, len(short))):
        position = game.parse(moves)
        while position.stones < 8:
            values = {}
            for col in game.moves(position):
                child = game.play(position, col)
                known = book.get(child)
                if child.winner is None and known is not None:
                    values[col] = -known
            if not values:
                break
            best = max(values.values())
            position = game.play(position, rng.choice([c for c, v in values.items() if v == best]))
        stored = book.move(position) if position.stones == 8 else None
        if stored is None:
            continue
        nine = game.play(position, stored)
        if nine.winner is not None:
            continue
        found.append(nine)
        engine.reset()
        reply = engine.solve(nine, Limits.seconds(60))
        if reply.move is not None and reply.move_proven:
            ten = game.play(nine, reply.move)
            if ten.winner is None:
                found.append(ten)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openings", type=int, default=150)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--cap", type=float, default=10.0, help="seconds at most per search")
    data_option(parser, CONNECT4_SETS, "the public sets")
    args = parser.parse_args(argv)
    engine = Connect4Engine()
    engine.warm_up()
    chosen = positions(engine, args.openings, args.seed, args.data)
    print(f"{len(chosen)} positions of 9 and 10 stones reached by perfect play")

    def centre(position: Connect4Position) -> int | None:
        return None

    orders = {
        "centre order": (centre, False),
        "heuristic first": (engine.lead, False),
        "... two at once": (engine.lead, True),
    }
    times: dict[str, list[float]] = {name: [] for name in orders}
    for position in chosen:
        engine.reset()
        lower = engine.lower_bound(position)
        if lower is None:
            continue
        for name, (lead, side_by_side) in orders.items():
            engine.reset()
            engine.side_by_side = side_by_side
            start = time.perf_counter()
            limits = Limits.seconds(args.cap)
            engine.prove_keeping_move(position, lower, limits, lead=lead(position))
            times[name].append(time.perf_counter() - start)
    print(
        f"{'order':<16} {'total s':>8} {'median s':>9} {'slowest s':>10} {'> 1 s':>6} {'> 2 s':>6}"
    )
    for name, spent in times.items():
        print(
            f"{name:<16} {sum(spent):8.1f} {statistics.median(spent):9.3f} {max(spent):10.2f}"
            f" {sum(t > 1 for t in spent):6d} {sum(t > 2 for t in spent):6d}"
        )
    centred, first, raced = (sum(times[name]) for name in orders)
    print(f"total time: centre order / heuristic first {centred / first:.2f}", end="")
    print(f", heuristic first / two at once {first / raced:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
