"""Gomoku strength: the impossible level against reference opponents, side by
side in one run, and on a suite of forced wins.

Our side is the library (``unbeatable.api.choose_move("gomoku", position,
"impossible")`` in this process, the game's default budget of 1 s a move) or,
with ``--brain PATH``, a Gomocup brain such as ``pbrain-unbeatable`` given the
same budget (``INFO timeout_turn``). The opponents, built outside the
repository (``benchmarks/README.md``, "Gomoku: strength"):

* ``gomokubench-standard``, ``gomokubench-hard``: PyPI ``gomokubench``'s
  alpha-beta engine at its two stronger levels, in its own virtual
  environment through ``gomoku_gomokubench_adapter.py``;
* ``rapfi-dN``: Rapfi (classical weights, one thread) held to N plies of main
  search (``INFO max_depth N``, no time limit); ``rapfi-tMS``: Rapfi with MS
  milliseconds a move (``INFO timeout_turn``), ``rapfi-t1000`` being equal time.

Matches start from the empty board (or, with ``--opening-stones K``, from
seeded random openings of K stones near the centre, each played twice) with
colours alternating, our side black in the first game. A game ends with five
or more in a row or a full board. Per opponent the table gives our wins,
draws and losses as black and as white, our score (a draw half a point), and
our move times: median, slowest and how many moves took more than the budget
plus 10%. An opponent that is not built is reported as missing and skipped.

``--suite`` replays the forced-win positions of ``tests/data/gomoku`` instead:
in each, our side must find a winning move within its budget (found: its own
answer is a proven win, or Rapfi, searching the position after the move for
the defender, proves the defender lost), then play on against Rapfi
(``--suite-opponent``, equal time by default) and win.

``--rule standard`` or ``--rule renju`` plays that rule set instead of
freestyle (``gomoku:standard,15``, ``renju``): our side plays the game of that
name, Rapfi is told the same rule (``INFO rule 1`` or ``4``), and a game ends
with a five as the rule counts it (in renju a forbidden point is an illegal
move, which forfeits the game). gomokubench plays freestyle only, so it is
left out under another rule.

``--balanced EVAL`` keeps only the random openings that Rapfi, searching 12
plies under the rule played, values within EVAL of even for the side to move
(and proves no win for either side): a random opening can be won for one side
already (in renju and standard more often than in freestyle), and then the
pair of games played from it scores one game each whatever the play.

Games are reproducible: every game's moves are printed as it ends, and
``--save FILE`` writes them all (plain move lists, or SGF if FILE ends in
``.sgf``); gomokubench's random first move is seeded per game (``--seed``)
and Rapfi's table is cleared before each game, so only time-limited search
differs between runs.

Usage::

    python benchmarks/gomoku_strength.py --games 10 --save games.txt
    python benchmarks/gomoku_strength.py --opponents rapfi-d2,rapfi-t1000 --games 20
    python benchmarks/gomoku_strength.py --suite
    python benchmarks/gomoku_strength.py --rule renju --opponents rapfi-d2,rapfi-d8 --games 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from gomoku_refs import (
    GAMES,
    GOMOKUBENCH_PYTHON,
    RAPFI,
    RAPFI_RULES,
    SIZE,
    UNTIMED,
    EngineError,
    GomocupEngine,
    GomokuBench,
    OpponentMissing,
    from_notation,
    notation,
    rapfi,
)
from unbeatable import api
from unbeatable.solvers.mnk.engine import GomokuEngine

#: The game played, one of ``GAMES`` (``--rule`` sets it; Rapfi is told its ``RAPFI_RULES`` number).
GAME = GAMES["freestyle"]
SUITE = Path(__file__).resolve().parent.parent / "tests" / "data" / "gomoku" / "forced_wins.txt"
DEFAULT_OPPONENTS = (
    "gomokubench-standard",
    "gomokubench-hard",
    "rapfi-d2",
    "rapfi-d4",
    "rapfi-d6",
    "rapfi-d8",
    "rapfi-d10",
    "rapfi-d12",
    "rapfi-t1000",
)
#: Seconds an opponent may think before the run gives up on it (its move is
#: then a forfeit): generous, since only our own side is timed.
OPPONENT_TIMEOUT = 300.0


class Played(NamedTuple):
    cell: int
    seconds: float
    #: What the player said of the move: our result, Rapfi's evaluation.
    note: str


class Player(Protocol):
    name: str

    def new_game(self) -> None: ...

    def move(self, moves: Sequence[int], seed: int) -> Played: ...

    def close(self) -> None: ...


def rule_of(game: str) -> str:
    """The rule set of one of :data:`GAMES`."""
    return next(rule for rule, name in GAMES.items() if name == game)


def position_of(rules: Any, moves: Sequence[int]) -> Any:
    """The project's position after ``moves`` (black first) from the empty board."""
    position = rules.initial()
    for cell in moves:
        position = rules.play(position, cell)
    return position


