"""Every move's value: the explanation behind each choice of the AI.

:func:`analyse` asks an engine for the value of each legal move's resulting
position, turns each into the mover's view (plies counted from the analysed
position, that move included), and picks the best move: the fastest win, else
a draw, else the slowest loss. Ties between wins or draws are broken by the
game's ``tie_break`` order; between losses, or moves nobody could value, as a
player defends (:func:`resisting`). :func:`obvious` is the move every player
makes at once: a win in one, the block of a lone threat.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from unbeatable.answers import HIDDEN, answer, computed, field, flat, json_object
from unbeatable.games.base import Game
from unbeatable.search.engine import UNLIMITED, Engine, Limits, Outcome, Result
from unbeatable.search.memo import Memo

if TYPE_CHECKING:
    from unbeatable.search.explanation import Explanation, Note

P = TypeVar("P")
M = TypeVar("M")


#: A move's coordinates as the game names them (``row``, ``col``; Connect
#: Four's moves name a column only), written in place in the move's JSON.
COORDINATES = flat(
    row=field("Absent for Connect Four.", shape=int | None, omit=None),
    col=field(shape=int),
)


@answer(
    "Where a move is: its notation plus board coordinates, 0-based from the top-left "
    "(Connect Four moves have a column only).",
    move=field(examples=["c1", "4"]),
    fields=COORDINATES,
)
class MoveRef(NamedTuple):
    """A move's location, as the JSON ``best`` and ``move`` fields show it."""

    move: str
    fields: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


def _ref(value: MoveValue | None) -> dict[str, Any] | None:
    return None if value is None else value.ref()


@answer(
    "One legal move and its value for the player making it; `plies` counts half-moves "
    "to the end of the game, this move included.",
    move=field(examples=["c1", "4"]),
    fields=COORDINATES,
    raw=HIDDEN,
    line=field(
        "Best play from this move on, this move first: to the end of the game when the "
        "value is proven, else as far as the search proved it."
    ),
    threat=field(
        "Only where the game's rules name how a proven line wins by threats alone (the "
        "m,n,k games with k >= 4): 'continuous fours' when every move of the winner "
        "before the last makes a four ('threes' where four in a row wins); absent "
        "otherwise. The web names it (unbeatable.api.explanations.in_words), as notes.",
        omit=None,
    ),
    notes=field(
        "Only where the rules name threats (the m,n,k games with k >= 4, Gomoku): what "
        "the move does in the game's words, the strongest first; absent otherwise.",
        omit=None,
    ),
)
class MoveValue(NamedTuple):
    """One legal move and its value for the player making it."""

    move: str
    #: The move's coordinates as the game names them (``row``, ``col``).
    fields: dict[str, Any]
    result: Result
    plies: int | None
    score: int | None
    #: The move as the game's rules object understands it (not serialised).
    raw: Any = None
    #: Best play by both sides from here, this move first, in the game's
    #: notation: to the end of the game when the value is exact (so its
    #: length is ``plies``), else as far as the search proved it.
    line: tuple[str, ...] = ()
    #: How its proven line wins by threats alone, in the rules' words
    #: (``continuous fours``); None unless a face asked for the words.
    threat: str | None = None
    #: What the move does in the game's words; None unless a face asked.
    notes: tuple[Note, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)

    def ref(self) -> dict[str, Any]:
        """Just the move's location, as the JSON ``best`` and ``move`` fields
        show it (:class:`MoveRef`'s JSON)."""
        return MoveRef(self.move, self.fields).to_dict()

    @property
    def proven(self) -> bool:
        """Whether the value is proven (not ``unknown``: the engine's best guess)."""
        return self.result != "unknown"

    @property
    def rank(self) -> tuple[int, int]:
        """Sort key of the move's value, higher is better for the mover (:func:`rank`)."""
        return _rank(self.result, self.plies)

    @property
    def words(self) -> str:
        """The move's value in words: ``win in 1``, ``draw`` (:func:`value_words`)."""
        return value_words(self.result, self.plies)


