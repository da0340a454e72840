"""Fit an evaluation of the Gomoku engine's form to a tournament engine's judgement.

The engine's leaf evaluation (``unbeatable.solvers.mnk.kernel.evaluate``) is a
sum over the empty cells near the stones of what their line patterns are
worth. Weights per direction level and per cell class (and, with ``--pairs``,
per pair of a cell's two strongest levels), for the side to move and for the
other side, plus a tempo, are linear in counts a board gives at once, so
they can be fitted by least squares to a stronger judge's values of many
positions. This script does both halves:

1. ``collect``: games from seeded openings of 2-4 stones in the centre, our
   engine (a few thousand nodes a move, and now and then a random move near
   the stones, so that the positions vary) against Rapfi held to 4 or 7
   plies; every position is judged by Rapfi searching 7 plies (its value for
   the side to move, or a proved result), one JSON line each.
2. ``fit``: the quiet positions (no five to make or stop, no open four to
   make: the positions the search evaluates) with values within +-2,500,
   their features read from the kernel's board, ridge regression on four
   fifths of the games, checked on the other fifth's positions against the
   engine's evaluation as it stands; prints the weights in the engine's form.

Each rule set's fit is in the engine (``patterns.FITS``; benchmarks/README.md,
"Each rule set's own evaluation"), per colour, fitted to what the judge's
values leave once the engine's hand-set part is counted (``--rule`` plays,
judges and fits freestyle, standard or renju):

    python benchmarks/gomoku_eval_fit.py collect --rule renju --games 1000 --seed 21 --out r.jsonl
    python benchmarks/gomoku_eval_fit.py collect --rule renju --games 1000 --seed 22 --out r.jsonl
    python benchmarks/gomoku_eval_fit.py fit --rule renju r.jsonl

(freestyle: one run of seed 31; standard: seed 41.) Every rule set's fit in use
is to 1-ply values, with pairs and codes (below): 1,000 games a rule judged at 12
plies (freestyle, seeds 81 and 82) or 7 (standard, 91 and 92; renju, 93), then
judged again at 1 ply.

Two options of ``fit`` ask what a fit's size and its capacity do (benchmarks/
README.md, "The evaluation's judge, deeper and shallower"): ``--spread``
scales the judge's values so that the fitted evaluation spreads as the one in
use does (the search's margins are in its units), and ``--codes FILE`` adds a
weight per set of four levels of each block (Rapfi's classical table has a
value per such code), saved to ``FILE`` as an ``.npy`` array:

    python benchmarks/gomoku_eval_fit.py fit --rule freestyle --pairs --spread free_d12.jsonl
    python benchmarks/gomoku_eval_fit.py judge --depth 1 free_d12.jsonl --out free_d1.jsonl
    python benchmarks/gomoku_eval_fit.py fit --pairs --codes codes.npy free_d1.jsonl

(``judge`` writes the same positions judged again by Rapfi at another depth.)
A fit is checked on a fifth of the games held out whole, or with ``--check
FILES`` on those files' games, new to the fit in use as well, so that the
two can be compared fairly:

    python benchmarks/gomoku_eval_fit.py fit --rule standard --pairs --codes c.npy \
        std_d1.jsonl std_d1_121.jsonl --check std_d1_122.jsonl

``threats`` fits the evaluation's threat table (``patterns.THREATS``: what the
side to move gets for which threats each side has, ``kernel.threat_mask``)
to what the judge's values leave once the evaluation as it stands is counted:

    python benchmarks/gomoku_eval_fit.py threats free_51.jsonl free_52.jsonl

``tops`` fits what the side to move's three best cells add (``patterns.TOPS``)
the same way:

    python benchmarks/gomoku_eval_fit.py tops --rule standard std_d1.jsonl

Rapfi is built outside the repository (see benchmarks/README.md, "Building
the opponents"); ``--rapfi`` points at it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from gomoku_refs import (
    GAMES,
    RAPFI,
    RAPFI_RULES,
    SIZE,
    UNTIMED,
    EngineError,
    GomocupEngine,
    OpponentMissing,
    Reply,
    rapfi,
)
from gomoku_strength import position_of, random_opening
from unbeatable import api
from unbeatable.solvers.mnk import kernel as K
from unbeatable.solvers.mnk.engine import Board, GomokuEngine, board_of, levels_of, near_empty
from unbeatable.solvers.mnk.patterns import (
    C_B4,
    C_B4F3,
    C_F3F3,
    C_FIVE,
    C_FLEX4,
    C_NONE,
    CODE_BLOCKS,
    DEAD,
    FITS,
    NCLASSES,
    NLEVELS,
    NTHREATS,
    NTOPS,
    PAIRS,
    TOP_UNIT,
    code_levels,
    code_of,
    code_pairs,
    code_table,
    combinations,
    kinds,
    level_sets,
)

#: Nodes a move for our side while collecting, and the share of random moves.
OUR_NODES, RANDOM_SHARE = 8000, 0.12
JUDGE_DEPTH = 7
#: Values past this are decided positions, not judgement.
CLIP = 2500
RIDGE = 10.0
#: The ridge of ``fit --codes``' weights (one per set of four levels).
CODE_RIDGE = 200.0

#: The weights, per colour (the colours' chances differ, and renju's black's
#: lines are of another kind) as the side to move and as the other side:
#: every level and class, and what each colour gets for being to move.
#: Each block of weights as (colour, side): colour 0 black, side 0 the side
#: to move. A position fills two blocks: its mover's and the other side's.
BLOCKS = CODE_BLOCKS
_BLOCK_NAMES = [f"{('black', 'white')[c]} {('mover', 'other')[s]}" for c, s in BLOCKS]
NAMES = [
    *(f"{block} level {i}" for block in _BLOCK_NAMES for i in range(NLEVELS)),
    *(f"{block} class {i}" for block in _BLOCK_NAMES for i in range(NCLASSES)),
    "black to move",
    "white to move",
    *(f"{block} pair {i}" for block in _BLOCK_NAMES for i in range(PAIRS)),
]
#: Where the tempo and the pairs sit in :data:`NAMES`.
TEMPO_AT = 4 * (NLEVELS + NCLASSES)
PAIRS_AT = TEMPO_AT + 2


def collect(
    games: int,
    seed: int,
    out: Path,
    path: Path,
    rule: str = "freestyle",
    depth: int = JUDGE_DEPTH,
) -> None:
    """Play ``games`` games and write every position Rapfi judged (at
    ``depth`` plies): its moves, Rapfi's value and Rapfi's move (what the
    move-ordering fit of ``gomoku_policy_fit.py`` learns from)."""
    rules = api.resolve(GAMES[rule], "")[0]
    engine = GomokuEngine(rules, threads=1)
    engine.warm_up()
    settings = [("rule", RAPFI_RULES[rule]), *UNTIMED]
    opponent = rapfi(path, [*settings, ("max_depth", 4)])
    judge = rapfi(path, [*settings, ("max_depth", depth)])
    rng = random.Random(seed)
    start = time.monotonic()
    written = 0
    try:
        with out.open("a") as f:
            for game in range(games):
                moves = random_opening(rng, rng.choice((2, 3, 4)))
                ours = rng.randrange(2)
                opponent.new_game()
                while len(moves) < SIZE * SIZE:
                    position = position_of(rules, moves)
                    if rules.is_terminal(position):
                        break
                    try:
                        judged, line = _judged(judge, moves)
                    except EngineError:
                        break
                    if line is not None:
                        f.write(line)
                        written += 1
                    if len(moves) % 2 == ours:
                        legal = set(rules.moves(position))
                        near = [c for c in _near(moves) if c in legal]
                        if near and rng.random() < RANDOM_SHARE:
                            move = rng.choice(near)
                        else:
                            move = engine.solve_nodes(position, OUR_NODES).move
                    elif rng.random() < 0.5:
                        move = judged.cell
                    else:
                        move = opponent.move(moves, 60).cell
                    moves = [*moves, move]
                print(
                    f"game {game + 1}: {len(moves)} stones, {written} positions,"
                    f" {time.monotonic() - start:.0f} s",
                    flush=True,
                )
    finally:
        opponent.close()
        judge.close()


def _judged(judge: GomocupEngine, moves: list[int]) -> tuple[Reply, str | None]:
    """Rapfi's answer to ``moves`` from a fresh game, and the JSON line that
    records its value and move (None where it gave no value)."""
    judge.new_game()
    judged = judge.move(moves, 60)
    if judged.eval is None:
        return judged, None
    record = {"moves": moves, "value": judged.eval.text, "move": judged.cell}
    return judged, json.dumps(record) + "\n"


def judge_again(files: list[Path], out: Path, path: Path, rule: str, depth: int) -> None:
    """Write the positions of ``files`` (``collect``'s lines) judged again by
    Rapfi at ``depth`` plies, in the same form: the same positions under a
    deeper or shallower judge, so that fits to each can be compared."""
    settings = [("rule", RAPFI_RULES[rule]), *UNTIMED]
    judge = rapfi(path, [*settings, ("max_depth", depth)])
    written = 0
    try:
        with out.open("w") as f:
            for file in files:
                for line in file.open():
                    try:
                        _, judged_line = _judged(judge, json.loads(line)["moves"])
                    except EngineError:
                        continue
                    if judged_line is not None:
                        f.write(judged_line)
                        written += 1
    finally:
        judge.close()
    print(f"{written:,} positions judged at {depth} plies, in {out}")


def _near(moves: list[int]) -> list[int]:
    taken = set(moves)
    return [
        c
        for c in range(SIZE * SIZE)
        if c not in taken
        and any(abs(c // SIZE - m // SIZE) <= 2 and abs(c % SIZE - m % SIZE) <= 2 for m in moves)
    ]


def evaluated(board: Board, me: int) -> bool:
    """Whether the search evaluates this position with ``me`` to move: no
    five to make or stop, no open four of the mover's to make."""
    ncls, opp = board.ncls, 1 - me
    return not (ncls[me, C_FIVE] or ncls[opp, C_FIVE] or ncls[me, C_FLEX4])


def judged(files: list[Path], rule: str) -> Iterator[tuple[Board, int, int, int]]:
    """Each collected position the search evaluates whose judged value is
    not decided (no proved result, nothing past +-:data:`CLIP`): its board,
    the side to move, the value and the number of its game (a line that
    does not go on from the one before begins a game)."""
    rules = api.resolve(GAMES[rule], "")[0]
    game, last = -1, None
    for file in files:
        for line in file.open():
            record = json.loads(line)
            moves = record["moves"]
            if last is None or len(moves) <= len(last) or moves[: len(last)] != last:
                game += 1
            last = moves
            text = record["value"]
            if "M" in text or abs(int(text)) > CLIP:
                continue
            me = len(moves) % 2
            board = board_of(rules, position_of(rules, moves).cells)
            if evaluated(board, me):
                yield board, me, int(text), game


def split_games(games: Sequence[Any]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The rows to fit on and the rows to check on, given each row's game (any
    sortable key): a fifth of the games held out whole. Positions of one game
    are alike, so a fifth of the positions drawn at random would check a fit
    on what it has nearly seen."""
    keys = sorted(set(games))
    held = np.random.default_rng(0).permutation(len(keys))[: len(keys) // 5]
    held_keys = {keys[i] for i in held.tolist()}
    in_test = np.array([game in held_keys for game in games], dtype=bool)
    return np.flatnonzero(~in_test), np.flatnonzero(in_test)


def _blocks(
    board: Board, me: int
) -> Iterator[tuple[int, int, npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
    """Each side's block (:data:`BLOCKS`), its colour, the near empty cells,
    their four levels (a row a direction) and their codes: what both
    :func:`features` and :func:`code_counts` count."""
    near = near_empty(board)
    for side, p in enumerate((me, 1 - me)):
        four = levels_of(board)[p][:, near].astype(np.int64)
        codes = code_of((four[0], four[1], four[2], four[3]))
        yield BLOCKS.index((p, side)), p, near, four, codes


def code_counts(board: Board, me: int) -> npt.NDArray[np.float64]:
    """How many near empty cells of each block (:data:`BLOCKS`) read each
    set of four levels (``patterns.level_sets``): the features of ``--codes``."""
    canon, n = level_sets()
    f = np.zeros(4 * n)
    for block, _, _, _, codes in _blocks(board, me):
        f[n * block : n * (block + 1)] = np.bincount(canon[codes], minlength=n)
    return f


def features(board: Board, me: int) -> npt.NDArray[np.float64] | None:
    """The counts a fitted evaluation is linear in (:data:`NAMES`), or None
    for a position the search never evaluates (a five to make or stop, an
    open four to make) or where the threat bonus applies (kept out of the
    fit)."""
    ncls, opp = board.ncls, 1 - me
    if not evaluated(board, me):
        return None
    if ncls[opp, C_B4] + ncls[opp, C_B4F3] + ncls[opp, C_FLEX4] == 0 and (
        ncls[me, C_B4F3] or ncls[me, C_F3F3]
    ):
        return None
    f = np.zeros(len(NAMES))
    for block, p, near, four, codes in _blocks(board, me):
        f[NLEVELS * block : NLEVELS * (block + 1)] = np.bincount(four.ravel(), minlength=NLEVELS)
        at = 4 * NLEVELS + NCLASSES * block
        f[at : at + NCLASSES] = np.bincount(board.cls[p, near], minlength=NCLASSES)
        at = PAIRS_AT + PAIRS * block
        f[at : at + PAIRS] = np.bincount(code_pairs()[codes], minlength=PAIRS)
    f[TEMPO_AT + me] = 1
    return f


def installed(rule: str) -> npt.NDArray[np.float64]:
    """The engine's weights for ``rule`` (``patterns.FITS``) laid out as
    :data:`NAMES`, so that features times them is the fitted part of its
    evaluation."""
    fit = FITS[rule]
    return np.array(
        [
            *(w for colour, side in BLOCKS for w in fit.level[colour][side]),
            *(w for colour, side in BLOCKS for w in fit.klass[colour][side]),
            *fit.tempo,
            *(
                w
                for colour, side in BLOCKS
                for w in (fit.pair[colour][side] if fit.pair else (0,) * PAIRS)
            ),
        ],
        dtype=np.float64,
    )


def fit(
    files: list[Path],
    rule: str = "freestyle",
    pairs: bool = False,
    spread: bool = False,
    codes: Path | None = None,
    code_ridge: float = CODE_RIDGE,
    check: list[Path] | None = None,
) -> None:
    """Fit what Rapfi's values leave once the engine's hand-set evaluation is
    counted (the engine adds the two): the weights make the sum, not the
    fitted part alone, follow the judge. With ``check``, the check is on
    those files' games (new to the fit in use, too), not on a fifth of all."""
    rows, values, current, games = [], [], [], []
    for board, me, value, game, to_check in (
        (*row, to_check)
        for to_check, group in enumerate((files, check or []))
        for row in judged(group, rule)
    ):
        f = features(board, me)
        if f is None:
            continue
        if codes is not None:
            f = np.concatenate([f, code_counts(board, me)])
        rows.append(f)
        values.append(value)
        current.append(int(K.evaluate(board, me)))
        games.append((to_check, game))  # (each group numbers its games from 0)
    if not rows:
        sys.exit("no quiet position with a value to fit")
    x, y, now = np.array(rows), np.array(values, dtype=np.float64), np.array(current)
    base = len(NAMES)
    hand = now - x[:, :base] @ installed(rule)  # the hand-set part of each evaluation
    table = code_table(rule)
    if codes is not None and table is not None:
        # A table fitted again replaces the one in use (without --codes, that
        # one stays in the engine, so it stays in the part not fitted).
        hand = hand - x[:, base:] @ table.ravel()
    order = np.arange(len(y))
    if check:
        checked = np.array([to_check for to_check, _ in games], dtype=bool)
        train, test = np.flatnonzero(~checked), np.flatnonzero(checked)
    else:
        train, test = split_games(games)

    # Every cell has four levels and one class on each side: a weight added to
    # every level of a block and taken from its classes changes nothing. The
    # dead level of every block and the other side's empty class are held at
    # 0, so the weights are determined (and stay small enough to round).
    free = np.ones(x.shape[1], dtype=bool)
    for block, (_, side) in enumerate(BLOCKS):
        free[NLEVELS * block + DEAD] = False
        if side == 1:
            free[4 * NLEVELS + NCLASSES * block + C_NONE] = False
        free[PAIRS_AT + PAIRS * block] = False  # (two dead directions)
    if not pairs:
        free[PAIRS_AT:base] = False
    # With ``codes``, a weight for every set of four levels of each block on
    # top (the capacity Rapfi's classical table has: a value per code), held
    # near 0 by a ridge of its own: a rare set keeps what its levels say.
    ridge = np.full(x.shape[1], RIDGE)
    ridge[base:] = code_ridge

    solved: dict[int, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]] = {}

    def solve(rows_: npt.NDArray[np.int64], k: float = 1.0) -> npt.NDArray[np.float64]:
        # Linear in the target: the part for the judge's values (scaled by
        # k) and the part for the hand-set evaluation, each solved once.
        if id(rows_) not in solved:
            a = x[rows_][:, free]
            both = np.linalg.solve(
                a.T @ a + np.diag(ridge[free]), a.T @ np.stack([y[rows_], -hand[rows_]], axis=1)
            )
            parts = np.zeros((2, x.shape[1]))
            parts[:, free] = both.T
            solved[id(rows_)] = (parts[0], parts[1])
        of_y, of_hand = solved[id(rows_)]
        return k * of_y + of_hand

    # A deeper judge's values spread wider than a shallower one's, and so do
    # the evaluations fitted to them: the search's margins (reverse futility,
    # futility, aspiration) are set in the units of the evaluation in use.
    # With ``spread``, the judge's values are first scaled so that the
    # fitted evaluation spreads as the one in use does (its standard
    # deviation over these positions): what changes is the shape, not the size.
    k = 1.0
    if spread:
        lo, hi = 0.05, 4.0
        for _ in range(40):
            k = (lo + hi) / 2
            if np.std(hand + x @ solve(order, k)) > np.std(now):
                hi = k
            else:
                lo = k
        print(f"the judge's values scaled by {k:.3f} (the spread of the evaluation in use:"
              f" {np.std(now):.0f}; unscaled, the fit's: {np.std(hand + x @ solve(order)):.0f})")

    from_train = solve(train, k)
    held_out = hand[test] + x[test] @ from_train
    print(f"{len(y):,} quiet positions (fitted on {len(train):,}, checked on {len(test):,})")
    print(
        "correlation with the judge's values on "
        + ("the games checked:" if check else "the held-out fifth of the games:")
    )
    print(f"  the evaluation as it stands          {np.corrcoef(now[test], y[test])[0, 1]:.3f}")
    print(f"  its hand-set part alone              {np.corrcoef(hand[test], y[test])[0, 1]:.3f}")
    print(f"  the hand-set part and the new fit    {np.corrcoef(held_out, y[test])[0, 1]:.3f}")
    rounded = hand[test] + x[test] @ _rounded(from_train, base, rule, codes is not None)
    print(f"  the same, its weights rounded        {np.corrcoef(rounded, y[test])[0, 1]:.3f}")
    # The weights printed are fitted on every position, the held-out fifth
    # too: a check of them on that fifth would be no check.
    print("the weights fitted on every position (for the engine):")
    final = _rounded(solve(order, k), base, rule, codes is not None)
    print_weights([int(v) for v in final[:base]])
    if codes is not None:
        np.save(codes, final[base:].reshape(4, -1).astype(np.int32))
        print(f"the weights of the sets of levels ({(final[base:] != 0).sum():,} not 0) in {codes}")


