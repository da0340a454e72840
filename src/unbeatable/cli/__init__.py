"""Command-line face of the library: ``unbeatable`` (see :mod:`unbeatable.cli.app`).

:func:`main` turns every user error into one line on stderr and exit code 2,
never a traceback: Click's usage errors, the library's :class:`GameError`
(bad positions and moves) and the commands' own :class:`UsageProblem`. A bug
is reported in one line too, with exit code 1.
"""

from __future__ import annotations

import os
import sys

#: ``typing`` costs milliseconds to import (the fast path avoids even Typer).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


#: The library's notes, shown on stderr while a command runs
#: (:func:`unbeatable.api.show_notes`: an engine being readied, a broken
#: plug-in left out of the game lists).
_notes: Any = None


def _show_notes() -> None:
    global _notes
    from unbeatable import api

    _notes = api.show_notes()


def _fail(message: str, code: int = 2) -> None:
    """One line on stderr and exit ``code``; nothing more if a note said the
    very same thing already (a broken plug-in named on the command line is
    reported when the game lists are made, with the reason its error gives)."""
    first_line = " ".join(message.split())
    if _notes is None or first_line not in _notes.said:
        sys.stderr.write(f"unbeatable: error: {first_line}\n")
    raise SystemExit(code)


def _interrupted() -> None:
    """Ctrl-C outside a search (which says more itself): one line, exit
    code 130, whatever was under way (an engine's kernels compiling, say)."""
    # (On a terminal, after the ^C it echoed.)
    sys.stderr.write(("\n" if sys.stderr.isatty() else "") + "unbeatable: interrupted\n")
    raise SystemExit(130)


def _quiet_exit() -> None:
    """The reader of our output has gone (``unbeatable ... | head``): stop
    quietly, with success, as command-line tools do. Standard output is
    pointed at /dev/null so that Python's final flush cannot complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - no real stdout (tests)
        pass
    raise SystemExit(0)


def _fast(args: list[str]) -> int | None:
    """Answer ``analyze|solve GAME POSITION --json`` (with ``--time-limit``,
    ``--weak`` or ``--algorithm``), and ``--version`` alone, without loading
    Typer and Rich, which take several times Python's own start-up: scripts
    call these one position at a time, and ``--version`` is what installers
    and people try first. Anything else, or anything in doubt, returns None
    and goes the full way, where the same library call makes the same answer
    (the tests compare both ways); errors too are left to the full way.
    """
    if args == ["--version"]:  # the words of the full way's eager option
        from unbeatable import __version__

        sys.stdout.write(f"unbeatable {__version__}\n")
        return 0
    if len(args) < 4 or args[0] not in ("analyze", "solve") or "--json" not in args:
        return None
    command, positional = args[0], []
    options: dict[str, str | bool] = {}
    rest = iter(args[1:])
    for arg in rest:
        name, _, value = arg.partition("=")
        if arg == "--json":
            continue
        if name in ("--time-limit", "--algorithm"):
            if not value:
                value = next(rest, "")
            options[name] = value
        elif arg == "--weak":
            options[arg] = True
        elif arg.startswith("-"):
            return None
        else:
            positional.append(arg)
    if len(positional) != 2 or positional[1] == "-":
        return None
    try:
        limit = float(options["--time-limit"]) if "--time-limit" in options else None
    except ValueError:
        return None
    if limit is not None and not limit >= 0.001:
        return None
    if command == "analyze" and "--weak" in options:
        return None
    import json

    from unbeatable import api
    from unbeatable.api import GameError

    _show_notes()

    algorithm = options.get("--algorithm")
    if algorithm not in (None, *api.ALGORITHMS) or (command == "solve" and algorithm is not None):
        return None
    game, position = positional
    try:
        # Exact on a timed game: the full way says it may take long, unless
        # the value is known at once (Connect Four's book).
        if (
            limit is None
            and api.default_time_limit(game) is not None
            and (command != "solve" or not api.knows(*api.resolve(game, position)))
        ):
            return None
        if command == "analyze":
            data = api.analyze(game, position, algorithm=algorithm, time_limit=limit).to_dict()
        else:
            data = api.solve(game, position, weak="--weak" in options, time_limit=limit).to_dict()
    except GameError as exc:
        _fail(str(exc))
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()
    return 0


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``unbeatable`` console script."""
    args = sys.argv[1:] if argv is None else argv
    try:
        code = _fast(args)
    except BrokenPipeError:
        _quiet_exit()
    except KeyboardInterrupt:  # Ctrl-C during a long exact answer: no traceback
        _interrupted()
    if code is not None:
        raise SystemExit(code)
    try:
        full(args)
    except KeyboardInterrupt:  # before Click took over (importing Typer, say)
        _interrupted()


def full(args: list[str]) -> None:
    """The whole command line through Typer: every command, help and error.

    :func:`main` answers ``analyze|solve ... --json`` without loading Typer
    (a faster start); the tests check that both ways answer alike."""
    import typer

    from unbeatable.api import GameError

    _show_notes()  # before the commands are defined: their help lists the games
    from unbeatable.cli.app import app
    from unbeatable.cli.common import UsageProblem

    command = typer.main.get_command(app)
    invoke = command.invoke

    def invoke_guarded(ctx: Any) -> Any:
        # Typer turns Ctrl-C into a silent exit code 130; say it in one line.
        try:
            return invoke(ctx)
        except KeyboardInterrupt:
            _interrupted()

    command.invoke = invoke_guarded  # type: ignore[method-assign]
    try:
        code = command.main(
            args=args,
            prog_name="unbeatable",
            standalone_mode=False,
        )
    except typer.Abort:  # Click's Ctrl-C (it has ended the line of the ^C already)
        sys.stderr.write("unbeatable: interrupted\n")
        raise SystemExit(130) from None
    except typer.TyperException as exc:  # Typer's (vendored Click) usage errors
        show = getattr(exc, "show", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and show is not None:
            show()  # bare ``unbeatable``: the help text, not an error line
            raise SystemExit(0) from None
        format_message = getattr(exc, "format_message", None)
        message = format_message() if format_message is not None else str(exc)
        # Typer checks choices with pydantic, whose wording leaks through.
        message = message.replace("Value error, ", "")
        ctx = getattr(exc, "ctx", None)
        path = ctx.command_path if ctx is not None else "unbeatable"
        _fail(f"{message} (see '{path} --help')")
    except (GameError, UsageProblem) as exc:
        _fail(str(exc))
    except BrokenPipeError:
        _quiet_exit()
    except KeyboardInterrupt:
        _interrupted()
    except Exception as exc:  # a bug: say so in one line (UNBEATABLE_DEBUG=1 shows the traceback)
        if os.environ.get("UNBEATABLE_DEBUG"):
            raise
        _fail(f"internal error ({type(exc).__name__}: {exc}); please report it", code=1)
    raise SystemExit(code if isinstance(code, int) else 0)
