"""The ``unbeatable`` command: Typer parses, Rich renders, the library decides.

Commands print human-readable output by default and one JSON object with
``--json``; reading positions from standard input (``-``) writes JSON Lines.
Errors are one line on stderr and exit code 2 (see :func:`unbeatable.cli.main`).
Games are named as the library names them (any letter case); everything shown
about a game comes from its description. Rich is imported only by the
commands that draw something.
"""

from __future__ import annotations

import json
import math
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from unbeatable import __version__, api
from unbeatable.api import Algorithm, Cutoff, GameError, Level, get_game
from unbeatable.cli.book import book_app, use_book
from unbeatable.cli.common import NAMING, GameArg, UsageProblem, console, duration
from unbeatable.cli.progress import searching
from unbeatable.web import LogLevel

if TYPE_CHECKING:
    from unbeatable.api import Game

app = typer.Typer(
    name="unbeatable",
    help="Two-player board games played perfectly, with every move's value explained.",
    no_args_is_help=True,
    # --install-completion and --show-completion (bash, zsh, fish, PowerShell);
    # 'unbeatable completion SHELL' prints the script for a packager or a dotfile.
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(book_app, name="book")
cache_app = typer.Typer(
    help="The compiled engines' cache, in your user cache folder ('cache path' says where)."
)
app.add_typer(cache_app, name="cache")

#: Longest stretch of a bad input line echoed back in its error object.
ECHO_LIMIT = 100


class First(StrEnum):
    me = "me"
    ai = "ai"


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"unbeatable {__version__}\n")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Two-player board games played perfectly, with every move's value explained."""


JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
NoBook = Annotated[
    bool,
    typer.Option(
        "--no-book",
        help="Search every value without the game's opening book (a proof from scratch; "
        "for benchmarks). Games without a book are searched the same.",
    ),
]
BookFile = Annotated[
    Path | None,
    typer.Option(
        "--book",
        metavar="PATH",
        help="Answer early positions from this opening book file (built by 'book build' "
        "for the same board) instead of the board's shipped one (only 7x6 ships one).",
    ),
]
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


def _echo(line: str) -> str:
    """A bad input line as its error object shows it: cut short if long."""
    if len(line) <= ECHO_LIMIT:
        return line
    return f"{line[:ECHO_LIMIT]}... ({len(line):,} characters)"