# -- our side ----------------------------------------------------------------------


class Library:
    """The library in this process; its memos are cleared before each game,
    as if every game were played by a server that has just started."""

    def __init__(self, level: str, time_limit: float | None, threads: int | None = None) -> None:
        self.rules, _ = api.resolve(GAME)
        self.level, self.time_limit = level, time_limit
        self.name = f"unbeatable ({level})"
        if threads is not None:  # the engine's timed search: this many threads
            engine = api.engine(GAME)
            assert isinstance(engine, GomokuEngine)
            engine.threads = threads
            self.name = f"unbeatable ({level}, {threads} thread{'s' * (threads > 1)})"
        # As a server does at start-up: the first move is not the one that
        # compiles the engine's kernel.
        warm_up = getattr(api.engine(GAME), "warm_up", None)
        if warm_up is not None:
            warm_up()

    def new_game(self) -> None:
        api.clear_caches()

    def move(self, moves: Sequence[int], seed: int) -> Played:
        position = position_of(self.rules, moves)
        start = time.perf_counter()
        chosen = api.choose_move(
            GAME, position, self.level, rng=random.Random(seed), time_limit=self.time_limit
        )
        seconds = time.perf_counter() - start
        if chosen is None:
            raise EngineError("the library gave no move in a position that is not over")
        note = chosen.result if chosen.plies is None else f"{chosen.result} in {chosen.plies}"
        return Played(self.rules.parse_move(position, chosen.move), seconds, note)

    def close(self) -> None:
        pass


class FixedNodes:
    """The engine behind the impossible level held to a number of nodes a move
    instead of seconds (``GomokuEngine.solve_nodes``): its moves do not depend
    on the machine or its load, so two versions of the engine can be compared
    on a busy machine and a game can be replayed."""

    def __init__(self, nodes: int, without: tuple[str, ...] = ()) -> None:
        self.rules, _ = api.resolve(GAME)
        self.engine = GomokuEngine(self.rules, without=without)
        self.engine.warm_up()
        self.nodes = nodes
        self.name = (
            f"unbeatable ({nodes:,} nodes{', without ' + ', '.join(without) if without else ''})"
        )

    def new_game(self) -> None:
        pass

    def move(self, moves: Sequence[int], seed: int) -> Played:
        position = position_of(self.rules, moves)
        start = time.perf_counter()
        solved = self.engine.solve_nodes(position, self.nodes)
        seconds = time.perf_counter() - start
        if solved.move is None:
            raise EngineError("the engine gave no move in a position that is not over")
        outcome = solved.outcome
        note = outcome.result if outcome.plies is None else f"{outcome.result} in {outcome.plies}"
        return Played(solved.move, seconds, note)

    def close(self) -> None:
        pass


class Brain:
    """A Gomocup brain (``pbrain-unbeatable``) given the same budget."""

    def __init__(self, path: Path, budget: float) -> None:
        if not path.is_file():
            raise OpponentMissing(f"brain not found at {path}")
        rule = ("rule", RAPFI_RULES[rule_of(GAME)])
        settings = [rule, ("timeout_match", 0), ("timeout_turn", round(budget * 1000))]
        self.engine = GomocupEngine([str(path)], name=path.name, settings=settings)
        self.name, self.budget = path.name, budget

    def new_game(self) -> None:
        self.engine.new_game()

    def move(self, moves: Sequence[int], seed: int) -> Played:
        reply = self.engine.move(moves, timeout=3 * self.budget + 5)
        return Played(reply.cell, reply.seconds, reply.eval.text if reply.eval else "")

    def close(self) -> None:
        self.engine.close()


# -- opponents ---------------------------------------------------------------------


