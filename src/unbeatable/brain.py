"""The Gomocup protocol: ``pbrain-unbeatable`` and ``unbeatable brain``.

Gomoku tournament managers (piskvork, the Gomocup judge, PyGomo) run an
engine as a child process and talk to it one line at a time on standard
input and output: ``START 15``, ``TURN 7,8``, ``BOARD`` ... ``DONE``, and the
engine answers ``OK`` or its move ``x,y``. This module is that protocol and
nothing else: :func:`parse_command` turns a line into a typed command,
:class:`Brain` keeps the board and the match settings and asks the library
for moves (:func:`unbeatable.api.choose_move`), :class:`Preparation` readies
the engines on a thread of its own from process start, and :func:`serve`
moves the lines. It is a face: it imports :mod:`unbeatable.api` and nothing
below it, and nothing in the library imports it.

What it plays: the rule ``INFO rule`` names, read as Gomocup's bits (1
exactly five, 2 continuous game, 4 renju, 8 caro), at any time, on square
boards of 5 to 22 (``START n``) and rectangles (``RECTSTART w,h``). Square
boards of 15 to 22 are the game ``gomoku:RULE,SIZE`` (freestyle, standard or
renju); every other board is ``mnk:ROWS,COLUMNS,5``, freestyle, the only
rule that exists there. What it does not play is said once in a ``MESSAGE``
and the nearest rule it plays is played instead (:func:`rule_choice`): a
manager that asks for a move always gets one.

Coordinates: Gomocup's ``x,y`` is the column from the left and the row from
the top, both from 0; the library's moves are read back into them with the
game's own :meth:`~unbeatable.games.Game.cell`.

Answers: ``ERROR <why>`` for a known command that cannot be carried out (a
failed command leaves the board as it was), ``UNKNOWN <why>`` for a command
this brain does not know, and before every move one ``MESSAGE`` line with
what the search found. Problems with ``INFO`` lines cost nothing: the value
is not taken, and the problem is said in a ``MESSAGE`` before the next
answer (managers do not read answers to ``INFO``).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple, TextIO

from unbeatable import __version__, api
from unbeatable.api import GameError, get_game

if TYPE_CHECKING:
    from unbeatable.api import Game, MoveValue

#: Stones in a row that win.
K = 5
#: Smallest board side: five in a row needs five cells.
MIN_SIDE = K
#: Largest board side a manager may ask for (Gomocup's and Rapfi's limit).
MAX_SIDE = 22
#: Square boards of these sides are the ``gomoku:RULE,SIZE`` family, where
#: standard and renju are played too; other boards are freestyle m,n,k-games.
GOMOKU_SIDES = range(15, MAX_SIDE + 1)
#: ``time_left`` when the match has no time limit (the protocol's value).
UNLIMITED_MS = 2_147_483_647
#: Seconds searched when told to play as fast as possible (``timeout_turn 0``)
#: or out of time: enough for the engine to take a win and block a four.
FASTEST = 0.05
#: Kept back from every move's allowance for reading, writing and Python's
#: own pauses: this many seconds plus this share of the allowance. The
#: answer comes before the search's budget ends (at 1 s a move, 0.1 s plus
#: 10% had the answers at a median 0.71-0.77 s, the slowest 0.77-0.80 s, by
#: the manager's clock on 12 balanced openings; benchmarks/README.md, "Time
#: kept back"), so little is needed.
MARGIN_SECONDS = 0.05
MARGIN_SHARE = 0.05
#: The match clock is shared as if this many of our moves were still to
#: come (fewer on a nearly full board): early moves get a fair share, and
#: since each share is a fraction of what is left, the clock never runs out.
PLANNED_MOVES = 20
#: Kept for answering when the engine is not ready yet: the wait for it ends
#: this many seconds, or this share of the move's time if more, before the
#: move's time does (and a shortest search's time before). numba's compiler,
#: on the preparation's thread, holds Python's lock for up to a few tenths
#: of a second at a time, and the answer waits for it.
QUICK_SECONDS = 0.1
QUICK_SHARE = 0.3
#: Share of the move's time the quick move may spend reading moves (see
#: :func:`unbeatable.api.quick_move`).
QUICK_READ = 0.25
#: Longest stretch of a bad line echoed back in an answer.
ECHO = 40
#: What the Python process holds before its engine's table, when it cannot
#: be read (no ``/proc``): the interpreter with numpy, numba and the
#: compiled kernels loaded (benchmarks/README.md, "Gomocup brain").
FOOTPRINT_ESTIMATE = 180 * 1024 * 1024
MIB = 1024 * 1024

#: Field values of a ``BOARD`` line: our stone, the opponent's, and a
#: continuous game's mark (the stones of a finished five, no one's any more).
OWN, OPPONENT, MARKED = 1, 2, 3
#: Bits of ``INFO rule`` (Gomocup's protocol); freestyle is none of them.
EXACTLY_FIVE, CONTINUOUS, RENJU, CARO = 1, 2, 4, 8
RULE_BITS = {
    EXACTLY_FIVE: "exactly five",
    CONTINUOUS: "continuous game",
    RENJU: "renju",
    CARO: "caro",
}

#: Who this brain is, for ``ABOUT``. The package names no homepage: ``www``
#: is the distribution's project URL when its metadata gives one.
NAME = "unbeatable"
AUTHOR = "The Unbeatable authors"
COUNTRY = "International"


class ProtocolError(Exception):
    """A known command that cannot be carried out; the message follows ``ERROR``."""


class Interrupted(Exception):
    """``END`` (or the end of input) arrived while a move was being searched."""


class Point(NamedTuple):
    """A point in Gomocup coordinates: column from the left, row from the top, from 0."""

    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.x},{self.y}"


# -- commands -----------------------------------------------------------------


class Start(NamedTuple):
    """``START n`` (a square board) or ``RECTSTART w,h``."""

    width: int
    height: int


class Restart(NamedTuple):
    """``RESTART``: a new match on the same board."""


class Begin(NamedTuple):
    """``BEGIN``: open the match on the empty board."""


class Turn(NamedTuple):
    """``TURN x,y``: the opponent's move; answer with ours."""

    point: Point


class Board(NamedTuple):
    """``BOARD``: a whole new position follows, one ``x,y,field`` a line, then ``DONE``."""


class Swap2Board(NamedTuple):
    """``SWAP2BOARD``: a swap2 opening; the stones so far follow (``x,y``, in
    the order played), then ``DONE``."""


class Takeback(NamedTuple):
    """``TAKEBACK x,y``: remove that stone."""

    point: Point


class Info(NamedTuple):
    """``INFO key value``, the key in lower case; the value is checked when used."""

    key: str
    value: str


