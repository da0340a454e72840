"""Connect Four on every board, checked against Pascal Pons' solver compiled
for each board (and the generic negamax past Pons' 9 columns): results,
distances and every move's value.

Pons' solver (github.com/PascalPons/connect4) fixes its board at compile time
(``WIDTH`` and ``HEIGHT`` in ``Position.hpp``) and reads columns written as
digits, so it serves every board of the family up to 9 columns. This script
builds it once per board, outside the repository (``--builds``, default
``/work/refs/pons-boards/``), from a checkout of its sources (``--pons-src``),
then, on each board, solves random positions (legal, not over, stone counts
from ``--from`` of the board on) with both solvers and compares:

* the score (Pons' convention, which our API also prints);
* the distance: our plies against the plies that Pons' score means, worked out
  here by counting, from Pons' own definition (a win scores one plus the
  stones its winner would still have to play on a full board), not with the
  project's conversion;
* every move's score (Pons' ``-a`` analysis) against ours (``api.analyze``).

Boards of 10 to 12 columns are past Pons' solver (one digit a column): there
the same comparisons are made against the project's generic negamax, which
shares nothing with the specialised solver but the rules, on positions of at
most ``--empties`` empty cells.

It prints one line a board and the totals, and exits 1 on any disagreement.

    python benchmarks/connect4_boards.py --positions 25
    python benchmarks/connect4_boards.py --boards 5x5,7x5,9x5 --positions 100
"""

from __future__ import annotations

import argparse
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

from connect4_refs import PONS_BUILDS, PONS_COLUMNS, PONS_SOURCE, Unavailable, pons_build
from unbeatable import api
from unbeatable.games import get_game
from unbeatable.games.connect4 import MAX_BITS, MIN_SIDE, Connect4Game, Connect4Position

#: Pons' "no move here" in an analysis.
INVALID = -1000


def family() -> list[tuple[int, int]]:
    """Every board of the family (the 64-bit limit: columns x (rows + 1))."""
    return [
        (columns, rows)
        for columns in range(MIN_SIDE, MAX_BITS)
        for rows in range(MIN_SIDE, MAX_BITS)
        if columns * (rows + 1) <= MAX_BITS
    ]


def check_wide_board(
    columns: int, rows: int, positions: int, empties: int, seed: int
) -> tuple[int, int, int, list[str]]:
    """A board too wide for Pons' solver (10 columns and more): the same
    comparisons against the generic negamax, on positions with at most
    ``empties`` empty cells (the generic search's reach)."""
    game = get_game(f"connect4:{columns},{rows}")
    assert isinstance(game, Connect4Game)
    generic = api.engine(game, "negamax")
    cells = game.shape.cells
    rng = random.Random(seed * 1000 + columns * 100 + rows)
    compared = moves = 0
    wrong: list[str] = []
    for _ in range(positions):
        position = random_position(game, rng, cells - empties)
        text = game.format(position)
        truth = generic.solve(position).outcome
        analysis = api.analyze(game, position, time_limit=None)
        if (analysis.result, analysis.plies) != (truth.result, truth.plies):
            wrong.append(
                f"{columns}x{rows} {text!r}: negamax {truth.result} in {truth.plies}, "
                f"ours {analysis.result} in {analysis.plies}"
            )
        for value in analysis.moves:
            child = game.play(position, value.raw)
            if child.winner is not None:
                expected: tuple[str, int | None] = ("win", 1)
            elif game.is_terminal(child):
                expected = ("draw", 1)
            else:
                after = generic.solve(child).outcome
                flipped = {"win": "loss", "loss": "win", "draw": "draw"}[after.result]
                expected = (flipped, None if after.plies is None else after.plies + 1)
            if (value.result, value.plies) != expected:
                wrong.append(f"{columns}x{rows} {text!r} {value.move}: negamax {expected}")
            moves += 1
        compared += 1
    return compared, moves, 0, wrong


def build(source: Path, builds: Path, columns: int, rows: int) -> Path:
    """Pons' solver compiled for a ``columns`` x ``rows`` board (built once,
    by ``connect4_refs.py``, which the other benchmarks share)."""
    try:
        where = pons_build(columns, rows, source=source, builds=builds, program=False)
    except Unavailable as error:
        raise SystemExit(str(error)) from None
    return where / "c4solver"


