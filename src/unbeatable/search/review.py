"""Looking back on a game: each move's value before and after it.

A review values every position of a game once, with the game's engine, and
reads each move off two neighbouring positions: ``before`` is what the
mover could get (the value of the position it moved from) and ``after``
what it kept (the value of the position it moved to, seen by the mover, the
move counted). A move that makes the mover's result worse (a win that
became a draw, a draw that became a loss) is a *mistake*; the last one
decided the game. A value the engine could not prove within its time is its
judgement, and every word says so.

The words are defined here once (:func:`move_words`, :func:`summary`): the
terminal prints them and the web sends them, so both say the same.

It is game-agnostic: any game and any engine (an exact one proves every
value; a timed one, as Gomoku's, judges). The work is bounded twice: each
position gets at most ``per_position`` seconds, and all of them together at
most ``total``, shared out evenly among the positions still to value.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, NamedTuple

from unbeatable.answers import HIDDEN, answer, field, json_object
from unbeatable.games.base import Game
from unbeatable.search.analysis import rank, terminal_outcome
from unbeatable.search.engine import UNKNOWN, Engine, Limits, Outcome, Result

#: How a result ranks for the mover, ignoring the distance: a mistake loses
#: a rank (win > draw > loss); the distance alone is no mistake.
_RESULT_RANK = {"win": 2, "draw": 1, "loss": 0}


@answer(
    "A position's value for the player who moves from it or into it.",
    json_name="ReviewValue",
    plies=field("Plies to the end of the game (null: unknown)."),
    exact=field("Proven (false: the engine's judgement within its time)."),
)
class Value(NamedTuple):
    """A position's value for one player (``result``, ``plies`` to the end of
    the game, ``exact``: proven, or the engine's judgement within its time)."""

    result: Result
    plies: int | None
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)

    @classmethod
    def of(cls, outcome: Outcome) -> Value:
        return cls(outcome.result, outcome.plies, outcome.exact and outcome.result != "unknown")

    @property
    def known(self) -> bool:
        """Whether the result is known (proven, or at least bounded by a proof)."""
        return self.result != "unknown"


@answer(
    "One move of a reviewed game, for the player who made it.",
    ply=field("1 for the game's first move."),
    before=field("The mover's value before the move."),
    after=field("The mover's value after it (the move counted)."),
    mistake=field("The move made the mover's result worse."),
    best=field("The engine's move in that position (null: none found in time)."),
    words=field(
        "The move in words, as the terminal and the page say it.",
        examples=["c2: a draw became a loss in 6; a3 kept the draw"],
    ),
)
class ReviewedMove(NamedTuple):
    """One move of a reviewed game, for the player who made it."""

    ply: int
    move: str
    player: str
    #: What best play would have kept.
    before: Value
    after: Value
    #: Win > draw > loss.
    mistake: bool
    #: One that keeps ``before`` when proven.
    best: str | None
    #: :func:`move_words`.
    words: str

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


@answer(
    "A game looked back on: each move and the game in one line.",
    proven=HIDDEN,
    decided=HIDDEN,
    start=HIDDEN,
    end=HIDDEN,
)
class Review(NamedTuple):
    """A game looked back on: each move and the game in one line (``unbeatable
    review --json`` prints its JSON, ``POST /api/review`` serves it)."""

    game: str
    moves: tuple[ReviewedMove, ...]
    summary: str
    #: Whether every value is proven (False: some are the engine's judgement).
    proven: bool
    #: The ply of the move that decided the game (the last mistake), if any.
    decided: int | None
    #: The value at the start for the first mover, and at the end for the
    #: side to move then (for the faces: a game decided from the start).
    start: Value
    end: Value

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


def _article(value: Value) -> str:
    """A value with its article: "a win in 3", "a draw", "a loss in 4"."""
    if value.result == "unknown":
        return "an unclear position"
    if value.result == "draw":
        return "a draw"
    distance = "" if value.plies is None else f" in {value.plies}"
    return f"a {value.result}{distance}"


def _result_word(value: Value) -> str:
    """The result alone with its article: "the win", "the draw"."""
    return f"the {value.result}"


def is_mistake(before: Value, after: Value) -> bool:
    """Whether a move lost value: the mover's result got worse. A result
    known on one side only counts when the move ends in a known loss (an
    open position, as the engine judged it, became a lost one)."""
    if before.known and after.known:
        return _RESULT_RANK[after.result] < _RESULT_RANK[before.result]
    return not before.known and after.result == "loss"


def move_words(move: str, before: Value, after: Value, best: str | None) -> str:
    """One move in words, for the player who made it: "c2: a draw became a
    loss in 4; b1 kept the draw", "b2 kept the draw", "h9: not proven (the
    engine judged f8 best)". Values the engine only judged say so."""
    judged = "" if before.exact and after.exact else " (judged)"
    other = best is not None and best != move
    if is_mistake(before, after):
        if not before.known:
            choice = f"; the engine would play {best}" if other else ""
            return f"{move}: {_article(before)} became {_article(after)}{judged}{choice}"
        kept = f"; {best} kept {_result_word(before)}" if other else ""
        return f"{move}: {_article(before)} became {_article(after)}{judged}{kept}"
    if not after.known:
        if before.known:
            kept = f"; {best} kept {_result_word(before)}" if other else ""
            return f"{move}: {_article(before)} became unclear (judged){kept}"
        choice = f"the engine would play {best}" if other else "the engine's choice too"
        return f"{move}: not proven; {choice}"
    if after.result == "draw":
        return f"{move} kept the draw{judged}"
    if after.result == "win" and after.plies == 1:
        return f"{move} won"
    if after.plies is None or before.plies is None or after.plies == before.plies:
        distance = "" if after.plies is None else f" in {after.plies}"
        verb = "kept the win" if after.result == "win" else "still a loss"
        if after.result == "win":
            return f"{move} {verb}{distance}{judged}"
        return f"{move}: {verb}{distance}, the longest defence{judged}"
    if after.result == "win":
        faster = f" ({best} wins sooner)" if other else ""
        return f"{move} kept the win, in {after.plies} instead of {before.plies}{faster}{judged}"
    if after.plies > before.plies:  # only an engine's judgement can disagree so
        return f"{move}: still a loss, in {after.plies}{judged}"
    longer = f" ({best} holds out longer)" if other else ""
    return f"{move}: still a loss, in {after.plies} instead of {before.plies}{longer}{judged}"