class RapfiPlayer:
    def __init__(self, spec: str, path: Path) -> None:
        kind, amount = spec[len("rapfi-")], int(spec[len("rapfi-") + 1 :])
        if kind == "d":  # a fixed depth and no clock: the same move every time
            settings = [*UNTIMED, ("max_depth", amount)]
            self.timeout = OPPONENT_TIMEOUT
        else:
            settings = [("timeout_match", 0), ("timeout_turn", amount)]
            self.timeout = amount / 1000 + 10
        # (Sent after the harness's own "INFO rule 0", so this one counts.)
        self.engine = rapfi(path, [("rule", RAPFI_RULES[rule_of(GAME)]), *settings])
        self.name = spec

    def new_game(self) -> None:
        self.engine.new_game()

    def move(self, moves: Sequence[int], seed: int) -> Played:
        reply = self.engine.move(moves, self.timeout)
        return Played(reply.cell, reply.seconds, reply.eval.text if reply.eval else "")

    def close(self) -> None:
        self.engine.close()


class BenchPlayer:
    def __init__(self, spec: str, bench: GomokuBench) -> None:
        self.level = spec.removeprefix("gomokubench-")
        self.bench, self.name = bench, spec

    def new_game(self) -> None:
        pass

    def move(self, moves: Sequence[int], seed: int) -> Played:
        reply = self.bench.move(self.level, seed, moves, OPPONENT_TIMEOUT)
        return Played(reply.cell, reply.seconds, "")

    def close(self) -> None:
        pass  # the adapter is shared; closed once at the end


def valid_spec(spec: str) -> bool:
    if spec in ("gomokubench-easy", "gomokubench-standard", "gomokubench-hard"):
        return True
    rest = spec.removeprefix("rapfi-")
    return rest != spec and len(rest) > 1 and rest[0] in "dt" and rest[1:].isdigit()


# -- games -------------------------------------------------------------------------


@dataclass
class GameRecord:
    opponent: str
    ours: str  # "x" (black) or "o"
    moves: list[int]
    winner: str | None  # "x", "o", or None for a draw
    reason: str
    #: Seconds of each of our moves.
    our_times: list[float] = field(default_factory=list)
    #: What our side said of each of its moves (its result).
    our_notes: list[str] = field(default_factory=list)

    @property
    def result(self) -> str:
        if self.winner is None:
            return "draw"
        return "win" if self.winner == self.ours else "loss"

    def text(self) -> str:
        return " ".join(notation(c) for c in self.moves)


def play_game(
    rules: Any,
    ours: Player,
    theirs: Player,
    ours_as: str,
    opening: Sequence[int],
    seed: int,
) -> GameRecord:
    """One game from ``opening`` to five in a row or a full board (the
    caller starts both players' games). A player that fails (no move in time,
    an illegal move, an error) loses the game."""
    moves = list(opening)
    position = position_of(rules, moves)
    record = GameRecord(theirs.name, ours_as, moves, None, "full board")
    while rules.moves(position):
        mover = rules.to_move(position)
        player = ours if mover == ours_as else theirs
        try:
            played = player.move(moves, seed + len(moves))
            if played.cell not in rules.moves(position):
                raise EngineError(f"illegal move {notation(played.cell)}")
        except Exception as error:  # a crash of either side is a result to report
            record.winner = "o" if mover == "x" else "x"
            record.reason = f"{player.name} forfeits: {type(error).__name__}: {error}"
            return record
        if player is ours:
            record.our_times.append(played.seconds)
            record.our_notes.append(played.note)
        moves.append(played.cell)
        position = rules.play(position, played.cell)
        if rules.winner(position) is not None:
            record.winner = rules.winner(position)
            record.reason = "five"
            break
    return record


def random_opening(rng: random.Random, stones: int) -> list[int]:
    """``stones`` distinct cells in the central 7x7, black first."""
    centre = [r * SIZE + c for r in range(4, 11) for c in range(4, 11)]
    return rng.sample(centre, stones)


#: Plies Rapfi searches to judge an opening (``--balanced``).
JUDGE_DEPTH = 12


def balanced_openings(rng: random.Random, args: argparse.Namespace, count: int) -> list[list[int]]:
    """``count`` random openings (as :func:`random_opening`) that Rapfi,
    searching :data:`JUDGE_DEPTH` plies under the rule played, values within
    ``args.balanced`` of even for the side to move (no proved win either
    way): openings that neither side has already won, so that a pair of
    games (one with each colour) measures play, not the draw of the opening."""
    settings = [("rule", RAPFI_RULES[rule_of(GAME)]), *UNTIMED]
    judge = rapfi(args.rapfi, [*settings, ("max_depth", JUDGE_DEPTH)])
    rules, _ = api.resolve(GAME)
    found: list[list[int]] = []
    tried = 0
    try:
        while len(found) < count:
            tried += 1
            if tried > 100 * count + 100:
                raise EngineError(f"no {count} openings within {args.balanced} in {tried} tries")
            opening = random_opening(rng, args.opening_stones)
            position = position_of(rules, opening)
            if rules.is_terminal(position):
                continue
            judge.new_game()
            value = judge.move(opening, OPPONENT_TIMEOUT).eval
            if value is None or value.mate is not None:
                continue
            if abs(int(value.text)) <= args.balanced:
                found.append(opening)
    finally:
        judge.close()
    print(
        f"{count} openings of {args.opening_stones} stones within {args.balanced} of even"
        f" (Rapfi, {JUDGE_DEPTH} plies), {tried} drawn",
        file=sys.stderr,
    )
    return found


