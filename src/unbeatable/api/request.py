"""One question, resolved once at the door: :class:`Request`.

A face (or a script) asks about a game, a position, a level and a budget; the
door (:func:`ask`) turns those into one typed object: the rules object, the
position parsed, the :class:`Level`, the budget in seconds decided in one
place (:func:`budget`), the stop switch and the seed. Every function below
receives it whole, so nothing is parsed, looked up or decided twice.

Time has one meaning here: seconds of the answer (the search ends
:data:`ANSWER_RESERVE` early, so that the answer arrives in time), with
``math.inf`` for none (the exact answer, however long) and
:data:`GAME_DEFAULT` for the game's own budget (its record's policy:
:func:`unbeatable.api.default_time_limit`). The public functions' ``None``
keeps the meaning it always had for each (no limit for ``analyze``,
``solve``, ``tree``; the game's default for ``choose_move``, ``ai_turn``,
``explain``, ``review``), and turns into one of those two at the door.
"""

from __future__ import annotations

import math
import threading
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, NoReturn, TypeVar, overload

from unbeatable.games import Game, GameError, get_game
from unbeatable.search.engine import KNOWN_ONLY, Limits, Progress
from unbeatable.search.levels import Level

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

    from unbeatable.api.turn import Forced


P = TypeVar("P")
M = TypeVar("M")


class Default(Enum):
    """The type of :data:`GAME_DEFAULT` (an enum of one, so that type
    checkers tell it from a number of seconds)."""

    budget = "the game's default budget"

    def __repr__(self) -> str:
        return "GAME_DEFAULT"

    __str__ = __repr__


#: ``time_limit=GAME_DEFAULT``: the game's own budget (None for a game always
#: solved exactly: then no limit).
GAME_DEFAULT: Final = Default.budget

#: A time limit as the public functions take it: seconds (``math.inf``: none),
#: :data:`GAME_DEFAULT`, or ``None`` (whatever each function documents).
TimeLimit = float | Default | None

#: Seconds of a time limit kept for answering after the search stops (a
#: fallback move, the reply): at most a tenth of the limit.
ANSWER_RESERVE = 0.03

#: A stop switch that is already set: pass it as ``stop`` to get only what the
#: engines know without searching (an opening book, a remembered answer).
STOPPED = KNOWN_ONLY.stop


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


def budget(game: Game[Any, Any], time_limit: float | Default) -> float:
    """Seconds an answer about ``game`` may take: the one place a budget is
    decided. :data:`GAME_DEFAULT` is the game's own (its record's policy;
    ``math.inf`` for a game always solved exactly); a number is itself,
    ``math.inf`` meaning no limit. Raises :class:`GameError` for a number
    that is no positive time (zero, negative, NaN)."""
    if time_limit is GAME_DEFAULT:
        from unbeatable.api import engines  # the policy: its record's, or a plug-in engine's

        own = engines.default_time_limit(game)
        return math.inf if own is None else own
    if not isinstance(time_limit, int | float) or isinstance(time_limit, bool):
        raise GameError(f"time limit must be a number of seconds, got {time_limit!r}")
    if math.isnan(time_limit) or time_limit <= 0:
        raise GameError(f"time limit must be a positive number of seconds, got {time_limit}")
    return float(time_limit)


