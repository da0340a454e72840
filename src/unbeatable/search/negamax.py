"""Negamax with alpha-beta, a transposition table and move ordering.

This is the production engine for games whose tree fits in memory or that can
be searched to a useful depth. Four ideas on top of :mod:`minimax`:

* **Negamax.** A position's value for the side to move is the negation of its
  best child's value for the opponent, so one function replaces the
  ``max_value``/``min_value`` pair. Scores are from the side to move's view.
* **Transposition table.** Different move orders reach the same position
  (tic-tac-toe has 255,168 games but only 5,478 positions). Each searched
  position's value, bound type and best move are stored under ``game.key``;
  the table lives in the engine object, so a second query in the same process
  starts from everything the first one learned. Scores are stored relative to
  the stored node (a win in 3 plies *from there*), and converted back on use,
  so an entry is valid wherever in any tree the position recurs.
* **Move ordering.** The table's best move first, then ``game.ordered_moves``
  (centre first in tic-tac-toe), so cut-offs come early.
* **Distance bounds.** An unfinished position ``p`` plies down is worth at
  most a win in ``p + 1`` and at least a loss in ``p + 1``; a window outside
  that range needs no search (mate-distance pruning), so once a win in one is
  found, no sibling is searched for a faster one. In a game that cannot
  read a win in one off the board, an unbounded query first searches one
  ply, which puts such a win first.

Scores: a win reached ``p`` plies below the root is ``win_score - p``, a loss
its negative, a draw 0; an unfinished leaf at the depth limit gets the game's
heuristic ``evaluate`` in (-1, 1), so proven results always dominate guesses.
The table is bounded (oldest entries are evicted first), and every search
honours its :class:`Limits`, so no query can run or grow without limit.

Search state (nodes, limits) lives in a :class:`_Run` made per query, so one
engine serves any number of threads at once; they share only the table, whose
entries are each written whole and are true wherever they came from.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, NamedTuple, TypeVar, cast

from unbeatable.games.base import Game
from unbeatable.search.analysis import resisting
from unbeatable.search.engine import (
    UNKNOWN,
    UNLIMITED,
    Limits,
    Outcome,
    Result,
    SearchTimeout,
    Solved,
    outcome_from_value,
)

P = TypeVar("P")
M = TypeVar("M")

EXACT, LOWER, UPPER = 0, 1, 2
#: Depth that means "to the end of the game": entries searched that deep are proofs.
FULL_DEPTH = 1 << 30
#: Nodes between two looks at the clock (a look costs more than a node).
CHECK_EVERY = 1024
#: Deepest guess (:meth:`Negamax.guess`) per number of legal moves: (at most
#: this many moves, plies). Four plies cost under 0.4 s with 49 moves (7x7);
#: on a 15x15 board one ply costs 0.2 s and two 0.7 s.
GUESS_DEPTHS = ((49, 4), (64, 3), (100, 2), (math.inf, 1))


class Iteration(NamedTuple):
    """Progress record of iterative deepening: the result of one completed depth."""

    depth: int
    value: float
    move: object
    exact: bool
    nodes: int


class _Run:
    """The state of one query: its node count and its limits."""

    __slots__ = ("limits", "nodes")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.nodes = 0

    def visit(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 1 and self.limits.bounded and self.limits.expired():
            raise SearchTimeout()


class Negamax(Generic[P, M]):
    """Negamax search bound to one game, keeping its transposition table
    between queries (bounded to ``max_entries`` positions)."""

    def __init__(self, game: Game[P, M], max_entries: int = 1 << 19) -> None:
        self.game = game
        self.max_entries = max_entries
        # The bounds hold where a finished game scores ``win_score - plies``
        # (the default utility); a game scoring its own way (a textbook
        # tree's leaves) is searched without them.
        scored = getattr(type(game), "utility", None) is Game.utility
        self.distance_bounds = game.win_score > 0 and scored
        # key -> (node-relative value, bound flag, best move, searched depth,
        # the position stored: keys may be shared by mirror images)
        self.table: dict[Hashable, tuple[float, int, M | None, int, P]] = {}

    def reset(self) -> None:
        """Forget everything learned (benchmarks use it to measure cold searches)."""
        self.table.clear()

    # -- the search ------------------------------------------------------------

    def search(
        self,
        position: P,
        alpha: float,
        beta: float,
        depth: int = FULL_DEPTH,
        limits: Limits = UNLIMITED,
    ) -> tuple[float, bool, int]:
        """Negamax value of ``position`` for the side to move, searched
        ``depth`` plies deep: ``(value, proven, nodes)``.

        Fail-soft alpha-beta: the value is exact when it lies strictly inside
        (alpha, beta); at or above ``beta`` it is a lower bound, at or below
        ``alpha`` an upper bound. ``proven`` is False when the depth limit cut
        the search somewhere, so the value is partly a heuristic guess.
        Raises :class:`SearchTimeout` once ``limits`` expire.
        """
        run = _Run(limits)
        try:
            value, proven = self._search(run, position, alpha, beta, 0, depth)
        except SearchTimeout:
            raise SearchTimeout("search limits reached", run.nodes) from None
        return value, proven, run.nodes

    def _search(
        self, run: _Run, position: P, alpha: float, beta: float, ply: int, depth: int
    ) -> tuple[float, bool]:
        """The recursion behind :meth:`search`, ``ply`` plies below the root."""
        game = self.game
        run.visit()
        if game.is_terminal(position):
            value = game.utility(position, ply)
            return (value if game.to_move(position) == game.players[0] else -value), True

        # Tactics the game can read off the board: proofs at any depth.
        me = game.to_move(position)
        wins = game.winning_moves(position, me)
        if wins:  # a win with the next move
            return game.win_score - (ply + 1), True
        threats = None
        if wins is not None:
            first, second = game.players
            threats = game.winning_moves(position, second if me == first else first)
            # Two threats: only one can be blocked; nor can one on a cell the
            # mover may not take (renju's forbidden points).
            if threats and (len(threats) > 1 or threats[0] not in game.moves(position)):
                return -(game.win_score - (ply + 2)), True
        window: tuple[float, float] | None = None
        if self.distance_bounds and ply + 2 < game.win_score:
            # Mate-distance bounds: unfinished here, the mover wins at best
            # with its next move and loses at worst with it (a move may lose
            # at once in some games), so a window outside that range is
            # settled without a search: once a win in one is found, no
            # sibling is searched for a faster one.
            ceiling = game.win_score - (ply + 1)
            # A value reaching a bound narrowed here is exact (nothing lies
            # beyond it), so the table's flag is set by the window as given.
            window = (alpha, beta)
            if alpha < -ceiling:
                alpha = -ceiling
            if beta > ceiling:
                beta = ceiling
            if alpha >= beta:
                return alpha, True
        if depth <= 0:
            return game.evaluate(position), False

        key = game.key(position)
        entry = self.table.get(key)
        hint: M | None = None
        if entry is not None:
            stored, flag, move, stored_depth, origin = entry
            if stored_depth >= depth:
                value = _from_table(stored, ply)
                if (
                    flag == EXACT
                    or (flag == LOWER and value >= beta)
                    or (flag == UPPER and value <= alpha)
                ):
                    return value, stored_depth == FULL_DEPTH
            if origin == position:  # not a mirror image: the move is this board's
                hint = move

        original_alpha, original_beta = window if window else (alpha, beta)
        best, best_move, proven = -math.inf, None, True
        # A single threat must be blocked; otherwise the best move known first.
        moves = threats or game.ordered_moves(position)
        if hint is not None and hint in moves:
            moves = [hint, *(m for m in moves if m != hint)]
        for move in moves:
            child, child_proven = self._search(
                run, game.play(position, move), -beta, -alpha, ply + 1, depth - 1
            )
            value = -child
            proven = proven and child_proven
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break

        flag = UPPER if best <= original_alpha else LOWER if best >= original_beta else EXACT
        self._store(
            key, (_to_table(best, ply), flag, best_move, FULL_DEPTH if proven else depth, position)
        )
        return best, proven

    def _store(self, key: Hashable, entry: tuple[float, int, M | None, int, P]) -> None:
        table = self.table
        held = table.get(key)
        if held is not None and held[3] > entry[3]:
            return  # a deeper search's entry (a proof) outlives a shallow one's
        if held is None and len(table) >= self.max_entries:
            # Evict the oldest entry (another thread may have done it first).
            with contextlib.suppress(KeyError, RuntimeError, StopIteration):
                del table[next(iter(table))]
        table[key] = entry

    def best_known_move(self, position: P) -> M | None:
        """The table's best move for ``position``, if it was searched (as
        itself, not as a mirror image)."""
        entry = self.table.get(self.game.key(position))
        return None if entry is None or entry[4] != position else entry[2]

    # -- entry points -----------------------------------------------------------

    def solve(self, position: P, limits: Limits = UNLIMITED, weak: bool = False) -> Solved:
        """Value of ``position`` for the side to move and its best move (the
        Engine protocol).

        Without limits, one full-depth search proves the value. With limits,
        that search gets half of them; should it not finish, iterative
        deepening runs until the value is proven or they expire: an unproven
        answer has ``exact=False`` and the deepest iteration's move.
        ``weak`` searches the window (-1, 1): win/draw/loss only, no distance.
        """
        return self._solve(position, limits, weak, self._keeping_move)

    def value(self, position: P, limits: Limits = UNLIMITED, weak: bool = False) -> Solved:
        """The outcome for the side to move. Its move is the root search's own
        (it keeps the value too), not the first in tie-break order: finding
        that one costs a search per child, which a caller valuing every move
        of a parent does not need."""
        return self._solve(position, limits, weak, self._searched_move)

    def _searched_move(self, position: P, outcome: Outcome, limits: Limits) -> tuple[M | None, int]:
        return self.best_known_move(position), 0

    def _solve(
        self,
        position: P,
        limits: Limits,
        weak: bool,
        pick: Callable[[P, Outcome, Limits], tuple[M | None, int]],
    ) -> Solved:
        game = self.game
        if game.is_terminal(position):
            value, _, nodes = self.search(position, -math.inf, math.inf)
            return Solved(outcome_from_value(game, position, value), nodes, None)
        if not limits.bounded:
            alpha, beta = (-1.0, 1.0) if weak else (-math.inf, math.inf)
            # One ply first, in a game that cannot read a win in one off the
            # board (unless the table knows the position): such a win is then
            # searched first, and the distance bounds settle its siblings.
            first = 0
            if (
                game.key(position) not in self.table
                and game.winning_moves(position, game.to_move(position)) is None
            ):
                _, _, first = self.search(position, alpha, beta, depth=1)
            value, _, nodes = self.search(position, alpha, beta)
            nodes += first
            outcome = self._weak(value) if weak else outcome_from_value(game, position, value)
            move, more = pick(position, outcome, limits)
            return Solved(outcome, nodes + more, move, move_proven=True)
        # Half the budget for a search to the end: on small boards it proves
        # the value far sooner than deepening step by step would; whatever it
        # proves stays in the table for the deepening that follows.
        nodes = 0
        try:
            alpha, beta = (-1.0, 1.0) if weak else (-math.inf, math.inf)
            value, _, nodes = self.search(position, alpha, beta, limits=limits.share(2))
        except SearchTimeout as timeout:
            nodes = timeout.nodes
        else:
            outcome = self._weak(value) if weak else outcome_from_value(game, position, value)
            move, more = pick(position, outcome, limits)
            return Solved(outcome, nodes + more, move, move_proven=True)
        last: Iteration | None = None
        try:
            for last in self.iterate(position, limits):
                nodes += last.nodes
                if last.exact:
                    break
        except SearchTimeout as timeout:
            nodes += timeout.nodes
        if last is None:  # not even depth 1 finished: any legal move beats none
            moves = game.ordered_moves(position)
            return Solved(UNKNOWN, nodes, moves[0] if moves else None)
        outcome = outcome_from_value(game, position, last.value, last.exact)
        if weak and outcome.exact:
            outcome = Outcome(outcome.result, None, True)
        move = cast("M | None", last.move)
        if last.exact:
            picked, more = pick(position, outcome, limits)
            move = picked if picked is not None else move
            nodes += more
        return Solved(outcome, nodes, move, move_proven=last.exact)

    def _keeping_move(self, position: P, outcome: Outcome, limits: Limits) -> tuple[M | None, int]:
        """The first move in tie-break order (in a lost position, the most
        resisting first) whose value for the mover is the proven ``outcome``
        (so the move is the one analysis calls best), and the nodes it took:
        each child is searched in full, mostly from the table the root's
        search just filled. Should the limits expire first, the root search's
        own best move, which keeps the value too."""
        game = self.game
        nodes = 0
        legal = game.moves(position)
        order = (
            resisting(game, position, legal)
            if outcome.result == "loss"
            else game.tie_break(position, legal)
        )
        # Each child needs only a yes or no: is its value the one that keeps
        # the outcome? Where values follow the distance convention (whole
        # numbers, 0 for a draw), a window around that one value answers it,
        # cutting at once where a faster win or a slower loss is out of
        # reach; other outcomes are read from a search of the full window.
        window = None
        if self.distance_bounds and outcome.plies is not None:
            wins = game.win_score - (outcome.plies - 1)  # the child's side's value, negated
            target = {"win": -wins, "loss": wins, "draw": 0}.get(outcome.result)
            if target is not None:
                window = (target - 0.5, target + 0.5)
        alpha, beta = window or (-math.inf, math.inf)
        try:
            for move in order:
                child = game.play(position, move)
                value, _, spent = self.search(child, alpha, beta, limits=limits)
                nodes += spent
                if window is not None:
                    if alpha < value < beta:  # inside the window: exactly the target
                        return move, nodes
                    continue
                mine = outcome_from_value(game, child, value).parent()
                if mine == outcome or (outcome.plies is None and mine.result == outcome.result):
                    return move, nodes
        except SearchTimeout as timeout:
            nodes += timeout.nodes
        # Out of time: the root search's own best move keeps the value too.
        return self.best_known_move(position), nodes

    def guess(self, position: P, depth: int = 4) -> Solved:
        """The move of a ``depth``-ply search with a table of its own (so that
        the answer never depends on what this engine learnt before); exact
        when that depth proves the game's end. See the Engine protocol.

        The more moves, the fewer plies (:data:`GUESS_DEPTHS`): a fixed-size
        search must stay cheap on the biggest boards too."""
        moves = len(self.game.moves(position))
        depth = min(depth, next(d for most, d in GUESS_DEPTHS if moves <= most))
        fresh: Negamax[P, M] = Negamax(self.game, max_entries=1 << 14)
        iterations = list(fresh.iterate(position, max_depth=depth))
        last = iterations[-1] if iterations else None
        if last is None:  # a finished game
            return self.solve(position)
        outcome = outcome_from_value(self.game, position, last.value, last.exact)
        return Solved(outcome, last.nodes, last.move, move_proven=last.exact)

    @staticmethod
    def _weak(value: float) -> Outcome:
        if value >= 1:
            return Outcome(Result.win, None)
        return Outcome(Result.loss, None) if value <= -1 else Outcome(Result.draw, None)

    def iterate(
        self, position: P, limits: Limits = UNLIMITED, max_depth: int | None = None
    ) -> Iterator[Iteration]:
        """Iterative deepening: yield one :class:`Iteration` per completed depth.

        The caller decides when to stop; the generator stops by itself once a
        depth's value is proven (no leaf was cut off by the depth limit, or the
        value is a proven win or loss). Raises :class:`SearchTimeout` from
        inside a depth when ``limits`` expire.
        """
        depth = 1
        while max_depth is None or depth <= max_depth:
            value, proven, nodes = self.search(position, -math.inf, math.inf, depth, limits)
            exact = proven or abs(value) >= 1
            yield Iteration(depth, value, self.best_known_move(position), exact, nodes)
            if exact:
                return
            depth += 1


def _to_table(value: float, ply: int) -> float:
    """Root-relative score -> relative to the node being stored."""
    if value >= 1:
        return value + ply
    if value <= -1:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    """Node-relative stored score -> relative to the current root."""
    if value >= 1:
        return value - ply
    if value <= -1:
        return value + ply
    return value
