"""What the game's words cost: api.explain beside the analysis it explains.

For each position, the analysis (``api.analyze`` within the game's budget,
once) and then its explanation (the threats of both sides, what every move
makes and stops, the summary and the lines of equal value), first with every
cache of games/threats.py emptied (a board never seen: what a server's first
request for a position pays) and then again (the median of ``--repeat``: the
same board asked for again). The positions: the issue's Gomoku game before
k12 (198 moves, every one but k12 losing in 2), renju after the same moves
(black's threes checked against the forbidden points), and a crowded 22x22
standard board (the biggest board, the most moves).

Usage: ``python benchmarks/explain.py [--repeat 20]``
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from common import duration, median_time
from unbeatable import api
from unbeatable.api.explanations import explained as explain
from unbeatable.games import get_game, threats

ISSUE = "h8 i9 j8 j9 h9 i8 h7 h6 i10 h10 g8 f7 g9 i6 j6 i7 i5 g6 g11 g10 h11 f11 k7 l8 e9 e8 j11"


def crowded(name: str, stones: int, seed: int = 7) -> Any:
    """A random board of ``stones`` stones within five cells of the centre
    on which nobody has won."""
    game = get_game(name)
    rng = random.Random(seed)
    while True:
        pos = game.initial()
        centre_row, centre_col = divmod(game.size // 2, game.columns)
        for _ in range(stones):
            near = [
                m
                for m in game.moves(pos)
                if abs(m // game.columns - centre_row) <= 5
                and abs(m % game.columns - centre_col) <= 5
            ]
            pos = game.play(pos, rng.choice(near))
            if pos.winner is not None:
                break
        else:
            return pos


def cold() -> None:
    """Empty every cache the facts keep."""
    for cached in (threats._line, threats._reader, threats._near, threats._stopped_at):
        cached.cache_clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="runs of the warm measure")
    args = parser.parse_args(argv)
    cases = []
    for name in ("gomoku", "renju"):
        game = get_game(name)
        pos = game.initial()
        for move in ISSUE.split():
            pos = api.play_move(game, pos, move)
        cases.append((f"{name}, the issue's k12", game, pos))
    big = get_game("gomoku:standard,22")
    cases.append(("gomoku:standard,22, 60 stones", big, crowded("gomoku:standard,22", 60)))
    head = f"{'position':32} {'moves':>5} {'analysis':>10} {'explain cold':>13} {'warm':>10}"
    print(f"{head} {'share':>6}")
    for label, game, pos in cases:
        analysis = api.analyze(game, pos, time_limit=api.default_time_limit(game))
        seconds = analysis.time_ms / 1000
        cold()

        def words(game: Any = game, pos: Any = pos, analysis: Any = analysis) -> Any:
            return explain(game, pos, analysis)

        first, told = median_time(words, 1)
        warm, _ = median_time(words, args.repeat)
        share = f"{first / seconds:.1%}" if seconds else "-"
        print(
            f"{label:32} {len(analysis.moves):>5} {duration(seconds):>10} "
            f"{duration(first):>13} {duration(warm):>10} {share:>6}"
        )
        print(f"  {told.summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
