"""What every player agrees on, at every level and on every game (issue 17):
a win in one is taken, a lone threat blocked, and when every move loses (or
nothing could be valued) the AI loses slowest and resists as a person would,
blocking the most threats, then in the game's preferred order, never taking
the first cell in board order. The exact searches of the command line say
when they will take long, and stop cleanly at Ctrl-C."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from typing import Any

import pytest

import unbeatable
from conftest import CliRun
from unbeatable import api
from unbeatable.cli import progress as cli_progress
from unbeatable.games import get_game
from unbeatable.search.analysis import Valued, obvious, pick_best, resisting
from unbeatable.search.engine import UNKNOWN, UNLIMITED, Limits, Outcome, Solved
from unbeatable.search.levels import ends_within, within_horizon
from unbeatable.search.negamax import Negamax

LEVELS = ["easy", "medium", "impossible"]


def board(game: str, x: list[str], o: list[str]) -> str:
    """The position with ``x`` and ``o`` on those cells (side to move from the counts)."""
    rules = get_game(game)
    empty = rules.initial()
    cells = ["."] * len(empty.cells)
    for mark, stones in (("x", x), ("o", o)):
        for stone in stones:
            cells[rules.parse_move(empty, stone)] = mark
    row = rules.describe().columns
    return "/".join("".join(cells[i : i + row]) for i in range(0, len(cells), row))


def picks(game: str, position: str, level: str, seeds: int = 12, **kw: Any) -> set[tuple]:
    """Every (move, result, plies) the level chose over a few seeds."""
    out = set()
    for seed in range(seeds if level != "impossible" else 1):
        move = unbeatable.choose_move(game, position, level, random.Random(seed), **kw)
        assert move is not None
        out.add((move.move, move.result, move.plies))
    return out


# -- the obvious, at every level -------------------------------------------------------


@pytest.mark.parametrize("game", ["gomoku", "mnk:15,15,5", "mnk:19,19,5"])
@pytest.mark.parametrize("level", LEVELS)
def test_a_win_in_one_is_taken_at_every_level(game: str, level: str) -> None:
    """The issue's position: the impossible level answered h9, easy and medium
    raised TypeError (a guess without a move)."""
    position = board(game, ["h8", "i8", "j8", "k8", "c3"], ["g8", "a1", "a2", "a3", "o15"])
    assert picks(game, position, level, time_limit=0.5) == {("l8", "win", 1)}


@pytest.mark.parametrize("level", LEVELS)
def test_a_lone_four_is_blocked_at_every_level(level: str) -> None:
    position = board("gomoku", ["h8", "i8", "j8", "k8"], ["g8", "a1", "a2"])
    assert {move for move, _, _ in picks("gomoku", position, level, time_limit=0.5)} == {"l8"}


@pytest.mark.parametrize("level", LEVELS)
def test_an_open_four_is_lost_but_still_blocked_at_every_level(level: str) -> None:
    """Every move loses in two: a person blocks one end, never plays a15."""
    position = board("gomoku", ["h8", "i8", "j8", "k8"], ["a1", "a2", "a3"])
    chosen = picks("gomoku", position, level, time_limit=0.5)
    assert {(result, plies) for _, result, plies in chosen} == {("loss", 2)}
    assert {move for move, _, _ in chosen} <= {"g8", "l8"}


def test_obvious_reads_only_what_is_forced() -> None:
    ttt = get_game("tictactoe")
    assert obvious(ttt, ttt.parse("xx./oo./... x")) == (
        ttt.parse_move(ttt.initial(), "c3"),
        Outcome("win", 1),
    )
    assert obvious(ttt, ttt.parse("xx./o../... o")) == (ttt.parse_move(ttt.initial(), "c3"), None)
    assert obvious(ttt, ttt.parse("x../.o./... x")) is None  # nothing forced
    lost = ttt.parse("..x/.oo/xox x")  # o threatens a2 and b3
    move, outcome = obvious(ttt, lost)  # type: ignore[misc]
    assert outcome == Outcome("loss", 2) and ttt.format_move(move) in ("a2", "b3")
    assert obvious(Blind(ttt), ttt.parse("xx./oo./... x")) is None  # a game that does not say


@pytest.mark.parametrize("game", ["mnk:7,7,4", "mnk:9,9,5"])
def test_near_the_end_every_level_takes_wins_and_blocks_lone_threats(game: str) -> None:
    rules = get_game(game)
    rng = random.Random(17)
    checked = 0
    while checked < 6:
        position = rules.initial()
        for _ in range(rng.randrange(len(position.cells) // 2, len(position.cells) - 4)):
            if rules.is_terminal(position):
                break
            position = rules.play(position, rng.choice(rules.moves(position)))
        if rules.is_terminal(position):
            continue
        me = rules.to_move(position)
        them = "o" if me == "x" else "x"
        wins, threats = rules.winning_moves(position, me), rules.winning_moves(position, them)
        if not wins and len(threats) != 1:
            continue
        checked += 1
        for level in LEVELS:
            for seed in range(3):
                move = unbeatable.choose_move(
                    rules, position, level, random.Random(seed), time_limit=0.2
                )
                assert move is not None and move.raw in rules.moves(position)
                if wins:
                    assert move.raw in wins and (move.result, move.plies) == ("win", 1)
                else:
                    assert move.raw == threats[0], (rules.format(position), level)


# -- losing, it resists ----------------------------------------------------------------


def test_lost_tictactoe_positions_resist_instead_of_taking_the_first_cell() -> None:
    # o threatens a2 and b3: a3 (first in board order) blocks nothing.
    analysis = unbeatable.analyze("tictactoe", "..x/.oo/xox x")
    assert analysis.best is not None and analysis.best.move in ("a2", "b3")
    # Every move loses in 4: the centre, the game's favourite, not a3.
    analysis = unbeatable.analyze("tictactoe", ".x./x../oox o")
    assert {m.plies for m in analysis.moves if m.result == "loss"} >= {4}
    assert analysis.best is not None and analysis.best.move == "b2"
    for level in LEVELS:
        chosen = unbeatable.choose_move("tictactoe", "..x/.oo/xox x", level, random.Random(3))
        assert (
            chosen is not None
            and chosen.move == unbeatable.analyze("tictactoe", "..x/.oo/xox x").best.move
        )  # type: ignore[union-attr]


def test_impossible_plays_the_analysis_best_in_every_tictactoe_position() -> None:
    """Won, drawn or lost: the move played is as good as the one analysis
    calls best (one of the moves of its value, drawn at random where they
    win as fast or draw alike; when lost, the most resisting itself)."""
    ttt = get_game("tictactoe")
    seen: set[str] = set()
    stack = [ttt.initial()]
    lost = 0
    while stack:
        position = stack.pop()
        if position.cells in seen or ttt.is_terminal(position):
            continue
        seen.add(position.cells)
        stack.extend(ttt.play(position, m) for m in ttt.moves(position))
        analysis = unbeatable.analyze(ttt, position)
        chosen = unbeatable.choose_move(ttt, position, "impossible", seed=len(seen))
        best = analysis.best
        assert chosen is not None and best is not None
        assert (chosen.result, chosen.plies) == (best.result, best.plies), ttt.format(position)
        if best.result == "loss":
            assert chosen.move == best.move, ttt.format(position)
        lost += analysis.result == "loss"
    assert lost > 500


def test_pick_best_resists_when_lost_or_unknown_and_keeps_tie_break_otherwise() -> None:
    ttt = get_game("tictactoe")
    position = ttt.parse("..x/.oo/xox x")  # o threatens a2 and b3
    legal = list(ttt.moves(position))
    cell = {ttt.format_move(m): m for m in legal}

    def best(values: dict[str, Outcome], pick: Any = None, proven: bool = False) -> str:
        moves = [(m, values.get(ttt.format_move(m), UNKNOWN)) for m in legal]
        root = Outcome("loss", 2) if proven else None
        return ttt.format_move(pick_best(ttt, position, Valued(moves, root, pick, proven, 0)))

    all_lose = {name: Outcome("loss", 2) for name in cell}
    assert best(all_lose) in ("a2", "b3")
    assert best({}) not in ("a3",)  # nothing valued: not the first cell
    assert best({}) == ttt.format_move(next(resisting(ttt, position, legal)))
    assert best({}, pick=cell["a3"]) == "a3"  # the engine's own guess stands
    # A proven losing pick gives way to an equally lost move that resists more.
    proven = {"a2": Outcome("loss", 2), "b3": Outcome("loss", 2)}
    assert best(proven, pick=cell["a3"], proven=True) in ("a2", "b3")
    # Wins keep the tie-break order (board order here).
    wins = {"a2": Outcome("win", 3), "b3": Outcome("win", 3)}
    assert best(wins) == "b3"


def test_resisting_orders_by_threats_left_then_the_games_preference() -> None:
    game = get_game("gomoku")
    position = game.parse(board("gomoku", ["h8", "i8", "j8", "k8"], ["a1", "a2", "a3"]))
    order = [game.format_move(m) for m in resisting(game, position, game.moves(position))]
    assert set(order[:2]) == {"g8", "l8"} and len(order) == len(game.moves(position))
    rest = order[2:]
    preference = [game.format_move(m) for m in game.ordered_moves(position)]
    assert rest == [m for m in preference if m in set(rest)]


def test_a_stopped_search_or_a_guess_without_a_move_falls_back_to_resisting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No engine answer at all: every level still plays, and not a15."""

    class Clueless:
        def solve(self, position: Any, limits: Limits = UNLIMITED, weak: bool = False) -> Solved:
            return Solved(UNKNOWN, 0, None)

        value = solve

        def guess(self, position: Any) -> Solved:
            return Solved(UNKNOWN, 0, None)

    monkeypatch.setattr(api.engines, "engine", lambda *_args, **_kw: Clueless())
    game = get_game("gomoku")
    position = game.parse(board("gomoku", ["h8"], []))
    expected = game.format_move(next(resisting(game, position, game.moves(position))))
    assert expected != "a15"
    for level in LEVELS:
        move = unbeatable.choose_move(game, position, level, random.Random(1), time_limit=0.2)
        assert move is not None and move.result == "unknown"
        if level == "impossible":
            assert move.move == expected


