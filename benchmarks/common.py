"""What several benchmarks share: where their data is, times as people read
them, and a server started on a free port.

Benchmarks read data from the repository (``tests/data/``) or from a path a
flag names, never from a folder beside the checkout, so that they run on a
fresh clone. The benchmarks run as scripts (``python benchmarks/NAME.py``),
which puts this folder on ``sys.path``: they import this module as
``common``.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: The repository's test data.
TEST_DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
#: Samples of Pascal Pons' public Connect Four sets (their README says which
#: lines); ``--data`` names a folder of the full sets.
CONNECT4_SETS = TEST_DATA / "connect4"


def data_option(parser: argparse.ArgumentParser, default: Path, what: str) -> None:
    """Add ``--data FOLDER`` to ``parser``, defaulting to ``default``."""
    parser.add_argument(
        "--data", type=Path, default=default, help=f"folder of {what} (default: {default})"
    )


def data_file(folder: Path, name: str) -> Path:
    """The file ``name`` in ``folder``; exits with one line naming what is
    missing and the flag that fixes it, rather than a traceback."""
    path = folder / name
    if not path.is_file():
        raise SystemExit(f"no data file {path} (name a folder that holds {name} with --data)")
    return path


def duration(seconds: float) -> str:
    """A time with a unit that keeps it short: ``1.37 s``, ``81.72 ms``, ``1.07 µs``."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.2f} µs"


def median_time(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    """Median wall time of ``repeat`` calls of ``fn`` (at least one), and the
    last result: the median shrugs off a run another process slowed down."""
    times = []
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now (the system picks it)."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until_up(base: str, server: subprocess.Popen[bytes], limit: float = 120) -> float:
    """Seconds until ``base``'s ``/api/health`` answers (a server warms its
    engines up before it listens); raises :class:`RuntimeError` if the server
    exits first or does not answer within ``limit`` seconds."""
    start = time.perf_counter()
    while True:
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=2) as answer:
                if answer.status == 200:
                    return time.perf_counter() - start
        except OSError:
            pass
        if server.poll() is not None:
            raise RuntimeError("the server exited before it answered")
        if time.perf_counter() - start > limit:
            raise RuntimeError(f"the server did not answer within {limit:.0f} s")
        time.sleep(0.1)
