"""Make the Gomoku forced-win suite (``tests/data/gomoku/forced_wins.txt``)
from Rapfi's proved wins.

Two steps, so that the slow one can run apart and be resumed:

``generate``
    Plays games on 15x15 freestyle between players drawn at random from
    Rapfi held to 2-8 plies and gomokubench's easy and standard levels, from
    seeded random openings (0-3 stones in the central 7x7), and from the 8th
    stone on, after every move, asks a separate Rapfi (held to 20 plies, 1 s,
    table cleared) for the value of the position. The first position of a
    game where Rapfi proves a win for the side to move (``Eval +M<n>``) is
    appended to the candidates file, and the game ends there. With
    ``--warmup N``, the first 6-N stones after the opening are played by
    Rapfi at 6 plies on both sides, and positions are looked at from there:
    proofs in developed middle games rather than right after the opening.

``select``
    Checks each candidate again and keeps a spread of them:

    * Rapfi, table cleared, 3 s, held to 20 plies, proves the win again
      (its mate distance from this search is the ``plies`` recorded);
    * every winning move Rapfi proves: it searches again with the moves
      found so far excluded (``YXBLOCK``) until the result is no longer a win;
    * for each winning move, Rapfi searching the position after it for the
      defender proves the loss (a second search from the other side);
    * ``by``: ``fours`` when the attacker also has a win by continuous fours
      (this script's own exhaustive search of four-threat sequences, up to
      15 fours), else ``threes``.

    Positions failing a check are dropped; of the rest it keeps ``--count``,
    half of each kind when it can, spread evenly over the proof lengths, with
    at most ``--per-length`` of one kind and length.

Usage::

    python benchmarks/gomoku_forced_suite.py generate --games 120 --seed 1
    python benchmarks/gomoku_forced_suite.py select --count 50
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from gomoku_refs import (
    GOMOKUBENCH_PYTHON,
    RAPFI,
    SIZE,
    UNTIMED,
    EngineError,
    GomocupEngine,
    GomokuBench,
    OpponentMissing,
    from_notation,
    gomocup,
    notation,
    rapfi,
)

SUITE = Path(__file__).resolve().parent.parent / "tests" / "data" / "gomoku" / "forced_wins.txt"
WORK = Path("/work/refs/gomoku-suite")
PLAYERS = (
    "rapfi-d2",
    "rapfi-d3",
    "rapfi-d4",
    "rapfi-d6",
    "rapfi-d8",
    "bench-easy",
    "bench-standard",
)
#: Positions are looked at from this many stones on: earlier, a lopsided
#: random opening is all a proof would show.
FIRST_LOOK = 8
#: The longest win by continuous fours the classifier looks for, in fours.
VCF_FOURS = 15
HEADER = """\
# Forced wins on 15x15 freestyle Gomoku (five or more in a row), proved by Rapfi.
# Made by benchmarks/gomoku_forced_suite.py; format and origin: README.md beside this file.
# name  to-move  plies  by  winning-moves  moves-from-the-empty-board (black, x, first)
"""


# -- a win by continuous fours ----------------------------------------------------


@cache
def windows() -> tuple[tuple[int, ...], ...]:
    """Every run of five cells in a line."""
    found = []
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + 4 * dr, c + 4 * dc
                if 0 <= end_r < SIZE and 0 <= end_c < SIZE:
                    found.append(tuple((r + i * dr) * SIZE + c + i * dc for i in range(5)))
    return tuple(found)


@cache
def windows_through(cell: int) -> tuple[tuple[int, ...], ...]:
    return tuple(w for w in windows() if cell in w)


def completions(board: list[str], player: str, through: int | None = None) -> set[int]:
    """Empty cells where ``player`` would make five (only in runs through
    ``through`` if given)."""
    found = set()
    for window in windows() if through is None else windows_through(through):
        marks = [board[i] for i in window]
        if marks.count(player) == 4 and marks.count(".") == 1:
            found.add(window[marks.index(".")])
    return found


def four_moves(board: list[str], player: str) -> set[int]:
    """Empty cells where ``player`` would make a four (a run of five with
    four of its stones and one empty cell)."""
    found = set()
    for window in windows():
        marks = [board[i] for i in window]
        if marks.count(player) == 3 and marks.count(".") == 2:
            found.update(i for i in window if board[i] == ".")
    return found


def wins_by_fours(board: list[str], me: str, fours: int = VCF_FOURS) -> bool:
    """Whether ``me``, to move, wins by continuous fours within ``fours``
    fours: every move threatens five, so every defence is forced, and the
    search over all such sequences is exhaustive."""
    them = "o" if me == "x" else "x"
    seen: dict[tuple[str, int], bool] = {}

    def search(left: int) -> bool:
        if completions(board, me):
            return True
        if left == 0:
            return False
        key = ("".join(board), left)
        if key in seen:
            return seen[key]
        threats = completions(board, them)
        result = False
        if len(threats) <= 1:
            candidates = four_moves(board, me)
            if threats:  # their four must be blocked, by a move that is also a four
                candidates &= threats
            for cell in sorted(candidates):
                board[cell] = me
                replies = completions(board, me, cell)
                if len(replies) >= 2:  # two ways to five: they cannot stop both
                    result = True
                elif len(replies) == 1:
                    (block,) = replies
                    board[block] = them  # forced, unless it makes their five
                    result = not _five(board, block, them) and search(left - 1)
                    board[block] = "."
                board[cell] = "."
                if result:
                    break
        seen[key] = result
        return result

    return search(fours)


def _five(board: list[str], cell: int, player: str) -> bool:
    return any(all(board[i] == player for i in w) for w in windows_through(cell))


def board_of(moves: Sequence[int]) -> list[str]:
    board = ["."] * (SIZE * SIZE)
    for i, cell in enumerate(moves):
        board[cell] = "x" if i % 2 == 0 else "o"
    return board


# -- generate -----------------------------------------------------------------------


class Players:
    """The game players, one process each, started on first use."""

    def __init__(self, rapfi_path: Path, bench_python: Path) -> None:
        self.rapfi_path, self.bench_python = rapfi_path, bench_python
        self.engines: dict[str, GomocupEngine] = {}
        self.bench: GomokuBench | None = None

    def move(self, name: str, moves: list[int], seed: int) -> int:
        if name.startswith("bench-"):
            if self.bench is None:
                self.bench = GomokuBench(self.bench_python)
            return self.bench.move(name.removeprefix("bench-"), seed, moves, 600.0).cell
        if name not in self.engines:
            depth = int(name.removeprefix("rapfi-d"))
            self.engines[name] = rapfi(self.rapfi_path, [*UNTIMED, ("max_depth", depth)])
        return self.engines[name].move(moves, 600.0).cell

    def new_game(self) -> None:
        for engine in self.engines.values():
            engine.new_game()

    def close(self) -> None:
        for engine in self.engines.values():
            engine.close()
        if self.bench is not None:
            self.bench.close()


def analyser(path: Path, milliseconds: int) -> GomocupEngine:
    return rapfi(path, [("timeout_match", 0), ("timeout_turn", milliseconds), ("max_depth", 20)])


def generate(args: argparse.Namespace) -> int:
    WORK.mkdir(parents=True, exist_ok=True)
    players = Players(args.rapfi, args.gomokubench_python)
    judge = analyser(args.rapfi, 1000)
    centre = [r * SIZE + c for r in range(4, 11) for c in range(4, 11)]
    with args.candidates.open("a") as out:
        for game in range(args.first, args.first + args.games):
            rng = random.Random(args.seed * 100_000 + game)
            black, white = rng.choice(PLAYERS), rng.choice(PLAYERS)
            moves = rng.sample(centre, rng.randint(0, 3))
            first_look = FIRST_LOOK
            if args.warmup:  # a balanced middle game first: Rapfi at 6 plies both sides
                first_look = len(moves) + rng.randint(6, args.warmup)
            players.new_game()
            found = None
            started = time.monotonic()
            while len(moves) < args.max_stones:
                if len(moves) >= first_look:
                    judge.new_game()
                    reply = judge.move(moves, 60.0)
                    mate = reply.eval.mate if reply.eval else None
                    if mate is not None and mate > 0:
                        found = (mate, reply.cell)
                        break
                mover = black if len(moves) % 2 == 0 else white
                if len(moves) < first_look and args.warmup:
                    mover = "rapfi-d6"
                moves.append(players.move(mover, moves, rng.randrange(1 << 30)))
                if _five(board_of(moves), moves[-1], "x" if len(moves) % 2 else "o"):
                    break  # won before anything was proved
            seconds = time.monotonic() - started
            if found is not None:
                mate, cell = found
                text = " ".join(notation(c) for c in moves)
                out.write(f"g{game} {black} {white} {mate} {notation(cell)} {text}\n")
                out.flush()
            status = f"+M{found[0]} at {len(moves)} stones" if found else "no proof"
            print(f"game {game}: {black} vs {white}: {status} ({seconds:.0f} s)", flush=True)
    players.close()
    judge.close()
    return 0


# -- select -------------------------------------------------------------------------


def block(engine: GomocupEngine, cells: Sequence[int]) -> None:
    engine.send("YXBLOCKRESET")
    if cells:
        engine.send("\n".join(["YXBLOCK", *(gomocup(c) for c in cells), "DONE"]))


def check(engine: GomocupEngine, moves: list[int]) -> tuple[int, list[int]] | None:
    """Rapfi's proof length and every winning move it proves, each confirmed
    from the defender's side; None if a check fails."""
    engine.new_game()
    block(engine, [])
    first = engine.move(moves, 60.0)
    mate = first.eval.mate if first.eval else None
    if mate is None or mate <= 0:
        return None
    winning = [first.cell]
    while len(winning) < 12:
        engine.new_game()
        block(engine, winning)
        reply = engine.move(moves, 60.0)
        if reply.eval is None or not reply.eval.wins or reply.cell in winning:
            break
        winning.append(reply.cell)
    block(engine, [])
    for cell in winning:
        engine.new_game()
        reply = engine.move([*moves, cell], 60.0)
        if reply.eval is None or not reply.eval.loses:
            print(f"  {notation(cell)} not confirmed from the defender's side ({reply.eval})")
            return None
    return mate, winning