def _each_stdin_line(handle: Any) -> int:
    """Answer one position per stdin line with one JSON line; a bad line gets
    ``{"position", "error"}`` and the run goes on. Exit code 2 if any line was bad.

    Lines are read as bytes and decoded leniently, so bytes that are not
    UTF-8 become U+FFFD: the output is always valid UTF-8 JSON."""
    bad = False
    write = sys.stdout.write
    try:
        for raw in sys.stdin.buffer:
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            try:
                data = handle(line)
            except GameError as exc:
                bad = True
                message = str(exc)
                if len(line) > ECHO_LIMIT:
                    message = f"{message} (the line has {len(line):,} characters)"
                data = {"position": _echo(line), "error": message[: ECHO_LIMIT * 5]}
            write(json.dumps(data) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader has had enough (| head): not an error
        from unbeatable.cli import _quiet_exit

        _quiet_exit()
    return 2 if bad else 0


def _timed(time_limit: float | None) -> bool:
    """Whether a search had a time budget (``--time-limit inf`` is none)."""
    return time_limit is not None and not math.isinf(time_limit)


@app.command()
def analyze(
    name: GameArg,
    position: Annotated[
        str, typer.Argument(help="The position in the game's notation; '-' reads stdin.")
    ],
    json_: JsonOption = False,
    algorithm: Annotated[
        Algorithm | None,
        typer.Option(help="Engine to use (default: the fastest exact one for the game)."),
    ] = None,
    time_limit: TimeLimit = None,
    no_book: NoBook = False,
    book_file: BookFile = None,
) -> None:
    """Value of a position and of every legal move (exact unless --time-limit)."""
    game = get_game(name)
    alg = None if algorithm is None else algorithm.value
    book = not no_book
    use_book(game, book_file, no_book)

    def run(text: str) -> dict[str, Any]:
        return api.analyze(game, text, algorithm=alg, time_limit=time_limit, book=book).to_dict()

    if position == "-":
        raise typer.Exit(_each_stdin_line(run))
    game, pos = api.resolve(game, position)
    api.warm(game, alg)  # compiling (once after an install) is no part of the search
    with searching(game, time_limit is None) as progress:
        analysis = api.analyze(
            game, pos, algorithm=alg, time_limit=time_limit, book=book, progress=progress
        )
    if json_:
        _json_line(analysis.to_dict())
        return
    from rich.text import Text

    from unbeatable.cli import render

    out = console()
    if api.describe(game) is not None:
        hints = render.hint_notes(game, pos, analysis)
        out.print(render.board(game, pos, hints, render.winning_cells(game, pos)))
    out.print(render.summary(analysis, timed=_timed(time_limit)))
    if analysis.moves:
        out.print(render.moves_table(analysis))
    out.print(
        Text(f"{render.counted(analysis.nodes, 'node')} in {analysis.time_ms} ms", style="dim")
    )


@app.command()
def solve(
    name: GameArg,
    position: Annotated[
        str, typer.Argument(help="The position in the game's notation; '-' reads stdin.")
    ],
    json_: JsonOption = False,
    weak: Annotated[
        bool, typer.Option("--weak", help="Only win/draw/loss, not how fast: faster.")
    ] = False,
    time_limit: TimeLimit = None,
    no_book: NoBook = False,
    book_file: BookFile = None,
) -> None:
    """Value of a position for the side to move (exact unless --time-limit)."""
    game = get_game(name)
    book = not no_book
    use_book(game, book_file, no_book)

    def run(text: str) -> dict[str, Any]:
        return api.solve(game, text, weak=weak, time_limit=time_limit, book=book).to_dict()

    if position == "-":
        raise typer.Exit(_each_stdin_line(run))
    _, pos = api.resolve(game, position)  # a bad position is refused before anything compiles
    # Compiling (once after an install) is no part of the search; a value the
    # opening book holds needs neither.
    api.warm(game, value_of=pos)
    with searching(game, time_limit is None) as progress:
        solution = api.solve(
            game, position, weak=weak, time_limit=time_limit, book=book, progress=progress
        )
    if json_:
        _json_line(solution.to_dict())
        return
    from rich.text import Text

    from unbeatable.cli import render

    out = console()
    if api.status(game, solution.position).over:  # as analyze says it
        out.print(
            Text(f"{solution.position!r}: {render.game_over(solution.result, solution.to_move)}")
        )
    else:
        # The words every face uses ("win in 3"; the unit is the ply).
        value = api.value_words(solution.result, solution.plies)
        score = "" if solution.score is None else f", score {solution.score}"
        why = render.unproven_because(_timed(time_limit))
        proven = "" if solution.exact else f" (not proven: {why})"
        out.print(
            Text(f"{solution.position!r}: {solution.to_move} to move, {value}{score}{proven}")
        )
    nodes = render.counted(solution.nodes, "node")
    out.print(Text(f"{nodes} in {solution.time_ms} ms", style="dim"))


@app.command()
def perft(
    name: GameArg,
    position: Annotated[
        str | None, typer.Argument(help="Start position (default: the initial one).")
    ] = None,
    depth: Annotated[
        int | None,
        typer.Option(
            min=0,
            help="Count the lines of exactly this many plies, as chess engines do "
            "(default: every complete game, for games small enough).",
        ),
    ] = None,
    json_: JsonOption = False,
) -> None:
    """Count games and positions, to prove the move generator right."""
    game, pos = api.resolve(get_game(name), position)
    start = time.perf_counter()
    if depth is not None:
        found, seconds = _count_leaves(game, pos, depth)
        elapsed = round(seconds * 1000, 3)
        data: dict[str, Any] = {"game": game.name, "position": game.format(pos)}
        data.update({"depth": depth, "leaves": found, "time_ms": elapsed})
        if json_:
            _json_line(data)
        else:
            sys.stdout.write(f"depth {depth}: {found:,} leaves ({elapsed} ms)\n")
        return
    try:
        result = api.perft(game, pos)
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    elapsed = round((time.perf_counter() - start) * 1000, 3)
    data = {"game": game.name, "position": game.format(pos), **result.to_dict()}
    data["time_ms"] = elapsed
    if json_:
        _json_line(data)
        return
    lines = [f"games      {result.games:>10,}"]
    for who, n in sorted(result.outcomes.items()):
        label = "draws" if who == "draw" else f"{who} wins"
        lines.append(f"  {label:<8} {n:>10,}")
    lines.append(f"positions  {result.positions:>10,}  (distinct, reachable)")
    lines.append(f"terminal   {result.terminal:>10,}")
    lines.append(f"({elapsed} ms)")
    sys.stdout.write("\n".join(lines) + "\n")


#: ``perft --depth`` refuses a count it expects to take longer than this
#: (seconds), as counting whole games refuses games too large, and says
#: how long a count it expects to take over :data:`PERFT_NOTE` seconds.
PERFT_SECONDS = 120.0
PERFT_NOTE = 10.0


def _count_leaves(game: Game[Any, Any], pos: Any, depth: int) -> tuple[int, float]:
    """``perft --depth``'s count and the seconds it took. A count expected
    to take over :data:`PERFT_SECONDS` from the shallower counts' pace
    (:func:`unbeatable.api.perft_forecast`) is refused with the estimate,
    unless the whole tree is small (:func:`unbeatable.api.perft_small_tree`);
    one expected over :data:`PERFT_NOTE` is announced."""
    expected = api.perft_forecast(game, pos, depth)
    if expected is not None:
        last = expected.probe
        pace = f"depth {last.depth} took {last.seconds:.2f} s here"
        if expected.seconds > PERFT_SECONDS and not api.perft_small_tree(game, pos):
            raise UsageProblem(
                f"--depth {depth}: about {expected.lines:.1e} lines, about "
                f"{duration(expected.seconds)} to count ({pace}, each ply "
                f"{expected.growth:.1f} times longer); depth {expected.reach(PERFT_SECONDS)} "
                f"or less takes under {PERFT_SECONDS / 60:g} minutes"
            )
        if expected.seconds > PERFT_NOTE:
            sys.stderr.write(
                f"unbeatable: counting to depth {depth} takes about "
                f"{duration(expected.seconds)} ({pace}); Ctrl-C stops\n"
            )
            sys.stderr.flush()
    start = time.perf_counter()
    found = api.perft_leaves(game, pos, depth)
    return found, time.perf_counter() - start


@app.command(context_settings={"ignore_unknown_options": True})
def tree(
    leaves: Annotated[
        list[str],
        typer.Argument(
            metavar="LEAVES... | GAME [POSITION]",
            help="Leaf scores left to right (a power of two of them, negative ones too), "
            "or one nested JSON list such as '[[3,5],[2,[9,1]]]'; or a game and a "
            "position, for the tree below it.",
        ),
    ],
    alphabeta: Annotated[
        bool, typer.Option("--alphabeta", help="Walk it with alpha-beta: mark what it prunes.")
    ] = False,
    depth: Annotated[int, typer.Option(min=0, help="Plies below a game position.")] = 2,
    cutoff: Annotated[
        Cutoff,
        typer.Option(
            help="Value the positions at the depth limit exactly (by the engine) or by "
            "the game's evaluation function, as depth-limited search does.",
        ),
    ] = Cutoff.exact,
    json_: JsonOption = False,
) -> None:
    """Minimax on a tree: the textbook example, or the tree below a position."""
    from unbeatable.cli import render

    algorithm = "alphabeta" if alphabeta else "minimax"
    if not _looks_like_leaves(leaves[0]):
        if len(leaves) > 2:
            raise UsageProblem("give a game and at most one position (or only leaf scores)")
        position = leaves[1] if len(leaves) > 1 else ""
        traced = api.tree(
            get_game(leaves[0]), position, depth=depth, algorithm=algorithm, cutoff=cutoff.value
        )
    else:
        if cutoff is not Cutoff.exact:
            raise UsageProblem("--cutoff is for a game position: leaf scores are given")
        nested = len(leaves) == 1 and leaves[0].lstrip().startswith("[")
        traced = api.textbook_tree(leaves[0] if nested else leaves, algorithm)
    if json_:
        _json_line(traced.to_dict())
        return
    out = console()
    if traced.game is None:  # the textbook's answer first: the root's value
        out.print(render.number(traced.root.score))
    out.print(render.traced_tree(traced))
    out.print(f"[dim]{render.tree_summary(traced)}[/dim]")


def _looks_like_leaves(first: str) -> bool:
    """Whether ``tree``'s first argument starts a tree of leaf scores (a number
    or a JSON list) rather than naming a game."""
    text = first.strip()
    if text.startswith("["):
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


@app.command()
def review(
    name: GameArg,
    moves: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="MOVES...",
            help="The game's moves from the empty position, in the game's notation: "
            "separate words, or one quoted string separated by spaces.",
        ),
    ] = None,
    json_: JsonOption = False,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            min=0.001,
            help="Seconds for each position (default: the game's own budget; 'inf' "
            "proves every value, however long).",
        ),
    ] = None,
    total: Annotated[
        float,
        typer.Option(
            min=0.001,
            help="Seconds for the whole review, shared out among the positions "
            "('inf': no bound).",
        ),
    ] = api.REVIEW_TOTAL,
) -> None:
    """Look back on a game: each move's value before and after it, the mistakes,
    and the move that decided the game."""
    game = get_game(name)
    listed = [word for text in moves or [] for word in text.replace(",", " ").split()]
    result = api.review(game, listed, time_limit=time_limit, total=total)
    if json_:
        _json_line(result.to_dict())
        return
    from rich.text import Text

    from unbeatable.cli import render

    out = console()
    if api.describe(game) is not None:
        pos = api.resolve(game, None)[1]
        for text in listed:
            pos = api.play_move(game, pos, text)
        out.print(render.board(game, pos, highlight=render.winning_cells(game, pos)))
    for reviewed in result.moves:
        line = Text(f"{reviewed.ply:>3}. {reviewed.player}  ")
        line.append(reviewed.words, style="bold red" if reviewed.mistake else "")
        if reviewed.mistake:
            line.append("  (mistake)", style="red")
        out.print(line)
    out.print(Text(result.summary))


