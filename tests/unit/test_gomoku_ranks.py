"""``benchmarks/gomoku_ranks.py``: a move is placed where a node's ordering
puts it, positions with a four or an open three are left out, and bad logs
get a clear error. benchmarks/README.md's table of places rests on it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from gomoku_ranks import main, ordering, ranks
from gomoku_refs import GAMES, from_notation, notation
from gomoku_strength import position_of
from unbeatable import api
from unbeatable.solvers.mnk.engine import board_of

OPENING = [from_notation(m) for m in ["h8", "i9", "g9"]]


def _ordered(moves: list[int]) -> list[int]:
    """The candidates after ``moves``, as row-major cells, best first."""
    rules = api.resolve(GAMES["freestyle"], "")[0]
    board = board_of(rules, position_of(rules, moves).cells)
    listed = ordering(board, len(moves) % 2)
    assert listed is not None
    near, score = listed
    row_major = {int(padded): cell for cell, padded in enumerate(board.cells)}
    return [row_major[int(c)] for c in near[np.argsort(-score, kind="stable")]]


def test_a_move_is_placed_where_the_ordering_puts_it() -> None:
    order = _ordered(OPENING)
    assert ranks("freestyle", [*OPENING, order[0]], 3) == [(3, 1)]
    ((ply, place),) = ranks("freestyle", [*OPENING, order[20]], 3)
    assert ply == 3 and 15 <= place <= 21  # (ties share the better place)


def test_positions_with_an_open_three_or_a_four_are_left_out() -> None:
    # From the 6th stone black has an open three (h8 i8 j8), then a four.
    game = [from_notation(m) for m in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "l8"]]
    assert [ply for ply, _ in ranks("freestyle", game, 3)] == [3, 4]


def test_the_logs_are_read_and_bad_ones_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = " ".join(notation(c) for c in [*OPENING, _ordered(OPENING)[0]])
    log = tmp_path / "ladder.log"
    log.write_text(f"rapfi-t1000 game 1: ours o, loss (five) in 4 stones, slowest 1 s: {moves}\n")
    assert main([str(log)]) == 0
    assert "ours       1 moves  first 1.000" in capsys.readouterr().out
    log.write_text("rapfi-t1000 game 1: ours x, win (five) in 4 stones: h8 i9 z99\n")
    with pytest.raises(SystemExit) as stop:
        main([str(log)])
    assert stop.value.code == 2
    assert "z99" in capsys.readouterr().err
    log.write_text("rapfi-t1000 game 1: ours x, win (five) in 4 stones: h8 i9 h8\n")
    with pytest.raises(SystemExit) as stop:
        main([str(log)])
    assert stop.value.code == 2
    assert "plays a cell twice" in capsys.readouterr().err
