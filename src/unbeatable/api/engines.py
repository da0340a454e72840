"""The process's engines and what it has learnt: one bounded cache.

An engine is made from its game's record (:func:`unbeatable.solvers.service`)
the first time the game is asked about, readied before any clock starts
(:func:`warm`: its numba kernels compiled or loaded), and kept among the
:data:`ENGINES_KEPT` most recently used, specialised and generic alike: a
server's clients may name any of thousands of boards, and an engine may
hold megabytes of tables. Engines keep what they learn; above them this
module remembers proven analyses and AI moves (bounded too), and
:func:`clear_caches` forgets all of it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from unbeatable.api.notes import log
from unbeatable.games import Game, GameError, get_game
from unbeatable.search.analysis import Analysis, MoveValue, forget_lines
from unbeatable.search.memo import Memo
from unbeatable.search.negamax import Negamax
from unbeatable.solvers import BookBuilder, Policy, Service, service

if TYPE_CHECKING:
    from pathlib import Path

    from unbeatable.search.engine import Engine


class Algorithm(StrEnum):
    """The engines ``analyze`` and ``best_move`` can be asked for by name (by
    default they use the fastest exact one); :data:`TREE_ALGORITHMS` are the
    walks ``tree`` and ``textbook_tree`` trace."""

    minimax = "minimax"
    alphabeta = "alphabeta"
    negamax = "negamax"


ALGORITHMS: tuple[str, ...] = tuple(Algorithm)

#: Engines kept at once: the least recently used is dropped past it (a
#: server's clients may name any of thousands of boards; each engine may
#: hold megabytes of tables).
ENGINES_KEPT = 64


class _Made:
    """One engine in the cache, and whether its start-up work is done."""

    __slots__ = ("engine", "ready")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.ready = False


class _Engines:
    """The process's engines, per (game, algorithm, book): at most ``size``,
    the least recently used dropped first, specialised and generic alike (a
    dropped engine's tables go with it: the game's next query makes a new
    one, as cold as a fresh process's)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._made: OrderedDict[tuple[Any, str, bool], _Made] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game: Game[Any, Any], algorithm: str | None, book: bool) -> _Made:
        """The entry of ``game``'s engine (None: the game's own, else negamax)."""
        served = service(game)
        if algorithm is None:
            algorithm = "negamax" if served.engine is None else "special"
        key: tuple[Any, str, bool] = (game, algorithm, book)  # rules objects hash by identity
        with self._lock:
            made = self._made.get(key)
            if made is not None:
                self._made.move_to_end(key)
                return made
        made = _Made(self._make(game, served, algorithm, book))
        with self._lock:
            kept = self._made.setdefault(key, made)  # another thread may have made one
            self._made.move_to_end(key)
            while len(self._made) > self.size:
                self._made.popitem(last=False)
        return kept

    def _make(self, game: Game[Any, Any], served: Service, algorithm: str, book: bool) -> Engine:
        if algorithm == "special":
            if not book:  # an engine with an opening book offers its twin without one
                special = self.get(game, "special", True).engine
                without = getattr(special, "without_book", None)
                return special if without is None else without()
            return served.make(game) or Negamax(game)
        if algorithm == Algorithm.negamax:
            return Negamax(game)
        if algorithm in (Algorithm.minimax, Algorithm.alphabeta):
            # The teaching engines are imported only when asked for: start-up stays light.
            from unbeatable.search import minimax

            return minimax.TextbookEngine(game, getattr(minimax, algorithm))
        raise GameError(f"unknown algorithm {algorithm!r} (use one of: {', '.join(ALGORITHMS)})")

    def all(self) -> list[Engine]:
        """Every engine kept now."""
        with self._lock:
            return [made.engine for made in self._made.values()]

    def __len__(self) -> int:
        return len(self._made)


#: The one cache of engines.
_engines = _Engines(ENGINES_KEPT)

#: Proven analyses and AI moves per (game object, algorithm, position); the
#: position itself, not its table key, which mirror images may share:
#: values never change, and the AI meets the same positions again and again.
analyses: Memo[tuple[Any, str | None, Hashable], Analysis] = Memo(1 << 14)
moves: Memo[tuple[Any, Hashable], MoveValue] = Memo(1 << 14)
#: The moves as good as the AI's, once every move of a position was valued
#: on a timed game (:func:`unbeatable.api.equally_good`): a seeded choice
#: then replays whatever the engine's tables hold by then.
equals: Memo[tuple[Any, Hashable], tuple[MoveValue, ...]] = Memo(1 << 14)


def engine(
    game: str | Game[Any, Any], algorithm: str | None = None, *, book: bool = True
) -> Engine:
    """The process-wide engine for ``game``: made once from the game's
    record (:func:`unbeatable.solvers.service`) and kept among the
    :data:`ENGINES_KEPT` most recently used. ``None`` picks the fastest exact
    one: the game's own engine if its record names one, else negamax.
    ``book=False``: one that consults no opening book, searching every answer
    (the same engine for games without a book)."""
    game = get_game(game) if isinstance(game, str) else game
    return _engines.get(game, algorithm, book).engine


def policy(game: str | Game[Any, Any]) -> Policy:
    """How the engines serve ``game``: whether every query is solved exactly
    and its default budget, as its record says (a plug-in's engine may say
    its own; the rules know neither)."""
    game = get_game(game) if isinstance(game, str) else game
    served = service(game)
    return served.policy if served.policy is not None else served.policy_of(engine(game))


def default_time_limit(game: str | Game[Any, Any]) -> float | None:
    """The budget applied when the caller gives none (None: always solved
    exactly), as the game's record says."""
    return policy(game).time_limit


def book_builder(name: str | Game[Any, Any]) -> BookBuilder | None:
    """The function that builds game ``name``'s opening book (its record's),
    or None: it takes the plies, the output path and the builder's options
    (``workers``, ``ray_address``, ``progress``, ``root``, ``plan``,
    ``keep_checkpoint``, and ``game``: the board's rules)."""
    game = get_game(name) if isinstance(name, str) else name
    return service(game).build_book()


def use_book(name: str | Game[Any, Any], book: Path | str | Any) -> Any:
    """Make game ``name``'s process-wide engine answer from ``book`` (a book
    file's path, a book object, or None for none) and return the book.

    Raises ValueError if the game's engine takes no book, if the file is not
    a book of the game's board (or not a book at all), OSError if it cannot
    be read. Answers stay the same; only their speed changes."""
    game = get_game(name) if isinstance(name, str) else name
    attach = getattr(engine(game), "use_book", None)
    if attach is None:
        raise ValueError(f"{game.name} has no opening book: its engine takes none")
    return attach(book)


# -- readying: compiling is no part of any search's time ------------------------------

#: One engine is readied at a time (several threads may ask at once).
_ready_lock = threading.Lock()
#: Seconds of readying after which the reason is said (loading kernels from
#: the cache takes about a second; compiling them, once after an install,
#: ten or more).
READY_NOTE = 1.0


def _ready(game: Game[Any, Any], made: _Made, note: bool = True) -> bool:
    """Run ``made``'s engine's start-up work once (its ``ready``, else its
    ``warm_up``: compiling or loading its numba kernels), before any clock
    of a search starts, so that no move pays for it. The work runs on a
    worker thread while this one waits: Ctrl-C then interrupts the wait, not
    numba's compiler, and the caller stops cleanly (the worker, a daemon,
    ends with the process). A line on the ``unbeatable`` logger says why,
    if it takes over :data:`READY_NOTE` seconds (unless ``note`` is False).
    True if there was start-up work to do now."""
    if made.ready:
        return False
    work = getattr(made.engine, "ready", None) or getattr(made.engine, "warm_up", None)
    with _ready_lock:
        if made.ready:
            return False
        if work is not None:
            failed: list[BaseException] = []
            done = threading.Event()

            def run() -> None:
                try:
                    work()
                except BaseException as exc:  # raised on the caller's thread below
                    failed.append(exc)
                finally:
                    done.set()

            threading.Thread(target=run, name="unbeatable-ready", daemon=True).start()
            if not done.wait(READY_NOTE) and note:
                log.info(
                    "getting the %s engine ready (its kernels compile once after "
                    "an install or an update, up to a minute; 'unbeatable warm' does it "
                    "ahead); no clock runs meanwhile",
                    game.name,
                )
            done.wait()
            if failed:
                raise failed[0]
        made.ready = True
        return work is not None


def knows(game: str | Game[Any, Any], position: Any) -> bool:
    """Whether ``game``'s engine gives ``position``'s value without a search
    (a finished game, Connect Four's opening book): such an answer is at once,
    with nothing to ready and no time budget to mind."""
    game = get_game(game) if isinstance(game, str) else game
    return _knows(_engines.get(game, None, True), position)


def _knows(made: _Made, position: Any) -> bool:
    """Whether the engine of ``made`` answers ``position``'s value without a
    search (its optional ``knows``)."""
    found = getattr(made.engine, "knows", None)
    return bool(found is not None and found(position))


def warm(
    game: str | Game[Any, Any],
    algorithm: str | None = None,
    *,
    note: bool = True,
    value_of: Any = None,
) -> bool:
    """Get ``game``'s engine (and, with ``algorithm``, that one too) ready
    now: numba compiles a specialised engine's kernels at its first use
    (into the user's cache folder, :func:`cache_dir`; every later process
    loads them from there). Every search of the api does this before its
    clock starts, so a time budget is never spent compiling; call it
    ahead to pay the cost at a moment of your choosing (``unbeatable
    warm``). True if an engine had start-up work to do in this process.
    ``note=False``: no line on the ``unbeatable`` logger (the caller says it).
    ``value_of``: a position whose value is about to be asked; nothing is
    readied if the engine knows it without a search (an opening book's)."""
    game = get_game(game) if isinstance(game, str) else game
    if value_of is not None and algorithm is None and knows(game, value_of):
        return False
    made = [_engines.get(game, None, True)]
    if algorithm is not None:
        made.append(_engines.get(game, algorithm, True))
    did = [_ready(game, entry, note) for entry in made]
    return any(did)


def warmed(
    game: Game[Any, Any],
    algorithm: str | None = None,
    stop: threading.Event | None = None,
    book: bool = True,
    value_of: Any = None,
) -> None:
    """:func:`warm` before a search, unless only what is known may be
    answered (a stop switch already set: no search, so nothing to ready), or
    the value asked for, that of position ``value_of``, is one the engine
    knows without a search (its ``knows``: Connect Four's opening book)."""
    if stop is None or not stop.is_set():
        made = _engines.get(game, algorithm, book)
        if value_of is not None and algorithm is None and _knows(made, value_of):
            return
        _ready(game, made)
        if algorithm is not None:
            _ready(game, _engines.get(game, None, book))


def cache_dir() -> Path:
    """The folder of the user's cache where the compiled kernels are kept
    (see :mod:`unbeatable.compiled`)."""
    from unbeatable import compiled

    return compiled.cache_dir()


def clear_cache() -> tuple[int, int]:
    """Remove the compiled kernels from the user's cache (and any that an
    older version left beside the package): (files, bytes) removed. The
    next search compiles them again."""
    from unbeatable import compiled

    return compiled.clear()


def cache_size() -> tuple[int, int]:
    """(files, bytes) of compiled kernels in the user's cache."""
    from unbeatable import compiled

    return compiled.size()


def clear_caches() -> None:
    """Forget everything this process has learnt: the analyses and AI moves
    remembered here, the lines of best play, and the tables of every engine
    kept (opening books stay: they are read, not learnt). The next query
    starts as cold as in a fresh process: tests and benchmarks that compare
    runs need that."""
    analyses.clear()
    moves.clear()
    equals.clear()
    forget_lines()
    for made in _engines.all():
        reset = getattr(made, "reset", None)
        if reset is not None:
            reset()


__all__ = [
    "ALGORITHMS",
    "ENGINES_KEPT",
    "READY_NOTE",
    "Algorithm",
    "book_builder",
    "cache_dir",
    "cache_size",
    "clear_cache",
    "clear_caches",
    "default_time_limit",
    "engine",
    "policy",
    "use_book",
    "warm",
]