# -- reports -----------------------------------------------------------------------


def over_budget(times: Sequence[float], budget: float | None) -> int:
    return 0 if budget is None else sum(t > budget * 1.1 for t in times)


def wdl(records: Sequence[GameRecord], colour: str) -> str:
    mine = [r for r in records if r.ours == colour]
    counts = [sum(r.result == k for r in mine) for k in ("win", "draw", "loss")]
    return "/".join(map(str, counts))


def table(results: dict[str, list[GameRecord] | str], budget: float | None) -> None:
    print()
    header = (
        f"{'opponent':<22}{'games':>6}{'black W/D/L':>13}{'white W/D/L':>13}{'score':>8}"
        f"{'median':>9}{'slowest':>9}{'over':>6}  forfeits"
    )
    print(header)
    for name, records in results.items():
        if isinstance(records, str):
            print(f"{name:<22}  missing: {records}")
            continue
        if not records:
            print(f"{name:<22}{0:>6}")
            continue
        points = sum({"win": 1.0, "draw": 0.5, "loss": 0.0}[r.result] for r in records)
        times = [t for r in records for t in r.our_times]
        forfeits = [r.reason for r in records if "forfeits" in r.reason]
        median = f"{statistics.median(times):.2f} s" if times else "-"
        slowest = f"{max(times):.2f} s" if times else "-"
        print(
            f"{name:<22}{len(records):>6}{wdl(records, 'x'):>13}{wdl(records, 'o'):>13}"
            f"{100 * points / len(records):>7.0f}%{median:>9}{slowest:>9}"
            f"{over_budget(times, budget):>6}  {len(forfeits)}"
        )
    print(
        "(score: a win 1, a draw 1/2; times: our moves; over: moves past the budget + 10%;"
        " forfeits: games a player lost by failing)"
    )


def save(path: Path, records: Sequence[GameRecord], ours: str) -> None:
    if path.suffix.lower() == ".sgf":
        games = []
        for r in records:
            black, white = (ours, r.opponent) if r.ours == "x" else (r.opponent, ours)
            outcome = {None: "0", "x": "B+", "o": "W+"}[r.winner]
            nodes = "".join(
                f";{'B' if i % 2 == 0 else 'W'}[{chr(97 + c % SIZE)}{chr(97 + c // SIZE)}]"
                for i, c in enumerate(r.moves)
            )
            games.append(f"(;GM[4]FF[4]SZ[{SIZE}]PB[{black}]PW[{white}]RE[{outcome}]{nodes})")
        path.write_text("\n".join(games) + "\n")
        return
    lines = ["# opponent  our-colour  our-result  moves (black first; column a-o, row 1-15 up)"]
    lines += [f"{r.opponent} {r.ours} {r.result} {r.text()}" for r in records]
    path.write_text("\n".join(lines) + "\n")


# -- runs --------------------------------------------------------------------------


def make_ours(args: argparse.Namespace, budget: float | None) -> Player:
    if args.brain:
        return Brain(args.brain, budget or 1.0)
    if args.nodes:
        ours: Player = FixedNodes(args.nodes, args.without)
    else:
        ours = Library("impossible", args.time_limit, args.threads)
    if args.memory is not None:  # as the brain's max_memory: the table takes what is left
        engine = ours.engine if isinstance(ours, FixedNodes) else api.engine(GAME)
        assert isinstance(engine, GomokuEngine)
        engine.configure(memory=args.memory)
        ours.name += f", {engine.memory_use() / 2**20:.1f} MiB"
    return ours


def make_opponent(spec: str, args: argparse.Namespace, benches: dict[str, GomokuBench]) -> Player:
    if spec.startswith("rapfi-"):
        return RapfiPlayer(spec, args.rapfi)
    if "bench" not in benches:
        benches["bench"] = GomokuBench(args.gomokubench_python)
    return BenchPlayer(spec, benches["bench"])


