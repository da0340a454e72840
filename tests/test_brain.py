"""The Gomocup brain: the protocol line by line, then the real thing.

Unit tests drive :class:`Brain` in-process (a wrapped or stubbed
``choose_move`` where the test is about the protocol, not the search);
then ``pbrain-unbeatable`` runs as a child process, driven by PyGomo's
engine client as any Gomoku engine would be, and two brains play a whole
game refereed here. Boards are small or nearly full, so that the generic
search answers fast.
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
from unbeatable.cli import brain as brain_module
from unbeatable.cli.brain import (
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
    ProtocolError,
    Restart,
    Settings,
    Start,
    Swap2Board,
    Takeback,
    Turn,
    Unknown,
    move_budget,
    parse_command,
    parse_entry,
    serve,
)
from unbeatable.search.analysis import MoveValue, move_value
from unbeatable.search.engine import UNKNOWN

#: A 5x5 board one stone from full, nobody with five and nobody able to make
#: one: ours (1) and the opponent's (2), rows from the top; the only empty
#: point is x=3, y=3 (d2 in the game's notation). Twelve stones each: we move.
NEARLY_FULL = ("11221", "22112", "11221", "221.2", "11221")


def board_lines(rows: tuple[str, ...]) -> list[str]:
    """``BOARD`` ... ``DONE`` for rows of 1, 2 and . (rows from the top)."""
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


class Spy:
    """``choose_move`` as the brain calls it, with each time limit noted."""

    def __init__(self) -> None:
        self.limits: list[float] = []
        self.positions: list[str] = []

    def __call__(self, rules: Any, pos: Any, level: str, **options: Any) -> MoveValue | None:
        self.limits.append(options["time_limit"])
        self.positions.append(rules.format(pos))
        return api.choose_move(rules, pos, level, **options)


def playing(move: str) -> Any:
    """A chooser that plays ``move`` (the game's notation), unproven."""

    def choose(rules: Any, pos: Any, level: str, **options: Any) -> MoveValue:
        return move_value(rules, pos, rules.parse_move(pos, move), UNKNOWN)

    return choose


def never(*args: Any, **options: Any) -> None:
    raise AssertionError("no search was expected")


# -- parsing ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("START 15", Start(15, 15)),
        ("start 20", Start(20, 20)),
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


def test_board_entries_parse_and_bad_ones_say_what_was_expected() -> None:
    assert parse_entry("10,11,2") == (Point(10, 11), OPPONENT)
    assert parse_entry(" 0 , 4 , 1 ") == (Point(0, 4), OWN)
    with pytest.raises(ProtocolError, match="X,Y,FIELD"):
        parse_entry("10,11")


# -- START, ABOUT, END, unknown commands -------------------------------------------


@pytest.mark.parametrize(("line", "game"), [("START 5", "mnk:5,5,5"), ("START 15", "gomoku")])
def test_start_sets_up_the_freestyle_game_of_that_board(line: str, game: str) -> None:
    brain = Brain()
    assert feed(brain, line) == ["OK"]
    assert brain.game is not None and brain.game.name == game


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
    assert brain.game is not None and brain.game.name == "mnk:9,6,5"
    # a1 is the bottom-left point: x 0, y 8 on a board 9 rows high.
    assert feed(brain, "TURN 5,0")[-1] == "0,8"
    assert feed(brain, "RECTSTART 6,23")[0].startswith("ERROR unsupported board 6x23")


def test_about_answers_keywords_with_quoted_values() -> None:
    [about] = feed(Brain(), "ABOUT")
    pairs = dict(re.findall(r'(\w+)="([^"]*)"', about))
    assert re.fullmatch(r'\w+="[^"]*"(, \w+="[^"]*")*', about)
    assert pairs["name"] == "unbeatable"
    assert pairs["version"] == __version__
    assert pairs["author"]


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
    feed(brain, "START 9", "INFO timeout_turn 700", "BEGIN")
    assert feed(brain, "RESTART") == ["OK"]
    assert brain.stones == {} and brain.settings.timeout_turn == 700 and brain.width == 9
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
        (["BEGIN"], ["BOARD", "0,0,1", "DONE"], "ERROR 1 own and 0 opponent stones"),
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


def test_impossible_stone_counts_are_refused() -> None:
    brain = Brain(choose=never)
    feed(brain, "START 7")
    [answer] = feed(brain, "BOARD", "1,1,1", "2,2,1", "DONE")
    assert answer.startswith("ERROR 2 own and 0 opponent stones with us to move cannot arise")


def test_a_finished_game_is_no_place_for_a_move() -> None:
    brain = Brain(choose=never)
    feed(brain, "START 7")
    five = ["BOARD", *(f"{x},0,2" for x in range(5)), *(f"{x},1,1" for x in range(4)), "DONE"]
    assert feed(brain, *five) == ["ERROR the game is over: the opponent has five in a row"]
    # The nearly full board with its last point the opponent's: we would
    # move (we have one stone fewer), but there is nowhere to.
    full = tuple(row.replace(".", "2") for row in NEARLY_FULL)
    assert feed(brain, "START 5", *board_lines(full)) == [
        "OK",
        "ERROR the game is over: the board is full",
    ]


def test_field_3_marks_belong_to_refused_rules() -> None:
    brain = Brain(choose=never)
    feed(brain, "START 7")
    [answer] = feed(brain, "BOARD", "1,1,3", "DONE")
    assert answer.startswith("ERROR BOARD 1,1,3: winning-line and forbidden marks")


@pytest.mark.parametrize(
    ("rule", "named"),
    [
        (1, "exactly five"),
        (2, "continuous game"),
        (4, "renju"),
        (8, "caro"),
        (5, "exactly five, renju"),
    ],
)
def test_rules_other_than_freestyle_are_refused_when_a_move_is_asked(rule: int, named: str) -> None:
    brain = Brain(choose=playing("a1"))
    assert feed(brain, "START 7", f"INFO rule {rule}") == ["OK"]  # INFO itself: no answer
    for lines in (["BEGIN"], ["TURN 1,1"], board_lines(("1",))):
        [answer] = feed(brain, *lines)
        assert answer == (
            f"ERROR rule {rule} ({named}) is not supported: this brain plays freestyle only "
            "(rule 0: five or more in a row wins)"
        )
    assert brain.stones == {}
    feed(brain, "INFO rule 0")
    assert feed(brain, "TURN 1,1")[-1] == "0,6"


def test_swap2_openings_are_refused_after_their_block() -> None:
    brain = Brain(choose=never)
    feed(brain, "START 15")
    assert feed(brain, "SWAP2BOARD", "7,7", "8,7", "9,9") == []
    [answer] = feed(brain, "DONE")
    assert answer.startswith("ERROR swap2 openings are not supported")
    assert feed(brain, "ABOUT")[0].startswith("name=")  # out of the block again


def test_end_inside_a_board_block_finishes() -> None:
    brain = Brain(choose=never)
    feed(brain, "START 7", "BOARD", "1,1,1")
    assert feed(brain, "END") == [] and brain.finished


# -- INFO and time -----------------------------------------------------------------------


def test_info_keys_in_any_case_set_the_settings_and_unknown_keys_are_ignored() -> None:
    brain = Brain()
    lines = [
        "INFO TIMEOUT_TURN 5000",
        "INFO timeout_match 180000",
        "INFO time_left -20",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO Rule 0",
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
        rule=0,
        game_type=1,
    )


def test_a_bad_info_value_is_reported_at_the_next_move_once() -> None:
    brain = Brain(choose=playing("a1"))
    feed(brain, "START 7")
    assert feed(brain, "INFO timeout_turn soon", "INFO max_memory -1") == []
    [answer] = feed(brain, "TURN 3,3")
    assert answer == "ERROR INFO max_memory: expected a whole number of at least 0, got '-1'"
    assert brain.stones == {} and brain.settings.timeout_turn is None
    assert feed(brain, "TURN 3,3")[-1] == "0,6"


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
    spy = Spy()
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
    script = "\n".join(
        ["ABOUT", "START 5", "INFO timeout_turn 500", *board_lines(NEARLY_FULL), "FOO", "END", ""]
    )
    done = subprocess.run(
        ENTRY_POINTS[entry](), input=script, capture_output=True, text=True, timeout=60, check=False
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and done.stderr == ""
    assert lines[0].startswith('name="unbeatable"') and lines[1] == "OK"
    assert lines[2].startswith("MESSAGE draw in 1 ply") and lines[3] == "3,3"
    assert lines[4].startswith("UNKNOWN") and len(lines) == 5


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
    reply = client.turn((0, 0))
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


def test_a_real_client_is_told_of_a_refused_rule(client: Any) -> None:
    assert client.start(board_size=15)
    client.set_rule(4)
    assert client.turn((7, 7), timeout=1) is None
    assert "renju" in client.router.get("error", timeout=5)


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
            result = players[1 - mover].turn(move)
            assert result is not None, f"no answer after {moves}"
    finally:
        for player in players:
            player.quit()


def test_the_brain_module_stays_out_of_the_library() -> None:
    """The protocol is a face: nothing in the library imports it."""
    src = Path(brain_module.__file__).parents[1]
    for path in src.rglob("*.py"):
        if path.parent.name != "cli":
            assert "cli.brain" not in path.read_text(encoding="utf-8"), path
