"""The search engines: textbook trees with known answers, and exhaustive
agreement of minimax, alpha-beta and negamax on tic-tac-toe."""

from __future__ import annotations

import math
import random
import time

import pytest

import unbeatable
from unbeatable.api import ALGORITHMS
from unbeatable.games import get_game
from unbeatable.games.base import Game, InvalidPositionError
from unbeatable.games.tree import ExplicitTree, tree_from_json, tree_from_leaves
from unbeatable.search.analysis import analyse, forget_lines
from unbeatable.search.engine import UNKNOWN, Limits, Outcome
from unbeatable.search.minimax import TextbookEngine, alphabeta, minimax
from unbeatable.search.negamax import Negamax

ttt = get_game("tictactoe")


def all_positions() -> list:
    """Every reachable tic-tac-toe position (5,478), by depth-first search."""
    seen: dict[str, object] = {}
    stack = [ttt.initial()]
    while stack:
        position = stack.pop()
        if position.cells in seen:
            continue
        seen[position.cells] = position
        stack.extend(ttt.play(position, m) for m in ttt.moves(position))
    return list(seen.values())


POSITIONS = all_positions()
NONTERMINAL = [p for p in POSITIONS if not ttt.is_terminal(p)]


def test_reachable_position_counts() -> None:
    assert len(POSITIONS) == 5478
    assert len(NONTERMINAL) == 4520


# -- explicit trees ---------------------------------------------------------------


def leaves_pruned(tree: ExplicitTree) -> list[tuple[int, ...]]:
    visited: set[tuple[int, ...]] = set()
    alphabeta(tree, (), on_node=lambda p, _v: visited.add(p))
    values: dict[tuple[int, ...], float] = {}
    minimax(tree, (), on_node=lambda p, v: values.__setitem__(p, v))
    return sorted(p for p in values if tree.is_terminal(p) and p not in visited)


def test_textbook_binary_tree() -> None:
    tree = ExplicitTree(tree_from_leaves([3, 5, 2, 9, 12, 5, 23, 23]))
    values: dict[tuple[int, ...], float] = {}
    value, stats = minimax(tree, (), on_node=lambda p, v: values.__setitem__(p, v))
    assert value == 12
    assert values[(0,)] == 5 and values[(1,)] == 12
    assert values[(0, 0)] == 5 and values[(0, 1)] == 9
    assert stats.nodes == 15
    assert alphabeta(tree, ())[0] == 12
    assert leaves_pruned(tree) == [(1, 1, 1)]


def test_aima_figure_tree_prunes_the_two_leaves_the_book_shows() -> None:
    tree = ExplicitTree(tree_from_json("[[3, 12, 8], [2, 4, 6], [14, 5, 2]]"))
    assert minimax(tree, ())[0] == 3
    value, stats = alphabeta(tree, ())
    assert value == 3 and stats.cutoffs == 2  # the last MIN node fails low on its last leaf
    assert leaves_pruned(tree) == [(1, 1), (1, 2)]


def test_uneven_tree_and_single_leaf() -> None:
    tree = ExplicitTree(tree_from_json("[[1, [4, 8]], 6, [[2, -3], 0]]"))
    assert minimax(tree, ())[0] == alphabeta(tree, ())[0] == 6
    assert minimax(ExplicitTree(tree_from_leaves([7])), ())[0] == 7


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[1, [", "not valid JSON"),
        ("5", "root must be a list"),
        ("[[1, 2], []]", "at least one child"),
        ('[[1, "a"]]', "expected a number"),
        ("[[1, true]]", "expected a number"),
        ("[" * 20 + "1" + "]" * 20, "deeper than"),
    ],
)
def test_bad_trees_are_rejected(text: str, fragment: str) -> None:
    with pytest.raises(InvalidPositionError, match=fragment):
        tree_from_json(text)


def test_leaf_count_must_be_a_power_of_two() -> None:
    with pytest.raises(InvalidPositionError, match="power of two"):
        tree_from_leaves([1, 2, 3])


# -- exhaustive agreement on tic-tac-toe ------------------------------------------


@pytest.mark.slow
def test_three_engines_agree_on_every_move_of_every_position() -> None:
    minimax_values = {}
    for position in NONTERMINAL:
        analyses = [unbeatable.analyze(ttt, position, algorithm=a) for a in ALGORITHMS]
        shapes = [[m.to_dict() for m in a.moves] for a in analyses]
        assert shapes[0] == shapes[1] == shapes[2], ttt.format(position)
        summaries = [(a.result, a.plies, a.score, a.best and a.best.ref()) for a in analyses]
        assert summaries[0] == summaries[1] == summaries[2]
        minimax_values[position.cells] = analyses[0].score
    assert len(minimax_values) == 4520


