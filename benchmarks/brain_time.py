"""How much of each turn the Gomocup brain uses: the time kept back for
reading and writing (``brain.MARGIN_SECONDS`` plus ``brain.MARGIN_SHARE`` of
the turn) as it is and as it was, side by side in one run.

Each setting runs ``pbrain-unbeatable`` (the real process, its kernels
warm from numba's cache) under ``INFO timeout_turn`` and one thread, and
sends it the same boards with ``BOARD``: balanced openings of
``data/gomoku_openings_freestyle.txt`` (positions no search proves in a
turn), played on by the engine itself at 20,000 nodes a move for
``--plies`` plies if asked. The clock is the manager's: from the board
written (``BOARD`` ... ``DONE`` at once) to the move read, by
``gomoku_refs.GomocupEngine``, the matches' own client.

Usage: ``python benchmarks/brain_time.py [--turn-ms 1000] [--boards 12]``
"""

from __future__ import annotations

import argparse
import statistics
import sys

from gomoku_refs import GomocupEngine
from gomoku_sprt import DATA, load_openings
from gomoku_strength import position_of
from unbeatable import api
from unbeatable.games.mnk import MNKGame
from unbeatable.solvers.mnk.engine import GomokuEngine

SIZE = 15
#: (name, seconds, share) of each setting compared.
SETTINGS = (("kept back before (0.1 s + 10%)", 0.1, 0.1), ("kept back now", None, None))


def boards(count: int, plies: int) -> list[list[int]]:
    """Book openings, played on by the engine at fixed nodes (the same
    boards on every run), none of them over."""
    rules, _ = api.resolve("gomoku")
    assert isinstance(rules, MNKGame)
    engine = GomokuEngine(rules, threads=1)
    found: list[list[int]] = []
    for opening in load_openings(DATA / "gomoku_openings_freestyle.txt", SIZE)[300:]:
        moves = list(opening)
        position = position_of(rules, moves)
        for _ in range(plies):
            move = engine.solve_nodes(position, 20_000).move
            moves.append(move)
            position = rules.play(position, move)
            if rules.is_terminal(position):
                break
        if not rules.is_terminal(position):
            found.append(moves)
        if len(found) == count:
            return found
    raise SystemExit("the book ran out")


def brain_command(seconds: float | None, share: float | None) -> list[str]:
    """The brain's process, its margins set as given (None: as shipped)."""
    code = "import unbeatable.brain as b\n"
    if seconds is not None:
        code += f"b.MARGIN_SECONDS = {seconds}\nb.MARGIN_SHARE = {share}\n"
    return [sys.executable, "-c", code + "b.main()"]


def answer_times(command: list[str], games: list[list[int]], turn_ms: int) -> list[float]:
    """Seconds from each board sent to the brain's move (``GomocupEngine``:
    ``BOARD`` with the stones in the order played, the clock the manager's)."""
    brain = GomocupEngine(
        command,
        name="pbrain-unbeatable",
        size=SIZE,
        settings=[("timeout_turn", turn_ms), ("timeout_match", 0), ("thread_num", 1)],
    )
    try:
        return [brain.move(moves, timeout=30.0).seconds for moves in games]
    finally:
        brain.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turn-ms", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=12)
    parser.add_argument("--plies", type=int, default=0, help="plies played on from the book")
    args = parser.parse_args()
    games = boards(args.boards, args.plies)
    turn = args.turn_ms / 1000
    print(
        f"{len(games)} freestyle boards (book openings + {args.plies} plies), "
        f"timeout_turn {args.turn_ms} ms, one thread; the manager's clock"
    )
    medians = []
    for name, seconds, share in SETTINGS:
        times = answer_times(brain_command(seconds, share), games, args.turn_ms)
        median = statistics.median(times)
        medians.append(median)
        print(
            f"{name:<32} median {median:.3f} s ({median / turn:.0%} of the turn)"
            f"  slowest {max(times):.3f} s ({max(times) / turn:.0%})"
        )
    print(f"time searched now / before: {medians[1] / medians[0]:.3f}")


if __name__ == "__main__":
    main()
