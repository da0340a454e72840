"""The k-in-a-row engine (Gomoku): its tables, its board, its proofs, its limits.

The engine must agree with the generic negamax wherever both can answer: on
near-finished boards small enough for negamax to solve, every result the
engine calls proven is negamax's result, and every move it calls proven keeps
that result.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unbeatable import api
from unbeatable.games import get_game
from unbeatable.games.mnk import EMPTY, MNKGame, MNKPosition
from unbeatable.search.engine import KNOWN_ONLY, Limits, Outcome
from unbeatable.search.negamax import Negamax
from unbeatable.solvers.mnk import kernel as K
from unbeatable.solvers.mnk.engine import GomokuEngine, board_of, padded
from unbeatable.solvers.mnk.patterns import (
    B3,
    B4,
    DEAD,
    F2,
    F3,
    F4,
    FIVE,
    X_STONE,
    slot,
    tables,
)

GOMOKU = get_game("gomoku")
assert isinstance(GOMOKU, MNKGame)


@pytest.fixture(autouse=True, scope="module")
def _compiled() -> None:
    """Numba compiles the kernel on first use (a fresh checkout): before any
    test with a time budget, not inside one."""
    GomokuEngine(GOMOKU).warm_up()


def position(game: MNKGame, xs: str, os: str) -> MNKPosition:
    cells = [EMPTY] * game.size
    start = game.initial()
    for mark, moves in (("x", xs), ("o", os)):
        for move in moves.split():
            cells[game.parse_move(start, move)] = mark
    return game.from_cells("".join(cells))


def level(k: int, before: str, after: str) -> int:
    """x's level at a cell with ``before`` and ``after`` it (nearest first),
    written with x, o, ``.`` (empty) and ``#`` (off the board)."""
    levels, _, _ = tables(k)
    code = {".": 0, "x": 1, "o": 2, "#": 3}
    key = 0
    for i, ch in enumerate(before, start=1):
        key |= code[ch] << (2 * slot(k - 1, -i))
    for i, ch in enumerate(after, start=1):
        key |= code[ch] << (2 * slot(k - 1, i))
    return int(levels[X_STONE - 1, key])


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ("xxxx", "....", FIVE),  # xxxx[x]
        ("xxx.", "....", F4),  # .xxx[x].: two ways to five
        ("xxxo", "....", B4),  # oxxx[x].: one way
        ("xx..", "....", F3),  # .xx[x]..: one move from an open four
        ("x.x.", "....", F3),  # .x.x[x].: split three
        ("xxo.", "....", B3),  # oxx[x]..
        ("x...", "....", F2),
        ("#...", "o...", DEAD),  # squeezed between the edge and o: never five
        ("xx.x", "....", B4),  # x.xx[x]: one gap to fill
    ],
)
def test_line_levels(before: str, after: str, expected: int) -> None:
    assert level(5, before.ljust(4, "#")[:4], after.ljust(4, "#")[:4]) == expected


def test_levels_of_four_in_a_row() -> None:
    assert level(4, "xxx", "...") == FIVE
    assert level(4, "xx.", "...") == F4
    assert level(4, "x..", "...") == F3


def _same_board(a: Any, b: Any) -> None:
    """Everything a search reads agrees: the stones, keys, counts and hash,
    and every empty cell's patterns (an occupied cell's are not kept)."""
    for name in ("bd", "key", "ncls", "near", "h"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    empty = a.bd == K.EMPTY
    assert np.array_equal(a.pat[:, empty], b.pat[:, empty]), "pat"
    assert np.array_equal(a.cls[:, empty], b.cls[:, empty]), "cls"
    assert np.array_equal(a.val[:, empty], b.val[:, empty]), "val"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_incremental_updates_equal_a_fresh_board(data: st.DataObject) -> None:
    """Playing and taking back stones keeps every table exactly as a board
    built from scratch with the same stones (9x9 five in a row: edges matter)."""
    game = get_game("mnk:9,9,5")
    assert isinstance(game, MNKGame)
    cells = [EMPTY] * game.size
    board = board_of(game, "".join(cells))
    for _ in range(data.draw(st.integers(1, 30))):
        taken = [i for i, c in enumerate(cells) if c != EMPTY]
        if taken and data.draw(st.booleans()):
            cell = data.draw(st.sampled_from(taken))
            K.remove(board, padded(game, cell))
            cells[cell] = EMPTY
        else:
            free = [i for i, c in enumerate(cells) if c == EMPTY]
            cell = data.draw(st.sampled_from(free))
            mark = data.draw(st.sampled_from("xo"))
            K.place(board, padded(game, cell), 1 if mark == "x" else 2)
            cells[cell] = mark
    _same_board(board, board_of(game, "".join(cells)))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 80), st.sampled_from("xo")), max_size=30))