# -- what a weaker level sees ----------------------------------------------------------


class Blind:
    """A game that does not read threats: within_horizon searches it."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def winning_moves(self, position: Any, player: str) -> None:
        return None


@pytest.mark.parametrize("name", ["tictactoe", "mnk:4,4,3", "mnk:5,5,4", "connect4"])
def test_reading_threats_sees_what_a_two_ply_search_sees(name: str) -> None:
    game = get_game(name)
    rng = random.Random(5)
    for _ in range(60):
        position = game.initial()
        for _ in range(rng.randrange(0, 14)):
            if game.is_terminal(position):
                break
            position = game.play(position, rng.choice(game.moves(position)))
        if game.is_terminal(position):
            continue
        for horizon in (1, 2):
            read = within_horizon(game, position, horizon)
            searched = within_horizon(Blind(game), position, horizon)
            assert read == searched, (game.format(position), horizon)
            for mv in read:  # and the generic search is what it claims
                child = ends_within(game, game.play(position, mv.raw), horizon - 1)
                assert (mv.result, mv.plies) == (
                    ("unknown", None) if child is None else child.parent()[:2]
                )


def test_the_guess_searches_fewer_plies_on_big_boards() -> None:
    game = get_game("gomoku")
    position = game.parse(board("gomoku", ["h8", "i8"], ["g8"]))
    guessed = Negamax(game).guess(position)
    assert guessed.move in game.moves(position) and guessed.nodes < 1000
    ttt = get_game("tictactoe")  # small boards keep their four plies
    start = ttt.parse("x../.../...")
    assert Negamax(ttt).guess(start).nodes == Negamax(ttt).guess(start, depth=4).nodes


# -- the command line: exact answers past exact reach -----------------------------------


def _slow(result: Any, seconds: float = 0.4) -> Any:
    def work(*_args: Any, **_kw: Any) -> Any:
        time.sleep(seconds)
        if isinstance(result, BaseException):
            raise result
        return result

    return work


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_a_slow_exact_answer_says_so_and_stops_at_ctrl_c(
    run_cli: CliRun, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setattr(cli_progress, "PATIENCE", 0.05)
    monkeypatch.setattr(api, command, _slow(KeyboardInterrupt()))
    code, out, err = run_cli(command, "gomoku", "")
    assert code == 130 and out == ""
    assert "can take long" in err and "--time-limit 1" in err
    assert "interrupted" in err and "Traceback" not in err


def test_a_slow_exact_answer_that_comes_is_printed_after_the_note(
    run_cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_progress, "PATIENCE", 0.05)
    real = api.solve("gomoku", "", time_limit=0.05)._replace(result="draw", exact=True)
    monkeypatch.setattr(api, "solve", _slow(real))
    code, out, err = run_cli("solve", "gomoku", "")
    assert code == 0 and "draw" in out and "can take long" in err
    # JSON too says so, on stderr (standard output stays one JSON object).
    code, out, err = run_cli("solve", "gomoku", "", "--json")
    assert code == 0 and json.loads(out)["result"] == "draw" and "can take long" in err
    # Timed answers say nothing.
    code, out, err = run_cli("solve", "gomoku", "", "--time-limit", "0.2")
    assert code == 0 and err == ""
    monkeypatch.undo()
    code, _, err = run_cli("solve", "tictactoe", "")
    assert code == 0 and err == ""


@pytest.mark.parametrize("json_", [False, True])
def test_ctrl_c_ends_a_real_endless_exact_solve_cleanly(json_: bool) -> None:
    """7 in a row on 20x20 (the k-in-a-row engine's): its exact solve never ends."""
    argv = [sys.executable, "-m", "unbeatable", "solve", "mnk:20,20,7", ""]
    proc = subprocess.Popen(
        argv + (["--json"] if json_ else []),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        if json_:
            time.sleep(2.5)  # under way (start-up takes about a second)
        else:
            assert proc.stderr is not None
            note = proc.stderr.readline()
            if "getting the" in note:  # the engine's kernels load first
                note = proc.stderr.readline()
            assert "can take long" in note and "--time-limit" in note
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and out == ""
    assert "Traceback" not in err
