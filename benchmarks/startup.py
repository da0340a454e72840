"""How long one-shot commands take from a cold process, next to Python's own start.

Scripts call ``unbeatable analyze GAME POSITION --json`` once per position, so
its start-up is most of its cost. Each command below runs ``--runs`` times in a
fresh process (the console script as installed, so exactly what a user runs);
the table gives the median and the ratio to ``python -c pass`` measured in the
same run (the aim for the JSON commands: within 4x).

The package's bytecode is compiled first, as ``pip install`` does: with
``PYTHONDONTWRITEBYTECODE`` set (as on the development machine) an editable
install would otherwise compile every module's source at every start.

Usage: ``python benchmarks/startup.py [--runs 21]``
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args(argv)
    import unbeatable

    compileall.compile_dir(str(Path(unbeatable.__file__).parent), quiet=1)
    python = sys.executable
    script = shutil.which("unbeatable", path=str(Path(python).parent)) or "unbeatable"
    cases = [
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
    ]
    for _, command in cases:  # warm the file cache, numba's included
        timed(command)
    print(f"{'command':<36}{'median':>10}{'x python':>10}")
    base = None
    for name, command in cases:
        seconds = statistics.median(timed(command) for _ in range(args.runs))
        base = base or seconds
        print(f"{name:<36}{seconds * 1000:>8.1f} ms{seconds / base:>9.1f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