def test_each_colours_hash_covers_its_own_stones(stones: list[tuple[int, str]]) -> None:
    """The correction history's keys (kernel.CORR): the board's ``h[1]`` and
    ``h[2]`` hash x's and o's stones alone, and together they make the
    position's key, played and taken back as the searches do."""
    game = get_game("mnk:9,9,5")
    assert isinstance(game, MNKGame)
    board = board_of(game, EMPTY * game.size)
    start = board.h.copy()
    placed: dict[int, str] = {}
    for cell, mark in stones:
        if cell not in placed:
            K.play(board, padded(game, cell), 1 if mark == "x" else 2)
            placed[cell] = mark
    for colour, mark in ((1, "x"), (2, "o")):
        expected = np.uint64(0)
        for cell, m in placed.items():
            if m == mark:
                expected ^= board.zob[colour - 1, padded(game, cell)]
        assert board.h[colour] == expected
    assert board.h[0] == start[0] ^ board.h[1] ^ board.h[2]
    for cell in reversed(list(placed)):
        K.unplay(board, padded(game, cell))
    assert np.array_equal(board.h, start) and start[1] == start[2] == 0


def test_only_the_rule_sets_whose_test_passed_correct_their_evaluation() -> None:
    """kernel.CORR acts where the board says so (``geo[G_CORR]``): freestyle,
    whose harness test accepted it, not standard (undecided) or renju
    (leaning to no gain)."""
    flags = {}
    for name in ("gomoku", "gomoku:standard,15", "renju"):
        game = get_game(name)
        assert isinstance(game, MNKGame)
        flags[name] = int(board_of(game, EMPTY * game.size).geo[K.G_CORR])
    assert flags == {"gomoku": 1, "gomoku:standard,15": 0, "renju": 0}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from(["mnk:9,9,5", "gomoku:standard,15", "renju"]))
def test_stones_taken_back_by_restoring_leave_the_board_as_recomputing_does(
    data: st.DataObject, name: str
) -> None:
    """The search's play/unplay (records restored, last in first out) keeps
    every table as a board built from scratch, at each step, whatever the
    rule (exactly five; renju's black), and with the general place/remove
    nested inside, as renju's forbidden points use them."""
    game = get_game(name)
    assert isinstance(game, MNKGame)
    cells = [EMPTY] * game.size
    board = board_of(game, "".join(cells))
    played: list[tuple[int, bool]] = []
    for _ in range(data.draw(st.integers(1, 40))):
        if played and data.draw(st.booleans()):
            cell, restoring = played.pop()
            (K.unplay if restoring else K.remove)(board, padded(game, cell))
            cells[cell] = EMPTY
        else:
            free = [i for i, c in enumerate(cells) if c == EMPTY]
            cell = data.draw(st.sampled_from(free))
            mark = data.draw(st.sampled_from("xo"))
            restoring = data.draw(st.booleans())
            (K.play if restoring else K.place)(board, padded(game, cell), 1 if mark == "x" else 2)
            cells[cell] = mark
            played.append((cell, restoring))
        _same_board(board, board_of(game, "".join(cells)))


def test_more_stones_than_records_are_taken_back_by_recomputing() -> None:
    """Past its records play recomputes on taking back: a full 15x15 board
    (225 stones, more than the records) played and taken back is empty again."""
    game = get_game("gomoku")
    assert isinstance(game, MNKGame)
    assert game.size > K.UNDO_LEVELS
    board = board_of(game, EMPTY * game.size)
    order = random.Random(7).sample(range(game.size), game.size)
    for i, cell in enumerate(order):
        K.play(board, padded(game, cell), 1 + i % 2)
    assert board.undo[0, 0] == game.size
    for cell in reversed(order):
        K.unplay(board, padded(game, cell))
    assert board.undo[0, 0] == 0
    _same_board(board, board_of(game, EMPTY * game.size))


def test_gomoku_and_big_boards_get_the_engine() -> None:
    assert isinstance(api.engine("gomoku"), GomokuEngine)
    assert isinstance(api.engine("mnk:19,19,5"), GomokuEngine)
    assert isinstance(api.engine("mnk:9,9,4"), GomokuEngine)
    assert not isinstance(api.engine("mnk:5,5,4"), GomokuEngine)  # the exact engine's