def _rounded(
    weights: npt.NDArray[np.float64], base: int, rule: str, codes: bool
) -> npt.NDArray[np.float64]:
    """The weights in whole numbers, as the engine keeps them. With a weight
    per set of levels, the engine adds up a cell's weights (levels, class,
    pair and set) into one number per set (``patterns.fitted``), so each
    set's weight takes up what rounding the others lost: every cell then
    counts its exact sum rounded once, not four roundings added."""
    out = np.rint(weights)
    if not codes:
        return out
    sets, n = level_sets()
    first = np.unique(sets, return_index=True)[1]  # a code of each set
    levels = code_levels()[:, first]
    classes = combinations()[0]
    pairs = code_pairs()[first]

    def folded(w: npt.NDArray[np.float64], block: int, kind: int) -> npt.NDArray[np.float64]:
        level = w[NLEVELS * block : NLEVELS * (block + 1)][levels].sum(axis=0)
        klass = w[4 * NLEVELS + NCLASSES * block :][classes[kind, first]]
        pair = w[PAIRS_AT + PAIRS * block :][pairs]
        return level + klass + pair

    for block, (colour, _) in enumerate(BLOCKS):
        kind = kinds(rule)[colour]
        at = base + n * block
        exact = folded(weights, block, kind) + weights[at : at + n]
        out[at : at + n] = np.rint(exact) - folded(out, block, kind)
    return out


