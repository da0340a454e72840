"""What every engine answers, and the limits every search obeys.

An :class:`Outcome` is the game-theoretic value of a position for the side to
move: who wins under perfect play and how many plies the game then lasts. It is
the common currency between the generic engines (minimax, alpha-beta, negamax)
and specialised solvers (e.g. the Connect Four bitboard solver), so analysis,
the CLI and the web API never depend on one engine's score scale.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, Protocol

from unbeatable.games.base import Game

Result = Literal["win", "draw", "loss", "unknown"]

#: Result of the opponent, seen from the other side of the board.
FLIP: dict[str, Result] = {"win": "loss", "loss": "win", "draw": "draw", "unknown": "unknown"}


class SearchTimeout(Exception):
    """Raised inside a search when its deadline or node budget runs out."""


class Outcome(NamedTuple):
    """Value of a position for the side to move.

    ``plies`` counts half-moves to the end of the game under perfect play by
    both sides (``None`` when unknown: weak solving or an unfinished search).
    ``exact`` is False when the search ran out of budget and the result is a
    heuristic guess (then ``result`` is ``"unknown"`` unless it was proven).
    """

    result: Result
    plies: int | None
    exact: bool = True

    def parent(self) -> Outcome:
        """The same outcome seen from the position one move earlier, by the
        player who made that move."""
        plies = None if self.plies is None else self.plies + 1
        return Outcome(FLIP[self.result], plies, self.exact)


class Solved(NamedTuple):
    """An engine's answer for one position: its outcome and the work it took."""

    outcome: Outcome
    nodes: int
    #: Best move found, when the engine knows one (None for finished positions).
    move: Any = None
    #: True when ``move`` is proven to keep ``outcome`` (a best move), not just
    #: the engine's best guess when time ran out.
    move_proven: bool = False


class Engine(Protocol):
    """A solver bound to one game. ``solve`` must respect ``deadline``
    (a ``time.perf_counter()`` value): past it, return an inexact outcome or
    raise :class:`SearchTimeout`, never run on."""

    def solve(self, position: Any, deadline: float | None = None, weak: bool = False) -> Solved: ...


def outcome_from_value(
    game: Game[Any, Any], position: Any, value: float, exact: bool = True
) -> Outcome:
    """Turn a depth-aware value for the side to move (``win_score - plies`` for
    a win, its negative for a loss, anything in (-1, 1) for a draw or a guess)
    into an :class:`Outcome`."""
    win = game.win_score
    if value >= 1:
        return Outcome("win", int(win - value))
    if value <= -1:
        return Outcome("loss", int(win + value))
    if exact:
        return Outcome("draw", game.draw_plies(position))
    return Outcome("unknown", None, False)