def test_win_in_one_and_two_fours() -> None:
    engine = GomokuEngine(GOMOKU)
    won = position(GOMOKU, "h8 i8 j8 k8 c3", "g8 a1 a2 a3 o15")
    solved = engine.solve(won, Limits.seconds(1))
    assert solved.outcome == Outcome("win", 1) and solved.move_proven
    assert GOMOKU.format_move(solved.move) == "l8"
    lost = position(GOMOKU, "h8 i8 j8 k8 c3 c4 c5 c6 a10", "g8 a1 a2 a3 o15 o14 o13 a9")
    solved = engine.solve(lost, Limits.seconds(1))
    assert solved.outcome == Outcome("loss", 2) and solved.move_proven


def test_a_leaf_tries_the_fours_near_the_movers_last_stone() -> None:
    """The leaves' quiescence (``kernel.QVCF``): x's four at h8 (d8 blocks
    the row) also makes the open three h6-h8, so its block leaves x an open
    four. A leaf finds that win when x's last stone is h7, beside it, and
    stands pat on its evaluation when x's last stone is far away (o1) or
    there is none."""
    from unbeatable.solvers.mnk.engine import _Search

    engine = GomokuEngine(GOMOKU, threads=1)
    pos = position(GOMOKU, "e8 f8 g8 h6 h7 o1", "d8 a1 c1 o15 m15 a13")
    start = GOMOKU.initial()

    def leaf(last: str | None) -> int:
        search = _Search(engine.geometry, pos.cells, table=False)
        pad = search.geometry.to_pad
        search.mbuf[0, K.PLAYED] = -1 if last is None else pad[GOMOKU.parse_move(start, last)]
        rest = (search.ctl, search.mbuf, search.sbuf, search.hist)
        tables = (search.tt_key, search.tt_data, search.corr)
        return int(K.pvs(search.board, 0, 0, -K.INF, K.INF, 2, *rest, *tables))

    assert K.QVCF > 0
    assert leaf("h7") >= K.MATE
    assert abs(leaf("o1")) < K.MATE
    assert abs(leaf(None)) < K.MATE


def _check_line(game: MNKGame, start: MNKPosition, line: list[int], fours_only: bool) -> None:
    """The line is legal, ends in a five for the side to move at the start
    and, for continuous fours, each of the winner's moves makes a four."""
    winner = start.to_move
    pos = start
    for i, move in enumerate(line):
        assert pos.cells[move] == EMPTY
        pos = game.play(pos, move)
        if fours_only and i % 2 == 0 and i < len(line) - 1:
            assert game.winning_moves(pos, winner), "an attacking move that is not a four"
    assert game.winner(pos) == winner


def test_continuous_fours_are_proved_with_their_line() -> None:
    """o wins by fours alone: f8 (x must block f6), f11 (f10), g11, then e11
    or j11 (an open four)."""
    game = GOMOKU
    start = position(game, "e10 e9 j7 e6 j6 k6 e5 j5", "h11 i11 f9 f7 i7 f5 h5")
    assert start.to_move == "o"
    # (A budget to spare: it answers in half a second, but a busy machine slows it.)
    analysis = api.analyze(game, start, time_limit=10)
    assert analysis.result == "win" and analysis.best is not None
    line = [game.parse_move(game.initial(), move) for move in analysis.best.line]
    assert analysis.plies == 7 and len(line) == 7
    _check_line(game, start, line, fours_only=True)


def _near_end(game: MNKGame, seed: int, empties: int) -> MNKPosition | None:
    """A random game of ``game`` stopped with ``empties`` cells left, nobody
    having won (None if someone won first)."""
    rng = random.Random(seed)
    pos = game.initial()
    order = list(range(game.size))
    rng.shuffle(order)
    for cell in order[: game.size - empties]:
        pos = game.play(pos, cell)
        if pos.winner is not None:
            return None
    return pos


