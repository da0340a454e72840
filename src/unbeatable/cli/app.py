"""The ``unbeatable`` command: Typer parses, Rich renders, the library decides.

Commands print human-readable output by default and one JSON object with
``--json``; reading positions from standard input (``-``) writes JSON Lines.
Errors are one line on stderr and exit code 2 (see :func:`unbeatable.cli.main`).
"""

from __future__ import annotations

import json
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from unbeatable import api
from unbeatable.games import GAME_NAMES, GameError, get_game
from unbeatable.search.levels import Level

app = typer.Typer(
    name="unbeatable",
    help="Two-player board games played perfectly, with every move's value explained.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
book_app = typer.Typer(help="Opening books: precomputed perfect play for early positions.")
app.add_typer(book_app, name="book")

out = Console(highlight=False)


class UsageProblem(Exception):
    """A user error found by a command itself (reported like a usage error)."""


class GameName(StrEnum):
    tictactoe = "tictactoe"
    connect4 = "connect4"


class AlgorithmName(StrEnum):
    minimax = "minimax"
    alphabeta = "alphabeta"
    negamax = "negamax"


class Side(StrEnum):
    x = "x"
    o = "o"


class First(StrEnum):
    me = "me"
    ai = "ai"


assert tuple(GameName) == GAME_NAMES, "GameName must list every registered game"

JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
TimeLimit = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        min=0.001,
        help="Seconds the search may take ('inf': no limit, the default); the answer "
        "says exact=false if it ran out.",
    ),
]


def _json_line(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data) + "\n")


def _each_stdin_line(handle: Any) -> int:
    """Answer one position per stdin line with one JSON line; a bad line gets
    ``{"position", "error"}`` and the run goes on. Exit code 2 if any line was bad."""
    bad = False
    write = sys.stdout.write
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        try:
            data = handle(line)
        except GameError as exc:
            bad = True
            data = {"position": line, "error": str(exc)}
        write(json.dumps(data) + "\n")
    sys.stdout.flush()
    return 2 if bad else 0


@app.command()
def analyze(
    game: Annotated[GameName, typer.Argument(help="Which game.")],
    position: Annotated[
        str, typer.Argument(help="The position in the game's notation; '-' reads stdin.")
    ],
    json_: JsonOption = False,
    algorithm: Annotated[
        AlgorithmName | None,
        typer.Option(help="Engine to use (default: the fastest exact one)."),
    ] = None,
    time_limit: TimeLimit = None,
) -> None:
    """Value of a position and of every legal move (exact unless --time-limit)."""
    limit = time_limit
    alg = None if algorithm is None else algorithm.value

    def run(text: str) -> dict[str, Any]:
        return api.analyze(game.value, text, algorithm=alg, time_limit=limit).to_dict()

    if position == "-":
        raise typer.Exit(_each_stdin_line(run))
    rules, pos = api.resolve(game.value, position)
    analysis = api.analyze(rules, pos, algorithm=alg, time_limit=limit)
    if json_:
        _json_line(analysis.to_dict())
        return
    from unbeatable.cli import render

    out.print(render.board(rules, pos, render.hint_notes(rules, pos, analysis), _line(rules, pos)))
    out.print(render.summary(analysis))
    if analysis.moves:
        out.print(render.moves_table(analysis))
    out.print(Text(f"{analysis.nodes:,} nodes in {analysis.time_ms} ms", style="dim"))


def _line(rules: Any, pos: Any) -> tuple[int, ...]:
    line = rules.winning_line(pos)
    return tuple(line or ())


@app.command()
def solve(
    game: Annotated[GameName, typer.Argument(help="Which game.")],
    position: Annotated[
        str, typer.Argument(help="The position in the game's notation; '-' reads stdin.")
    ],
    json_: JsonOption = False,
    weak: Annotated[
        bool, typer.Option("--weak", help="Only win/draw/loss, not how fast: faster.")
    ] = False,
    time_limit: TimeLimit = None,
) -> None:
    """Value of a position for the side to move (exact unless --time-limit)."""
    limit = time_limit

    def run(text: str) -> dict[str, Any]:
        return api.solve(game.value, text, weak=weak, time_limit=limit).to_dict()

    if position == "-":
        raise typer.Exit(_each_stdin_line(run))
    solution = run(position)
    if json_:
        _json_line(solution)
        return
    value = solution["result"]
    if solution["plies"] is not None and value in ("win", "loss"):
        value += f" in {solution['plies']} plies"
    score = "" if solution["score"] is None else f", score {solution['score']}"
    proven = "" if solution["exact"] else " (not proven: the time budget ran out)"
    out.print(f"{solution['position']!r}: {solution['to_move']} to move, {value}{score}{proven}")
    out.print(Text(f"{solution['nodes']:,} nodes in {solution['time_ms']} ms", style="dim"))


