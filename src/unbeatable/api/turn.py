"""The AI's turn: the move it plays at a level (:func:`choose_move`), and the
turn as a face shows it (:func:`ai_turn`: the move, the position after it,
whether the move is proven)."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from unbeatable.answers import HIDDEN, answer, computed, field, json_object
from unbeatable.api import engines
from unbeatable.api.request import (
    GAME_DEFAULT,
    Request,
    TimeLimit,
    asked,
    resolve,
)
from unbeatable.api.values import analysis as analysis_of
from unbeatable.api.views import Status, View, view
from unbeatable.games import GameError
from unbeatable.search.analysis import Analysis, MoveValue, move_value, resisting
from unbeatable.search.engine import KNOWN_ONLY, UNKNOWN, Limits, Outcome
from unbeatable.search.levels import Level

if TYPE_CHECKING:
    import random

    from unbeatable.games import Game


class GameOverError(GameError):
    """The game is over, so there is no move to make (the web answers 409)."""


#: What :func:`analysis.obvious` found: the move any player makes at once and
#: its outcome when known without search, or None when nothing is forced.
Forced = tuple[Any, Outcome | None] | None

#: The share of what is left of a move's budget that may go to valuing the
#: moves beside the best one on a timed game, to find those as good.
VARIETY_SHARE = 4
#: Legal moves up to which a timed game's other moves are valued to find
#: those as good: each asks the engine once, a lookup on a small board but
#: milliseconds each on a big one (Gomoku's two hundred cost more than the
#: proof of the move itself); past it, only an analysis at hand varies.
VARIETY_MOVES = 49


@overload
def choose_move(request: Request, /, *, analysis: Analysis | None = None) -> MoveValue | None: ...
@overload
def choose_move(
    game: str | Game[Any, Any],
    position: Any,
    level: Level | str = Level.impossible,
    rng: random.Random | None = None,
    time_limit: TimeLimit = None,
    *,
    analysis: Analysis | None = None,
    stop: threading.Event | None = None,
    seed: int | None = None,
) -> MoveValue | None: ...
def choose_move(
    game: str | Game[Any, Any] | Request,
    position: Any = None,
    level: Level | str = Level.impossible,
    rng: random.Random | None = None,
    time_limit: TimeLimit = None,
    *,
    analysis: Analysis | None = None,
    stop: threading.Event | None = None,
    seed: int | None = None,
) -> MoveValue | None:
    """The move an AI of ``level`` plays (None if the game is over).

    The impossible level plays a move that keeps the position's value (when
    every move loses, the most resisting of the slowest), proven within the
    time limit (None or :data:`GAME_DEFAULT`: the game's default; seconds,
    ``math.inf`` for none) or, past it, the engine's best guess. Where
    several moves win as fast or draw alike, it picks one of them at random
    (:func:`equally_good`): ``rng`` (a :class:`random.Random`) or ``seed``
    makes the choice reproducible. The weaker levels cost no more: the same
    move, plus what they see within their short horizon. At every level,
    the obvious is played at once: a win in one, the block of a lone threat
    (see :func:`analysis.obvious`). With an ``analysis`` of the position
    (the AI explains itself), the choice is made from it instead, with no
    search. Or pass one :class:`Request`.
    """
    request = asked(
        game, position, GAME_DEFAULT, time_limit, level=level, stop=stop, seed=seed, rng=rng
    )
    return chosen_move(request, analysis)


def chosen_move(request: Request, analysis: Analysis | None = None) -> MoveValue | None:
    """:func:`choose_move`'s answer to a resolved request."""
    from unbeatable.search.levels import SKILLS, choose, choose_from, within_horizon

    game, pos, level = request.game, request.position, request.level
    rng = request.random()
    if analysis is not None:
        forced = request.forced
        if forced is not None:
            same = [m for m in analysis.moves if m.raw == forced[0]]
            if same:
                return same[0]
        if level is Level.impossible and analysis.best is not None:
            equal = [m for m in analysis.moves if _same_value(m, analysis.best)]
            return _pick(game, pos, analysis.best, equal, rng)
        return choose_from(analysis, level, rng)
    if not game.moves(pos):
        return None
    forced = request.forced
    if level is Level.impossible or not request.budgeted:
        if forced is None or forced[1] is None:  # a search may follow: its clock starts warm
            engines.warmed(game, None, request.stop)
        search_limits = request.limits()
        best = _ai_move(request, search_limits)
        if level is Level.impossible and best is not None and forced is None:
            equal = equally_good(game, pos, best, search_limits)
            return _pick(game, pos, best, equal, rng)
    else:
        # A game whose search is timed: the weaker levels take the engine's
        # untimed guess (a book move, or a fixed-size search), so that their
        # choice never depends on how far a timed search got.
        best = _guessed(request)
    if best is None:  # stopped before anything was found: the most resisting move
        first = next(resisting(game, pos, game.moves(pos)))
        best = move_value(game, pos, first, UNKNOWN)
    if level is Level.impossible or forced is not None:
        return best
    horizon = SKILLS[level].horizon

    def seen() -> list[MoveValue]:  # looked at only when the level misses the best move
        return within_horizon(game, pos, horizon)

    return choose(best, seen, level, rng)


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
    known = engines.analyses.get((game, None, pos))
    if known is None and engines.policy(game).exact:
        known = analysis_of(Request(game, pos))
    if known is not None:
        return [m for m in known.moves if _same_value(m, best)] or [best]
    remembered = engines.equals.get((game, pos))
    if remembered is not None and any(m.move == best.move for m in remembered):
        return list(remembered)
    legal = list(game.moves(pos))
    if len(legal) > VARIETY_MOVES:
        return [best]
    solver = engines.engine(game)
    share = within.share(VARIETY_SHARE)
    equal = []
    complete = True
    for i, move in enumerate(legal):
        if game.format_move(move) == best.move:
            equal.append(best)
            continue
        asked_for = KNOWN_ONLY if share.expired() else share.share(len(legal) - i)
        outcome = solver.value(game.play(pos, move), asked_for).outcome.parent()
        value = move_value(game, pos, move, outcome)
        complete = complete and outcome.exact
        if outcome.exact and _same_value(value, best):
            equal.append(value)
    if complete:  # every move valued: the same choice whatever the engine knows later
        engines.equals.put((game, pos), tuple(equal))
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
    from unbeatable.search.analysis import obvious

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


