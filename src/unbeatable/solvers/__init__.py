"""What serves each game: one record per game, found by the game's type.

A :class:`Service` says everything the library needs to serve a game beyond
its rules: the engine made for it (its module is imported only when the
engine is first made: it may load numba), its :class:`Policy` (whether
every query is solved exactly, and the default budget in seconds) and the
builder of its opening book, if it has one. :func:`service` finds a game's
record by the rules' type (:data:`_BY_TYPE`, walked along the class's
bases, so that ``GomokuGame`` is served as the ``MNKGame`` it is), then by
an installed plug-in's engine entry, else the generic negamax with no
budget. The rules (games/) know none of this: a rule never depends on how
fast an engine is. Engines themselves are made and kept by
:mod:`unbeatable.api` (one bounded cache for the process).

Every Connect Four board (``connect4`` and the ``connect4:COLUMNS,ROWS``
family) gets the same bitboard solver, compiled for its shape, and the
same book builder; only the standard board's book ships with the package.
An m,n,k board's engine and budget are decided together, by the board, in
one place (:func:`mnk_plan`): tic-tac-toe's 9 cells stay with the generic
negamax (the textbook engines' game), boards of 10-31 cells get the exact
bitboard solver (it proves any of their positions within a move's budget),
boards of 32-36 cells with k of 4 or more the exact solver first and the
k-in-a-row engine when a budget runs short of the proof, and bigger boards
with k of 4 or more the k-in-a-row engine of threat search and
principal-variation search. What is left (k of 3 or less past 36 cells) is
the generic negamax's, within a budget.

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

import warnings
from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from unbeatable.games.base import Game
    from unbeatable.search.engine import Engine


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
#: What a plug-in game gets when neither it nor an engine of its own says
#: otherwise: a budget, so that no query of a game nobody has measured can
#: search without end (a small game is still answered exactly within it).
PLUGIN_POLICY = Policy(exact=False, time_limit=2.0)
#: The budget of a Connect Four query, on every board.
CONNECT4_POLICY = Policy(exact=False, time_limit=2.0)

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


class Factory(NamedTuple):
    """A function named by its module and attribute, imported when first
    called: a record names its engine without loading numba."""

    module: str
    name: str

    def load(self) -> Callable[..., Any]:
        """The function itself (its module imported now)."""
        found: Any = import_module(self.module)
        for part in self.name.split("."):
            found = getattr(found, part)
        made: Callable[..., Any] = found
        return made

    def __str__(self) -> str:
        return f"{self.module}:{self.name}"


class BookPlan(Protocol):
    """What a book build tells before it starts (its ``plan`` callback)."""

    #: Positions of the deepest level, and those still to search.
    positions: int
    todo: int
    #: Stones in each of those positions.
    stones: int
    #: Rough seconds of the whole build, and the workers it runs on (0: one process).
    seconds: float
    workers: int


class BuiltBook(Protocol):
    """What a book build did."""

    path: Path
    plies: int
    positions: int
    searched: int
    resumed: int
    seconds: float
    bytes: int


class BookBuilder(Protocol):
    """Builds a game's opening book: every position of up to ``plies``
    stones of ``game``'s board solved and written to ``out`` (resumed from
    its checkpoint; see :func:`unbeatable.solvers.connect4.build_book`)."""

    def __call__(
        self,
        plies: int,
        out: Path,
        *,
        workers: int | None = None,
        ray_address: str | None = None,
        progress: Callable[[int, int], None] | None = None,
        root: str = "",
        plan: Callable[[BookPlan], None] | None = None,
        keep_checkpoint: bool = True,
        game: Any = None,
    ) -> BuiltBook: ...


class Service(NamedTuple):
    """What serves a game, beyond its rules: one record per game."""

    #: Makes the game's engine from its rules; None: the generic negamax.
    engine: Factory | None
    #: Whether every query is exact, and the default budget. None only for a
    #: plug-in's engine: its ``policy`` attribute says, else
    #: :data:`PLUGIN_POLICY` (:meth:`policy_of`).
    policy: Policy | None
    #: Builds the game's opening book; None: it has none.
    book: Factory | None = None
    #: Where a plug-in's engine comes from (its entry point, for the one line
    #: said when it cannot be made); None for the built-in engines, whose
    #: failure to load is the server's problem, raised as it is.
    plugin: str | None = None

    def make(self, game: Game[Any, Any]) -> Engine | None:
        """The engine made for ``game`` (None: the generic negamax serves it).
        A plug-in's factory that raises is reported once, in one line, and
        the generic engine serves the game."""
        if self.engine is None:
            return None
        if self.plugin is None:
            made: Engine = self.engine.load()(game)
            return made
        try:
            made = self.engine.load()(game)
        except Exception as exc:  # a plug-in's bug must not take the game down
            from unbeatable.games import _report, _words

            _report(
                f"plug-in engine {str(self.engine)!r} for {game.name!r} cannot be made "
                f"({_words(exc)}); the generic engine serves it"
            )
            return None
        return made

    def policy_of(self, engine: object) -> Policy:
        """The game's policy, given the engine that serves it (a plug-in's
        engine may say its own)."""
        if self.policy is not None:
            return self.policy
        own = getattr(engine, "policy", None)
        return PLUGIN_POLICY if own is None else Policy(*own)

    def build_book(self) -> BookBuilder | None:
        """The function that builds the game's opening book, or None."""
        if self.book is None:
            return None
        builder: BookBuilder = self.book.load()
        return builder