def describe(engine: GomocupEngine, moves: list[int], board: list[str], played: list[str]) -> str:
    """The suite line of a candidate (without its name), or "dropped"."""
    checked = check(engine, moves)
    if checked is None:
        return "dropped"
    mate, winning = checked
    side = "x" if len(moves) % 2 == 0 else "o"
    by = "fours" if wins_by_fours(board, side) else "threes"
    return f"{side} {mate} {by} {','.join(notation(c) for c in winning)} {' '.join(played)}"


def spread(items: list[tuple[int, str]], count: int) -> list[tuple[int, str]]:
    """``count`` items evenly spaced in ``items`` (sorted by proof length)."""
    if len(items) <= count:
        return items
    step = (len(items) - 1) / max(1, count - 1)
    return [items[round(i * step)] for i in range(count)]


def select(args: argparse.Namespace) -> int:
    if not args.candidates.is_file():
        print(f"no candidates at {args.candidates}: run 'generate' first", file=sys.stderr)
        return 2
    # Checked candidates are remembered (name, then the suite line or
    # "dropped"), so that a second selection costs no search.
    done = {}
    if args.checked.is_file():
        done = dict(line.split(" ", 1) for line in args.checked.read_text().splitlines())
    engine: GomocupEngine | None = None
    kept: dict[str, list[tuple[int, str]]] = {"fours": [], "threes": []}
    boards = set()
    with args.checked.open("a") as memo:
        for line in args.candidates.read_text().splitlines():
            name, _, _, _, _, *played = line.split()
            moves = [from_notation(m) for m in played]
            board = board_of(moves)
            key = "".join(board)
            if key in boards:
                continue
            boards.add(key)
            if name not in done:
                engine = engine or analyser(args.rapfi, 3000)
                done[name] = describe(engine, moves, board, played)
                memo.write(f"{name} {done[name]}\n")
                memo.flush()
                print(f"{name}: {done[name][:40]}", flush=True)
            if done[name] != "dropped":
                _, mate, by, _ = done[name].split(" ", 3)
                kept[by].append((int(mate), done[name]))
    if engine is not None:
        engine.close()
    checked = sum(map(len, kept.values()))
    for by, items in kept.items():
        items.sort()
        # At most --per-length positions of one kind and proof length: the
        # short wins are common, and one kind of easy win need not crowd out
        # the rest.
        count: dict[int, int] = {}
        capped = []
        for mate, text in items:
            count[mate] = count.get(mate, 0) + 1
            if count[mate] <= args.per_length:
                capped.append((mate, text))
        kept[by] = capped
    half = args.count // 2
    threes = spread(kept["threes"], max(half, args.count - len(kept["fours"])))
    fours = spread(kept["fours"], args.count - len(threes))
    chosen = sorted(fours + threes, key=lambda item: (item[0], item[1]))
    lines = [f"w{i + 1:02d} {text}" for i, (_, text) in enumerate(chosen)]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(HEADER + "\n".join(lines) + "\n")
    print(
        f"{len(chosen)} positions ({len(fours)} by fours, {len(threes)} by threes) of"
        f" {checked} that passed the checks, written to {args.out}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("generate", "select"))
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-stones", type=int, default=150)
    parser.add_argument(
        "--warmup",
        type=int,
        default=0,
        help="play the first 6-N stones after the opening by Rapfi (6 plies) on both sides",
    )
    parser.add_argument("--count", type=int, default=50, help="positions to keep")
    parser.add_argument("--per-length", type=int, default=6, help="of one kind and proof length")
    parser.add_argument("--candidates", type=Path, default=WORK / "candidates.txt")
    parser.add_argument("--checked", type=Path, default=WORK / "checked.txt")
    parser.add_argument("--out", type=Path, default=SUITE)
    parser.add_argument("--rapfi", type=Path, default=RAPFI)
    parser.add_argument("--gomokubench-python", type=Path, default=GOMOKUBENCH_PYTHON)
    args = parser.parse_args(argv)
    try:
        return generate(args) if args.step == "generate" else select(args)
    except (OpponentMissing, EngineError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
