"""Difficulty levels: how a human-like opponent picks its move.

``impossible`` always plays the best move. The weaker levels model a player
who sees only a short way ahead: they take a win within their horizon, avoid
a loss within it, and otherwise play a random move, with a chance of playing
the best move anyway. Whatever the level, what any player sees is never
missed: a win in one is taken and an immediate threat blocked (every level
sees two plies), and when every move it sees loses it plays the best one,
which resists longest. Randomness comes from the caller's ``random.Random``,
drawn the same way whatever the engine found, so a seeded game replays
exactly.

What a weak level "sees" is computed exactly by :func:`within_horizon`, a
search only ``horizon`` plies deep: it costs next to nothing (on games that
read threats off the board, a look at them per move, not a move pair) and
never depends on how far a timed search got. The best move is the one the
impossible level plays, so the weaker levels never cost more than it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from unbeatable.games.base import Game
from unbeatable.search.analysis import (
    Analysis,
    MoveValue,
    move_value,
    opponent,
    rank,
    terminal_outcome,
)
from unbeatable.search.engine import UNKNOWN, Outcome, Result

if TYPE_CHECKING:
    import random


class Level(StrEnum):
    """Difficulty of the AI."""

    easy = "easy"
    medium = "medium"
    impossible = "impossible"


class Skill(NamedTuple):
    """How a weaker level plays."""

    #: Plies ahead the player sees results (2: its own immediate wins and the
    #: opponent's immediate replies, what nobody misses).
    horizon: int
    #: Chance of playing the truly best move anyway.
    accuracy: float


#: Both weaker levels see what every player sees; they differ in how often
#: they find the best move beyond it.
SKILLS: dict[Level, Skill] = {
    Level.easy: Skill(horizon=2, accuracy=0.25),
    Level.medium: Skill(horizon=2, accuracy=0.6),
}


def choose(
    best: MoveValue | None,
    moves: Sequence[MoveValue] | Callable[[], Sequence[MoveValue]],
    level: Level | str,
    rng: random.Random,
) -> MoveValue | None:
    """The move an AI of ``level`` plays, given the best move and the legal
    moves with what is known of their values (None if the game is over).

    Only values within the level's horizon count, so the choice is the same
    whether ``moves`` carry exact values or just :func:`within_horizon`'s.
    ``moves`` may be a function that gives them: it is called only when the
    level misses the best move, so a lucky move costs no look-ahead. When
    every move visibly loses, the best move is played: it loses slowest.
    """
    level = Level(level)
    if best is None or level is Level.impossible:
        return best
    skill = SKILLS[level]
    if rng.random() < skill.accuracy:
        return best

    def seen(m: MoveValue) -> bool:
        return m.plies is not None and m.plies <= skill.horizon

    if callable(moves):
        moves = moves()

    wins = [m for m in moves if m.result == "win" and seen(m)]
    if wins:
        return wins[0]
    safe = [m for m in moves if not (m.result == "loss" and seen(m))]
    # Nothing decisive in sight: any move that does not visibly lose will do.
    return rng.choice(safe) if safe else best


def choose_from(analysis: Analysis, level: Level | str, rng: random.Random) -> MoveValue | None:
    """:func:`choose` over a whole analysis (its best move and every move's value)."""
    return choose(analysis.best, analysis.moves, level, rng)


def within_horizon(game: Game[Any, Any], position: Any, horizon: int) -> list[MoveValue]:
    """Every legal move with its value where the game ends within ``horizon``
    plies of best play (that move included), else ``unknown``: what a player
    who sees ``horizon`` plies ahead knows. Board order.

    Up to two plies, games that read threats off the board
    (:meth:`Game.winning_moves`) are read instead of searched: a move loses
    in two when the opponent can then win at once."""
    reader = _threat_reader(game, position) if horizon <= 2 else None
    out = []
    for move in game.moves(position):
        if reader is not None:
            known = reader(move, horizon)
        else:
            outcome = ends_within(game, game.play(position, move), horizon - 1)
            known = None if outcome is None else outcome.parent()
        out.append(move_value(game, position, move, UNKNOWN if known is None else known))
    return out


def _threat_reader(
    game: Game[Any, Any], position: Any
) -> Callable[[Any, int], Outcome | None] | None:
    """For a game that reads threats: a function giving a move's outcome for
    the mover when the game ends within ``horizon`` (at most 2) plies, else
    None; the same as :func:`ends_within`, without playing every reply."""
    them = opponent(game, position)
    threats = game.winning_moves(position, them)
    if threats is None:
        return None
    threatened = set(threats)

    def ends(move: Any, horizon: int) -> Outcome | None:
        child = game.play(position, move)
        if game.is_terminal(child):
            return terminal_outcome(game, child).parent()
        if horizon < 2:
            return None
        # A threat the move is not played on stands (the contract); else look.
        if threatened - {move} or game.winning_moves(child, them):
            return Outcome(Result.loss, 2)
        if all(game.is_terminal(game.play(child, reply)) for reply in game.moves(child)):
            return Outcome(Result.draw, 2)  # every reply ends it, none wins: drawn
        return None

    return ends


def ends_within(game: Game[Any, Any], position: Any, plies: int) -> Outcome | None:
    """The outcome for the side to move if best play ends the game within
    ``plies`` more plies, else None."""
    if game.is_terminal(position):
        return terminal_outcome(game, position)
    if plies <= 0:
        return None
    best: Outcome | None = None
    open_ended = False
    for move in game.moves(position):
        child = ends_within(game, game.play(position, move), plies - 1)
        if child is None:
            open_ended = True  # the game goes on past the horizon that way
        elif best is None or rank(child.parent()) > rank(best):
            best = child.parent()
    if best is not None and best.result == "win":
        return best  # no move that goes on can win sooner than within the horizon
    return None if open_ended else best
