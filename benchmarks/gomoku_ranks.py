"""Where the moves of the ladder's games stood in our engine's move ordering.

A node other than the root searches only the first ``kernel.WIDTH`` moves of
its ordering (the learned policy, then history); the root searches
``kernel.ROOT_WIDTH``. A move the opponent plays past that width is one our
search never meets as a reply, at any depth. This reads the games
``gomoku_strength.py`` printed and, at each quiet position (no four and no
open three on either side), places each side's move among the candidates as
a node first orders them (``kernel.candidates`` with no history yet): how often
it comes first, in the first three, within the width, and past it. No
engine runs and no opponent is needed, so it takes seconds::

    python benchmarks/gomoku_strength.py --opponents rapfi-t1000 ... > ladder.log
    python benchmarks/gomoku_ranks.py ladder.log [more.log ...] [--rule standard]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

from gomoku_refs import GAMES, from_notation
from gomoku_strength import position_of
from unbeatable import api
from unbeatable.solvers.mnk import kernel as K
from unbeatable.solvers.mnk.engine import Board, board_of
from unbeatable.solvers.mnk.patterns import C_FIVE, C_FLEX4

_GAME = re.compile(r"game (\d+): ours (x|o), [^:]*: (.*)$")


def ordering(board: Board, me: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The candidates a node of the kernel lists for ``me`` and their scores
    (an empty history), by :func:`kernel.candidates` itself; ``None`` when
    they are the answers to a threat, every one searched."""
    size = len(board.cells)
    moves = np.zeros((1, size + 1), dtype=np.int64)
    scores = np.zeros((1, size + 2), dtype=np.int64)
    history = np.zeros((2, len(board.bd)), dtype=np.int64)
    count = K.candidates(board, me, 0, moves, scores, history, -1, 0)
    if count <= 0:
        return None
    return moves[0, :count].copy(), scores[0, :count].copy()


def ranks(rule: str, moves: list[int], opening: int) -> list[tuple[int, int]]:
    """``(ply, place)`` of each move past the ``opening`` stones that was
    played from a quiet position: its place (1 first) among the candidates a
    node orders, before any history; ``0`` where it is no candidate. Where
    the candidates are a threat's answers (all searched), none is placed."""
    rules = api.resolve(GAMES[rule], "")[0]
    out = []
    for ply in range(max(opening, 1), len(moves)):
        me = ply % 2
        board = board_of(rules, position_of(rules, moves[:ply]).cells)
        n = board.ncls
        if n[1 - me, C_FIVE] or n[me, C_FIVE] or n[me, C_FLEX4] or n[1 - me, C_FLEX4]:
            continue
        listed = ordering(board, me)
        if listed is None:  # the answers to a four-three threat: all searched
            continue
        near, score = listed
        where = np.flatnonzero(near == board.cells[moves[ply]])
        out.append((ply, 1 + int(np.sum(score > score[where[0]])) if len(where) else 0))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", type=Path, nargs="+", help="gomoku_strength.py output")
    parser.add_argument("--rule", choices=sorted(GAMES), default="freestyle")
    parser.add_argument(
        "--opening-stones", type=int, default=3, help="the games' opening stones (3), not placed"
    )
    args = parser.parse_args(argv)
    places: dict[str, list[int]] = {"ours": [], "theirs": []}
    games = 0
    for log in args.logs:
        if not log.is_file():
            parser.error(f"no log at {log}")
        for line in log.read_text().splitlines():
            found = _GAME.search(line)
            if not found:
                continue
            games += 1
            ours = 0 if found.group(2) == "x" else 1
            try:
                moves = [from_notation(move) for move in found.group(3).split()]
            except ValueError as error:
                parser.error(f"{log}: {error}")
            if len(set(moves)) < len(moves):
                parser.error(f"{log}: game {found.group(1)} plays a cell twice")
            for ply, place in ranks(args.rule, moves, args.opening_stones):
                places["ours" if ply % 2 == ours else "theirs"].append(place)
    if not games:
        parser.error("no games in those logs")
    width = K.WIDTH
    print(f"{games} games; quiet positions, places in the ordering (width {width}):")
    for side, found_places in places.items():
        p = np.array(found_places)
        if len(p) == 0:
            continue
        listed = p[p > 0]
        past = listed[listed > width]
        print(
            f"  {side:6s} {len(p):5d} moves  first {np.mean(listed == 1):.3f}"
            f"  top 3 {np.mean(listed <= 3):.3f}  top {width} {np.mean(listed <= width):.3f}"
            f"  past {width}: {len(past)}"
            f" (median place {int(np.median(past)) if len(past) else 0})"
            f"  no candidate: {int(np.sum(p == 0))}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
