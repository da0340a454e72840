"""A match through a Gomocup manager library: pbrain-unbeatable against Rapfi,
in each rule set the brain plays (freestyle, standard, renju).

Both engines are child processes driven by PyGomo (PyPI ``pygomo-lib``,
the test extra: its ``EngineClient`` speaks the Gomocup protocol as a
tournament manager does: ``START``, ``INFO``, ``BEGIN``, ``TURN``); nothing
of the brain is called in-process. The referee is the library's rules for
the rule set (``gomoku:RULE,15``): a move that is taken, off the board or,
in renju, forbidden for black loses the game, as it would under a manager;
so does a move later than the turn's time by more than ``--grace``.

Rapfi is built outside the repository (``gomoku_refs.py`` says where and how);
it gets the same ``INFO`` lines (rule, ``timeout_turn``, one thread) and
``INFO max_depth`` (``--rapfi-depth``: 20, Rapfi's full strength within a
second, is the default; 2 holds it to two plies of main search, the first
rung of ``gomoku_strength.py``'s ladder). Colours alternate, the brain black
in the first game of each rule.

Usage: ``python benchmarks/gomoku_match.py [--games 2] [--turn-ms 1000]
[--rapfi-depth 20] [--rules freestyle,standard,renju]``
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

import pygomo

from gomoku_refs import HOW_TO_BUILD, RAPFI, RAPFI_RULES
from unbeatable import api

SIZE = 15


class Result(NamedTuple):
    rule: str
    brain_black: bool
    winner: str | None  # "brain", "rapfi", or None for a draw
    why: str
    moves: int
    brain_slowest: float
    rapfi_slowest: float
    #: The brain's slowest move by its own clock (its MESSAGE's tm), seconds.
    brain_own: float = 0.0


class Clocked(pygomo.GomocupProtocol):
    """PyGomo's protocol, noting the ``tm`` field (milliseconds the engine
    itself counted) of each search line: the brain's own clock, beside the
    manager's, which also counts the machine's scheduling."""

    def __init__(self) -> None:
        super().__init__()
        self.tm: list[int] = []

    def parse_search_info(self, data: str) -> Any:
        found = re.search(r"\btm (\d+)", data)
        if found:
            self.tm.append(int(found[1]))
        return super().parse_search_info(data)


def client(
    command: str, rule: str, turn_ms: int, extra: dict[str, int], protocol: Any = None
) -> Any:
    engine = pygomo.EngineClient(
        command, protocol=protocol, working_directory=str(Path(command).parent)
    )
    engine.connect()
    if not engine.start(board_size=SIZE, timeout=60):
        raise SystemExit(f"{command}: START {SIZE} was not answered OK")
    engine.set_rule(RAPFI_RULES[rule])
    engine.set_time(turn_time_ms=turn_ms)
    engine.set_threads(1)
    engine.configure(**extra)
    return engine


def settle(engine: Any) -> None:
    """Wait until an engine reads commands again: Rapfi drops a command that
    arrives while it still counts itself as thinking, a moment after its
    move; ``ABOUT`` is answered only once it listens."""
    for _ in range(40):
        engine.send_raw("ABOUT")
        deadline = time.monotonic() + 0.25
        while time.monotonic() < deadline:
            line = engine.receive_raw("output", timeout=0.05)
            if line and line.startswith("name="):
                return
    raise SystemExit("an engine did not answer ABOUT in 10 s")


def play(
    brain_command: str, rule: str, brain_black: bool, turn_ms: int, depth: int, grace: float
) -> Result:
    game = api.get_game(f"gomoku:{rule},{SIZE}")
    clock = Clocked()
    brain = client(brain_command, rule, turn_ms, {"max_memory": 256 << 20}, clock)
    rapfi = client(str(RAPFI), rule, turn_ms, {"max_memory": 64 << 20, "max_depth": depth})
    engines = {"brain": brain, "rapfi": rapfi}
    order = ["brain", "rapfi"] if brain_black else ["rapfi", "brain"]
    slowest: Counter[str] = Counter()
    pos = game.initial()
    last: Any = None
    moves = 0
    try:
        while True:
            name = order[moves % 2]
            engine = engines[name]
            settle(engine)
            began = time.monotonic()
            timeout = turn_ms / 1000 + grace + 10
            reply = engine.begin(timeout=timeout) if last is None else engine.turn(last, timeout)
            took = time.monotonic() - began
            slowest[name] = max(slowest[name], took)
            other = order[(moves + 1) % 2]
            if reply is None:
                return Result(
                    rule, brain_black, other, f"{name} gave no move", moves, *_s(slowest, clock)
                )
            if took > turn_ms / 1000 + grace:
                why = f"{name} took {took:.2f} s"
                return Result(rule, brain_black, other, why, moves, *_s(slowest, clock))
            x, y = reply.move.to_tuple()
            try:
                move = game.parse_move(pos, game.format_move(y * SIZE + x))
            except api.GameError as exc:
                return Result(
                    rule, brain_black, other, f"{name}: {exc}", moves, *_s(slowest, clock)
                )
            pos = game.play(pos, move)
            last = pygomo.Move((x, y))
            moves += 1
            if game.is_terminal(pos):
                winner = game.winner(pos)
                who = None if winner is None else name
                why = "the board is full" if winner is None else f"five at {game.format_move(move)}"
                return Result(rule, brain_black, who, why, moves, *_s(slowest, clock))
    finally:
        for engine in engines.values():
            engine.quit()


def _s(slowest: Counter[str], clock: Clocked) -> tuple[float, float, float]:
    return slowest["brain"], slowest["rapfi"], max(clock.tm, default=0) / 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per rule set")
    parser.add_argument("--turn-ms", type=int, default=1000)
    parser.add_argument("--rapfi-depth", type=int, default=20)
    parser.add_argument("--grace", type=float, default=0.5, help="seconds late a move may be")
    parser.add_argument("--rules", default="freestyle,standard,renju")
    args = parser.parse_args(argv)
    if not RAPFI.is_file():
        raise SystemExit(f"Rapfi not found at {RAPFI}: {HOW_TO_BUILD}")
    script = Path(sys.executable).with_name("pbrain-unbeatable")
    if not script.exists():
        raise SystemExit(f"{script} is missing: install the package (pip install -e .)")
    rules = args.rules.split(",")
    print(
        f"pbrain-unbeatable against Rapfi (max_depth {args.rapfi_depth}), through PyGomo "
        f"{pygomo.__version__}; timeout_turn {args.turn_ms} ms, one thread each"
    )
    print("slowest: the brain's slowest move as the manager timed it (as the brain's own tm")
    print("counted it) / Rapfi's")
    print(f"{'rule':<10}{'brain':<7}{'winner':<8}{'moves':>6}{'slowest':>23}  how")
    totals: dict[str, Counter[str]] = {rule: Counter() for rule in rules}
    for rule in rules:
        for game_number in range(args.games):
            brain_black = game_number % 2 == 0
            result = play(
                str(script), rule, brain_black, args.turn_ms, args.rapfi_depth, args.grace
            )
            winner = result.winner or "draw"
            totals[rule][winner] += 1
            times = (
                f"{result.brain_slowest:.2f} ({result.brain_own:.2f})/{result.rapfi_slowest:.2f} s"
            )
            colour = "black" if brain_black else "white"
            print(f"{rule:<10}{colour:<7}{winner:<8}{result.moves:>6}{times:>23}  {result.why}")
    print()
    for rule, count in totals.items():
        played = sum(count.values())
        print(
            f"{rule:<10} brain {count['brain']}, Rapfi {count['rapfi']}, draws {count['draw']}"
            f" of {played}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