def test_proofs_agree_with_negamax() -> None:
    """On near-finished 7x7 four-in-a-row boards (negamax can solve them),
    whatever the engine proves is true, and its proven moves keep it."""
    game = get_game("mnk:7,7,4")
    assert isinstance(game, MNKGame)
    engine = GomokuEngine(game)
    exact: Negamax[MNKPosition, int] = Negamax(game)
    proven = 0
    for seed in range(400):
        pos = _near_end(game, seed, empties=11)
        if pos is None or not game.moves(pos):
            continue
        solved = engine.solve(pos, Limits.seconds(0.5))
        if not solved.outcome.exact:
            continue
        proven += 1
        truth = exact.solve(pos).outcome
        assert solved.outcome.result == truth.result, game.format(pos)
        assert solved.outcome.plies is not None and truth.plies is not None
        assert solved.outcome.plies >= truth.plies  # a forced line, maybe not the fastest
        if solved.move_proven:
            after = exact.solve(game.play(pos, solved.move)).outcome.parent()
            assert after.result == truth.result, game.format(pos)
        if proven >= 40:
            break
    assert proven >= 20


def test_stop_switch_and_known_only() -> None:
    engine = GomokuEngine(GOMOKU)
    pos = position(GOMOKU, "h8 i9 g7", "i8 g9")
    stop = threading.Event()
    stop.set()
    solved = engine.solve(pos, Limits(stop=stop))
    assert solved.move is not None and pos.cells[solved.move] == EMPTY
    assert not solved.outcome.exact
    assert engine.solve(pos, KNOWN_ONLY).move is not None