#: The generic negamax, exactly, with no budget: a game object the registry
#: does not know (Nim passed to the api, a textbook tree).
GENERIC = Service(None, EXACT)
#: Every Connect Four board: the compiled solver and its book builder.
CONNECT4 = Service(
    Factory("unbeatable.solvers.connect4.engine", "connect4_engine"),
    CONNECT4_POLICY,
    Factory("unbeatable.solvers.connect4.book_builder", "build_book"),
)
#: The m,n,k engines, each taking the game's rules.
EXACT_ENGINE = Factory("unbeatable.solvers.mnk.exact", "ExactEngine")
PROOF_FIRST_ENGINE = Factory("unbeatable.solvers.mnk.proof_first", "ProofFirstEngine")
K_IN_A_ROW_ENGINE = Factory("unbeatable.solvers.mnk.engine", "GomokuEngine")


def plays_k_in_a_row(k: int) -> bool:
    """Whether the k-in-a-row engine plays boards of ``k`` in a row."""
    return k >= K_IN_A_ROW_FROM


def mnk_plan(game: Any) -> Service:
    """The record of an m,n,k board (an ``MNKGame``: its ``size`` and ``k``
    decide): its engine and its policy decided in one place, so that a
    board is never timed for one engine and served by another."""
    cells, k = game.size, game.k
    if cells <= NEGAMAX_CELLS:
        return GENERIC
    timed = Policy(exact=False, time_limit=MNK_TIME_LIMIT)
    if cells <= EXACT_MNK_CELLS:
        return Service(EXACT_ENGINE, timed)
    if cells <= EXACT_KERNEL_CELLS:
        return Service(PROOF_FIRST_ENGINE if plays_k_in_a_row(k) else EXACT_ENGINE, timed)
    if plays_k_in_a_row(k):
        return Service(K_IN_A_ROW_ENGINE, Policy(exact=False, time_limit=GOMOKU_TIME_LIMIT))
    return Service(None, timed)


#: Deprecated name of an m,n,k board's record (:func:`mnk_plan` answers a
#: :class:`Service`, whose first two fields are the plan's).
Plan = Service

#: The built-in rules' types (``module.QualifiedName``, so that nothing is
#: imported to look one up) and the record of each of their games.
_BY_TYPE: dict[str, Callable[[Any], Service]] = {
    "unbeatable.games.connect4.Connect4Game": lambda _game: CONNECT4,
    "unbeatable.games.mnk.MNKGame": mnk_plan,
}


