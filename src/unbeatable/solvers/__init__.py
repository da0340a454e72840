"""Specialised solvers, each beside the game it serves, and the engine policy.

The registry says, for a game's name, which engine serves it, whether it is
exact and what budget it needs: :func:`specialised_engine` returns the game's
registered fast solver, if it has one (the library falls back to the generic
negamax otherwise), :func:`policy` whether every query is solved exactly and
how many seconds a query may search by default, :func:`book_builder` the
function that builds its opening book, if it uses one, and :func:`use_book`
attaches a book file to the game's engine. The rules (games/)
know none of this: a rule never depends on how fast an engine is. Solver
modules are imported only when first used (they may load numba).

Every Connect Four board (``connect4`` and the ``connect4:COLUMNS,ROWS``
family) gets the same bitboard solver, compiled for its shape, and the
same book builder; only the standard board's book ships with the package.
The m,n,k family picks its engine and its budget together, by the board, in
one place (:func:`mnk_plan`): tic-tac-toe's 9 cells stay with the generic
negamax (the textbook engines' game), boards of 10-31 cells get the exact
bitboard solver (it proves any of their positions within a move's budget),
boards of 32-36 cells with k of 4 or more the exact solver first and the
k-in-a-row engine when a budget runs short of the proof, and bigger boards
with k of 4 or more the k-in-a-row engine of threat search and
principal-variation search. What is left (k of 3 or less past 36 cells, a
won game within a few plies) is the generic negamax's.

A plug-in game (see :mod:`unbeatable.games`) may bring its own engine through
the entry-point group ``unbeatable.engines`` (:data:`ENGINE_GROUP`): an entry
named as the game (``hexapawn``), or as its family (``hexapawn:COLUMNS,ROWS``
serves every member), whose value ``module:factory`` takes the game's rules
and returns an :class:`~unbeatable.search.engine.Engine`. The engine's
``policy`` attribute, if it has one, is the game's :class:`Policy` (else
:data:`PLUGIN_POLICY`, a budget: a plug-in game is never searched without
end). Built-in games never read these entries; a broken one is
reported once, in one line, and the game keeps the generic engine.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import Any, NamedTuple

from unbeatable.search.engine import Engine

#: game name -> (module, factory) of its specialised engine.
_SOLVERS: dict[str, tuple[str, str]] = {}
#: The Connect Four solver's factory, which takes the board's rules.
_CONNECT4_SOLVER = ("unbeatable.solvers.connect4.engine", "connect4_engine")
#: game name -> (module, function) that builds its opening book.
_BOOKS: dict[str, tuple[str, str]] = {}
#: What builds every Connect Four board's book (it takes the board's rules).
_CONNECT4_BOOKS = ("unbeatable.solvers.connect4.book_builder", "build_book")


class Policy(NamedTuple):
    """How the engines serve a game: exactly at once, or within a budget."""

    #: Whether every query is solved exactly, fast, with no time budget.
    exact: bool
    #: Seconds a query may search by default (None: no limit, always exact).
    time_limit: float | None


#: Games that negamax solves exactly in microseconds once warm (tic-tac-toe),
#: and games with no budget of their own (the examples, textbook trees): no
#: budget, every answer exact.
EXACT = Policy(exact=True, time_limit=None)
#: game name -> its policy, for the named games that need a budget.
_POLICIES: dict[str, Policy] = {}
#: The budget of a Connect Four query, on every board.
_CONNECT4_POLICY = Policy(exact=False, time_limit=2.0)
#: What a plug-in game gets when neither it nor an engine of its own says
#: otherwise: a budget, so that no query of a game nobody has measured can
#: search without end (a small game is still answered exactly within it).
PLUGIN_POLICY = Policy(exact=False, time_limit=2.0)

#: Boards of at most this many cells (tic-tac-toe's) stay with the generic
#: negamax, which solves them exactly at once.
NEGAMAX_CELLS = 9
#: Boards of at most this many cells are the exact m,n,k engine's alone: it
#: proves their positions within a move's budget (from the empty board, every
#: board of 26-31 cells with k of 4 or more in about 2 million nodes at most,
#: 4x7 the slowest; two rows of 15 with k = 3 take 25 million, seconds:
#: ``benchmarks/mnk_exact.py --past``).
EXACT_MNK_CELLS = 31
#: Boards of at most this many cells fit the exact engine's kernel (its
#: base-3 keys' width; ``exact.MAX_CELLS``): past :data:`EXACT_MNK_CELLS`
#: some of their proofs take minutes or far more, so with k of 4 or more a
#: timed query falls back on the k-in-a-row engine (``ProofFirstEngine``),
#: and a query with no budget searches on to the proof.
EXACT_KERNEL_CELLS = 36
#: The smallest k the k-in-a-row engine plays (it plays any k from there:
#: past 6 it reads lines off the board instead of its pattern tables).
K_IN_A_ROW_FROM = 4
#: Default budget of a query on an m,n,k board past :data:`NEGAMAX_CELLS`, in
#: seconds.
MNK_TIME_LIMIT = 2.0
#: Default budget on boards the k-in-a-row engine alone plays (past
#: :data:`EXACT_KERNEL_CELLS`): a strong player answers within a second.
GOMOKU_TIME_LIMIT = 1.0
#: The m,n,k engines: (module, factory taking the game's rules).
_EXACT = ("unbeatable.solvers.mnk.exact", "ExactEngine")
_PROOF_FIRST = ("unbeatable.solvers.mnk.proof_first", "ProofFirstEngine")
_K_IN_A_ROW = ("unbeatable.solvers.mnk.engine", "GomokuEngine")


class Plan(NamedTuple):
    """How an m,n,k board is served: its engine and its policy, decided
    together (:func:`mnk_plan`)."""

    #: (module, factory) of the specialised engine; None: the generic negamax.
    engine: tuple[str, str] | None
    policy: Policy


def plays_k_in_a_row(k: int) -> bool:
    """Whether the k-in-a-row engine plays boards of ``k`` in a row."""
    return k >= K_IN_A_ROW_FROM


def mnk_plan(game: Any) -> Plan:
    """The engine and the policy of an m,n,k board (an ``MNKGame``): the one
    place both are decided, so that they never disagree."""
    cells, k = game.size, game.k
    if cells <= NEGAMAX_CELLS:
        return Plan(None, EXACT)
    timed = Policy(exact=False, time_limit=MNK_TIME_LIMIT)
    if cells <= EXACT_MNK_CELLS:
        return Plan(_EXACT, timed)
    if cells <= EXACT_KERNEL_CELLS:
        return Plan(_PROOF_FIRST if plays_k_in_a_row(k) else _EXACT, timed)
    if plays_k_in_a_row(k):
        return Plan(_K_IN_A_ROW, Policy(exact=False, time_limit=GOMOKU_TIME_LIMIT))
    return Plan(None, timed)


def _mnk_game(name: str) -> Any:
    """The m,n,k rules object registered as ``name``, or None (another game,
    or no game at all)."""
    if name not in ("gomoku", "renju", "tictactoe") and not name.startswith(("mnk:", "gomoku:")):
        return None
    from unbeatable.games import GameError, get_game
    from unbeatable.games.mnk import MNKGame

    try:
        game = get_game(name)
    except GameError:
        return None
    return game if isinstance(game, MNKGame) else None


def _is_connect4(name: str) -> bool:
    """Whether ``name`` is a Connect Four board (the family's members checked
    by the game registry, which raises nothing here for a bad one)."""
    if name == "connect4":
        return True
    if not name.startswith("connect4:"):
        return False
    from unbeatable.games import GameError, get_game

    try:
        get_game(name)
    except GameError:
        return False
    return True


def _mnk_solver(name: str) -> tuple[str, str] | None:
    """(module, class) of the engine of an m,n,k game, or None (negamax)."""
    game = _mnk_game(name)
    return None if game is None else mnk_plan(game).engine


#: The entry-point group where plug-ins register engines for their games.
ENGINE_GROUP = "unbeatable.engines"


def _plugin_entry(name: str) -> Any | None:
    """The ``unbeatable.engines`` entry serving plug-in game ``name`` (by its
    name, else by its family), or None. Never read for a built-in game."""
    from unbeatable.games import is_built_in

    if is_built_in(name):
        return None
    return _plugin_entries().get(name) or _plugin_entries().get(name.partition(":")[0] + ":")


@cache
def _plugin_entries() -> dict[str, Any]:
    """Installed engine entries: a game's name, or ``family:`` for a family."""
    from importlib.metadata import entry_points

    from unbeatable.games import normalise

    found: dict[str, Any] = {}
    for entry in entry_points(group=ENGINE_GROUP):
        family, colon, _ = normalise(str(entry.name)).partition(":")
        found.setdefault(family + colon, entry)
    return found


