"""Connect Four solver benchmark, side by side with the reference solvers.

Runs the same positions through :class:`Connect4Engine` (strong mode, no
opening book, in this process) and, in the same run, through the references,
built outside this repository:

* ``--steininger``: Christophe Steininger's solver, the fastest open one,
  compiled for 7x6 with as many threads as ours (``--threads``) and its own
  default table (1 GB) by ``connect4_refs.py`` (which says how to get its
  sources); fed the positions by a small program of ours linked to it, which
  times each solve by its own clock and reports the nodes it counted;
* ``--reference PATH``: an executable that reads one move sequence per line
  on standard input and prints ``<moves> <score>`` per line (Pascal Pons'
  ``c4solver`` does, on one thread); its time is its process's wall time
  minus that of a run with empty input (start-up and table allocation), so it
  includes its parsing and output, a few microseconds per position.

Per set it prints the positions, each solver's agreement with the stored
scores, the mean time per position of each, our nodes per position (and
Steininger's), and the ratios ours / reference. Every solver keeps its
transposition table from one position to the next within a set (Pons'
executable cannot be told to clear it; Steininger's is one process a set,
as ours is one table a set) and starts each set with an empty one. Ours on
one thread (the default) is the kernel's one-call solve; on two, the search
``unbeatable solve`` runs (a helper thread on the second core once a search
passes a tenth of a second). Exits 1 if any solver disagrees with the stored
scores, 2 if a reference is missing.

Sets: Pons' public ones, by default the samples under ``tests/data/connect4/``
(``--data FOLDER`` names a folder of the full sets), and a private one
generated here (``private``: random games from the empty board stopped after
12 to 24 moves, scored by our solver; the reference must agree).

Usage::

    python benchmarks/connect4.py --reference /path/to/c4solver
    python benchmarks/connect4.py --sets Test_L1_R3 --limit 50 --reference /path/to/c4solver
    python benchmarks/connect4.py --data ../shared/data/connect4 --limit 100 --threads 2 \
        --sets Test_L3_R1,Test_L2_R1,Test_L2_R2,Test_L1_R1,Test_L1_R2,Test_L1_R3 --steininger
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

from common import CONNECT4_SETS, data_option, duration
from connect4_refs import (
    STEININGER_BUILDS,
    STEININGER_SOURCE,
    Failed,
    Unavailable,
    steininger,
    steininger_build,
)
from unbeatable.games.connect4 import Connect4Position, connect4
from unbeatable.search.engine import UNLIMITED
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
    engine: Connect4Engine, cases: list[tuple[str, int | None]], threads: int
) -> tuple[list[int], float, int]:
    """Our scores, total solve time and total nodes (table carried over)."""
    scores, total, nodes = [], 0.0, 0
    searcher = engine.searcher
    for moves, _ in cases:
        position = game.parse(moves)
        before = searcher.nodes
        start = time.perf_counter()
        if threads == 1:
            score, _ = engine.solve_score(position)
        else:
            score = searcher.score(position, UNLIMITED)
        total += time.perf_counter() - start
        scores.append(score)
        nodes += searcher.nodes - before
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


def ratio(ours: float, theirs: float) -> str:
    """``ours / theirs`` to two decimals, or ``-`` when theirs is nothing."""
    return f"{ours / theirs:.2f}" if theirs > 0 else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS), help="comma-separated names")
    parser.add_argument("--limit", type=int, default=None, help="first N lines of each set")
    data_option(parser, CONNECT4_SETS, "the public sets")
    parser.add_argument("--reference", type=Path, help="the reference solver's executable")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the private set")
    parser.add_argument(
        "--threads", type=int, default=1, choices=(1, 2), help="ours and Steininger's"
    )
    parser.add_argument("--steininger", action="store_true", help="Steininger's solver too")
    parser.add_argument("--steininger-src", type=Path, default=STEININGER_SOURCE)
    parser.add_argument("--steininger-builds", type=Path, default=STEININGER_BUILDS)
    args = parser.parse_args(argv)
    if args.reference is not None and not args.reference.is_file():
        print(f"--reference: no such file {args.reference}", file=sys.stderr)
        return 2
    his: Path | None = None
    if args.steininger:
        try:
            his = steininger_build(
                7, 6, args.threads, source=args.steininger_src, builds=args.steininger_builds
            )
            settings = steininger(his, 7, 6, args.threads, []).settings
        except Unavailable as error:
            print(f"Steininger's solver: {error}", file=sys.stderr)
            return 2
        except Failed as error:
            print(error, file=sys.stderr)
            return 1
        print(f"Steininger: {settings}")
    engine = Connect4Engine(book=None)
    # Warm-up: compile, or load numba's cache, outside the timings.
    warm = game.parse("2252576253462244111563365343671351441")
    engine.solve_score(warm)
    engine.searcher.score(warm, UNLIMITED)
    print(
        f"ours: {args.threads} thread(s), a table of {kernel.TABLE_SIZE:,} entries"
        f" ({kernel.TABLE_SIZE * 8 / 2**20:,.0f} MiB)"
    )
    header = f"{'set':<11} {'pos':>5} {'agree':>7} {'ours':>10} {'nodes':>12}"
    if his is not None:
        header += f" {'St agree':>8} {'Steininger':>10} {'St nodes':>12} {'ours/St':>7}"
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
        scores, seconds, nodes = run_ours(engine, cases, args.threads)
        expected = [s if e is None else e for s, (_, e) in zip(scores, cases, strict=True)]
        n = len(cases)
        agree = sum(s == e for s, e in zip(scores, expected, strict=True))
        line = (
            f"{name:<11} {n:>5} {100 * agree / n:>6.1f}% {duration(seconds / n):>10}"
            f" {nodes / n:>12,.0f}"
        )
        ok = ok and agree == n
        if his is not None:
            try:
                answers = steininger(his, 7, 6, args.threads, [moves for moves, _ in cases])
            except Failed as error:
                print(error, file=sys.stderr)
                return 1
            runs = answers.runs
            his_agree = sum(r.score == e for r, e in zip(runs, expected, strict=True))
            his_seconds = sum(r.seconds for r in runs)
            his_nodes = sum(r.nodes for r in runs)
            ok = ok and his_agree == n
            line += (
                f" {100 * his_agree / n:>7.1f}% {duration(his_seconds / n):>10}"
                f" {his_nodes / n:>12,.0f} {ratio(seconds, his_seconds):>7}"
            )
        if args.reference:
            ref_scores, ref_seconds = run_reference(args.reference, cases)
            ref_agree = sum(s == e for s, e in zip(ref_scores, expected, strict=False))
            ok = ok and ref_agree == n
            line += (
                f" {100 * ref_agree / n:>8.1f}% {duration(ref_seconds / n):>10}"
                f" {ratio(seconds, ref_seconds):>8}"
            )
        print(line, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
