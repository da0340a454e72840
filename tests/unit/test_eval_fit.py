"""The evaluation fit of ``benchmarks/gomoku_eval_fit.py``: the sets of four
levels ``--codes`` weighs, and ``--spread``, which scales the judge's values
so that the fitted evaluation spreads as the one in use does. Tests and
README rows rest on what these print, so they are checked where the right
answer is known."""

from __future__ import annotations

import itertools
import json
import random
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import gomoku_eval_fit
from gomoku_eval_fit import BLOCKS, code_counts, fit
from gomoku_strength import position_of
from unbeatable import api
from unbeatable.solvers.mnk import kernel as K
from unbeatable.solvers.mnk.engine import board_of
from unbeatable.solvers.mnk.patterns import FITS, NLEVELS, code_of, level_sets


def test_a_set_of_levels_is_the_same_in_any_order_of_the_directions() -> None:
    canon, n = level_sets()
    assert n == 1365  # multisets of four of twelve levels: C(15, 4)
    assert len(canon) == NLEVELS**4 and canon.min() == 0 and canon.max() == n - 1
    rng = random.Random(3)
    for _ in range(200):
        four = [rng.randrange(NLEVELS) for _ in range(4)]
        ids = {int(canon[code_of(tuple(p))]) for p in itertools.permutations(four)}
        assert len(ids) == 1
    assert canon[code_of((1, 2, 3, 4))] != canon[code_of((1, 2, 3, 5))]


def _positions(count: int, seed: int) -> list[list[int]]:
    """Short random games near the centre: quiet positions of every kind."""
    rules = api.resolve("gomoku", "")[0]
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        moves: list[int] = []
        for _ in range(rng.randrange(4, 14)):
            taken = set(moves)
            centre = [r * 15 + c for r in range(4, 11) for c in range(4, 11)]
            free = [cell for cell in centre if cell not in taken]
            moves.append(rng.choice(free))
        if not rules.is_terminal(position_of(rules, moves)):
            found.append(moves)
    return found


def test_the_counts_of_sets_cover_the_near_empty_cells_of_each_side() -> None:
    rules = api.resolve("gomoku", "")[0]
    moves = _positions(1, seed=5)[0]
    board = board_of(rules, position_of(rules, moves).cells)
    me = len(moves) % 2
    counts = code_counts(board, me).reshape(len(BLOCKS), -1)
    cells = board.cells
    near = int(((board.bd[cells] == K.EMPTY) & (board.near[cells] > 0)).sum())
    filled = [i for i, row in enumerate(counts) if row.sum() > 0]
    # Two blocks a position: the mover's colour as mover, the other as other.
    assert filled == sorted((BLOCKS.index((me, 0)), BLOCKS.index((1 - me, 1))))
    assert all(counts[i].sum() == near for i in filled)


def test_spread_scales_the_judge_back_to_the_evaluation_in_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judge whose values are the evaluation in use times 1.5: scaled by
    2/3 they are that evaluation again, which the weights in use fit, and
    whose spread is the one in use. (The ridge is made negligible: on a few
    hundred positions it would shrink the weights enough to move the scale.)"""
    monkeypatch.setattr(gomoku_eval_fit, "RIDGE", 1e-3)
    rules = api.resolve("gomoku", "")[0]
    data = tmp_path / "judged.jsonl"
    with data.open("w") as f:
        for moves in _positions(300, seed=7):
            board = board_of(rules, position_of(rules, moves).cells)
            value = int(K.evaluate(board, len(moves) % 2))
            f.write(json.dumps({"moves": moves, "value": str(round(1.5 * value))}) + "\n")
    # (With pairs where the weights in use have them: else the fit could
    # not be those weights.)
    fit([data], "freestyle", pairs=FITS["freestyle"].pair is not None, spread=True)
    printed = capsys.readouterr().out
    scale = re.search(r"scaled by ([\d.]+)", printed)
    assert scale is not None, printed
    assert float(scale.group(1)) == pytest.approx(2 / 3, abs=0.005)
    correlation = re.search(r"the hand-set part and the new fit\s+([\d.]+)", printed)
    assert correlation is not None and float(correlation.group(1)) > 0.98
