"""Connect4Engine: the exact solver behind the Engine protocol.

A position's value comes from, in order: the game's own end (won or full
board), the opening book, then the compiled search. The best move is the
first child that a null-window test proves keeps the value
(:mod:`.keeping`): in tie-break order (centre first) within the book, the
move analysis calls best; past it, a short heuristic search's favourite
first (it is the keeper more often, so fewer refutations come before the
proof), and under a time limit two tests side by side, the first proof
ending both.

Past the book, the value is often already bounded from below by what was
proved before: the book one or two stones back (:meth:`Book.parent_bound`,
:meth:`Book.grandparent_bound`), or a move the engine proved earlier in the
game (:mod:`.bounds` keeps the bound each proof gave the position it led
to). After a perfect opponent's move that bound *is* the value, and proving
a move that keeps it is cheap, while proving that nothing does better (the
exact value) can take far longer than a move may. So :meth:`Connect4Engine.solve`
first finds a move keeping the bound, then spends the rest of the budget on
the exact value (and a better move, should the opponent have erred); out of
time there, it answers with the move that keeps the bound and an inexact
outcome.

Searches run in resumable slices (:mod:`.sliced`), the limits (deadline,
stop switch) checked between slices: a search can be stopped within
milliseconds and never redoes work. Past the deadline the value is
``unknown`` and the move that of a short, node-budgeted heuristic search.

The engine is safe to share between threads: the transposition table is one
array of self-checking words (a lost update only costs a re-search), and each
thread gets its own stacks. The kernel releases the GIL, so searches from
different threads use different cores.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from unbeatable.games.connect4 import (
    STANDARD,
    Connect4Game,
    Connect4Position,
    Shape,
    connect4,
)
from unbeatable.search.engine import (
    KNOWN_ONLY,
    UNKNOWN,
    UNLIMITED,
    Limits,
    Outcome,
    Result,
    SearchTimeout,
    Solved,
)
from unbeatable.solvers.connect4.book import Book, WrongBoardError, default_book, load_book
from unbeatable.solvers.connect4.bounds import RememberedBounds
from unbeatable.solvers.connect4.keeping import KeepingMove, prove_keeping_move, weak_score
from unbeatable.solvers.connect4.sliced import SlicedSearch

if TYPE_CHECKING:
    from unbeatable.solvers.connect4.table import TranspositionTable


class Connect4Engine:
    """Exact Connect Four solver (Pons' design: bitboards, negamax, numba) for
    one board: ``game``'s (the standard 7x6 by default).

    All engines of a board share one process-wide transposition table (128
    MiB on the standard board, see :mod:`.table`) unless given their own, so
    repeated queries get faster. ``book``: ``"default"`` for the board's
    shipped book (only the standard board ships one), None for none, or a
    :class:`Book` or the path of a book file of the same board (another
    board's raises :class:`.book.WrongBoardError`, a file that is no book
    ValueError, a missing one OSError). The kernel and the table are loaded
    at the first search, so an answer from the book alone costs a lookup.
    ``side_by_side=False`` keeps timed move searches to one test at a time
    (see :mod:`.keeping`; benchmarks compare).
    """

    def __init__(
        self,
        table: TranspositionTable | None = None,
        book: Book | Path | str | None = "default",
        *,
        game: Connect4Game | None = None,
        side_by_side: bool = True,
    ) -> None:
        #: The rules of the board it solves.
        self.game = connect4() if game is None else game
        shape = self.shape
        #: The compiled searches, their table and node counts.
        self.searcher = SlicedSearch(table, shape)
        #: Bounds the engine's own proofs showed, for the positions after them.
        self.bounds = RememberedBounds()
        #: Whether timed move searches test two moves at once.
        self.side_by_side = side_by_side
        #: The opening book it answers early positions from, if any.
        self.book: Book | None = None
        self.use_book(default_book(shape) if isinstance(book, str) and book == "default" else book)

    def __repr__(self) -> str:
        if self.shape == STANDARD:
            return f"Connect4Engine(book={self.book!r})"
        return f"Connect4Engine(game={self.game!r}, book={self.book!r})"

    @property
    def shape(self) -> Shape:
        """The board it solves."""
        return self.game.shape

    def use_book(self, book: Book | Path | str | None) -> Book | None:
        """Answer from ``book`` from now on (a :class:`Book`, a book file's path,
        or None for none) and return it; a book of another board raises
        :class:`.book.WrongBoardError` naming both, and the engine keeps its
        book. What the engine learnt stays: a book changes the speed of an
        answer, never the answer."""
        if isinstance(book, str | Path):
            book = load_book(book, self.shape)
        elif book is not None and book.shape != self.shape:
            raise WrongBoardError(
                f"a book of the {book.shape.size} board cannot serve the {self.shape.size} board"
            )
        self.book = book
        return book

    @property
    def table(self) -> TranspositionTable:
        """The transposition table, allocated (128 MiB on 7x6, see :mod:`.table`)
        at the first search."""
        return self.searcher.table

    def without_book(self) -> Connect4Engine:
        """A twin that consults no opening book (same board and table, its own
        remembered proofs): every answer searched, as ``--no-book`` asks. A
        new engine even when this one has no book now: one may be attached
        later (:meth:`use_book`), and the twin must stay without."""
        return Connect4Engine(
            self.searcher.own_table, None, game=self.game, side_by_side=self.side_by_side
        )

    def reset(self) -> None:
        """Forget what the table and the proofs learnt (benchmarks time each
        position from scratch)."""
        self.searcher.clear()
        self.bounds.clear()

    def lower_bound(self, position: Connect4Position) -> int | None:
        """A proved lower bound on the score of a position the book does not
        hold, or None: from the book one or two stones back, or from an
        upper bound proved on a predecessor (the side to move now scores at
        least its negation, whatever move led here)."""
        bounds = [self.bounds.proved_lower(position)]
        if self.book is not None:
            bounds += [self.book.parent_bound(position), self.book.grandparent_bound(position)]
        return max((b for b in bounds if b is not None), default=None)

    def warm_up(self) -> None:
        """Load the compiled kernel, the table and the book now, not in the first
        request (a server calls this at start for every game it offers).

        Only on the standard board: another board's kernel compiles at its
        first search (:meth:`ready`: about ten seconds once per installation,
        then a second to load from numba's cache) and its table (up to 128
        MiB, 1 GiB past 42 cells) is allocated then, before any clock runs,
        so that offering more boards costs a server's start nothing.
        """
        if self.shape != STANDARD:
            return
        self.ready()
        if self.book is not None:
            self.book.get(self.game.initial())

    def ready(self) -> None:
        """Compile (or load from numba's cache) every kernel function a search
        of this board calls, on any board: what the library does before a
        search's clock starts (:func:`unbeatable.api.warm`), so that no move
        pays for compiling. numba compiles a function once per argument
        types, so this walks every path a move takes: an exact score, an AI
        move under a clock (the heuristic's lead, the keeping-move proof,
        two tests side by side), the next move from a remembered bound, and
        the heuristic guess, on positions near the end (a few ms each once
        compiled)."""
        game = self.game
        start = _near_end(game)
        self.solve_score(start)
        clock = Limits.seconds(600.0)  # a deadline, so that the timed paths run
        self.value(start, clock)
        played = self.solve(start, clock)
        if played.move is not None:
            after = game.play(start, played.move)
            reply = next(iter(game.moves(after)), None)
            if reply is not None and game.play(after, reply).winner is None:
                self.solve(game.play(after, reply), clock)
        self.guess(start)
        # The side-by-side tests ran on two threads, so what they left in the
        # table differs from run to run: forget it, and the first real search
        # counts the same nodes every time (the README shows them).
        self.searcher.clear()

    # -- scores and moves ---------------------------------------------------------

    def solve_score(
        self, position: Connect4Position, *, weak: bool = False, guess: int | None = None
    ) -> tuple[int, int]:
        """Exact Pons score for the side to move (weak: -1, 0 or 1) and nodes
        searched, in one compiled call with no limits (benchmarks and book
        builds; the book is not consulted).

        ``guess``, a likely score (a sibling's, in a book build), is tested
        first: right or close, it saves null-window searches; wrong, it costs
        little. Raises ValueError for a finished game.
        """
        if position.winner is not None or position.stones == position.shape.cells:
            raise ValueError("the game is over: nothing to solve")
        return self.searcher.solve_score(position, weak=weak, guess=guess)

    def prove_keeping_move(
        self,
        position: Connect4Position,
        score: int,
        limits: Limits = UNLIMITED,
        *,
        weak: bool = False,
        lead: int | None = None,
    ) -> KeepingMove:
        """A move proved to keep ``score`` (the position's score, or a lower
        bound on it), and what the search learnt on the way: see
        :func:`.keeping.prove_keeping_move`. With no lead and no limits, the
        move analysis calls best; under a time limit (not weak), two tests
        side by side unless the engine was made without."""
        return prove_keeping_move(
            position,
            score,
            limits,
            searcher=self.searcher,
            bounds=self.bounds,
            book=self.book,
            weak=weak,
            lead=lead,
            side_by_side=self.side_by_side and not weak and limits.deadline is not None,
        )

    def lead(self, position: Connect4Position) -> int | None:
        """The move to test first past the book: the one a short heuristic
        search likes best (a few ms). Where a move must be proved within an
        AI move's budget, it keeps the value more often than the most central
        move, so fewer refutations come before the proof; and if time runs
        out in its test, the move played is the one both the heuristic and
        the clock favour. None within the book (it has the move, or its
        children's values)."""
        if self.book is not None and position.stones <= self.book.plies:
            return None
        from unbeatable.solvers.connect4.heuristic import best_guess

        return best_guess(position).move

    def _value(self, position: Connect4Position, limits: Limits, weak: bool) -> int:
        """The book's score, else a search's (from the best proved lower bound);
        raises :class:`SearchTimeout`."""
        known = self.book.get(position) if self.book is not None else None
        if known is not None:
            return weak_score(known) if weak else known
        lower = self.lower_bound(position)
        return self.searcher.score(position, limits, weak=weak, lower=lower)

    # -- the Engine protocol ----------------------------------------------------

    def knows(self, position: Connect4Position) -> bool:
        """Whether :meth:`value` answers ``position`` from the rules or the
        opening book alone, with no search: the library then need not make
        the engine ready first (loading numba and the kernels, about a
        second, a hundred times the answer)."""
        if _finished(position) is not None:
            return True
        return self.book is not None and self.book.get(position) is not None

    def value(
        self, position: Connect4Position, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """The outcome for the side to move, without a move: what analysis asks
        of every child. ``unknown`` (exact=False) if the limits expire first."""
        if (over := _finished(position)) is not None:
            return over
        start = self.searcher.nodes
        try:
            score = self._value(position, limits, weak)
        except SearchTimeout:
            return self._solved(start, UNKNOWN)
        return self._solved(start, _outcome(position, score, weak=weak))

    def solve(
        self, position: Connect4Position, limits: Limits = UNLIMITED, weak: bool = False
    ) -> Solved:
        """Outcome for the side to move and a move that achieves it.

        Exact unless the limits expire first: then ``unknown`` (or a result a
        short depth-limited search proved) with its best guess of a move, or,
        where a lower bound was proved before (see :meth:`_solve_above`), a
        move proven to keep it with an inexact outcome.
        """
        if (over := _finished(position)) is not None:
            return over
        start = self.searcher.nodes
        # (Not when nothing may be searched: what KNOWN_ONLY answers must not
        # depend on which proofs this engine happens to remember.)
        if (
            not weak
            and limits.remaining() > 0
            and (self.book is None or self.book.get(position) is None)
        ):
            lower = self.lower_bound(position)
            if lower is None:
                lower = self.bounds.likely_lower(position)
            # (A likely bound that no move keeps gives None: search as usual.)
            if lower is not None and (found := self._solve_above(position, lower, limits, start)):
                return found
        try:
            score = self._value(position, limits, weak)
        except SearchTimeout:
            return self._out_of_time(position, limits, start)
        outcome = _outcome(position, score, weak=weak)
        lead = None if weak else self.lead(position)
        kept = self.prove_keeping_move(position, score, limits, weak=weak, lead=lead)
        if kept.timed_out:
            # The value stands, the move is a guess among those not yet
            # proven to give value away.
            return self._out_of_time(position, limits, start, outcome, kept)
        return self._solved(start, outcome, kept.move, proven=True)

    def _solve_above(
        self,
        position: Connect4Position,
        lower: int,
        limits: Limits,
        start: int,
    ) -> Solved | None:
        """:meth:`solve` for a position whose score is at least ``lower``: a move
        that keeps ``lower`` first, then the exact score and, if it is higher
        (the opponent erred), a move that keeps it.

        Out of time after the first step, the answer is the move that keeps
        ``lower`` with an inexact outcome ("at least" is all that is known);
        before it, a guess among the moves not proven to fall short of
        ``lower``. ``lower`` may be only likely (not proved): None if no move
        keeps it after all (the caller then searches the value as usual).
        """
        lead = self.lead(position)
        kept = self.prove_keeping_move(position, lower, limits, lead=lead)
        if kept.timed_out:
            return self._out_of_time(position, limits, start, UNKNOWN, kept)
        if kept.move is None:  # only a likely bound can be too high
            return None
        try:
            score = self.searcher.score(position, limits, lower=lower)
        except SearchTimeout:
            return self._solved(start, _at_least(lower), kept.move, proven=True)
        outcome = _outcome(position, score)
        if score == lower:
            return self._solved(start, outcome, kept.move, proven=True)
        better = self.prove_keeping_move(position, score, limits, lead=lead)
        if better.timed_out:
            return self._solved(start, outcome, kept.move)
        return self._solved(start, outcome, better.move, proven=True)

    def guess(self, position: Connect4Position) -> Solved:
        """The book's proven move where the book has it (its children too),
        else the node-budgeted heuristic search's: never a timed search, and
        the same answer every time (see the Engine protocol)."""
        known = self.solve(position, KNOWN_ONLY)
        if known.move is not None:
            return known
        from unbeatable.solvers.connect4.heuristic import best_guess

        guess = best_guess(position)
        return Solved(guess.outcome, guess.nodes, guess.move)

    def _out_of_time(
        self,
        position: Connect4Position,
        limits: Limits,
        start: int,
        outcome: Outcome | None = None,
        kept: KeepingMove | None = None,
    ) -> Solved:
        """The answer once the limits expired: the move whose test was cut
        short, if any (the tests before it refuted their moves; a refutation
        is usually quick, so the one that ran long most likely keeps the
        value), else the heuristic search's move, leaving out those refuted;
        and ``outcome``, or with None the heuristic's. The bound the cut-short
        test was trying is remembered as likely, for the next move. Nobody
        wants a guess once the stop switch is set: then no move at all."""
        spent = self.searcher.nodes - start
        known = UNKNOWN if outcome is None else outcome
        if limits.stop is not None and limits.stop.is_set():
            return Solved(known, spent, None)
        if kept is not None and kept.cut_short:
            col, upper = kept.cut_short[0]
            self.bounds.remember(self.game.play(position, col), upper, proved=False)
            return Solved(known, spent, col)
        from unbeatable.solvers.connect4.heuristic import best_guess

        guess = best_guess(position, exclude=kept.refuted if kept is not None else ())
        known = guess.outcome if outcome is None else outcome
        return Solved(known, spent + guess.nodes, guess.move)

    def _solved(
        self, start: int, outcome: Outcome, move: int | None = None, *, proven: bool = False
    ) -> Solved:
        """An answer, with the nodes this thread searched since ``start``."""
        return Solved(outcome, self.searcher.nodes - start, move, move_proven=proven)


def _near_end(game: Connect4Game) -> Connect4Position:
    """A position about a dozen stones from a full board that nobody has won
    and where nobody wins at once (for :meth:`Connect4Engine.ready`): the
    same seeded random game on a board every time; the fullest of a few
    tries if none gets that far."""
    import random

    shape = game.shape
    rng = random.Random(shape.columns * 100 + shape.rows)
    goal = max(0, shape.cells - 12)
    fullest = game.initial()
    for _ in range(20):
        position = game.initial()
        while position.stones < goal:
            calm = []
            for move in game.moves(position):
                after = game.play(position, move)
                if after.winner is None and not game.winning_moves(after, game.to_move(after)):
                    calm.append(after)
            if not calm:
                break
            position = rng.choice(calm)
        if position.stones > fullest.stones:
            fullest = position
        if position.stones >= goal:
            break
    return fullest


def _finished(position: Connect4Position) -> Solved | None:
    """The answer for a finished game (the side to move has lost, or a draw)."""
    if position.winner is not None:
        return Solved(Outcome(Result.loss, 0), 0)
    if position.stones == position.shape.cells:
        return Solved(Outcome(Result.draw, 0), 0)
    return None


def _at_least(lower: int) -> Outcome:
    """What a lower bound alone says: a win (how fast unknown) if it is
    positive, else nothing certain."""
    return Outcome(Result.win, None, exact=False) if lower > 0 else UNKNOWN


def _outcome(position: Connect4Position, score: int, *, weak: bool = False) -> Outcome:
    """The outcome a Pons score (weak: its sign) gives the side to move."""
    if weak:
        return Outcome(Result.win if score > 0 else Result.loss if score < 0 else Result.draw, None)
    result, plies = position.shape.pons_outcome(position.stones, score)
    return Outcome(Result(result), plies)


def connect4_engine(game: Connect4Game) -> Connect4Engine:
    """The engine of ``game``'s board (the solver registry's factory)."""
    return Connect4Engine(game=game)
