"""Proving a move that keeps a score: the last step of every solve.

Knowing a position's score (or a lower bound on it) is not knowing a move
that reaches it. :func:`prove_keeping_move` finds one: the first child, in
a given order, whose value (from the book or a null-window test) shows that
the opponent can do no better than the negated score. Proving a keeper is
usually quick, while refuting a move before it can take a second or more;
so under a time limit two tests run side by side, on the caller's thread and
a helper, and the first move proved ends both.

The result is a :class:`KeepingMove`: the move, and what the search learnt
on the way (moves refuted, tests the limits cut short), which the engine uses
to guess well when time runs out.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from unbeatable.games.connect4 import Connect4Position, rules_for
from unbeatable.search.engine import Limits, SearchTimeout
from unbeatable.solvers.connect4.book import Book
from unbeatable.solvers.connect4.bounds import RememberedBounds
from unbeatable.solvers.connect4.sliced import SlicedSearch


@dataclass(frozen=True, slots=True)
class KeepingMove:
    """What the search for a move keeping a score found."""

    #: The first move proved to keep the score (in the order tried), or None:
    #: no move keeps it (it was only a likely bound, and too high), or the
    #: limits ended the search first.
    move: int | None
    #: Moves shown to give value away, in the order their tests ended.
    refuted: tuple[int, ...] = ()
    #: The moves whose tests the limits cut short, in the order tried, each
    #: with the upper bound its test was trying on the position it leads to.
    cut_short: tuple[tuple[int, int], ...] = ()
    #: Whether the limits ended the search before it could decide.
    timed_out: bool = False


def prove_keeping_move(
    position: Connect4Position,
    score: int,
    limits: Limits,
    *,
    searcher: SlicedSearch,
    bounds: RememberedBounds,
    book: Book | None,
    weak: bool = False,
    lead: int | None = None,
    side_by_side: bool = False,
) -> KeepingMove:
    """The first move that keeps ``score`` (a Pons score, or with ``weak`` a
    score's sign), testing ``lead`` first, then in tie-break order (centre
    first): the book's stored move where it has one, an immediate win if
    there is one, else a child whose value, from the book or a null-window
    test, is at most ``-score``.

    With no lead and no limit the move is the one analysis calls best (ties
    go to the centre), as the book stores at its deepest level. One stone
    past the book, a child whose bound from the book already exceeds
    ``-score`` is refuted without a search. Every test that proves a keeper
    leaves its upper bound in ``bounds``. ``side_by_side`` (not with
    ``weak``): the tests run two at a time (:func:`_two_at_a_time`).
    """
    game = rules_for(position.shape)
    if book is not None and (stored := book.move(position)) is not None:
        return KeepingMove(stored)
    wins = game.winning_moves(position, position.to_move)
    if wins:
        return KeepingMove(game.tie_break(position, wins)[0])
    opponent = "o" if position.to_move == "x" else "x"
    children = {col: game.play(position, col) for col in game.moves(position)}
    order = list(game.tie_break(position, list(children)))
    if lead in children:
        order = [lead] + [c for c in order if c != lead]
    # Moves after which the opponent cannot win at once (the search's own
    # precondition): the others lose at once.
    safe = [c for c in order if not game.winning_moves(children[c], opponent)]
    if not safe and not weak and score > -position.shape.win_now(position.stones + 1):
        return KeepingMove(None)  # every move loses at once: none keeps more
    if not safe or (weak and score < 0):
        # Lost whatever we do (weak scores can't tell losses apart): the
        # most central move that doesn't lose at once, if any.
        return KeepingMove((safe or game.ordered_moves(position))[0])
    refuted: list[int] = []
    to_test: list[int] = []  # side by side: tested after the loop
    for col in safe:
        child = children[col]
        known = book.get(child) if book is not None else None
        if known is None and book is not None:
            bound = book.parent_bound(child)
            if bound is not None and (weak_score(-bound) if weak else -bound) < score:
                refuted.append(col)  # the opponent can do better than -score
                continue
        if known is None:
            if child.stones == child.shape.cells:
                known = 0
            elif side_by_side:
                to_test.append(col)
                continue
            else:
                try:
                    known = searcher.test(child, -score, -score + 1, limits)
                except SearchTimeout:
                    cut = () if weak else ((col, -score),)
                    return KeepingMove(None, tuple(refuted), cut, timed_out=True)
                if -known >= score and not weak:
                    bounds.remember(child, known)  # fail-low: at most ``known``
        if -known >= score:
            return KeepingMove(col, tuple(refuted))
        refuted.append(col)
    if to_test:
        return _two_at_a_time(children, to_test, score, limits, searcher, bounds, refuted)
    return KeepingMove(None, tuple(refuted))


def _two_at_a_time(
    children: dict[int, Connect4Position],
    order: list[int],
    score: int,
    limits: Limits,
    searcher: SlicedSearch,
    bounds: RememberedBounds,
    refuted: list[int],
) -> KeepingMove:
    """The null-window tests of :func:`prove_keeping_move` on two threads
    (this one and a helper), taking the moves in ``order``: the first move
    proved to keep ``score`` ends the other test and is the answer. Why: a
    keeper's proof is often quick, but the refutation of a move before it in
    the order can take a second or more, and the budget of an AI move is 2 s;
    side by side, a slow refutation no longer holds up the proof (the kernel
    releases the GIL and the table is shared). Moves refuted are added to
    ``refuted``; the helper's nodes are credited to this thread."""
    found = threading.Event()
    until = _UntilFound(limits, found)
    queue = iter(order)
    lock = threading.Lock()
    keepers: list[int] = []
    cut: list[int] = []
    failed: list[BaseException] = []
    helper_nodes = [0]

    def work(*, helper: bool) -> None:
        start = searcher.nodes
        try:
            while True:
                with lock:
                    col = None if found.is_set() else next(queue, None)
                if col is None:
                    return
                child = children[col]
                try:
                    known = searcher.test(child, -score, -score + 1, until)
                except SearchTimeout:
                    if not found.is_set():
                        with lock:
                            cut.append(col)
                    return
                with lock:
                    if -known >= score:
                        keepers.append(col)
                        found.set()
                    else:
                        refuted.append(col)
                if -known >= score:
                    bounds.remember(child, known)  # fail-low: at most ``known``
                    return
        except BaseException as error:  # re-raised in the caller's thread
            failed.append(error)
            found.set()
        finally:
            if helper:
                helper_nodes[0] = searcher.nodes - start

    thread = threading.Thread(
        target=work, kwargs={"helper": True}, name="connect4-helper", daemon=True
    )
    thread.start()
    work(helper=False)
    thread.join()
    searcher.credit(helper_nodes[0])
    if failed:
        raise failed[0]
    if keepers:
        return KeepingMove(keepers[0], tuple(refuted))
    if cut:
        cut_short = tuple((col, -score) for col in sorted(cut, key=order.index))
        return KeepingMove(None, tuple(refuted), cut_short, timed_out=True)
    return KeepingMove(None, tuple(refuted))


class _UntilFound(Limits):
    """The caller's limits, also ending once the other test has proved a move."""

    __slots__ = ("found",)

    def __init__(self, limits: Limits, found: threading.Event) -> None:
        super().__init__(limits.deadline, limits.stop)
        self.found = found

    @property
    def bounded(self) -> bool:
        return True

    def remaining(self) -> float:
        return 0.0 if self.found.is_set() else super().remaining()

    def expired(self) -> bool:
        return self.found.is_set() or super().expired()


def weak_score(score: int) -> int:
    """A Pons score as a weak one: its sign (1 a win, 0 a draw, -1 a loss)."""
    return (score > 0) - (score < 0)