def _location(move: MoveValue) -> dict[str, Any]:
    return move.ref()


@answer(
    "The AI's move, the position after it, and whether that ended the game.",
    json_name="MoveResponse",
    move=field(write=_location, shape="MoveRef"),
    after=HIDDEN,
    position=computed(
        lambda turn: turn.position, str, "Canonical notation of the position after the move."
    ),
    status=computed(lambda turn: turn.status, "Status"),
    view=field("The position after the move, as a face shows it."),
    proven=field(
        "At the impossible level: whether the move is proven to keep the position's value "
        "(false when the time budget ran out and it is a heuristic pick); null at the "
        "other levels, whose mistakes are on purpose."
    ),
    analysis=field("Only with explain: the analysis of the position before the move.", omit=None),
    json_order=("move", "position", "status", "view", "proven", "analysis"),
)
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
        """The JSON object served by ``POST /api/move``: the move's location (its value is
        in the analysis, with ``explain``)."""
        return json_object(self)


@overload
def ai_turn(request: Request, /) -> Turn | None: ...
@overload
def ai_turn(
    game: str | Game[Any, Any],
    position: Any,
    level: Level | str = Level.impossible,
    *,
    rng: random.Random | None = None,
    time_limit: TimeLimit = None,
    explain: bool = False,
    stop: threading.Event | None = None,
    seed: int | None = None,
) -> Turn | None: ...
def ai_turn(
    game: str | Game[Any, Any] | Request,
    position: Any = None,
    level: Level | str = Level.impossible,
    *,
    rng: random.Random | None = None,
    time_limit: TimeLimit = None,
    explain: bool = False,
    stop: threading.Event | None = None,
    seed: int | None = None,
) -> Turn | None:
    """The AI's turn at ``level``: the move it plays (:func:`choose_move`),
    the position after it and whether the move is proven; with ``explain``,
    the move is chosen from an analysis of the position, returned with it.
    Among moves of equal value the choice is random: ``rng`` or ``seed``
    makes it (and the weaker levels' mistakes) reproducible.

    ``time_limit`` is the search's budget (None or :data:`GAME_DEFAULT`: the
    game's default; seconds, ``math.inf`` for none). With ``stop`` already
    set, only what is known without searching is answered (an opening book,
    a remembered answer, a win in one; with ``explain`` an analysis that
    needs no search), else None: the web answers those at once and searches
    the rest on a worker thread. Raises :class:`GameOverError` on a finished
    game. Or pass one :class:`Request`.
    """
    request = asked(
        game,
        position,
        GAME_DEFAULT,
        time_limit,
        level=level,
        stop=stop,
        seed=seed,
        rng=rng,
        explain=explain,
    )
    return turn(request)


