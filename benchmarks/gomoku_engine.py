"""What each step of the Gomoku engine is worth, side by side in one run.

The engine (``unbeatable.solvers.mnk.engine.GomokuEngine``) proves wins by
continuous fours (``vcf``) and by threes and fours (``vct``), proves losses
against the opponent's threats (``defend``), and otherwise runs a timed
principal-variation search. This script measures configurations that leave
steps out, on the same positions and games:

1. **Proofs**: positions where a tournament engine proved a win for the side
   to move (``tests/data/gomoku/forced_wins.txt``): how many wins each
   configuration proves within the budget, in how much time and how many nodes.
2. **Strength**: the whole engine against each reduced one, from seeded
   openings of a few stones in the centre, colours alternating: the whole
   engine's score.
3. **Threads** (``--part threads``, not in ``both``): the timed search on one
   thread and with a helper thread on a second core, on the suite's positions.
4. **Speed** (``--part speed``, not in ``both``): nodes a second of one
   thread, this checkout's engine against the engine of a git revision
   (``--against REV``, default ``HEAD``, checked out in a temporary
   worktree), side by side: each round times every suite position held to
   ``--nodes`` nodes (the whole engine: proofs, then the main search), once
   per engine, alternating which goes first, each in a fresh process with its
   kernels already compiled; the median round of each and their ratio. Time
   is the process's CPU time, which other work on a busy machine disturbs
   less than the clock.
   ``--rule`` plays the suite's stones under another rule set (the speed of
   standard or renju; the revision must know the rule).
5. **Profile** (``--part profile``, not in ``both``): where a node's time
   goes. The kernel's parts timed alone, in compiled loops, on the suite's
   positions (placing and taking back each candidate move, a leaf
   evaluation, a move list), beside the whole search's time a node on the
   same positions held to ``--nodes``: what the parts leave is move
   picking, the table, the calls and the search's own frame.

    python benchmarks/gomoku_engine.py                # both parts
    python benchmarks/gomoku_engine.py --games 10 --time-limit 0.5
    python benchmarks/gomoku_engine.py --part threads
    python benchmarks/gomoku_engine.py --part speed --against 8ff1db3 --rounds 5
    python benchmarks/gomoku_engine.py --part profile
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gomoku_strength import SUITE, load_suite
from unbeatable.games import get_game
from unbeatable.games.mnk import MNKGame, MNKPosition
from unbeatable.search.engine import Limits
from unbeatable.solvers.mnk.engine import GomokuEngine

CONFIGS: dict[str, tuple[str, ...]] = {
    "pvs only": ("vcf", "vct", "defend"),
    "+ vcf": ("vct", "defend"),
    "+ vct": ("defend",),
    "whole engine": (),
}


def suite_positions(game: MNKGame) -> list[MNKPosition]:
    """The suite's positions, read by the strength benchmark's loader."""
    positions = []
    for case in load_suite(SUITE):
        pos = game.initial()
        for cell in case.moves:
            pos = game.play(pos, cell)
        positions.append(pos)
    return positions


def proofs(game: MNKGame, seconds: float) -> None:
    if not SUITE.exists():
        print(f"no forced-win suite at {SUITE}: skipping the proofs part")
        return
    positions = suite_positions(game)
    print(f"Proofs: {len(positions)} forced-win positions, {seconds} s each")
    print(f"{'configuration':<14} {'proven wins':>11} {'median':>8} {'slowest':>8} {'nodes':>12}")
    for name, without in CONFIGS.items():
        engine = GomokuEngine(game, without=without)
        engine.warm_up()
        found, times, nodes = 0, [], 0
        for pos in positions:
            start = time.perf_counter()
            solved = engine.solve(pos, Limits.seconds(seconds))
            times.append(time.perf_counter() - start)
            nodes += solved.nodes
            found += solved.outcome.exact and solved.outcome.result == "win"
        print(
            f"{name:<14} {found:>5}/{len(positions):<5} {statistics.median(times):>7.3f}s"
            f" {max(times):>7.3f}s {nodes:>12,}"
        )


def threads(game: MNKGame, seconds: float) -> None:
    """The timed search on one thread and with a helper on the second core,
    side by side: each suite position is searched by one and then the other
    (so both see the same machine), and each uses a table cleared first. A
    move counts as found when it is proven or among the suite's winning moves
    (which need not be all of them: ``gomoku_strength.py --suite`` asks Rapfi
    about the others)."""
    if not SUITE.exists():
        print(f"no forced-win suite at {SUITE}: skipping the threads part")
        return
    cases = load_suite(SUITE)
    engines = {n: GomokuEngine(game, threads=n) for n in (1, 2)}
    engines[1].warm_up()
    tally = {n: {"found": 0, "proven": 0, "nodes": 0, "seconds": 0.0} for n in engines}
    differ = []
    for case, pos in zip(cases, suite_positions(game), strict=True):
        moves = {}
        for n, engine in engines.items():
            engine.reset()
            start = time.perf_counter()
            solved = engine.solve(pos, Limits.seconds(seconds))
            row = tally[n]
            row["seconds"] += time.perf_counter() - start
            row["nodes"] += solved.nodes
            proven = solved.outcome.exact and solved.outcome.result == "win"
            row["proven"] += proven
            row["found"] += proven or solved.move in case.winning
            moves[n] = solved.move
        if moves[1] != moves[2]:
            differ.append(case.name)
    print(f"Threads: {len(cases)} forced-win positions, {seconds} s each")
    print(f"{'threads':<8} {'found':>7} {'proven':>7} {'nodes':>12} {'nodes/s':>10}")
    for n, row in tally.items():
        rate = row["nodes"] / row["seconds"]
        print(
            f"{n:<8} {row['found']:>4}/{len(cases):<2} {row['proven']:>4}/{len(cases):<2}"
            f" {row['nodes']:>12,} {rate:>10,.0f}"
        )
    print(f"moves that differ: {', '.join(differ) or 'none'}")


#: Run in a fresh process with ``PYTHONPATH`` at one tree's ``src``: times the
#: positions (move lists on standard input) held to a number of nodes, using
#: only what every version of the engine has.
_TIMER = """
import json, sys, time
from unbeatable.games import get_game
from unbeatable.solvers.mnk.engine import GomokuEngine
game_name, nodes = sys.argv[1], int(sys.argv[2])
game = get_game(game_name)
engine = GomokuEngine(game)
engine.warm_up()
total_nodes, seconds = 0, 0.0
for moves in json.load(sys.stdin):
    pos = game.initial()
    for cell in moves:
        pos = game.play(pos, cell)
    start = time.process_time()
    total_nodes += engine.solve_nodes(pos, nodes).nodes
    seconds += time.process_time() - start
