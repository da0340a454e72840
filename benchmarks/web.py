"""Throughput and latency of the web API on loopback: POST /api/move next to
GET /api/health, the framework's floor.

Starts ``unbeatable.web.serve()`` on 127.0.0.1 in a child process (so the load
generator does not share its interpreter), then loads three endpoints in turn,
in rounds of about ten seconds until each had ``--duration`` seconds: the
health check, moves at the default level (impossible) and moves at easy and
medium, over the same mix of positions met in random games. Each load is
``--concurrency`` keep-alive connections, each sending its next request as soon
as the previous answer is in. Every answer is checked; any non-200 or malformed
answer counts as an error (and makes the exit status 1). The server's own CPU
time per request is read from /proc, so the cost ratio does not depend on how
busy the client or the rest of the machine is.

The client is a minimal HTTP/1.1 keep-alive client on asyncio streams rather
than a full HTTP library, so that the client's own cost stays small next to
the server's and the ratio measures the server.

    python benchmarks/web.py --duration 60 --concurrency 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field

import unbeatable
from common import free_port, wait_until_up

HOST = "127.0.0.1"  # loopback only, by design


def positions(count: int, seed: int = 1) -> list[str]:
    """Unfinished tic-tac-toe positions met in random games: openings, middle
    games and endgames in the proportions real play produces them."""
    rng = random.Random(seed)
    rules = unbeatable.get_game("tictactoe")
    seen: list[str] = []
    while len(seen) < count:
        pos = rules.initial()
        while not rules.is_terminal(pos):
            seen.append(rules.format(pos))
            pos = rules.play(pos, rng.choice(list(rules.moves(pos))))
    return seen[:count]


def move_bodies(count: int, weak: bool) -> list[bytes]:
    """``/api/move`` bodies over the position mix: at the default level
    (impossible), or at easy and medium with a seed each."""
    rng = random.Random(2)
    bodies = []
    for pos in positions(count):
        body: dict[str, object] = {"game": "tictactoe", "position": pos}
        if weak:
            body.update(level=rng.choice(("easy", "medium")), seed=rng.randrange(1 << 30))
        bodies.append(json.dumps(body).encode())
    return bodies


def request(method: str, path: str, body: bytes = b"") -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\n"
    if method == "POST":
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (head + "\r\n").encode() + body


def server_cpu(pid: int) -> float | None:
    """CPU seconds used so far by the server process and its worker children
    (Linux /proc); None where that is not available."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    try:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            # After the command: state, ppid, ..., utime (12th), stime (13th).
            if int(entry) == pid or int(fields[1]) == pid:
                total += int(fields[11]) + int(fields[12])
    except OSError:
        return None
    return total / tick


@dataclass
class Phase:
    """What one timed phase measured."""

    name: str
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    first_error: str = ""
    #: Server CPU seconds spent during the phase (None if unmeasurable).
    cpu: float | None = None

    def fail(self, why: str) -> None:
        self.errors += 1
        self.first_error = self.first_error or why

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def cpu_us(self) -> float | None:
        """Server CPU time per answered request, in microseconds."""
        if self.cpu is None or not self.latencies:
            return None
        return self.cpu / len(self.latencies) * 1e6


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> bytes:
    """Send one request, return the answer's status line and body."""
    writer.write(raw)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    body = await reader.readexactly(length)
    return head.split(b"\r\n", 1)[0] + b"\n" + body


async def worker(
    port: int, requests: list[bytes], expect: bytes, stop: float, phase: Phase, offset: int
) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    i = offset
    try:
        while time.perf_counter() < stop:
            raw = requests[i % len(requests)]
            i += 1
            start = time.perf_counter()
            try:
                answer = await asyncio.wait_for(exchange(reader, writer, raw), timeout=10)
            except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as exc:
                phase.fail(f"{type(exc).__name__}: {exc}")
                writer.close()
                reader, writer = await asyncio.open_connection(HOST, port)
                continue
            elapsed = time.perf_counter() - start
            status, _, body = answer.partition(b"\n")
            if b" 200 " not in status + b" " or expect not in body:
                phase.fail(f"{status.decode(errors='replace')} {body[:200]!r}")
                continue
            phase.latencies.append(elapsed)
    finally:
        writer.close()


