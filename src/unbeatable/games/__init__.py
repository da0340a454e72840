"""Game rules: positions, legal moves, winners and notation. No search, no I/O.

Games are looked up by name with :func:`get_game` (any letter case): the named
games (``tictactoe``, ``connect4``, ``gomoku``, ``renju``) and the families
written ``FAMILY:PARAMETERS`` (``mnk:ROWS,COLS,K``, the m,n,k-games: ``mnk:4,4,4``
is 4x4 with four in a row; ``mnk:3,3,3`` is tic-tac-toe itself;
``connect4:COLUMNS,ROWS``, Connect Four on any board that fits 64 bits:
``connect4:6,5``; ``connect4:7,6`` is ``connect4`` itself; and
``gomoku:RULE[,SIZE]``, Gomoku's rule sets ``freestyle``, ``standard`` and
``renju`` on 15x15 to 22x22: ``gomoku:standard,19``; ``gomoku:freestyle,15`` is
``gomoku`` and ``gomoku:renju,15`` is ``renju``). Each module is
imported only when its game is first asked for, so ``import unbeatable`` stays
light. A game is one module: every face follows from its description.

Other distributions add games through Python's standard plug-in mechanism,
the entry-point group ``unbeatable.games`` (:data:`GROUP`): an entry named
``hexapawn`` whose value is ``module:factory`` is a named game (the factory
takes no argument), one named ``hexapawn:COLUMNS,ROWS`` is a family (the
factory takes the text after the colon; the name says how to write it). The
entry points are read only when a name is not built in or the game list is
needed, and a plug-in's module is imported only when its game is asked for.
A broken plug-in (its module does not import, its factory raises, its name
clashes with a built-in game) is left out of every game list (:func:`plugins`,
:func:`game_names`, :func:`offered`, :func:`naming`) and its reason reported
once, in one line on the ``unbeatable.games`` logger (a warning: stderr unless
logging is configured), when a list is first made; the other games keep
working. Asking for it by name raises :class:`UnknownGameError` with the same
reason, word for word (so a face that has shown the warning need not say it
again).
"""

from __future__ import annotations

import logging
import threading
from functools import lru_cache
from importlib import import_module
from typing import Any, NamedTuple

from unbeatable.games.base import (
    Description,
    Game,
    GameError,
    IllegalMoveError,
    InvalidPositionError,
    Side,
    StaticEvaluation,
    UnknownGameError,
)

#: name -> (module, factory) of every named game.
_NAMED: dict[str, tuple[str, str]] = {
    "tictactoe": ("unbeatable.games.mnk", "tictactoe"),
    "connect4": ("unbeatable.games.connect4", "connect4"),
    "gomoku": ("unbeatable.games.gomoku", "gomoku"),
    "renju": ("unbeatable.games.gomoku", "renju"),
}
#: family -> (module, factory taking the parameter text, what the parameters are).
_FAMILIES: dict[str, tuple[str, str, str]] = {
    "mnk": ("unbeatable.games.mnk", "mnk_game", "mnk:ROWS,COLS,K"),
    "connect4": ("unbeatable.games.connect4", "connect4_game", "connect4:COLUMNS,ROWS"),
    "gomoku": ("unbeatable.games.gomoku", "gomoku_game", "gomoku:RULE[,SIZE]"),
}

#: The built-in games the faces offer in their game choices: the named ones
#: and a few of each family (any other member can still be asked for by name).
_BUILT_IN_OFFERED: tuple[str, ...] = (
    "tictactoe",
    "connect4",
    "connect4:6,5",
    "connect4:8,7",
    "gomoku",
    "gomoku:standard,15",
    "renju",
    "mnk:4,4,4",
    "mnk:5,5,4",
)

#: The entry-point group where other distributions name their games.
GROUP = "unbeatable.games"
#: Where broken plug-ins are reported (one line each, once per process).
log = logging.getLogger("unbeatable.games")

