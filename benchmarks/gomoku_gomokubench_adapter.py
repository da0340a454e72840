"""Ask PyPI ``gomokubench``'s engine for moves, one position per line.

Run by ``benchmarks/gomoku_strength.py`` with the Python of a separate virtual
environment that has ``gomokubench`` installed: the package installs
top-level modules named ``libs`` and ``gomoku``, so it must never share an
environment with this project. This file imports nothing from the project.

Protocol (text lines on standard input and output):

* on start it prints ``READY gomokubench <version>`` (or ``ERROR <reason>``
  and exits 2 if the package cannot be imported);
* each request is ``<level> <seed> <moves>``: ``level`` one of gomokubench's
  levels (``easy``, ``standard``, ``hard``), ``seed`` an integer for NumPy's
  random generator (gomokubench picks its first move at random, and its easy
  level among its top moves), ``moves`` the game so far from the empty board,
  black first, as ``row,column`` pairs (0-based, row 0 at the top) separated
  by spaces, or ``-`` for the empty board;
* each answer is ``row,column`` of its move, or ``ERROR <reason>``.

Usage: ``/path/to/venv/bin/python gomoku_gomokubench_adapter.py [--size 15]``
"""

from __future__ import annotations

import argparse
import sys
from importlib import metadata
from typing import Any


def _replay(board_state: Any, size: int, moves: list[tuple[int, int]]) -> Any:
    """The gomokubench position after ``moves``; its ``next`` alternates colours
    (black first) and records the last move, which its second move reads."""
    state = board_state(size=size)
    for row, column in moves:
        if not (0 <= row < size and 0 <= column < size):
            raise ValueError(f"{row},{column} is off the {size}x{size} board")
        if not state.is_valid_position((row, column)):
            raise ValueError(f"{row},{column} is already taken")
        state = state.next((row, column))
    return state


def _parse_moves(text: str) -> list[tuple[int, int]]:
    if text == "-":
        return []
    moves = []
    for item in text.split():
        row, _, column = item.partition(",")
        moves.append((int(row), int(column)))
    return moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=15, help="board side (default 15)")
    args = parser.parse_args(argv)
    try:
        import numpy as np
        from libs import piece
        from libs.ai import AI_LEVELS, get_best_move
        from libs.board import BoardState
    except ImportError as error:
        print(f"ERROR gomokubench is not importable here: {error}", flush=True)
        return 2
    print(f"READY gomokubench {metadata.version('gomokubench')}", flush=True)
    for line in sys.stdin:
        parts = line.split(maxsplit=2)
        if not parts:
            continue
        try:
            if len(parts) != 3:
                raise ValueError("expected '<level> <seed> <moves>'")
            level, seed, moves_text = parts[0], int(parts[1]), parts[2].strip()
            if level not in AI_LEVELS:
                raise ValueError(f"unknown level {level!r} (known: {', '.join(AI_LEVELS)})")
            state = _replay(BoardState, args.size, _parse_moves(moves_text))
            if state.is_terminal():
                raise ValueError("the game is over")
            settings = AI_LEVELS[level]
            np.random.seed(seed)
            # The side to move is the opposite of the last mover's colour
            # (state.color); black maximises gomokubench's evaluation.
            move, _ = get_best_move(
                state,
                settings["depth"],
                -state.color == piece.BLACK,
                candidate_count=settings["candidate_count"],
                random_top_n=settings["random_top_n"],
            )
            row, column = (int(value) for value in move)
            if not state.is_valid_position((row, column)):
                raise ValueError(f"gomokubench chose an illegal move {row},{column}")
            print(f"{row},{column}", flush=True)
        except ValueError as error:
            print(f"ERROR {error}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
