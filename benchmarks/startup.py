"""How long one-shot commands take from a cold process, next to Python's own start.

Scripts call ``unbeatable analyze GAME POSITION --json`` once per position, so
its start-up is most of its cost; ``--version`` and ``--help`` are what a
person meets first. Each command below runs in a fresh process (the console
script as installed, so exactly what a user runs), once per round, the
commands interleaved within a round (in an order that turns from one round to
the next), so that a machine busy with other work slows every command alike.
The table gives each command's median wall time and three ratios to
``python -c pass``: of the medians, the median of each round's own ratio
(the command over the same round's ``python -c pass``), and the median of
each round's ratio of CPU time (user and system: the figure that other work
on the machine moves least). The aim: within 4x.

``--src LABEL=PATH`` (repeatable) runs the package from other source trees
instead (``PYTHONPATH``: e.g. a ``git archive`` of another commit's ``src``),
interleaved in the same rounds, to compare commits side by side against the
same ``python -c pass``.

The package's bytecode is compiled first, as ``pip install`` does: with
``PYTHONDONTWRITEBYTECODE`` set (as on the development machine) an editable
install would otherwise compile every module's source at every start.

Usage: ``python benchmarks/startup.py [--rounds 21] [--src before=/tmp/old/src ...]``
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``argv`` (CPU: the child's user and
    system time, which a busy machine moves far less than the wall clock)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def cases(python: str, script: str) -> list[tuple[str, list[str]]]:
    """(name, command) of every command timed, ``python -c pass`` first."""
    return [
        ("python -c pass", [python, "-c", "pass"]),
        ("python -c 'import unbeatable.api'", [python, "-c", "import unbeatable.api"]),
        (
            "analyze tictactoe POS --json",
            [script, "analyze", "tictactoe", "xox/oox/...", "--json"],
        ),
        ("solve tictactoe '' --json", [script, "solve", "tictactoe", "", "--json"]),
        ("solve connect4 4453 --json (book)", [script, "solve", "connect4", "4453", "--json"]),
        ("analyze tictactoe POS (drawn)", [script, "analyze", "tictactoe", "xox/oox/..."]),
        ("--version", [script, "--version"]),
        ("--help", [script, "--help"]),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", "--runs", type=int, default=21)
    parser.add_argument(
        "--src",
        action="append",
        default=[],
        metavar="LABEL=PATH",
        help="run the package from this source tree (repeatable); default: as installed",
    )
    args = parser.parse_args(argv)
    import unbeatable

    python = sys.executable
    script = shutil.which("unbeatable", path=str(Path(python).parent)) or "unbeatable"
    trees: list[tuple[str, dict[str, str]]] = []
    if not args.src:
        compileall.compile_dir(str(Path(unbeatable.__file__).parent), quiet=1)
        trees.append(("", dict(os.environ)))
    for given in args.src:
        label, _, path = given.partition("=")
        if not path:
            parser.error(f"--src {given}: give LABEL=PATH")
        compileall.compile_dir(str(Path(path) / "unbeatable"), quiet=1)
        trees.append((label, {**os.environ, "PYTHONPATH": str(Path(path).resolve())}))
    # (label, command's name, argv, environment): Python's own start once (it
    # is the same whatever the tree), then every command of every tree.
    pass_, *commands = cases(python, script)
    runs = [("", *pass_, dict(os.environ))] + [
        (label, name, command, env) for name, command in commands for label, env in trees
    ]

    def shown(label: str, name: str) -> str:
        return f"{label}: {name}" if label else name

    for _, _, command, env in runs:  # warm the file cache, numba's included
        timed(command, env)
    seconds: dict[str, list[float]] = {shown(label, name): [] for label, name, _, _ in runs}
    ratios: dict[str, list[float]] = {key: [] for key in seconds}
    cpu_ratios: dict[str, list[float]] = {key: [] for key in seconds}
    for round_ in range(args.rounds):
        turn = round_ % len(runs)
        took = {
            shown(label, name): timed(command, env)
            for label, name, command, env in runs[turn:] + runs[:turn]
        }
        for label, name, _, _ in runs:
            (wall, cpu), (base_wall, base_cpu) = took[shown(label, name)], took["python -c pass"]
            seconds[shown(label, name)].append(wall)
            ratios[shown(label, name)].append(wall / base_wall)
            cpu_ratios[shown(label, name)].append(cpu / base_cpu)
    width = max(len(key) for key in seconds) + 2
    print(f"{args.rounds} rounds, interleaved; load average {os.getloadavg()[0]:.1f}")
    print(f"{'command':<{width}}{'median':>10}{'x python':>10}{'per round':>11}{'CPU':>7}")
    for label, name, _, _ in runs:
        key = shown(label, name)
        base = statistics.median(seconds["python -c pass"])
        median = statistics.median(seconds[key])
        print(
            f"{key:<{width}}{median * 1000:>7.1f} ms{median / base:>9.1f}x"
            f"{statistics.median(ratios[key]):>10.1f}x"
            f"{statistics.median(cpu_ratios[key]):>6.1f}x",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