# Names computed from the registry and the installed plug-ins on each access
# (module ``__getattr__`` below), never frozen at import. The bare
# annotations tell type checkers what they are without defining them.
#: The named games, built-in first, then the plug-ins'.
GAME_NAMES: tuple[str, ...]
#: The games the faces offer (:func:`offered`).
OFFERED: tuple[str, ...]
#: How to name any game, for help texts and error messages (:func:`naming`).
NAMING: str


class Plugin(NamedTuple):
    """A game another distribution registered in :data:`GROUP`."""

    #: The registry name of a named game, or the family of a family.
    name: str
    #: How to write a family's members (``hexapawn:COLUMNS,ROWS``); None for
    #: a named game.
    form: str | None
    #: Where its factory is: ``module:attribute``.
    value: str
    #: The distribution that registered it, for messages (``foo 1.0``).
    origin: str


class _Plugins(NamedTuple):
    named: dict[str, Plugin]
    families: dict[str, Plugin]


_lock = threading.Lock()
#: Problems already reported, so that each is said once per process.
_reported: set[str] = set()
#: A plug-in's name as listed (``hexapawn``, ``hexapawn:COLUMNS,ROWS``) -> why it
#: cannot serve (tried once per process).
_broken: dict[str, str] = {}


def _report(problem: str, level: int = logging.WARNING) -> None:
    """Say ``problem`` once, in one line, and go on (a warning, unless
    ``level`` says it is only a note)."""
    line = " ".join(problem.split())
    with _lock:
        if line in _reported:
            return
        _reported.add(line)
    log.log(level, "%s", line)


def _entry_points() -> list[Any]:
    """The installed entry points of :data:`GROUP` (importlib.metadata is
    imported here, only when a game list or a plug-in's name is needed: it
    costs more than the rest of ``import unbeatable``)."""
    from importlib.metadata import entry_points

    return list(entry_points(group=GROUP))


def _origin(entry: Any) -> str:
    dist = getattr(entry, "dist", None)
    if dist is None:
        return "an unnamed distribution"
    return f"{dist.name} {dist.version}"


@lru_cache(maxsize=1)
def _entries() -> _Plugins:
    """The plug-in games registered, read once per process (see :func:`refresh`),
    none of them loaded: what asking for one by name needs. Entries that cannot
    be games (a name clashing with a built-in game or an earlier plug-in, a
    value that names no factory) are reported and left out."""
    named: dict[str, Plugin] = {}
    families: dict[str, Plugin] = {}
    for entry in _entry_points():
        origin = _origin(entry)
        raw = str(entry.name)
        name = normalise(raw)
        family, colon, parameters = name.partition(":")
        what = f"plug-in game {raw!r} ({origin})"
        if not family or (colon and not parameters):
            _report(f"{what} is skipped: a name is GAME or FAMILY:PARAMETERS")
            continue
        if ":" not in str(entry.value) or not str(entry.value).partition(":")[2]:
            _report(f"{what} is skipped: its value {entry.value!r} is not 'module:factory'")
            continue
        built_in = family in _FAMILIES if colon else name in _NAMED
        taken = families if colon else named
        if built_in or family in taken:
            other = "a built-in game" if built_in else f"the one from {taken[family].origin}"
            _report(f"{what} is skipped: its name clashes with {other}")
            continue
        form = "".join(raw.split()) if colon else None  # as written: COLUMNS,ROWS
        taken[family] = Plugin(family, form, str(entry.value), origin)
    return _Plugins(named, families)


@lru_cache(maxsize=1)
def plugins() -> _Plugins:
    """The plug-in games installed that work, found once per process (see
    :func:`refresh`): every game list is made of these. Each named game is
    made (its module imported, its factory called and its answer checked), each
    family's factory looked up (a member needs its parameters to be made); one
    that fails is reported once, with the reason :func:`get_game` gives, and
    left out."""
    found = _entries()
    named = {}
    for name, plugin in found.named.items():
        try:
            _load(name)
        except UnknownGameError as exc:
            _report(str(exc))
            continue
        named[name] = plugin
    families = {}
    for family, plugin in found.families.items():
        try:
            _factory(plugin)
        except UnknownGameError as exc:
            _report(str(exc))
            continue
        families[family] = plugin
    return _Plugins(named, families)