async def run_phase(
    phase: Phase,
    server: int,
    port: int,
    requests: list[bytes],
    expect: bytes,
    seconds: float,
    concurrency: int,
) -> None:
    """Load the server with ``requests`` for ``seconds``; add what was
    measured to ``phase``."""
    cpu_before = server_cpu(server)
    stop = time.perf_counter() + seconds
    started = time.perf_counter()
    await asyncio.gather(
        *(
            worker(port, requests, expect, stop, phase, k * len(requests) // concurrency)
            for k in range(concurrency)
        )
    )
    phase.seconds += time.perf_counter() - started
    cpu_after = server_cpu(server)
    if cpu_before is not None and cpu_after is not None:
        phase.cpu = (phase.cpu or 0.0) + cpu_after - cpu_before


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    code = f"from unbeatable.web import serve; serve(host={HOST!r}, port={port}, workers={workers})"
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_until_up(f"http://{HOST}:{port}", proc, limit=30)
    except RuntimeError:
        proc.kill()
        raise
    return proc


def report(phases: list[Phase]) -> None:
    print(
        f"{'endpoint':<28}{'requests':>9}{'errors':>7}{'req/s':>7}"
        f"{'p50 ms':>8}{'p90 ms':>8}{'p99 ms':>8}{'CPU us/req':>11}"
    )
    for p in phases:
        cpu = "n/a" if p.cpu_us is None else f"{p.cpu_us:.0f}"
        print(
            f"{p.name:<28}{len(p.latencies):>9}{p.errors:>7}{p.rps:>7.0f}"
            f"{p.percentile(0.5):>8.2f}{p.percentile(0.9):>8.2f}{p.percentile(0.99):>8.2f}"
            f"{cpu:>11}"
        )
        if p.errors:
            print(f"  first error: {p.first_error}")
    health = phases[0]
    for move in phases[1:]:
        line = (
            f"{move.name} / health: {health.rps / move.rps:.2f}x the time per request "
            f"at full load, {move.percentile(0.5) / health.percentile(0.5):.2f}x the median "
            "latency"
        )
        if health.cpu_us and move.cpu_us:
            line += f", {move.cpu_us / health.cpu_us:.2f}x the server CPU"
        print(line)


async def measure(args: argparse.Namespace, server: int, port: int) -> list[Phase]:
    """Interleave the endpoints in rounds, so that a change in the machine's
    load during the run weighs on every endpoint alike."""
    loads = [
        ("GET /api/health", [request("GET", "/api/health")], b'"ok"'),
        (
            "POST /api/move",
            [request("POST", "/api/move", b) for b in move_bodies(args.positions, False)],
            b'"move"',
        ),
        (
            "POST /api/move easy+medium",
            [request("POST", "/api/move", b) for b in move_bodies(args.positions, True)],
            b'"move"',
        ),
    ]
    c = args.concurrency
    # Warm up: connections, the engine's tables, the best-move memo.
    for name, requests, expect in loads:
        await run_phase(Phase(name), server, port, requests, expect, args.warmup, c)
    phases = [Phase(name) for name, _, _ in loads]
    rounds = max(1, round(args.duration / 10))
    for _ in range(rounds):
        for phase, (_, requests, expect) in zip(phases, loads, strict=True):
            await run_phase(phase, server, port, requests, expect, args.duration / rounds, c)
    return phases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of load per endpoint")
    parser.add_argument("--concurrency", type=int, default=8, help="connections in flight")
    parser.add_argument("--workers", type=int, default=1, help="server processes")
    parser.add_argument("--warmup", type=float, default=1.0, help="warm-up seconds per endpoint")
    parser.add_argument("--positions", type=int, default=500, help="distinct move requests")
    args = parser.parse_args()
    port = free_port()
    server = start_server(port, args.workers)
    try:
        print(
            f"server: unbeatable.web.serve() on {HOST}:{port}, {args.workers} worker(s); "
            f"client: {args.concurrency} keep-alive connections, {args.duration:g} s per "
            f"endpoint, {args.positions} tic-tac-toe positions "
            f"({os.cpu_count()} CPUs, Python {sys.version.split()[0]})"
        )
        phases = asyncio.run(measure(args, server.pid, port))
        report(phases)
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    return 1 if any(p.errors for p in phases) else 0


if __name__ == "__main__":
    sys.exit(main())
