"""The library's front door: analyse, solve and play any registered game.

Every function takes a game (its registry name or a :class:`Game` object) and a
position (its notation or a position object), so the CLI, the web API and
Python users share one code path. Engines are created once per process and
keep what they learn, so repeated queries get faster.

Names: a :class:`Game` (the rules object) is called ``game`` throughout the
library; here a ``game`` parameter may also be a registry name, and once
resolved the same name holds the object. The library writes British English
(``analyse``, ``normalise``, ``colour``) with one exception kept for
compatibility: ``analyze``, the public function, the CLI command and the
``/api/analyze`` endpoint.

Answers are typed values (:class:`Analysis`, :class:`Solution`, :class:`View`,
:class:`Status`, :class:`Turn`, :class:`TracedTree`), each with ``to_dict()``
for its JSON: the faces (the CLI and the web server) import only this module
and render or send what it answers.

Every function is safe to call from several threads at once: each search
keeps its own state, the tables engines share are made to be raced on (a race
can lose an entry, never make one wrong), and the caches here are locked.
"""

from __future__ import annotations

import logging
import math
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, overload

from unbeatable.explain import Explanation, Forbidden, Group, Mark, Note, threat_name
from unbeatable.explain import explain as _explain
from unbeatable.games import (
    Description,
    Game,
    GameError,
    IllegalMoveError,
    InvalidPositionError,
    UnknownGameError,
    describe_all,
    game_names,
    get_game,
    naming,
    normalise,
    offered,
    plugins,
)
from unbeatable.games import mnk as _mnk
from unbeatable.search.analysis import (
    Analysis,
    MoveValue,
    forget_lines,
    move_value,
    obvious,
    resisting,
    value_letters,
    value_words,
)
from unbeatable.search.analysis import analyse as _analyse  # the search layer's: engine given
from unbeatable.search.engine import (
    KNOWN_ONLY,
    UNKNOWN,
    UNLIMITED,
    Engine,
    Limits,
    Outcome,
    Progress,
    Result,
)
from unbeatable.search.levels import Level
from unbeatable.search.memo import Memo
from unbeatable.search.negamax import Negamax
from unbeatable.search.review import Review, ReviewedMove
from unbeatable.search.review import Value as ReviewValue
from unbeatable.search.review import review as _review
from unbeatable.solvers import BookBuilder, Policy, Service, service

if TYPE_CHECKING:
    import random

    from unbeatable.search.explore import (
        CUTOFFS,
        TREE_ALGORITHMS,
        Cutoff,
        TracedTree,
        TraceStep,
        TreeAlgorithm,
        TreeNode,
        TreeTooLarge,
    )
    from unbeatable.search.perft import Perft, perft
    from unbeatable.search.perft import leaves as perft_leaves

#: Names loaded on first use (module, attribute): the tree tracer and perft
#: are tools, and ``import unbeatable.api`` stays light without them.
_LAZY = {
    "CUTOFFS": ("unbeatable.search.explore", "CUTOFFS"),
    "Cutoff": ("unbeatable.search.explore", "Cutoff"),
    "TREE_ALGORITHMS": ("unbeatable.search.explore", "TREE_ALGORITHMS"),
    "TracedTree": ("unbeatable.search.explore", "TracedTree"),
    "TraceStep": ("unbeatable.search.explore", "TraceStep"),
    "TreeAlgorithm": ("unbeatable.search.explore", "TreeAlgorithm"),
    "TreeNode": ("unbeatable.search.explore", "TreeNode"),
    "TreeTooLarge": ("unbeatable.search.explore", "TreeTooLarge"),
    "Perft": ("unbeatable.search.perft", "Perft"),
    "perft": ("unbeatable.search.perft", "perft"),
    "perft_leaves": ("unbeatable.search.perft", "leaves"),
}


#: Computed from the game registry and the installed plug-ins on each access
#: (see :mod:`unbeatable.games`): the offered games and how to name any game.
OFFERED: tuple[str, ...]
NAMING: str


def __getattr__(name: str) -> Any:
    if name == "OFFERED":
        return offered()
    if name == "NAMING":
        return naming()
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    module, attribute = _LAZY[name]
    value = getattr(import_module(module), attribute)
    globals()[name] = value  # imported once: later look-ups are plain attributes
    return value


P = TypeVar("P")
M = TypeVar("M")


class Algorithm(StrEnum):
    """The engines ``analyze`` and ``best_move`` can be asked for by name (by
    default they use the fastest exact one); :data:`TREE_ALGORITHMS` are the
    walks ``tree`` and ``textbook_tree`` trace."""

    minimax = "minimax"
    alphabeta = "alphabeta"
    negamax = "negamax"


ALGORITHMS: tuple[str, ...] = tuple(Algorithm)


#: The biggest board side of the m,n,k family (what the Gomocup brain accepts).
MNK_MAX_SIDE = _mnk.MAX_SIDE


class GameOverError(GameError):
    """The game is over, so there is no move to make (the web answers 409)."""


#: Proven analyses and AI moves per (game object, algorithm, position); the
#: position itself, not its table key, which mirror images may share:
#: values never change, and the AI meets the same positions again and again.
_analyses: Memo[tuple[Any, str | None, Hashable], Analysis] = Memo(1 << 14)
_moves: Memo[tuple[Any, Hashable], MoveValue] = Memo(1 << 14)
#: The moves as good as the AI's, once every move of a position was valued
#: on a timed game (:func:`equally_good`): a seeded choice then replays
#: whatever the engine's tables hold by then.
_equals: Memo[tuple[Any, Hashable], tuple[MoveValue, ...]] = Memo(1 << 14)

#: A stop switch that is already set: pass it as ``stop`` to get only what the
#: engines know without searching (an opening book, a remembered answer).
STOPPED = KNOWN_ONLY.stop