def summary(
    moves: Sequence[ReviewedMove],
    start: Value,
    over: bool,
    per_position: float | None = None,
) -> str:
    """The game in one line: how many moves kept the value, the mistakes,
    the move that decided the game (the last mistake), and whether values
    are proven or the engine's judgement (within ``per_position`` seconds)."""
    if not moves:
        return f"No moves yet: the start is {_article(start)} for the first player."
    mistakes = [m for m in moves if m.mistake]
    unclear = [m for m in moves if not m.mistake and not m.after.known]
    kept = len(moves) - len(mistakes) - len(unclear)
    parts = [f"{kept} of {len(moves)} {'move' if len(moves) == 1 else 'moves'} kept the value"]
    if unclear:
        parts.append(f"{len(unclear)} not proven either way")
    decided = "decided the game" if over else "decided the game so far"
    if mistakes:
        last = mistakes[-1]
        how = f"{_article(last.before)} became {_article(last.after)} for {last.player}"
        if len(mistakes) == 1:
            named = f"{last.ply}. {last.move} ({last.player})"
            parts.append(f"1 mistake: {named}, which {decided} ({how})")
        else:
            named = ", ".join(f"{m.ply}. {m.move} ({m.player})" for m in mistakes)
            parts.append(f"{len(mistakes)} mistakes: {named}; the last {decided} ({how})")
    else:
        parts.append("no mistakes")
    text = "; ".join(parts) + "."
    if not mistakes and start.result == "draw":
        text += " Best play from both sides: a draw."
    elif not mistakes and start.known:
        verb = "wins" if start.result == "win" else "loses"
        text += f" Decided from the start: with best play {moves[0].player} {verb}."
    if all(m.before.exact and m.after.exact for m in moves):
        return text + " Every value proven."
    within = "" if per_position is None else f" within {per_position:g} s a position"
    return text + f" Values not proven are the engine's judgement{within}."


def review(
    game: Game[Any, Any],
    start: Any,
    moves: Sequence[Any],
    engine: Engine,
    *,
    per_position: float | None = None,
    total: float | None = None,
    stop: Any = None,
) -> Review:
    """Review ``moves`` (the game's own move objects, legal one after the
    other) played from ``start``: every position valued once by ``engine``
    within ``per_position`` seconds (None: to the end) and all of them
    within ``total`` (None: no overall limit), ``stop`` (a
    :class:`threading.Event`) ending the work early; positions left
    without time are judged as far as the engine got (often: not at all)."""
    positions = [start]
    for move in moves:
        positions.append(game.play(positions[-1], move))
    ends = None if total is None else time.perf_counter() + total
    outcomes: list[Outcome] = []
    picks: list[Any] = []
    open_positions = sum(1 for p in positions if not game.is_terminal(p))
    for pos in positions:
        if game.is_terminal(pos):
            outcomes.append(terminal_outcome(game, pos))
            picks.append(None)
            continue
        limits = _limits(per_position, ends, open_positions, stop)
        open_positions -= 1
        solved = engine.solve(pos, limits)
        outcome = solved.outcome if solved.outcome.result != "unknown" else UNKNOWN
        outcomes.append(outcome)
        picks.append(solved.move)
    reviewed = []
    for i, move in enumerate(moves):
        pos = positions[i]
        before = Value.of(outcomes[i])
        after = Value.of(outcomes[i + 1].parent())
        if after.known and rank(Outcome(after.result, after.plies)) > rank(
            Outcome(before.result, before.plies)
        ):
            # The next position was read further: the mover had at least that.
            before = after._replace(exact=False)
        best = None if picks[i] is None else game.format_move(picks[i])
        name = game.format_move(move)
        reviewed.append(
            ReviewedMove(
                ply=i + 1,
                move=name,
                player=game.to_move(pos),
                before=before,
                after=after,
                mistake=is_mistake(before, after),
                best=best,
                words=move_words(name, before, after, best),
            )
        )
    first = Value.of(outcomes[0])
    end = Value.of(outcomes[-1])
    mistakes = [m.ply for m in reviewed if m.mistake]
    return Review(
        game=game.name,
        moves=tuple(reviewed),
        summary=summary(reviewed, first, game.is_terminal(positions[-1]), per_position),
        proven=all(m.before.exact and m.after.exact for m in reviewed),
        decided=mistakes[-1] if mistakes else None,
        start=first,
        end=end,
    )


def _limits(per_position: float | None, ends: float | None, left: int, stop: Any) -> Limits:
    """One position's limits: its own seconds, and no more than an even
    share of what is left of the total."""
    deadline = None if per_position is None else time.perf_counter() + per_position
    if ends is not None:
        share = time.perf_counter() + max(0.0, ends - time.perf_counter()) / max(1, left)
        deadline = share if deadline is None else min(deadline, share)
    return Limits(deadline, stop)
