"""Many players at once: whole Connect Four games against one ``unbeatable serve``.

Starts ``unbeatable serve`` with its default options (one worker process, the
default 2 s budget) on a free loopback port, waits until it answers, then lets
``--players`` players play whole games at the same moment, each in its own
thread with its own connection: a player makes a random legal move (or, as x,
opens), then asks ``POST /api/move`` (impossible level) for the AI's answer,
until the game ends. Every AI move's latency is recorded; any answer other
than 200 counts as an error. Prints p50, p99 and the slowest latency, the
errors, the share of AI moves past the 2.5 s aim, and the very first move's
latency (the server compiles and loads everything at start, so it should be
like the rest).

Usage: ``python benchmarks/connect4_load.py [--players 8] [--games 3]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx2 as httpx

from common import free_port, wait_until_up
from unbeatable.games.connect4 import connect4

game = connect4()
AIM_SECONDS = 2.5


def player(base: str, seed: int, games: int, latencies: list[float], errors: list[str]) -> None:
    rng = random.Random(seed)
    lock = threading.Lock()
    with httpx.Client(base_url=base, timeout=30) as client:
        for g in range(games):
            human = "x" if (seed + g) % 2 == 0 else "o"
            position = game.initial()
            while not game.is_terminal(position):
                if game.to_move(position) == human:
                    position = game.play(position, rng.choice(game.moves(position)))
                    continue
                body = {"game": "connect4", "position": game.format(position)}
                start = time.perf_counter()
                response = client.post("/api/move", json=body)
                elapsed = time.perf_counter() - start
                with lock:
                    latencies.append(elapsed)
                if response.status_code != 200:
                    errors.append(f"{response.status_code} {response.text[:80]}")
                    break
                position = game.parse(response.json()["position"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--games", type=int, default=3, help="games per player")
    args = parser.parse_args(argv)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "unbeatable", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        up = wait_until_up(base, server)
        start = time.perf_counter()
        opening = {"game": "connect4", "position": ""}
        first = httpx.post(base + "/api/move", json=opening).status_code
        first_latency = time.perf_counter() - start
        latencies: list[float] = []
        errors: list[str] = []
        start = time.perf_counter()
        with ThreadPoolExecutor(args.players) as pool:
            for i in range(args.players):
                pool.submit(player, base, i, args.games, latencies, errors)
        wall = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(10)
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    late = sum(t > AIM_SECONDS for t in ordered)
    print(f"server up after {up:.1f} s; first move {1000 * first_latency:.1f} ms (status {first})")
    print(
        f"{args.players} players x {args.games} games in {wall:.1f} s: {len(ordered)} AI moves, "
        f"{len(errors)} errors"
    )
    print(
        f"latency p50 {1000 * statistics.median(ordered):.1f} ms, p99 {1000 * p99:.1f} ms, "
        f"slowest {1000 * ordered[-1]:.1f} ms; over {AIM_SECONDS} s: {late}"
    )
    for error in errors[:5]:
        print("  error:", error)
    return 1 if errors or late else 0


if __name__ == "__main__":
    sys.exit(main())
