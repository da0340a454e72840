"""Where were the ladder's games lost? Rapfi, searching deeper, judges each of our moves.

Reads the games ``gomoku_strength.py`` printed (its log: one ``... game N: ours
x, loss ...: <moves>`` line per game) and, for every game our side lost, asks
Rapfi (classical weights, one thread, ``--depth`` plies, table cleared) for
its value of the position before each of our moves, for our side, and after
it, for the opponent. Each lost game is then put in one of four kinds:

* ``opening``: Rapfi values the position before our first move at
  ``--opening`` or more against us: the dealing of the opening, not the play;
* ``missed win``: before one of our moves Rapfi proves a win for us, and after
  it proves none (the first such move is named);
* ``blunder``: one move turns a position Rapfi proves nothing in into one it
  proves the opponent wins (the move, and Rapfi's choice instead);
* ``slide``: neither: the position worsens over several moves until a loss is
  proved.

Usage::

    python benchmarks/gomoku_strength.py --rule standard ... > ladder.log
    python benchmarks/gomoku_losses.py --rule standard ladder.log [more.log ...]

Rapfi is built outside the repository (``benchmarks/README.md``, "Building
the opponents"); ``--rapfi`` points at it.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from gomoku_refs import RAPFI, RAPFI_RULES, Eval, from_notation, notation, rapfi

_LOST = re.compile(r"game (\d+): ours (x|o), loss [^:]*: (.*)$")


class Judged(NamedTuple):
    """Rapfi's view of one of our moves: the value for us before it, its
    choice there, and the value for the opponent after ours."""

    ply: int
    ours: str
    before: Eval | None
    choice: str
    after: Eval | None


def kind_of(moves: list[Judged], opening: int) -> tuple[str, str]:
    """The kind of a lost game (see the module's text) and what names it."""
    first = moves[0].before if moves else None
    if first is not None and re.fullmatch(r"[+-]?\d+", first.text) and int(first.text) <= -opening:
        return "opening", f"{first.text} before our first move"
    for m in moves:
        if m.before is not None and m.before.wins and not (m.after and m.after.loses):
            return "missed win", f"{m.ply}. {m.ours} (Rapfi {m.before.text} with {m.choice})"
    for m in moves:
        if not (m.before and m.before.loses) and m.after is not None and m.after.wins:
            before = m.before.text if m.before else "?"
            return "blunder", f"{m.ply}. {m.ours} ({before} -> {m.after.text}; Rapfi {m.choice})"
    return "slide", ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", type=Path, nargs="+", help="gomoku_strength.py output")
    parser.add_argument("--rule", choices=sorted(RAPFI_RULES), default="freestyle")
    parser.add_argument("--depth", type=int, default=14, help="Rapfi's plies (default 14)")
    parser.add_argument(
        "--opening", type=int, default=300, help="an opening this far behind is dealt (300)"
    )
    parser.add_argument("--rapfi", type=Path, default=RAPFI, help=f"(default {RAPFI})")
    args = parser.parse_args(argv)
    if args.depth < 1:
        parser.error("--depth must be at least 1")
    games = []
    for log in args.logs:
        if not log.is_file():
            parser.error(f"no log at {log}")
        for line in log.read_text().splitlines():
            found = _LOST.search(line)
            if found:
                games.append((f"{log.name} game {found.group(1)}", found.group(2), found.group(3)))
    judge = rapfi(args.rapfi, [("rule", RAPFI_RULES[args.rule]), ("max_depth", args.depth)])
    kinds: Counter[str] = Counter()
    try:
        for name, side, text in games:
            cells = [from_notation(move) for move in text.split()]
            parity = 0 if side == "x" else 1
            judged: list[Judged] = []
            for ply in range(len(cells)):
                if ply % 2 != parity or ply < 3:
                    continue
                judge.new_game()
                before = judge.move(cells[:ply], 60)
                judge.new_game()
                after = judge.move(cells[: ply + 1], 60)
                ours = notation(cells[ply])
                judged.append(Judged(ply + 1, ours, before.eval, notation(before.cell), after.eval))
                if after.eval is not None and after.eval.mate == 1:
                    break
            kind, what = kind_of(judged, args.opening)
            kinds[kind] += 1
            print(f"{name} (ours {side}): {kind}{': ' + what if what else ''}", flush=True)
    finally:
        judge.close()
    print(f"\n{len(games)} lost games: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