def service(game: Game[Any, Any]) -> Service:
    """What serves ``game`` (a rules object): found by its type, for a
    built-in game; by an installed plug-in's engine entry (its name, else
    its family's), for a plug-in's game; else :data:`GENERIC` (a game the
    registry does not know is answered exactly with no budget) or, for a
    plug-in's game with no engine of its own, :data:`PLUGIN_POLICY`."""
    for kind in type(game).__mro__:
        serve = _BY_TYPE.get(f"{kind.__module__}.{kind.__qualname__}")
        if serve is not None:
            return serve(game)
    if not _is_plugin_game(game.name):
        return GENERIC
    entry = _plugin_entry(game.name)
    if entry is None:
        return Service(None, PLUGIN_POLICY)
    module, _, name = str(entry.value).partition(":")
    return Service(Factory(module.strip(), name.strip()), None, plugin=str(entry.value))


#: The entry-point group where plug-ins register engines for their games.
ENGINE_GROUP = "unbeatable.engines"


def _is_plugin_game(name: str) -> bool:
    """Whether ``name`` is a game an installed plug-in registered (a game
    object passed to the api, Nim say, or a textbook tree is none)."""
    from unbeatable.games import is_built_in, plugins

    if is_built_in(name):
        return False
    found = plugins()
    family, colon, _ = name.partition(":")
    return family in found.families if colon else name in found.named


def _plugin_entry(name: str) -> Any | None:
    """The ``unbeatable.engines`` entry serving plug-in game ``name`` (by its
    name, else by its family), or None."""
    return _plugin_entries().get(name) or _plugin_entries().get(name.partition(":")[0] + ":")


@cache
def _plugin_entries() -> dict[str, Any]:
    """Installed engine entries: a game's name, or ``family:`` for a family
    (read once per process; :func:`refresh` reads them again)."""
    from importlib.metadata import entry_points

    from unbeatable.games import normalise

    found: dict[str, Any] = {}
    for entry in entry_points(group=ENGINE_GROUP):
        family, colon, _ = normalise(str(entry.name)).partition(":")
        found.setdefault(family + colon, entry)
    return found


def refresh() -> None:
    """Read the installed engine entries again (for tests that install or
    fake a plug-in in a running process; :func:`unbeatable.games.refresh`
    does it for the games)."""
    _plugin_entries.cache_clear()


def _service_of(name: str) -> Service:
    from unbeatable.games import get_game

    return service(get_game(name))


def policy(name: str) -> Policy:
    """Game ``name``'s engine policy: whether every query is exact and the
    default budget (:data:`EXACT` for a game the registry does not know).
    A plug-in's engine that says its own is made to ask it:
    :func:`unbeatable.api.policy` asks the process's engine instead."""
    found = _service_of(name)
    if found.policy is not None:
        return found.policy
    from unbeatable.games import get_game

    return found.policy_of(found.make(get_game(name)))


def has_specialised_engine(name: str) -> bool:
    """Whether game ``name`` has an engine of its own (not the generic
    negamax), without importing it; False for a name that is no game."""
    from unbeatable.games import GameError

    try:
        return _service_of(name).engine is not None
    except GameError:
        return False


def book_builder(name: str) -> BookBuilder | None:
    """The function that builds game ``name``'s opening book, or None (its
    record's :meth:`Service.build_book`)."""
    return _service_of(name).build_book()


def specialised_engine(name: str) -> Engine | None:
    """Deprecated: a new engine of game ``name`` made from its record, or
    None where the generic negamax serves it. The process's engines (made
    once, kept in one bounded cache, with a book attached by
    :func:`unbeatable.api.use_book`) are :func:`unbeatable.api.engine`'s."""
    warnings.warn(
        "unbeatable.solvers.specialised_engine makes a new engine each call; "
        "use unbeatable.api.engine(game), the process's own",
        DeprecationWarning,
        stacklevel=2,
    )
    from unbeatable.games import get_game

    game = get_game(name)
    return service(game).make(game)


__all__ = [
    "CONNECT4",
    "ENGINE_GROUP",
    "EXACT",
    "GENERIC",
    "PLUGIN_POLICY",
    "BookBuilder",
    "Factory",
    "Plan",
    "Policy",
    "Service",
    "book_builder",
    "has_specialised_engine",
    "mnk_plan",
    "plays_k_in_a_row",
    "policy",
    "service",
    "specialised_engine",
]