def fit_threats(files: list[Path], rule: str = "freestyle") -> None:
    """Fit the threat table (``patterns.THREATS``): per colour of the side to
    move and threat mask (``kernel.threat_mask``), what Rapfi's values leave
    once the engine's evaluation as it stands (without a threat table) is
    counted, on every position the search evaluates (no five to make or
    stop, no open four of the mover's to make), decided ones (a proved
    result, a value past +-2,500) left out. Ridge regression on one-hot
    masks: a mask seen in few positions keeps a value near 0."""
    keys, values, current, games = [], [], [], []
    for board, me, value, game in judged(files, rule):
        games.append(game)
        mask = int(K.threat_mask(board.ncls, me))
        keys.append(me * NTHREATS + mask)  # (the mover's colour: black moves first)
        values.append(value)
        # The evaluation without the table in use, so that a fit made again
        # replaces that table rather than adding to it.
        in_use = int(board.ev[me, 0, K.PACKED_THREATS + mask]) if K.THREAT_EVAL else 0
        current.append(int(K.evaluate(board, me)) - in_use)
    if not keys:
        sys.exit("no position with a value to fit")
    k, y, now = np.array(keys), np.array(values, dtype=np.float64), np.array(current)
    order = np.arange(len(y))
    train, test = split_games(games)

    def solve(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        # One-hot rows: the ridge solution is each mask's summed residual
        # over its count plus the ridge.
        residual = np.bincount(k[rows], weights=y[rows] - now[rows], minlength=2 * NTHREATS)
        count = np.bincount(k[rows], minlength=2 * NTHREATS)
        return residual / (count + THREAT_RIDGE)

    table = solve(train)
    print(f"{len(y):,} positions (fitted on {len(train):,}, checked on {len(test):,})")
    print("correlation with the judge's values on the held-out fifth of the games:")
    print(f"  the evaluation as it stands      {np.corrcoef(now[test], y[test])[0, 1]:.3f}")
    with_table = now[test] + np.rint(table[k[test]])
    print(f"  with the threat table            {np.corrcoef(with_table, y[test])[0, 1]:.3f}")
    err = np.sqrt(np.mean((now[test] - y[test]) ** 2))
    err_table = np.sqrt(np.mean((with_table - y[test]) ** 2))
    print(f"  root mean square error           {err:.0f} -> {err_table:.0f}")
    table = np.rint(solve(order)).astype(int)
    count = np.bincount(k, minlength=2 * NTHREATS)
    print("the table fitted on every position, masks seen at least 20 times (for the engine):")
    for colour in range(2):
        entries = {
            mask: int(table[colour * NTHREATS + mask])
            for mask in range(NTHREATS)
            if count[colour * NTHREATS + mask] >= 20 and table[colour * NTHREATS + mask] != 0
        }
        print(f"  {('black', 'white')[colour]}: {entries}")


#: Ridge of the threat table's fit, in positions: a mask's value is its
#: positions' summed residual over their count plus this.
THREAT_RIDGE = 20.0


def best_cells(board: Board, me: int) -> npt.NDArray[np.float64]:
    """The hand-set values of ``me``'s :data:`NTOPS` best empty cells near
    the stones, best first (0 for cells there are not): what
    ``patterns.TOPS`` weighs."""
    best = np.sort(board.val[me, near_empty(board)])[::-1][:NTOPS].astype(np.float64)
    return np.concatenate([best, np.zeros(NTOPS - len(best))])


def fit_tops(files: list[Path], rule: str = "freestyle") -> None:
    """Fit the weights of the side to move's best cells (``patterns.TOPS``),
    per its colour, to what the judge's values leave once the evaluation as
    it stands (without such weights) is counted, on every position the
    search evaluates, decided ones left out (as :func:`fit_threats`)."""
    xs, values, current, colours, games = [], [], [], [], []
    bare = None  # the rule set's table with its best cells' weights switched off
    for board, me, value, game in judged(files, rule):
        games.append(game)
        if bare is None:
            bare = board.ev.copy()
            bare[:, 1, K.PACKED_TOPS] = 0
        xs.append(np.append(best_cells(board, me), 1.0))
        values.append(value)
        current.append(int(K.evaluate(board._replace(ev=bare), me)))
        colours.append(me)
    if not xs:
        sys.exit("no position with a value to fit")
    x, y = np.array(xs), np.array(values, dtype=np.float64)
    now, colour = np.array(current, dtype=np.float64), np.array(colours)
    order = np.arange(len(y))
    train, test = split_games(games)

    def solve(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        weights = np.zeros((2, NTOPS + 1))
        for c in range(2):
            r = rows[colour[rows] == c]
            a = x[r]
            ridge = TOP_RIDGE * np.eye(NTOPS + 1)
            weights[c] = np.linalg.solve(a.T @ a + ridge, a.T @ (y - now)[r])
        return weights

    weights = solve(train)
    with_tops = now[test] + np.einsum("ij,ij->i", x[test], weights[colour[test]])
    print(f"{len(y):,} positions (fitted on {len(train):,}, checked on {len(test):,})")
    print("correlation with the judge's values on the held-out fifth of the games:")
    print(f"  the evaluation as it stands      {np.corrcoef(now[test], y[test])[0, 1]:.3f}")
    print(f"  with the best cells' weights     {np.corrcoef(with_tops, y[test])[0, 1]:.3f}")
    err = np.sqrt(np.mean((now[test] - y[test]) ** 2))
    err_tops = np.sqrt(np.mean((with_tops - y[test]) ** 2))
    print(f"  root mean square error           {err:.0f} -> {err_tops:.0f}")
    final = solve(order)
    print("the weights fitted on every position (for the engine; per colour, the best")
    print(f"cell's first, in 1/{TOP_UNIT}ths, then the constant):")
    for c in range(2):
        units = [int(v) for v in np.rint(final[c, :NTOPS] * TOP_UNIT)]
        units.append(int(np.rint(final[c, NTOPS])))
        print(f"  {('black', 'white')[c]}: {tuple(units)}")


#: Ridge of the best cells' fit (their values are in the hundreds, so it
#: holds back little but the constant's drift).
TOP_RIDGE = 1.0

#: Self-play: nodes a move drawn between these shares of ``--nodes`` (so
#: that the two sides differ and no two games of one opening repeat).
SELFPLAY_SPREAD = (0.5, 1.5)
#: Plies of each game whose positions the outcome fit leaves out (the book's).
TEXEL_SKIP = 6


def selfplay(games: int, nodes: int, seed: int, out: Path, rule: str = "freestyle") -> None:
    """Play ``games`` games of the engine against itself from the balanced
    openings of ``gomoku_sprt.py``'s book (a random one each time), each move
    searched with a random share of ``nodes``, and write each game's moves
    and result (1: black won, 0: white, 0.5: a draw), one JSON line a game:
    the outcomes :func:`texel` fits the evaluation to."""
    from gomoku_sprt import DATA, load_openings

    rules = api.resolve(GAMES[rule], "")[0]
    engine = GomokuEngine(rules, threads=1)
    engine.warm_up()
    book = load_openings(DATA / f"gomoku_openings_{rule}.txt", SIZE)
    rng = random.Random(seed)
    start = time.monotonic()
    with out.open("a") as f:
        for game in range(games):
            moves = list(rng.choice(book))
            position = position_of(rules, moves)
            while not rules.is_terminal(position):
                budget = int(nodes * rng.uniform(*SELFPLAY_SPREAD))
                move = engine.solve_nodes(position, budget).move
                assert move is not None
                moves.append(move)
                position = rules.play(position, move)
            winner = rules.winner(position)
            result = 0.5 if winner is None else 1.0 if winner == rules.players[0] else 0.0
            f.write(json.dumps({"moves": moves, "result": result}) + "\n")
            f.flush()
            print(
                f"game {game + 1}: {len(moves)} stones, {result}, {time.monotonic() - start:.0f} s",
                flush=True,
            )


def texel(files: list[Path], rule: str = "freestyle") -> None:
    """Fit the evaluation's fitted weights to the outcomes of games (the way
    chess engines tune theirs, after Texel): the chance that the side to move
    wins a quiet position is taken as a logistic function of its evaluation,
    the hand-set part kept as it is, the fitted weights moved from where they
    stand to maximise the likelihood of the results (with a pull towards
    where they stood). Checked on a held-out fifth of the games: the log-loss
    of the results under the weights in use and under the new ones."""
    from scipy.optimize import minimize

    rules = api.resolve(GAMES[rule], "")[0]
    rows, results, current, games = [], [], [], []
    for file in files:
        for number, (moves, result) in _games(file):
            position = rules.initial()
            for ply, cell in enumerate(moves):
                if ply >= TEXEL_SKIP and not rules.is_terminal(position):
                    me = ply % 2
                    board = board_of(rules, position.cells)
                    f = features(board, me)
                    if f is not None:
                        rows.append(f)
                        results.append(result if me == 0 else 1 - result)
                        current.append(int(K.evaluate(board, me)))
                        games.append((str(file), number))
                position = rules.play(position, cell)
    if not rows:
        sys.exit("no quiet position in these games")
    x, y, now = np.array(rows), np.array(results), np.array(current, dtype=np.float64)
    w0 = installed(rule)
    hand = now - x @ w0
    train, test = split_games(games)

    def loss(v: npt.NDArray[np.float64], y_: npt.NDArray[np.float64], scale: float) -> float:
        p = 1 / (1 + np.exp(-np.clip(v / scale, -30, 30)))
        p = np.clip(p, 1e-9, 1 - 1e-9)
        return float(-np.mean(y_ * np.log(p) + (1 - y_) * np.log(1 - p)))

    # The scale that turns the evaluation as it stands into chances.
    scales = np.geomspace(20, 5000, 60)
    scale = float(min(scales, key=lambda k: loss(now[train], y[train], k)))
    free = np.ones(len(NAMES), dtype=bool)
    for block, (_, side) in enumerate(BLOCKS):
        free[NLEVELS * block + DEAD] = False
        if side == 1:
            free[4 * NLEVELS + NCLASSES * block + C_NONE] = False
        free[PAIRS_AT + PAIRS * block] = False
    if FITS[rule].pair is None:
        free[PAIRS_AT:] = False
    pull = 1e-6

    def objective(d: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
        w = w0.copy()
        w[free] += d
        v = hand[train] + x[train] @ w
        p = 1 / (1 + np.exp(-np.clip(v / scale, -30, 30)))
        value = loss(v, y[train], scale) + pull * float(d @ d)
        grad = (x[train][:, free].T @ (p - y[train])) / (scale * len(train)) + 2 * pull * d
        return value, grad

    found = minimize(objective, np.zeros(free.sum()), jac=True, method="L-BFGS-B")
    w = w0.copy()
    w[free] += found.x
    w = np.rint(w)
    print(
        f"{len(y):,} quiet positions of {len(set(games)):,} openings' games (fitted on"
        f" {len(train):,}, checked on {len(test):,}); the scale of chances: {scale:.0f}"
    )
    print("log-loss of the results on the held-out games:")
    print(f"  the weights in use       {loss(now[test], y[test], scale):.4f}")
    print(f"  the weights fitted       {loss(hand[test] + x[test] @ w, y[test], scale):.4f}")
    print(f"  no evaluation (chance)   {loss(np.zeros(len(test)), y[test], scale):.4f}")
    print_weights([int(v) for v in w])


def _games(file: Path) -> list[tuple[int, tuple[list[int], float]]]:
    """Each game's moves and result for black (1 a win, 0.5 a draw), from
    :func:`selfplay`'s JSON lines or from ``gomoku_sprt.py --save``'s file
    (a line ``# opening N, test black, test points 1.0, five``, then the
    moves), with a number that two games share when they are one pair (so
    that a held-out game's twin, often the same game, is held out too)."""
    from gomoku_refs import from_notation

    lines = file.read_text().splitlines()
    if not lines or not lines[0].startswith("#"):
        games = [(r["moves"], float(r["result"])) for r in map(json.loads, lines) if r]
        return list(enumerate(games))
    found = []
    for head, moves in zip(lines[::2], lines[1::2], strict=True):
        words = [w.strip() for w in head.lstrip("# ").split(",")]
        points = float(words[2].split()[-1])
        black = points if words[1] == "test black" else 1 - points
        opening = int(words[0].split()[-1])
        found.append((opening, ([from_notation(m, SIZE) for m in moves.split()], black)))
    return found


def print_weights(w: list[int]) -> None:
    """``w`` (laid out as :data:`NAMES`) in ``patterns.Fit``'s form."""
    for name, weight in zip(NAMES, w, strict=True):
        print(f"  {name:24s} {weight:6d}")
    at = 4 * NLEVELS
    level, klass, pair = {}, {}, {}
    for b, cs in enumerate(BLOCKS):
        level[cs] = tuple(w[NLEVELS * b : NLEVELS * (b + 1)])
        klass[cs] = tuple(w[at + NCLASSES * b : at + NCLASSES * (b + 1)])
        pair[cs] = tuple(w[PAIRS_AT + PAIRS * b : PAIRS_AT + PAIRS * (b + 1)])
    print("as patterns.Fit (per colour, black first; the side to move first):")
    for name, of in (("level", level), ("class", klass), ("pair", pair)):
        print(f"  {name}: (({of[0, 0]}, {of[0, 1]}), ({of[1, 0]}, {of[1, 1]}))")
    print(f"  tempo: ({w[TEMPO_AT]}, {w[TEMPO_AT + 1]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play and judge positions")
    c.add_argument("--games", type=int, default=500)
    c.add_argument("--seed", type=int, default=11)
    c.add_argument("--out", type=Path, required=True, help="JSON lines, appended to")
    c.add_argument("--rapfi", type=Path, default=RAPFI, help=f"(default {RAPFI})")
    c.add_argument("--rule", choices=sorted(GAMES), default="freestyle")
    c.add_argument(
        "--depth", type=int, default=JUDGE_DEPTH, help=f"the judge's plies (default {JUDGE_DEPTH})"
    )
    f = sub.add_parser("fit", help="fit the weights to collected positions")
    f.add_argument("files", type=Path, nargs="+")
    f.add_argument("--rule", choices=sorted(GAMES), default="freestyle")
    f.add_argument(
        "--pairs",
        action="store_true",
        help="also weigh pairs of a cell's two strongest levels (tried; not kept)",
    )
    f.add_argument(
        "--spread",
        action="store_true",
        help="scale the judge's values so the fitted evaluation spreads as the one in use",
    )
    f.add_argument("--codes", type=Path, help="also a weight per set of levels, saved here (.npy)")
    f.add_argument(
        "--check",
        type=Path,
        nargs="+",
        help="check on these files' games (fitted on too, for the weights printed)",
    )
    f.add_argument(
        "--code-ridge",
        type=float,
        default=CODE_RIDGE,
        help=f"the ridge of those weights (default {CODE_RIDGE:g})",
    )
    j = sub.add_parser("judge", help="judge collected positions again at another depth")
    j.add_argument("files", type=Path, nargs="+")
    j.add_argument("--depth", type=int, required=True, help="Rapfi's plies")
    j.add_argument("--out", type=Path, required=True, help="JSON lines, written over")
    j.add_argument("--rapfi", type=Path, default=RAPFI, help=f"(default {RAPFI})")
    j.add_argument("--rule", choices=sorted(GAMES), default="freestyle")
    p = sub.add_parser("selfplay", help="games of the engine against itself, for texel")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--nodes", type=int, default=20_000, help="nodes a move, on the average")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, required=True, help="JSON lines, appended to")
    p.add_argument("--rule", choices=sorted(GAMES), default="freestyle")
    h = sub.add_parser("threats", help="fit the threat table to collected positions")
    h.add_argument("files", type=Path, nargs="+")
    h.add_argument("--rule", choices=sorted(GAMES), default="freestyle")
    b = sub.add_parser("tops", help="fit the weights of the mover's best cells")
    b.add_argument("files", type=Path, nargs="+")
    b.add_argument("--rule", choices=sorted(GAMES), default="freestyle")
    t = sub.add_parser("texel", help="fit the weights to the outcomes of games")
    t.add_argument("files", type=Path, nargs="+")
    t.add_argument("--rule", choices=sorted(GAMES), default="freestyle")
    args = parser.parse_args()
    if args.command == "selfplay":
        selfplay(args.games, args.nodes, args.seed, args.out, args.rule)
        return
    if args.command == "texel":
        texel(args.files, args.rule)
        return
    if args.command == "judge":
        if args.depth < 1:
            parser.error("--depth must be at least 1")
        try:
            judge_again(args.files, args.out, args.rapfi, args.rule, args.depth)
        except OpponentMissing as missing:
            sys.exit(str(missing))
        return
    if args.command == "threats":
        fit_threats(args.files, args.rule)
        return
    if args.command == "tops":
        fit_tops(args.files, args.rule)
        return
    if args.command == "collect":
        try:
            collect(args.games, args.seed, args.out, args.rapfi, args.rule, args.depth)
        except OpponentMissing as missing:
            sys.exit(str(missing))
    else:
        for file in args.files:
            if not file.is_file():
                sys.exit(f"no such file: {file}")
        fit(
            args.files,
            args.rule,
            pairs=args.pairs,
            spread=args.spread,
            codes=args.codes,
            code_ridge=args.code_ridge,
            check=args.check,
        )


if __name__ == "__main__":
    main()
