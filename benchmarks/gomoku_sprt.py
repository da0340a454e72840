"""Decide whether a change to the Gomoku engine makes it stronger: games
between two versions, stopped by a sequential probability ratio test.

This is how the engines that lead computer chess and Gomoku keep a change
(Stockfish's fishtest, Rapfi's own testing): the new version plays the old
one over paired openings, each opening once with either version as black,
and a sequential test decides as soon as the games say enough.

* **Versions** (``--base``, ``--test``): a git revision (``HEAD``, ``main~3``,
  a commit) exported to a temporary folder, or ``.`` for the working tree as
  it is (uncommitted changes included). Either may carry settings of the
  engine's modules after an ``@``: ``.@kernel.WIDTH=16,engine.VCT_DEPTH=8``
  sets ``unbeatable.solvers.mnk.kernel.WIDTH`` and so on before the first
  search, so two configurations of one revision can be compared. Each
  version runs in processes of its own, with a compile cache of its own.
* **Budget**: ``--nodes N`` a move (the default: the engine's
  ``solve_nodes``, which answers the same on any machine under any load, so
  every game replays exactly) or ``--ms T`` of time a move. Each move is
  searched from an empty transposition table, unless ``--keep-table``: then
  each version keeps its table from its last move of the same game, as in
  play (held to nodes, the games still replay exactly).
* **Openings**: ``benchmarks/data/gomoku_openings_<rule>.txt``, balanced
  positions of three to five stones (made by ``gomoku_openings.py``: Rapfi's
  value of each is within a bound of even), taken in order from ``--offset``.
  Each opening is played twice, colours swapped: a *pair*.
* **Every core**: ``--concurrency`` games at once (default: one per core);
  each slot keeps one process per version.
* **The test**: the generalised SPRT on pair scores (the pentanomial model
  fishtest uses), H0: the test version is ``--elo0`` stronger, H1: ``--elo1``
  (logistic Elo), error rates ``--alpha`` and ``--beta``. It stops when the
  log-likelihood ratio leaves its bounds, after ``--max-pairs``, or when
  stopped: Ctrl-C, or SIGTERM for a test running in the background (whose
  shell ignores Ctrl-C for it); the pairs being played are finished first.

It prints the running count, then the verdict with the Elo estimate and its
95% error bar, and a row for the table in ``benchmarks/README.md`` ("Gomoku:
tests that decide").

    python benchmarks/gomoku_sprt.py --base HEAD --test . --nodes 20000
    python benchmarks/gomoku_sprt.py --base HEAD --test HEAD@kernel.WIDTH=16 --elo1 10
    python benchmarks/gomoku_sprt.py --base main~1 --test main --ms 200 --game renju
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
#: Seconds a version may take for one move (beyond its budget) before the
#: game is lost on time: a hung or crashed engine loses, the run goes on.
MOVE_TIMEOUT = 120.0

# -- the sequential test ----------------------------------------------------------


def expected_score(elo: float) -> float:
    """A player's expected score against another ``elo`` points weaker."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """The logistic Elo difference that gives an expected ``score``."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