print(json.dumps({"nodes": total_nodes, "seconds": seconds}))
"""


def _time_tree(src: Path, game_name: str, cases: str, nodes: int) -> tuple[int, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", _TIMER, game_name, str(nodes)],
        input=cases,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"timing the engine in {src} failed:\n{done.stderr.strip()[-2000:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return int(found["nodes"]), float(found["seconds"])


def speed(game_name: str, against: str, nodes: int, rounds: int) -> None:
    """Nodes a second of this checkout's engine and of ``against``'s, side by side."""
    if not SUITE.exists():
        print(f"no forced-win suite at {SUITE}: skipping the speed part")
        return
    cases = json.dumps([list(case.moves) for case in load_suite(SUITE)])
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "-C", str(here), "worktree", "add", "--detach", "-q", str(tree), against],
            check=True,
        )
        try:
            trees = {"this checkout": here / "src", against: tree / "src"}
            timed: dict[str, list[tuple[int, float]]] = {name: [] for name in trees}
            for src in trees.values():  # compile each once, untimed
                _time_tree(src, game_name, json.dumps([]), nodes)
            for r in range(rounds):
                order = list(trees) if r % 2 == 0 else list(reversed(trees))
                for name in order:
                    timed[name].append(_time_tree(trees[name], game_name, cases, nodes))
                    sys.stderr.write(f"round {r + 1} {name}: {timed[name][-1]}\n")
        finally:
            subprocess.run(
                ["git", "-C", str(here), "worktree", "remove", "--force", str(tree)], check=False
            )
    print(
        f"Speed: {len(json.loads(cases))} suite positions of {game_name}, {nodes:,} nodes each,"
        f" one thread, {rounds} rounds (median round)"
    )
    print(f"{'engine':<16} {'nodes':>12} {'CPU s':>9} {'nodes/s':>10}")
    rates = {}
    for name, runs in timed.items():
        total, seconds = sorted(runs, key=lambda run: run[1])[len(runs) // 2]
        rates[name] = total / seconds
        print(f"{name:<16} {total:>12,} {seconds:>9.2f} {rates[name]:>10,.0f}")
    print(f"this checkout / {against}: {rates['this checkout'] / rates[against]:.3f}")


def profile(game: MNKGame, nodes: int) -> None:
    """The kernel's parts timed alone, per call, beside a whole search's time a node."""
    if not SUITE.exists():
        print(f"no forced-win suite at {SUITE}: skipping the profile part")
        return
    from numba import njit

    from unbeatable.solvers.mnk import kernel as K
    from unbeatable.solvers.mnk.engine import _Search

    # The search's pair (a stone played, then taken back in reverse order);
    # a revision before play/unplay searched with place/remove.
    play = getattr(K, "play", K.place)
    unplay = getattr(K, "unplay", K.remove)

    @njit(nogil=True)  # type: ignore[misc]
    def place_and_take(B, moves, n, reps):  # type: ignore[no-untyped-def]
        for _ in range(reps):
            for i in range(n):
                play(B, moves[i], 1 + (i & 1))
                unplay(B, moves[i])

    @njit(nogil=True)  # type: ignore[misc]
    def evaluations(B, reps):  # type: ignore[no-untyped-def]
        total = 0
        for r in range(reps):
            total += K.evaluate(B, r & 1)
        return total

    @njit(nogil=True)  # type: ignore[misc]
    def move_lists(B, mbuf, sbuf, hist, reps):  # type: ignore[no-untyped-def]
        total = 0
        for r in range(reps):
            total += abs(K.candidates(B, r & 1, 0, mbuf, sbuf, hist, -1, 0))
        return total

    engine = GomokuEngine(game, threads=1)
    engine.warm_up()
    positions = suite_positions(game)
    # Each part's time a call, summed over the positions (averaged below).
    parts = {"place and take back a stone": 0.0, "evaluate a leaf": 0.0, "list the moves": 0.0}
    reps = 200
    for i, pos in enumerate(positions):
        search = _Search(engine.geometry, pos.cells, table=False)
        B, me = search.board, (len(pos.cells) - pos.cells.count(".")) % 2
        n = abs(K.candidates(B, me, 0, search.mbuf, search.sbuf, search.hist, -1, 0))
        moves = search.mbuf[0, :n].copy()
        if i == 0:  # compile, untimed
            place_and_take(B, moves, n, 1)
            evaluations(B, 1)
            move_lists(B, search.mbuf, search.sbuf, search.hist, 1)
        start = time.process_time()
        place_and_take(B, moves, n, reps)
        parts["place and take back a stone"] += (time.process_time() - start) / (reps * n)
        start = time.process_time()
        evaluations(B, reps * 50)
        parts["evaluate a leaf"] += (time.process_time() - start) / (reps * 50)
        start = time.process_time()
        move_lists(B, search.mbuf, search.sbuf, search.hist, reps * 5)
        parts["list the moves"] += (time.process_time() - start) / (reps * 5)
    total, seconds = 0, 0.0
    for pos in positions:
        start = time.process_time()
        total += engine.solve_nodes(pos, nodes).nodes
        seconds += time.process_time() - start
        engine.reset()
    print(f"Profile: {len(positions)} suite positions of gomoku, one thread (CPU time)")
    for name, total_s in parts.items():
        print(f"{name:<32} {total_s / len(positions) * 1e9:>8,.0f} ns a call")
    print(
        f"{'the whole search, a node':<32} {seconds / total * 1e9:>8,.0f} ns"
        f"  ({total:,} nodes, {nodes:,} a position: {total / seconds:,.0f} nodes/s)"
    )


def opening(game: MNKGame, seed: int, stones: int) -> MNKPosition:
    rng = random.Random(seed)
    centre = [
        r * game.columns + c
        for r in range(game.rows // 2 - 2, game.rows // 2 + 3)
        for c in range(game.columns // 2 - 2, game.columns // 2 + 3)
    ]
    pos = game.initial()
    for cell in rng.sample(centre, stones):
        pos = game.play(pos, cell)
    return pos


def play(
    game: MNKGame, first: GomokuEngine, second: GomokuEngine, start: MNKPosition, seconds: float
) -> str | None:
    """The winner's mark (None: a draw) of a game from ``start``, ``first``
    playing the side to move."""
    pos = start
    engines = {start.to_move: first, ("o" if start.to_move == "x" else "x"): second}
    while not game.is_terminal(pos):
        move = engines[pos.to_move].solve(pos, Limits.seconds(seconds)).move
        pos = game.play(pos, move)
    return game.winner(pos)


def strength(game: MNKGame, games: int, seconds: float, stones: int) -> None:
    whole = GomokuEngine(game)
    whole.warm_up()
    print(
        f"\nStrength: the whole engine against each reduced one, {games} games each, "
        f"{seconds} s a move, openings of {stones} stones"
    )
    print(f"{'opponent':<14} {'W/D/L':>9} {'score':>7}")
    for name, without in CONFIGS.items():
        if not without:
            continue
        other = GomokuEngine(game, without=without)
        wins = draws = losses = 0
        for i in range(games):
            start = opening(game, i // 2, stones)
            ours_first = i % 2 == 0
            mover = start.to_move
            winner = play(
                game, whole if ours_first else other, other if ours_first else whole, start, seconds
            )
            ours = mover if ours_first else ("o" if mover == "x" else "x")
            if winner is None:
                draws += 1
            elif winner == ours:
                wins += 1
            else:
                losses += 1
            sys.stderr.write(
                f"{name} game {i + 1}: {'draw' if winner is None else winner} (ours {ours})\n"
            )
        score = (wins + draws / 2) / games
        print(f"{name:<14} {wins:>3}/{draws}/{losses:<3} {score:>6.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games per reduced configuration")
    parser.add_argument("--time-limit", type=float, default=0.5, help="seconds a move")
    parser.add_argument("--proof-time", type=float, default=1.0, help="seconds a suite position")
    parser.add_argument("--stones", type=int, default=3, help="stones of each opening")
    parser.add_argument(
        "--part",
        choices=("both", "proofs", "strength", "threads", "speed", "profile"),
        default="both",
    )
    parser.add_argument("--against", default="HEAD", help="git revision the speed part compares")
    parser.add_argument(
        "--nodes", type=int, default=100_000, help="nodes a position (speed, profile)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the speed part")
    parser.add_argument(
        "--rule",
        choices=("freestyle", "standard", "renju"),
        default="freestyle",
        help="rule set of the speed part's game",
    )
    args = parser.parse_args()
    if args.part == "speed":
        name = "gomoku" if args.rule == "freestyle" else f"gomoku:{args.rule},15"
        speed(name, args.against, args.nodes, args.rounds)
        return
    game = get_game("gomoku")
    assert isinstance(game, MNKGame)
    if args.part == "profile":
        profile(game, args.nodes)
        return
    if args.part in ("both", "proofs"):
        proofs(game, args.proof_time)
    if args.part in ("both", "strength"):
        strength(game, args.games, args.time_limit, args.stones)
    if args.part == "threads":
        threads(game, args.proof_time)


if __name__ == "__main__":
    main()