@cache
def _plugin_engine(name: str) -> Engine | None:
    """The engine a plug-in registered for game ``name``, made once; None if
    there is none or it cannot be made (reported once, in one line)."""
    entry = _plugin_entry(name)
    if entry is None:
        return None
    from unbeatable.games import _report, _words, get_game

    try:
        made: Engine = entry.load()(get_game(name))
    except Exception as exc:  # a plug-in's bug must not take the game down
        _report(
            f"plug-in engine {str(entry.value)!r} for {name!r} cannot be made "
            f"({_words(exc)}); the generic engine serves it"
        )
        return None
    return made


def policy(name: str) -> Policy:
    """Game ``name``'s engine policy: whether every query is exact and the
    default budget (:data:`EXACT` for a game the registry does not know)."""
    if name in _POLICIES:
        return _POLICIES[name]
    if _is_connect4(name):
        return _CONNECT4_POLICY
    game = _mnk_game(name)
    if game is None:  # a plug-in's engine may say its own
        own = getattr(_plugin_engine(name), "policy", None)
        if own is not None:
            return Policy(*own)
        return PLUGIN_POLICY if _is_plugin_game(name) else EXACT
    return mnk_plan(game).policy


def _is_plugin_game(name: str) -> bool:
    """Whether ``name`` is a game an installed plug-in registered (a game
    object passed to the api, Nim say, or a textbook tree is none)."""
    from unbeatable.games import is_built_in, plugins

    if is_built_in(name):
        return False
    found = plugins()
    family, colon, _ = name.partition(":")
    return family in found.families if colon else name in found.named


