"""What the commands share, in their own module so that the command table
(:mod:`unbeatable.cli.app`) and the ``book`` commands (:mod:`unbeatable.cli.book`)
both take it from here: the user error a command raises, the console it draws
on, the game argument and a rough duration in words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from unbeatable import api

if TYPE_CHECKING:
    from rich.console import Console


class UsageProblem(Exception):
    """A user error found by a command itself (reported like a usage error)."""


def console(stderr: bool = False) -> Console:
    """A Rich console, imported on first use: one-shot JSON commands never pay for Rich."""
    from rich.console import Console

    return Console(highlight=False, stderr=stderr)


#: Every game's name, plug-ins included: read when the commands are defined,
#: so the help lists what is installed.
NAMING = api.naming()


def _complete_game(incomplete: str) -> list[str]:
    """The game names a shell completes (``unbeatable completion``)."""
    names = dict.fromkeys((*api.game_names(), *api.offered()))
    return [name for name in names if name.startswith(incomplete.lower())]


GameArg = Annotated[
    str,
    typer.Argument(metavar="GAME", help=f"Which game: {NAMING}.", autocompletion=_complete_game),
]


def duration(seconds: float) -> str:
    """A rough span of time in words: ``40 s``, ``8 minutes``, ``3 hours``."""
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("hours", 3600)):
        if seconds >= 2 * size:
            count = seconds / size
            return f"{count:.0e} {unit}" if count >= 1000 else f"{count:.0f} {unit}"
    return f"{seconds / 60:.0f} minutes" if seconds >= 120 else f"{seconds:.0f} s"
