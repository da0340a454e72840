"""How the Gomocup brain starts: its first START after an install, then warm.

A tournament manager starts ``pbrain-unbeatable``, sends ``START 15`` and
expects ``OK`` at once, then a move within every turn's time. After an
install numba has compiled nothing (about twelve seconds of work for the
k-in-a-row kernels), so this measures, in one run and side by side:

* **cold**: the brain with an empty numba cache (``NUMBA_CACHE_DIR`` pointed
  at a new folder: the same as an install, without touching the cache other
  processes of this checkout use);
* **cold again**: the brain again on that folder, with what the cold run
  compiled before its game ended (numba keeps each function once compiled;
  a brain ended before all are compiled leaves the rest to the next one);
* **prepared**: ``pbrain-unbeatable --prepare`` on a new empty folder, then
  the brain on it (the README's advice after an install): warm;
* **rapfi** (if built, see ``gomoku_refs.py``): the reference engine, the
  same way (its quick moves are none: it has nothing to compile).

For each start (the package's bytecode compiled first, as ``pip install``
does): the time from spawning the process to ``OK`` and from the ``START``
line, sent at once, to ``OK``; then a whole game on 15x15 (freestyle; the brain
is white, the opponent a fixed, seeded player of stones next to the last
ones, who takes a five and blocks a four) under ``INFO timeout_turn``,
``INFO max_memory 83886080`` and ``INFO thread_num 1``: how many moves were
quick moves (the engine not ready yet), the slowest move against the turn's
time, and the process's peak resident memory (``VmHWM``).

Usage: ``python benchmarks/brain_start.py [--turn-ms 1000] [--moves 20]``
"""

from __future__ import annotations

import argparse
import compileall
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple

from gomoku_refs import RAPFI
from unbeatable import api

SIZE = 15
MEMORY = 83_886_080


class Start(NamedTuple):
    spawn_to_ok: float
    start_to_ok: float
    moves: int
    quick: int
    slowest: float
    peak_mib: float | None


class Brain:
    """A brain process and its lines, every read with a time limit."""

    def __init__(self, command: list[str], env: dict[str, str]) -> None:
        self.spawned = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            env=env,
            cwd=Path(command[0]).parent,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def answer(self, timeout: float) -> tuple[str, list[str]]:
        """The next line that is not a MESSAGE, and the MESSAGE lines before it."""
        said = []
        deadline = time.perf_counter() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.perf_counter()))
            if line is None:
                raise SystemExit(f"the brain exited (code {self.process.wait()})")
            if line.startswith("MESSAGE"):
                said.append(line)
            else:
                return line, said

    def peak_mib(self) -> float | None:
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return None
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return None

    def close(self) -> None:
        try:
            self.send("END")
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def opponent_move(game: api.Game, pos: object, rng: random.Random) -> int:
    """A five if there is one, else the block of a four, else a random empty
    cell next to a stone (the centre on an empty board)."""
    me = game.to_move(pos)
    other = game.players[1] if me == game.players[0] else game.players[0]
    for player in (me, other):
        found = game.winning_moves(pos, player)
        if found:
            return int(found[0])
    cells = game.grid(pos).replace("/", "")
    near = [
        c
        for c in game.moves(pos)
        if any(
            0 <= (c // SIZE) + dr < SIZE
            and 0 <= (c % SIZE) + dc < SIZE
            and cells[c + dr * SIZE + dc] != "."
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
        )
    ]
    return rng.choice(near) if near else (SIZE // 2) * SIZE + SIZE // 2


def measure(
    command: list[str], env: dict[str, str], turn_ms: int, moves: int, pause: float = 0.0
) -> Start:
    """One start and game; ``pause`` seconds before each TURN (Rapfi drops a
    command that comes while it still counts itself as thinking)."""
    brain = Brain(command, env)
    try:
        sent = time.perf_counter()
        brain.send(f"START {SIZE}")
        ok, _ = brain.answer(60)
        now = time.perf_counter()
        if ok != "OK":
            raise SystemExit(f"START answered {ok!r}")
        spawn_to_ok, start_to_ok = now - brain.spawned, now - sent
        for line in (f"timeout_turn {turn_ms}", f"max_memory {MEMORY}", "thread_num 1"):
            brain.send(f"INFO {line}")
        game = api.get_game("gomoku")
        pos = game.initial()
        rng = random.Random(20260517)
        quick, slowest, played = 0, 0.0, 0
        while played < moves and not game.is_terminal(pos):
            theirs = opponent_move(game, pos, rng)
            pos = game.play(pos, theirs)
            if game.is_terminal(pos):
                break
            row, col = divmod(theirs, SIZE)
            time.sleep(pause)
            sent = time.perf_counter()
            brain.send(f"TURN {col},{row}")
            reply, said = brain.answer(turn_ms / 1000 + 30)
            slowest = max(slowest, time.perf_counter() - sent)
            quick += any("quick move" in line for line in said)
            x, y = (int(v) for v in reply.split(","))
            pos = game.play(pos, y * SIZE + x)
            played += 1
        return Start(spawn_to_ok, start_to_ok, played, quick, slowest, brain.peak_mib())
    finally:
        brain.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turn-ms", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=20, help="the brain's moves per game")
    args = parser.parse_args(argv)
    import unbeatable

    # The package's bytecode first, as pip install does (see startup.py).
    compileall.compile_dir(str(Path(unbeatable.__file__).parent), quiet=1)
    script = Path(sys.executable).with_name("pbrain-unbeatable")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "unbeatable.brain"]
    rows: list[tuple[str, Start | None, str]] = []
    with tempfile.TemporaryDirectory() as cold_dir, tempfile.TemporaryDirectory() as prep_dir:
        env = {**os.environ, "NUMBA_CACHE_DIR": cold_dir}
        rows.append(("cold (empty cache)", measure(command, env, args.turn_ms, args.moves), ""))
        rows.append(
            ("cold again (same cache)", measure(command, env, args.turn_ms, args.moves), "")
        )
        prep_env = {**os.environ, "NUMBA_CACHE_DIR": prep_dir}
        began = time.perf_counter()
        subprocess.run([*command, "--prepare"], env=prep_env, check=True, capture_output=True)
        prepared = f"--prepare took {time.perf_counter() - began:.1f} s"
        rows.append(
            ("prepared (warm)", measure(command, prep_env, args.turn_ms, args.moves), prepared)
        )
        shutil.rmtree(cold_dir, ignore_errors=True)
    if RAPFI.is_file():  # the reference, under the same INFO lines
        rapfi = measure([str(RAPFI)], dict(os.environ), args.turn_ms, args.moves, pause=0.05)
        rows.append(("rapfi", rapfi, ""))
    print(
        f"15x15 freestyle, timeout_turn {args.turn_ms} ms, max_memory {MEMORY}, thread_num 1; "
        f"up to {args.moves} moves of the brain"
    )
    header = f"{'start':<24}{'spawn->OK':>10}{'START->OK':>10}{'moves':>7}{'quick':>7}"
    print(header + f"{'slowest':>10}{'peak RSS':>10}  note")
    for name, start, note in rows:
        assert start is not None
        peak = "-" if start.peak_mib is None else f"{start.peak_mib:.0f} MiB"
        print(
            f"{name:<24}{start.spawn_to_ok:>9.3f}s{start.start_to_ok:>9.3f}s{start.moves:>7}"
            f"{start.quick:>7}{start.slowest:>9.2f}s{peak:>10}  {note}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
