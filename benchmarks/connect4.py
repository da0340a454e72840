"""Connect Four solver benchmark, side by side with a reference solver.

Runs the same positions through :class:`Connect4Engine` (strong mode, no
opening book, in this process) and, with ``--reference PATH``, through a
reference solver's executable that reads one move sequence per line on
standard input and prints ``<moves> <score>`` per line (Pascal Pons' ``c4solver``
does; build it outside this repository). Per set it prints the positions,
the agreement of each solver with the stored scores, the mean time per
position of each, and the ratio ours / reference.

Both solvers keep their transposition table from one position to the next,
as the reference's executable does (it cannot be told to clear it). Our time
is the solve alone; the reference's is its process's wall time minus that
of a run with empty input (start-up and table allocation), so it includes
its parsing and output, a few microseconds per position.

Sets: Pons' public ones, by default the samples under ``tests/data/connect4/``
(``--data FOLDER`` names a folder of the full sets), and a private one
generated here (``private``: random games from the empty board stopped after
12 to 24 moves, scored by our solver; the reference must agree).

Usage::

    python benchmarks/connect4.py --reference /path/to/c4solver
    python benchmarks/connect4.py --sets Test_L1_R3 --limit 50 --reference /path/to/c4solver
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

from common import CONNECT4_SETS, data_option, duration
from unbeatable.games.connect4 import Connect4Position, connect4
from unbeatable.solvers.connect4 import Connect4Engine, kernel

DEFAULT_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "private")
game = connect4()


def private_set(count: int, seed: int) -> list[tuple[str, int | None]]:
    """Random mid-game positions nobody has won and the side to move cannot
    win at once (the public sets' rules); scores filled in by the caller."""
    rng = random.Random(seed)
    out: list[tuple[str, int | None]] = []
    seen: set[str] = set()
    while len(out) < count:
        stop = rng.randint(12, 24)
        position = game.initial()
        while position.stones < stop and not game.is_terminal(position):
            position = game.play(position, rng.choice(game.moves(position)))
        moves = position.moves or ""
        if game.is_terminal(position) or moves in seen or _can_win_now(position):
            continue
        seen.add(moves)
        out.append((moves, None))
    return out


def _can_win_now(position: Connect4Position) -> bool:
    return any(game.play(position, c).winner is not None for c in game.moves(position))


def load(name: str, data: Path, limit: int | None, seed: int) -> list[tuple[str, int | None]]:
    if name == "private":
        return private_set(limit or 200, seed)
    rows = [line.split() for line in (data / name).read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in rows[:limit]]


def run_ours(
    engine: Connect4Engine, cases: list[tuple[str, int | None]]
) -> tuple[list[int], float, int]:
    """Our scores, total solve time and total nodes (table carried over)."""
    scores, total, nodes = [], 0.0, 0
    for moves, _ in cases:
        position = game.parse(moves)
        start = time.perf_counter()
        score, n = engine.solve_score(position)
        total += time.perf_counter() - start
        scores.append(score)
        nodes += n
    return scores, total, nodes


def run_reference(binary: Path, cases: list[tuple[str, int | None]]) -> tuple[list[int], float]:
    """The reference's scores and its wall time net of start-up."""

    def timed(text: str) -> tuple[str, float]:
        start = time.perf_counter()
        done = subprocess.run([str(binary)], input=text, capture_output=True, text=True, check=True)
        return done.stdout, time.perf_counter() - start

    idle = min(timed("")[1] for _ in range(3))
    out, wall = timed("".join(moves + "\n" for moves, _ in cases))
    scores = [int(line.split()[-1]) for line in out.splitlines() if line.strip()]
    return scores, max(wall - idle, 0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS), help="comma-separated names")
    parser.add_argument("--limit", type=int, default=None, help="first N lines of each set")
    data_option(parser, CONNECT4_SETS, "the public sets")
    parser.add_argument("--reference", type=Path, help="the reference solver's executable")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the private set")
    args = parser.parse_args(argv)
    engine = Connect4Engine(book=None)
    # Warm-up: compile, or load numba's cache, outside the timings.
    engine.solve_score(game.parse("2252576253462244111563365343671351441"))
    print(f"table: {kernel.TABLE_SIZE:,} entries, kept from one position to the next")
    header = f"{'set':<11} {'pos':>5} {'agree':>7} {'ours':>10} {'nodes':>12}"
    if args.reference:
        header += f" {'ref agree':>9} {'reference':>10} {'ours/ref':>8}"
    print(header)
    ok = True
    for name in args.sets.split(","):
        if name != "private" and not (args.data / name).exists():
            print(f"{name}: missing ({args.data / name})", file=sys.stderr)
            ok = False
            continue
        cases = load(name, args.data, args.limit, args.seed)
        engine.reset()
        scores, seconds, nodes = run_ours(engine, cases)
        expected = [s if e is None else e for s, (_, e) in zip(scores, cases, strict=True)]
        n = len(cases)
        agree = sum(s == e for s, e in zip(scores, expected, strict=True))
        line = (
            f"{name:<11} {n:>5} {100 * agree / n:>6.1f}% {duration(seconds / n):>10}"
            f" {nodes / n:>12,.0f}"
        )
        ok = ok and agree == n
        if args.reference:
            ref_scores, ref_seconds = run_reference(args.reference, cases)
            ref_agree = sum(s == e for s, e in zip(ref_scores, expected, strict=False))
            ok = ok and ref_agree == n
            line += (
                f" {100 * ref_agree / n:>8.1f}% {duration(ref_seconds / n):>10}"
                f" {seconds / ref_seconds:>8.2f}"
            )
        print(line, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
