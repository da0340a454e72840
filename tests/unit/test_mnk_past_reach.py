"""Boards past exact reach are served honestly (issue 31, point 6): one place
decides an m,n,k board's engine and budget, a search with no time limit
searches on to the proof (progress shown, Ctrl-C stops it) and never says a
budget ran out, and 6x5 four in a row is proved a first-player win."""

from __future__ import annotations

import itertools
import json
import threading
from types import SimpleNamespace

import pytest

from conftest import CliRun
from terminal import interrupted_in_terminal
from unbeatable import api
from unbeatable.cli import render
from unbeatable.games.mnk import MAX_SIDE, MNKGame, mnk_game
from unbeatable.search.engine import Limits, Outcome, Progress
from unbeatable.solvers import (
    EXACT,
    EXACT_KERNEL_CELLS,
    EXACT_MNK_CELLS,
    GOMOKU_TIME_LIMIT,
    MNK_TIME_LIMIT,
    NEGAMAX_CELLS,
    mnk_plan,
    plays_k_in_a_row,
)
from unbeatable.solvers.mnk.exact import MAX_CELLS, ExactEngine
from unbeatable.solvers.mnk.proof_first import ProofFirstEngine

TIMED = (False, MNK_TIME_LIMIT)
#: (game, the engine that serves it, its policy).
ROUTES = [
    ("tictactoe", "Negamax", EXACT),
    ("mnk:3,4,3", "ExactEngine", TIMED),
    ("mnk:5,5,4", "ExactEngine", TIMED),
    ("mnk:6,5,4", "ExactEngine", TIMED),
    ("mnk:4,7,4", "ExactEngine", TIMED),
    ("mnk:2,15,3", "ExactEngine", TIMED),
    ("mnk:6,6,4", "ProofFirstEngine", TIMED),
    ("mnk:4,9,4", "ProofFirstEngine", TIMED),
    ("mnk:6,6,6", "ProofFirstEngine", TIMED),
    ("mnk:6,6,3", "ExactEngine", TIMED),
    ("mnk:2,18,3", "ExactEngine", TIMED),
    ("mnk:7,7,4", "GomokuEngine", (False, GOMOKU_TIME_LIMIT)),
    ("mnk:9,9,5", "GomokuEngine", (False, GOMOKU_TIME_LIMIT)),
    ("gomoku", "GomokuEngine", (False, GOMOKU_TIME_LIMIT)),
    ("mnk:19,19,6", "GomokuEngine", (False, GOMOKU_TIME_LIMIT)),
    ("mnk:20,20,7", "GomokuEngine", (False, GOMOKU_TIME_LIMIT)),
    ("mnk:8,8,8", "GomokuEngine", (False, GOMOKU_TIME_LIMIT)),
    ("mnk:5,7,7", "ProofFirstEngine", TIMED),
    ("mnk:7,7,3", "Negamax", TIMED),
    ("mnk:20,20,3", "Negamax", TIMED),
]


@pytest.mark.parametrize(("name", "engine", "policy"), ROUTES, ids=[r[0] for r in ROUTES])
def test_each_board_has_one_engine_and_its_budget(
    name: str, engine: str, policy: tuple[bool, float | None]
) -> None:
    assert type(api.engine(name)).__name__ == engine
    assert api.policy(name) == policy


def test_the_plan_of_every_board_keeps_the_contract() -> None:
    """Every board of the family (sides 1-20, every k): the k-in-a-row engine
    past the exact solver's reach whenever k >= 4, the exact solver up to its
    reach, and a budget for every query past tic-tac-toe's board."""
    assert MAX_CELLS == EXACT_KERNEL_CELLS  # the registry knows the kernel's width
    for rows, columns in itertools.product(range(1, MAX_SIDE + 1), repeat=2):
        cells = rows * columns
        for k in range(1, max(rows, columns) + 1):
            plan = mnk_plan(SimpleNamespace(size=cells, k=k))
            engine = None if plan.engine is None else plan.engine[1]
            if cells <= NEGAMAX_CELLS:
                assert (engine, plan.policy) == (None, EXACT)
                continue
            assert not plan.policy.exact and plan.policy.time_limit is not None
            if cells <= EXACT_MNK_CELLS:
                assert engine == "ExactEngine"
            elif cells <= EXACT_KERNEL_CELLS:
                # The proof first; the k-in-a-row engine when a budget runs short.
                assert engine == ("ProofFirstEngine" if plays_k_in_a_row(k) else "ExactEngine")
            elif plays_k_in_a_row(k):
                assert engine == "GomokuEngine"
                assert plan.policy.time_limit == GOMOKU_TIME_LIMIT
            else:  # what is left: k of 3 or less, the generic negamax's
                assert engine is None and k < 4, (rows, columns, k)