class End(NamedTuple):
    """``END``: stop at once, answering nothing."""


class About(NamedTuple):
    """``ABOUT``: who this brain is."""


class Unknown(NamedTuple):
    """A command this brain does not know (answered ``UNKNOWN``)."""

    word: str


Command = (
    Start | Restart | Begin | Turn | Board | Swap2Board | Takeback | Info | End | About | Unknown
)

_BARE: dict[str, Callable[[], Command]] = {
    "RESTART": Restart,
    "BEGIN": Begin,
    "BOARD": Board,
    "SWAP2BOARD": Swap2Board,
    "END": End,
    "ABOUT": About,
}


def _echo(text: str) -> str:
    return text if len(text) <= ECHO else text[: ECHO - 3] + "..."


def _numbers(text: str, count: int, what: str) -> list[int]:
    """``count`` comma-separated whole numbers (spaces allowed around them)."""
    parts = [part.strip() for part in text.split(",")]
    try:
        if len(parts) != count:
            raise ValueError
        return [int(part) for part in parts]
    except ValueError:
        raise ProtocolError(f"expected {what}, got {_echo(text)!r}") from None


def parse_point(text: str) -> Point:
    """``"x,y"`` as a point; raises :class:`ProtocolError` unless two whole numbers."""
    x, y = _numbers(text, 2, "X,Y (two whole numbers)")
    return Point(x, y)


def parse_entry(line: str) -> tuple[Point, int]:
    """A ``BOARD`` line ``x,y,field`` as its point and field."""
    x, y, field = _numbers(line, 3, "X,Y,FIELD (three whole numbers) or DONE")
    return Point(x, y), field


def parse_swap2_entry(line: str) -> Point:
    """A ``SWAP2BOARD`` line: ``x,y`` as Gomocup defines it, or ``x,y,field``
    as some engines and managers write it (the field is not needed: colours
    follow from the order, black first)."""
    parts = line.split(",")
    if len(parts) == 3:
        return parse_entry(line)[0]
    return Point(*_numbers(line, 2, "X,Y (or X,Y,FIELD) or DONE"))


def parse_command(line: str) -> Command:
    """One protocol line (not empty, not inside a ``BOARD`` block) as a command.

    Command words are read in any letter case. Raises :class:`ProtocolError`
    when a known command's arguments are malformed."""
    word, _, rest = line.strip().partition(" ")
    name, rest = word.upper(), rest.strip()
    if name in _BARE:
        if rest:
            raise ProtocolError(f"{name} takes no arguments, got {_echo(rest)!r}")
        return _BARE[name]()
    if name == "START":
        try:
            size = int(rest)
        except ValueError:
            raise ProtocolError(f"START expects the board size, got {_echo(rest)!r}") from None
        return Start(size, size)
    if name == "RECTSTART":
        width, height = _numbers(rest, 2, "RECTSTART WIDTH,HEIGHT")
        return Start(width, height)
    if name in ("TURN", "TAKEBACK"):
        try:
            point = parse_point(rest)
        except ProtocolError as exc:
            raise ProtocolError(f"{name} {exc}") from None
        return Turn(point) if name == "TURN" else Takeback(point)
    if name == "INFO":
        key, _, value = rest.partition(" ")
        if not key:
            raise ProtocolError("INFO expects a key and a value")
        return Info(key.lower(), value.strip())
    return Unknown(word)


# -- rules, boards and games ----------------------------------------------------


class RuleChoice(NamedTuple):
    """What an ``INFO rule`` value asks for, as this brain plays it."""

    #: The rule set played: ``freestyle``, ``standard`` or ``renju``.
    rule: str
    #: What is not played as asked, one sentence each (said once).
    unplayed: tuple[str, ...]


def rule_choice(bits: int) -> RuleChoice:
    """The rule set played for Gomocup's rule bits, and what is not played.

    Renju (4) wins over exactly five (1): renju is exactly five for black and
    RIF's renju lets white win with more. Caro (8: exactly five, and not
    blocked at both ends) is played as its nearest rule, standard (exactly
    five), which wins every game caro wins and a few more. A continuous game
    (2: after a five the game goes on) is played a game at a time: the brain
    answers every move it is asked for, on the board it is given, and reads
    a finished five's marks (field 3) as the protocol says (see
    :meth:`Brain.position`). Unknown bits are left out."""
    unplayed = []
    if bits & RENJU:
        rule = "renju"
    elif bits & (EXACTLY_FIVE | CARO):
        rule = "standard"
    else:
        rule = "freestyle"
    if bits & CONTINUOUS:
        unplayed.append(
            "continuous games (rule bit 2) are not played as such: each move is "
            f"played on the board given, as {rule}"
        )
    if bits & CARO:
        unplayed.append(
            "caro (rule bit 8: exactly five, not blocked at both ends) is not played: "
            "played as standard (exactly five wins)"
        )
    unknown = bits & ~sum(RULE_BITS)
    if unknown:
        unplayed.append(f"unknown rule bits {unknown} are left out")
    return RuleChoice(rule, tuple(unplayed))


def game_name(width: int, height: int, rule: str) -> tuple[str, str | None]:
    """The game played on a ``width`` x ``height`` board under ``rule``, and a
    sentence when the rule is not played there (None when it is).

    Square boards of 15 to 22 are ``gomoku:RULE,SIZE``; standard and renju
    exist only there (their rules, like Gomocup's leagues, are for those
    boards), so any other board is freestyle, ``mnk:ROWS,COLUMNS,5``."""
    if width == height and width in GOMOKU_SIDES:
        return f"gomoku:{rule},{width}", None
    name = f"mnk:{height},{width},{K}"
    if rule == "freestyle":
        return name, None
    return name, (
        f"{rule} is played on square boards of {GOMOKU_SIDES[0]} to {GOMOKU_SIDES[-1]}: "
        f"this {width}x{height} board is played freestyle (five or more wins)"
    )


# -- match settings and time ----------------------------------------------------


@dataclass
class Settings:
    """What the manager said with ``INFO`` (None: not said). Times in milliseconds."""

    #: Limit of one move; 0 means play as fast as possible.
    timeout_turn: int | None = None
    #: Limit of the whole match; 0 means none.
    timeout_match: int | None = None
    #: What is left of the match limit, sent before every move (may be negative).
    time_left: int | None = None
    #: Memory limit of the whole process in bytes (0: none).
    max_memory: int | None = None
    #: Gomocup's rule bits (see :func:`rule_choice`).
    rule: int = 0
    #: 0 a human opponent, 1 a brain, 2 a tournament, 3 a network tournament.
    game_type: int | None = None
    #: Threads a search may use.
    thread_num: int | None = None