def _solver(name: str) -> tuple[str, str, bool] | None:
    """(module, factory, whether it takes the game) of game ``name``'s solver."""
    if name in _SOLVERS:
        return (*_SOLVERS[name], False)
    if _is_connect4(name):
        return (*_CONNECT4_SOLVER, True)
    found = _mnk_solver(name)
    if found is not None:
        return (*found, True)
    return None


@cache
def specialised_engine(name: str) -> Engine | None:
    """The process-wide specialised engine of game ``name``, or None."""
    found = _solver(name)
    if found is None:
        return _plugin_engine(name)
    module, factory, takes_game = found
    make = getattr(import_module(module), factory)
    if takes_game:
        from unbeatable.games import get_game

        engine: Engine = make(get_game(name))
    else:
        engine = make()
    return engine


def has_specialised_engine(name: str) -> bool:
    """Whether game ``name`` has a specialised solver (without importing it,
    unless a plug-in's engine must be made to know)."""
    return _solver(name) is not None or _plugin_engine(name) is not None


def book_builder(name: str) -> Callable[..., Any] | None:
    """The function that builds game ``name``'s opening book, or None.

    It takes the plies, the output path and the builder's options; a
    Connect Four board's also takes ``game=`` (the board's rules: the
    standard board's if not given)."""
    if name in _BOOKS:
        module, function = _BOOKS[name]
    elif _is_connect4(name):
        module, function = _CONNECT4_BOOKS
    else:
        return None
    builder: Callable[..., Any] = getattr(import_module(module), function)
    return builder


def use_book(name: str, book: Any) -> Any:
    """Make game ``name``'s process-wide engine answer from ``book`` (a book
    file's path, a book object, or None for none) and return the book.

    Raises ValueError if the game's engine takes no book, if the file is not
    a book of the game's board (or not a book at all), OSError if it cannot
    be read. Answers stay the same; only their speed changes."""
    engine = specialised_engine(name)
    attach = getattr(engine, "use_book", None)
    if attach is None:
        raise ValueError(f"{name} has no opening book: its engine takes none")
    return attach(book)


__all__ = [
    "ENGINE_GROUP",
    "EXACT",
    "Plan",
    "Policy",
    "book_builder",
    "has_specialised_engine",
    "mnk_plan",
    "plays_k_in_a_row",
    "policy",
    "specialised_engine",
    "use_book",
]
