"""The exact Connect Four solver against Pons' public test sets, the generic
negamax, its own weak mode, and its limits."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from connect4_sets import cases
from unbeatable import api
from unbeatable.games.connect4 import STANDARD, Connect4Position, connect4, predecessors
from unbeatable.search.engine import KNOWN_ONLY, UNKNOWN, Limits, Outcome, SearchTimeout
from unbeatable.solvers.connect4 import Connect4Engine
from unbeatable.solvers.connect4.book import Book
from unbeatable.solvers.connect4.heuristic import best_guess
from unbeatable.solvers.connect4.table import TranspositionTable

game = connect4()


@pytest.fixture(scope="module")
def engine() -> Connect4Engine:
    """A book-less engine: these tests exercise the search itself."""
    return Connect4Engine(book=None)


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


@pytest.mark.parametrize(
    ("name", "limit"),
    [
        ("Test_L3_R1", None),
        ("Test_L2_R1", None),
        ("Test_L2_R2", None),
        ("Test_L1_R1", 20),
        ("Test_L1_R2", 20),
    ],
)
def test_agrees_with_public_sets(engine: Connect4Engine, name: str, limit: int | None) -> None:
    wrong = [
        (moves, expected, got)
        for moves, expected in cases(name, limit)
        if (got := engine.solve_score(game.parse(moves))[0]) != expected
    ]
    assert wrong == []


def test_scores_do_not_depend_on_the_table(engine: Connect4Engine) -> None:
    sample = cases("Test_L2_R2", 30)
    warm = [engine.solve_score(game.parse(m))[0] for m, _ in sample]
    cold = []
    for m, _ in sample:
        engine.reset()
        cold.append(engine.solve_score(game.parse(m))[0])
    assert warm == cold == [s for _, s in sample]


def test_weak_mode_agrees_in_sign(engine: Connect4Engine) -> None:
    sample = cases("Test_L3_R1", 100) + cases("Test_L2_R1", 100) + cases("Test_L2_R2", 50)
    for moves, expected in sample:
        position = game.parse(moves)
        assert engine.solve_score(position, weak=True)[0] == sign(expected), moves
    for moves, expected in sample[::10]:
        outcome = engine.solve(game.parse(moves), weak=True).outcome
        assert outcome.plies is None and outcome.exact
        assert outcome.result == ("win", "draw", "loss")[1 - sign(expected)]


def test_solve_gives_outcome_and_a_move_keeping_it(engine: Connect4Engine) -> None:
    sample = cases("Test_L3_R1", 40) + cases("Test_L2_R1", 40) + cases("Test_L2_R2", 20)
    for moves, expected in sample:
        position = game.parse(moves)
        solved = engine.solve(position)
        result, plies = STANDARD.pons_outcome(position.stones, expected)
        assert solved.outcome == Outcome(result, plies, True), moves
        assert solved.move in game.moves(position)
        child = game.play(position, solved.move)
        if child.winner is not None:
            assert expected == STANDARD.win_now(position.stones)
        elif game.is_terminal(child):
            assert expected == 0
        else:
            assert -engine.solve_score(child)[0] == expected, moves


def test_finished_games(engine: Connect4Engine) -> None:
    won = game.parse("1212121")
    assert engine.solve(won).outcome == Outcome("loss", 0)
    assert engine.solve(won).move is None
    rng = random.Random(3)
    while True:
        p = game.initial()
        while not game.is_terminal(p):
            p = game.play(p, rng.choice(game.moves(p)))
        if p.winner is None:
            break
    assert engine.solve(p).outcome == Outcome("draw", 0)
    with pytest.raises(ValueError):
        engine.solve_score(won)


def test_immediate_win_is_played(engine: Connect4Engine) -> None:
    position = game.parse("121212")
    solved = engine.solve(position)
    assert solved.move == 0
    assert solved.outcome == Outcome("win", 1)


def test_limits_give_an_inexact_answer_with_a_legal_move() -> None:
    engine = Connect4Engine(book=None)
    for moves in ("", "4", "44"):
        position = game.parse(moves)
        solved = engine.solve(position, Limits.seconds(0.02))
        assert solved.outcome == UNKNOWN
        assert solved.move in game.moves(position)
        assert engine.value(position, Limits.seconds(0.02)).outcome.exact is False
    passed = engine.solve(game.parse("4453"), Limits(deadline=time.perf_counter() - 1))
    assert not passed.outcome.exact
    assert passed.move in game.moves(game.parse("4453"))


def test_a_stop_switch_ends_a_search_at_once() -> None:
    """The empty board takes billions of nodes without a book: a switch set
    after 50 ms ends it within a slice, and nobody then wants a guess. (The
    kernel is loaded first: loading it from numba's cache can take longer
    than 50 ms, and this test may be a test process's first search.)"""
    engine = Connect4Engine(book=None)
    engine.warm_up()
    stop = threading.Event()
    timer = threading.Timer(0.05, stop.set)
    timer.start()
    solved = engine.solve(game.initial(), Limits(stop=stop))
    assert not solved.outcome.exact and solved.move is None
    assert 0 < solved.nodes < 100_000_000


def test_generous_limits_are_exact(engine: Connect4Engine) -> None:
    for moves, expected in cases("Test_L2_R2", 10):
        position = game.parse(moves)
        solved = engine.solve(position, Limits.seconds(600))
        assert solved.outcome == Outcome(*STANDARD.pons_outcome(position.stones, expected))
        assert solved.move_proven
        assert engine.value(position, Limits.seconds(600)).outcome == solved.outcome


def test_best_guess_proves_short_wins_and_returns_legal_moves() -> None:
    guess = best_guess(game.parse("121212"))
    assert guess.move == 0 and guess.outcome == Outcome("win", 1)
    for moves, expected in cases("Test_L3_R1", 30):
        position = game.parse(moves)
        guess = best_guess(position, nodes=20_000)
        assert guess.move in game.moves(position)
        if guess.outcome.exact:
            assert guess.outcome == Outcome(*STANDARD.pons_outcome(position.stones, expected)), (
                moves
            )
    opening = best_guess(game.initial(), nodes=5_000)
    assert opening.outcome.result == "unknown" and opening.move in range(7)


def test_best_guess_leaves_out_moves_proven_to_give_value_away() -> None:
    position = game.initial()
    first = best_guess(position, nodes=5_000).move
    assert first is not None
    assert best_guess(position, nodes=5_000, exclude=[first]).move not in (first, None)
    # With every move excluded it still answers.
    assert best_guess(position, nodes=5_000, exclude=range(7)).move in range(7)


def test_the_book_plays_its_deepest_level_and_bounds_the_next() -> None:
    """At the book's deepest level the engine plays the stored move (no
    search); a book without moves searches the children in centre order,
    skipping those the book's bound one stone past it rules out; every
    move it passes over gives value away (one test at a time: two side by
    side, see below, take the first proved)."""
    table = TranspositionTable()
    engine = Connect4Engine(table=table, side_by_side=False)
    book = engine.book
    assert book is not None and book.plies == 8
    # A win (score 6); in centre order the first move that keeps it is column 6.
    position = game.parse("35773146")
    score = book.get(position)
    assert score == 6
    engine.book = Book(book.plies, book.keys, book.scores)  # the same book without moves
    kept = engine.prove_keeping_move(position, score, Limits.seconds(600))
    move, refuted = kept.move, kept.refuted
    assert move == 5 and refuted == (3, 2, 4, 1)
    bounds = [book.parent_bound(game.play(position, col)) for col in refuted]
    assert [b for b in bounds if b is not None and -b < score]  # ruled out by the book alone
    book_free = Connect4Engine(table=table, book=None)
    for col in refuted:
        assert -book_free.solve_score(game.play(position, col))[0] < score
    assert -book_free.solve_score(game.play(position, move))[0] == score
    engine.book = book
    assert book.move(position) == 5
    solved = engine.solve(position)
    assert solved.nodes == 0 and solved.move == 5


def test_two_tests_side_by_side_the_first_move_proved_keeps_the_value() -> None:
    """Under a time limit two null-window tests run side by side: the move
    that comes back keeps the value, every move reported refuted gives value
    away, the helper's nodes are counted, and if the limits end both tests
    the moves cut short are reported, in the order they were taken."""
    table = TranspositionTable()
    book_free = Connect4Engine(table=TranspositionTable(), book=None)
    for line, lead in (("35773146", None), ("721672466", 0), ("1172323336", 0)):
        position = game.parse(line)
        score = book_free.solve_score(position)[0]
        engine = Connect4Engine(table=table, book=None)
        engine.reset()
        before = engine.searcher.nodes
        kept = engine.prove_keeping_move(position, score, Limits.seconds(600), lead=lead)
        move = kept.move
        assert move is not None and -book_free.solve_score(game.play(position, move))[0] == score
        for col in kept.refuted:
            assert -book_free.solve_score(game.play(position, col))[0] < score
        assert engine.searcher.nodes > before
    engine.reset()
    position = game.parse("1172323336")
    kept = engine.prove_keeping_move(position, -1, Limits.seconds(0.001), lead=0)
    assert kept.timed_out and kept.move is None
    pending = kept.cut_short
    assert 1 <= len(pending) <= 2 and pending[0] == (0, 1)


def test_two_stones_past_the_book_a_stored_move_bounds_every_reply() -> None:
    """Taking back a reply and a stored book move bounds the position from
    below by the book's score: never above the exact score, and equal to it
    after a best reply (here from positions the solver settles fast)."""
    engine = Connect4Engine(table=TranspositionTable())
    book = engine.book
    assert book is not None
    checked = tight = 0
    for line in ("23222457", "31544245", "31433667"):
        start = game.parse(line)
        for col in game.moves(start):
            after = game.play(start, col)
            values = {}
            for reply in game.moves(after):
                position = game.play(after, reply)
                bound = book.grandparent_bound(position)
                if bound is not None:
                    values[reply] = engine.solve_score(position)[0]
                    assert values[reply] >= bound, position.moves
                    checked += 1
                    tight += values[reply] == bound
            if col == book.move(start):
                assert len(values) == len(game.moves(after))  # every reply is bounded
                assert min(values.values()) == book.get(start)  # exact after a best reply
    assert checked > 50 and tight > 10


def test_past_the_book_the_engine_keeps_the_proved_bound_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two stones past the book (after the stored move and a best reply) the
    engine proves a move that keeps the book's score, then the exact score; a
    reply to its move is bounded by what that proof showed. Out of time for the
    exact score, the move that keeps the bound still comes, marked inexact."""
    engine = Connect4Engine(table=TranspositionTable())
    fresh = Connect4Engine(table=TranspositionTable())
    position = game.parse("3143366744")  # 31433667 (score 6, stored move 4), then 4
    assert engine.lower_bound(position) == 6
    solved = engine.solve(position, Limits.seconds(60))
    assert solved.move_proven and solved.outcome == Outcome(
        "win", *STANDARD.pons_outcome(10, 6)[1:]
    )
    child = game.play(position, solved.move)
    assert -engine.solve_score(child)[0] == 6
    for reply in game.moves(child):
        after = game.play(child, reply)
        if not game.is_terminal(after):
            assert engine.lower_bound(after) == 6  # remembered from the proof
            # ...but nothing is searched when nothing may be: what the easy and
            # medium levels take must not depend on what the engine remembers.
            assert engine.solve(after, KNOWN_ONLY) == fresh.solve(after, KNOWN_ONLY)
    erred = game.parse("3143366745")  # a worse reply: the score rises to 13
    solved = engine.solve(erred, Limits.seconds(60))
    assert solved.move_proven and solved.outcome.plies == STANDARD.pons_outcome(10, 13)[1]
    assert -engine.solve_score(game.play(erred, solved.move))[0] == 13

    engine.reset()

    def out_of_time(*args: object, **kwargs: object) -> int:
        raise SearchTimeout("no time left for the exact score")

    monkeypatch.setattr(engine.searcher, "score", out_of_time)
    solved = engine.solve(position, Limits.seconds(60))
    assert solved.move_proven and solved.outcome == Outcome("win", None, exact=False)
    assert -engine.solve_score(game.play(position, solved.move))[0] >= 6


def test_out_of_time_the_move_under_test_is_played_and_its_bound_tried_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the limits cut a child's test short, the tests before it having
    refuted their moves, that child is the move (unproven), and the bound it
    was being tested for is tried first after the reply: a likely bound,
    proved only once a move keeps it."""
    engine = Connect4Engine(table=TranspositionTable())
    position = game.parse("721672466")  # one stone past the book, score 2
    assert engine.lower_bound(position) == 2
    search = engine.searcher.test
    cut_short = game.play(position, 5)

    def slow_on_the_keeper(child: Connect4Position, *args: object) -> int:
        if child == cut_short:
            raise SearchTimeout("out of time")
        return search(child, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(engine.searcher, "test", slow_on_the_keeper)
    solved = engine.solve(position, Limits.seconds(60))
    assert solved.move == 5 and not solved.move_proven  # 3, 2, 4 and 1 refuted first
    for reply in game.moves(cut_short):
        after = game.play(cut_short, reply)
        if not game.is_terminal(after):
            assert engine.bounds.likely_lower(after) == 2 and engine.lower_bound(after) is None


def test_a_likely_bound_no_move_keeps_falls_back_to_the_exact_search() -> None:
    """A wrong guess costs time, never truth: if no move keeps the likely bound,
    the value is searched as usual and the answer is exact."""
    position = game.parse("314336674441")  # a win in 19 plies (score 5)
    truth = Connect4Engine(table=TranspositionTable()).solve(position)
    engine = Connect4Engine(table=TranspositionTable())
    for _, before in predecessors(position):
        engine.bounds.remember(before, -7, proved=False)  # "at least 7": too high
    assert engine.bounds.likely_lower(position) == 7 and engine.lower_bound(position) is None
    solved = engine.solve(position, Limits.seconds(60))
    assert (solved.outcome, solved.move, solved.move_proven) == (truth.outcome, truth.move, True)


def test_registry_returns_the_connect4_engine() -> None:
    assert isinstance(api.engine("connect4"), Connect4Engine)


def _late_positions(count: int, seed: int) -> list[Connect4Position]:
    """Positions with at least 34 stones: public-set lines and random playouts from them."""
    rng = random.Random(seed)
    base = [game.parse(m) for m, _ in cases("Test_L3_R1") if len(m) >= 34]
    out = rng.sample(base, count // 2)
    while len(out) < count:
        p = game.parse(rng.choice(cases("Test_L3_R1"))[0])
        while p.stones < 34 and not game.is_terminal(p):
            p = game.play(p, rng.choice(game.moves(p)))
        if not game.is_terminal(p):
            out.append(p)
    return out


def test_agrees_with_generic_negamax(engine: Connect4Engine) -> None:
    from unbeatable.search.negamax import Negamax

    generic = Negamax(game)
    for position in _late_positions(24, seed=11):
        ours = engine.solve(position)
        theirs = generic.solve(position)
        assert ours.outcome == theirs.outcome, game.format(position)
        weak = generic.solve(position, weak=True).outcome
        assert weak.result == ours.outcome.result


def _long_searches(count: int, weak: bool) -> list[tuple[str, int]]:
    """Positions of the public sets that one thread solves in more than
    three times the nodes after which a helper starts."""
    from unbeatable.solvers.connect4 import sliced

    alone = sliced.SlicedSearch(TranspositionTable(), helpers=False)
    found = []
    for moves, expected in cases("Test_L1_R2"):
        before = alone.nodes
        alone.score(game.parse(moves), Limits(), weak=weak)
        if alone.nodes - before > 3 * sliced.HELPER_AFTER * sliced.SLICE:
            found.append((moves, expected))
            if len(found) == count:
                break
    return found


@pytest.fixture
def races(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The helper threads started (searches of a few slices get one here)."""
    from unbeatable.solvers.connect4 import sliced

    started: list[sliced._Race] = []

    class Counted(sliced._Race):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            started.append(self)

    monkeypatch.setattr(sliced, "_Race", Counted)
    monkeypatch.setattr(sliced, "HELPER_AFTER", 1)
    return started


def test_a_helper_thread_changes_no_score(races: list[Any]) -> None:
    """Past a second (here, a slice) a narrowing search gets a helper thread
    (lazy SMP: the same narrowing, each test beside the main thread's, over
    the same table): strong and weak scores stay exact, and the helper's nodes
    are counted."""
    from unbeatable.solvers.connect4 import sliced

    for weak in (False, True):
        for moves, expected in _long_searches(4, weak):
            search = sliced.SlicedSearch(TranspositionTable())
            races.clear()
            score = search.score(game.parse(moves), Limits(), weak=weak)
            assert score == (sign(expected) if weak else expected), moves
            assert len(races) == 1 and search.nodes >= races[0].nodes > 0


def test_a_helper_thread_ends_with_its_search(races: list[Any]) -> None:
    """Out of time (or stopped), the search takes its helper with it."""
    from unbeatable.solvers.connect4 import sliced

    search = sliced.SlicedSearch(TranspositionTable())
    with pytest.raises(SearchTimeout):
        search.score(game.initial(), Limits.seconds(0.4))
    assert len(races) == 1 and races[0].nodes > 0
    assert not [t for t in threading.enumerate() if t.name == "connect4-helper"]


def test_the_narrowing_bisects_with_the_sign_first() -> None:
    """The narrowing's tests (kernel.probe_point): "at least a draw?" first,
    then bisection (so no interval takes more than about log2 of its size
    tests, whatever the score), the same schedule for either player, and a
    helper's test beside the main thread's."""
    from unbeatable.solvers.connect4 import kernel

    none = kernel.NO_GUESS
    assert kernel.probe_point(-21, 21, none) == -1  # "more than -1?": a draw at least
    for lo in range(-21, 22):
        for hi in range(lo + 1, 22):
            med = kernel.probe_point(lo, hi, none)
            assert lo <= med < hi
            helper = kernel.other_probe_point(lo, hi, none)
            assert lo <= helper < hi and (helper != med or hi - lo == 1)
            if lo >= 0 or hi <= 0:  # one side's results: mirrored for the other
                assert kernel.probe_point(-hi, -lo, none) == -med - 1
            for score in range(lo, hi + 1):  # the whole narrowing to each score
                a, b, tests = lo, hi, 0
                while a < b:
                    m = kernel.probe_point(a, b, none)
                    a, b = (m + 1, b) if score > m else (a, m)
                    tests += 1
                assert a == score and tests <= (hi - lo).bit_length() + 1