def limits(
    time_limit: float | None,
    stop: threading.Event | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> Limits:
    """The search limits of a time limit in seconds (None or infinity: none),
    starting now, with the stop switch and the progress report (see
    :class:`Limits`).

    The search ends :data:`ANSWER_RESERVE` early, so that the answer, not
    just the search, comes within the limit."""
    if time_limit is not None and (math.isnan(time_limit) or time_limit <= 0):
        raise GameError(f"time limit must be a positive number of seconds, got {time_limit}")
    if time_limit is not None and not math.isinf(time_limit):
        time_limit -= min(ANSWER_RESERVE, time_limit / 10)
    return Limits.seconds(time_limit, stop, progress)


def level_of(level: Level | str) -> Level:
    """The :class:`Level` named ``level``; :class:`GameError` naming the
    levels for another name."""
    if isinstance(level, Level):
        return level
    try:
        return Level(level)
    except ValueError:
        names = ", ".join(Level)
        raise GameError(f"unknown level {level!r} (use one of: {names})") from None


#: :class:`Request`'s fields, in order (its constructor's arguments).
_FIELDS = (
    "game",
    "position",
    "level",
    "time_limit",
    "stop",
    "budgeted",
    "seed",
    "rng",
    "explain",
    "algorithm",
    "book",
    "progress",
    "worked_out",
)


class Request:
    """One question about a position, resolved once (:func:`ask`): every
    function of the api below the door receives it whole.

    Immutable, equal only to itself. A plain class with slots rather than a
    dataclass: ``dataclasses`` imports ``inspect``, which would cost a
    one-shot ``analyze --json`` most of a bare Python start again."""

    __slots__ = _FIELDS

    #: The rules object.
    game: Game[Any, Any]
    #: The position, as the rules object holds it.
    position: Any
    #: How well the AI plays (a move's questions only).
    level: Level
    #: Seconds the answer may take (``math.inf``: no limit, the exact answer).
    time_limit: float
    #: Set from another thread to end the work early; already set: answer
    #: only what is known without a search.
    stop: threading.Event | None
    #: Whether a budget applies (one was given, even ``math.inf``, or the
    #: game has one by default): answers then say whether they are proven
    #: (``exact``). False only for a game always solved exactly, asked with
    #: no time limit (tic-tac-toe): its answers are exact and say nothing of it.
    budgeted: bool
    #: The AI's random choices (among equally good moves; a weaker level's
    #: mistakes): drawn from ``rng`` if given (it advances from one call to
    #: the next), else from a generator seeded anew with ``seed`` by each
    #: call (None: unseeded, so the AI varies).
    seed: int | None
    rng: random.Random | None
    #: With a move: the analysis it is chosen from is answered too.
    explain: bool
    #: The engine asked (None: the game's own, else negamax).
    algorithm: str | None
    #: False: consult no opening book (a proof searched anew).
    book: bool
    #: Receives reports of a long search (see :class:`Limits`).
    progress: Callable[[Progress], None] | None
    #: What was worked out about the position (:attr:`forced`), shared by
    #: the copies :meth:`stopped_by` makes.
    worked_out: dict[str, Any]

    def __init__(
        self,
        game: Game[Any, Any],
        position: Any,
        level: Level = Level.impossible,
        time_limit: float = math.inf,
        stop: threading.Event | None = None,
        budgeted: bool = False,
        seed: int | None = None,
        rng: random.Random | None = None,
        explain: bool = False,
        algorithm: str | None = None,
        book: bool = True,
        progress: Callable[[Progress], None] | None = None,
        worked_out: dict[str, Any] | None = None,
    ) -> None:
        if worked_out is None:  # a new question (a copy shares its original's)
            worked_out = {}
        values = (game, position, level, time_limit, stop, budgeted, seed, rng, explain, algorithm)
        for name, value in zip(_FIELDS, (*values, book, progress, worked_out), strict=True):
            object.__setattr__(self, name, value)  # immutable: its own __setattr__ refuses

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r}: a Request is immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r}: a Request is immutable")

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FIELDS[:-1])
        return f"Request({fields})"

    def replace(self, **changes: Any) -> Request:
        """The same question with ``changes`` (fields by name); what was
        worked out about the position is shared unless replaced too."""
        return Request(**{name: getattr(self, name) for name in _FIELDS} | changes)

    @property
    def known_only(self) -> bool:
        """Whether only what is known without a search may be answered (the
        stop switch is already set)."""
        return self.stop is not None and self.stop.is_set()

    @property
    def timed(self) -> bool:
        """Whether the answer has a time limit."""
        return not math.isinf(self.time_limit)

    def limits(self) -> Limits:
        """The search's limits, starting now (less :data:`ANSWER_RESERVE`)."""
        return limits(self.time_limit, self.stop, self.progress)

    def random(self) -> random.Random:
        """The generator of this call's random choices (see ``seed``)."""
        if self.rng is not None:
            return self.rng
        import random as random_module

        return random_module.Random(self.seed)

    @property
    def forced(self) -> Forced:
        """The move any player makes at once and its outcome when known
        without a search, else None (:func:`unbeatable.search.analysis.obvious`):
        worked out once per question, whatever stop switch asks it."""
        if "forced" not in self.worked_out:
            from unbeatable.search.analysis import obvious

            self.worked_out["forced"] = obvious(self.game, self.position)
        forced: Forced = self.worked_out["forced"]
        return forced

    def stopped_by(self, stop: threading.Event | None) -> Request:
        """The same question with another stop switch (what was worked out
        about the position is shared: a face's quick attempt, from what is
        known, and its search after it work it out once)."""
        return self.replace(stop=stop)


def ask(
    game: str | Game[Any, Any],
    position: Any = None,
    *,
    level: Level | str = Level.impossible,
    time_limit: float | Default = GAME_DEFAULT,
    stop: threading.Event | None = None,
    seed: int | None = None,
    rng: random.Random | None = None,
    explain: bool = False,
    algorithm: str | None = None,
    book: bool = True,
    progress: Callable[[Progress], None] | None = None,
) -> Request:
    """The door: ``game`` (a name or a rules object) and ``position`` (its
    notation, a position object, or None for the initial one) resolved, the
    level named, the budget decided (:func:`budget`: :data:`GAME_DEFAULT`, or
    seconds with ``math.inf`` for none). Raises :class:`GameError` (an
    unknown game, a malformed position, a bad level or time) before any work."""
    rules, pos = resolve(game, position)
    seconds = budget(rules, time_limit)
    return Request(
        rules,
        pos,
        level=level_of(level),
        time_limit=seconds,
        stop=stop,
        # A limit given (even none, math.inf) is answered with its exactness.
        budgeted=time_limit is not GAME_DEFAULT or not math.isinf(seconds),
        seed=seed,
        rng=rng,
        explain=explain,
        algorithm=algorithm,
        book=book,
        progress=progress,
    )


def asked(
    game: str | Game[Any, Any] | Request,
    position: Any,
    none_means: float | Default,
    time_limit: TimeLimit,
    **given: Any,
) -> Request:
    """The :class:`Request` a public function was called with: the one given,
    else one made at the door from its arguments, its ``time_limit`` of
    ``None`` read as ``none_means`` (each function documents which)."""
    if isinstance(game, Request):
        return game
    if time_limit is not None:
        return ask(game, position, time_limit=time_limit, **given)
    request = ask(game, position, time_limit=none_means, **given)
    # No limit said: the answer says whether it is proven only on a game
    # that has a budget of its own (which may leave answers unproven).
    timed = request.timed or budget(request.game, GAME_DEFAULT) != math.inf
    return request.replace(budgeted=timed)


__all__ = [
    "ANSWER_RESERVE",
    "GAME_DEFAULT",
    "STOPPED",
    "Default",
    "Request",
    "TimeLimit",
    "ask",
    "budget",
    "level_of",
    "limits",
    "resolve",
]