#: INFO keys with a whole-number value, and the least value each takes.
_NUMERIC_INFO: dict[str, int | None] = {
    "timeout_turn": 0,
    "timeout_match": 0,
    "time_left": None,  # a clock run out is negative
    "max_memory": 0,
    "rule": 0,
    "game_type": 0,
    "thread_num": 1,
}


def move_budget(settings: Settings, empty: int, spent: float, default: float | None) -> float:
    """Seconds the search may take for one move.

    The allowance is ``timeout_turn`` (the game's own budget if the manager
    gave none), at most a fair share of the match time left: ``time_left``
    as last reported, else ``timeout_match`` minus the ``spent`` seconds
    counted here. From it a margin is kept for everything but the search.
    ``timeout_turn 0``, or a clock run out, gives :data:`FASTEST`.
    """
    if settings.timeout_turn == 0:
        return FASTEST
    allowance = default if settings.timeout_turn is None else settings.timeout_turn / 1000
    left: float | None = None
    if settings.time_left is not None and settings.time_left != UNLIMITED_MS:
        left = settings.time_left / 1000
    elif settings.timeout_match:
        left = settings.timeout_match / 1000 - spent
    if left is not None:
        share = max(0.0, left) / max(1, min(PLANNED_MOVES, (empty + 1) // 2))
        allowance = share if allowance is None else min(allowance, share)
    if allowance is None:  # no limit anywhere: the library's exact answer would never come
        allowance = 1.0
    return max(FASTEST, allowance * (1 - MARGIN_SHARE) - MARGIN_SECONDS)


def resident_bytes() -> int | None:
    """The process's resident memory now (None where ``/proc`` cannot tell)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


# -- readying the engines --------------------------------------------------------

Engines = Callable[["Game[Any, Any]"], Any]


class Preparation:
    """The engines' start-up work, on a thread of its own from process start.

    A k-in-a-row engine's kernels are compiled by numba on first use: about
    twelve seconds once after an install (then numba's cache loads them in
    well under a second). The manager's clock must pay for none of it, nor
    wait for it: ``START`` is answered at once, and a move asked before its
    engine is ready waits for it as long as the move's time allows, then is
    played by :func:`unbeatable.api.quick_move` (a win, a block) instead.

    Engines are readied one game at a time, first those named at start, then
    those :meth:`prepare` is given, the latest first. The first one with a table to size is
    also measured: :attr:`baseline` is the process's resident memory with its
    kernels loaded and the smallest table, what ``INFO max_memory`` must
    leave for everything but the table; :attr:`default_memory` is what the
    engine held before, restored when no limit is set."""

    def __init__(self, engines: Engines = api.engine) -> None:
        self._engines = engines
        self._ready = threading.Condition()
        self._queue: deque[str] = deque()
        self._done: set[str] = set()
        #: The process's resident bytes with the kernels loaded and the
        #: smallest table (None until measured, or where it cannot be read).
        self.baseline: int | None = None
        #: What the first configurable engine held before it was measured.
        self.default_memory: int | None = None
        #: Seconds the first game took to ready (compiling, or loading).
        self.seconds: float | None = None
        self._measured = False
        self._thread = threading.Thread(target=self._work, name="brain-preparation", daemon=True)

    def start(self, names: Iterable[str] = ("gomoku",)) -> Preparation:
        """Begin with the games ``names`` (the usual first game: freestyle 15x15)."""
        with self._ready:
            self._queue.extend(names)
        self._thread.start()
        return self

    def prepare(self, game: Game[Any, Any]) -> None:
        """Ready ``game``'s engine next (after the one being readied now): the
        game asked for last is the one the next move is played in."""
        with self._ready:
            if game.name in self._done or (self._queue and self._queue[0] == game.name):
                return
            if game.name in self._queue:
                self._queue.remove(game.name)
            self._queue.insert(1 if self._queue else 0, game.name)
            self._ready.notify_all()

    def ready(self, game: Game[Any, Any]) -> bool:
        with self._ready:
            return game.name in self._done

    def wait(self, game: Game[Any, Any], seconds: float, stop: threading.Event | None) -> bool:
        """Wait up to ``seconds`` for ``game``'s engine; whether it is ready.
        Returns early when ``stop`` is set."""
        self.prepare(game)
        deadline = time.perf_counter() + seconds
        with self._ready:
            while game.name not in self._done:
                left = deadline - time.perf_counter()
                if left <= 0 or (stop is not None and stop.is_set()):
                    return False
                self._ready.wait(min(left, 0.02))
            return True

    def _work(self) -> None:
        while True:
            with self._ready:
                while not self._queue:
                    self._ready.wait()
                name = self._queue[0]
            began = time.perf_counter()
            with contextlib.suppress(Exception):  # the real call reports it in one ERROR line
                self._warm(name)
            with self._ready:
                self._queue.popleft()
                self._done.add(name)
                if self.seconds is None:
                    self.seconds = time.perf_counter() - began
                self._ready.notify_all()

    def _warm(self, name: str) -> None:
        game = get_game(name)
        engine = self._engines(game)
        configure = getattr(engine, "configure", None)
        memory_use = getattr(engine, "memory_use", None)
        if self._measured or configure is None or memory_use is None:
            self._warm_up(game, engine)
            return
        self._measured = True
        self.default_memory = int(memory_use())
        configure(memory=0)  # the smallest table while the footprint is read
        self._warm_up(game, engine)
        self.baseline = resident_bytes()
        configure(memory=self.default_memory)

    def _warm_up(self, game: Game[Any, Any], engine: Any) -> None:
        """The engine's start-up work, through :func:`unbeatable.api.warm` (the
        library then knows the engine is ready: no move's search does the work
        again), then :func:`rehearse`; an engine given to the preparation
        (tests) is warmed itself."""
        if self._engines is api.engine:
            api.warm(game, note=False)
            rehearse(game)
            return
        warm_up = getattr(engine, "warm_up", None)
        if warm_up is not None:
            warm_up()


#: Seconds each rehearsal may search (the engine's paths are entered at once).
REHEARSAL_SECONDS = 0.02


def rehearsals(game: Game[Any, Any], width: int, height: int) -> list[Any]:
    """Positions whose searches the engine's own warm-up does not reach, for
    each side to move: one that can make an open four (an open three of its
    own), one that must block the other's four. Boards narrower than nine
    have none (no room; their engine is exact and small)."""
    if width < 9 or height < 9:
        return []
    cx, cy = width // 2, height // 2
    found = []
    for mover in game.players:
        other = game.players[1] if mover == game.players[0] else game.players[0]
        scattered = ((cx - 4, cy - 4), (cx + 4, cy - 4), (cx, cy + 4))
        three = {(cx + d, cy): mover for d in (-1, 0, 1)}
        four = {(cx + d, cy): other for d in (-2, -1, 0, 1)} | {(cx - 3, cy): mover}
        for shape, rest in ((three, other), (four, mover)):
            stones = {**shape, **dict.fromkeys(scattered, rest)}
            cells = "".join(stones.get((x, y), ".") for y in range(height) for x in range(width))
            found.append(api.set_up(game, cells, mover))
    return found


def rehearse(game: Game[Any, Any]) -> None:
    """Search the :func:`rehearsals` of ``game`` (on m,n,k boards), so that
    the kernels their paths need are compiled, or loaded, before any clock:
    the engine's warm-up misses some (the first open three of a game once
    cost a move 2-4 s of compiling)."""
    rows, columns = getattr(game, "rows", 0), getattr(game, "columns", 0)
    for position in rehearsals(game, columns, rows):
        api.choose_move(game, position, time_limit=REHEARSAL_SECONDS)


# -- the brain ------------------------------------------------------------------

Chooser = Callable[..., "MoveValue | None"]
QuickMover = Callable[..., "MoveValue | None"]


class Brain:
    """The protocol's state: the board, the settings, the match clock.

    :meth:`handle` takes one input line and returns the lines to answer
    (none for ``INFO``, ``END`` and lines inside a ``BOARD`` block). It does
    no I/O of its own; ``choose`` is :func:`unbeatable.api.choose_move` (tests
    may wrap it), ``quick`` :func:`unbeatable.api.quick_move`, ``engines``
    :func:`unbeatable.api.engine` (the engines ``INFO max_memory`` and
    ``thread_num`` configure), ``clock`` :func:`time.perf_counter`. Without a
    ``preparation`` every engine counts as ready (it readies on first use).
    """

    def __init__(
        self,
        choose: Chooser = api.choose_move,
        clock: Callable[[], float] = time.perf_counter,
        *,
        preparation: Preparation | None = None,
        quick: QuickMover = api.quick_move,
        engines: Engines = api.engine,
    ) -> None:
        self.choose = choose
        self.clock = clock
        self.preparation = preparation
        self.quick = quick
        self.engines = engines
        self.width = self.height = 0
        #: The stones on the board: 1 ours, 2 the opponent's.
        self.stones: dict[Point, int] = {}
        #: Points of a continuous game's finished fives (field 3): no one's.
        self.marked: frozenset[Point] = frozenset()
        self.settings = Settings()
        #: Seconds spent on our moves this match (the clock when no time_left comes).
        self.spent = 0.0
        #: Set by END: the caller stops reading.
        self.finished = False
        #: MESSAGE lines to say before the next answer.
        self._messages: list[str] = []
        #: Sentences already said (each rule note is said once).
        self._said: set[str] = set()
        #: (memory, threads) last given to each engine, by identity.
        self._configured: dict[int, tuple[int | None, int | None]] = {}
        #: What the process holds besides the engine's table (:meth:`footprint`), read once.
        self._footprint: int | None = None
        #: Inside a BOARD or SWAP2BOARD block: its name, its lines, when it began.
        self._block: tuple[str, list[str], float] | None = None

    @property
    def started(self) -> bool:
        return self.width > 0

    @property
    def game(self) -> Game[Any, Any] | None:
        """The game the next move is played in (None before START)."""
        return self._game(note=False) if self.started else None

    # -- dispatch -------------------------------------------------------------

    def handle(
        self, line: str, received: float | None = None, stop: threading.Event | None = None
    ) -> list[str]:
        """The answer to one input line. ``received`` is when it was read (the
        move's clock starts then); ``stop``, once set, ends a search and raises
        :class:`Interrupted` (nothing may be answered after ``END``)."""
        received = self.clock() if received is None else received
        line = line.strip()
        if self._block is not None:
            answer = self._in_block(line, stop)
        elif not line:
            return []
        else:
            try:
                answer = self._dispatch(parse_command(line), received, stop)
            except (ProtocolError, GameError) as exc:
                answer = [_error(str(exc))]
        if answer and self._messages:
            answer = [*(f"MESSAGE {text}" for text in self._messages), *answer]
            self._messages = []
        return answer

    def _dispatch(
        self, command: Command, received: float, stop: threading.Event | None
    ) -> list[str]:
        match command:
            case Start(width, height):
                return self._start(width, height)
            case Restart():
                self._need_board("RESTART")
                self._new_match()
                return ["OK"]
            case Begin():
                self._need_board("BEGIN")
                return self._move(self.stones, self.marked, received, stop)
            case Turn(point):
                self._need_board("TURN")
                self._check_point("TURN", point, empty=True)
                return self._move({**self.stones, point: OPPONENT}, self.marked, received, stop)
            case Takeback(point):
                self._need_board("TAKEBACK")
                self._check_point("TAKEBACK", point, empty=False)
                del self.stones[point]
                return ["OK"]
            case Board() | Swap2Board():
                name = "BOARD" if isinstance(command, Board) else "SWAP2BOARD"
                self._block = (name, [], received)
                return []
            case Info(key, value):
                self._info(key, value)
                return []
            case End():
                self.finished = True
                return []
            case About():
                return [about()]
            case Unknown(word):
                return [f"UNKNOWN {_echo(word)!r} is not a command this brain knows"]
        raise AssertionError(command)  # pragma: no cover - every command is matched

    def _in_block(self, line: str, stop: threading.Event | None) -> list[str]:
        """A line inside ``BOARD``/``SWAP2BOARD``: collected until ``DONE``."""
        assert self._block is not None
        name, lines, received = self._block
        if line.upper() == "END":  # the manager gave up on the block
            self._block = None
            self.finished = True
            return []
        if line.upper() != "DONE":
            if line:
                lines.append(line)
            return []
        self._block = None
        try:
            self._need_board(name)
            if name == "SWAP2BOARD":
                return self._swap2([parse_swap2_entry(text) for text in lines], received, stop)
            stones, marked = self._board_stones(lines)
            return self._move(stones, marked, received, stop)
        except (ProtocolError, GameError) as exc:
            return [_error(str(exc))]

    # -- commands -------------------------------------------------------------

    def _start(self, width: int, height: int) -> list[str]:
        shape = f"{width}x{height}"
        if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
            raise ProtocolError(
                f"unsupported board {shape}: this brain plays sides of {MIN_SIDE} to {MAX_SIDE}"
            )
        try:  # every board is played freestyle at least: that game must exist
            get_game(game_name(width, height, "freestyle")[0])
        except GameError as exc:
            raise ProtocolError(f"unsupported board {shape}: {exc}") from None
        self.width, self.height = width, height
        self._new_match()
        self._prepare()
        return ["OK"]

    def _new_match(self) -> None:
        """An empty board and a fresh match clock (the settings stay)."""
        self.stones = {}
        self.marked = frozenset()
        self.spent = 0.0
        self.settings.time_left = None

    def _info(self, key: str, value: str) -> None:
        if key not in _NUMERIC_INFO:
            return  # folder, evaluate, and keys of other protocols: not needed
        least = _NUMERIC_INFO[key]
        try:
            number = int(value)
            if least is not None and number < least:
                raise ValueError
        except ValueError:
            kept = getattr(self.settings, key)
            at_least = "" if least is None else f" of at least {least}"
            self._messages.append(
                f"INFO {key} {_echo(value)!r} ignored: expected a whole number{at_least}; "
                f"{key} stays {'unset' if kept is None else kept}"
            )
            return
        setattr(self.settings, key, number)
        if key == "rule":
            self._prepare()

    def _prepare(self) -> None:
        """Have the preparation ready the game the next move is played in."""
        if self.preparation is not None and self.started:
            self.preparation.prepare(self._game(note=False))

    def _say(self, text: str | None) -> None:
        """Say ``text`` before the next answer, unless it was said before."""
        if text is not None and text not in self._said:
            self._said.add(text)
            self._messages.append(text)

    def _game(self, rule: str | None = None, *, note: bool = True) -> Game[Any, Any]:
        """The game of the board under ``rule`` (the rule played for ``INFO
        rule`` if None); with ``note``, what is not played as asked is said."""
        choice = rule_choice(self.settings.rule)
        if rule is None:
            rule = choice.rule
            if note:
                for text in choice.unplayed:
                    self._say(f"rule {self.settings.rule}: {text}")
        name, unplayed = game_name(self.width, self.height, rule)
        try:
            game = get_game(name)
        except GameError as exc:
            if rule == "freestyle":
                raise
            unplayed = f"{rule} is not available ({exc}): played freestyle"
            game = get_game(game_name(self.width, self.height, "freestyle")[0])
        if note:
            self._say(unplayed)
        return game

    def _need_board(self, name: str) -> None:
        if not self.started:
            raise ProtocolError(f"{name} before START: no board yet")

    def _check_point(self, name: str, point: Point, *, empty: bool | None) -> None:
        """That ``point`` is on the board and, unless ``empty`` is None, free
        (True: no stone and no mark) or holding a stone (False)."""
        if not (0 <= point.x < self.width and 0 <= point.y < self.height):
            raise ProtocolError(
                f"{name} {point}: off the {self.width}x{self.height} board "
                f"(x 0-{self.width - 1}, y 0-{self.height - 1})"
            )
        if empty is None:
            return
        if empty and (point in self.stones or point in self.marked):
            raise ProtocolError(f"{name} {point}: that point is taken")
        if empty is False and point not in self.stones:
            raise ProtocolError(f"{name} {point}: there is no stone there")

    def _board_stones(self, lines: Iterable[str]) -> tuple[dict[Point, int], frozenset[Point]]:
        """The stones and marks a BOARD block lists, checked."""
        stones: dict[Point, int] = {}
        marked: set[Point] = set()
        for line in lines:
            point, field = parse_entry(line)
            self._check_point("BOARD", point, empty=None)  # a new board: only bounds
            if field not in (OWN, OPPONENT, MARKED):
                raise ProtocolError(
                    f"BOARD {point},{field}: the field must be 1 (own), 2 (opponent) or 3 (mark)"
                )
            if point in stones or point in marked:
                raise ProtocolError(f"BOARD {point}: listed twice")
            if field == MARKED:
                marked.add(point)
            else:
                stones[point] = field
        return stones, frozenset(marked)

    # -- positions ------------------------------------------------------------

    def position(self, game: Game[Any, Any], stones: dict[Point, int]) -> tuple[Any, str]:
        """The library's position of ``stones`` with us to move, and our mark.

        As play makes them, we move first (x, black) when both sides have as
        many stones, second (o, white) when the opponent has one more. A
        board no game can reach (a continuous game's five taken off, a
        position set up by hand) is played on as it is, as tournament engines
        do: the side with more stones is black (we are when the counts are
        even), and we move (:func:`unbeatable.api.set_up`). Marks (field 3)
        are no one's stones: their points read as empty, and we never play
        on one (see :meth:`_search`)."""
        own = sum(1 for field in stones.values() if field == OWN)
        theirs = len(stones) - own
        first, second = game.players
        even = theirs - own in (0, 1)
        mine = first if (own == theirs if even else own > theirs) else second
        cells = self._cells(game, stones, mine)
        if even:
            rows = [cells[y * self.width : (y + 1) * self.width] for y in range(self.height)]
            return game.parse("/".join(rows)), mine
        return api.set_up(game, cells, mine), mine

    def _cells(self, game: Game[Any, Any], stones: dict[Point, int], mine: str) -> str:
        """``stones`` as the board's cells, row-major from the top-left."""
        other = game.players[1] if mine == game.players[0] else game.players[0]
        marks = {OWN: mine, OPPONENT: other}
        return "".join(
            marks.get(stones.get(Point(x, y), 0), ".")
            for y in range(self.height)
            for x in range(self.width)
        )

    def _playable(self, stones: dict[Point, int]) -> tuple[Game[Any, Any], Any]:
        """The game and position of a move on ``stones``: the rule's
        game, or freestyle's when the board cannot arise under the rule."""
        game = self._game()
        try:
            pos, mine = self.position(game, stones)
        except GameError as exc:
            freestyle = self._game("freestyle", note=False)
            if freestyle is game:
                raise ProtocolError(_over(exc)) from None
            try:
                pos, mine = self.position(freestyle, stones)
            except GameError as again:
                raise ProtocolError(_over(again)) from None
            self._messages.append(f"this board is not one of {game.name} ({exc}): played freestyle")
            game = freestyle
        if game.is_terminal(pos):
            winner = game.winner(pos)
            why = (
                "the board is full"
                if winner is None
                else f"{'we have' if winner == mine else 'the opponent has'} five in a row"
            )
            raise ProtocolError(f"the game is over: {why}")
        return game, pos

    # -- moves ----------------------------------------------------------------

    def _move(
        self,
        stones: dict[Point, int],
        marked: frozenset[Point],
        received: float,
        stop: threading.Event | None,
    ) -> list[str]:
        """Our move on ``stones`` (and ``marked``); the board becomes them plus
        our stone."""
        game, pos = self._playable(stones)
        line: tuple[str, ...] = ()
        if not stones and not marked:  # the opening move: the centre, at once
            move = game.ordered_moves(pos)[0]
            note = "opening move at the centre, no search"
        else:
            budget = self._budget(game, len(stones) + len(marked))
            value, note = self._search(game, pos, stones, marked, received, budget, stop)
            move, line = value.raw, value.line
        point = _point(game.cell(pos, move))
        elapsed = self.clock() - received
        self.stones = {**stones, point: OWN}
        self.marked = marked
        self.spent += elapsed
        fields = self._search_fields(game, pos, move, line, elapsed)
        return [f"MESSAGE {note}{fields}", str(point)]

    def _budget(self, game: Game[Any, Any], taken: int) -> float:
        return move_budget(
            self.settings,
            self.width * self.height - taken,
            self.spent,
            api.default_time_limit(game),
        )

    def _search(
        self,
        game: Game[Any, Any],
        pos: Any,
        stones: dict[Point, int],
        marked: frozenset[Point],
        received: float,
        budget: float,
        stop: threading.Event | None,
    ) -> tuple[MoveValue, str]:
        """Our move's value and what to say of it. A move on a mark is not
        played: the search is asked again with that point blocked, once per
        mark at most (each search with half the time left while marks could
        be hit). Blocked points are stones of both sides in turn, so that no
        finished five of marks becomes anyone's line."""
        mine = game.to_move(pos)
        other = game.players[1] if mine == game.players[0] else game.players[0]
        cells = list(self._cells(game, stones, mine))
        searched = pos
        for turn in range(len(marked) + 1):
            left = budget - (self.clock() - received)
            value, note = self._think(game, searched, left / 2 if marked else left, stop)
            point = _point(game.cell(searched, value.raw))
            if point not in marked:
                return value, note
            cells[point.y * self.width + point.x] = other if turn % 2 == 0 else mine
            searched = api.set_up(game, "".join(cells), mine)
        raise AssertionError("a blocked point was chosen")  # pragma: no cover

    def _think(
        self, game: Game[Any, Any], pos: Any, left: float, stop: threading.Event | None
    ) -> tuple[MoveValue, str]:
        """The engine's move within ``left`` seconds, or the quick move when the
        engine is not ready in time; and what to say of it.

        While the engine is not ready, the quick move is found first (its cost,
        which numba's compiler on the other thread can stretch, is then paid
        and known), and the engine waited for in what is left; an engine
        ready too late to search gets no search."""
        if stop is not None and stop.is_set():
            raise Interrupted
        preparation = self.preparation
        began = self.clock()
        if preparation is not None and not preparation.ready(game):
            quick = self.quick(game, pos, time_limit=QUICK_READ * max(0.0, left))
            if quick is None:  # pragma: no cover - the position was checked
                raise ProtocolError("the game is over")
            kept = max(QUICK_SECONDS, QUICK_SHARE * left) + FASTEST
            wait = left - (self.clock() - began) - kept
            if not preparation.wait(game, wait, stop):
                if stop is not None and stop.is_set():
                    raise Interrupted
                note = (
                    "the engine is not ready yet (loading its compiled kernels, or compiling "
                    "them once after an install: pbrain-unbeatable --prepare does that ahead), "
                    "so a quick move: "
                )
                return quick, note + _value_words(quick)
            left -= self.clock() - began
        self._configure(game)
        value = self.choose(game, pos, "impossible", time_limit=max(FASTEST, left), stop=stop)
        if stop is not None and stop.is_set():
            raise Interrupted
        if value is None:  # pragma: no cover - the position was checked above
            raise ProtocolError("the game is over")
        try:  # the rules have the last word (renju's forbidden points)
            game.parse_move(pos, value.move)
        except GameError as exc:
            quick = self.quick(game, pos, time_limit=FASTEST)
            if quick is None:  # pragma: no cover - the position was checked
                raise
            self._messages.append(f"the search chose {value.move}, refused ({exc}): a quick move")
            return quick, _value_words(quick)
        return value, _value_words(value)

    def _configure(self, game: Game[Any, Any]) -> None:
        """Give ``game``'s engine the manager's limits (``INFO max_memory``,
        ``INFO thread_num``), when they changed since it was last given them,
        and say what it then holds.

        The limit is the whole process's: the engine gets what is left of it
        once the process's own footprint (:meth:`footprint`) is taken off. No
        limit (0) gives back the engine's own default."""
        engine = self.engines(game)
        configure = getattr(engine, "configure", None)
        if configure is None:
            return
        limit = self.settings.max_memory
        memory = self.preparation.default_memory if self.preparation is not None else None
        if limit:
            memory = max(0, limit - self.footprint())
        wanted = (memory, self.settings.thread_num)
        if self._configured.get(id(engine), (None, None)) == wanted:
            return
        configure(memory=memory, threads=self.settings.thread_num)
        self._configured[id(engine)] = wanted
        said = []
        memory_use = getattr(engine, "memory_use", None)
        if limit and memory_use is not None:
            said.append(
                f"max_memory {limit / MIB:.1f} MiB: the process holds {self.footprint() / MIB:.1f}"
                f" MiB before the engine, which takes {memory_use() / MIB:.1f} MiB (its table"
                " and search buffers)"
            )
        if self.settings.thread_num is not None:
            threads = getattr(engine, "threads", self.settings.thread_num)
            said.append(f"{threads} search thread{'' if threads == 1 else 's'}")
        if said:
            self._messages.append("; ".join(said))

    def footprint(self) -> int:
        """What the process holds besides its engine's table, in bytes: the
        preparation's measure (kernels loaded, smallest table), else the
        resident memory when first asked, else :data:`FOOTPRINT_ESTIMATE`.
        Read once, so that the table keeps its size (and contents) from move
        to move."""
        if self._footprint is None:
            measured = self.preparation.baseline if self.preparation is not None else None
            self._footprint = measured or resident_bytes() or FOOTPRINT_ESTIMATE
        return self._footprint

    def _search_fields(
        self, game: Game[Any, Any], pos: Any, move: Any, line: tuple[str, ...], elapsed: float
    ) -> str:
        """The line in the game's notation, then the fields tournament tools
        read: ``tm`` (milliseconds) and ``pv``, the line as Gomocup points."""
        points = [_point(game.cell(pos, move))]
        here = game.play(pos, move)
        try:
            for text in line[1:]:  # the line starts with the move itself
                reply = game.parse_move(here, text)
                points.append(_point(game.cell(here, reply)))
                here = game.play(here, reply)
        except GameError:  # pragma: no cover - a line that does not replay: show what did
            pass
        words = f"; line {' '.join(line)}" if len(line) > 1 else ""
        return f"{words}; tm {round(elapsed * 1000)} pv {' '.join(map(str, points))}"

    # -- swap2 ------------------------------------------------------------------

    def _swap2(
        self, stones: list[Point], received: float, stop: threading.Event | None
    ) -> list[str]:
        """Gomocup's swap2 opening (``SWAP2BOARD``), by how many stones it
        lists (black first, then alternately):

        - none: we open, with three stones (black, white, black);
        - three: we are the second player: ``SWAP`` (we take black), one
          stone (we stay white and play the fourth), or two (the fourth and
          fifth, and the first player chooses);
        - five: we are the first player and choose: ``SWAP`` (we take black,
          the other plays white's sixth) or white's sixth stone.

        Choices are judged with the engine (:meth:`_lean`). The board then
        holds the stones, ours as we chose; the manager goes on with BOARD
        or TURN."""
        if len(stones) not in (0, 3, 5):
            raise ProtocolError(
                f"SWAP2BOARD lists {len(stones)} stones: expected 0, 3 or 5 (in the order played)"
            )
        for point in stones:
            self._check_point("SWAP2BOARD", point, empty=None)
        if len(set(stones)) != len(stones):
            raise ProtocolError("SWAP2BOARD lists a point twice")
        game = self._game()
        budget = self._budget(game, len(stones))
        deadline = received + budget
        if not stones:
            answer, note, black = self._swap2_open(game, deadline, stop)
            self.stones = {p: OWN if p in black else OPPONENT for p in answer}
            said = " ".join(map(str, answer))
        else:
            pos = self._opening(game, stones)
            answer, note, ours = self._swap2_choose(game, pos, len(stones), deadline, stop)
            placed = stones + answer
            self.stones = {
                p: OWN if (i % 2 == 0) == (ours == "black") else OPPONENT
                for i, p in enumerate(placed)
            }
            said = "SWAP" if not answer else " ".join(map(str, answer))
        self.marked = frozenset()
        self.spent += self.clock() - received
        return [f"MESSAGE swap2: {note}", said]

    def _opening(self, game: Game[Any, Any], stones: Sequence[Point]) -> Any:
        """The position of swap2 stones listed in the order played (black first)."""
        first, second = game.players
        marks = {p: first if i % 2 == 0 else second for i, p in enumerate(stones)}
        rows = (
            "".join(marks.get(Point(x, y), ".") for x in range(self.width))
            for y in range(self.height)
        )
        try:
            return game.parse("/".join(rows))
        except GameError as exc:
            raise ProtocolError(f"SWAP2BOARD: not an opening of {game.name}: {exc}") from None

    def _lean(
        self, game: Game[Any, Any], pos: Any, seconds: float, stop: threading.Event | None
    ) -> tuple[float, MoveValue]:
        """How the position leans for the side to move, from -1 (lost) to 1
        (won), and the engine's move: a proven result is +-1; otherwise the
        game's evaluation of the position after that move, from the mover's
        side (the engine's best reading, one move deep)."""
        value, _ = self._think(game, pos, seconds, stop)
        if value.result == "win":
            return 1.0, value
        if value.result == "loss":
            return -1.0, value
        return -float(game.evaluate(game.play(pos, value.raw))), value

    def _swap2_open(
        self, game: Game[Any, Any], deadline: float, stop: threading.Event | None
    ) -> tuple[list[Point], str, set[Point]]:
        """Three stones that leave neither side ahead, so that the opponent's
        choice gains nothing: of the openings with black in the centre, white
        beside it (straight or diagonally) and black's second stone within two
        points of the centre, the few the game's evaluation finds most even
        are read by the engine, and the most even of those is played."""
        cx, cy = self.width // 2, self.height // 2
        centre = Point(cx, cy)
        candidates = []
        for white in (Point(cx + 1, cy), Point(cx + 1, cy - 1)):
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    third = Point(cx + dx, cy + dy)
                    if third in (centre, white):
                        continue
                    pos = self._opening(game, [centre, white, third])
                    candidates.append((abs(float(game.evaluate(pos))), [centre, white, third], pos))
        candidates.sort(key=lambda c: c[0])
        shortlist = candidates[:3]
        best: tuple[float, list[Point], MoveValue] | None = None
        for i, (_, opening, pos) in enumerate(shortlist):
            share = (deadline - self.clock()) / (len(shortlist) - i)
            lean, reply = self._lean(game, pos, share, stop)
            if best is None or abs(lean) < abs(best[0]):
                best = (lean, opening, reply)
        assert best is not None
        lean, opening, reply = best
        note = (
            f"three stones, {_lean_words(lean, 'white')} once white answers {reply.move} "
            f"(the most even of {len(shortlist)} read)"
        )
        return opening, note, {opening[0], opening[2]}

    def _swap2_choose(
        self,
        game: Game[Any, Any],
        pos: Any,
        placed: int,
        deadline: float,
        stop: threading.Event | None,
    ) -> tuple[list[Point], str, str]:
        """Our choice after three or five stones (white to move): the points
        we add (none: ``SWAP``), what to say, and the colour we take."""
        lean, fourth = self._lean(game, pos, (deadline - self.clock()) / 2, stop)
        judged = f"{_lean_words(lean, 'white')} with white's best reply {fourth.move}"
        move = _point(game.cell(pos, fourth.raw))
        if placed == 5 or abs(lean) > SWAP2_EVEN:
            if lean < 0:
                return [], f"{judged}: SWAP, we take black", "black"
            return [move], f"{judged}: we stay white and play it", "white"
        # Even: two more stones, white's best and black's best answer to it,
        # and the first player chooses.
        after = game.play(pos, fourth.raw)
        fifth, _ = self._think(game, after, deadline - self.clock(), stop)
        moves = [move, _point(game.cell(after, fifth.raw))]
        return moves, f"{judged}: even, two more stones ({fourth.move} {fifth.move})", "white"


#: How far from even (the game's evaluation, -1 to 1) the second player of
#: swap2 still calls a position even and places two more stones.
SWAP2_EVEN = 0.05


def _lean_words(lean: float, side: str) -> str:
    if abs(lean) >= 1:
        return f"{side} {'wins' if lean > 0 else 'loses'} (proven)"
    return f"{side} {lean:+.2f}"


def _over(exc: Exception) -> str:
    """An invalid board's error, put as the manager needs it."""
    text = str(exc)
    return f"the game is over: {text}" if "line" in text else f"not a position of play: {text}"


def about() -> str:
    """The ``ABOUT`` line: keywords with quoted values, as the protocol asks."""
    fields = {
        "name": NAME,
        "version": __version__,
        "author": AUTHOR,
        "country": COUNTRY,
        "www": _homepage(),
    }
    return ", ".join(f'{key}="{value}"' for key, value in fields.items())


def _homepage() -> str:
    """The distribution's project URL, if its metadata names one."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        meta = metadata(NAME)
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return ""
    urls = [str(entry).partition(",")[2] for entry in meta.get_all("Project-URL") or ()]
    urls += [str(url) for url in meta.get_all("Home-page") or ()]
    return next((url.strip() for url in urls if url.strip()), "")


def _point(cell: tuple[int, int]) -> Point:
    """The Gomocup point of a (row, column) cell."""
    row, col = cell
    return Point(col, row)


def _value_words(value: MoveValue) -> str:
    """What the search found, for a MESSAGE line (``ev`` as engines write it).

    Not the faces' words (:func:`unbeatable.api.value_words`, ``win in 5``):
    a manager's log has no board or legend beside it, so the line names its
    unit (plies), gives a draw's length too, says whether it is proven, and
    ends with the ``ev`` field in the mate notation other Gomocup engines
    write (``+M5``)."""
    if value.result == "unknown" or value.plies is None:
        return "not proven within the time: the search's best guess"
    plies = f"{value.plies} {'ply' if value.plies == 1 else 'plies'}"
    if value.result == "draw":
        return f"draw in {plies} (proven); ev 0"
    sign = "+" if value.result == "win" else "-"
    return f"{value.result} in {plies} (proven); ev {sign}M{value.plies}"


def _error(message: str) -> str:
    return "ERROR " + " ".join(message.split())


# -- input and output -----------------------------------------------------------


def _line_batches(stream: BinaryIO) -> Iterator[list[bytes]]:
    """The lines of ``stream``, in batches as they arrive (lines sent together
    are queued together). A real file is read with :func:`os.read`, which
    holds no lock of Python's: the reader thread may still be waiting in it
    when the interpreter exits."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # in-memory streams (tests): all at once
        yield list(stream)
        return
    pending = b""
    while chunk := os.read(fd, 1 << 16):
        *lines, pending = (pending + chunk).split(b"\n")
        yield lines
    if pending:
        yield [pending]


class _Inbox:
    """Lines read and not yet handled, each with when it was read.

    ``stop`` is set while ``END`` is the next line waiting: the search of the
    command being handled ends at once, and its answer is never written (the
    protocol allows no output after ``END``). An ``END`` further back waits
    its turn like any other line."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self._lines: deque[tuple[str, float] | None] = deque()
        self._ready = threading.Condition()

    def put(self, lines: Iterable[str | None], read: float = 0.0) -> None:
        """Add lines read at ``read`` at once (None: the input has ended)."""
        with self._ready:
            self._lines.extend(None if line is None else (line, read) for line in lines)
            self._mark_end()
            self._ready.notify()

    def take(self) -> tuple[str, float] | None:
        """The next line and when it was read, waiting for one (None: no more)."""
        with self._ready:
            while not self._lines:
                self._ready.wait()
            item = self._lines.popleft()
            if item is not None:
                self.stop.clear()
                self._mark_end()
            return item

    def _mark_end(self) -> None:
        head = self._lines[0] if self._lines else None
        if head is not None and head[0].strip().upper() == "END":
            self.stop.set()


def serve(stdin: BinaryIO, stdout: TextIO, brain: Brain | None = None) -> int:
    """Answer the protocol lines of ``stdin`` on ``stdout`` until ``END`` or
    the end of input; the exit code (0).

    A reader thread takes the lines in as they come, so that an ``END`` sent
    during a search stops it at once. Every answer is flushed."""
    brain = brain or Brain()
    inbox = _Inbox()

    def read() -> None:
        try:
            for batch in _line_batches(stdin):
                decoded = [raw.decode("utf-8", errors="replace") for raw in batch]
                inbox.put(decoded, brain.clock())
        except (OSError, ValueError):  # input closed under us: as the end of input
            pass
        finally:
            inbox.put([None])

    threading.Thread(target=read, name="gomocup-reader", daemon=True).start()
    answered = float("-inf")
    while not brain.finished:
        item = inbox.take()
        if item is None:
            break
        line, read_at = item
        try:
            # The move's clock started when the line was read (a busy moment
            # of this process may delay its handling, not the manager's
            # clock), or when our last answer went out if later: a manager
            # sends the next command only once answered, so a line read
            # before that was piped ahead, not waiting.
            answer = brain.handle(line, max(read_at, answered), inbox.stop)
        except Interrupted:
            break
        except Exception as exc:  # a bug: say so and keep playing, never a traceback
            answer = [_error(f"internal error ({type(exc).__name__}: {exc})")]
        if answer:
            stdout.write("".join(f"{text}\n" for text in answer))
            stdout.flush()
            answered = brain.clock()
    return 0


#: The games ``--prepare`` readies, and the first the brain readies at start.
PREPARED = ("gomoku", "gomoku:standard,15", "gomoku:renju,15", "mnk:5,5,5")


def prepare(out: TextIO) -> int:
    """Ready every engine the brain plays with now (:func:`unbeatable.api.warm`,
    as ``unbeatable warm`` does for the games it is given), so that the cache
    holds the compiled kernels before any match (``--prepare``); the exit code."""
    for name in PREPARED:
        began = time.perf_counter()
        try:
            game = get_game(name)
        except GameError:
            continue  # not in this build
        api.warm(game, note=False)
        rehearse(game)
        out.write(f"{name}: ready in {time.perf_counter() - began:.1f} s\n")
    out.flush()
    return 0


USAGE = "usage: pbrain-unbeatable [--prepare]"
#: Python's thread switch interval in the brain's process (its default: 0.005).
SWITCH_SECONDS = 0.001


def run(args: Sequence[str] = ()) -> int:
    """Serve standard input and output (or, with ``--prepare``, ready the
    engines and exit); the exit code."""
    if list(args) == ["--prepare"]:
        return prepare(sys.stdout)
    if args:
        sys.stderr.write(f"{USAGE}\n")
        return 2
    # numba's loading and compiling, on the preparation's thread, is Python
    # for long stretches: a shorter switch interval hands Python's lock to
    # the threads that read lines and answer moves sooner.
    sys.setswitchinterval(SWITCH_SECONDS)
    preparation = Preparation().start(PREPARED[:1])
    try:
        return serve(sys.stdin.buffer, sys.stdout, Brain(preparation=preparation))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the manager has gone
        from unbeatable.cli import _quiet_exit

        _quiet_exit()
        return 0  # pragma: no cover - _quiet_exit raises


def main() -> None:
    """Entry point of the ``pbrain-unbeatable`` console script."""
    raise SystemExit(run(sys.argv[1:]))


if __name__ == "__main__":  # python -m unbeatable.brain
    main()