#: What :func:`analysis.obvious` found: the move any player makes at once and
#: its outcome when known without search, or None when nothing is forced.
Forced = tuple[Any, Outcome | None] | None


@overload
def resolve(game: Game[P, M], position: P | str | None = None) -> tuple[Game[P, M], P]: ...
@overload
def resolve(game: str, position: Any = None) -> tuple[Game[Any, Any], Any]: ...
def resolve(game: str | Game[Any, Any], position: Any = None) -> tuple[Game[Any, Any], Any]:
    """The rules object and the parsed position (the initial one for ``None``)."""
    game = get_game(game) if isinstance(game, str) else game
    if position is None:
        return game, game.initial()
    if isinstance(position, str):
        return game, game.parse(position)
    return game, position


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
    """The process's engines, per (game, algorithm, book): at most
    :data:`ENGINES_KEPT`, the least recently used dropped first, specialised
    and generic alike (a dropped engine's tables go with it: the game's next
    query makes a new one, as cold as a fresh process's)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._made: OrderedDict[tuple[Any, str, bool], _Made] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game: Game[Any, Any], algorithm: str | None, book: bool) -> _Made:
        served = service(game)
        if algorithm is None:
            algorithm = "negamax" if served.engine is None else "special"
        key: tuple[Any, str, bool] = (game, algorithm, book)
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
        with self._lock:
            return [made.engine for made in self._made.values()]

    def __len__(self) -> int:
        return len(self._made)

    def clear(self) -> None:
        with self._lock:
            self._made.clear()


#: The one cache of engines.
_engines = _Engines(ENGINES_KEPT)


#: One engine is readied at a time (several threads may ask at once).
_ready_lock = threading.Lock()
#: Seconds of readying after which the reason is said (loading kernels from
#: the cache takes about a second; compiling them, once after an install,
#: ten or more).
READY_NOTE = 1.0
#: Where the library says what it does that a user may wonder about (getting
#: an engine ready), one line each, at INFO: a script using the library hears
#: nothing of it unless it configures :mod:`logging`; the faces show it
#: (:func:`show_notes`). Problems (a broken plug-in) are warnings.
log = logging.getLogger("unbeatable")


class NoteLines(logging.Handler):
    """The library's notes on stderr as a face shows them: ``unbeatable:
    NOTE``, one line each (see :func:`show_notes`). ``said`` holds every
    note shown, so that a face need not repeat one as an error."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.said: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = " ".join(record.getMessage().split())
            self.said.add(line)
            # Looked up now: the stream a test or a caller put in place.
            stream = sys.stderr
            text = f"unbeatable: {line}\n"
            if record.exc_info:  # a server's unhandled error: its traceback too
                text += logging.Formatter().formatException(record.exc_info) + "\n"
            stream.write(text)
            stream.flush()
        except Exception:  # pragma: no cover - as logging's own handlers do
            self.handleError(record)


_notes_lock = threading.Lock()


def show_notes() -> NoteLines:
    """Show the library's notes (the ``unbeatable`` loggers' lines at INFO
    and above: an engine being readied, a broken plug-in left out) on stderr,
    one line each: what the faces do (the command line, the server). Used as
    a library, Unbeatable says nothing below a warning by itself. Once per
    process: a second call returns the same handler."""
    with _notes_lock:
        for handler in log.handlers:
            if isinstance(handler, NoteLines):
                return handler
        notes = NoteLines()
        log.addHandler(notes)
        if log.level == logging.NOTSET:  # a level set on purpose stays
            log.setLevel(logging.INFO)
        return notes


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


def warm(
    game: str | Game[Any, Any], algorithm: str | None = None, *, note: bool = True
) -> bool:
    """Get ``game``'s engine (and, with ``algorithm``, that one too) ready
    now: numba compiles a specialised engine's kernels at its first use
    (into the user's cache folder, :func:`cache_dir`; every later process
    loads them from there). Every search of the api does this before its
    clock starts, so a time budget is never spent compiling; call it
    ahead to pay the cost at a moment of your choosing (``unbeatable
    warm``). True if an engine had start-up work to do in this process.
    ``note=False``: no line on the ``unbeatable`` logger (the caller says it)."""
    game = get_game(game) if isinstance(game, str) else game
    engines = [_engines.get(game, None, True)]
    if algorithm is not None:
        engines.append(_engines.get(game, algorithm, True))
    did = [_ready(game, made, note) for made in engines]
    return any(did)


def _warmed(
    game: Game[Any, Any], algorithm: str | None, stop: threading.Event | None, book: bool = True
) -> None:
    """:func:`warm` before a search, unless only what is known may be
    answered (a stop switch already set: no search, so nothing to ready)."""
    if stop is None or not stop.is_set():
        _ready(game, _engines.get(game, algorithm, book))
        if algorithm is not None:
            _ready(game, _engines.get(game, None, book))