def refresh() -> None:
    """Read the installed plug-ins again and forget the games loaded (for
    tests that install or fake one in a running process)."""
    _entries.cache_clear()
    plugins.cache_clear()
    _load.cache_clear()
    with _lock:
        _broken.clear()
        _reported.clear()


def is_built_in(name: str) -> bool:
    """Whether ``name`` (registry spelling) is a built-in game or a member of
    a built-in family: answered without reading any plug-in."""
    family, colon, _ = name.partition(":")
    return family in _FAMILIES if colon else name in _NAMED


def game_names() -> tuple[str, ...]:
    """The named games: built-in, then the plug-ins'."""
    return (*_NAMED, *plugins().named)


def offered(*, loadable: bool = False) -> tuple[str, ...]:
    """The games the faces offer: the built-in ones, then every named plug-in
    game that works (:func:`plugins`). With ``loadable``, those with no board
    to show are reported once and left out too: what a face that draws them
    (the page) can list."""
    names = (*_BUILT_IN_OFFERED, *plugins().named)
    if not loadable:
        return names
    kept = []
    for name in names:
        if is_built_in(name):
            kept.append(name)
            continue
        try:
            _load(name).describe()
        except UnknownGameError:
            continue  # reported by _load
        except NotImplementedError:
            # A game may have no board (PLUGINS.md): a note, not a problem.
            note = f"plug-in game {name!r} has no board to show (no describe()): not offered"
            _report(note, logging.INFO)
            continue
        except Exception as exc:  # a plug-in's bug must not take the list down
            _report(f"plug-in game {name!r} is skipped: describe() failed: {_words(exc)}")
            continue
        kept.append(name)
    return tuple(kept)


def naming() -> str:
    """How to name any game, for help texts and error messages: the built-in
    games and families, then the plug-ins'."""
    found = plugins()
    built_in = (*_NAMED, *(form for _, _, form in _FAMILIES.values()))
    forms = (plugin.form for plugin in found.families.values() if plugin.form)
    return ", ".join((*built_in, *found.named, *forms))


def __getattr__(name: str) -> Any:
    if name == "OFFERED":
        return offered()
    if name == "NAMING":
        return naming()
    if name == "GAME_NAMES":
        return game_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def normalise(name: str) -> str:
    """The registry spelling of a game name: lower case, no spaces."""
    return "".join(name.split()).lower()


