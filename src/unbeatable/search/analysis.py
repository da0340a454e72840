"""Every move's value: the explanation behind each choice of the AI.

:func:`analyze` asks an engine for the value of each legal move's resulting
position, turns each into the mover's view (plies counted from the analysed
position, that move included), and picks the best move: the fastest win, else
a draw, else the slowest loss, ties broken by the game's ``tie_break`` order.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple, TypeVar

from unbeatable.games.base import Game
from unbeatable.search.engine import Engine, Outcome

P = TypeVar("P")
M = TypeVar("M")


class MoveValue(NamedTuple):
    """One legal move and its value for the player making it."""

    move: str
    fields: dict[str, Any]
    result: str
    plies: int | None
    score: int | None
    #: The move as the game's rules object understands it (not serialised).
    raw: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            **self.fields,
            "result": self.result,
            "plies": self.plies,
            "score": self.score,
        }

    def ref(self) -> dict[str, Any]:
        """Just the move's location, as the JSON ``best`` and ``move`` fields show it."""
        return {"move": self.move, **self.fields}


class Analysis(NamedTuple):
    """The value of a position for the side to move and of each of its moves."""

    game: str
    position: str
    to_move: str
    result: str
    plies: int | None
    score: int | None
    best: MoveValue | None
    moves: tuple[MoveValue, ...]
    nodes: int
    time_ms: float
    #: None when the engine is always exact for this game (the field is then omitted).
    exact: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object printed by ``unbeatable analyze --json`` and served by the API."""
        data: dict[str, Any] = {
            "game": self.game,
            "position": self.position,
            "to_move": self.to_move,
            "result": self.result,
            "plies": self.plies,
            "score": self.score,
            "best": None if self.best is None else self.best.ref(),
            "moves": [m.to_dict() for m in self.moves],
            "nodes": self.nodes,
            "time_ms": self.time_ms,
        }
        if self.exact is not None:
            data["exact"] = self.exact
        return data


#: Rank of a move whose value is unknown: above any proven loss, below a draw.
UNPROVEN = (1, 0)


def _share(deadline: float, parts: int) -> float:
    """A deadline giving one of ``parts`` equal shares of the time left."""
    now = time.perf_counter()
    return now + max(0.0, deadline - now) / parts


def rank(outcome: Outcome) -> tuple[int, int]:
    """Sort key, higher is better for the mover: fastest win, draw, an
    unproven move, then the slowest loss."""
    plies = outcome.plies or 0
    if outcome.result == "win":
        return (3, -plies)
    if outcome.result == "draw":
        return (2, 0)
    if outcome.result == "loss":
        return (0, plies)
    return UNPROVEN


def terminal_outcome(game: Game[P, M], position: P) -> Outcome:
    """A finished game: the side to move has lost, or it is a draw; 0 plies left."""
    return Outcome("draw" if game.winner(position) is None else "loss", 0)


def analyze(
    game: Game[P, M],
    position: P,
    engine: Engine,
    deadline: float | None = None,
    report_exact: bool = False,
) -> Analysis:
    """Value every legal move of ``position`` with ``engine``.

    With a ``deadline``, the engine first gets a share of the time for the
    position itself (its own best move, proven or a heuristic pick), then the
    remaining time is shared evenly among the moves still to be valued, so one
    hard move cannot starve the others. Moves the engine could not prove come
    back as ``"unknown"``; if no move is proven at least a draw, the best move
    is the engine's own pick. ``report_exact`` adds the ``exact`` field for
    games whose answers may be unproven.
    """
    start = time.perf_counter()
    nodes = 0
    legal = list(game.moves(position))
    pick: Any = None
    root: Outcome | None = None  # the position's own value, when the engine proved it
    proven_pick = False
    if deadline is not None and legal:
        # Half the budget for the position itself: a solver that knows its value
        # (an opening book) can then prove which move keeps it, which is what
        # the AI needs even when the other moves stay unproven.
        solved = engine.solve(position, _share(deadline, 2))
        nodes += solved.nodes
        pick = solved.move
        if solved.outcome.exact:
            root = solved.outcome
            proven_pick = solved.move_proven and pick in legal
    valued: list[tuple[M, Outcome]] = []
    for i, move in enumerate(legal):
        share = None if deadline is None else _share(deadline, len(legal) - i)
        solved = engine.solve(game.play(position, move), share)
        nodes += solved.nodes
        outcome = solved.outcome.parent()
        if move == pick and proven_pick and not outcome.exact:
            assert root is not None
            outcome = root  # the proven best move keeps the position's value
        valued.append((move, outcome))
    exact = all(o.exact for _, o in valued)

    values = {move: _move_value(game, position, move, outcome) for move, outcome in valued}
    if valued:
        outcomes = dict(valued)
        top = max(rank(o) for o in outcomes.values())
        if not exact and proven_pick:
            best_raw = pick
        elif top == UNPROVEN and pick in outcomes and rank(outcomes[pick]) == top:
            best_raw = pick  # nothing proven at least a draw: the engine's own choice
        else:
            best_raw = next(m for m in game.tie_break(position, legal) if rank(outcomes[m]) == top)
        best: MoveValue | None = values[best_raw]
        if exact or root is None:
            root = outcomes[best_raw]
    else:
        best, root = None, terminal_outcome(game, position)
    return Analysis(
        game=game.name,
        position=game.format(position),
        to_move=game.to_move(position),
        result=root.result,
        plies=root.plies,
        score=None if root.plies is None else game.score(position, root.result, root.plies),
        best=best,
        moves=tuple(values[m] for m in legal),
        nodes=nodes,
        time_ms=round((time.perf_counter() - start) * 1000, 3),
        exact=exact if report_exact else None,
    )


def _move_value(game: Game[P, M], position: P, move: M, outcome: Outcome) -> MoveValue:
    score = None if outcome.plies is None else game.score(position, outcome.result, outcome.plies)
    return MoveValue(
        move=game.format_move(move),
        fields=game.move_fields(move),
        result=outcome.result,
        plies=outcome.plies,
        score=score,
        raw=move,
    )
