"""A game looked back on: each move's value before and after it, the
mistakes and the game in one line (:func:`review`; the reading itself is
:mod:`unbeatable.search.review`'s)."""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from unbeatable.api import engines
from unbeatable.api.request import GAME_DEFAULT, TimeLimit, budget, resolve
from unbeatable.games import GameError, IllegalMoveError

if TYPE_CHECKING:
    from unbeatable.games import Game
    from unbeatable.search.review import Review

#: Seconds a whole review may take by default (each position gets the
#: game's own budget, and no more than an even share of what is left).
REVIEW_TOTAL = 60.0


def review(
    game: str | Game[Any, Any],
    moves: str | Sequence[str],
    *,
    start: Any = None,
    time_limit: TimeLimit = None,
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
    ``time_limit`` seconds (None or :data:`GAME_DEFAULT`: the game's default
    budget, or to the end for games always solved exactly; ``math.inf``:
    every value proven, however long), else the engine's judgement, said as
    such; ``total`` bounds the whole review (None or ``math.inf``: no
    bound), ``stop`` ends it early. Raises :class:`IllegalMoveError` naming
    the first move that is not legal where it is played."""
    from unbeatable.search.review import review as _review

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
    per_position = budget(game, GAME_DEFAULT if time_limit is None else time_limit)
    if total is not None and (math.isnan(total) or total <= 0):
        raise GameError(f"total must be a positive number of seconds, got {total}")
    engines.warmed(game, None, stop)  # compiling is no part of the review's time
    return _review(
        game,
        pos,
        played,
        engines.engine(game),
        per_position=None if math.isinf(per_position) else per_position,
        total=None if total is None or math.isinf(total) else total,
        stop=stop,
    )


__all__ = ["REVIEW_TOTAL", "review"]