@answer(
    "The value of a position for the side to move and of each of its moves.",
    json_order=(
        "game",
        "position",
        "to_move",
        "result",
        "plies",
        "score",
        "best",
        "line",
        "moves",
        "nodes",
        "time_ms",
        "exact",
        "explanation",
    ),
    position=field("Canonical notation of the position."),
    best=field("None when the game is over.", write=_ref, shape="MoveRef | None"),
    line=computed(
        lambda analysis: [] if analysis.best is None else list(analysis.best.line),
        list[str],
        "The best move's line of best play.",
    ),
    exact=field(
        "Only for games analysed under a time budget (Connect Four, the bigger m,n,k "
        "games, Gomoku): false when some move could not be proven in time (those moves "
        "are 'unknown').",
        omit=None,
    ),
    explanation=field(
        "Only where the rules name threats (the m,n,k games with k >= 4, Gomoku): the "
        "analysis in the game's words. The web adds it, as notes.",
        omit=None,
    ),
)
class Analysis(NamedTuple):
    """The value of a position for the side to move and of each of its moves.

    The position's ``result``, ``plies`` and ``score`` are always its best
    move's: a learner reading "lost in 26" finds the move that resists that long."""

    game: str
    position: str
    to_move: str
    result: Result
    plies: int | None
    score: int | None
    best: MoveValue | None
    moves: tuple[MoveValue, ...]
    nodes: int
    time_ms: float
    #: None when the engine is always exact for this game (the field is then omitted).
    exact: bool | None = None
    #: The analysis in the game's words; None unless a face asked for them.
    explanation: Explanation | None = None

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)

    @property
    def complete(self) -> bool:
        """Every value proven and every line followed to the end of the game."""
        return self.exact is not False and all(
            m.plies is None or m.result == "unknown" or len(m.line) == m.plies for m in self.moves
        )


#: Lines of best play from positions already followed to the end, per (game,
#: position): the lines of neighbouring moves share their ends.
_lines: Memo[tuple[Any, Any], tuple[Any, ...]] = Memo(1 << 16)


def forget_lines() -> None:
    """Forget every line of best play followed so far (a cold start)."""
    _lines.clear()


#: Rank of a move whose value is unknown: above any proven loss, below a draw.
UNPROVEN = (1, 0)


def rank(outcome: Outcome) -> tuple[int, int]:
    """Sort key, higher is better for the mover: fastest win, draw, an
    unproven move, then the slowest loss."""
    return _rank(outcome.result, outcome.plies)


def _rank(result: str, plies: int | None) -> tuple[int, int]:
    if result == "win":
        return (3, -(plies or 0))
    if result == "draw":
        return (2, 0)
    if result == "loss":
        return (0, plies or 0)
    return UNPROVEN


def value_words(result: str, plies: int | None) -> str:
    """A value in words, as every face says it: ``win in 1``, ``draw``,
    ``loss in 4``, ``not proven`` (``win`` alone when the distance is unknown)."""
    if result == "unknown":
        return "not proven"
    if result == "draw" or plies is None:
        return result
    return f"{result} in {plies}"


def value_letters(result: str, plies: int | None) -> str:
    """A value in a few characters, for a board's cells: ``W1``, ``D``, ``L4``, ``?``."""
    if result == "draw":
        return "D"
    if result == "unknown" or plies is None:
        return "?"
    return f"{result[0].upper()}{plies}"


def terminal_outcome(game: Game[P, M], position: P) -> Outcome:
    """A finished game: the side to move has lost, or it is a draw; 0 plies left."""
    return Outcome(Result.draw if game.winner(position) is None else Result.loss, 0)


class Valued(NamedTuple):
    """Every legal move's value, as :func:`value_moves` found it."""

    #: (move, outcome for the mover) in board order.
    moves: list[tuple[Any, Outcome]]
    #: The position's own value, when the engine proved it under limits.
    root: Outcome | None
    #: The engine's own choice of move under limits (proven or its best guess).
    pick: Any
    pick_proven: bool
    nodes: int

    @property
    def exact(self) -> bool:
        return all(outcome.exact for _, outcome in self.moves)