def cache_dir() -> Any:
    """The folder of the user's cache where the compiled kernels are kept
    (a :class:`pathlib.Path`; see :mod:`unbeatable.compiled`)."""
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
    made so far (opening books stay: they are read, not learnt). The next
    query starts as cold as in a fresh process: tests and benchmarks that
    compare runs need that."""
    _analyses.clear()
    _moves.clear()
    _equals.clear()
    forget_lines()
    for made in _engines.all():
        reset = getattr(made, "reset", None)
        if reset is not None:
            reset()


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


def book_builder(name: str | Game[Any, Any]) -> BookBuilder | None:
    """The function that builds game ``name``'s opening book (its record's),
    or None: it takes the plies, the output path and the builder's options
    (``workers``, ``ray_address``, ``progress``, ``root``, ``plan``,
    ``keep_checkpoint``, and ``game``: the board's rules)."""
    game = get_game(name) if isinstance(name, str) else name
    return service(game).build_book()


def use_book(name: str | Game[Any, Any], book: Any) -> Any:
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


@lru_cache(maxsize=64)
def _description(game: Any) -> Description | None:
    try:
        description: Description = game.describe()
    except NotImplementedError:
        return None
    return description


def describe(game: str | Game[Any, Any]) -> Description | None:
    """The game's description (None for games without a board to show)."""
    game = get_game(game) if isinstance(game, str) else game
    hashable: Any = game  # Game objects hash by identity
    return _description(hashable)


def policy(game: str | Game[Any, Any]) -> Policy:
    """How the engines serve ``game``: whether every query is solved exactly
    and its default budget, as the solver registry says (the rules know
    neither)."""
    game = get_game(game) if isinstance(game, str) else game
    served = service(game)
    # A plug-in's engine may say its own: asked of the process's engine.
    return served.policy if served.policy is not None else served.policy_of(engine(game))


def default_time_limit(game: str | Game[Any, Any]) -> float | None:
    """The budget applied when the caller gives none (None: always solved
    exactly), as the solver registry says."""
    return policy(game).time_limit


class GameInfo(NamedTuple):
    """A board game as the faces offer it: the rules' description, the
    engines' policy and the start position (``GET /api/games``)."""

    #: The rules' facts: names, sides, board, keys.
    description: Description
    #: Whether every query is solved exactly, fast, with no time budget.
    exact: bool
    #: Seconds a query may search (None: no limit, always exact).
    time_limit: float | None
    #: Notation of the initial position.
    initial: str
    #: What depth-limited search estimates with (the game's static
    #: evaluation's rule) and its example positions; None without one.
    lesson: tuple[str, tuple[tuple[str, str], ...]] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the description's fields beside the others."""
        lesson = None
        if self.lesson is not None:
            rule, examples = self.lesson
            lesson = {
                "rule": rule,
                "examples": [{"name": name, "position": pos} for name, pos in examples],
            }
        return {
            **self.description.to_dict(),
            "exact": self.exact,
            "time_limit": self.time_limit,
            "initial": self.initial,
            "lesson": lesson,
        }


def game_info(game: str | Game[Any, Any]) -> GameInfo:
    """What the faces offer of a board game: its description from the rules,
    its engine policy from the solver registry, its start position. Raises
    :class:`GameError` for a game without a board to show."""
    game = get_game(game) if isinstance(game, str) else game
    description = describe(game)
    if description is None:
        raise GameError(f"{game.name} does not describe itself (it has no board to show)")
    served = policy(game)
    evaluation = game.static_evaluation()
    lesson = None if evaluation is None else (evaluation.rule, evaluation.examples)
    return GameInfo(
        description, served.exact, served.time_limit, game.format(game.initial()), lesson
    )


#: Seconds of a time limit kept for answering after the search stops (a
#: fallback move, the reply): at most a tenth of the limit.
ANSWER_RESERVE = 0.03


def limits(
    time_limit: float | None,
    stop: threading.Event | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> Limits:
    """The search limits of a time limit in seconds (None or infinity: none),
    with the stop switch and the progress report (see :class:`Limits`).

    The search ends :data:`ANSWER_RESERVE` early, so that the answer, not
    just the search, comes within the limit."""
    if time_limit is not None and (math.isnan(time_limit) or time_limit <= 0):
        raise GameError(f"time limit must be a positive number of seconds, got {time_limit}")
    if time_limit is not None and not math.isinf(time_limit):
        time_limit -= min(ANSWER_RESERVE, time_limit / 10)
    return Limits.seconds(time_limit, stop, progress)


def analyze(
    game: str | Game[Any, Any],
    position: Any,
    *,
    algorithm: str | None = None,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
    book: bool = True,
    progress: Callable[[Progress], None] | None = None,
) -> Analysis:
    """The value of ``position`` for the side to move and of every legal move.

    ``algorithm`` selects the engine (default: negamax, or the game's
    specialised solver). With a ``time_limit`` in seconds the answer carries
    ``exact``; moves that could not be proven in time are ``"unknown"``.
    ``stop``, set from another thread, ends the work early the same way.
    Proven analyses are remembered, so asking again costs a lookup.
    ``book=False`` searches every value without the game's opening book
    (nothing remembered is reused either: the proof is searched anew);
    ``progress`` receives reports of a long search (see :class:`Limits`).
    """
    game, pos = resolve(game, position)
    # Games that may be answered unproven always say whether this one is.
    report_exact = time_limit is not None or default_time_limit(game) is not None
    known = _analyses.get((game, algorithm, pos)) if book else None
    if known is not None:  # the same board, maybe reached by another move order
        return known._replace(position=game.format(pos), exact=True if report_exact else None)
    return _analyse_afresh(game, pos, algorithm, time_limit, stop, report_exact, progress, book)


def _analyse_afresh(
    game: Game[Any, Any],
    pos: Any,
    algorithm: str | None,
    time_limit: float | None,
    stop: threading.Event | None,
    report_exact: bool,
    progress: Callable[[Progress], None] | None = None,
    book: bool = True,
) -> Analysis:
    _warmed(game, algorithm, stop, book)  # compiling is no part of the search's time
    analysis = _analyse(
        game,
        pos,
        engine(game, algorithm, book=book),
        limits(time_limit, stop, progress),
        report_exact,
        line_engine=engine(game, book=book),
    )
    # A line cut short by the limits is not remembered; nor is an analysis
    # without the book (asked for as a proof searched anew, it is not looked up).
    if analysis.complete and book:
        _analyses.put((game, algorithm, pos), analysis)
    return analysis


def best_move(
    game: str | Game[Any, Any], position: Any, *, algorithm: str | None = None
) -> MoveValue | None:
    """The best move (``analyze(...).best``): fastest win, else a draw, else the
    slowest loss; ties broken in the game's order. None if the game is over.

    Answers are remembered per position, so a repeated query costs a lookup.
    """
    game, pos = resolve(game, position)
    known = _analyses.get((game, algorithm, pos))  # the common case: no copy to make
    if known is not None:
        return known.best
    return analyze(game, pos, algorithm=algorithm, time_limit=default_time_limit(game)).best


class Solution(NamedTuple):
    """The value of one position (``unbeatable solve``)."""

    game: str
    position: str
    to_move: str
    result: Result
    plies: int | None
    score: int | None
    nodes: int
    time_ms: float
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """The JSON object printed by ``unbeatable solve --json``: the fields in order."""
        return self._asdict()


def solve(
    game: str | Game[Any, Any],
    position: Any,
    *,
    weak: bool = False,
    algorithm: str | None = None,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
    book: bool = True,
    progress: Callable[[Progress], None] | None = None,
) -> Solution:
    """The value of ``position`` for the side to move. ``weak`` asks only for
    win/draw/loss (no distance: ``plies`` and ``score`` are None), which is
    faster. ``book=False`` searches without the game's opening book (for
    benchmarks, and for a proof); ``progress`` receives reports of a long
    search (see :class:`Limits`)."""
    game, pos = resolve(game, position)
    _warmed(game, algorithm, stop, book)  # compiling is no part of the search's time
    start = time.perf_counter()
    solved = engine(game, algorithm, book=book).value(pos, limits(time_limit, stop, progress), weak)
    outcome = solved.outcome
    score = None if outcome.plies is None else game.score(pos, outcome.result, outcome.plies)
    return Solution(
        game=game.name,
        position=game.format(pos),
        to_move=game.to_move(pos),
        result=outcome.result,
        plies=outcome.plies,
        score=score,
        nodes=solved.nodes,
        time_ms=round((time.perf_counter() - start) * 1000, 3),
        exact=outcome.exact,
    )


def choose_move(
    game: str | Game[Any, Any],
    position: Any,
    level: str = "impossible",
    rng: random.Random | None = None,
    time_limit: float | None = None,
    *,
    analysis: Analysis | None = None,
    stop: threading.Event | None = None,
    seed: int | None = None,
) -> MoveValue | None:
    """The move an AI of ``level`` plays (None if the game is over).

    The impossible level plays a move that keeps the position's value (when
    every move loses, the most resisting of the slowest), proven within the
    time limit (the game's default if None) or, past it, the engine's best
    guess. Where several moves win as fast or draw alike, it picks one of
    them at random (:func:`equally_good`): ``rng`` (a :class:`random.Random`)
    or ``seed`` makes the choice reproducible. The weaker levels cost no
    more: the same move, plus what they see within their short horizon. At
    every level, the obvious is played at once: a win in one, the block of a
    lone threat (see :func:`analysis.obvious`). With an ``analysis`` of the
    position (the AI explains itself), the choice is made from it instead,
    with no search.
    """
    import random as random_module

    from unbeatable.search.levels import SKILLS, choose, choose_from, within_horizon

    game, pos = resolve(game, position)
    rng = rng or random_module.Random(seed)
    if analysis is not None:
        forced = obvious(game, pos)
        if forced is not None:
            same = [m for m in analysis.moves if m.raw == forced[0]]
            if same:
                return same[0]
        if Level(level) is Level.impossible and analysis.best is not None:
            equal = [m for m in analysis.moves if _same_value(m, analysis.best)]
            return _pick(game, pos, analysis.best, equal, rng)
        return choose_from(analysis, level, rng)
    if not game.moves(pos):
        return None
    level = Level(level)
    limit = time_limit if time_limit is not None else default_time_limit(game)
    forced = obvious(game, pos)
    if level is Level.impossible or limit is None:
        if forced is None or forced[1] is None:  # a search may follow: its clock starts warm
            _warmed(game, None, stop)
        search_limits = limits(limit, stop)
        best = _ai_move(game, pos, search_limits, forced)
        if level is Level.impossible and best is not None and forced is None:
            equal = equally_good(game, pos, best, search_limits)
            return _pick(game, pos, best, equal, rng)
    else:
        # A game whose search is timed: the weaker levels take the engine's
        # untimed guess (a book move, or a fixed-size search), so that their
        # choice never depends on how far a timed search got.
        best = _guessed(game, pos, forced)
    if best is None:  # stopped before anything was found: the most resisting move
        first = next(resisting(game, pos, game.moves(pos)))
        best = move_value(game, pos, first, UNKNOWN)
    if level is Level.impossible or forced is not None:
        return best
    horizon = SKILLS[level].horizon

    def seen() -> list[MoveValue]:  # looked at only when the level misses the best move
        return within_horizon(game, pos, horizon)

    return choose(best, seen, level, rng)


#: The share of what is left of a move's budget that may go to valuing the
#: moves beside the best one on a timed game, to find those as good.
VARIETY_SHARE = 4
#: Legal moves up to which a timed game's other moves are valued to find
#: those as good: each asks the engine once, a lookup on a small board but
#: milliseconds each on a big one (Gomoku's two hundred cost more than the
#: proof of the move itself); past it, only an analysis at hand varies.
VARIETY_MOVES = 49


def _same_value(move: MoveValue, best: MoveValue) -> bool:
    """Whether ``move`` is proven as good as ``best``, a win as fast or a
    draw (between losses the most resisting stays: see :func:`resisting`)."""
    if best.result not in ("win", "draw") or (best.plies is None and best.result == "win"):
        return False
    return (move.result, move.plies) == (best.result, best.plies)


def _pick(
    game: Game[Any, Any],
    pos: Any,
    best: MoveValue,
    equal: Sequence[MoveValue],
    rng: random.Random,
) -> MoveValue:
    """One of ``equal`` (``best`` among them), drawn by ``rng`` in the game's
    tie-break order, so that a seed replays the same choice."""
    if len(equal) <= 1:
        return best
    by_move = {m.raw: m for m in equal}
    order = [by_move[m] for m in game.tie_break(pos, list(by_move))]
    return order[rng.randrange(len(order))]


def equally_good(
    game: str | Game[Any, Any], position: Any, best: MoveValue, within: Limits = KNOWN_ONLY
) -> list[MoveValue]:
    """The moves of ``position`` proven as good as ``best`` (itself
    included): as fast a win, or a draw. Losses are never varied: the most
    resisting defence stays. The opening book and the proofs decide, never a
    guess: for a game solved exactly the analysis (remembered, or made: it
    costs next to nothing); on a timed game, the remembered analysis if
    there is one, else each move valued by the engine within a share of
    ``within`` (:data:`VARIETY_SHARE`), and then from what it knows
    without searching (its book), on boards of at most
    :data:`VARIETY_MOVES` moves. A move not proven equal is left out."""
    game, pos = resolve(game, position)
    if not _same_value(best, best):
        return [best]
    known = _analyses.get((game, None, pos))
    if known is None and policy(game).exact:
        known = analyze(game, pos)
    if known is not None:
        return [m for m in known.moves if _same_value(m, best)] or [best]
    remembered = _equals.get((game, pos))
    if remembered is not None and any(m.move == best.move for m in remembered):
        return list(remembered)
    legal = list(game.moves(pos))
    if len(legal) > VARIETY_MOVES:
        return [best]
    solver = engine(game)
    share = within.share(VARIETY_SHARE)
    equal = []
    complete = True
    for i, move in enumerate(legal):
        if game.format_move(move) == best.move:
            equal.append(best)
            continue
        asked = KNOWN_ONLY if share.expired() else share.share(len(legal) - i)
        outcome = solver.value(game.play(pos, move), asked).outcome.parent()
        value = move_value(game, pos, move, outcome)
        complete = complete and outcome.exact
        if outcome.exact and _same_value(value, best):
            equal.append(value)
    if complete:  # every move valued: the same choice whatever the engine knows later
        _equals.put((game, pos), tuple(equal))
    return equal


def quick_move(
    game: str | Game[Any, Any], position: Any, time_limit: float | None = None
) -> MoveValue | None:
    """A move found at once without the game's engine (None if the game is
    over): the obvious one (a win in one, the block of a lone threat: see
    :func:`analysis.obvious`), else, of the moves read within ``time_limit``
    seconds in the most resisting order (:func:`analysis.resisting`), the one
    after which the game's static evaluation is best for the mover (the first
    in that order when no time is given).

    For a face that must answer before the engine is ready: the Gomocup
    brain while the k-in-a-row kernels compile after an install. It is no
    search: nothing is proven unless a win or a loss is one move away."""
    game, pos = resolve(game, position)
    moves = game.moves(pos)
    if not moves:
        return None
    forced = obvious(game, pos)
    if forced is not None:
        return move_value(game, pos, forced[0], forced[1] or UNKNOWN)
    order = resisting(game, pos, moves)
    best = next(order)
    if time_limit is not None:
        deadline = time.perf_counter() + time_limit
        value = -game.evaluate(game.play(pos, best))
        for move in order:
            if time.perf_counter() >= deadline:
                break
            after = -game.evaluate(game.play(pos, move))
            if after > value:
                best, value = move, after
    return move_value(game, pos, best, UNKNOWN)


def set_up(game: str | Game[Any, Any], cells: str, to_move: str) -> Any:
    """An m,n,k board set up stone by stone, ``to_move`` to play whatever the
    counts: ``cells`` row-major from the top-left, ``x``, ``o`` or ``.``.

    Play never reaches a board whose counts are uneven, and the notation
    refuses one; a Gomocup manager may still send it (a continuous game's
    finished line taken off the board, a position set up by hand), and
    tournament engines play on it, as the brain does. The rules' other check
    stays: a board where a side already has a line (as the game's own
    ``winning_moves`` reads lines) is refused with
    :class:`InvalidPositionError`."""
    game = get_game(game) if isinstance(game, str) else game
    if not isinstance(game, _mnk.MNKGame):
        raise GameError(f"{game.name}: only m,n,k boards are set up stone by stone")
    marks = (_mnk.X, _mnk.O)
    if len(cells) != game.size or not set(cells) <= {*marks, _mnk.EMPTY}:
        raise InvalidPositionError(
            f"expected {game.size} cells of x, o and . for {game.name}, got {cells!r}"
        )
    if to_move not in marks:
        raise InvalidPositionError(f"the side to move must be x or o, not {to_move!r}")
    for cell, mark in enumerate(cells):
        if mark == _mnk.EMPTY:
            continue
        without = _mnk.MNKPosition(cells[:cell] + _mnk.EMPTY + cells[cell + 1 :], to_move)
        if cell in game.winning_moves(without, mark):
            raise InvalidPositionError(f"{mark} already has a line")
    return _mnk.MNKPosition(cells, to_move)


class Cell(NamedTuple):
    """A legal move and the cell it fills (0-based from the top-left), and
    the cell its piece leaves where pieces move."""

    #: The move in the game's notation.
    move: str
    row: int
    col: int
    #: The (row, col) the move's piece leaves, in games whose pieces move
    #: (``Description.moves_from``); None where a move puts a stone down.
    origin: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"move": self.move, "row": self.row, "col": self.col}
        if self.origin is not None:  # only where pieces move: other games keep their JSON
            data["origin"] = list(self.origin)
        return data


class Status(NamedTuple):
    """Whether the game is over, and how it ended."""

    over: bool
    #: The player who won (None: nobody yet, or a draw).
    winner: str | None
    #: The cells of the winning line, ``(row, col)`` 0-based from the
    #: top-left, when the game has one.
    line: tuple[tuple[int, int], ...] | None
    #: How the game was won, in words that read after the winner's name
    #: (:meth:`Game.win_reason`, else the description's goal), or why a
    #: finished game is drawn where the game says (:meth:`Game.draw_reason`,
    #: after "Draw: "); else None.
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        line = None if self.line is None else [[row, col] for row, col in self.line]
        return {"over": self.over, "winner": self.winner, "line": line, "reason": self.reason}


class View(NamedTuple):
    """A position as a face shows it: faces apply no rules of their own."""

    game: str
    #: The position in the game's notation (canonical).
    position: str
    to_move: str
    #: The board's rows from the top, one character per cell (``game.grid``).
    board: tuple[str, ...]
    #: Every legal move with the cell it fills, in board order.
    moves: tuple[Cell, ...]
    status: Status

    def to_dict(self) -> dict[str, Any]:
        """The JSON object served by ``POST /api/position``."""
        return {
            "game": self.game,
            "position": self.position,
            "to_move": self.to_move,
            "board": list(self.board),
            "moves": [m.to_dict() for m in self.moves],
            "status": self.status.to_dict(),
        }


class Turn(NamedTuple):
    """The AI's turn (:func:`ai_turn`): its move and the position after it."""

    #: The move played, with what is known of its value for the AI (a weaker
    #: level's move carries only what its horizon sees).
    move: MoveValue
    #: The position after the move, as the game's rules object holds it.
    after: Any
    #: That position as faces show it.
    view: View
    #: At the impossible level, whether the move is proven to keep the
    #: position's value (False: the time ran out and it is the engine's best
    #: guess); None at the weaker levels, whose mistakes are on purpose.
    proven: bool | None
    #: With ``explain``: the analysis of the position before the move, which
    #: the move was chosen from.
    analysis: Analysis | None = None

    @property
    def position(self) -> str:
        """The position after the move, in the game's notation."""
        return self.view.position

    @property
    def status(self) -> Status:
        """Whether the move ended the game, and how."""
        return self.view.status

    def to_dict(self) -> dict[str, Any]:
        """The JSON object served by ``POST /api/move``."""
        data: dict[str, Any] = {
            "move": self.move.ref(),
            "position": self.position,
            "status": self.status.to_dict(),
            "view": self.view.to_dict(),
            "proven": self.proven,
        }
        if self.analysis is not None:
            data["analysis"] = self.analysis.to_dict()
        return data


def ai_turn(
    game: str | Game[Any, Any],
    position: Any,
    level: Level | str = Level.impossible,
    *,
    rng: random.Random | None = None,
    time_limit: float | None = None,
    explain: bool = False,
    stop: threading.Event | None = None,
    seed: int | None = None,
) -> Turn | None:
    """The AI's turn at ``level``: the move it plays (:func:`choose_move`),
    the position after it and whether the move is proven; with ``explain``,
    the move is chosen from an analysis of the position, returned with it.
    Among moves of equal value the choice is random: ``rng`` or ``seed``
    makes it (and the weaker levels' mistakes) reproducible.

    ``time_limit`` is the search's budget (None: the game's default). With
    ``stop`` already set, only what is known without searching is answered
    (an opening book, a remembered answer, a win in one; with ``explain`` an
    analysis that needs no search), else None: the web answers those at once
    and searches the rest on a worker thread. Raises :class:`GameOverError`
    on a finished game.
    """
    game, pos = resolve(game, position)
    if game.is_terminal(pos):
        winner = game.winner(pos)
        ended = f"{winner} has won" if winner else "it is a draw"
        raise GameOverError(f"the game is over: {ended}")
    level = Level(level)
    limit = time_limit if time_limit is not None else default_time_limit(game)
    known_only = stop is not None and stop.is_set()
    analysis = None
    if explain:
        analysis = analyze(game, pos, time_limit=limit, stop=stop)
        unproven = analysis.exact is False or any(m.result == "unknown" for m in analysis.moves)
        if known_only and unproven:
            return None
    elif known_only:
        known = _ai_move(game, pos, KNOWN_ONLY, obvious(game, pos))
        if known is None or known.result == "unknown":
            return None
    chosen = choose_move(game, pos, level, rng, limit, analysis=analysis, stop=stop, seed=seed)
    assert chosen is not None  # the game is not over
    raw = chosen.raw if chosen.raw is not None else game.parse_move(pos, chosen.move)
    after = game.play(pos, raw)
    proven = chosen.result != "unknown" if level is Level.impossible else None
    return Turn(chosen, after, view(game, after), proven, analysis)


def _ai_move(
    game: Game[Any, Any], pos: Any, search_limits: Limits, forced: Forced = None
) -> MoveValue | None:
    """The impossible level's move with its value, remembered once proven
    (None only if the limits were stopped before anything was found).

    ``forced`` is :func:`analysis.obvious`'s move: played at once when its
    value needs no search; a forced block is played whatever the engine
    says, with the value the engine found for the position."""
    if forced is not None and forced[1] is not None:
        return move_value(game, pos, forced[0], forced[1])
    memo_key = (game, pos)
    known = _moves.get(memo_key)
    if known is not None:
        return known
    exact = _analyses.get((game, None, pos))
    if exact is not None and exact.best is not None:
        return exact.best
    solver = engine(game)
    solved = solver.solve(pos, search_limits)
    proven = solved.move_proven and solved.outcome.exact
    move = solved.move
    if forced is not None and move != forced[0]:
        move, proven = forced[0], solved.outcome.exact  # the only move that holds
    if move is None:
        return None
    outcome = solved.outcome if proven else UNKNOWN
    chosen = move_value(game, pos, move, outcome)
    if proven:
        _moves.put(memo_key, chosen)
    return chosen


def _guessed(game: Game[Any, Any], pos: Any, forced: Forced) -> MoveValue | None:
    """The weaker levels' best move on a timed game: the obvious one, else the
    engine's untimed guess (None if it has none)."""
    if forced is not None:
        return move_value(game, pos, forced[0], forced[1] or UNKNOWN)
    guessed = engine(game).guess(pos)
    if guessed.move is None:
        return None
    proven = guessed.move_proven and guessed.outcome.exact
    outcome = guessed.outcome if proven else UNKNOWN
    return move_value(game, pos, guessed.move, outcome)


def threat(game: str | Game[Any, Any], position: Any, value: MoveValue) -> str | None:
    """How ``value``'s proven line wins by threats alone, in the rules' words
    (``"continuous fours"``, from the game's ``threat_win`` hook), or None: a
    game without the hook, a value not proven, or a line cut short by the
    time budget (it proves nothing) say nothing. Every face names threats
    from here."""
    game, pos = resolve(game, position)
    return threat_name(game, pos, value)


def explain(
    game: str | Game[Any, Any],
    position: Any,
    analysis: Analysis | None = None,
    *,
    chosen: str | None = None,
    time_limit: float | None = None,
    stop: threading.Event | None = None,
) -> Explanation:
    """Why: ``analysis`` of ``position`` (by default :func:`analyze`'s, within
    ``time_limit`` or the game's default) in the game's words, for k in a
    row with k of 4 or more (Gomoku, the m,n,k-games): what each move does
    (``blocks x's four (g8-j11)``, ``makes an open four (h8-k8)``), the
    position in one sentence (``k12 is the only move: every other loses to
    x's four (g8-j11).``, ``Every move loses: x has a four-three at h9; k12
    holds out longest (loss in 6).``), the moves in lines of equal value,
    the fours and open threes of both sides and, in renju, black's forbidden
    points. ``chosen`` (the move played) gets a line of its own. Other games
    get an empty explanation (their analysis says it all). Its ``to_dict()``
    is the ``explanation`` the HTTP API adds to an analysis, and
    ``annotate`` adds it and each move's ``notes`` to an analysis' JSON."""
    game, pos = resolve(game, position)
    if analysis is None:
        limit = time_limit if time_limit is not None else default_time_limit(game)
        analysis = analyze(game, pos, time_limit=limit, stop=stop)
    return _explain(game, pos, analysis, chosen)


#: Seconds a whole review may take by default (each position gets the
#: game's own budget, and no more than an even share of what is left).
REVIEW_TOTAL = 60.0


def review(
    game: str | Game[Any, Any],
    moves: str | Sequence[str],
    *,
    start: Any = None,
    time_limit: float | None = None,
    total: float | None = REVIEW_TOTAL,
    stop: threading.Event | None = None,
) -> Review:
    """Look back on a game, finished or not: ``moves`` (in the game's
    notation, a list or one string of them separated by spaces or commas)
    played from ``start`` (None: the game's initial position). Each move
    with its mover's value before and after it, whether it was a mistake
    (the mover's result got worse), the engine's move there, its words, and
    the game in one line (:mod:`unbeatable.search.review`).

    Every position is valued once, proven where the engine can within
    ``time_limit`` seconds (None: the game's default budget, or to the end
    for games always solved exactly), else the engine's judgement, said as
    such; ``total`` bounds the whole review (None: no bound), ``stop`` ends
    it early. Raises :class:`IllegalMoveError` naming the first move that is
    not legal where it is played."""
    game, pos = resolve(game, start)
    listed = moves.replace(",", " ").split() if isinstance(moves, str) else list(moves)
    played = []
    at = pos
    for i, text in enumerate(listed):
        if not isinstance(text, str):
            raise IllegalMoveError(f"move {i + 1}: a move must be a string in the game's notation")
        if game.is_terminal(at):
            raise IllegalMoveError(f"move {i + 1} ({text}): the game is already over")
        try:
            move = game.parse_move(at, text)
        except GameError as exc:
            raise IllegalMoveError(f"move {i + 1} ({text}): {exc}") from None
        played.append(move)
        at = game.play(at, move)
    per_position = time_limit if time_limit is not None else default_time_limit(game)
    if per_position is not None and (math.isnan(per_position) or per_position <= 0):
        raise GameError(f"time limit must be a positive number of seconds, got {per_position}")
    if total is not None and (math.isnan(total) or total <= 0):
        raise GameError(f"total must be a positive number of seconds, got {total}")
    _warmed(game, None, stop)  # compiling is no part of the review's time
    return _review(
        game,
        pos,
        played,
        engine(game),
        per_position=None if per_position is None or math.isinf(per_position) else per_position,
        total=None if total is None or math.isinf(total) else total,
        stop=stop,
    )


@overload
def play_move(game: Game[P, M], position: P | str | None, move: str) -> P: ...
@overload
def play_move(game: str, position: Any, move: str) -> Any: ...
def play_move(game: str | Game[Any, Any], position: Any, move: str) -> Any:
    """The position after ``move`` (in the game's notation), as the rules
    object holds positions; raises :class:`IllegalMoveError` with the reason
    if it is not legal."""
    game, pos = resolve(game, position)
    if not isinstance(move, str):
        raise IllegalMoveError("a move must be a string in the game's notation")
    return game.play(pos, game.parse_move(pos, move))


def status(game: str | Game[Any, Any], position: Any) -> Status:
    """Whether the game is over, who won, and the cells of the winning line
    if the game has one."""
    game, pos = resolve(game, position)
    line = None
    cells = game.winning_line(pos)
    description = describe(game)
    if cells is not None and description is not None:
        line = tuple(divmod(cell, description.columns) for cell in cells)
    winner = game.winner(pos)
    reason = None
    if winner is not None:
        # Games written to the protocol without subclassing Game may lack the hook.
        own = getattr(game, "win_reason", None)
        reason = own(pos) if own is not None else None
        if reason is None and description is not None:
            reason = description.goal
    over = game.is_terminal(pos)
    if winner is None and over:
        drawn = getattr(game, "draw_reason", None)
        reason = drawn(pos) if drawn is not None else None
    return Status(over, winner, line, reason)


def _tree_algorithm(algorithm: str) -> TreeAlgorithm:
    from unbeatable.search.explore import TREE_ALGORITHMS

    for known in TREE_ALGORITHMS:
        if algorithm == known:
            return known
    names = " or ".join(TREE_ALGORITHMS)
    raise GameError(f"unknown algorithm {algorithm!r} (use {names})")


def _cutoff(cutoff: str) -> Cutoff:
    from unbeatable.search.explore import CUTOFFS

    for known in CUTOFFS:
        if cutoff == known:
            return known
    raise GameError(f"unknown cutoff {cutoff!r} (use {' or '.join(CUTOFFS)})")


def tree(
    game: str | Game[Any, Any],
    position: Any,
    *,
    depth: int = 2,
    algorithm: str = "minimax",
    time_limit: float | None = None,
    stop: threading.Event | None = None,
    cutoff: str = "exact",
) -> TracedTree:
    """The game tree below ``position``, ``depth`` plies deep, as minimax or
    alpha-beta (``algorithm``) walks it: every node with its move, position,
    value (``result``/``plies`` for the player who made the move, as in
    analysis; ``score`` for the root player, as in the textbook), whether it
    is on the best line, the order it was entered in, alpha and beta then, and
    whether alpha-beta pruned it. Leaves at the depth limit are valued exactly
    by the engine (within ``time_limit``), or with ``cutoff="heuristic"`` by
    the game's evaluation function, as depth-limited search sees them (a
    value resting on an estimate has the ``result`` ``unknown``). Raises
    :class:`TreeTooLarge` (a :class:`GameError`) for more than 5,000 nodes,
    and :class:`GameError` for heuristic leaves in a game without an
    evaluation function."""
    from unbeatable.search.explore import trace

    walk = _tree_algorithm(algorithm)
    valued = _cutoff(cutoff)
    game, pos = resolve(game, position)
    solver = engine(game) if valued == "exact" else None
    return trace(game, pos, depth, solver, limits(time_limit, stop), walk, valued)


def textbook_tree(leaves: str | Sequence[Any], algorithm: str = "minimax") -> TracedTree:
    """The textbook exercise: minimax or alpha-beta over a tree of leaf scores,
    MAX to move at the root; the same tree as :func:`tree` gives, without
    ``result``/``plies``. ``leaves`` is a power of two of numbers (or their
    text, as typed on a command line) for a binary tree, nested lists for any
    other shape, or those nested lists as JSON text."""
    from unbeatable.games.tree import parse_leaf, tree_from_json, tree_from_leaves, tree_from_lists
    from unbeatable.search.explore import trace_textbook

    walk = _tree_algorithm(algorithm)
    try:
        items: list[Any] = [] if isinstance(leaves, str) else list(leaves)
        if isinstance(leaves, str):
            shape = tree_from_json(leaves)
        elif items and all(isinstance(x, str) for x in items):
            shape = tree_from_leaves([parse_leaf(x) for x in items])
        elif all(isinstance(x, int | float) and not isinstance(x, bool) for x in items):
            shape = tree_from_leaves(items)
        else:
            shape = tree_from_lists(items)
    except GameError as exc:  # the games module speaks of positions; these are leaves
        raise GameError(f"leaves: {exc}") from None
    return trace_textbook(shape, walk)


def view(game: str | Game[Any, Any], position: Any, move: str | None = None) -> View:
    """What a face needs to show a position (after ``move``, if given): its
    notation, the side to move, the board's rows, every legal move with the
    cell it fills, and the status. Faces apply no rules of their own."""
    game, pos = resolve(game, position)
    if move is not None:
        pos = play_move(game, pos, move)
    moves = []
    # Games written to the protocol without subclassing Game may lack the hook.
    origin = getattr(game, "origin", None)
    for m in game.moves(pos):
        row, col = game.cell(pos, m)
        moves.append(Cell(game.format_move(m), row, col, origin(pos, m) if origin else None))
    return View(
        game=game.name,
        position=game.format(pos),
        to_move=game.to_move(pos),
        board=tuple(game.grid(pos).split("/")),
        moves=tuple(moves),
        status=status(game, pos),
    )


__all__ = [
    "ALGORITHMS",
    "CUTOFFS",
    "NAMING",
    "OFFERED",
    "REVIEW_TOTAL",
    "STOPPED",
    "TREE_ALGORITHMS",
    "UNLIMITED",
    "Algorithm",
    "Analysis",
    "Cell",
    "Cutoff",
    "Description",
    "Explanation",
    "Forbidden",
    "Game",
    "GameError",
    "GameInfo",
    "GameOverError",
    "Group",
    "IllegalMoveError",
    "InvalidPositionError",
    "Level",
    "Mark",
    "MoveValue",
    "Note",
    "NoteLines",
    "Perft",
    "Policy",
    "Progress",
    "Result",
    "Review",
    "ReviewValue",
    "ReviewedMove",
    "Solution",
    "Status",
    "TraceStep",
    "TracedTree",
    "TreeAlgorithm",
    "TreeNode",
    "TreeTooLarge",
    "Turn",
    "UnknownGameError",
    "View",
    "ai_turn",
    "analyze",
    "best_move",
    "book_builder",
    "cache_dir",
    "cache_size",
    "choose_move",
    "clear_cache",
    "clear_caches",
    "default_time_limit",
    "describe",
    "describe_all",
    "engine",
    "equally_good",
    "explain",
    "game_info",
    "game_names",
    "get_game",
    "limits",
    "naming",
    "normalise",
    "offered",
    "perft",
    "perft_leaves",
    "play_move",
    "plugins",
    "policy",
    "quick_move",
    "resolve",
    "review",
    "set_up",
    "show_notes",
    "solve",
    "status",
    "textbook_tree",
    "threat",
    "tree",
    "use_book",
    "value_letters",
    "value_words",
    "view",
    "warm",
]