def test_6x5_four_in_a_row_is_a_first_player_win_in_11(run_cli: CliRun) -> None:
    """Proved from the empty board (a few thousand nodes), with no time limit
    as a user asks; the proven line's positions lose one ply at each move."""
    code, out, err = run_cli("solve", "mnk:6,5,4", "", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert (answer["result"], answer["plies"], answer["exact"]) == ("win", 11, True)
    code, out, err = run_cli("solve", "mnk:6,5,4", "")
    assert code == 0 and "x to move, win in 11" in out and "not proven" not in out
    game = mnk_game("6,5,4")
    engine = ExactEngine(game)
    position = game.initial()
    value = engine.solve(position)
    assert value.outcome == Outcome("win", 11) and value.move_proven
    while not game.is_terminal(position):
        position = game.play(position, value.move)
        after = engine.solve(position)
        assert after.outcome.parent() == value.outcome, game.format(position)
        value = after
    assert game.winner(position) == "x"


def test_an_answer_without_a_budget_never_blames_one(
    run_cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An engine that stops short of a proof with no time limit set says so;
    only a search that had a budget says the budget ran out."""
    empty = "/".join(["......."] * 7) + " x"
    unproven = api.Solution("mnk:7,7,4", empty, "x", "unknown", None, None, 3_144, 20.0, False)
    monkeypatch.setattr(api, "solve", lambda *args, **kwargs: unproven)
    code, out, err = run_cli("solve", "mnk:7,7,4", "")
    assert code == 0, err
    assert "the engine found no proof (it cannot search further)" in out
    assert "budget" not in out + err
    code, out, _ = run_cli("solve", "mnk:7,7,4", "", "--time-limit", "1")
    assert "not proven: the time budget ran out" in out
    code, out, _ = run_cli("solve", "mnk:7,7,4", "", "--time-limit", "inf")
    assert "budget" not in out
    # The analysis's summary likewise.
    analysis = api.analyze("mnk:3,4,3", "x.../..o./.... x")
    moves = tuple(m._replace(result="unknown", plies=None, score=None) for m in analysis.moves)
    lost = analysis._replace(result="unknown", plies=None, score=None, moves=moves, exact=False)
    untimed = str(render.summary(lost, timed=False))
    assert "the engine found no proof" in untimed and "budget" not in untimed
    assert "within the time budget" in str(render.summary(lost))
    partly = analysis._replace(moves=(analysis.moves[0], *moves[1:]), exact=False)
    assert "not valued in time" not in str(render.summary(partly, timed=False))
    assert "not valued in time" in str(render.summary(partly))


def test_exact_progress_reports_add_up_and_the_window_narrows() -> None:
    """Reports between slices, even with no limits at all: the nodes add up,
    and the window (in the game's score units) narrows onto the score."""
    game = MNKGame(2, 14, 3)  # a draw: about three million nodes
    reports: list[Progress] = []
    solved = ExactEngine(game).solve(game.initial(), Limits(progress=reports.append))
    assert solved.outcome == Outcome("draw", 28)
    assert len(reports) > 10 and sum(r.nodes for r in reports) == solved.nodes
    windows = [(r.low, r.high) for r in reports if r.low is not None and r.high is not None]
    assert windows and windows[0][0] < 0 < windows[0][1]
    for (low, high), (next_low, next_high) in itertools.pairwise(windows):
        assert low <= next_low and next_high <= high
    assert all(low <= 0 <= high for low, high in windows)
    # A won position: the windows hold the game's own score of the win.
    won = mnk_game("6,5,4")
    reports.clear()
    value = ExactEngine(won).solve(won.initial(), Limits(progress=reports.append))
    score = won.score(won.initial(), "win", 11)
    assert reports and all(r.low <= score <= r.high for r in reports)  # type: ignore[operator]
    assert reports[0].low < reports[-1].low  # type: ignore[operator]
    assert sum(r.nodes for r in reports) == value.nodes


def test_proof_first_proves_when_it_can_and_plays_when_it_cannot() -> None:
    game = mnk_game("4,9,4")  # a draw whose proof takes minutes
    engine = ProofFirstEngine(game)
    engine.warm_up()  # (kernels loaded before the clock, as the api does)
    timed = engine.solve(game.initial(), Limits.seconds(0.5))
    assert not timed.outcome.exact and timed.move in game.moves(game.initial())
    assert timed.nodes > 0
    stop = threading.Event()
    stop.set()  # no deadline: the proof alone, ended only by the switch
    stopped = engine.solve(game.initial(), Limits(stop=stop))
    assert stopped.outcome == Outcome("unknown", None, False) and stopped.move is None
    guessed = engine.guess(game.initial())  # the k-in-a-row engine's, as no proof came
    assert guessed == engine.guess(game.initial()) and not guessed.outcome.exact
    # 6x6 four in a row: the proof comes within the budget's first share.
    six = ProofFirstEngine(mnk_game("6,6,4"))
    six.exact.warm_up()
    proved = six.solve(six.game.initial(), Limits.seconds(10))
    assert proved.outcome == Outcome("win", 11) and proved.move_proven


def test_a_long_mnk_proof_shows_progress_and_stops_at_ctrl_c() -> None:
    """4x9 four in a row with no time limit: the exact solver searches on
    (minutes), the terminal shows the note, then the progress line with nodes
    and the score window; Ctrl-C ends it with one line and exit code 130."""
    # (300 s: a cold numba cache compiles both engines first)
    text = interrupted_in_terminal(["solve", "mnk:4,9,4", ""], b"score between", 300)
    assert "can take long" in text and f"--time-limit {MNK_TIME_LIMIT:g}" in text
    assert "nodes (" in text and "M nodes/s)" in text
    last = text.replace("\r", "\n").replace("\x1b[K", "").strip().splitlines()[-1]
    assert last.startswith("unbeatable: interrupted after") and "nodes" in last, last
    assert "Traceback" not in text and "budget ran out" not in text
