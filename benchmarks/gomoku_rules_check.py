"""Cross-check Gomoku's rule sets against a tournament engine (Rapfi).

Three checks, each on random crowded positions, each printing how many
positions agree and every position that does not (in the project's
notation, with both answers):

* ``forbidden``: black's forbidden points in renju. Rapfi, told ``INFO rule
  4``, is given the board with ``YXBOARD`` ... ``DONE`` and lists black's
  forbidden points with ``YXSHOWFORBID`` (``FORBID xxyy...``, two digits a
  coordinate); ours are ``GomokuGame.forbidden``.
* ``standard``: the winning moves under exactly five (``INFO rule 1``),
  for both sides, on boards where the side to move can make five, six or
  seven in a row: ours are ``winning_moves`` for the side to move. Rapfi
  is asked for a move (``BOARD``, two plies deep); it plays a five at once,
  without searching, when it has one. The two agree when Rapfi answers at
  once with one of our winning moves, or we have none and Rapfi searches.
  The opponent never has a winning move, so no forced block looks the same.
* ``renju-wins``: the same under renju (``INFO rule 4``): black's exactly
  five (its overline is forbidden), white's five or more.

Rapfi is optional and outside the repository (``benchmarks/README.md``,
"Gomoku: strength", says how to build it); without it the script says so in
one line and exits.

    python benchmarks/gomoku_rules_check.py [--positions 3000] [--wins 1500] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

from gomoku_refs import (
    RAPFI,
    RAPFI_RULES,
    EngineError,
    GomocupEngine,
    OpponentMissing,
    gomocup,
    rapfi,
)
from unbeatable.games import get_game
from unbeatable.games.gomoku import GomokuGame
from unbeatable.games.mnk import EMPTY, MNKPosition, O, X
from unbeatable.games.renju import Forbidden

#: Rows of stones planted for the side to move in the wins checks: a gap
#: that makes five, six or seven in a row (``.`` is the gap, ``-`` stays
#: empty).
_ROWS = ("xxxx.", "xx.xx", "xxxx.x", "xx.xxx", "xxx.xxx", "x.xxxx", "xxxxx.x", "-xxxx.-")


class EveryThree(Forbidden):
    """The detector without RIF's false threes: every row shaped like a three
    counts. Where it differs from the real one, a false three decided."""

    def _real_three(self, board: list[int], points: list[int]) -> bool:
        return True


def member(name: str) -> GomokuGame:
    game = get_game(name)
    assert isinstance(game, GomokuGame)
    return game


def crowded(rng: random.Random, game: GomokuGame, stones: int) -> list[int]:
    """``stones`` random cells (black's and white's in turn, black first) in a
    random square of 5 to 11 a side: crowded enough for rows and shapes."""
    size = game.rows
    side = rng.randint(5, min(11, size))
    top, left = rng.randint(0, size - side), rng.randint(0, size - side)
    square = [(top + r) * size + left + c for r in range(side) for c in range(side)]
    return rng.sample(square, min(stones, len(square) * 4 // 5))


def position_of(game: GomokuGame, order: list[int]) -> MNKPosition | None:
    """The board of ``order`` (black first, alternately), or None if it is no
    position to ask about (someone won, or renju's black has an overline)."""
    cells = [EMPTY] * game.size
    for i, cell in enumerate(order):
        cells[cell] = X if i % 2 == 0 else O
    try:
        pos = game.from_cells("".join(cells))
    except ValueError:
        return None
    return None if pos.winner is not None else pos


def name(game: GomokuGame, cells: set[int] | list[int]) -> str:
    return " ".join(game.format_move(c) for c in sorted(cells)) or "none"


# -- forbidden points ------------------------------------------------------------------


def rapfi_forbidden(engine: GomocupEngine, order: list[int], size: int) -> set[int]:
    """Rapfi's forbidden points for black (black to move) on the board of ``order``."""
    lines = ["YXBOARD"]
    lines += [f"{gomocup(c, size)},{1 if i % 2 == 0 else 2}" for i, c in enumerate(order)]
    engine.send("\n".join([*lines, "DONE", "YXSHOWFORBID"]))
    deadline = time.monotonic() + 10.0
    while True:
        try:
            line = engine._read(deadline)
        except TimeoutError:
            raise EngineError("Rapfi did not answer YXSHOWFORBID in 10 s") from None
        if line.startswith("FORBID"):
            digits = line.removeprefix("FORBID").strip().rstrip(".")
            points = [digits[i : i + 4] for i in range(0, len(digits), 4)]
            return {int(p[2:]) * size + int(p[:2]) for p in points}


def check_forbidden(path: Path, size: int, count: int, rng: random.Random) -> int:
    game = member(f"gomoku:renju,{size}")
    engine = rapfi(path, [("rule", 4)], size=size)
    agree = false_threes = 0
    shallow = EveryThree(size, size)
    reasons: Counter[str] = Counter()
    theirs_total = 0
    start = time.monotonic()
    ours_seconds = 0.0
    try:
        done = 0
        while done < count:
            order = crowded(rng, game, 2 * rng.randint(6, 32))
            pos = position_of(game, order)
            if pos is None:
                continue
            done += 1
            began = time.perf_counter()
            ours = game.forbidden(pos)
            ours_seconds += time.perf_counter() - began
            theirs = rapfi_forbidden(engine, order, size)
            reasons.update(ours.values())
            false_threes += shallow.points(pos.cells) != ours
            theirs_total += len(theirs)
            if set(ours) == theirs:
                agree += 1
                continue
            print(f"  DISAGREE {game.format(pos)}")
            said = ", ".join(f"{game.format_move(c)} ({why})" for c, why in sorted(ours.items()))
            print(f"    ours:  {said or 'none'}")
            print(f"    Rapfi: {name(game, theirs)}")
    finally:
        engine.close()
    points = ", ".join(f"{n} {why}" for why, n in reasons.most_common())
    print(
        f"renju forbidden points, {size}x{size}: {count} positions (black to move, "
        f"{sum(reasons.values())} forbidden points: {points or 'none'}; Rapfi lists "
        f"{theirs_total}; in {false_threes} a false three decided a point): agree on "
        f"{agree}/{count}, in {time.monotonic() - start:.1f} s "
        f"(ours {1000 * ours_seconds / max(1, count):.2f} ms a board)"
    )
    return count - agree


# -- winning moves --------------------------------------------------------------------------


def planted(rng: random.Random, game: GomokuGame, mover: str) -> list[int] | None:
    """A crowded board with one or two planted rows of ``mover``'s, ``mover``
    to move, as a move order (black first); None if it came out unusable."""
    size = game.rows
    other = O if mover == X else X
    cells = dict.fromkeys(crowded(rng, game, 2 * rng.randint(4, 20)))
    marks = {cell: (X if i % 2 == 0 else O) for i, cell in enumerate(cells)}
    for _ in range(rng.randint(1, 2)):
        row = rng.choice(_ROWS)
        dr, dc = rng.choice(((0, 1), (1, 0), (1, 1), (1, -1)))
        r, c = rng.randrange(size), rng.randrange(size)
        end_r, end_c = r + dr * (len(row) - 1), c + dc * (len(row) - 1)
        if not (0 <= end_r < size and 0 <= end_c < size):
            return None
        for i, ch in enumerate(row):
            cell = (r + dr * i) * size + c + dc * i
            if ch == "x":
                marks[cell] = mover
            else:
                marks.pop(cell, None)
    # Even the counts out for mover to move with far stones of the side short.
    black = [c for c, m in marks.items() if m == X]
    white = [c for c, m in marks.items() if m == O]
    want = len(white) + (mover == O) - len(black)  # black stones to add (or white, if < 0)
    spare = [c for c in range(game.size) if c not in marks]
    rng.shuffle(spare)
    for cell in spare[: abs(want)]:
        (black if want > 0 else white).append(cell)
    rng.shuffle(black)
    rng.shuffle(white)
    if len(black) - len(white) != (mover == O):
        return None
    order = [cell for pair in zip(black[: len(white)], white, strict=True) for cell in pair]
    if mover == O:
        order.append(black[-1])
    pos = position_of(game, order)
    free = member(f"gomoku:freestyle,{size}")
    if pos is None or pos.to_move != mover or free.winning_moves(pos, other):
        return None  # a forced block would look like a win to the check
    if not free.winning_moves(pos, mover):
        return None  # nothing planted survived the noise
    return order


def check_wins(path: Path, rule: str, size: int, count: int, rng: random.Random) -> int:
    game = member(f"gomoku:{rule},{size}")
    engine = rapfi(path, [("rule", RAPFI_RULES[rule]), ("max_depth", 2)], size=size)
    agree = 0
    kinds: Counter[str] = Counter()
    start = time.monotonic()
    try:
        engine.new_game()
        done = 0
        while done < count:
            mover = X if done % 2 == 0 else O
            order = planted(rng, game, mover)
            if order is None:
                continue
            done += 1
            pos = position_of(game, order)
            assert pos is not None
            ours = game.winning_moves(pos, mover)
            kinds[f"{mover} {'can win' if ours else 'has only six or more'}"] += 1
            reply = engine.move(order, timeout=10.0)
            at_once = reply.eval is None and reply.depth is None
            if (ours and at_once and reply.cell in ours) or (not ours and not at_once):
                agree += 1
                continue
            said = "at once" if at_once else f"after searching (eval {reply.eval})"
            print(f"  DISAGREE {game.format(pos)}")
            print(f"    ours:  {mover} wins at {name(game, ours)}")
            print(f"    Rapfi: plays {game.format_move(reply.cell)} {said}")
    finally:
        engine.close()
    print(
        f"{rule} winning moves, {size}x{size}: {count} positions ("
        + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
        + f"): agree on {agree}/{count}, in {time.monotonic() - start:.1f} s"
    )
    return count - agree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=3000, help="boards for forbidden points")
    parser.add_argument("--wins", type=int, default=1500, help="boards for each wins check")
    parser.add_argument("--size", type=int, default=15, help="board side, 15-22 (default 15)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rapfi", type=Path, default=RAPFI, help=f"default: {RAPFI}")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    command = " ".join(["python benchmarks/gomoku_rules_check.py", *sys.argv[1:]])
    print(f"{command}: Rapfi at {args.rapfi}")
    try:
        wrong = check_forbidden(args.rapfi, args.size, args.positions, rng)
        wrong += check_wins(args.rapfi, "standard", args.size, args.wins, rng)
        wrong += check_wins(args.rapfi, "renju", args.size, args.wins, rng)
    except OpponentMissing as missing:
        sys.exit(str(missing))
    print("every answer agrees" if not wrong else f"{wrong} disagreements")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
