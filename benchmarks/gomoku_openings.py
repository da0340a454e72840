"""Make a book of balanced Gomoku openings for the engine's tests
(``gomoku_sprt.py``), judged by a tournament engine.

A test between two versions of an engine tells them apart only if the games
can go either way: from the empty board freestyle is a win for black, and a
strong engine as black wins whatever the other plays. So every game starts
from an opening that a strong judge (Rapfi, classical weights, held to
``--depth`` plies) values within ``--bound`` of even for the side to move:
random stones near the centre (``--stones``, black first, in a square of
``--box`` cells around it), no threat of a four on the board, one opening per
class of the board's eight symmetries. The book lists them one a line in the
project's notation, with Rapfi's value as a comment; each is played twice by
the test, once with either version as black.

    python benchmarks/gomoku_openings.py --rule freestyle --count 300
    python benchmarks/gomoku_openings.py --rule renju --count 300

Rapfi is built outside the repository (``benchmarks/README.md``, "Building
the opponents"); the book it made is committed, so the tests need no Rapfi.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from gomoku_refs import GAMES, RAPFI, RAPFI_RULES, EngineError, OpponentMissing, notation, rapfi

DATA = Path(__file__).resolve().parent / "data"


def canonical(cells: list[int], size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The smallest image of an opening's black and white stones under the
    board's symmetries: two openings that are one turned or mirrored share it."""

    def images(cell: int) -> list[int]:
        r, c = divmod(cell, size)
        n = size - 1
        points = [(r, c), (c, n - r), (n - r, n - c), (n - c, r)]
        points += [(r, n - c) for r, c in points]
        return [r * size + c for r, c in points]

    per_cell = [images(cell) for cell in cells]
    keys = []
    for k in range(8):
        black = tuple(sorted(per_cell[i][k] for i in range(0, len(cells), 2)))
        white = tuple(sorted(per_cell[i][k] for i in range(1, len(cells), 2)))
        keys.append((black, white))
    return min(keys)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule", choices=sorted(RAPFI_RULES), default="freestyle")
    parser.add_argument("--count", type=int, default=300, help="openings to find")
    parser.add_argument("--stones", default="3,4,5", help="stone counts to draw from")
    parser.add_argument("--box", type=int, default=7, help="side of the centre square")
    parser.add_argument("--depth", type=int, default=12, help="Rapfi's depth")
    parser.add_argument("--bound", type=int, default=60, help="largest |value| kept")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rapfi", type=Path, default=RAPFI)
    parser.add_argument("--out", type=Path, help="default: data/gomoku_openings_RULE.txt")
    args = parser.parse_args(argv)

    from unbeatable.games import get_game

    rules = get_game(GAMES[args.rule])
    size = rules.columns
    counts = [int(n) for n in args.stones.split(",")]
    rng = random.Random(args.seed)
    low = (size - args.box) // 2
    box = [r * size + c for r in range(low, low + args.box) for c in range(low, low + args.box)]
    try:
        judge = rapfi(args.rapfi, [("max_depth", args.depth)])
    except OpponentMissing as exc:
        raise SystemExit(str(exc)) from None
    judge.send(f"INFO rule {RAPFI_RULES[args.rule]}")
    found: list[tuple[list[int], str]] = []
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    tried = 0
    try:
        while len(found) < args.count:
            tried += 1
            stones = rng.choice(counts)
            position, cells = rules.initial(), []
            for _ in range(stones):
                cell = rng.choice([c for c in box if c in rules.moves(position)])
                position = rules.play(position, cell)
                cells.append(cell)
            # No four and no winning move on the board: the game is open.
            if rules.is_terminal(position) or any(
                rules.winning_moves(position, side) for side in rules.players
            ):
                continue
            key = canonical(cells, size)
            if key in seen:
                continue
            seen.add(key)
            judge.new_game()
            try:
                reply = judge.move(cells, timeout=60)
            except EngineError as exc:
                print(f"skipped ({exc})", file=sys.stderr)
                continue
            value = reply.eval
            if value is None or value.mate is not None:
                continue
            try:
                score = int(value.text)
            except ValueError:
                continue
            if abs(score) <= args.bound:
                found.append((cells, value.text))
                if sys.stderr.isatty():
                    print(f"{len(found)}/{args.count} ({tried} tried)", end="\r", file=sys.stderr)
    finally:
        judge.close()
    out = args.out or DATA / f"gomoku_openings_{args.rule}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        f"# Balanced {args.rule} openings for benchmarks/gomoku_sprt.py, made by",
        f"# python benchmarks/gomoku_openings.py --rule {args.rule} --count {args.count} "
        f"--stones {args.stones} --box {args.box} --depth {args.depth} --bound {args.bound} "
        f"--seed {args.seed}",
        f"# Rapfi (classical, {args.depth} plies) values each within {args.bound} of even for "
        f"the side to move ({len(found)} of {tried} random openings).",
    ]
    lines += [f"{' '.join(notation(c, size) for c in cells)}  # {value}" for cells, value in found]
    out.write_text("\n".join(lines) + "\n")
    print(f"\n{len(found)} openings written to {out} ({tried} tried)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
