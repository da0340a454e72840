"""Connect Four solver benchmark on Pascal Pons' public test sets.

Runs each set through :class:`Connect4Engine` in strong mode and prints, per
set, positions, agreement with the stored scores, mean time and mean nodes per
position, next to the reference C++ solver's figures. As in Pons' own
benchmark, the transposition table is reset before every position (here by a
generation bump, not a memset) and the opening book is not used; numba's
compile time is excluded by a warm-up solve.

Usage: ``python benchmarks/connect4.py [--sets Test_L3_R1,Test_L2_R1] [--limit N]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from unbeatable.games.connect4 import connect4
from unbeatable.solvers.connect4 import Connect4Engine

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "connect4"

#: Reference C++ solver (same design, this kind of machine): mean seconds, mean nodes.
REFERENCE: dict[str, tuple[float, float]] = {
    "Test_L3_R1": (15e-6, 51),
    "Test_L2_R1": (88e-6, 449),
    "Test_L2_R2": (8.1e-3, 39_800),
    "Test_L1_R1": (0.59e-3, 3_300),
    "Test_L1_R2": (210e-3, 1_190_000),
    "Test_L1_R3": (9.8, 48_700_000),
}
DEFAULT_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2")


def _fmt_time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def run_set(engine: Connect4Engine, path: Path, limit: int | None) -> tuple[int, int, float, float]:
    """(positions, agreeing, mean seconds, mean nodes) over the first ``limit`` lines."""
    game = connect4()
    lines = path.read_text().split("\n")
    cases = [line.split() for line in lines if line.strip()][:limit]
    total_time = 0.0
    total_nodes = 0
    agree = 0
    for moves, expected in cases:
        position = game.parse(moves)
        engine.reset()
        start = time.perf_counter()
        score, nodes = engine.solve_score(position)
        total_time += time.perf_counter() - start
        total_nodes += nodes
        agree += score == int(expected)
    n = len(cases)
    return n, agree, total_time / n, total_nodes / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS), help="comma-separated set names")
    parser.add_argument("--limit", type=int, default=None, help="first N lines of each set")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the test sets")
    args = parser.parse_args(argv)
    engine = Connect4Engine()
    # Warm-up: compile, or load numba's cache, outside the timings.
    engine.solve_score(connect4().parse("2252576253462244111563365343671351441"))
    header = (
        f"{'set':<11} {'pos':>5} {'agree':>7} {'mean time':>10} {'mean nodes':>12}"
        f" {'ref time':>10} {'ref nodes':>11} {'time x':>7} {'nodes x':>8}"
    )
    print(header)
    ok = True
    for name in args.sets.split(","):
        path = args.data / name
        if not path.exists():
            print(f"{name}: missing ({path})", file=sys.stderr)
            ok = False
            continue
        n, agree, mean_t, mean_n = run_set(engine, path, args.limit)
        ref_t, ref_n = REFERENCE.get(name, (float("nan"), float("nan")))
        print(
            f"{name:<11} {n:>5} {100 * agree / n:>6.1f}% {_fmt_time(mean_t):>10}"
            f" {mean_n:>12,.0f} {_fmt_time(ref_t):>10} {ref_n:>11,.0f}"
            f" {mean_t / ref_t:>7.2f} {mean_n / ref_n:>8.2f}",
            flush=True,
        )
        ok = ok and agree == n
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