@app.command()
def perft(
    game: Annotated[GameName, typer.Argument(help="Which game.")],
    position: Annotated[
        str | None, typer.Argument(help="Start position (default: the initial one).")
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Count every possible game, its outcomes, and the distinct positions."""
    from unbeatable.search.perft import perft as count

    rules, pos = api.resolve(game.value, position)
    start = time.perf_counter()
    try:
        result = count(rules, pos)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    elapsed = round((time.perf_counter() - start) * 1000, 3)
    data = {"game": rules.name, "position": rules.format(pos), **result.to_dict()}
    data["time_ms"] = elapsed
    if json_:
        _json_line(data)
        return
    out.print(f"games      {result.games:>10,}")
    for who, n in sorted(result.outcomes.items()):
        label = "draws" if who == "draw" else f"{who} wins"
        out.print(f"  {label:<8} {n:>10,}")
    out.print(f"positions  {result.positions:>10,}  (distinct, reachable)")
    out.print(f"terminal   {result.terminal:>10,}")
    out.print(Text(f"{elapsed} ms", style="dim"))


@app.command()
def tree(
    leaves: Annotated[
        list[str],
        typer.Argument(
            help="Leaf scores left to right (a power of two of them), or one nested "
            "JSON list such as '[[3,5],[2,[9,1]]]'."
        ),
    ],
    alphabeta: Annotated[
        bool, typer.Option("--alphabeta", help="Mark the leaves alpha-beta never visits.")
    ] = False,
    json_: JsonOption = False,
) -> None:
    """Minimax over an explicit tree of leaf scores: the textbook example."""
    from unbeatable.cli import render
    from unbeatable.games.tree import ExplicitTree, parse_leaf, tree_from_json, tree_from_leaves
    from unbeatable.search.minimax import alphabeta as run_alphabeta
    from unbeatable.search.minimax import minimax

    if len(leaves) == 1 and leaves[0].lstrip().startswith("["):
        shape = tree_from_json(leaves[0])
    else:
        shape = tree_from_leaves([parse_leaf(leaf) for leaf in leaves])
    rules = ExplicitTree(shape)
    values: dict[tuple[int, ...], float] = {}
    value, stats = minimax(rules, (), on_node=lambda p, v: values.__setitem__(p, v))
    visited: set[tuple[int, ...]] = set()
    ab_stats = None
    if alphabeta:
        _, ab_stats = run_alphabeta(rules, (), on_node=lambda p, _v: visited.add(p))
    if json_:
        data: dict[str, Any] = {"value": value, "nodes": stats.nodes}
        if ab_stats is not None:
            leaves_all = [p for p in values if rules.is_terminal(p)]
            data["alphabeta"] = {
                "nodes": ab_stats.nodes,
                "cutoffs": ab_stats.cutoffs,
                "pruned_leaves": [list(p) for p in leaves_all if p not in visited],
            }
        _json_line(data)
        return
    out.print(render.number(value))
    out.print(render.game_tree(rules, values, visited.__contains__ if alphabeta else None))
    line = f"minimax visited {stats.nodes} nodes"
    if ab_stats is not None:
        pruned = sum(1 for p in values if rules.is_terminal(p) and p not in visited)
        line += (
            f"; alpha-beta visited {ab_stats.nodes} with {ab_stats.cutoffs} cut-offs, "
            f"never looking at {pruned} {'leaf' if pruned == 1 else 'leaves'}"
        )
    out.print(Text(line, style="dim"))


@app.command()
def play(
    game: Annotated[GameName, typer.Argument(help="Which game.")] = GameName.tictactoe,
    as_: Annotated[Side | None, typer.Option("--as", help="Your mark (x moves first).")] = None,
    first: Annotated[First | None, typer.Option("--first", help="Who moves first.")] = None,
    level: Annotated[Level, typer.Option("--level", help="How strong the AI is.")] = (
        Level.impossible
    ),
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed the easier levels' mistakes.")
    ] = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="After each AI move, show every move's value.")
    ] = False,
) -> None:
    """Play against the AI in the terminal (a move, ? for a hint, u undo, q quit)."""
    from unbeatable.cli.play import Match

    rules = get_game(game.value)
    opener = rules.players[0]
    if as_ is None:
        human = opener if first in (None, First.me) else rules.players[1]
    else:
        human = as_.value
        if first is not None and (first is First.me) != (human == opener):
            raise UsageProblem(
                f"{opener} always moves first, so --as {human} --first {first.value} "
                f"cannot both hold: to let the AI open, play --as {rules.players[1]}"
            )
    Match(rules, human, level, seed, explain).run()


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind (loopback by default).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port.")] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
) -> None:
    """Serve the browser game and the HTTP API."""
    from unbeatable.web import serve as run_server

    run_server(host=host, port=port, workers=workers)


@book_app.command("build")
def book_build(
    game: Annotated[GameName, typer.Argument(help="Which game (connect4).")],
    plies: Annotated[int, typer.Option(min=0, max=42, help="Depth of the book in plies.")],
    out_file: Annotated[Path, typer.Option("--out", help="Book file to write (and resume).")],
    workers: Annotated[
        int | None, typer.Option(min=1, help="Local worker processes (default: all cores).")
    ] = None,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Address of an existing Ray cluster.")
    ] = None,
    root: Annotated[
        str,
        typer.Option(help="Only positions reachable from this move sequence (a sub-book)."),
    ] = "",
) -> None:
    """Solve every position of the first N plies and save them as a book."""
    if game is not GameName.connect4:
        raise UsageProblem(f"no opening book for {game.value}: it is solved instantly")
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from unbeatable.solvers.connect4.book import build_book

    with Progress(
        TextColumn("solving"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    ) as progress:
        task = progress.add_task("book", total=None)

        def report(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        try:
            stats = build_book(
                plies, out_file, workers=workers, ray_address=ray, progress=report, root=root
            )
        except ValueError as exc:  # bad plies or root, a corrupt checkpoint
            raise UsageProblem(str(exc)) from None
    out.print(
        f"wrote {stats.path}: {stats.positions:,} positions up to {stats.plies} plies "
        f"({stats.searched:,} searched, {stats.resumed:,} from the checkpoint) "
        f"in {stats.seconds:.1f} s, {stats.bytes:,} bytes"
    )