def turn(request: Request) -> Turn | None:
    """:func:`ai_turn`'s answer to a resolved request."""
    game, pos = request.game, request.position
    if game.is_terminal(pos):
        winner = game.winner(pos)
        ended = f"{winner} has won" if winner else "it is a draw"
        raise GameOverError(f"the game is over: {ended}")
    analysis = None
    if request.explain:
        analysis = analysis_of(request)
        unproven = analysis.exact is False or any(not m.proven for m in analysis.moves)
        if request.known_only and unproven:
            return None
    elif request.known_only:
        known = _ai_move(request, KNOWN_ONLY)
        if known is None or not known.proven:
            return None
    chosen = chosen_move(request, analysis)
    assert chosen is not None  # the game is not over
    raw = chosen.raw if chosen.raw is not None else game.parse_move(pos, chosen.move)
    after = game.play(pos, raw)
    proven = chosen.proven if request.level is Level.impossible else None
    return Turn(chosen, after, view(game, after), proven, analysis)


def _ai_move(request: Request, search_limits: Limits) -> MoveValue | None:
    """The impossible level's move with its value, remembered once proven
    (None only if the limits were stopped before anything was found).

    The obvious move (:attr:`Request.forced`) is played at once when its
    value needs no search; a forced block is played whatever the engine
    says, with the value the engine found for the position."""
    game, pos, forced = request.game, request.position, request.forced
    if forced is not None and forced[1] is not None:
        return move_value(game, pos, forced[0], forced[1])
    memo_key = (game, pos)
    known = engines.moves.get(memo_key)
    if known is not None:
        return known
    exact = engines.analyses.get((game, None, pos))
    if exact is not None and exact.best is not None:
        return exact.best
    solved = engines.engine(game).solve(pos, search_limits)
    proven = solved.proven
    move = solved.move
    if forced is not None and move != forced[0]:
        move, proven = forced[0], solved.outcome.exact  # the only move that holds
    if move is None:
        return None
    chosen = move_value(game, pos, move, solved.outcome if proven else UNKNOWN)
    if proven:
        engines.moves.put(memo_key, chosen)
    return chosen


def _guessed(request: Request) -> MoveValue | None:
    """The weaker levels' best move on a timed game: the obvious one, else the
    engine's untimed guess (None if it has none)."""
    game, pos, forced = request.game, request.position, request.forced
    if forced is not None:
        return move_value(game, pos, forced[0], forced[1] or UNKNOWN)
    guessed = engines.engine(game).guess(pos)
    if guessed.move is None:
        return None
    return move_value(game, pos, guessed.move, guessed.outcome if guessed.proven else UNKNOWN)


__all__ = [
    "VARIETY_MOVES",
    "VARIETY_SHARE",
    "Forced",
    "GameOverError",
    "Turn",
    "ai_turn",
    "choose_move",
    "chosen_move",
    "equally_good",
    "quick_move",
    "turn",
]