def run_matches(args: argparse.Namespace, budget: float | None) -> list[GameRecord]:
    rules, _ = api.resolve(GAME)
    ours = make_ours(args, budget)
    benches: dict[str, GomokuBench] = {}
    results: dict[str, list[GameRecord] | str] = {}
    everything: list[GameRecord] = []
    rng = random.Random(args.seed)
    pairs = (args.games + 1) // 2
    if args.balanced is not None:
        openings = balanced_openings(rng, args, pairs)
    else:
        openings = [random_opening(rng, args.opening_stones) for _ in range(pairs)]
    for spec in args.opponents:
        try:
            opponent = make_opponent(spec, args, benches)
        except (OpponentMissing, EngineError) as error:
            print(f"{spec}: missing ({error})", file=sys.stderr)
            results[spec] = str(error)
            continue
        records: list[GameRecord] = []
        for i in range(args.games):
            colour = "x" if i % 2 == 0 else "o"
            ours.new_game()
            opponent.new_game()
            record = play_game(
                rules, ours, opponent, colour, openings[i // 2], args.seed + 1000 * i
            )
            records.append(record)
            slowest = max(record.our_times, default=0.0)
            print(
                f"{spec} game {i + 1}: ours {colour}, {record.result} ({record.reason}) in"
                f" {len(record.moves)} stones, slowest move {slowest:.2f} s: {record.text()}",
                file=sys.stderr,
                flush=True,
            )
        opponent.close()
        results[spec] = records
        everything += records
    for bench in benches.values():
        bench.close()
    ours.close()
    print(
        f"{GAME}, our side: {ours.name}; budget {budget} s a move; {args.games} games per opponent"
    )
    table(results, budget)
    return everything


class SuiteCase(NamedTuple):
    name: str
    to_move: str
    plies: int
    by: str
    winning: tuple[int, ...]
    moves: tuple[int, ...]


def load_suite(path: Path) -> list[SuiteCase]:
    """The suite's positions (format: ``tests/data/gomoku/README.md``)."""
    cases = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, to_move, plies, by, winning, *moves = line.split()
        cases.append(
            SuiteCase(
                name,
                to_move,
                int(plies),
                by,
                tuple(from_notation(m) for m in winning.split(",")),
                tuple(from_notation(m) for m in moves),
            )
        )
    return cases


def run_suite(args: argparse.Namespace, budget: float | None) -> list[GameRecord]:
    rules, _ = api.resolve(GAME)
    if not args.suite.is_file():
        print(f"no suite at {args.suite}")
        return []
    cases = load_suite(args.suite)
    ours = make_ours(args, budget)
    try:
        opponent = RapfiPlayer(args.suite_opponent, args.rapfi)
        # The defender's side of a proof: a deep search, held to 20 plies so
        # that it answers once the loss is proved.
        judge = rapfi(args.rapfi, [("timeout_match", 0), ("timeout_turn", 3000), ("max_depth", 20)])
    except (OpponentMissing, EngineError) as error:
        print(f"Rapfi: missing ({error})")
        return []
    found = won = 0
    times: list[float] = []
    records = []
    print(f"{'position':<8}{'plies':>6}{'by':>7}  {'move':<5}{'our answer':<22}{'time':>7}  game")
    for case in cases:
        ours.new_game()
        opponent.new_game()
        first = ours.move(case.moves, args.seed)
        proven = first.note.startswith("win")
        after = rules.play(position_of(rules, case.moves), first.cell)
        confirmed = first.cell in case.winning or rules.winner(after) == case.to_move
        if not proven and not confirmed:
            judge.new_game()
            reply = judge.move([*case.moves, first.cell], 30.0)
            confirmed = reply.eval is not None and reply.eval.loses
        found += proven or confirmed
        opening = [*case.moves, first.cell]
        record = play_game(rules, ours, opponent, case.to_move, opening, args.seed)
        record.opponent = case.name
        record.our_times.insert(0, first.seconds)
        record.our_notes.insert(0, first.note)
        records.append(record)
        won += record.result == "win"
        times.append(first.seconds)
        answer = first.note + ("" if proven else " (Rapfi: wins)" if confirmed else " (not a win)")
        print(
            f"{case.name:<8}{case.plies:>6}{case.by:>7}  {notation(first.cell):<5}{answer:<22}"
            f"{first.seconds:>6.2f}s  {record.result}"
            f" ({record.reason}, {len(record.moves)} stones)",
            flush=True,
        )
    opponent.close()
    judge.close()
    ours.close()
    print(
        f"\n{ours.name}, budget {budget} s; against {args.suite_opponent}: winning move found in"
        f" {found} of {len(cases)} positions, games won {won} of {len(cases)}; first moves:"
        f" median {statistics.median(times):.2f} s, slowest {max(times):.2f} s,"
        f" {over_budget(times, budget)} past the budget + 10%"
    )
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per opponent (default 2)")
    parser.add_argument(
        "--opponents",
        default=",".join(DEFAULT_OPPONENTS),
        help="comma-separated: gomokubench-LEVEL, rapfi-dN (N plies), rapfi-tMS (MS a move)",
    )
    parser.add_argument("--opening-stones", type=int, default=0, help="random opening stones")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--balanced",
        type=int,
        metavar="EVAL",
        help="keep only openings Rapfi values within EVAL of even (e.g. 300)",
    )
    parser.add_argument("--time-limit", type=float, help="our budget in seconds (the game's)")
    parser.add_argument(
        "--nodes", type=int, help="hold our side to NODES a move instead of a time budget"
    )
    parser.add_argument(
        "--threads", type=int, help="threads of our timed search (default: the engine's, 2)"
    )
    parser.add_argument("--brain", type=Path, help="play a Gomocup brain instead of the library")
    parser.add_argument(
        "--memory",
        type=int,
        help="bytes for our engine (GomokuEngine.configure, as the brain's INFO max_memory)",
    )
    parser.add_argument(
        "--without",
        default="",
        help="with --nodes: engine steps left out, comma-separated (GomokuEngine's STEPS)",
    )
    parser.add_argument("--rapfi", type=Path, default=RAPFI, help=f"(default {RAPFI})")
    parser.add_argument(
        "--gomokubench-python",
        type=Path,
        default=GOMOKUBENCH_PYTHON,
        help=f"Python of gomokubench's environment (default {GOMOKUBENCH_PYTHON})",
    )
    parser.add_argument(
        "--suite", type=Path, nargs="?", const=SUITE, help=f"replay forced wins (default {SUITE})"
    )
    parser.add_argument("--suite-opponent", default="rapfi-t1000", help="defender in --suite")
    parser.add_argument("--save", type=Path, help="write the games' moves (.sgf: as SGF)")
    parser.add_argument(
        "--rule", choices=tuple(GAMES), default="freestyle", help="rule set (default freestyle)"
    )
    args = parser.parse_args(argv)
    global GAME
    GAME = GAMES[args.rule]
    args.without = tuple(step for step in args.without.split(",") if step)
    if args.without and not args.nodes:
        parser.error("--without is for an engine held to --nodes")
    args.opponents = [s.strip() for s in args.opponents.split(",") if s.strip()]
    if args.rule != "freestyle":
        args.opponents = [s for s in args.opponents if not s.startswith("gomokubench")]
        if args.suite:
            parser.error("--suite holds freestyle positions: not with --rule")
    for spec in [*args.opponents, args.suite_opponent]:
        if not valid_spec(spec):
            parser.error(f"unknown opponent {spec!r}")
    if not args.suite_opponent.startswith("rapfi-"):
        parser.error("--suite-opponent must be a Rapfi setting (rapfi-dN or rapfi-tMS)")
    if args.games < 0 or not 0 <= args.opening_stones <= 49:
        parser.error("--games must be >= 0 and --opening-stones 0-49")
    if args.balanced is not None and (args.balanced < 0 or args.opening_stones == 0):
        parser.error("--balanced takes a value of 0 or more, with --opening-stones")
    if args.time_limit is not None and args.time_limit <= 0:
        parser.error("--time-limit must be positive")
    if args.threads is not None and (args.threads < 1 or args.brain or args.nodes):
        parser.error("--threads must be at least 1, and is not used with --brain or --nodes")
    if args.nodes is not None and (args.nodes <= 0 or args.brain or args.time_limit):
        parser.error("--nodes must be positive, and is not used with --brain or --time-limit")
    budget = args.time_limit if args.time_limit is not None else api.default_time_limit(GAME)
    try:
        records = run_suite(args, budget) if args.suite else run_matches(args, budget)
    except OpponentMissing as error:
        print(f"missing: {error}", file=sys.stderr)
        return 2
    if args.save:
        save(args.save, records, "unbeatable")
        print(f"games written to {args.save}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
