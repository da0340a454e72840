"""The Gomocup brain: the protocol line by line, then the real thing.

Unit tests drive :class:`Brain` in-process (a wrapped or stubbed
``choose_move`` where the test is about the protocol, not the search);
then ``pbrain-unbeatable`` runs as a child process, driven by PyGomo's
engine client as any Gomoku engine would be, and two brains play a whole
game refereed here. Boards are small, nearly full or given short budgets,
so that every search answers fast.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygomo
import pytest

from unbeatable import __version__, api
from unbeatable import brain as brain_module
from unbeatable.brain import (
    FASTEST,
    OPPONENT,
    OWN,
    About,
    Begin,
    Board,
    Brain,
    End,
    Info,
    Point,
    Preparation,
    ProtocolError,
    Restart,
    RuleChoice,
    Settings,
    Start,
    Swap2Board,
    Takeback,
    Turn,
    Unknown,
    game_name,
    move_budget,
    parse_command,
    parse_entry,
    parse_swap2_entry,
    rule_choice,
    serve,
)
from unbeatable.search.analysis import MoveValue, move_value
from unbeatable.search.engine import UNKNOWN

#: A 5x5 board one stone from full, nobody with five and nobody able to make
#: one: ours (1) and the opponent's (2), rows from the top; the only empty
#: point is x=3, y=3 (d2 in the game's notation). Twelve stones each: we move.
NEARLY_FULL = ("11221", "22112", "11221", "221.2", "11221")


def board_lines(rows: tuple[str, ...]) -> list[str]:
    """``BOARD`` ... ``DONE`` for rows of 1, 2, 3 and . (rows from the top)."""
    entries = [f"{x},{y},{c}" for y, row in enumerate(rows) for x, c in enumerate(row) if c != "."]
    return ["BOARD", *entries, "DONE"]


def feed(brain: Brain, *lines: str) -> list[str]:
    """Every answer to ``lines``, in order."""
    out: list[str] = []
    for line in lines:
        out += brain.handle(line)
    return out


def point_of(answer: str) -> Point:
    match = re.fullmatch(r"(\d+),(\d+)", answer)
    assert match, answer
    return Point(int(match[1]), int(match[2]))


def messages(answers: list[str]) -> list[str]:
    return [line[len("MESSAGE ") :] for line in answers if line.startswith("MESSAGE ")]


class Spy:
    """``choose_move`` (or ``choose``) as the brain calls it, with each call's
    game, position and time limit noted."""

    def __init__(self, choose: Any = api.choose_move) -> None:
        self.choose = choose
        self.limits: list[float] = []
        self.positions: list[str] = []
        self.games: list[Any] = []

    def __call__(self, rules: Any, pos: Any, level: str, **options: Any) -> MoveValue | None:
        self.limits.append(options["time_limit"])
        self.positions.append(rules.format(pos))
        self.games.append(rules)
        return self.choose(rules, pos, level, **options)


def playing(*moves: str) -> Any:
    """A chooser that plays the first of ``moves`` (the game's notation) that
    is legal where it is asked, unproven."""

    def choose(rules: Any, pos: Any, level: str, **options: Any) -> MoveValue:
        for move in moves:
            try:
                return move_value(rules, pos, rules.parse_move(pos, move), UNKNOWN)
            except api.GameError:
                continue
        raise AssertionError(f"none of {moves} is legal in {rules.format(pos)}")

    return choose


def never(*args: Any, **options: Any) -> None:
    raise AssertionError("no search was expected")


class Configurable:
    """An engine as ``INFO max_memory`` and ``thread_num`` reach it."""

    def __init__(self) -> None:
        self.calls: list[tuple[int | None, int | None]] = []
        self.threads = 2

    def configure(self, *, memory: int | None = None, threads: int | None = None) -> None:
        self.calls.append((memory, threads))
        if threads is not None:
            self.threads = threads

    def memory_use(self) -> int:
        return 5 << 20

    def warm_up(self) -> None:
        self.calls.append(("warm", None))  # type: ignore[arg-type]


class NeverReady:
    """A preparation whose engines never become ready in time."""

    baseline = default_memory = None

    def __init__(self) -> None:
        self.prepared: list[str] = []

    def prepare(self, game: Any) -> None:
        self.prepared.append(game.name)

    def ready(self, game: Any) -> bool:
        return False

    def wait(self, game: Any, seconds: float, stop: Any) -> bool:
        return False


# -- parsing ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("START 15", Start(15, 15)),
        ("start 22", Start(22, 22)),
        ("RECTSTART 9,7", Start(9, 7)),
        ("RESTART", Restart()),
        ("BEGIN", Begin()),
        ("TURN 10,3", Turn(Point(10, 3))),
        ("TURN 10, 3", Turn(Point(10, 3))),
        ("  TURN 0,0\r", Turn(Point(0, 0))),
        ("BOARD", Board()),
        ("SWAP2BOARD", Swap2Board()),
        ("TAKEBACK 4,5", Takeback(Point(4, 5))),
        ("INFO timeout_turn 5000", Info("timeout_turn", "5000")),
        ("INFO TIMEOUT_TURN 5000", Info("timeout_turn", "5000")),
        ("INFO folder C:\\brains\\data dir", Info("folder", "C:\\brains\\data dir")),
        ("END", End()),
        ("ABOUT", About()),
        ("YXNBEST 3", Unknown("YXNBEST")),
        ("PLAY 3,3", Unknown("PLAY")),
    ],
)
def test_commands_parse_into_typed_values(line: str, command: object) -> None:
    assert parse_command(line) == command


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("START", "board size"),
        ("START fifteen", "board size"),
        ("RECTSTART 9", "WIDTH,HEIGHT"),
        ("TURN 3", "TURN expected X,Y"),
        ("TURN a,b", "TURN expected X,Y"),
        ("TURN 1,2,3", "TURN expected X,Y"),
        ("TAKEBACK", "TAKEBACK expected X,Y"),
        ("BEGIN 3,3", "takes no arguments"),
        ("INFO", "key and a value"),
    ],
)
def test_malformed_arguments_are_protocol_errors(line: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=words):
        parse_command(line)


def test_board_and_swap2_entries_parse_and_bad_ones_say_what_was_expected() -> None:
    assert parse_entry("10,11,2") == (Point(10, 11), OPPONENT)
    assert parse_entry(" 0 , 4 , 1 ") == (Point(0, 4), OWN)
    with pytest.raises(ProtocolError, match="X,Y,FIELD"):
        parse_entry("10,11")
    # Gomocup's swap2 lines are x,y; a field after them is read and not needed.
    assert parse_swap2_entry("7,8") == parse_swap2_entry("7,8,2") == Point(7, 8)
    with pytest.raises(ProtocolError, match=r"X,Y \(or X,Y,FIELD\)"):
        parse_swap2_entry("7")


# -- rules and games ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("bits", "rule", "unplayed"),
    [
        (0, "freestyle", ()),
        (1, "standard", ()),
        (4, "renju", ()),
        (5, "renju", ()),
        (2, "freestyle", ("continuous",)),
        (3, "standard", ("continuous",)),
        (8, "standard", ("caro",)),
        (10, "standard", ("continuous", "caro")),
        (16, "freestyle", ("unknown rule bits 16",)),
    ],
)
def test_rule_bits_choose_the_nearest_rule_played(
    bits: int, rule: str, unplayed: tuple[str, ...]
) -> None:
    choice = rule_choice(bits)
    assert choice.rule == rule
    assert len(choice.unplayed) == len(unplayed)
    assert all(word in text for word, text in zip(unplayed, choice.unplayed, strict=True))
    assert isinstance(choice, RuleChoice)


@pytest.mark.parametrize(
    ("size", "rule", "name", "note"),
    [
        ((15, 15), "freestyle", "gomoku:freestyle,15", None),
        ((22, 22), "renju", "gomoku:renju,22", None),
        ((20, 20), "standard", "gomoku:standard,20", None),
        ((9, 9), "freestyle", "mnk:9,9,5", None),
        ((9, 9), "renju", "mnk:9,9,5", "renju is played on square boards of 15 to 22"),
        ((20, 15), "standard", "mnk:15,20,5", "this 20x15 board is played freestyle"),
    ],
)
def test_each_board_and_rule_has_its_game(
    size: tuple[int, int], rule: str, name: str, note: str | None
) -> None:
    found, said = game_name(*size, rule)
    assert found == name
    assert (said is None) if note is None else (said is not None and note in said)
    api.get_game(found)  # it exists


# -- START, ABOUT, END, unknown commands -------------------------------------------


@pytest.mark.parametrize(
    ("lines", "game"),
    [
        (["START 5"], "mnk:5,5,5"),
        (["START 15"], "gomoku"),
        (["START 15", "INFO rule 1"], "gomoku:standard,15"),
        (["INFO rule 4", "START 15"], "renju"),
        (["START 21", "INFO rule 4"], "gomoku:renju,21"),
        (["RECTSTART 20,15", "INFO rule 4"], "mnk:15,20,5"),
    ],
)
def test_start_and_the_rule_set_up_the_game(lines: list[str], game: str) -> None:
    brain = Brain()
    assert feed(brain, *lines) == ["OK"]
    assert brain.game is api.get_game(game)


def test_start_takes_boards_5_to_22_and_refuses_others() -> None:
    brain = Brain()
    assert feed(brain, "START 22") == ["OK"]
    for size in (4, 23, 0, -3):
        [answer] = feed(brain, f"START {size}")
        assert answer.startswith("ERROR unsupported board") and "5 to 22" in answer
    assert brain.width == 22  # a refused START leaves the board as it was


def test_rectangular_boards_are_columns_by_rows() -> None:
    brain = Brain(choose=playing("a1"))
    assert feed(brain, "RECTSTART 6,9") == ["OK"]
    assert brain.game is api.get_game("mnk:9,6,5")
    # a1 is the bottom-left point: x 0, y 8 on a board 9 rows high.
    assert feed(brain, "TURN 5,0")[-1] == "0,8"
    assert feed(brain, "RECTSTART 6,23")[0].startswith("ERROR unsupported board 6x23")


def test_about_answers_name_version_author_country_and_www() -> None:
    [about] = feed(Brain(), "ABOUT")
    assert re.fullmatch(r'\w+="[^"]*"(, \w+="[^"]*")*', about)
    pairs = dict(re.findall(r'(\w+)="([^"]*)"', about))
    assert list(pairs) == ["name", "version", "author", "country", "www"]
    assert pairs["name"] == "unbeatable" and pairs["version"] == __version__
    assert pairs["author"] and pairs["country"]


def test_unknown_commands_are_answered_unknown_and_the_brain_goes_on() -> None:
    brain = Brain()
    [answer] = feed(brain, "YXSHOWFORBID")
    assert answer.startswith("UNKNOWN") and "YXSHOWFORBID" in answer
    assert feed(brain, "", "   ") == []  # empty lines are ignored
    assert feed(brain, "START 7") == ["OK"]


def test_end_finishes_without_answering() -> None:
    brain = Brain()
    assert feed(brain, "START 7", "END") == ["OK"]
    assert brain.finished


def test_commands_before_start_are_errors() -> None:
    brain = Brain(choose=never)
    for line in ("BEGIN", "TURN 1,1", "RESTART", "TAKEBACK 1,1"):
        [answer] = feed(brain, line)
        assert answer.startswith("ERROR") and "before START" in answer
    assert feed(brain, *board_lines(("1....",)))[0].startswith("ERROR BOARD before START")
    assert feed(brain, "SWAP2BOARD", "DONE")[0].startswith("ERROR SWAP2BOARD before START")


# -- a whole conversation ----------------------------------------------------------------


def test_a_manager_s_conversation_with_every_command() -> None:
    """Line by line as piskvork talks: each answer exactly as the protocol
    wants it (MESSAGE lines before a move, none for INFO and END)."""
    brain = Brain(choose=playing("g8", "h9", "f8", "e8"))
    script = [
        ("ABOUT", lambda out: len(out) == 1 and out[0].startswith('name="unbeatable"')),
        ("START 15", lambda out: out == ["OK"]),
        ("INFO timeout_turn 1000", lambda out: out == []),
        ("INFO timeout_match 90000", lambda out: out == []),
        ("INFO time_left 90000", lambda out: out == []),
        ("INFO max_memory 0", lambda out: out == []),
        ("INFO game_type 1", lambda out: out == []),
        ("INFO rule 1", lambda out: out == []),
        ("INFO folder /tmp", lambda out: out == []),
        ("BEGIN", lambda out: out[-1] == "7,7" and out[0].startswith("MESSAGE")),
        ("TURN 8,8", lambda out: out[-1] == "6,7"),  # g8
        ("TAKEBACK 6,7", lambda out: out == ["OK"]),
        ("TAKEBACK 8,8", lambda out: out == ["OK"]),
        ("TURN 8,8", lambda out: out[-1] == "6,7"),
        ("RESTART", lambda out: out == ["OK"]),
        ("BOARD", lambda out: out == []),
        ("7,7,2", lambda out: out == []),
        ("DONE", lambda out: out[-1] == "6,7"),
        ("RECTSTART 9,7", lambda out: out == ["OK"]),
        ("END", lambda out: out == []),
    ]
    for line, expected in script:
        answer = feed(brain, line)
        assert expected(answer), (line, answer)
    assert brain.finished


# -- moves and coordinates -------------------------------------------------------------


def test_the_first_move_is_the_centre_at_once() -> None:
    brain = Brain(choose=never)
    assert feed(brain, "START 15") == ["OK"]
    message, move = feed(brain, "BEGIN")
    assert move == "7,7"
    assert message.startswith("MESSAGE ") and "centre" in message
    assert brain.stones == {Point(7, 7): OWN}


def test_a_turn_places_the_opponent_at_column_x_row_y_from_the_top() -> None:
    spy = Spy()
    brain = Brain(choose=spy)
    feed(brain, "START 7", "INFO timeout_turn 200")
    answer = feed(brain, "TURN 0,0")[-1]
    # The search saw the opponent's stone (x: it moved first) in the top-left
    # corner, with us (o) to move; our answer is on the board as ours.
    assert spy.positions == ["x....../......./......./......./......./......./....... o"]
    point = point_of(answer)
    assert point != Point(0, 0) and brain.stones == {Point(0, 0): OPPONENT, point: OWN}


@pytest.mark.parametrize(
    ("move", "point"), [("a1", "0,6"), ("a7", "0,0"), ("g1", "6,6"), ("b6", "1,1"), ("e3", "4,4")]
)
def test_the_librarys_moves_become_gomocup_points(move: str, point: str) -> None:
    brain = Brain(choose=playing(move))
    feed(brain, "START 7")
    assert feed(brain, "TURN 3,3")[-1] == point


def test_the_only_empty_point_is_the_answer_and_the_message_says_proven() -> None:
    brain = Brain()
    feed(brain, "START 5", "INFO timeout_turn 1000")
    message, move = feed(brain, *board_lines(NEARLY_FULL))
    assert move == "3,3"
    assert message.startswith("MESSAGE draw in 1 ply (proven)")
    assert message.endswith("pv 3,3")


def test_a_board_with_mixed_stones_in_any_order_decides_who_we_are() -> None:
    spy = Spy()
    brain = Brain(choose=spy)
    feed(brain, "START 7", "INFO timeout_turn 200")
    # Opponent 3 stones, ours 2: the opponent moved first, we play o.
    lines = ["BOARD", "4,4,2", "3,3,1", "0,6,2", "3,4,1", "2,2,2", "DONE"]
    answer = feed(brain, *lines)[-1]
    assert spy.positions == ["......./......./..x..../...o.../...ox../......./x...... o"]
    point = point_of(answer)
    assert point not in {Point(4, 4), Point(3, 3), Point(0, 6), Point(3, 4), Point(2, 2)}
    assert brain.stones[point] == OWN and len(brain.stones) == 6
    # A new BOARD replaces the old one entirely.
    feed(brain, "BOARD", "1,1,1", "5,5,2", "DONE")
    assert Point(4, 4) not in brain.stones and len(brain.stones) == 3


@pytest.mark.parametrize(
    ("rows", "seen", "block"),
    [
        # Three of ours, none of theirs: we are black (x) and move all the same.
        (("111....",), "xxx..../......./......./......./......./......./....... x", None),
        # Four of theirs: they are black, we are white (o), as tournament
        # engines read it; the only point that stops their four is 4,0.
        (("2222...",), "xxxx.../......./......./......./......./......./....... o", "4,0"),
    ],
)
def test_stone_counts_play_cannot_reach_are_played_on(
    rows: tuple[str, ...], seen: str, block: str | None
) -> None:
    spy = Spy()
    brain = Brain(choose=spy)
    feed(brain, "START 7", "INFO timeout_turn 200")
    answer = feed(brain, *board_lines(rows))
    assert spy.positions == [seen]
    assert block is None or answer[-1] == block
    assert brain.stones[point_of(answer[-1])] == OWN


def test_field_3_marks_are_no_ones_stones_and_never_played_on() -> None:
    """A continuous game's finished five (field 3) reads as empty, as Rapfi
    reads it; a search that picks a marked point is asked again with it
    blocked, and the answer is never a mark."""
    calls: list[str] = []

    def on_the_mark_first(rules: Any, pos: Any, level: str, **options: Any) -> MoveValue:
        calls.append(rules.format(pos))
        move = "a7" if len(calls) == 1 else "d4"  # a7 is 0,0: marked
        return move_value(rules, pos, rules.parse_move(pos, move), UNKNOWN)

    brain = Brain(choose=on_the_mark_first)
    feed(brain, "START 7")
    answer = feed(brain, *board_lines(("33333..", "1......", ".2.....")))
    assert answer[-1] == "3,3" and len(calls) == 2
    assert calls[0].startswith("......./x......")  # the marks are not stones
    assert calls[1].startswith("o......")  # the second search: the mark blocked
    assert brain.marked == {Point(x, 0) for x in range(5)}
    assert feed(brain, "TURN 1,0") == ["ERROR TURN 1,0: that point is taken"]


def test_takeback_removes_stones() -> None:
    brain = Brain(choose=playing("a1"))
    feed(brain, "START 7", "BEGIN")
    assert feed(brain, "TURN 2,2")[-1] == "0,6"
    assert feed(brain, "TAKEBACK 0,6") == ["OK"]
    assert feed(brain, "TAKEBACK 2,2") == ["OK"]
    assert brain.stones == {Point(3, 3): OWN}
    [error] = feed(brain, "TAKEBACK 2,2")
    assert error == "ERROR TAKEBACK 2,2: there is no stone there"
    assert feed(brain, "TURN 2,2")[-1] == "0,6"  # the point is free again


def test_restart_empties_the_board_and_keeps_the_settings() -> None:
    brain = Brain(choose=never)
    feed(brain, "START 9", "INFO timeout_turn 700", "INFO rule 1", "BEGIN")
    assert feed(brain, "RESTART") == ["OK"]
    assert brain.stones == {} and brain.settings.timeout_turn == 700 and brain.width == 9
    assert brain.settings.rule == 1
    assert feed(brain, "BEGIN")[-1] == "4,4"


# -- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "lines", "error"),
    [
        ([], ["TURN 7,0"], "ERROR TURN 7,0: off the 7x7 board (x 0-6, y 0-6)"),
        ([], ["TURN 0,-1"], "ERROR TURN 0,-1: off the 7x7 board (x 0-6, y 0-6)"),
        (["BEGIN"], ["TURN 3,3"], "ERROR TURN 3,3: that point is taken"),
        (["BEGIN"], ["TAKEBACK 1,1"], "ERROR TAKEBACK 1,1: there is no stone there"),
        (["BEGIN"], ["BOARD", "1,1,1", "1,1,2", "DONE"], "ERROR BOARD 1,1: listed twice"),
        (["BEGIN"], ["BOARD", "1,1,4", "DONE"], "ERROR BOARD 1,1,4: the field must be 1 (own)"),
        (["BEGIN"], ["BOARD", "9,1,1", "DONE"], "ERROR BOARD 9,1: off the 7x7 board"),
        (["BEGIN"], ["BOARD", "1,1", "DONE"], "ERROR expected X,Y,FIELD (three whole numbers)"),
    ],
)
def test_bad_moves_and_boards_are_errors_that_change_nothing(
    setup: list[str], lines: list[str], error: str
) -> None:
    brain = Brain(choose=playing("a1"))
    feed(brain, "START 7", *setup)
    before = dict(brain.stones)
    [answer] = feed(brain, *lines)
    assert answer.startswith(error)
    assert brain.stones == before


def test_a_finished_game_is_no_place_for_a_move() -> None:
    brain = Brain(choose=never)
    feed(brain, "START 7")
    five = ["BOARD", *(f"{x},0,2" for x in range(5)), *(f"{x},1,1" for x in range(4)), "DONE"]
    assert feed(brain, *five) == ["ERROR the game is over: the opponent has five in a row"]
    # The same five with counts play cannot reach: still over.
    [answer] = feed(brain, "BOARD", *(f"{x},0,2" for x in range(5)), "DONE")
    assert answer.startswith("ERROR the game is over") and "already has a line" in answer
    # The nearly full board with its last point the opponent's: we would
    # move (we have one stone fewer), but there is nowhere to.
    full = tuple(row.replace(".", "2") for row in NEARLY_FULL)
    assert feed(brain, "START 5", *board_lines(full)) == [
        "OK",
        "ERROR the game is over: the board is full",
    ]


# -- rules from INFO, said once, and malformed INFO ------------------------------------------


@pytest.mark.parametrize(
    ("rule", "game"),
    [
        (0, "gomoku"),
        (1, "gomoku:standard,15"),
        (4, "renju"),
        (2, "gomoku"),
        (8, "gomoku:standard,15"),
    ],
)
def test_every_rule_is_played_and_the_search_is_asked_in_its_game(rule: int, game: str) -> None:
    spy = Spy()
    brain = Brain(choose=spy)
    feed(brain, "START 15", "INFO timeout_turn 100", f"INFO rule {rule}")
    answer = feed(brain, "TURN 7,7")
    point_of(answer[-1])  # a move, whatever the rule
    assert spy.games == [api.get_game(game)]


def test_a_rule_not_played_is_said_once_and_every_move_is_played() -> None:
    brain = Brain(choose=playing("a1", "b1", "c1"))
    feed(brain, "START 15", "INFO rule 2")
    first = feed(brain, "TURN 7,7")
    said = messages(first)
    assert any(text.startswith("rule 2: continuous games") for text in said)
    again = feed(brain, "TURN 8,8")
    assert not any(text.startswith("rule 2") for text in messages(again))
    assert point_of(first[-1]) != point_of(again[-1])
    # A change of rule mid-game is read at the next move, and said once too.
    feed(brain, "INFO rule 8")
    caro = feed(brain, "TURN 9,9")
    assert any("caro" in text for text in messages(caro)) and point_of(caro[-1])


def test_standard_and_renju_on_other_boards_are_played_freestyle_and_said() -> None:
    spy = Spy()
    brain = Brain(choose=spy)
    feed(brain, "START 9", "INFO timeout_turn 100", "INFO rule 4")
    answer = feed(brain, "TURN 4,4")
    assert any("renju is played on square boards of 15 to 22" in t for t in messages(answer))
    assert spy.games == [api.get_game("mnk:9,9,5")]


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("INFO timeout_turn 1e3", "timeout_turn"),
        ("INFO rule abc", "rule"),
        ("INFO max_memory -1", "max_memory"),
        ("INFO thread_num 0", "thread_num"),
        ("INFO timeout_match", "timeout_match"),
    ],
)
def test_a_malformed_info_is_reported_and_costs_nothing(line: str, key: str) -> None:
    brain = Brain(choose=playing("a1", "b1"))
    feed(brain, "START 7", "INFO timeout_turn 300", "INFO rule 0")
    before = Settings(**vars(brain.settings))
    assert feed(brain, line) == []  # managers read no answer to INFO
    answer = feed(brain, "TURN 3,3")
    assert answer[-1] == "0,6"  # the move is played all the same
    [said] = [text for text in messages(answer) if text.startswith("INFO")]
    assert said.startswith(f"INFO {key} ") and "ignored" in said
    assert brain.settings == before  # the bad value was not taken
    assert not any(t.startswith("INFO") for t in messages(feed(brain, "TURN 4,4")))


def test_info_keys_in_any_case_set_the_settings_and_unknown_keys_are_ignored() -> None:
    brain = Brain()
    lines = [
        "INFO TIMEOUT_TURN 5000",
        "INFO timeout_match 180000",
        "INFO time_left -20",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO Rule 4",
        "INFO folder /tmp/x",
        "INFO evaluate 3,4",
        "INFO thread_num 4",
    ]
    assert feed(brain, *lines) == []
    assert brain.settings == Settings(
        timeout_turn=5000,
        timeout_match=180000,
        time_left=-20,
        max_memory=83886080,
        rule=4,
        game_type=1,
        thread_num=4,
    )


# -- memory and threads --------------------------------------------------------------------


def test_max_memory_and_thread_num_configure_the_engine_once_per_change() -> None:
    engine = Configurable()
    brain = Brain(choose=playing("a1", "b1", "c1", "d1"), engines=lambda game: engine)
    feed(brain, "START 15", "INFO max_memory 83886080", "INFO thread_num 1")
    first = feed(brain, "TURN 7,7")
    footprint = brain.footprint()
    assert engine.calls == [(max(0, 83886080 - footprint), 1)]
    said = " ".join(messages(first))
    assert "max_memory 80.0 MiB" in said and "1 search thread" in said
    feed(brain, "TURN 8,8")
    assert len(engine.calls) == 1  # unchanged: the table keeps its contents
    more = footprint + (256 << 20)  # above what the process holds, however much that is
    feed(brain, f"INFO max_memory {more}", "TURN 9,9")
    assert engine.calls[-1] == (256 << 20, 1)
    assert brain.footprint() == footprint  # read once


def test_max_memory_sizes_the_real_engines_table_within_the_limit() -> None:
    game = api.get_game("gomoku")
    engine = api.engine(game)
    default = engine.memory_use()
    brain = Brain()
    feed(brain, "START 15", "INFO timeout_turn 100", "INFO max_memory 83886080")
    try:
        feed(brain, "TURN 7,7")
        room = max(0, 83886080 - brain.footprint())
        # The table takes what the limit leaves, down to the engine's least
        # (a 2 MiB table beside about 5 MiB of pattern tables and working arrays,
        # each search thread's correction tables among them).
        assert engine.memory_use() <= max(room, 15 << 19)
        assert engine.memory_use() < default
    finally:
        engine.configure(memory=default)


def test_the_preparation_readies_engines_and_measures_the_footprint() -> None:
    engine = Configurable()
    preparation = Preparation(engines=lambda game: engine).start(["gomoku"])
    game = api.get_game("gomoku")
    assert preparation.wait(game, 30, None)
    # The smallest table while the process is measured, then the default back.
    assert engine.calls == [(0, None), ("warm", None), (5 << 20, None)]
    assert preparation.default_memory == 5 << 20
    assert preparation.baseline is None or preparation.baseline > 0
    other = api.get_game("mnk:9,9,5")
    assert not preparation.ready(other)
    preparation.prepare(other)
    assert preparation.wait(other, 30, None)
    assert engine.calls[-1] == ("warm", None)  # measured once


def test_the_rehearsals_reach_the_searches_the_warm_up_does_not() -> None:
    """For each side to move: an open three of its own (it can make an open
    four), and the other side's four to block; none on small boards."""
    game = api.get_game("gomoku")
    found = brain_module.rehearsals(game, 15, 15)
    assert [game.to_move(p) for p in found] == ["x", "x", "o", "o"]
    for position in found[1::2]:  # the block of the four is forced
        blocks = game.winning_moves(position, "o" if game.to_move(position) == "x" else "x")
        assert len(blocks) == 1
    assert brain_module.rehearsals(api.get_game("mnk:7,7,5"), 7, 7) == []


def test_a_move_asked_before_the_engine_is_ready_is_a_quick_move_that_blocks() -> None:
    preparation = NeverReady()
    brain = Brain(choose=never, preparation=preparation)  # type: ignore[arg-type]
    assert feed(brain, "START 15", "INFO rule 4") == ["OK"]
    assert preparation.prepared[-1] == "renju"  # readied as soon as it is known
    # The opponent (black) has four in a row on the top line: block it at e15.
    answer = feed(brain, *board_lines(("2222...........", "1.1.1..........")))
    assert answer[-1] == "4,0"
    assert "quick move" in messages(answer)[-1]


def test_the_quick_move_blocks_a_four_and_with_time_an_open_three() -> None:
    game = api.get_game("gomoku")
    four = api.play_move(game, "", "h8")
    for move in ("c3", "i8", "c13", "j8", "n2", "k8"):
        four = api.play_move(game, four, move)
    quick = api.quick_move(game, four)
    assert quick is not None and quick.move in ("g8", "l8")
    three = api.play_move(game, "", "h8")
    for move in ("c3", "i8", "c13", "j8"):
        three = api.play_move(game, three, move)
    read = api.quick_move(game, three, time_limit=1.0)
    assert read is not None and read.move in ("g8", "k8")


# -- swap2 -----------------------------------------------------------------------------------


def test_swap2_opening_three_stones() -> None:
    brain = Brain()
    feed(brain, "START 15", "INFO timeout_turn 300")
    answer = feed(brain, "SWAP2BOARD", "DONE")
    assert answer[0].startswith("MESSAGE swap2: three stones")
    points = [point_of(text) for text in answer[-1].split(" ")]
    assert len(set(points)) == 3
    assert all(abs(p.x - 7) <= 2 and abs(p.y - 7) <= 2 for p in points)
    # We placed them as the first player: the black stones are ours for now.
    assert [brain.stones[p] for p in points] == [OWN, OPPONENT, OWN]


@pytest.mark.parametrize(
    ("stones", "answers"),
    [
        # Three stones: SWAP, one stone (we stay white) or two (the choice goes back).
        (["7,7", "0,0", "8,7"], {"SWAP", 1, 2}),
        # Five stones: SWAP (we take black) or white's sixth stone.
        (["7,7", "8,8", "9,9", "8,7", "6,9,1"], {"SWAP", 1}),
    ],
)
def test_swap2_choices_are_the_protocols(stones: list[str], answers: set[Any]) -> None:
    brain = Brain()
    feed(brain, "START 15", "INFO timeout_turn 300")
    answer = feed(brain, "SWAP2BOARD", *stones, "DONE")
    assert answer[0].startswith("MESSAGE swap2:")
    last = answer[-1]
    kind: Any = "SWAP" if last == "SWAP" else len(last.split(" "))
    assert kind in answers
    taken = {parse_swap2_entry(s) for s in stones}
    if last != "SWAP":
        placed = [point_of(text) for text in last.split(" ")]
        assert not taken & set(placed)
    assert len(brain.stones) == len(stones) + (0 if last == "SWAP" else len(last.split(" ")))


def test_swap2_takes_black_when_black_is_clearly_ahead() -> None:
    # Black has an open three in the centre; white's single stone is in a corner.
    spy = Spy()
    brain = Brain(choose=spy)
    feed(brain, "START 15", "INFO timeout_turn 300")
    answer = feed(brain, "SWAP2BOARD", "6,7", "0,0", "7,7", "DONE")
    assert answer[-1] == "SWAP"
    assert {stone for stone, field in brain.stones.items() if field == OWN} == {
        Point(6, 7),
        Point(7, 7),
    }


def test_swap2_lists_of_other_lengths_are_errors() -> None:
    brain = Brain(choose=never)
    feed(brain, "START 15")
    [answer] = feed(brain, "SWAP2BOARD", "7,7", "8,7", "DONE")
    assert answer.startswith("ERROR SWAP2BOARD lists 2 stones: expected 0, 3 or 5")
    assert feed(brain, "ABOUT")[0].startswith("name=")  # out of the block again


def test_end_inside_a_board_block_finishes() -> None:
    brain = Brain(choose=never)
    feed(brain, "START 7", "BOARD", "1,1,1")
    assert feed(brain, "END") == [] and brain.finished


# -- time -------------------------------------------------------------------------------------


def test_move_budget_keeps_within_the_turn_and_the_match() -> None:
    default = 1.0
    # Nothing said: the game's own budget, less the margin.
    assert 0.5 < move_budget(Settings(), 200, 0.0, default) < default
    # The turn limit, less the margin.
    assert 4 < move_budget(Settings(timeout_turn=5000), 200, 0.0, default) < 5
    # Zero: as fast as possible.
    assert move_budget(Settings(timeout_turn=0), 200, 0.0, default) == FASTEST
    # The match clock: a share of what is left, never more than the turn.
    clocked = Settings(timeout_turn=30_000, time_left=60_000)
    assert 1 < move_budget(clocked, 200, 0.0, default) < 3
    assert move_budget(clocked, 4, 0.0, default) < 30  # near the end the share grows
    assert move_budget(clocked, 4, 0.0, default) > move_budget(clocked, 200, 0.0, default)
    unlimited = Settings(timeout_turn=5000, time_left=brain_module.UNLIMITED_MS)
    assert move_budget(unlimited, 200, 0.0, default) == move_budget(
        Settings(timeout_turn=5000), 200, 0.0, default
    )
    # Without time_left, the match limit less what was spent.
    match = Settings(timeout_turn=30_000, timeout_match=100_000)
    assert move_budget(match, 200, 90.0, default) < move_budget(match, 200, 0.0, default) < 6
    # Out of time: the fastest answer, never nothing.
    assert move_budget(Settings(time_left=-500), 200, 0.0, default) == FASTEST


def test_the_search_gets_the_turns_share_less_the_margin() -> None:
    # Our moves are fixed, far from the opponent's: a searched move could
    # take a point the next TURN names, which the brain refuses unsearched.
    spy = Spy(playing("a1", "b1", "c1"))
    brain = Brain(choose=spy)
    feed(brain, "START 7", "INFO timeout_turn 400", "TURN 3,3")
    feed(brain, "INFO time_left 4000", "TURN 3,5")
    feed(brain, "INFO timeout_turn 0", "INFO time_left 2147483647", "TURN 5,5")
    first, shared, fastest = spy.limits
    assert 0 < first < 0.4
    assert 0 < shared < 4.0 / 20
    assert fastest == FASTEST


# -- serving lines -------------------------------------------------------------------------


def served(text: str, brain: Brain | None = None) -> list[str]:
    out = io.StringIO()
    assert serve(io.BytesIO(text.encode()), out, brain) == 0
    return out.getvalue().splitlines()


def test_serve_answers_line_by_line_and_stops_at_the_end_of_input() -> None:
    lines = served("START 5\r\nINFO timeout_turn 500\r\n" + "\r\n".join(board_lines(NEARLY_FULL)))
    assert lines[0] == "OK" and lines[-1] == "3,3" and lines[1].startswith("MESSAGE")


def test_serve_stops_at_end_and_reads_no_further() -> None:
    lines = served("ABOUT\nEND\nABOUT\n")
    assert len(lines) == 1 and lines[0].startswith("name=")


def test_a_bug_is_one_error_line_and_the_brain_goes_on() -> None:
    def broken(*args: Any, **options: Any) -> None:
        raise RuntimeError("boom")

    lines = served("START 7\nTURN 3,3\nABOUT\n", Brain(choose=broken))
    assert lines == ["OK", "ERROR internal error (RuntimeError: boom)", lines[2]]
    assert lines[2].startswith("name=")


def test_end_during_a_search_stops_it_and_nothing_more_is_written() -> None:
    searching, stopped = threading.Event(), threading.Event()

    def patient(rules: Any, pos: Any, level: str, **options: Any) -> MoveValue | None:
        searching.set()
        if options["stop"].wait(30):
            stopped.set()
        return api.choose_move(rules, pos, level, **options)

    read_end, write_end = os.pipe()
    out = io.StringIO()
    with os.fdopen(read_end, "rb") as stdin, os.fdopen(write_end, "wb") as manager:
        server = threading.Thread(target=serve, args=(stdin, out, Brain(choose=patient)))
        server.start()
        manager.write(b"START 7\nTURN 3,3\n")
        manager.flush()
        assert searching.wait(30)
        manager.write(b"END\nABOUT\n")
        manager.flush()
        server.join(30)
        assert not server.is_alive()
    assert stopped.is_set() and out.getvalue() == "OK\n"


def test_end_waiting_behind_a_move_means_no_search_at_all() -> None:
    assert served("START 7\nTURN 3,3\nEND\nABOUT\n", Brain(choose=never)) == ["OK"]


def test_bytes_that_are_not_utf8_are_an_unknown_command() -> None:
    out = io.StringIO()
    assert serve(io.BytesIO(b"\xff\xfe\nABOUT\n"), out) == 0
    unknown, about = out.getvalue().splitlines()
    assert unknown.startswith("UNKNOWN") and about.startswith("name=")


def test_prepare_readies_every_engine_it_plays_with() -> None:
    out = io.StringIO()
    assert brain_module.prepare(out) == 0
    names = [line.rsplit(": ready in ", 1)[0] for line in out.getvalue().splitlines()]
    assert names == list(brain_module.PREPARED)


# -- the real thing: child processes ----------------------------------------------------------


def pbrain() -> str:
    """The installed console script beside this Python."""
    path = Path(sys.executable).with_name("pbrain-unbeatable")
    assert path.exists(), f"{path} is missing: install the package (pip install -e .)"
    return str(path)


ENTRY_POINTS = {
    "pbrain-unbeatable": lambda: [pbrain()],
    "unbeatable brain": lambda: [sys.executable, "-m", "unbeatable", "brain"],
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_both_entry_points_speak_the_protocol_and_exit_cleanly(entry: str) -> None:
    # A turn long enough for the engine to be ready (loaded while it waits).
    script = "\n".join(
        ["ABOUT", "START 5", "INFO timeout_turn 20000", *board_lines(NEARLY_FULL), "FOO", "END", ""]
    )
    done = subprocess.run(
        ENTRY_POINTS[entry](), input=script, capture_output=True, text=True, timeout=60, check=False
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and done.stderr == ""
    assert lines[0].startswith('name="unbeatable"') and lines[1] == "OK"
    assert lines[2].startswith("MESSAGE draw in 1 ply") and lines[3] == "3,3"
    assert lines[4].startswith("UNKNOWN") and len(lines) == 5


def test_a_wrong_argument_is_a_usage_line_and_exit_2() -> None:
    done = subprocess.run(
        [pbrain(), "--bogus"], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout, done.stderr.strip()) == (
        2,
        "",
        "usage: pbrain-unbeatable [--prepare]",
    )


def test_the_end_of_input_ends_the_process_cleanly() -> None:
    done = subprocess.run(
        [pbrain()],
        input="START 7\nBEGIN\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout.splitlines()[-1], done.stderr) == (0, "3,3", "")


@pytest.fixture
def client() -> Iterator[Any]:
    engine = pygomo.EngineClient(pbrain())
    engine.connect()
    try:
        yield engine
    finally:
        engine.quit()


def test_a_real_client_drives_the_brain(client: Any) -> None:
    assert client.start(board_size=7)
    assert 'name="unbeatable"' in client.about()
    client.set_time(turn_time_ms=300, match_time_ms=60_000, time_left_ms=60_000)
    client.set_rule(0)
    opening = client.begin()
    assert opening.move.to_tuple() == (3, 3)
    taken = {(3, 3)}
    reply = client.turn((0, 0), timeout=30)
    taken.add((0, 0))
    move = reply.move.to_tuple()
    assert move not in taken and all(0 <= c < 7 for c in move)
    # The MESSAGE line reads as search information: the move leads its line.
    assert reply.search_info is not None and reply.search_info.pv[0].to_tuple() == move
    assert client.takeback(pygomo.Move(move)) and client.takeback(pygomo.Move((0, 0)))
    assert client.restart()
    position = pygomo.BoardPosition()
    for y, row in enumerate(NEARLY_FULL):
        for x, field in enumerate(row):
            if field != ".":
                position.add_move(pygomo.Move((x, y)), int(field))
    client.start(board_size=5)
    answer = client.board(position)
    assert answer.move.to_tuple() == (3, 3)
    assert answer.search_info.eval.raw_value == "0"  # a proven draw


def test_a_real_client_plays_renju_and_a_malformed_info_costs_nothing(client: Any) -> None:
    assert client.start(board_size=15)
    client.set_rule(4)
    client.set_memory(83886080)
    client.set_threads(1)
    client.send_raw("INFO timeout_turn 1e3")
    client.set_time(turn_time_ms=500)
    reply = client.turn((7, 7), timeout=30)
    assert reply is not None and reply.move.to_tuple() != (7, 7)


def five_in_a_row(stones: set[tuple[int, int]]) -> bool:
    """The referee: whether ``stones`` hold five in a row in any direction."""
    for x, y in stones:
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if all((x + i * dx, y + i * dy) in stones for i in range(5)):
                return True
    return False


def test_two_brains_play_a_whole_game() -> None:
    size = 7
    players = [pygomo.EngineClient(pbrain()), pygomo.EngineClient(pbrain())]
    try:
        for player in players:
            assert player.start(board_size=size)
            player.set_time(turn_time_ms=200)
        stones: list[set[tuple[int, int]]] = [set(), set()]
        result = players[0].begin()
        moves = []
        while True:
            mover = len(moves) % 2
            move = result.move.to_tuple()
            assert all(0 <= c < size for c in move), move
            assert move not in stones[0] | stones[1], f"{move} is taken"
            stones[mover].add(move)
            moves.append(move)
            if five_in_a_row(stones[mover]) or len(moves) == size * size:
                break
            result = players[1 - mover].turn(move, timeout=30)
            assert result is not None, f"no answer after {moves}"
    finally:
        for player in players:
            player.quit()


# -- the face's place -------------------------------------------------------------------------


def test_the_brain_module_stays_out_of_the_library() -> None:
    """The protocol is a face: nothing in the library imports it."""
    src = Path(brain_module.__file__).parent
    for path in src.rglob("*.py"):
        if path.parent.name != "cli" and path.name != "brain.py":
            text = path.read_text(encoding="utf-8")
            assert "unbeatable.brain" not in text and "cli.brain" not in text, path


def test_a_move_the_rules_refuse_is_never_played() -> None:
    """In renju black's forbidden points are no moves: were the search to
    choose one, the quick move (from the legal moves) is played instead."""

    def forbidden(rules: Any, pos: Any, level: str, **options: Any) -> MoveValue:
        return move_value(rules, pos, 7 * 15 + 7, UNKNOWN)  # h8, past parse_move's check

    brain = Brain(choose=forbidden)
    feed(brain, "START 15", "INFO rule 4", "INFO timeout_turn 200")
    # Black (ours): f8 g8 and h6 h7 make h8 a double three; white far away.
    rows = [["."] * 15 for _ in range(15)]
    for x, y in ((5, 7), (6, 7), (7, 9), (7, 8)):
        rows[y][x] = "1"
    for x, y in ((0, 0), (14, 0), (0, 14), (14, 14)):
        rows[y][x] = "2"
    answer = feed(brain, *board_lines(tuple("".join(row) for row in rows)))
    assert answer[-1] != "7,7"
    assert any("refused" in text and "double three" in text for text in messages(answer))