@app.command()
def play(
    name: Annotated[
        str, typer.Argument(metavar="[GAME]", help=f"Which game: {NAMING}.")
    ] = "tictactoe",
    as_: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar="SIDE",
            help="Your side: one of the game's two players, by its mark (in tic-tac-toe "
            "x, who moves first, or o).",
        ),
    ] = None,
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
    book_file: BookFile = None,
) -> None:
    """Play against the AI in the terminal (a move, ? for a hint, u undo, q quit)."""
    from unbeatable.cli.play import Match

    game = get_game(name)
    if api.describe(game) is None:
        raise UsageProblem(f"{game.name} has no board to play on in the terminal")
    use_book(game, book_file)
    opener, second = game.players
    if as_ is None:
        human = opener if first in (None, First.me) else second
    else:
        wanted_side = as_.strip().lower()
        found = [player for player in game.players if player.lower() == wanted_side]
        if not found:
            raise UsageProblem(
                f"--as {as_}: {game.name}'s players are {opener} and {second} "
                f"({opener} moves first)"
            )
        human = found[0]
        if first is not None and (first is First.me) != (human == opener):
            wanted = opener if first is First.me else second
            raise UsageProblem(
                f"{opener} always moves first, so --as {human} --first {first.value} "
                f"cannot both hold: to {'move first' if first is First.me else 'let the AI open'}"
                f", play --as {wanted}"
            )
    Match(game, human, level, seed, explain).run()


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to bind (loopback by default).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port (0: any free one).")] = 8000,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    log_level: Annotated[
        LogLevel,
        typer.Option(
            help="The web server's (uvicorn's) log: warnings and errors by default; info "
            "adds its start-up, shut-down and a line per request."
        ),
    ] = LogLevel.warning,
) -> None:
    """Serve the browser game and the HTTP API."""
    from unbeatable.web import serve as run_server

    try:
        run_server(host=host, port=port, workers=workers, log_level=log_level.value)
    except KeyboardInterrupt:
        # Ctrl+C is how a server stops: uvicorn shuts down, then raises the
        # signal again; nothing was interrupted that the user did not mean.
        raise typer.Exit(130) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UsageProblem(f"cannot listen on {host} port {port}: {reason}") from None


