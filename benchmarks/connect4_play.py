"""The impossible level at Connect Four, over whole games: how often its move
is proven, how long it takes, and whether it ever gives value away.

The AI (``unbeatable.choose_move`` at the impossible level, the game's default
budget of 2 s a move, as the terminal game and the server use it) plays whole
games as x and as o against two opponents:

* ``random``: a uniformly random legal move;
* ``perfect``: a move of the best value, chosen at random among the best, by
  the project's own exact solver with a table of its own (so it does not warm
  the AI's), from openings of 2-7 stones taken from the public set
  ``Test_L1_R3`` (every opening is a position the AI must play from). Against
  it the game must end at the opening's exact value. The set is the sample
  under ``tests/data/connect4/`` unless ``--data FOLDER`` names another. With ``--reference
  PATH`` the opponent is independent of this project past the opening book:
  every position it values with more stones than the book holds is scored by
  a reference solver's executable (one move sequence per line on standard
  input, ``<moves> <score>`` per line out, as Pascal Pons' ``c4solver``
  prints; build it outside this repository). Inside the book it reads the
  book, which agrees with every public line of at most 8 stones.

Before each game the AI's table and the library's memos are cleared: every
game is played by a server that has just started (the worst case). Per AI
move it records the stones on the board, the time, and whether the move was
proven; it prints the share of proven moves inside the opening book (at most
the book's depth, where the answer is a lookup) and past it, the median and
slowest move times, and for perfect play every game whose result differs from
the opening's exact value.

Usage::

    python benchmarks/connect4_play.py --games 20 --perfect 12
    python benchmarks/connect4_play.py --games 0 --perfect 12 --reference /path/to/c4solver
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import unbeatable
from common import CONNECT4_SETS, data_file, data_option
from unbeatable import api
from unbeatable.games.connect4 import STANDARD, Connect4Position, connect4
from unbeatable.solvers.connect4 import Connect4Engine
from unbeatable.solvers.connect4.book import default_book
from unbeatable.solvers.connect4.table import TranspositionTable

game = connect4()


@dataclass
class Record:
    """AI moves: (stones before the move, seconds, proven)."""

    moves: list[tuple[int, float, bool]] = field(default_factory=list)
    games: int = 0
    lost_value: list[str] = field(default_factory=list)


class Perfect:
    """An exact opponent: a random move among those of the best value."""

    def __init__(self, rng: random.Random) -> None:
        self.engine = Connect4Engine(table=TranspositionTable())
        self.rng = rng

    def score(self, position: Connect4Position) -> int:
        """Exact Pons score for the side to move."""
        known = self.engine.book.get(position) if self.engine.book is not None else None
        return known if known is not None else self.engine.solve_score(position)[0]

    def close(self) -> None:
        pass

    def value_after(self, position: Connect4Position, col: int) -> int:
        child = game.play(position, col)
        if child.winner is not None:
            return STANDARD.pons_score(position.stones, "win", 1)
        if game.is_terminal(child):
            return 0
        return -self.score(child)

    def move(self, position: Connect4Position) -> int:
        values = {col: self.value_after(position, col) for col in game.moves(position)}
        top = max(values.values())
        return self.rng.choice([c for c, v in values.items() if v == top])


class Reference(Perfect):
    """The same choice among the best moves, past the book scored by a
    reference solver's executable kept running (its table stays warm)."""

    def __init__(self, rng: random.Random, executable: Path) -> None:
        super().__init__(rng)
        self.process = subprocess.Popen(
            [str(executable)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            cwd=tempfile.gettempdir(),  # no opening book of its own there
        )
        self.asked = 0

    def score(self, position: Connect4Position) -> int:
        known = self.engine.book.get(position) if self.engine.book is not None else None
        if known is not None:
            return known
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{position.moves}\n")
        self.process.stdin.flush()
        moves, score = self.process.stdout.readline().split()
        if moves != position.moves:
            raise RuntimeError(f"the reference answered {moves!r} for {position.moves!r}")
        self.asked += 1
        return int(score)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


def final_score(start: Connect4Position, end: Connect4Position) -> int:
    """The finished game's Pons score for the side to move at ``start``."""
    if end.winner is None:
        return 0
    result = "win" if end.winner == start.to_move else "loss"
    return STANDARD.pons_score(start.stones, result, end.stones - start.stones)


def play(
    start: Connect4Position,
    ai: str,
    opponent: Perfect | None,
    rng: random.Random,
    record: Record,
) -> Connect4Position:
    """One game from ``start``: the AI plays ``ai``; returns the final position."""
    api.clear_caches()
    position = start
    while not game.is_terminal(position):
        if game.to_move(position) == ai:
            begin = time.perf_counter()
            move = unbeatable.choose_move(game, position, "impossible")
            seconds = time.perf_counter() - begin
            assert move is not None
            record.moves.append((position.stones, seconds, move.result != "unknown"))
            position = game.play(position, move.raw)
        elif opponent is None:
            position = game.play(position, rng.choice(game.moves(position)))
        else:
            position = game.play(position, opponent.move(position))
    record.games += 1
    return position


def openings(count: int, seed: int, data: Path) -> list[tuple[str, int]]:
    rows = [line.split() for line in data_file(data, "Test_L1_R3").read_text().splitlines()]
    short = [(m, int(s)) for m, s in rows if 2 <= len(m) <= 7]
    return random.Random(seed).sample(short, min(count, len(short)))


def report(name: str, record: Record, book_plies: int) -> None:
    inside = [m for m in record.moves if m[0] <= book_plies]
    past = [m for m in record.moves if m[0] > book_plies]
    times = sorted(m[1] for m in record.moves)

    def share(moves: list[tuple[int, float, bool]]) -> str:
        if not moves:
            return "    -"
        return f"{100 * sum(p for _, _, p in moves) / len(moves):5.1f}% of {len(moves)}"

    slowest = max(record.moves, key=lambda m: m[1])
    print(
        f"{name:<8} {record.games:>5} {len(record.moves):>6}  in book {share(inside):>13}"
        f"  past it {share(past):>13}  median {1000 * statistics.median(times):7.1f} ms"
        f"  slowest {slowest[1]:6.2f} s (at {slowest[0]} stones)",
        flush=True,
    )
    for line in record.lost_value:
        print(f"  gave value away: {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games against random play")
    parser.add_argument("--perfect", type=int, default=12, help="openings against perfect play")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reference", type=Path, help="a reference solver as the perfect opponent")
    parser.add_argument(
        "--openings", help="comma-separated openings to play instead of a sample of Test_L1_R3"
    )
    data_option(parser, CONNECT4_SETS, "the public sets")
    args = parser.parse_args(argv)
    book = default_book()
    plies = book.plies if book is not None else -1
    print(f"opening book: {book!r}; budget {api.default_time_limit('connect4')} s a move")
    api.engine("connect4").warm_up()  # type: ignore[attr-defined]
    rng = random.Random(args.seed)
    print(f"{'opponent':<8} {'games':>5} {'moves':>6}")
    against_random = Record()
    for i in range(args.games):
        play(game.initial(), "x" if i % 2 == 0 else "o", None, rng, against_random)
    if against_random.games:
        report("random", against_random, plies)
    against_perfect = Record()
    if args.reference:
        opponent: Perfect = Reference(random.Random(args.seed + 1), args.reference)
        print(f"perfect opponent past the book: {args.reference}")
    else:
        opponent = Perfect(random.Random(args.seed + 1))
    chosen = openings(args.perfect, args.seed, args.data)
    if args.openings:
        lines = data_file(args.data, "Test_L1_R3").read_text().splitlines()
        scores = dict(line.split() for line in lines)
        chosen = [(moves, int(scores[moves])) for moves in args.openings.split(",")]
    for i, (moves, score) in enumerate(chosen):
        start = game.parse(moves)
        # The AI takes the side to move in the opening (so it must keep its value).
        end = play(start, start.to_move, opponent, rng, against_perfect)
        got = final_score(start, end)
        if got != score:
            against_perfect.lost_value.append(f"{moves} (exact {score}): {end.moves} ended {got}")
        print(f"  opening {i + 1}: {moves} exact {score:+d}, finished {got:+d}", flush=True)
    opponent.close()
    if against_perfect.games:
        report("perfect", against_perfect, plies)
    if isinstance(opponent, Reference):
        print(f"  positions scored by the reference: {opponent.asked:,}")
    return 1 if against_perfect.lost_value else 0


if __name__ == "__main__":
    sys.exit(main())