def value_moves(
    game: Game[P, M], position: P, engine: Engine, limits: Limits = UNLIMITED
) -> Valued:
    """Ask ``engine`` for the value of every legal move of ``position``.

    Under limits, the engine first gets half the time for the position itself
    (its value and a move that keeps it, or its best guess): a solver that
    knows the value (an opening book) can then prove which move keeps it,
    which is what the AI needs even when other moves stay unproven. The rest
    is shared evenly among the moves still to be valued, so one hard move
    cannot starve the others. A move the engine could not value comes back
    ``unknown``, unless it is the proven pick: that one keeps the position's
    value.
    """
    nodes = 0
    legal = list(game.moves(position))
    pick: Any = None
    root: Outcome | None = None
    pick_proven = False
    if limits.bounded and legal:
        solved = engine.solve(position, limits.share(2))
        nodes += solved.nodes
        pick = solved.move
        if solved.outcome.exact:
            root = solved.outcome
            pick_proven = solved.move_proven and pick in legal
    valued: list[tuple[Any, Outcome]] = []
    for i, move in enumerate(legal):
        answer = engine.value(game.play(position, move), limits.share(len(legal) - i))
        nodes += answer.nodes
        outcome = answer.outcome.parent()
        if move == pick and pick_proven and not outcome.exact:
            assert root is not None
            outcome = root  # the proven best move keeps the position's value
        valued.append((move, outcome))
    return Valued(valued, root, pick, pick_proven, nodes)


def pick_best(game: Game[P, M], position: P, valued: Valued) -> Any:
    """The best move: the fastest win, else a draw, else the slowest loss; ties
    between wins or draws broken by the game's ``tie_break`` order, between
    losses by :func:`resisting`. When some values are unknown, a proven pick of
    the engine wins (if it loses, the most resisting of the moves proven as
    good), and if nothing is proven at least a draw, the engine's own choice,
    else the most resisting unvalued move. None if there are no moves."""
    if not valued.moves:
        return None
    outcomes = dict(valued.moves)
    top = max(rank(o) for o in outcomes.values())
    pick = valued.pick
    if not valued.exact and valued.pick_proven:
        root = valued.root
        if root is None or root.result != "loss":
            return pick
        equal = [m for m, o in valued.moves if m == pick or (o.exact and rank(o) == rank(root))]
        return next(resisting(game, position, equal))
    if top == UNPROVEN and pick in outcomes and rank(outcomes[pick]) == top:
        return pick  # nothing proven at least a draw: the engine's own choice
    legal = [move for move, _ in valued.moves]
    if top > UNPROVEN:  # a win or a draw: the first in tie-break order
        return next(m for m in game.tie_break(position, legal) if rank(outcomes[m]) == top)
    return next(resisting(game, position, [m for m in legal if rank(outcomes[m]) == top]))


def opponent(game: Game[P, M], position: P) -> str:
    """The player who is not to move."""
    first, second = game.players
    return second if game.to_move(position) == first else first


def resisting(game: Game[P, M], position: P, moves: Iterable[M]) -> Iterator[M]:
    """``moves`` in the order a player defends a lost position, or one nobody
    could read: first the moves after which the opponent has the fewest
    winning moves (blocking the most threats, where the game reads them:
    :meth:`Game.winning_moves`), then in the game's ``ordered_moves``
    preference; never simply in board order.

    Lazy: by the ``winning_moves`` contract a move leaves every threat it is
    not played on, so the threats standing now bound each count from below,
    and a move is played and its count read only once its bound comes first:
    on any board the first move costs a few reads, not one per move."""
    preference = {m: i for i, m in enumerate(game.ordered_moves(position))}
    last = len(preference)
    listed = list(moves)
    them = opponent(game, position)
    threats = game.winning_moves(position, them)
    if threats is None:
        yield from sorted(listed, key=lambda m: preference.get(m, last))
        return
    threatened = set(threats)
    # (threats left after the move: a bound, or once read the count; preference; index; read)
    heap = [
        (len(threatened) - (m in threatened), preference.get(m, last), i, False)
        for i, m in enumerate(listed)
    ]
    heapq.heapify(heap)
    while heap:
        left, pref, i, read = heapq.heappop(heap)
        if read:
            yield listed[i]
            continue
        count = len(game.winning_moves(game.play(position, listed[i]), them) or ())
        heapq.heappush(heap, (max(count, left), pref, i, True))


