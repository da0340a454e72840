"""Forced wins at Gomoku: the impossible level proves and plays them.

Each position of ``tests/data/gomoku/forced_wins.txt`` (see its README) is
one where a tournament engine, Rapfi, proves a win for the side to move. With
the game's default budget, ``unbeatable.choose_move`` at the impossible level
must answer with a move it has proved to win (the library says ``"win"`` only
when proven, ``"unknown"`` otherwise), a distance in plies, and, when it gives
its line of play, a line that starts with that move, is legal, and ends with
five in a row for the side to move. Which winning move it plays is its own
affair: Rapfi's list of winning moves need not be complete.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import pytest

import unbeatable
from unbeatable import api

#: Strength within the game's clock: a busy machine gets fewer nodes in the
#: same time, so .ci/run runs this module alone, after the tests it can share
#: the cores with.
pytestmark = pytest.mark.timed

SUITE = Path(__file__).resolve().parents[1] / "data" / "gomoku" / "forced_wins.txt"


class Case(NamedTuple):
    name: str
    to_move: str
    plies: int
    by: str
    winning: tuple[str, ...]
    moves: tuple[str, ...]


def load() -> list[Case]:
    cases = []
    for line in SUITE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, to_move, plies, by, winning, *moves = line.split()
        cases.append(Case(name, to_move, int(plies), by, tuple(winning.split(",")), tuple(moves)))
    return cases


CASES = load()


def position_after(moves: tuple[str, ...]) -> Any:
    position: Any = ""
    for move in moves:
        position = api.play_move("gomoku", position, move)
    return position


def test_suite_is_well_formed() -> None:
    """The data itself: the stated side is to move, nobody has five yet, the
    recorded winning moves are empty cells, and both kinds of win are there."""
    assert 40 <= len(CASES) <= 60
    assert len({case.name for case in CASES}) == len(CASES)
    assert {case.by for case in CASES} == {"fours", "threes"}
    rules, _ = api.resolve("gomoku")
    for case in CASES:
        position = position_after(case.moves)
        assert rules.to_move(position) == case.to_move, case.name
        assert rules.winner(position) is None, case.name
        assert case.plies % 2 == 1 and case.plies >= 1, case.name
        legal = {rules.format_move(m) for m in rules.moves(position)}
        assert set(case.winning) <= legal, case.name


#: Positions in which a winning move must be found within the budget. The
#: engine finds 46 of the 50 on a quiet machine (benchmarks/README.md); the
#: margin keeps a loaded test machine, where the search gets fewer nodes per
#: second, from failing what is a measure of strength.
MUST_FIND = 42


@pytest.fixture(scope="module")
def answers() -> dict[str, Any]:
    """The impossible level's move in every position, each with the default budget."""
    rules, _ = api.resolve("gomoku")
    api.engine(rules).warm_up()  # type: ignore[attr-defined]
    return {
        case.name: unbeatable.choose_move("gomoku", position_after(case.moves), "impossible")
        for case in CASES
    }


#: Seconds given to proving a claimed win again: half a second first (48 of
#: the 50 are proven in it on a quiet machine; each analysis then values the
#: other moves until its budget ends, so a longer first budget costs the
#: pass about a second a position), then more for the rest, and for a
#: machine so loaded that that was not enough.
CHECK_BUDGETS = (0.5, 2.0, 10.0, 30.0)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_what_it_claims_is_true(case: Case, answers: dict[str, Any]) -> None:
    """A forced win is never called a loss or a draw, and a win it calls proven
    has a line that replays to five for the side to move."""
    rules, _ = api.resolve("gomoku")
    chosen = answers[case.name]
    assert chosen is not None
    assert chosen.result in ("win", "unknown"), f"{case.name}: claims {chosen.result}"
    if chosen.result != "win":
        return
    assert chosen.plies is not None and chosen.plies % 2 == 1
    # The line of play behind the claim (as Hint and Explain show it) wins.
    # The proof is searched again under a clock: on a loaded test machine the
    # clock buys fewer nodes, so a budget that runs out is given more before
    # the claim is called false (a true claim is proven again, given time).
    position = position_after(case.moves)
    for budget in CHECK_BUDGETS:
        analysis = api.analyze("gomoku", position, time_limit=budget)
        if analysis.result == "win":
            break
    assert analysis.result == "win" and analysis.best is not None, case.name
    line = analysis.best.line
    after = position
    for move in line:
        after = api.play_move("gomoku", after, move)
    if len(line) == analysis.plies:  # followed to the end within the budget
        assert rules.winner(after) == case.to_move, f"{case.name}: the line does not end in five"


@pytest.mark.slow
def test_a_winning_move_is_found(answers: dict[str, Any]) -> None:
    """A winning move (one Rapfi confirmed, or one proven) within the budget,
    in at least :data:`MUST_FIND` of the positions."""
    missed = [
        f"{case.name} ({answers[case.name].move}; Rapfi: {','.join(case.winning)})"
        for case in CASES
        if answers[case.name].result != "win" and answers[case.name].move not in case.winning
    ]
    assert len(CASES) - len(missed) >= MUST_FIND, f"missed: {'; '.join(missed)}"