#: A pair's score for the test version (its two games' points over two) by
#: how many points of the two it took: 0, 0.5, 1, 1.5 or 2.
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass
class Sprt:
    """The generalised SPRT over pair results (pentanomial counts)."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    #: How many pairs ended with the test version taking 0, 0.5, 1, 1.5, 2 points.
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)

    @property
    def bounds(self) -> tuple[float, float]:
        """Accept H0 at or below the first, H1 at or above the second."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    def mean_and_variance(self) -> tuple[float, float]:
        """The mean pair score and the variance of one pair's score."""
        n = self.pairs
        if n == 0:
            return 0.5, 0.0
        mean = sum(c * s for c, s in zip(self.pentanomial, PAIR_SCORES, strict=True)) / n
        var = sum(c * (s - mean) ** 2 for c, s in zip(self.pentanomial, PAIR_SCORES, strict=True))
        return mean, var / n

    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0 (the normal
        approximation of the generalised SPRT, as fishtest computes it)."""
        mean, var = self.mean_and_variance()
        if self.pairs < 2 or var <= 0:
            return 0.0
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return self.pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def verdict(self) -> str | None:
        """``"H1"`` (keep the change), ``"H0"`` (do not), or None (play on)."""
        low, high = self.bounds
        llr = self.llr()
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return None

    def elo(self) -> tuple[float, float, float]:
        """The Elo estimate and its 95% interval (from the pairs' spread)."""
        mean, var = self.mean_and_variance()
        if self.pairs == 0:
            return 0.0, -math.inf, math.inf
        margin = 1.96 * math.sqrt(var / self.pairs)
        return elo_of(mean), elo_of(mean - margin), elo_of(mean + margin)


# -- versions of the engine in processes of their own ------------------------------


def parse_settings(text: str) -> tuple[tuple[str, str], ...]:
    """``kernel.WIDTH=16,engine.VCT_DEPTH=8``: (name, value) pairs, values
    as written (each read as JSON where it is applied)."""
    settings = []
    for item in filter(None, text.split(",")):
        name, eq, value = item.partition("=")
        if not eq or "." not in name:
            raise SystemExit(f"bad setting {item!r}: write module.NAME=VALUE")
        settings.append((name.strip(), value.strip()))
    return tuple(settings)


def apply_settings(settings: Sequence[Sequence[str]]) -> None:
    """Set the engine's module constants (``unbeatable.solvers.mnk.<module>``)
    before its first search; a name this version lacks stops the run."""
    import importlib

    for name, value in settings:
        module_name, _, attribute = name.rpartition(".")
        module = importlib.import_module(f"unbeatable.solvers.mnk.{module_name}")
        if not hasattr(module, attribute):
            raise SystemExit(f"unbeatable.solvers.mnk.{name} does not exist in this version")
        setattr(module, attribute, type(getattr(module, attribute))(json.loads(value)))


class Spec(NamedTuple):
    """A version: a revision (``.``: the working tree) and module settings."""

    revision: str
    settings: tuple[tuple[str, str], ...]

    @classmethod
    def parse(cls, text: str) -> Spec:
        revision, _, rest = text.partition("@")
        return cls(revision.strip() or ".", parse_settings(rest))

    def __str__(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in self.settings)
        return self.revision + (f"@{extra}" if extra else "")


def source_of(revision: str, scratch: Path) -> Path:
    """The ``src`` folder of ``revision``: the working tree's, or an export
    of the commit (``git archive``) under ``scratch``."""
    if revision == ".":
        return ROOT / "src"
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{revision}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if commit.returncode != 0:
        raise SystemExit(f"no git revision {revision!r}: {commit.stderr.strip()}")
    sha = commit.stdout.strip()
    where = scratch / sha[:12]
    if not where.exists():
        where.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", sha, "src"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where / "src"


class Worker:
    """One process playing one version (this file run with ``--serve``)."""

    def __init__(
        self, spec: Spec, source: Path, game: str, cache: Path, log: Path, memory: int = 0
    ) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(source)
        env["NUMBA_CACHE_DIR"] = str(cache)
        settings = json.dumps(list(spec.settings))
        self.spec = spec
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", game, settings, str(memory)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("a"),
            text=True,
            env=env,
        )
        self.log = log
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def ready(self, timeout: float) -> bool:
        """Wait for the version to compile its kernels (before any clock runs)."""
        try:
            return self.lines.get(timeout=timeout) == "ready"
        except queue.Empty:
            return False

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def move(self, moves: Sequence[int], budget: str, timeout: float) -> int | None:
        """The version's move after ``moves``, or None (no answer in time, or dead)."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(f"move {budget} {','.join(map(str, moves))}\n")
            self.process.stdin.flush()
            line = self.lines.get(timeout=timeout)
        except (OSError, queue.Empty):
            return None
        if line is None or not line.lstrip("-").isdigit():
            return None
        return int(line)

    def error(self) -> str:
        """What a dead worker last printed, in brackets ("" while it lives)."""
        if self.process.poll() is None:
            return ""
        lines = self.log.read_text(errors="replace").strip().splitlines()
        return f"({lines[-1]})" if lines else f"(exit code {self.process.returncode})"

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def continues(moves: Sequence[str], last: Sequence[str]) -> bool:
    """Whether ``moves`` go on from the game of the ``last`` search: with
    ``--keep-table`` only then is the table kept (a new game, or the other
    colour of a pair, starts from an empty one)."""
    return len(moves) > len(last) and list(moves[: len(last)]) == list(last)


def serve(game_name: str, settings_json: str, memory: int = 0) -> int:
    """The worker's side: answer ``move BUDGET CELLS`` lines with a cell.

    ``BUDGET`` is ``n<nodes>`` or ``t<ms>`` (``k`` before it: the table kept
    within a game); ``memory``, bytes for the engine (0: its default). Runs
    under the version's own ``src`` (PYTHONPATH), so every import is that
    version's."""
    # Ctrl-C is the test's to handle: it stops the count and closes its
    # workers (a worker it killed mid-game would be replaced and play on).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from unbeatable.games import get_game
    from unbeatable.search.engine import Limits
    from unbeatable.solvers.mnk.engine import GomokuEngine

    apply_settings(json.loads(settings_json))
    game = get_game(game_name)
    try:  # one thread a side, as in the ladder: the test's workers share the cores
        engine = GomokuEngine(game, threads=1)
    except TypeError:  # a version from before the engine took a number of threads
        engine = GomokuEngine(game)
    if memory:
        engine.configure(memory=memory)
    warm = getattr(engine, "warm_up", None)
    if warm is not None:
        warm()
    engine.solve_nodes(game.play(game.initial(), game.size // 2), 200)  # compiles the rest
    print("ready", flush=True)
    last: list[str] = []  # the moves of this process's last search
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] != "move":
            continue
        budget, cells = words[1], words[2] if len(words) > 2 else ""
        moves = list(filter(None, cells.split(",")))
        position = game.initial()
        for cell in moves:
            position = game.play(position, int(cell))
        keep = budget.startswith("k") and continues(moves, last)
        budget, last = budget.removeprefix("k"), moves
        if budget.startswith("n"):
            nodes = int(budget[1:])
            solved = (
                engine.solve_nodes(position, nodes, keep_table=True)
                if keep
                else engine.solve_nodes(position, nodes)
            )
        else:
            if not keep:
                engine.reset()
            solved = engine.solve(position, Limits.seconds(int(budget[1:]) / 1000))
        print(solved.move if solved.move is not None else -1, flush=True)
    return 0


# -- games ----------------------------------------------------------------------


class Game(NamedTuple):
    opening: int
    #: Which version played black: "test" or "base".
    black: str
    #: The test version's points: 1, 0.5 or 0.
    points: float
    moves: tuple[int, ...]
    why: str


def load_openings(path: Path, size: int) -> list[list[int]]:
    """Openings, one a line: moves in the project's notation (``h8 i9 h10``)."""
    if not path.is_file():
        raise SystemExit(f"no opening book {path} (make one with benchmarks/gomoku_openings.py)")
    from gomoku_refs import from_notation

    openings = []
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            openings.append([from_notation(move, size) for move in line.split()])
    return openings


def play(
    rules: Any, opening: Sequence[int], black: Worker, white: Worker, budget: str
) -> tuple[str | None, tuple[int, ...], str]:
    """One game from ``opening``: the winner's colour (None: a draw), the
    moves, and how it ended."""
    position = rules.initial()
    moves: list[int] = []
    for cell in opening:
        position = rules.play(position, cell)
        moves.append(cell)
    while not rules.is_terminal(position):
        mover = black if len(moves) % 2 == 0 else white
        colour = "black" if mover is black else "white"
        other = "white" if colour == "black" else "black"
        cell = mover.move(moves, budget, MOVE_TIMEOUT)
        if cell is None:
            return other, tuple(moves), f"{colour} gave no move {mover.error()}".strip()
        if cell not in rules.moves(position):
            return other, tuple(moves), f"{colour} played an illegal move ({cell})"
        position = rules.play(position, cell)
        moves.append(cell)
    winner = rules.winner(position)
    if winner is None:
        return None, tuple(moves), "full board"
    return ("black" if winner == rules.players[0] else "white"), tuple(moves), "five"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:
        return serve(argv[1], argv[2], int(argv[3]) if len(argv) > 3 else 0)
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", default="HEAD", help="the version to beat (default HEAD)")
    parser.add_argument("--test", default=".", help="the version tried (default: the working tree)")
    parser.add_argument("--game", default="gomoku", help="gomoku, renju, gomoku:standard,15, ...")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--nodes", type=int, help="nodes a move (default 20,000)")
    budget.add_argument("--ms", type=int, help="milliseconds a move")
    parser.add_argument(
        "--keep-table",
        action="store_true",
        help="each version keeps its transposition table from its last move of the game, "
        "as in play (default: every move from an empty one)",
    )
    parser.add_argument(
        "--memory",
        type=int,
        default=0,
        help="bytes for each version's engine (GomokuEngine.configure, as a brain's max_memory; "
        "default: its own): a small table at few nodes a move loads it as a longer search would",
    )
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-pairs", type=int, default=2000, help="stop here at the latest")
    parser.add_argument("--concurrency", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--openings", type=Path, help="opening book (default: the game's rule's)")
    parser.add_argument("--offset", type=int, default=0, help="first opening to use")
    parser.add_argument("--save", type=Path, help="write every game's moves here")
    parser.add_argument(
        "--resume",
        metavar="P0,P1,P2,P3,P4",
        help="go on with an interrupted test: its pentanomial so far (give --offset the "
        "first opening it had not played: its pairs, or more for a test begun further on)",
    )
    args = parser.parse_args(argv)
    if not args.elo0 < args.elo1 or not (0 < args.alpha < 1 and 0 < args.beta < 1):
        parser.error("need elo0 < elo1 and alpha, beta between 0 and 1")
    if args.concurrency < 1 or args.max_pairs < 1:
        parser.error("--concurrency and --max-pairs must be at least 1")
    budget_word = f"t{args.ms}" if args.ms else f"n{args.nodes or 20_000}"
    budget_text = f"{args.ms} ms a move" if args.ms else f"{args.nodes or 20_000:,} nodes a move"
    if args.keep_table:
        budget_word = "k" + budget_word
        budget_text += ", the table kept from move to move"
    if args.memory < 0:
        parser.error("--memory must not be negative")
    if args.memory:
        budget_text += f", {args.memory:,} bytes an engine"

    from unbeatable.games import GameError, get_game

    try:
        rules = get_game(args.game)
    except GameError as exc:
        raise SystemExit(f"--game: {exc}") from None
    rule = str(getattr(rules, "rule", "freestyle"))
    book = args.openings or DATA / f"gomoku_openings_{rule}.txt"
    openings = load_openings(book, rules.columns)[args.offset :]
    if not openings:
        raise SystemExit(f"{book} has no openings from {args.offset} on")
    base, test = Spec.parse(args.base), Spec.parse(args.test)
    sprt = Sprt(args.elo0, args.elo1, args.alpha, args.beta)
    if args.resume:
        try:
            counts = [int(c) for c in args.resume.split(",")]
        except ValueError:
            counts = []
        if len(counts) != 5 or min(counts) < 0:
            parser.error("--resume takes five counts, as the test printed them: 62,5,344,1,93")
        played = sum(counts)
        if played > args.offset:
            # (Each pair used an opening; from an earlier one the games, held
            # to nodes, would replay and count twice.)
            parser.error(f"--resume has {played} pairs: give --offset at least {played}")
        sprt.pentanomial = counts
    scratch = Path(tempfile.mkdtemp(prefix="gomoku-sprt-"))
    sources = {"base": source_of(base.revision, scratch), "test": source_of(test.revision, scratch)}
    specs = {"base": base, "test": test}
    if args.keep_table:
        for side, source in sources.items():
            engine_py = source / "unbeatable" / "solvers" / "mnk" / "engine.py"
            if "keep_table" not in engine_py.read_text():
                raise SystemExit(
                    f"--keep-table: the {side} version ({specs[side]}) cannot keep its table "
                    "(its GomokuEngine.solve_nodes has no keep_table)"
                )
    command = "python benchmarks/gomoku_sprt.py " + " ".join(shlex.quote(a) for a in argv)
    print(
        f"{command}\n{test} against {base}, {args.game}, {budget_text}, "
        f"H0 {args.elo0:g} Elo, H1 {args.elo1:g} Elo, alpha {args.alpha:g}, beta {args.beta:g}, "
        f"{args.concurrency} at once, openings from {book.name}"
    )
    if args.resume:
        print(f"going on from {sprt.pairs} pairs {sprt.pentanomial}; W-D-L counts this run's games")

    work: queue.Queue[int] = queue.Queue()
    for i in range(min(len(openings), args.max_pairs - sprt.pairs)):
        work.put(i)
    lock = threading.Lock()
    games: list[Game] = []
    stop = threading.Event()
    wdl = [0, 0, 0]
    began = time.monotonic()

    def report() -> None:
        elo, low, high = sprt.elo()
        low_bound, high_bound = sprt.bounds
        print(
            f"pairs {sprt.pairs:4d}  games {2 * sprt.pairs:4d}  "
            f"test W-D-L {wdl[0]}-{wdl[1]}-{wdl[2]}  "
            f"pentanomial {sprt.pentanomial}  Elo {elo:+.1f} [{low:+.1f}, {high:+.1f}]  "
            f"LLR {sprt.llr():+.2f} ({low_bound:.2f}, {high_bound:.2f})  "
            f"{time.monotonic() - began:.0f} s",
            flush=True,
        )

    def spawn(side: str, index: int) -> Worker:
        log = scratch / f"{side}-{index}.log"
        cache = scratch / f"cache-{side}"
        made = Worker(specs[side], sources[side], args.game, cache, log, args.memory)
        if not made.ready(600):
            made.close()
            raise SystemExit(f"the {side} version ({specs[side]}) did not start {made.error()}")
        return made

    def slot(index: int) -> None:
        workers = {side: spawn(side, index) for side in ("base", "test")}
        try:
            while not stop.is_set():
                try:
                    i = work.get_nowait()
                except queue.Empty:
                    return
                pair: list[Game] = []
                for black in ("test", "base"):
                    white = "base" if black == "test" else "test"
                    winner, moves, why = play(
                        rules, openings[i], workers[black], workers[white], budget_word
                    )
                    if winner is None:
                        points = 0.5
                    else:
                        points = 1.0 if (winner == "black") == (black == "test") else 0.0
                    pair.append(Game(i, black, points, moves, why))
                    if "gave no move" in why or "illegal" in why:
                        for side in (black, white):
                            workers[side].close()  # hung or dead: a fresh process
                            workers[side] = spawn(side, index)
                with lock:
                    if stop.is_set():
                        return
                    games.extend(pair)
                    for g in pair:
                        wdl[0 if g.points == 1 else 1 if g.points == 0.5 else 2] += 1
                    sprt.pentanomial[int(2 * sum(g.points for g in pair))] += 1
                    report()
                    if sprt.verdict() is not None:
                        stop.set()
        finally:
            for worker in workers.values():
                worker.close()

    # Why a slot stopped before the test could (a thread's SystemExit would
    # otherwise vanish, and the run end as if the book had run out).
    failures: list[str] = []

    def guarded(index: int) -> None:
        try:
            slot(index)
        except SystemExit as failed:
            failures.append(str(failed))
            stop.set()

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # A test run in the background (where the shell ignores Ctrl-C for it) is
    # stopped by SIGTERM the same way: the count so far, and its row.
    signal.signal(signal.SIGTERM, interrupt)
    # Compile each version once before the slots start theirs from its cache.
    for side in ("base", "test"):
        spawn(side, -1).close()
    threads = [threading.Thread(target=guarded, args=(n,)) for n in range(args.concurrency)]
    for thread in threads:
        thread.start()
    interrupted = False
    try:
        while any(thread.is_alive() for thread in threads):
            for thread in threads:
                thread.join(0.2)  # (a join without a timeout would not see Ctrl-C)
    except KeyboardInterrupt:
        interrupted = True
        stop.set()
        print("stopped (Ctrl-C or SIGTERM): the count so far stands", flush=True)
        for thread in threads:
            thread.join()
    if failures:
        raise SystemExit(f"{failures[0]}; the count so far: {sprt.pentanomial}")
    verdict = sprt.verdict()
    elo, low, high = sprt.elo()
    words = {
        "H1": "H1 accepted: the test version is stronger (keep it)",
        "H0": f"H0 accepted: the test version is not {args.elo1:g} Elo stronger (do not keep it)",
        None: "undecided: "
        + (
            "stopped"
            if interrupted
            else f"--max-pairs ({args.max_pairs:,}) reached"
            if sprt.pairs >= args.max_pairs
            else "the book's openings ran out"
        )
        + " before the test could decide",
    }[verdict]
    print(
        f"{words}. {2 * sprt.pairs} games, Elo {elo:+.1f} [{low:+.1f}, {high:+.1f}] (95%), "
        f"LLR {sprt.llr():+.2f}"
    )
    print(
        f"| `{command}` | {test} vs {base} | {args.game}, {budget_text} | "
        f"{2 * sprt.pairs} | {wdl[0]}-{wdl[1]}-{wdl[2]} | {elo:+.1f} ± {(high - low) / 2:.1f} | "
        f"{sprt.llr():+.2f} | {verdict or 'undecided'} |"
    )
    if args.save:
        from gomoku_refs import notation

        with args.save.open("w") as out:
            for g in sorted(games, key=lambda g: (g.opening, g.black)):
                moves = " ".join(notation(c, rules.columns) for c in g.moves)
                out.write(
                    f"# opening {g.opening}, test {'black' if g.black == 'test' else 'white'}, "
                    f"test points {g.points}, {g.why}\n{moves}\n"
                )
    return 0 if verdict is not None else 3


if __name__ == "__main__":
    sys.exit(main())
