"""Connect Four from scratch: each board's empty position, no opening book,
side by side with the two reference solvers in one run.

Solves the empty board of each board size named (strong: the exact score,
so the outcome and the move on which perfect play ends) from an empty
transposition table, with no book: ours in this process, as ``unbeatable
solve connect4:W,H "" --no-book`` finds its score (``--threads 2``, the
default: with the helper thread on the second core; ``1``: without), and, in
the same run, the references built outside this repository by
``connect4_refs.py`` (which says how to get their sources):

* Christophe Steininger's solver (the fastest open one), compiled for the
  board with the same number of threads as ours and its own default table
  (1 GB); ``--no-steininger`` leaves it out;
* Pascal Pons' solver, compiled for the board (at most 9 columns), on one
  thread, the only way it runs (about ten minutes on 7x6); ``--no-pons``
  leaves it out.

Every solver's time is the solve alone, by its own clock (the process's start
and the table's allocation left out): ours in this process, the references'
through a small program of ours linked to each; the CPU column likewise
(all threads). Nodes are each solver's own count (Steininger's leaves out the
positions its static analysis settles), so their ratio compares the trees'
sizes only roughly.

With ``--repeat N``, ours and Steininger's run N times each, in turn (ours,
Steininger's, ours, ...), and the medians are compared, so that a machine
shared with other work slows both alike; Pons' runs once. Prints every run,
then per board and thread count the ratios ours / Steininger and ours / Pons
of time and of nodes (a time ratio below 0.5: twice as fast), and with
``--threads 1,2`` our time on two threads over that on one. Exits 1 if the
scores disagree, 2 if a board or a reference is missing.

Usage::

    python benchmarks/connect4_scratch.py --boards 7x6 --repeat 3
    python benchmarks/connect4_scratch.py --boards 7x6 --repeat 3 --no-pons
    python benchmarks/connect4_scratch.py --boards 4x4,5x4,6x4,5x5,6x5 --threads 1,2
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from common import duration
from connect4_refs import (
    PONS_BUILDS,
    PONS_COLUMNS,
    PONS_SOURCE,
    STEININGER_BUILDS,
    STEININGER_SOURCE,
    Failed,
    Unavailable,
    pons,
    pons_build,
    steininger,
    steininger_build,
)
from unbeatable.games.connect4 import Shape, rules_for, shape
from unbeatable.search.engine import Limits
from unbeatable.solvers.connect4.sliced import SlicedSearch
from unbeatable.solvers.connect4.table import TranspositionTable


@dataclass(frozen=True)
class Solve:
    """One solver's run on one board's empty position."""

    who: str
    threads: int
    score: int
    nodes: int
    seconds: float
    cpu: float


def board(text: str) -> Shape:
    """``WxH`` as a board shape (ValueError, saying why, if it is not one)."""
    columns, _, rows = text.strip().lower().partition("x")
    if not (columns.isdigit() and rows.isdigit()):
        raise ValueError(f"{text!r} is not WxH (columns x rows, e.g. 7x6)")
    return shape(int(columns), int(rows))


def solve_ours(board: Shape, threads: int) -> tuple[Solve, int]:
    """Our solve of the empty board from a fresh table (the kernel compiled,
    or loaded, before the clock starts), and the table's bytes."""
    search = SlicedSearch(TranspositionTable(board), board, helpers=threads > 1)
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
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    solved = Solve("ours", threads, score, search.nodes - before, wall, cpu)
    return solved, int(search.table.entries.nbytes)


def row(size: str, run: Solve) -> str:
    """One run's line."""
    return (
        f"{size:6} {run.who:11} {run.threads:>7} {run.score:>5} {run.nodes:>15,}"
        f" {duration(run.seconds):>10} {duration(run.cpu):>10}"
    )


def ratio(ours: float, theirs: float) -> str:
    """``ours / theirs`` to three figures, or ``-`` when theirs is nothing."""
    return f"{ours / theirs:.3g}" if theirs > 0 else "-"


def median(runs: list[Solve]) -> tuple[float, float]:
    """Median seconds and nodes of some runs."""
    return statistics.median(r.seconds for r in runs), statistics.median(r.nodes for r in runs)