def get_game(name: str) -> Game[Any, Any]:
    """The rules object registered as ``name`` (any letter case); raises
    :class:`UnknownGameError` naming the games there are (or why a plug-in
    game could not be loaded)."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name must be a string (known games: {naming()})")
    return _load(normalise(name))


def _words(exc: BaseException) -> str:
    """An exception in one short line: its type and message."""
    text = " ".join(str(exc).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@lru_cache(maxsize=64)
def _load(name: str) -> Game[Any, Any]:
    if name in _NAMED:
        module, factory = _NAMED[name]
        game: Game[Any, Any] = getattr(import_module(module), factory)()
        return game
    family, _, parameters = name.partition(":")
    if family in _FAMILIES and parameters:
        module, factory, _form = _FAMILIES[family]
        member: Game[Any, Any] = getattr(import_module(module), factory)(parameters)
        return member
    found = _entries()
    plugin = found.families.get(family) if parameters else found.named.get(name)
    if plugin is not None:
        return _load_plugin(name, plugin, parameters or None)
    shown = name if len(name) <= 40 else name[:37] + "..."
    raise UnknownGameError(f"unknown game {shown!r} (known games: {naming()})")


def _factory(plugin: Plugin) -> Any:
    """A plug-in's factory, its module imported. A failure is the whole
    plug-in's: it is remembered (tried once per process) and raised as
    :class:`UnknownGameError` naming the plug-in as the lists would
    (``'hexapawn:COLUMNS,ROWS'`` for a family)."""
    shown = plugin.form or plugin.name
    with _lock:
        problem = _broken.get(shown)
    if problem is None:
        module, _, attribute = plugin.value.partition(":")
        try:
            factory: Any = import_module(module.strip())
            for part in attribute.strip().split("."):
                factory = getattr(factory, part)
        except Exception as exc:
            problem = (
                f"plug-in game {shown!r} ({plugin.origin}) cannot be loaded: "
                f"{plugin.value}: {_words(exc)}"
            )
        else:
            if callable(factory):
                return factory
            problem = (
                f"plug-in game {shown!r} ({plugin.origin}) cannot be loaded: "
                f"{plugin.value} is not callable"
            )
        with _lock:
            problem = _broken.setdefault(shown, problem)
    raise UnknownGameError(problem)


def _load_plugin(name: str, plugin: Plugin, parameters: str | None) -> Game[Any, Any]:
    """A plug-in's game, made by its factory. A failure to import it or to
    make it is raised as :class:`UnknownGameError` with the reason (the
    caller says it: an error, or a list's warning); a family member's bad
    parameters are the factory's :class:`GameError`, raised as it is (the
    user's mistake, not the plug-in's)."""
    factory = _factory(plugin)
    what = f"plug-in game {name!r} ({plugin.origin})"
    try:
        game = factory(parameters) if parameters is not None else factory()
    except GameError:
        raise
    except Exception as exc:
        problem = f"{what} cannot be made: its factory raised {_words(exc)}"
        whole = parameters is None  # a family's bad member breaks no other
    else:
        misfit = _misfit(game, name, plugin)
        if misfit is None:
            own = normalise(game.name)
            if own != name:  # a member that is a named game (hexapawn:3,3 is hexapawn)
                return _load(own)
            made: Game[Any, Any] = game
            return made
        problem, whole = misfit, True
    if whole:
        with _lock:
            problem = _broken.setdefault(plugin.form or plugin.name, problem)
    raise UnknownGameError(problem)


#: What search and the faces call on every game (the protocol's required methods).
_REQUIRED = (
    "initial", "parse", "format", "to_move", "moves", "play", "winner", "is_terminal", "key",
    "parse_move", "format_move", "move_fields",
)  # fmt: skip


def _misfit(game: Any, name: str, plugin: Plugin) -> str | None:
    """Why a plug-in factory's answer cannot serve as game ``name``, or None."""
    what = f"plug-in game {name!r} ({plugin.origin})"
    missing = [method for method in _REQUIRED if not callable(getattr(game, method, None))]
    if missing or not isinstance(getattr(game, "players", None), tuple):
        lacks = ", ".join(missing) if missing else "players"
        return f"{what} cannot be made: its factory answered no Game (it lacks {lacks})"
    own = getattr(game, "name", None)
    if not isinstance(own, str):
        return f"{what} cannot be made: its game has no name"
    own = normalise(own)
    if plugin.form is None:
        fits = own == name
    else:  # a member is named in the family, or is one of the named games of its distribution
        named = _entries().named.get(own)
        fits = own.startswith(f"{plugin.name}:") or (
            named is not None and named.origin == plugin.origin
        )
    if not fits:
        return f"{what} cannot be made: its game is named {own!r}, not {name!r}"
    return None


def describe_all(names: tuple[str, ...] | None = None) -> list[Description]:
    """The descriptions of ``names`` (default: every offered game that can be
    drawn, plug-ins included), in order."""
    chosen = offered(loadable=True) if names is None else names
    return [get_game(name).describe() for name in chosen]


__all__ = [
    "GAME_NAMES",
    "GROUP",
    "NAMING",
    "OFFERED",
    "Description",
    "Game",
    "GameError",
    "IllegalMoveError",
    "InvalidPositionError",
    "Plugin",
    "Side",
    "StaticEvaluation",
    "UnknownGameError",
    "describe_all",
    "game_names",
    "get_game",
    "is_built_in",
    "naming",
    "normalise",
    "offered",
    "plugins",
    "refresh",
]