def test_textbook_engines_draw_the_same_lines_on_their_own() -> None:
    """Asked directly (no faster engine for the lines), alpha-beta finds each
    step's best move itself: the same lines, the same best move, as negamax."""
    engine = TextbookEngine(ttt, alphabeta)
    # Early positions take alpha-beta long; the slow test covers them.
    positions = [p for p in NONTERMINAL if p.cells.count(".") <= 5]
    forget_lines()  # no line remembered from another engine
    own = [analyse(ttt, position, engine).to_dict() for position in positions]
    for position, mine in zip(positions, own, strict=True):
        theirs = unbeatable.analyze(ttt, position).to_dict()
        assert mine | {"nodes": 0, "time_ms": 0} == theirs | {"nodes": 0, "time_ms": 0}


def test_alphabeta_visits_fewer_nodes_than_minimax() -> None:
    empty = ttt.initial()
    value_mm, stats_mm = minimax(ttt, empty)
    value_ab, stats_ab = alphabeta(ttt, empty)
    assert value_mm == value_ab == 0
    assert stats_mm.nodes == 549_946  # every node of the full game tree
    assert stats_ab.nodes < stats_mm.nodes / 10 and stats_ab.cutoffs > 0


def test_negamax_reuses_its_table_across_queries() -> None:
    engine = Negamax(ttt)
    first = engine.solve(ttt.initial())
    again = engine.solve(ttt.initial())
    assert first.outcome == again.outcome == Outcome("draw", 9)
    # A table hit at the root, and one for the first child to name the move.
    assert again.nodes <= 2 < first.nodes
    # What the first search learned below the root makes later queries cheaper.
    position = ttt.parse("x../.o./...")
    assert engine.solve(position).nodes < Negamax(ttt).solve(position).nodes


def unfinished(game: Game, plies: int, count: int) -> list:
    """``count`` unfinished positions ``plies`` random moves into ``game``."""
    rng = random.Random(f"{game.name}{plies}")
    found: list = []
    while len(found) < count:
        position = game.initial()
        for _ in range(plies):
            if game.is_terminal(position):
                break
            position = game.play(position, rng.choice(list(game.moves(position))))
        if not game.is_terminal(position):
            found.append(position)
    return found


@pytest.mark.parametrize(
    ("name", "plies", "count"),
    [("mnk:4,3,3", 2, 40), ("mnk:4,4,3", 4, 20), ("hexapawn", 2, 20), ("hexapawn:4,4", 3, 20)],
)
def test_the_distance_bounds_change_no_value_and_no_move(name: str, plies: int, count: int) -> None:
    """Negamax cuts a window that no win or loss at that distance can reach
    (mate-distance pruning), and the keeping move is checked on a window
    around its one value: from random positions of games of the default
    scoring (Hexapawn reads no win in one: every cut there is the bounds'),
    every value and best move are those of the search without
    either, and so are the values of every move."""
    if name.startswith("hexapawn"):
        pytest.importorskip("unbeatable_hexapawn")
    game = get_game(name)
    bounded, plain = Negamax(game), Negamax(game)
    assert bounded.distance_bounds
    plain.distance_bounds = False
    for position in unfinished(game, plies, count):
        mine, theirs = bounded.solve(position), plain.solve(position)
        assert (mine.outcome, mine.move) == (theirs.outcome, theirs.move), game.format(position)
        for move in game.moves(position):
            child = game.play(position, move)
            assert bounded.value(child).outcome == plain.value(child).outcome
    assert not Negamax(ExplicitTree(tree_from_leaves([3, 5, 2, 9]))).distance_bounds


def test_negamax_table_is_bounded() -> None:
    engine = Negamax(ttt, max_entries=100)
    engine.solve(ttt.initial())
    assert len(engine.table) <= 100
    assert engine.solve(ttt.initial()).outcome == Outcome("draw", 9)


def test_iterative_deepening_yields_progress_until_proven() -> None:
    engine = Negamax(ttt)
    iterations = list(engine.iterate(ttt.initial()))
    assert [i.depth for i in iterations] == list(range(1, len(iterations) + 1))
    assert iterations[-1].exact and iterations[-1].value == 0
    assert not any(i.exact for i in iterations[:-1])


def test_deadline_in_the_past_gives_an_unproven_legal_answer() -> None:
    """A fresh engine (nothing in its table) given no time proves nothing:
    an engine that ignored the deadline would prove the draw (197 nodes)."""
    engine = Negamax(ttt)
    solved = engine.solve(ttt.initial(), Limits(deadline=time.perf_counter() - 1))
    assert solved.outcome == UNKNOWN and not solved.move_proven
    assert solved.nodes < 10
    assert solved.move in ttt.moves(ttt.initial())


