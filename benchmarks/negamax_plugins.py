"""The generic negamax engine on small games, this checkout against another revision.

Run from the repository root (with the example plug-ins installed, as .ci/run does)::

    python benchmarks/negamax_plugins.py                   # against 46c4687^
    python benchmarks/negamax_plugins.py --against HEAD~3 --rounds 5

Each side analyses every position (every move valued, the best line drawn) in
a process of its own, from a cold engine (``api.clear_caches`` before each
position), with the other revision's sources in a git worktree. Rounds
alternate which side goes first; the table shows the median time, the nodes,
and the ratio, and whether both sides gave the same values and moves.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: (game, position): Morris while its last man is placed (every move loses in
#: 2), Morris from two men each and from the start, Hexapawn, and two k in a
#: row games that read a win in one themselves.
POSITIONS = [
    ("morris", "xo./.xx/o.. o"),
    ("morris", "x../.o./..x o"),
    ("morris", ""),
    ("hexapawn", ""),
    ("hexapawn:4,4", ""),
    ("tictactoe", ""),
    ("mnk:4,4,3", ""),
]

CHILD = """
import json, sys, time
from unbeatable import api
found = []
for name, position in json.loads(sys.argv[1]):
    api.clear_caches()
    start = time.perf_counter()
    analysis = api.analyze(name, position)
    seconds = time.perf_counter() - start
    values = [(m.move, m.score, list(m.line)) for m in analysis.moves]
    found.append([seconds, analysis.nodes, analysis.best and analysis.best.move, values])
print(json.dumps(found))
"""


def analyse_with(src: Path) -> list[Any]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(POSITIONS)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result: list[Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="46c4687^", help="the other revision (git)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(tree), args.against],
            check=True,
        )
        try:
            sides = {"this checkout": here / "src", args.against: tree / "src"}
            runs: dict[str, list[list[Any]]] = {name: [] for name in sides}
            for r in range(args.rounds):
                order = list(sides) if r % 2 == 0 else list(reversed(sides))
                for name in order:
                    runs[name].append(analyse_with(sides[name]))
                    sys.stderr.write(f"round {r + 1}: {name}\n")
        finally:
            subprocess.run(
                ["git", "-C", str(here), "worktree", "remove", "--force", str(tree)], check=False
            )
    mine, theirs = runs["this checkout"], runs[args.against]
    print(
        f"Analyses from a cold engine, median of {args.rounds} rounds"
        f" (here: this checkout; there: {args.against})"
    )
    print(
        f"{'game':<13} {'position':<15} {'s here':>8} {'s there':>8} {'ratio':>7}"
        f" {'nodes here':>11} {'nodes there':>12}  same"
    )
    for i, (game, position) in enumerate(POSITIONS):
        here_s = statistics.median(run[i][0] for run in mine)
        there_s = statistics.median(run[i][0] for run in theirs)
        same = all(run[i][2:] == theirs[0][i][2:] for run in mine + theirs)
        print(
            f"{game:<13} {position or '(start)':<15} {here_s:>8.3f} {there_s:>8.3f}"
            f" {there_s / here_s:>6.1f}x {mine[0][i][1]:>11,} {theirs[0][i][1]:>12,}"
            f"  {'yes' if same else 'NO'}"
        )


if __name__ == "__main__":
    main()
