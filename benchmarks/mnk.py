"""The generic engine on m,n,k-games: known results from the empty board, and
what each of its helpers is worth, side by side in one run.

Solves ``mnk:3,4,3`` and ``mnk:4,4,3`` (first-player wins) and ``mnk:3,4,4`` and
``mnk:4,4,4`` (draws) from the empty board with a fresh negamax engine, four
ways: as shipped; without mirror-image keys; without the tactics the game
reads off the board (immediate wins, forced blocks, double threats); without
either. Each run has ``--limit`` seconds; a run that needs more says so.

Usage: ``python benchmarks/mnk.py [--limit 60]``
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from unbeatable.games.mnk import MNKGame, mnk_game
from unbeatable.search.engine import Limits
from unbeatable.search.negamax import Negamax

GAMES = (("3,4,3", "win"), ("4,4,3", "win"), ("3,4,4", "draw"), ("4,4,4", "draw"))


class Plain(MNKGame):
    """The same rules without the helpers the variant switches off."""

    def __init__(self, base: MNKGame, symmetry: bool, tactics: bool) -> None:
        super().__init__(base.rows, base.columns, base.k)
        if not symmetry:
            self._symmetric_until = -1
        self.tactics = tactics

    def winning_moves(self, position: Any, player: str) -> Any:
        return super().winning_moves(position, player) if self.tactics else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    args = parser.parse_args(argv)
    variants = [
        ("as shipped", True, True),
        ("no mirror keys", False, True),
        ("no tactics", True, False),
        ("neither", False, False),
    ]
    print(f"{'game':<8}{'result':>7}  " + "".join(f"{name:>24}" for name, _, _ in variants))
    ok = True
    for parameters, expected in GAMES:
        cells = []
        for _, symmetry, tactics in variants:
            game = Plain(mnk_game(parameters), symmetry, tactics)
            engine = Negamax(game, max_entries=1 << 22)
            start = time.perf_counter()
            solved = engine.solve(game.initial(), Limits.seconds(args.limit))
            seconds = time.perf_counter() - start
            if not solved.outcome.exact:
                cells.append(f"> {args.limit:.0f} s")
                continue
            ok = ok and solved.outcome.result == expected
            cells.append(f"{seconds:7.2f} s {solved.nodes:>11,} n")
        print(f"{parameters:<8}{expected:>7}  " + "".join(f"{cell:>24}" for cell in cells))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