def test_weak_solving_gives_result_only() -> None:
    solved = Negamax(ttt).solve(ttt.parse("xox/oox/..."), weak=True)
    assert solved.outcome == Outcome("win", None)
    assert unbeatable.solve("tictactoe", "xox/oox/...", weak=True).to_dict()["plies"] is None


def test_minimax_honours_a_deadline() -> None:
    from unbeatable.search.engine import SearchTimeout

    with pytest.raises(SearchTimeout):
        minimax(ttt, ttt.initial(), limits=Limits(deadline=time.perf_counter()))


def test_mate_scores_are_depth_aware() -> None:
    # x wins at once with c1: 10 - 1 = 9; the slow loss a1 is -(10 - 2) = -8.
    value, _ = minimax(ttt, ttt.parse("xox/oox/..."))
    assert value == 9
    assert Negamax(ttt).search(ttt.parse("xox/oox/..."), -math.inf, math.inf)[:2] == (9, True)


class _OutOfTime:
    """An engine that never proves anything but has an opinion at the root."""

    def __init__(self, root_move: int) -> None:
        self.root_move = root_move

    def solve(self, position, limits=None, weak=False):  # type: ignore[no-untyped-def]
        from unbeatable.search.engine import Solved

        return Solved(UNKNOWN, 1, self.root_move)

    def value(self, position, limits=None, weak=False):  # type: ignore[no-untyped-def]
        return self.solve(position, limits, weak)


def test_unproven_analysis_plays_the_engines_own_pick() -> None:

    position = ttt.initial()
    analysis = analyse(ttt, position, _OutOfTime(7), Limits.seconds(1), report_exact=True)
    assert analysis.exact is False and analysis.result == "unknown"
    assert analysis.best is not None and analysis.best.move == ttt.format_move(7)
    assert all(m.result == "unknown" for m in analysis.moves)
    assert analysis.to_dict()["exact"] is False


def test_a_value_proven_without_its_move_is_not_claimed_for_the_position() -> None:
    # Connect Four's solver, out of time between proving a position lost and
    # proving which move resists longest, answers so: the value, an unproven
    # move. The analysis must not then say "lost in 4" of a position whose
    # best move it calls unknown.
    from unbeatable.search.engine import Solved

    position = ttt.parse("xo./.x./...")  # o to move, and x threatens c1 (index 8)

    class ValueOnly(_OutOfTime):
        def solve(self, pos, limits=None, weak=False):  # type: ignore[no-untyped-def]
            if pos == position:
                return Solved(Outcome("loss", 4), 1, 8, move_proven=False)
            return super().solve(pos, limits, weak)

        value = solve

    analysis = analyse(ttt, position, ValueOnly(8), Limits.seconds(1), report_exact=True)
    assert analysis.best is not None and analysis.best.move == "c1"
    assert (analysis.best.result, analysis.best.plies) == ("unknown", None)
    assert (analysis.result, analysis.plies, analysis.score) == ("unknown", None, None)
    assert analysis.exact is False


def test_a_proven_draw_beats_unproven_moves() -> None:

    class Mixed(_OutOfTime):
        def solve(self, position, limits=None, weak=False):  # type: ignore[no-untyped-def]
            if position.cells[4] == "x":  # the centre: proven draw for o, the mover there
                return Negamax(ttt).solve(position)
            return super().solve(position, limits, weak)

    analysis = analyse(ttt, ttt.initial(), Mixed(0), Limits.seconds(1))
    assert analysis.best is not None and analysis.best.move == "b2"
    assert analysis.result == "draw"


def test_a_proven_root_move_is_played_even_when_other_moves_stay_unproven() -> None:
    from unbeatable.search.engine import Solved

    position = ttt.parse("xox/oox/...")  # x wins at once with c1 (index 8)

    class BookLike:
        """Knows the position's value and a proven best move, nothing below it."""

        def solve(self, pos, limits=None, weak=False):  # type: ignore[no-untyped-def]
            if pos == position:
                return Solved(Outcome("win", 1), 0, 8, move_proven=True)
            return Solved(UNKNOWN, 1, None)

        value = solve

    analysis = analyse(ttt, position, BookLike(), Limits.seconds(1))
    assert analysis.best is not None and analysis.best.move == "c1"
    assert (analysis.result, analysis.plies, analysis.score) == ("win", 1, 9)
    assert [m.result for m in analysis.moves] == ["unknown", "unknown", "win"]
