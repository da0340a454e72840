"""What our move costs, by Rapfi's judgement, on fixed middle-game positions.

A screen, not a verdict (the harness, ``gomoku_sprt.py``, decides): it says
in minutes whether a version of the engine, or more nodes, moves our choices
nearer a deeper search's on the same positions, where games take hours.

* ``positions OUT``: balanced openings of the book (``--offset``,
  ``--count``), each played on 4 to 11 plies by Rapfi at 8 plies against
  itself, then judged by Rapfi at ``--depth`` plies: its move and its value
  for the side to move. Positions Rapfi proves won or lost, or that end the
  game, are left out. One JSON line each.
* ``score FILE``: our move on each position (``GomokuEngine.solve_nodes``,
  ``--nodes``); where it is not Rapfi's, Rapfi (the same depth) values the
  position after it for the opponent. The regret of a move is how much
  worse it leaves us than Rapfi's own value before it (0 for Rapfi's move;
  never below 0; a proved result counts as 3,000). Prints how often we
  chose Rapfi's move, the mean and median regret, how many cost 300 or
  more, and with ``--save`` writes each position's regret, so that two
  versions can be compared position by position.

``--set kernel.NAME=VALUE,...`` sets the engine's module constants before
the first search, as ``gomoku_sprt.py`` does (give such a run a numba cache
of its own: ``NUMBA_CACHE_DIR``, since the compiled kernels read them as
constants).

Usage::

    python benchmarks/gomoku_regret.py positions pos.jsonl --offset 2600 --count 300
    python benchmarks/gomoku_regret.py score pos.jsonl --nodes 500000 --save base.json
    NUMBA_CACHE_DIR=/tmp/wide python benchmarks/gomoku_regret.py score pos.jsonl \\
        --set kernel.WIDE_DEPTH=6 --save wide.json

Freestyle only. Rapfi is built outside the repository (``benchmarks/README.md``,
"Building the opponents"); ``--rapfi`` points at it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from pathlib import Path

from gomoku_refs import RAPFI, RAPFI_RULES, SIZE, UNTIMED, Eval, rapfi
from gomoku_sprt import apply_settings, load_openings, parse_settings
from gomoku_strength import position_of
from unbeatable import api
from unbeatable.compiled import numba_dir

BOOK = Path(__file__).resolve().parent / "data" / "gomoku_openings_freestyle.txt"
#: What a proved result counts as (Rapfi's heuristic values stay well inside it).
PROVED = 3000
#: Rapfi's settings: freestyle, held to plies (``max_depth``), not to a clock.
FREESTYLE_UNTIMED = [("rule", RAPFI_RULES["freestyle"]), *UNTIMED]


def value_of(judged: Eval | None) -> int | None:
    """Rapfi's value as a number for the side to move (a proof: +-PROVED)."""
    if judged is None:
        return None
    if judged.mate is not None:
        return PROVED if judged.mate > 0 else -PROVED
    try:
        return max(-PROVED, min(PROVED, int(float(judged.text))))
    except ValueError:  # "+M*" from a database: no distance, not counted
        return None


def make_positions(out: Path, offset: int, count: int, depth: int, path: Path, seed: int) -> None:
    rules, _ = api.resolve("gomoku")
    book = load_openings(BOOK, SIZE)
    player = rapfi(path, [*FREESTYLE_UNTIMED, ("max_depth", 8)])
    judge = rapfi(path, [*FREESTYLE_UNTIMED, ("max_depth", depth)])
    rng = random.Random(seed)
    written = 0
    try:
        with out.open("w") as f:
            for opening in book[offset : offset + count]:
                moves = list(opening)
                player.new_game()
                for _ in range(rng.randrange(4, 12)):
                    if rules.is_terminal(position_of(rules, moves)):
                        break
                    moves.append(player.move(moves, 60).cell)
                if rules.is_terminal(position_of(rules, moves)):
                    continue
                judge.new_game()
                judged = judge.move(moves, 120)
                value = value_of(judged.eval)
                if value is None or abs(value) >= PROVED:
                    continue
                f.write(json.dumps({"moves": moves, "rapfi": judged.cell, "value": value}) + "\n")
                written += 1
    finally:
        player.close()
        judge.close()
    print(f"{written} positions of {count} openings in {out}")


def score(file: Path, nodes: int, depth: int, path: Path, save: Path | None) -> None:
    from unbeatable.solvers.mnk.engine import GomokuEngine

    rules, _ = api.resolve("gomoku")
    engine = GomokuEngine(rules, threads=1)
    engine.warm_up()
    judge = rapfi(path, [*FREESTYLE_UNTIMED, ("max_depth", depth)])
    regrets: list[int] = []
    agree = 0
    try:
        for line in file.open():
            record = json.loads(line)
            moves = record["moves"]
            move = engine.solve_nodes(position_of(rules, moves), nodes).move
            if move == record["rapfi"]:
                agree += 1
                regrets.append(0)
                continue
            after = [*moves, move]
            if rules.is_terminal(position_of(rules, after)):  # our five: no regret
                regrets.append(0)
                continue
            judge.new_game()
            theirs = value_of(judge.move(after, 120).eval)
            regrets.append(0 if theirs is None else max(0, record["value"] + theirs))
    finally:
        judge.close()
    if not regrets:
        raise SystemExit(f"no positions in {file}")
    costly = sum(r >= 300 for r in regrets)
    print(
        f"{len(regrets)} positions, {nodes:,} nodes a move: Rapfi's move {agree}"
        f" ({agree / len(regrets):.0%}), regret mean {statistics.mean(regrets):.1f}"
        f" median {statistics.median(regrets):g}, 300 or more {costly}"
    )
    if save is not None:
        save.write_text(json.dumps(regrets) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=14, help="Rapfi's plies (default 14)")
    parser.add_argument("--rapfi", type=Path, default=RAPFI, help=f"(default {RAPFI})")
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("positions", help="make the positions")
    make.add_argument("out", type=Path)
    make.add_argument("--offset", type=int, default=2600, help="first opening of the book")
    make.add_argument("--count", type=int, default=300, help="openings to start from")
    make.add_argument("--seed", type=int, default=5)
    run = sub.add_parser("score", help="our moves' regret")
    run.add_argument("file", type=Path)
    run.add_argument("--nodes", type=int, default=500_000)
    run.add_argument("--set", default="", help="module constants, as gomoku_sprt.py's @")
    run.add_argument("--save", type=Path, help="each position's regret, as JSON")
    args = parser.parse_args(argv)
    if args.command == "positions":
        make_positions(args.out, args.offset, args.count, args.depth, args.rapfi, args.seed)
    else:
        if args.nodes <= 0:
            parser.error("--nodes must be positive")
        if args.set and Path(os.environ.get("NUMBA_CACHE_DIR", "")) == numba_dir():
            parser.error("--set needs a numba cache of its own: set NUMBA_CACHE_DIR")
        apply_settings(parse_settings(args.set))
        score(args.file, args.nodes, args.depth, args.rapfi, args.save)
    return 0


if __name__ == "__main__":
    sys.exit(main())