def test_no_time_left_starts_no_helper_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search with its time already gone answers the first candidate at once:
    it starts no helper threads (an analysis values some 220 moves so, and the
    start and join of a helper each made its last moves overrun the budget)."""
    from unbeatable.solvers.mnk import engine as E

    engine = GomokuEngine(GOMOKU)
    engine.configure(threads=2)
    pos = position(GOMOKU, "h8 i9 g7", "i8 g9")
    started: list[int] = []
    real = E._Helper.__init__

    def counting(self: Any, *args: Any) -> None:
        started.append(1)
        real(self, *args)

    monkeypatch.setattr(E._Helper, "__init__", counting)
    gone = Limits(deadline=0.0)  # a deadline long past
    first = engine.solve(pos, gone).move
    assert started == [] and first is not None and pos.cells[first] == EMPTY
    assert engine.solve(pos, KNOWN_ONLY).move == first
    engine.solve(pos, Limits.seconds(0.2))
    assert len(started) == 1  # with time, the helper does start


def test_guess_repeats_and_blocks() -> None:
    engine = GomokuEngine(GOMOKU)
    pos = position(GOMOKU, "h8 i9 g7", "i8 g9")
    assert engine.guess(pos) == engine.guess(pos)
    four = position(GOMOKU, "h8 i8 j8 k8 c3", "g8 a1 a2 a3")  # o must block l8
    assert GOMOKU.format_move(engine.guess(four).move) == "l8"


def test_a_node_budget_gives_the_same_answer_every_time() -> None:
    """``solve_nodes`` (what the benchmarks compare versions with) depends on
    the nodes, not the clock or earlier searches: the same move and count."""
    engine = GomokuEngine(GOMOKU)
    pos = position(GOMOKU, "h8 i9 g7", "i8 g9")
    answers = set()
    for _ in range(2):
        solved = engine.solve_nodes(pos, 30_000)
        answers.add((solved.move, solved.nodes, solved.outcome))
    assert len(answers) == 1
    ((move, nodes, outcome),) = answers
    assert move is not None and 0 < nodes <= 30_000 + 256 and not outcome.exact
    win = position(GOMOKU, "h8 i8 j8 k8 c3", "g8 a1 a2 a3 o15")
    assert GOMOKU.format_move(engine.solve_nodes(win, 1000).move) == "l8"
    with pytest.raises(ValueError, match="positive"):
        engine.solve_nodes(pos, 0)


def test_a_kept_table_carries_what_the_last_search_found() -> None:
    """``solve_nodes(keep_table=True)`` goes on from what the earlier
    searches left, as play does from move to move (the entries of the last
    search are still there beside the new ones), and the same searches in
    the same order answer alike."""
    from unbeatable.solvers.mnk.engine import _tables

    engine = GomokuEngine(GOMOKU)
    pos = position(GOMOKU, "h8 i9 g7", "i8 g9")
    nxt = position(GOMOKU, "h8 i9 g7", "i8 g9 f6")

    def filled() -> int:
        return int(np.count_nonzero(_tables.data))

    runs = []
    for _ in range(2):
        first = engine.solve_nodes(pos, 30_000)
        later = engine.solve_nodes(nxt, 30_000, keep_table=True)
        kept = filled()
        alone = engine.solve_nodes(nxt, 30_000)
        assert kept > filled() > 0
        runs.append((first.move, first.nodes, later.move, later.nodes, alone.move, alone.nodes))
    assert runs[0] == runs[1]


@settings(deadline=None)  # (the first example compiles the three kernels it calls)
@given(
    value=st.integers(-K.INF // 2, K.INF // 2 - 1),
    flag=st.integers(0, 2),
    depth=st.integers(-128 * K.PLY, 128 * K.PLY - 1),
    move=st.integers(0, 0xFFFF),
    age=st.integers(0, 0x3FF),
)
def test_a_table_entry_holds_a_depth_in_parts_of_a_ply(
    value: int, flag: int, depth: int, move: int, age: int
) -> None:
    """The search's depth is counted in sixteenths of a ply (``kernel.PLY``):
    an entry gives back every field it was packed with, a depth of a
    hundred plies or a fraction of one among them, and its age (8 bits)
    does not spill into the rest."""
    entry = K._pack(value, flag, depth, move, age)
    assert K._unpack(entry) == (value, flag, depth, move)
    assert K._worth(entry, age) == depth
    assert int(entry) >> 58 == 0


@settings(max_examples=200, deadline=None)  # (the first example compiles the kernel)
@given(a=st.integers(0, 224), b=st.integers(-1, 224))
def test_far_answers_are_told_by_the_distance_between_cells(a: int, b: int) -> None:
    """Distraction pruning (``kernel.DISTRACT_DEPTH``) calls an answer far
    from a last stone when they are more than 4 rows or more than 4 columns
    apart (Chebyshev distance, on the kernel's padded board), and never when
    the stone is a pass (-1)."""
    board = board_of(GOMOKU, "." * 225)
    far = K._far(board, padded(GOMOKU, a), padded(GOMOKU, b) if b >= 0 else -1)
    if b < 0:
        assert not far
    else:
        assert far == (max(abs(a // 15 - b // 15), abs(a % 15 - b % 15)) > 4)


def test_a_bucket_keeps_a_deep_entry_from_a_shallow_one() -> None:
    """Two-entry buckets (``kernel.TT_BUCKET``): in a table of one bucket, a
    deep search's root entry outlives a later, shallow search of another
    position whose key falls on the same slot, which a one-entry slot would
    have overwritten; the new entry takes the place worth least."""
    from unbeatable.solvers.mnk.engine import _Search

    engine = GomokuEngine(GOMOKU, threads=1)
    key = np.zeros(2, dtype=np.uint64)
    data = np.zeros(2, dtype=np.uint64)

    def prepared(pos: MNKPosition) -> _Search:
        return _Search(engine.geometry, pos.cells, table=False)

    def search(s: _Search, depth: int) -> int:
        rest = (s.ctl, s.mbuf, s.sbuf, s.hist, key, data, s.corr)
        K.pvs(s.board, 0, depth * K.PLY, -K.INF, K.INF, 0, *rest)
        return int(s.board[7][0])

    assert K.TT_BUCKET > 0
    deep = search(prepared(position(GOMOKU, "h8 i9 g7", "i8 g9 f6")), 4)
    # The keys are fixed (seeded), so the same one of these shares the slot each run.
    others = [
        position(GOMOKU, f"h8 i9 {x}", f"i8 g9 {o}")
        for x in ("a1", "b2", "c3")
        for o in ("o15", "n14")
    ]
    same = next(s for s in map(prepared, others) if int(s.board[7][0]) & 1 == deep & 1)
    shallow = search(same, 1)
    held = {int(k ^ d) for k, d in zip(key, data, strict=True)}
    assert held == {deep, shallow}


def test_threads_share_one_engine() -> None:
    engine = GomokuEngine(GOMOKU)
    cases = [
        position(GOMOKU, "h8 i8 j8 k8 c3", "g8 a1 a2 a3 o15"),
        position(GOMOKU, "e10 e9 j7 e6 j6 k6 e5 j5", "h11 i11 f9 f7 i7 f5 h5"),
        position(GOMOKU, "h8 i9 g7", "i8 g9"),
    ]
    alone = [engine.solve(c, Limits.seconds(0.5)).outcome for c in cases]
    results: list[list[Outcome]] = []

    def work() -> None:
        results.append([engine.solve(c, Limits.seconds(0.5)).outcome for c in cases])

    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for got in results:
        for mine, ref in zip(got, alone, strict=True):
            if ref.exact:
                assert mine.result == ref.result


def test_deepening_stops_once_lines_reach_the_full_board() -> None:
    """With two empty cells, no deeper search can change the answer: the
    engine answers at once even with no limit at all (it used to deepen for
    ever without a budget, and to spend its whole budget with one)."""
    game = MNKGame(7, 7, 5)
    # Runs of at most two in every direction: no five anywhere.
    cells = ["x" if (c // 2 + r) % 2 == 0 else "o" for r in range(7) for c in range(7)]
    xs = [i for i, mark in enumerate(cells) if mark == "x"]
    os = [i for i, mark in enumerate(cells) if mark == "o"]
    for i in [*xs[: len(xs) - len(os)], os[0]]:  # x's surplus and one o: o to move
        cells[i] = EMPTY
    pos = game.from_cells("".join(cells))
    assert pos.cells.count(EMPTY) == 2 and not game.is_terminal(pos)
    solved = GomokuEngine(game).solve(pos)
    assert solved.move is not None and solved.nodes < 100


def test_configure_sizes_the_table_and_sets_the_threads() -> None:
    """``configure`` (the brain's max_memory and thread_num): the table takes
    what the limit leaves, so the engine's memory follows the limit, and a
    timed search starts that many threads (the caller's worker and helpers)."""
    from unbeatable.solvers.mnk import engine as E

    engine = GomokuEngine(GOMOKU)
    before = E._tables.entries
    try:
        engine.configure(memory=40 << 20, threads=3)
        assert engine.threads == 3
        assert engine.memory_use() <= 40 << 20 < 2 * engine.memory_use()
        big = E._tables.nbytes
        engine.configure(memory=8 << 20)
        assert engine.memory_use() <= 8 << 20 and E._tables.nbytes <= big // 4
        engine.configure(memory=0)  # below the fixed part: the smallest table, still plays
        assert E._tables.entries == E.MIN_TT_ENTRIES
        started: list[int] = []
        real = E._Helper.__init__

        def counting(self: Any, *args: Any) -> None:
            started.append(1)
            real(self, *args)

        E._Helper.__init__ = counting  # type: ignore[method-assign]
        try:
            engine.solve(position(GOMOKU, "h8 i9 g7", "i8 g9"), Limits.seconds(0.2))
        finally:
            E._Helper.__init__ = real  # type: ignore[method-assign]
        assert len(started) == 2
        with pytest.raises(ValueError, match="threads"):
            engine.configure(threads=0)
    finally:
        E._tables.resize(before)


def test_a_singular_search_leaves_the_tables_move_out() -> None:
    """Singular extensions (``kernel.SE_DEPTH``) search a node's other moves
    with the table's move left out (``mbuf``'s ``EXCLUDED`` column): k8 is
    x's one four-three (the row h8-k8, blocked at g8, and the open three
    k8-k10), a win; o's stones at l10, l11 and i7 close x's diagonals, so
    with k8 left out x has none. The search that leaves it
    out stores nothing for its node: the table's entry is the full search's."""
    from unbeatable.solvers.mnk.engine import _Search

    engine = GomokuEngine(GOMOKU, threads=1)
    pos = position(GOMOKU, "h8 i8 j8 k9 k10", "g8 l11 l10 i7 a1")
    search = _Search(engine.geometry, pos.cells, table=False)
    key = np.zeros(1 << 12, dtype=np.uint64)
    data = np.zeros(1 << 12, dtype=np.uint64)
    rest = (search.ctl, search.mbuf, search.sbuf, search.hist, key, data, search.corr)
    k8 = search.geometry.to_pad[GOMOKU.parse_move(GOMOKU.initial(), "k8")]
    h = int(search.board[7][0])

    def root_entry() -> int:
        held = [int(d) for k, d in zip(key, data, strict=True) if int(k) ^ int(d) == h]
        assert len(held) == 1
        return held[0]

    assert K.SE_DEPTH > 0
    assert K.pvs(search.board, 0, 3 * K.PLY, -K.INF, K.INF, 0, *rest) >= K.MATE
    entry = root_entry()
    assert K._unpack(np.uint64(entry))[3] == k8  # the move the table holds for the root
    search.mbuf[0, K.EXCLUDED] = k8 + 1
    assert abs(K.pvs(search.board, 0, 3 * K.PLY, -K.INF, K.INF, 0, *rest)) < K.MATE
    search.mbuf[0, K.EXCLUDED] = 0
    assert root_entry() == entry