@app.command()
def brain(
    prepare: Annotated[
        bool,
        typer.Option(
            "--prepare",
            help="Compile the engines' kernels into numba's cache now and exit "
            "(once after an install: the first match then starts warm).",
        ),
    ] = False,
) -> None:
    """Play Gomoku tournaments: the Gomocup protocol on stdin and stdout (as pbrain-unbeatable)."""
    from unbeatable.brain import run

    raise typer.Exit(run(["--prepare"] if prepare else []))


@app.command()
def warm(
    names: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[GAME]...",
            help="The games whose engines to get ready (default: every game the page offers).",
        ),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Engines compiled at once, each in a process of its own (default: one per core).",
        ),
    ] = None,
) -> None:
    """Compile the engines ahead (once after an install or an update: a minute or two), so
    that no game's first search waits for it."""
    import os

    chosen = [get_game(name) for name in names] if names else [
        get_game(name) for name in api.offered(loadable=True)
    ]
    # Games of one rules type share their kernels: they are readied in turn,
    # in one process, so that no kernel is compiled twice at once.
    kinds: dict[type, list[str]] = {}
    for game in chosen:
        kinds.setdefault(type(game), []).append(game.name)
    workers = min(jobs or os.cpu_count() or 1, len(kinds))
    err = sys.stderr
    if workers <= 1:
        for game in chosen:
            start = time.monotonic()
            err.write(f"{game.name}: ")
            err.flush()
            did = api.warm(game, note=False)
            seconds = time.monotonic() - start
            err.write(f"ready ({seconds:.1f} s)\n" if did else "ready (nothing to compile)\n")
            err.flush()
    else:
        _warm_apart(list(kinds.values()), workers)
    sys.stdout.write(f"compiled engines are kept in {api.cache_dir()}\n")


