"""Fit the Gomoku engine's move ordering to a tournament engine's choices.

The main search tries a node's moves best first and searches only the first
fourteen (``kernel.WIDTH``); late ones are searched shallower. Which moves
come first is a *policy*: a score per candidate cell from what the cell's
line patterns make for the side to move (attack) and stop for the other side
(defence). Hand-set, that score is ``val[me] + 4/5 val[opp]``
(``patterns.LEVEL_WEIGHT``, ``CLASS_BONUS``). Here it is learned: a score per
four-level code of each side (its levels counted, its class, the pair its two
strongest levels make; per colour, as the side to move and as the other),
fitted by maximum likelihood so that a softmax over the candidates puts the
most weight on the move Rapfi played (multinomial logistic regression, the
way move-prediction policies are trained).

The positions are ``gomoku_eval_fit.py collect``'s (with ``--depth``: Rapfi's
move at that many plies beside its value). The fit is checked on a held-out
fifth of the games against the hand-set ordering: how often Rapfi's move is
first, in the first three, in the first fourteen (searched at all), and the
likelihood (the hand-set score given its best temperature). It prints the
weights in ``patterns.POLICIES``' form::

    python benchmarks/gomoku_eval_fit.py collect --rule freestyle --games 1000 --seed 61 \
        --depth 12 --out free.jsonl
    python benchmarks/gomoku_policy_fit.py free.jsonl --rule freestyle

With ``--proximity`` it fits instead what a candidate's place beside the
last two moves adds to the ordering in use (the kernel's own table, as
scaled): a weight per distance from each move (:func:`near_bucket`), and a
temperature for the ordering in use, printed in the kernel's units (where
it predicted Rapfi's moves better and played worse: benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import minimize

from gomoku_refs import GAMES
from gomoku_strength import position_of
from unbeatable import api
from unbeatable.solvers.mnk import kernel as K
from unbeatable.solvers.mnk.engine import board_of, near_empty
from unbeatable.solvers.mnk.patterns import (
    C_FIVE,
    C_FLEX4,
    NCLASSES,
    NLEVELS,
    ORDER_DEFENCE,
    PAIRS,
    code_levels,
    code_pairs,
    combinations,
    kinds,
)

#: Features of one side's code: its levels counted, its class, its pair.
FEATURES = NLEVELS + NCLASSES + PAIRS
#: Blocks of weights (colour, role): role 0 the side to move's own lines
#: (attack), 1 the other side's (defence); colour 0 black.
BLOCKS = ((0, 0), (0, 1), (1, 0), (1, 1))
RIDGE = 1.0
#: Where a candidate stands from a move just played (``--proximity``): one
#: to four king steps away, off a line through the move or on one (eight
#: buckets), or farther (the ninth); :data:`NEAR_NONE` when there is no
#: such move. (Tried in the kernel as a switch, ``kernel.PROXIMITY`` of
#: 14a4f6f: H0, benchmarks/README.md, "Tests of 2026-12-03"; taken out.)
NEAR_BUCKETS = 9
NEAR_NONE = NEAR_BUCKETS


def near_bucket(cell: int, move: int, columns: int) -> int:
    """The proximity bucket of board cell ``cell`` from ``move`` (both
    row-major cell numbers)."""
    dr = abs(cell // columns - move // columns)
    dc = abs(cell % columns - move % columns)
    if max(dr, dc) > 4:
        return NEAR_BUCKETS - 1
    return 2 * (max(dr, dc) - 1) + int(dr == 0 or dc == 0 or dr == dc)


def code_features(kind: int) -> npt.NDArray[np.float64]:
    """``phi[code]``: the features of every code of four levels for a player
    whose lines are of ``kind``."""
    levels = code_levels()
    codes = levels.shape[1]
    phi = np.zeros((codes, FEATURES))
    for d in range(4):
        phi[np.arange(codes), levels[d]] += 1
    classes, _ = combinations()
    phi[np.arange(codes), NLEVELS + classes[kind]] = 1
    phi[np.arange(codes), NLEVELS + NCLASSES + code_pairs()] = 1
    return phi


class Data:
    """Every candidate of every position: its codes for the mover and the
    other side, the mover's colour, the hand-set score; which is Rapfi's."""

    def __init__(
        self, files: list[Path], rule: str, defence: bool = False, proximity: bool = False
    ) -> None:
        rules = api.resolve(GAMES[rule], "")[0]
        words = np.arange(1 << 16)
        lv = [(words >> (4 * d)) & 15 for d in range(4)]
        self.code_of_word = np.where(
            np.logical_and.reduce([x < NLEVELS for x in lv]),
            ((lv[0] * NLEVELS + lv[1]) * NLEVELS + lv[2]) * NLEVELS + lv[3],
            0,
        )
        mine, theirs, colour, hand, pos, label, game = [], [], [], [], [], [], []
        in_use: list[Any] = []  # the kernel's ordering score (history aside)
        by_last: list[list[int]] = []  # proximity from the last move
        by_own: list[list[int]] = []  # and from the mover's own last
        skipped = {"forced": 0, "far": 0}
        games, last, rows = -1, 1 << 30, 0
        for file in files:
            for line in file.open():
                record = json.loads(line)
                moves = record["moves"]
                if "move" not in record:
                    sys.exit(f"{file}: no judge's move (collect with this version)")
                if len(moves) <= last:
                    games += 1
                last = len(moves)
                me = len(moves) % 2
                opp = 1 - me
                board = board_of(rules, position_of(rules, moves).cells)
                n = board.ncls
                if (
                    n[opp, C_FIVE]
                    or n[me, C_FIVE]
                    or n[me, C_FLEX4]
                    or (n[opp, C_FLEX4] > 0) != defence
                ):
                    skipped["forced"] += 1
                    continue
                cells = board.cells
                if defence:  # the answers to an open three: the kernel's list
                    buffer = np.zeros((2, len(cells) + 1), dtype=np.int64)
                    near = buffer[0, : K.defences(board, me, buffer[0], buffer[1])].copy()
                else:
                    near = near_empty(board)
                if n[me, K.RESTRICTED]:
                    near = np.array([c for c in near if not K.illegal(board, me, c)])
                target = cells[record["move"]]
                where = np.flatnonzero(near == target)
                if len(where) == 0:
                    skipped["far"] += 1
                    continue
                if proximity:
                    number = np.searchsorted(cells, near)  # (padded cells ascend row-major)
                    for back, out in ((1, by_last), (2, by_own)):
                        out.append(
                            [near_bucket(int(c), moves[-back], rules.columns) for c in number]
                            if len(moves) >= back
                            else [NEAR_NONE] * len(near)
                        )
                    in_use.append(
                        board.pol[me, 0, board.pat[me, near]].astype(np.int64)
                        + board.pol[opp, 1, board.pat[opp, near]]
                    )
                mine.append(self.code_of_word[board.pat[me, near]])
                theirs.append(self.code_of_word[board.pat[opp, near]])
                colour.append(np.full(len(near), me))
                share = 5 if defence else ORDER_DEFENCE
                hand.append(board.val[me, near] + board.val[opp, near] * share // 5)
                label.append(rows + int(where[0]))
                rows += len(near)
                pos.append(len(near))
                game.append(games)
        if not pos:
            sys.exit("no position to fit")
        if proximity:
            self.in_use = np.concatenate(in_use).astype(np.float64)
            self.by_last = np.concatenate(by_last).astype(np.int64)
            self.by_own = np.concatenate(by_own).astype(np.int64)
        self.mine = np.concatenate(mine)
        self.theirs = np.concatenate(theirs)
        self.colour = np.concatenate(colour)
        self.hand = np.concatenate(hand).astype(np.float64)
        self.sizes = np.array(pos)
        self.starts = np.concatenate([[0], np.cumsum(self.sizes)[:-1]])
        self.label = np.array(label)
        self.game = np.array(game)
        self.skipped = skipped
        self.kinds = kinds(rule)


def _segments(data: Data, rows: npt.NDArray[np.int64]) -> tuple[Any, ...]:
    """The candidate rows of positions ``rows``, and where each starts."""
    idx = np.concatenate(
        [np.arange(s, s + n) for s, n in zip(data.starts[rows], data.sizes[rows], strict=True)]
    )
    sizes = data.sizes[rows]
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    labels = starts + (data.label[rows] - data.starts[rows])
    return idx, starts, labels


def _nll(
    z: npt.NDArray[np.float64], starts: Any, labels: Any
) -> tuple[float, npt.NDArray[np.float64]]:
    """Negative log-likelihood of the labels under a softmax of ``z`` per
    segment, and its gradient in ``z``."""
    top = np.maximum.reduceat(z, starts)
    sizes = np.diff(np.append(starts, len(z)))
    e = np.exp(z - np.repeat(top, sizes))
    total = np.add.reduceat(e, starts)
    p = e / np.repeat(total, sizes)
    loss = float(np.sum(np.log(total) + top - z[labels]))
    g = p
    g[labels] -= 1
    return loss, g


def held_out(data: Data) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """The positions fitted on and those checked on (a fifth of the games,
    whole), and how many games there are."""
    games = np.unique(data.game)
    held = set(np.random.default_rng(0).permutation(games)[: len(games) // 5].tolist())
    test = np.array([i for i in range(len(data.sizes)) if data.game[i] in held])
    train = np.array([i for i in range(len(data.sizes)) if data.game[i] not in held])
    return train, test, len(games)


def metrics(z: npt.NDArray[np.float64], starts: Any, labels: Any) -> dict[str, float]:
    """Where the labelled move stands in each position's order by ``z``
    (ties broken against it), and the mean log-likelihood."""
    sizes = np.diff(np.append(starts, len(z)))
    ahead = np.add.reduceat((z >= np.repeat(z[labels], sizes)).astype(np.int64), starts) - 1
    loss, _ = _nll(z.copy(), starts, labels)
    return {
        "first": float(np.mean(ahead == 0)),
        "top 3": float(np.mean(ahead < 3)),
        "top 14": float(np.mean(ahead < K.WIDTH)),
        "mean place": float(np.mean(ahead) + 1),
        "log-lik": -loss / len(starts),
    }


def fit_proximity(files: list[Path], rule: str, defence: bool = False) -> None:
    """What each candidate's distance from the last two moves adds to the
    ordering in use: ``z = in_use / t + w[last] + w[own]``, by maximum
    likelihood on four fifths of the games, checked on the fifth."""
    data = Data(files, rule, defence, proximity=True)
    train, test, games = held_out(data)
    print(f"{len(data.sizes):,} positions of {games:,} games (fitted on {len(train):,})")
    k = NEAR_BUCKETS + 1

    def terms(w: npt.NDArray[np.float64], idx: Any) -> npt.NDArray[np.float64]:
        near = w[1 + data.by_last[idx]] + w[1 + k + data.by_own[idx]]
        return w[0] * data.in_use[idx] / 100 + near

    def objective(w: npt.NDArray[np.float64], idx: Any, starts: Any, labels: Any) -> Any:
        loss, g = _nll(terms(w, idx), starts, labels)
        grad = np.concatenate(
            [
                [float(g @ data.in_use[idx]) / 100],
                np.bincount(data.by_last[idx], weights=g, minlength=k),
                np.bincount(data.by_own[idx], weights=g, minlength=k),
            ]
        )
        ridge = np.concatenate([[0.0], np.full(2 * k, RIDGE)])
        return loss + float(ridge @ (w * w)), grad + 2 * ridge * w

    idx, starts, labels = _segments(data, train)
    tidx, tstarts, tlabels = _segments(data, test)
    alone = np.zeros(1 + 2 * k)
    found_alone = minimize(
        lambda a: _nll(a[0] * data.in_use[idx] / 100, starts, labels)[0],
        np.array([1.0]),
        method="L-BFGS-B",
    )
    alone[0] = found_alone.x[0]
    w = minimize(
        objective, alone.copy(), args=(idx, starts, labels), jac=True, method="L-BFGS-B"
    ).x
    print(f"held out ({len(test):,} positions):")
    for name, z in (("in use", terms(alone, tidx)), ("in use + proximity", terms(w, tidx))):
        m = metrics(z, tstarts, tlabels)
        print(f"  {name:20s} " + "  ".join(f"{key} {v:.3f}" for key, v in m.items()))
    # In the kernel's units: the weights divided by the temperature of the
    # ordering in use, the bucket of no move (the root's) at 0.
    units = np.rint(w[1:] * 100 / w[0]).astype(int)
    last, own = units[:k] - units[k - 1], units[k:] - units[2 * k - 1]
    print("proximity (king steps 1-4, off a line and on one; then farther), in the kernel's units:")
    print(f"  from the last move:        {tuple(int(v) for v in last[: k - 1])}")
    print(f"  from the mover's own last: {tuple(int(v) for v in own[: k - 1])}")


def fit(
    files: list[Path], rule: str, shared: bool, codes: float = 0.0, defence: bool = False
) -> None:
    data = Data(files, rule, defence)
    phi = [code_features(kind) for kind in data.kinds]  # (per colour)
    train, test, games = held_out(data)
    print(
        f"{len(data.sizes):,} positions of {games:,} games (fitted on {len(train):,},"
        f" checked on {len(test):,}); left out: {data.skipped['forced']:,} with a four or"
        f" five to answer or make, {data.skipped['far']:,} where Rapfi's move is no candidate"
    )

    nblocks = 2 if shared else 4
    ncodes = phi[0].shape[0]
    nw = nblocks * FEATURES

    def unpack(w: npt.NDArray[np.float64]) -> list[npt.NDArray[np.float64]]:
        blocks = w[:nw].reshape(-1, FEATURES)
        extra = w[nw:].reshape(-1, ncodes) if codes else None
        if shared:
            blocks = np.concatenate([blocks, blocks])
            if extra is not None:
                extra = np.concatenate([extra, extra])
        out = [phi[colour] @ blocks[b] for b, (colour, _) in enumerate(BLOCKS)]
        if extra is not None:
            out = [t + extra[b] for b, t in enumerate(out)]
        return out

    def scores(tables: list[npt.NDArray[np.float64]], idx: Any) -> npt.NDArray[np.float64]:
        me = data.colour[idx]
        a = np.where(me == 0, tables[0][data.mine[idx]], tables[2][data.mine[idx]])
        d = np.where(me == 0, tables[3][data.theirs[idx]], tables[1][data.theirs[idx]])
        return a + d

    def objective(
        w: npt.NDArray[np.float64], idx: Any, starts: Any, labels: Any
    ) -> tuple[float, Any]:
        tables = unpack(w)
        loss, g = _nll(scores(tables, idx), starts, labels)
        me = data.colour[idx]
        grads, code_grads = [], []
        for colour, role in BLOCKS:
            # (attack reads the mover's code; defence the other side's, not of the mover's colour)
            rows = me == colour if role == 0 else me != colour
            read = data.mine[idx][rows] if role == 0 else data.theirs[idx][rows]
            per_code = np.bincount(read, weights=g[rows], minlength=ncodes)
            grads.append(phi[colour].T @ per_code)
            code_grads.append(per_code)
        grad = np.array(grads)
        cg = np.array(code_grads)
        if shared:
            grad = grad[:2] + grad[2:]
            cg = cg[:2] + cg[2:]
        grad = grad.ravel() + 2 * RIDGE * w[:nw]
        penalty = RIDGE * float(w[:nw] @ w[:nw])
        if codes:
            grad = np.concatenate([grad, cg.ravel() + 2 * codes * w[nw:]])
            penalty += codes * float(w[nw:] @ w[nw:])
        return loss + penalty, grad

    idx, starts, labels = _segments(data, train)
    size = nw + (nblocks * ncodes if codes else 0)
    found = minimize(
        objective,
        np.zeros(size),
        args=(idx, starts, labels),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": 500},
    )
    w = found.x
    tidx, tstarts, tlabels = _segments(data, test)
    # The hand-set ordering's likelihood at its best temperature (on the training positions).
    hs = data.hand[idx]
    temps = [
        (_nll(hs / t, starts, labels)[0], t)
        for t in (10, 20, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960)
    ]
    best_t = min(temps)[1]
    print(f"held out ({len(test):,} positions):")
    for name, z in (
        (f"hand-set (temperature {best_t})", data.hand[tidx] / best_t),
        ("fitted", scores(unpack(w), tidx)),
    ):
        m = metrics(z, tstarts, tlabels)
        print(f"  {name:32s} " + "  ".join(f"{k} {v:.3f}" for k, v in m.items()))
    # The scale that puts the fitted scores in the hand-set ordering's units
    # (so the history of cut-offs weighs as much beside them): the ratio of
    # the spreads of each position's ten best scores.
    z_fit, z_hand = scores(unpack(w), idx), data.hand[idx]
    spread_fit, spread_hand = [], []
    for start, size in zip(starts, np.diff(np.append(starts, len(z_fit))), strict=True):
        for z, out in ((z_fit, spread_fit), (z_hand, spread_hand)):
            top = np.sort(z[start : start + size])[::-1][:10]
            out.append(top[0] - top[-1])
    scale = float(np.median(spread_hand) / np.median(spread_fit))
    print(f"scale: {scale:.0f} hand-set units a unit of the fit (medians of ten best's spread)")
    blocks = w[:nw].reshape(-1, FEATURES)
    if shared:
        blocks = np.concatenate([blocks, blocks])
    units = np.rint(blocks * scale).astype(int)
    print(f"patterns.POLICIES[{rule!r}] (blocks: colour, then role):")
    print(policy_source(units))


def policy_source(units: npt.NDArray[np.int64]) -> str:
    """``units`` (a row of features per block of :data:`BLOCKS`) as the
    source of a ``patterns.Policy``."""

    def part(lo: int, hi: int) -> str:
        per_colour = []
        for colour in range(2):
            roles = [tuple(int(v) for v in units[2 * colour + role, lo:hi]) for role in range(2)]
            per_colour.append(f"({roles[0]}, {roles[1]})")
        return f"({per_colour[0]}, {per_colour[1]})"

    levels, classes = NLEVELS, NLEVELS + NCLASSES
    parts = (part(0, levels), part(levels, classes), part(classes, FEATURES))
    return "Policy(\n" + "".join(f"    {p},\n" for p in parts) + ")"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--rule", choices=sorted(GAMES), default="freestyle")
    parser.add_argument("--shared", action="store_true", help="one set of weights for both colours")
    parser.add_argument(
        "--codes", type=float, default=0.0, help="also a weight per code, held to 0 this hard"
    )
    parser.add_argument(
        "--defence", action="store_true", help="the positions with an open three to answer"
    )
    parser.add_argument(
        "--proximity",
        action="store_true",
        help="fit what the distance from the last two moves adds to the ordering in use",
    )
    args = parser.parse_args()
    for file in args.files:
        if not file.is_file():
            sys.exit(f"no such file: {file}")
    if args.proximity:
        fit_proximity(args.files, args.rule, args.defence)
    else:
        fit(args.files, args.rule, args.shared, args.codes, args.defence)


if __name__ == "__main__":
    main()