class Pons:
    """One solver process, asked one line at a time with a time limit."""

    def __init__(self, binary: Path) -> None:
        self.process = subprocess.Popen(
            [str(binary), "-a"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=binary.parent,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def analyse(self, moves: str, timeout: float) -> list[int] | None:
        """Each column's score (INVALID where full), or None past ``timeout``."""
        assert self.process.stdin is not None
        self.process.stdin.write(moves + "\n")
        self.process.stdin.flush()
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        fields = line.split()
        if moves:  # the line starts with the position asked (the empty one prints nothing)
            if not fields or fields[0] != moves:
                raise SystemExit(f"Pons answered {line.strip()!r} to {moves!r}")
            fields = fields[1:]
        return [int(x) for x in fields]

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def plies_of(cells: int, stones: int, score: int) -> tuple[str, int]:
    """The result and length Pons' score means, by counting: the game ends on
    the first ply (odd for the side to move's win, even for its loss) whose
    winner, with the stones before it on the board, scores ``|score|``:
    ``(cells + 1 - stones_before) // 2`` (Pons' score of a win with the next
    stone)."""
    if score == 0:
        return "draw", cells - stones
    wanted = abs(score)
    for plies in range(1 if score > 0 else 2, cells - stones + 1, 2):
        if (cells + 1 - (stones + plies - 1)) // 2 == wanted:
            return ("win" if score > 0 else "loss"), plies
    raise SystemExit(f"Pons' score {score} fits no game with {stones} stones of {cells}")


def random_position(game: Connect4Game, rng: random.Random, least: int) -> Connect4Position:
    """A random game cut at a stone count from ``least`` on: not over, no win
    on the board (Pons' solver refuses a move after a four)."""
    while True:
        position = game.initial()
        stop = rng.randrange(least, game.shape.cells)
        while position.stones < stop and not game.is_terminal(position):
            position = game.play(position, rng.choice(game.moves(position)))
        if not game.is_terminal(position):
            return position


def check_board(
    columns: int, rows: int, binary: Path, positions: int, start: float, timeout: float, seed: int
) -> tuple[int, int, int, list[str]]:
    """(positions compared, moves compared, skipped, disagreements) on one board."""
    game = get_game(f"connect4:{columns},{rows}")
    assert isinstance(game, Connect4Game)
    cells = game.shape.cells
    rng = random.Random(seed * 1000 + columns * 100 + rows)
    least = int(start * cells)
    pons = Pons(binary)
    compared = moves = skipped = 0
    wrong: list[str] = []
    try:
        for _ in range(positions):
            position = random_position(game, rng, least)
            text = game.format(position)
            theirs = pons.analyse(text, timeout)
            if theirs is None:
                skipped += 1
                pons.close()
                pons = Pons(binary)
                continue
            analysis = api.analyze(game, position, time_limit=None)
            best = max(s for s in theirs if s != INVALID)
            expected = plies_of(cells, position.stones, best)
            solution = api.solve(game, position, time_limit=None)
            if solution.score != best or (analysis.result, analysis.plies) != expected:
                wrong.append(
                    f"{columns}x{rows} {text!r}: Pons {best} ({expected[0]} in {expected[1]}), "
                    f"ours {solution.score} ({analysis.result} in {analysis.plies})"
                )
            ours = {value.raw: value for value in analysis.moves}
            for column, score in enumerate(theirs):
                if score == INVALID:
                    if column in ours:
                        wrong.append(f"{columns}x{rows} {text!r}: column {column + 1} full?")
                    continue
                value = ours.get(column)
                if value is None or value.score != score:
                    wrong.append(
                        f"{columns}x{rows} {text!r} column {column + 1}: Pons {score}, "
                        f"ours {None if value is None else value.score}"
                    )
                moves += 1
            compared += 1
    finally:
        pons.close()
    return compared, moves, skipped, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", help="e.g. 5x5,7x5 (default: every board of the family)")
    parser.add_argument("--positions", type=int, default=25, help="positions a board")
    parser.add_argument(
        "--from",
        dest="start",
        type=float,
        default=None,
        help="stone counts from this share of the board (default: 0 up to 30 cells, "
        "0.3 up to 42, 0.5 beyond)",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds Pons may take")
    parser.add_argument(
        "--empties", type=int, default=12, help="empty cells at most on boards past 9 columns"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pons-src", type=Path, default=PONS_SOURCE)
    parser.add_argument("--builds", type=Path, default=PONS_BUILDS)
    args = parser.parse_args(argv)
    boards = family()
    if args.boards:
        wanted = [tuple(int(x) for x in b.lower().split("x")) for b in args.boards.split(",")]
        unknown = [b for b in wanted if b not in boards]
        if unknown:
            raise SystemExit(f"not a board of the family: {unknown}")
        boards = [b for b in boards if b in wanted]
    totals = [0, 0, 0]
    wrong: list[str] = []
    print(f"{'board':>6} {'positions':>9} {'moves':>6} {'skipped':>7} {'wrong':>5} {'time':>8}")
    for columns, rows in boards:
        cells = columns * rows
        start = args.start
        if start is None:
            start = 0.0 if cells <= 30 else 0.3 if cells <= 42 else 0.5
        began = time.perf_counter()
        if columns > PONS_COLUMNS:
            found = check_wide_board(columns, rows, args.positions, args.empties, args.seed)
        else:
            binary = build(args.pons_src, args.builds, columns, rows)
            found = check_board(
                columns, rows, binary, args.positions, start, args.timeout, args.seed
            )
        compared, moves, skipped, board_wrong = found
        print(
            f"{columns}x{rows:<4} {compared:>9} {moves:>6} {skipped:>7} {len(board_wrong):>5} "
            f"{time.perf_counter() - began:>7.1f}s",
            flush=True,
        )
        for line in board_wrong[:5]:
            print("   ", line)
        totals[0] += compared
        totals[1] += moves
        totals[2] += skipped
        wrong += board_wrong
    print(
        f"total: {len(boards)} boards, {totals[0]} positions and {totals[1]} moves compared, "
        f"{totals[2]} skipped (Pons past --timeout), {len(wrong)} disagreements"
    )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