def _warm_apart(groups: list[list[str]], workers: int) -> None:
    """Each group of games readied by ``unbeatable warm --jobs 1`` in a process
    of its own, ``workers`` at once: compiling holds a process's interpreter,
    so threads would take turns. Each process's lines are shown as it ends."""
    import subprocess
    from concurrent.futures import ThreadPoolExecutor

    def ready(group: list[str]) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "unbeatable", "warm", "--jobs", "1", *group]
        return subprocess.run(command, capture_output=True, text=True, check=False)

    failed = None
    with ThreadPoolExecutor(workers) as pool:
        for done in pool.map(ready, groups):
            sys.stderr.write(done.stderr)
            sys.stderr.flush()
            failed = failed or (done.returncode or None)
    if failed:
        raise typer.Exit(failed)


@cache_app.command("path")
def cache_path() -> None:
    """Print where the compiled engines are kept, and their size."""
    files, size = api.cache_size()
    sys.stdout.write(f"{api.cache_dir()}\n")
    sys.stdout.flush()
    sys.stderr.write(f"{files:,} files, {size / 1e6:.1f} MB\n")


@cache_app.command("clear")
def cache_clear() -> None:
    """Remove the compiled engines (the next search, or 'unbeatable warm', compiles them
    again). Run it before uninstalling to leave nothing behind."""
    files, size = api.clear_cache()
    sys.stdout.write(f"removed {files:,} files ({size / 1e6:.1f} MB) from {api.cache_dir()}\n")


class Shell(StrEnum):
    """The shells ``completion`` writes a script for."""

    bash = "bash"
    zsh = "zsh"
    fish = "fish"


@app.command()
def completion(
    shell: Annotated[Shell, typer.Argument(help="bash, zsh or fish.")],
) -> None:
    """Print the shell's completion script for unbeatable (commands, options, game names):
    save it where the shell reads completions, e.g. 'unbeatable completion bash >
    ~/.local/share/bash-completion/completions/unbeatable'."""
    from typer._completion_shared import get_completion_script

    script = get_completion_script(
        prog_name="unbeatable", complete_var="_UNBEATABLE_COMPLETE", shell=shell.value
    )
    sys.stdout.write(script + "\n")
