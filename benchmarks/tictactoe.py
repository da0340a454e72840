"""Tic-tac-toe engines side by side: plain minimax, alpha-beta, negamax + table.

Run from the repository root::

    python benchmarks/tictactoe.py            # everything (about 15 s)
    python benchmarks/tictactoe.py --quick    # skip the slow minimax sweep

It measures, in one run on this machine:

1. the best move from the empty board, cold (fresh engine) for each engine,
   and warm (the production API answering again in the same process);
2. the analysis of all 4,520 non-terminal reachable positions per engine;
3. a cold process: Python's own start-up next to ``import unbeatable`` plus
   one best-move answer, and the CLI answering ``analyze --json``.

Times are medians of repeated runs; ratios are against plain minimax.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from typing import Any

import unbeatable
from common import duration, median_time
from unbeatable.api import ALGORITHMS, engine
from unbeatable.games import get_game
from unbeatable.search.analysis import analyse
from unbeatable.search.minimax import TextbookEngine, alphabeta, minimax
from unbeatable.search.negamax import Negamax

GAME = get_game("tictactoe")


def nonterminal_positions() -> list[Any]:
    seen: dict[str, Any] = {}
    stack = [GAME.initial()]
    while stack:
        position = stack.pop()
        if position.cells not in seen:
            seen[position.cells] = position
            stack.extend(GAME.play(position, m) for m in GAME.moves(position))
    return [p for p in seen.values() if not GAME.is_terminal(p)]


def fresh(algorithm: str) -> Any:
    if algorithm == "minimax":
        return TextbookEngine(GAME, minimax)
    if algorithm == "alphabeta":
        return TextbookEngine(GAME, alphabeta)
    return Negamax(GAME)


def best_move_table() -> None:
    empty = GAME.initial()
    print("Best move from the empty board (cold: a fresh engine each time)")
    print(f"{'engine':<22}{'time':>12}{'nodes':>12}{'speed-up':>12}")
    base = None
    for algorithm in ALGORITHMS:
        repeat = 3 if algorithm == "minimax" else 20
        seconds, result = median_time(lambda a=algorithm: analyse(GAME, empty, fresh(a)), repeat)
        base = base or seconds
        print(f"{algorithm:<22}{duration(seconds):>12}{result.nodes:>12,}{base / seconds:>11.0f}x")
    unbeatable.best_move(GAME, empty)  # warm the process-wide engine and memo
    seconds, _ = median_time(lambda: unbeatable.best_move(GAME, empty), 10_000)
    assert base is not None
    print(f"{'negamax, warm (API)':<22}{duration(seconds):>12}{'-':>12}{base / seconds:>11,.0f}x")
    positions = nonterminal_positions()
    for p in positions:
        unbeatable.best_move(GAME, p)
    start = time.perf_counter()
    for p in positions:
        unbeatable.best_move(GAME, p)
    per = (time.perf_counter() - start) / len(positions)
    print(f"{'warm, any position':<22}{duration(per):>12}{'-':>12}{base / per:>11,.0f}x")
    # The same query with the position given as text, as the CLI and web do.
    texts = [GAME.format(p) for p in positions]
    for t in texts:
        unbeatable.best_move("tictactoe", t)
    start = time.perf_counter()
    for t in texts:
        unbeatable.best_move("tictactoe", t)
    per = (time.perf_counter() - start) / len(texts)
    print(f"{'warm, position as text':<22}{duration(per):>12}{'-':>12}{base / per:>11,.0f}x")
    print()


def sweep_table(skip_minimax: bool) -> None:
    positions = nonterminal_positions()
    print(f"Analysis of all {len(positions):,} non-terminal positions (one engine per run)")
    print(f"{'engine':<22}{'time':>12}{'nodes':>14}{'per position':>14}{'speed-up':>10}")
    base = None
    for algorithm in ALGORITHMS:
        if skip_minimax and algorithm == "minimax":
            continue
        eng = fresh(algorithm)
        start = time.perf_counter()
        nodes = sum(analyse(GAME, p, eng).nodes for p in positions)
        seconds = time.perf_counter() - start
        base = base or seconds
        print(
            f"{algorithm:<22}{duration(seconds):>12}{nodes:>14,}"
            f"{duration(seconds / len(positions)):>14}{base / seconds:>9.0f}x"
        )
    print()


def cold_process_table() -> None:
    def run(argv: list[str], stdin: str = "") -> float:
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, text=True, check=True, capture_output=True)
        return time.perf_counter() - start

    py = sys.executable
    cases = [
        ("python -c pass", [py, "-c", "pass"]),
        ("python -c 'import unbeatable'", [py, "-c", "import unbeatable"]),
        (
            "import + best_move(empty)",
            [py, "-c", "import unbeatable; unbeatable.best_move('tictactoe', '.../.../...')"],
        ),
        (
            "unbeatable analyze --json",
            [py, "-m", "unbeatable", "analyze", "tictactoe", ".../.../...", "--json"],
        ),
    ]
    print("Cold processes (median of 15 runs each)")
    base = None
    for name, argv in cases:
        seconds = statistics.median(run(argv) for _ in range(15))
        base = base or seconds
        print(f"{name:<34}{duration(seconds):>12}{'+' + duration(seconds - base):>14}")
    texts = "\n".join(GAME.format(p) for p in nonterminal_positions()) + "\n"
    seconds = statistics.median(
        run([py, "-m", "unbeatable", "analyze", "tictactoe", "-"], texts) for _ in range(3)
    )
    print(f"{'analyze - (all 4,520 positions)':<34}{duration(seconds):>12}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the minimax sweep")
    args = parser.parse_args()
    engine(GAME)  # import everything before timing anything
    best_move_table()
    sweep_table(skip_minimax=args.quick)
    cold_process_table()


if __name__ == "__main__":
    main()