def compared(name: str, ours: list[Solve], theirs: list[Solve]) -> str:
    """Ours against one reference: the ratios of the medians."""
    our_time, our_nodes = median(ours)
    time_, nodes = median(theirs)
    return (
        f"ours / {name}: time {ratio(our_time, time_)}"
        f" ({duration(our_time)} / {duration(time_)}),"
        f" nodes {ratio(our_nodes, nodes)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="7x6", help="comma-separated WxH (default 7x6)")
    parser.add_argument(
        "--threads", default="2", help="ours and Steininger's: 1, 2 or 1,2 (default 2)"
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of ours and Steininger's")
    parser.add_argument("--no-pons", action="store_true", help="leave Pons' solver out")
    parser.add_argument("--no-steininger", action="store_true", help="leave Steininger's out")
    parser.add_argument("--pons-src", type=Path, default=PONS_SOURCE)
    parser.add_argument("--pons-builds", type=Path, default=PONS_BUILDS)
    parser.add_argument("--steininger-src", type=Path, default=STEININGER_SOURCE)
    parser.add_argument("--steininger-builds", type=Path, default=STEININGER_BUILDS)
    args = parser.parse_args(argv)
    try:
        shapes = [board(text) for text in args.boards.split(",")]
    except ValueError as error:
        print(f"--boards: {error}", file=sys.stderr)
        return 2
    try:
        threads = sorted({int(n) for n in args.threads.split(",")})
    except ValueError:
        threads = []
    if not threads or not set(threads) <= {1, 2}:
        print(f"--threads: 1, 2 or 1,2, not {args.threads!r}", file=sys.stderr)
        return 2
    if args.repeat < 1:
        print("--repeat: at least 1", file=sys.stderr)
        return 2

    # Every reference built before anything is timed (a build takes minutes).
    pons_at: dict[Shape, Path] = {}
    steininger_at: dict[tuple[Shape, int], Path] = {}
    for each in shapes:
        try:
            if not args.no_pons and each.columns <= PONS_COLUMNS:
                pons_at[each] = pons_build(
                    each.columns, each.rows, source=args.pons_src, builds=args.pons_builds
                )
        except Unavailable as error:
            print(f"Pons' solver: {error}\n(or leave it out: --no-pons)", file=sys.stderr)
            return 2
        try:
            for n in threads if not args.no_steininger else ():
                steininger_at[each, n] = steininger_build(
                    each.columns,
                    each.rows,
                    n,
                    source=args.steininger_src,
                    builds=args.steininger_builds,
                )
        except Unavailable as error:
            print(
                f"Steininger's solver: {error}\n(or leave it out: --no-steininger)",
                file=sys.stderr,
            )
            return 2

    print(
        f"{'board':6} {'solver':11} {'threads':>7} {'score':>5} {'nodes':>15}"
        f" {'time':>10} {'cpu':>10}",
        flush=True,
    )
    summary: list[str] = []
    agree = True
    try:
        for each in shapes:
            size = f"{each.columns}x{each.rows}"
            scores: set[int] = set()
            ours: dict[int, list[Solve]] = {n: [] for n in threads}
            his: dict[int, list[Solve]] = {n: [] for n in threads}
            notes: list[str] = []
            for n in threads:
                for _ in range(args.repeat):
                    run, table_bytes = solve_ours(each, n)
                    ours[n].append(run)
                    print(row(size, run), flush=True)
                    if (each, n) in steininger_at:
                        answers = steininger(
                            steininger_at[each, n], each.columns, each.rows, n, [""]
                        )
                        (answer,) = answers.runs
                        run = Solve(
                            "Steininger", n, answer.score, answer.nodes, answer.seconds, answer.cpu
                        )
                        his[n].append(run)
                        print(row(size, run), flush=True)
                        table = re.search(r"a (\S+ \S+) table", answers.settings)
                        note = f"Steininger: a {table[1] if table else '?'} table."
                        if note not in notes:
                            notes.append(note)
            notes.insert(0, f"ours: a {table_bytes / 2**20:,.0f} MiB table.")
            pons_runs: list[Solve] = []
            if each in pons_at:
                answers = pons(pons_at[each], each.columns, each.rows, [""])
                (answer,) = answers.runs
                run = Solve("Pons", 1, answer.score, answer.nodes, answer.seconds, answer.cpu)
                pons_runs.append(run)
                print(row(size, run), flush=True)
            elif not args.no_pons:
                notes.append(f"Pons: no build past {PONS_COLUMNS} columns.")
            for runs in [*ours.values(), *his.values(), pons_runs]:
                scores.update(r.score for r in runs)
            if len(scores) > 1:
                agree = False
                summary.append(f"{size}: the scores DISAGREE: {sorted(scores)}")
            summary.append(f"{size}: " + " ".join(notes))
            for n in threads:
                line = f"{size} ours on {n} thread{'s' if n > 1 else ''}"
                if args.repeat > 1:
                    line += f" (medians of {args.repeat})"
                parts = []
                if his[n]:
                    parts.append(compared("Steininger", ours[n], his[n]))
                if pons_runs:
                    parts.append(compared("Pons (1 thread)", ours[n], pons_runs))
                summary.append(line + (": " + "; ".join(parts) if parts else ": no reference"))
            if len(threads) == 2:
                one, two = median(ours[1])[0], median(ours[2])[0]
                summary.append(f"{size} ours, time on 2 threads / on 1: {ratio(two, one)}")
    except Failed as error:
        print(error, file=sys.stderr)
        return 1
    print()
    print("\n".join(summary))
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
