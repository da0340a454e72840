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

SUITE = Path(__file__).resolve().parent / "data" / "gomoku" / "forced_wins.txt"


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


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_impossible_level_finds_a_winning_move(case: Case) -> None:
    rules, _ = api.resolve("gomoku")
    api.engine(rules).warm_up()  # type: ignore[attr-defined]
    position = position_after(case.moves)
    chosen = unbeatable.choose_move("gomoku", position, "impossible")
    assert chosen is not None
    assert chosen.result in ("win", "unknown"), f"{case.name}: claims {chosen.result}"
    assert chosen.result == "win" or chosen.move in case.winning, (
        f"{case.name}: Rapfi proves a win in {case.plies} ({', '.join(case.winning)} win);"
        f" the AI played {chosen.move} ({chosen.result})"
    )
    if chosen.result != "win":
        return
    assert chosen.plies is not None and chosen.plies % 2 == 1
    if chosen.line:
        assert chosen.line[0] == chosen.move
        after = position
        for move in chosen.line:
            after = api.play_move("gomoku", after, move)
        assert rules.winner(after) == case.to_move, f"{case.name}: the line does not end in five"
