"""The exact m,n,k engine (boards of at most 36 cells): the same values as the
generic negamax, moves that keep them, known results from the empty board,
limits honoured, safe to share between threads."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unbeatable.games.mnk import MNKGame, MNKPosition, mnk_game
from unbeatable.search.engine import KNOWN_ONLY, Limits, Outcome
from unbeatable.search.negamax import Negamax
from unbeatable.solvers.mnk.exact import SLICE, ExactEngine

SMALL = MNKGame(3, 4, 3)
FOUR = MNKGame(4, 4, 4)
#: A 5x5 position the engine needs a few hundred thousand nodes for (from an
#: empty table): long enough to be stopped in the middle.
SLOW = "...../...../...../....x/.o... x"

_engines: dict[MNKGame, ExactEngine] = {}
_generic: dict[MNKGame, Negamax[MNKPosition, int]] = {}


def exact(game: MNKGame) -> ExactEngine:
    return _engines.setdefault(game, ExactEngine(game))


def generic(game: MNKGame) -> Negamax[MNKPosition, int]:
    return _generic.setdefault(game, Negamax(game, max_entries=1 << 20))


@st.composite
def positions(draw: st.DrawFn, game: MNKGame, least: int = 0) -> MNKPosition:
    """A position reached by play: a random order of cells, played until the
    drawn number of stones or the end of the game."""
    order = draw(st.permutations(range(game.size)))
    stones = draw(st.integers(least, game.size))
    position = game.initial()
    for cell in order[:stones]:
        if game.is_terminal(position):
            break
        position = game.play(position, cell)
    return position


def check_against_generic(game: MNKGame, position: MNKPosition) -> None:
    solved = exact(game).solve(position)
    expected = generic(game).solve(position).outcome
    assert solved.outcome == expected, game.format(position)
    assert solved.outcome.exact and solved.nodes >= 0
    if game.is_terminal(position):
        assert solved.move is None
        return
    # The move is legal and keeps the value, by the generic engine's count.
    assert solved.move_proven and solved.move in game.moves(position)
    child = generic(game).solve(game.play(position, solved.move)).outcome
    assert child.parent() == expected
    # Weak: the same result, no distance; its move keeps the result.
    weak = exact(game).value(position, weak=True)
    assert weak.outcome == Outcome(expected.result, None)
    assert weak.move_proven and weak.move in game.moves(position)
    after = generic(game).solve(game.play(position, weak.move)).outcome.parent()
    assert after.result == expected.result


@settings(max_examples=300, deadline=None)
@given(positions(SMALL))
def test_3x4x3_agrees_with_negamax(position: MNKPosition) -> None:
    check_against_generic(SMALL, position)


@settings(max_examples=150, deadline=None)
@given(positions(FOUR, least=4))
def test_4x4x4_agrees_with_negamax(position: MNKPosition) -> None:
    # (From four stones on: earlier positions take the generic engine long.)
    check_against_generic(FOUR, position)


@pytest.mark.parametrize("shape", [(3, 3, 3), (4, 4, 3), (3, 5, 4), (2, 5, 2), (1, 4, 1)])
def test_other_shapes_agree_with_negamax(shape: tuple[int, int, int]) -> None:
    game = MNKGame(*shape)
    for stones in range(0, game.size, 2):
        for first in range(0, game.size, 3):
            position = game.initial()
            for cell in [(first + 7 * i) % game.size for i in range(game.size)][:stones]:
                if game.is_terminal(position) or position.cells[cell] != ".":
                    break
                position = game.play(position, cell)
            check_against_generic(game, position)


@pytest.mark.parametrize(
    ("name", "result"),
    [
        ("mnk:4,4,4", "draw"),
        ("mnk:4,5,4", "draw"),
        ("mnk:5,5,4", "draw"),
        ("mnk:5,5,5", "draw"),
        ("mnk:4,4,3", "win"),
        ("mnk:5,5,3", "win"),
    ],
)
def test_known_results_from_the_empty_board(name: str, result: str) -> None:
    game = mnk_game(name.removeprefix("mnk:"))
    engine = ExactEngine(game)
    solved = engine.solve(game.initial())
    assert solved.outcome.result == result and solved.outcome.exact
    if result == "draw":  # nobody wins, so the board fills up
        assert solved.outcome.plies == game.size
    assert solved.move_proven and solved.move in game.moves(game.initial())
    # The move keeps the value: the reply position is worth the same to the mover.
    child = engine.solve(game.play(game.initial(), solved.move)).outcome
    assert child.parent() == solved.outcome


def test_5x5x4_first_moves_keep_the_draw() -> None:
    """Every first move of 5x5 four-in-a-row is valued, and the engine's
    replies to it keep the value (the impossible level's moves are proven)."""
    game = mnk_game("5,5,4")
    engine = exact(game)
    for cell in range(game.size):
        position = game.play(game.initial(), cell)
        reply = engine.solve(position, Limits.seconds(60))
        assert reply.outcome.exact and reply.move_proven, game.format(position)
        after = engine.solve(game.play(position, reply.move)).outcome
        assert after.parent() == reply.outcome
        # The first player loses nothing by its first move: x cannot lose.
        assert reply.outcome.result in ("draw", "loss")


def test_finished_positions() -> None:
    game = FOUR
    won = game.parse("xxxx/oo../o.../.... o")
    assert exact(game).solve(won).outcome == Outcome("loss", 0)
    full = game.parse("xxoo/ooxx/xxoo/ooxx x")
    assert full.winner is None
    assert exact(game).solve(full).outcome == Outcome("draw", 0)
    assert exact(game).solve(full).move is None


def test_win_in_one_and_forced_block() -> None:
    game = FOUR
    win = game.parse("xxx./ooo./..../.... x")
    solved = exact(game).solve(win)
    assert solved.outcome == Outcome("win", 1)
    assert game.format_move(solved.move) == "d4"
    # o must block at d4, else x wins there.
    block = game.parse("xxx./oo../..../.... o")
    solved = exact(game).solve(block)
    assert game.format_move(solved.move) == "d4"


def test_bigger_boards_are_refused() -> None:
    with pytest.raises(ValueError, match="at most 36 cells"):
        ExactEngine(MNKGame(6, 7, 4))


class Countdown(threading.Event):
    """A stop switch that turns itself on after ``left`` looks."""

    def __init__(self, left: int) -> None:
        super().__init__()
        self.left = left

    def is_set(self) -> bool:
        self.left -= 1
        return self.left < 0 or super().is_set()


def test_stop_switch_is_checked_between_slices() -> None:
    game = mnk_game("5,5,4")
    engine = ExactEngine(game)
    position = game.parse(SLOW)
    stop = Countdown(3)
    solved = engine.solve(position, Limits(stop=stop))
    assert solved.outcome == Outcome("unknown", None, False)
    assert not solved.move_proven and solved.move is None  # stopped: no guess wanted
    assert 0 < solved.nodes <= 3 * SLICE
    # Unstopped, the same engine finishes (what it learnt stays true).
    assert engine.solve(position).outcome.exact


def test_deadline_gives_an_inexact_answer_with_a_legal_move() -> None:
    game = mnk_game("5,5,4")
    engine = ExactEngine(game)
    position = game.parse(SLOW)

    class Expiring(Limits):  # the deadline passes after the first slice
        looks = 0

        def expired(self) -> bool:
            self.looks += 1
            return self.looks > 2

    solved = engine.solve(position, Expiring(deadline=float("inf")))
    assert solved.outcome == Outcome("unknown", None, False)
    assert not solved.move_proven and solved.move in game.moves(position)
    # Nothing may be searched: nothing to say, and no move.
    nothing = engine.solve(position, KNOWN_ONLY)
    assert nothing.outcome == Outcome("unknown", None, False) and nothing.move is None


def test_a_stop_from_another_thread_ends_the_search() -> None:
    game = mnk_game("5,5,4")
    engine = ExactEngine(game)
    stop = threading.Event()
    stop.set()  # the client went away before the search began
    answer = engine.solve(game.parse(SLOW), Limits(stop=stop))
    assert answer.outcome == Outcome("unknown", None, False) and answer.nodes == 0


def test_guess_is_repeatable() -> None:
    game = mnk_game("5,5,4")
    engine = ExactEngine(game)
    position = game.parse(SLOW)
    first = engine.guess(position)
    engine.solve(position)  # whatever the engine learns meanwhile
    assert engine.guess(position) == first
    assert first.move in game.moves(position)
    # Near the end the guess's search finishes: exact.
    late = game.parse("xox../oxo../xo.../...../..... x")
    guessed = engine.guess(late)
    assert guessed.outcome == engine.solve(late).outcome and guessed.move_proven


def test_threads_share_one_engine() -> None:
    game = mnk_game("5,5,4")
    shared = ExactEngine(game)
    starts = [game.play(game.initial(), cell) for cell in range(0, 25, 2)]
    expected = [ExactEngine(game).solve(p).outcome for p in starts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda p: shared.solve(p, Limits.seconds(600)), starts * 2))
    assert [a.outcome for a in answers] == expected * 2
    assert all(a.move_proven for a in answers)


def test_warm_up_loads_without_learning() -> None:
    game = mnk_game("4,5,4")
    engine = ExactEngine(game)
    engine.warm_up()
    assert not engine.table.entries.any()  # the guess had a table of its own
    assert engine.solve(game.initial()).outcome == Outcome("draw", 20)
