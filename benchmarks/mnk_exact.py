"""The exact m,n,k engine against the generic negamax, side by side in one run.

1. From the empty board of ``4,4,4``, ``4,5,4``, ``5,5,4`` and ``5,5,5``: the
   exact engine (kernel loaded, table emptied before each solve) and a fresh
   generic negamax (``unbeatable.search.negamax.Negamax``) with ``--limit``
   seconds; times, nodes and the ratio.
2. What each of the exact engine's helpers is worth: the same solves with one
   switched off at a time, then all of them (``--limit`` each).
3. The impossible level's first moves on 5x5 four-in-a-row: every position
   with one or two stones (one of each set of mirror images), each solved
   from an empty table as a first move in a fresh process would be: the
   slowest and the total, against the game's budget.
4. The first answer of a fresh process (Python, numba's cached kernel, the
   table): the price a user pays once.
5. Past 25 cells (``--past``, alone): every board of 26-36 cells with k of
   3-6 (rows at most columns) from the empty board, with ``--limit``; then
   ``unbeatable solve mnk:6,5,4 ""`` as a user runs it (a fresh process,
   median of 3), and the proven line of 6,5,4 checked by the generic
   negamax's iterative deepening from every position on it, the empty board
   first (11 plies left to 1), ``--line-limit`` seconds each.

Usage: ``python benchmarks/mnk_exact.py [--limit 60] [--past [--line-limit 600]]``
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from unbeatable import api
from unbeatable.games.mnk import MNKGame, MNKPosition, mnk_game
from unbeatable.search.engine import Limits, Outcome, SearchTimeout, Solved, outcome_from_value
from unbeatable.search.negamax import Negamax
from unbeatable.solvers.mnk.exact import HELPERS, MAX_CELLS, ExactEngine

GAMES = ("4,4,4", "4,5,4", "5,5,4", "5,5,5")
_FIRST_ANSWER = (
    "from unbeatable.games.mnk import mnk_game\n"
    "from unbeatable.solvers.mnk.exact import ExactEngine\n"
    "game = mnk_game('5,5,4')\n"
    "assert ExactEngine(game).solve(game.initial()).outcome.result == 'draw'\n"
)


def timed(
    engine: ExactEngine | Negamax[MNKPosition, int], position: MNKPosition, limit: float
) -> tuple[Solved, float]:
    start = time.perf_counter()
    solved = engine.solve(position, Limits.seconds(limit))
    return solved, time.perf_counter() - start


def cell(solved: Solved, seconds: float, limit: float) -> str:
    if not solved.outcome.exact:
        return f"{'> ' + format(limit, '.0f') + ' s':>10} {solved.nodes:>13,} n"
    return f"{seconds:8.3f} s {solved.nodes:>13,} n"


def fresh_exact(game: MNKGame, without: tuple[str, ...] = ()) -> ExactEngine:
    """An engine whose kernel is loaded and table touched, then emptied."""
    engine = ExactEngine(game, without=without)
    engine.warm_up()
    return engine


def empty_boards(limit: float) -> bool:
    print("From the empty board: exact engine vs generic negamax")
    print(f"{'game':<8}{'result':>7}  {'exact':>26}  {'generic negamax':>26}  {'ratio':>9}")
    ok = True
    for name in GAMES:
        game = mnk_game(name)
        solved, seconds = timed(fresh_exact(game), game.initial(), limit)
        generic, generic_seconds = timed(Negamax(game, max_entries=1 << 22), game.initial(), limit)
        ok = ok and solved.outcome.result == "draw" and solved.outcome.exact
        if generic.outcome.exact:
            ok = ok and generic.outcome == solved.outcome
            ratio = f"{generic_seconds / seconds:,.0f}x"
        else:
            ratio = f"> {limit / seconds:,.0f}x"
        print(
            f"{name:<8}{solved.outcome.result:>7}  {cell(solved, seconds, limit):>26}  "
            f"{cell(generic, generic_seconds, limit):>26}  {ratio:>9}"
        )
    return ok


def helpers(limit: float) -> None:
    print("\nThe exact engine without one helper (then without all)")
    variants: list[tuple[str, tuple[str, ...]]] = [("as shipped", ())]
    variants += [(f"no {name}", (name,)) for name in HELPERS]
    variants.append(("none", tuple(HELPERS)))
    print(f"{'variant':<18}" + "".join(f"{name:>28}" for name in GAMES))
    for label, without in variants:
        cells = []
        for name in GAMES:
            game = mnk_game(name)
            solved, seconds = timed(fresh_exact(game, without), game.initial(), limit)
            cells.append(cell(solved, seconds, limit))
        print(f"{label:<18}" + "".join(f"{c:>28}" for c in cells))


def first_moves() -> None:
    game = mnk_game("5,5,4")
    budget = api.default_time_limit(game) or 0.0
    seen: dict[object, MNKPosition] = {}
    for first in range(game.size):
        one = game.play(game.initial(), first)
        seen.setdefault(game.key(one), one)
        for second in game.moves(one):
            two = game.play(one, second)
            seen.setdefault(game.key(two), two)
    engine = fresh_exact(game)
    times: list[tuple[float, int, str]] = []
    proven = 0
    for position in seen.values():
        engine.reset()
        solved, seconds = timed(engine, position, budget)
        proven += solved.outcome.exact and solved.move_proven
        times.append((seconds, solved.nodes, game.format(position)))
    times.sort(reverse=True)
    slowest, nodes, where = times[0]
    print(
        f"\n5x5 four-in-a-row, every position with one or two stones up to symmetry "
        f"({len(times)}), each from an empty table with the game's budget ({budget:.0f} s):"
    )
    print(f"  proven: {proven} of {len(times)}")
    print(f"  slowest: {slowest * 1000:.0f} ms ({nodes:,} nodes) for {where}")
    print(f"  median: {statistics.median(t for t, _, _ in times) * 1000:.1f} ms")
    print(f"  total: {sum(t for t, _, _ in times):.2f} s")


def first_answer() -> None:
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", _FIRST_ANSWER], check=True)
        runs.append(time.perf_counter() - start)
    bare = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - start)
    print(
        f"\nA fresh process solving 5,5,4 from the empty board (median of 5): "
        f"{statistics.median(runs):.2f} s (python -c pass: {statistics.median(bare) * 1000:.0f} ms)"
    )


def past_25_cells(limit: float) -> None:
    print("Past 25 cells, from the empty board (table emptied before each solve)")
    print(f"{'game':<10}{'value':>14}  {'exact':>26}")
    for cells in range(26, MAX_CELLS + 1):
        for rows in range(2, 21):
            columns, rest = divmod(cells, rows)
            if rest or columns < rows or columns > 20:
                continue
            for k in range(3, min(6, columns) + 1):
                game = MNKGame(rows, columns, k)
                solved, seconds = timed(fresh_exact(game), game.initial(), limit)
                value = api.value_words(solved.outcome.result, solved.outcome.plies)
                print(f"{rows},{columns},{k:<6}{value:>14}  {cell(solved, seconds, limit):>26}")


def six_five_four(limit: float) -> bool:
    """6,5,4 as a user solves it, and its proven line checked by the generic
    negamax (iterative deepening, so a short win costs a shallow search)."""
    command = [sys.executable, "-m", "unbeatable", "solve", "mnk:6,5,4", ""]
    runs = []
    answer = ""
    for _ in range(3):
        start = time.perf_counter()
        answer = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        runs.append(time.perf_counter() - start)
    print(
        f"\n$ unbeatable solve mnk:6,5,4 ''   (a fresh process, median of 3: "
        f"{statistics.median(runs):.2f} s)"
    )
    print(answer.rstrip())
    game = mnk_game("6,5,4")
    analysis = api.analyze(game, "")
    best = analysis.best
    assert best is not None and best.result == "win"
    print(f"best move {best.move}, {best.words}; the line: {' '.join(best.line)}")
    print("Every position on the line, valued by the generic negamax:")
    position = game.initial()
    ok = True
    for i in range(len(best.line)):
        if i:
            position = game.play(position, game.parse_move(position, best.line[i - 1]))
        left = len(best.line) - i
        exact = api.solve(game, position)
        expected = Outcome(exact.result, exact.plies)
        start = time.perf_counter()
        generic: Negamax[MNKPosition, int] = Negamax(game, max_entries=1 << 22)
        found: Outcome | None = None
        nodes = 0
        try:
            for step in generic.iterate(position, Limits.seconds(limit)):
                nodes += step.nodes
                if step.exact:
                    found = outcome_from_value(game, position, step.value)
        except SearchTimeout as timeout:
            nodes += timeout.nodes
        seconds = time.perf_counter() - start
        said = "> limit" if found is None else api.value_words(found.result, found.plies)
        agree = "agree" if found == expected else ("not reached" if found is None else "DIFFER")
        ok = ok and found in (None, expected)
        print(
            f"  {left} {'ply' if left == 1 else 'plies'} left {game.format(position)}: exact "
            f"{api.value_words(exact.result, exact.plies)}, negamax {said} "
            f"({seconds:.1f} s, {nodes:,} nodes): {agree}"
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    parser.add_argument("--past", action="store_true", help="only the boards past 25 cells")
    parser.add_argument(
        "--line-limit", type=float, default=600.0, help="seconds per negamax check of 6,5,4"
    )
    args = parser.parse_args(argv)
    if args.past:
        past_25_cells(args.limit)
        return 0 if six_five_four(args.line_limit) else 1
    ok = empty_boards(args.limit)
    helpers(args.limit)
    first_moves()
    first_answer()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