def obvious(game: Game[P, M], position: P) -> tuple[M, Outcome | None] | None:
    """The move any player makes at once, with its outcome for the mover when
    that needs no search (else None); None when nothing is forced or the game
    does not read threats (:meth:`Game.winning_moves`).

    A win in one is taken (the first in tie-break order: the one analysis
    calls best). Else, facing winning moves of the opponent: the move that
    leaves it none (the block of a lone threat) or, when every move leaves it
    one, so that every move loses in two, the most resisting
    (:func:`resisting`). By the ``winning_moves`` contract only a move played
    on a threat can take it away, so only those are tried."""
    mine = game.winning_moves(position, game.to_move(position))
    if mine is None:
        return None
    if mine:
        return game.tie_break(position, list(mine))[0], Outcome(Result.win, 1)
    them = opponent(game, position)
    threats = game.winning_moves(position, them)
    if not threats:
        return None
    holding = []
    legal = set(game.moves(position))
    for move in dict.fromkeys(threats):
        if move not in legal:  # a cell the mover may not take (renju's forbidden points)
            continue
        child = game.play(position, move)
        if game.is_terminal(child) or not game.winning_moves(child, them):
            holding.append(move)
    if holding:
        return game.tie_break(position, holding)[0], None
    return next(resisting(game, position, game.moves(position))), Outcome(Result.loss, 2)


def principal_line(
    game: Game[P, M], position: P, engine: Engine, limits: Limits = UNLIMITED
) -> list[M]:
    """Best play by both sides from ``position``: at each step the engine's
    proven best move (the first in tie-break order that keeps the value), to
    the end of the game, or until the limits expire or nothing is proven.
    Complete lines are remembered per position: lines share their ends."""
    line: list[M] = []
    seen: list[P] = []
    pos = position
    complete = True
    while not game.is_terminal(pos):
        known = _lines.get((game, pos))
        if known is not None:
            line.extend(known)
            break
        # Even past the limits the engine may know the move (an opening book).
        solved = engine.solve(pos, limits)
        if solved.move is None or not solved.proven:
            complete = False
            break
        seen.append(pos)
        line.append(solved.move)
        pos = game.play(pos, solved.move)
    if complete:
        for i, start in enumerate(seen):
            _lines.put((game, start), tuple(line[i:]))
    return line


def analyse(
    game: Game[P, M],
    position: P,
    engine: Engine,
    limits: Limits = UNLIMITED,
    report_exact: bool = False,
    line_engine: Engine | None = None,
) -> Analysis:
    """Value every legal move of ``position`` with ``engine``, pick the best
    (:func:`value_moves`, then :func:`pick_best`), and give each move its line
    of best play (:func:`principal_line`, with ``line_engine``: by default
    ``engine``; any exact engine draws the same lines). ``report_exact`` adds
    the ``exact`` field, for games whose answers may be unproven."""
    start = time.perf_counter()
    valued = value_moves(game, position, engine, limits)
    best_raw = pick_best(game, position, valued)
    liner = line_engine or engine
    # Lines come after the values, which matter more: under a budget they get
    # a quarter of what is left (they are mostly cheap once the values are
    # searched, and stop where the budget does); without one they run to the end.
    line_limits = limits.share(4)
    values = {}
    for move, outcome in valued.moves:
        child = game.play(position, move)
        line = [move, *principal_line(game, child, liner, line_limits)] if outcome.exact else [move]
        moves = tuple(game.format_move(m) for m in line)
        values[move] = move_value(game, position, move, outcome)._replace(line=moves)
    best = None if best_raw is None else values[best_raw]
    # The position is worth what its best move is shown to be worth. A value
    # the engine proved for the position alone (``valued.root``) is not
    # claimed when the move that keeps it was not proven in time: the answer
    # would say "lost in 26" of a position whose best move it calls unknown.
    # (When the keeping move is proven, value_moves gave it the root's value.)
    root = terminal_outcome(game, position) if best_raw is None else dict(valued.moves)[best_raw]
    return Analysis(
        game=game.name,
        position=game.format(position),
        to_move=game.to_move(position),
        result=root.result,
        plies=root.plies,
        score=None if root.plies is None else game.score(position, root.result, root.plies),
        best=best,
        moves=tuple(values.values()),
        nodes=valued.nodes,
        time_ms=round((time.perf_counter() - start) * 1000, 3),
        exact=valued.exact if report_exact else None,
    )


def move_value(game: Game[P, M], position: P, move: M, outcome: Outcome) -> MoveValue:
    """``move`` and its ``outcome`` for the mover, as analysis reports it."""
    score = None if outcome.plies is None else game.score(position, outcome.result, outcome.plies)
    return MoveValue(
        move=game.format_move(move),
        fields=game.move_fields(move),
        result=outcome.result,
        plies=outcome.plies,
        score=score,
        raw=move,
    )
