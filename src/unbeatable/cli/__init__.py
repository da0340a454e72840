"""Command-line face of the library: ``unbeatable`` (see :mod:`unbeatable.cli.app`).

:func:`main` turns every user error into one line on stderr and exit code 2,
never a traceback: Click's usage errors, the library's :class:`GameError`
(bad positions and moves) and the commands' own :class:`UsageProblem`. A bug
is reported in one line too, with exit code 1.
"""

from __future__ import annotations

import os
import sys


def _fail(message: str, code: int = 2) -> None:
    first_line = " ".join(message.split())
    sys.stderr.write(f"unbeatable: error: {first_line}\n")
    raise SystemExit(code)


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


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``unbeatable`` console script."""
    import typer

    from unbeatable.cli.app import UsageProblem, app
    from unbeatable.games.base import GameError

    command = typer.main.get_command(app)
    try:
        code = command.main(
            args=sys.argv[1:] if argv is None else argv,
            prog_name="unbeatable",
            standalone_mode=False,
        )
    except typer.Abort:
        sys.stderr.write("\n")
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
        sys.stderr.write("\n")
        raise SystemExit(130) from None
    except Exception as exc:  # a bug: say so in one line (UNBEATABLE_DEBUG=1 shows the traceback)
        if os.environ.get("UNBEATABLE_DEBUG"):
            raise
        _fail(f"internal error ({type(exc).__name__}: {exc}); please report it", code=1)
    raise SystemExit(code if isinstance(code, int) else 0)
