"""The Gomocup protocol face: ``pbrain-unbeatable`` and ``unbeatable brain``.

Gomoku tournament managers (piskvork, the Gomocup judge, PyGomo) run an
engine as a child process and talk to it one line at a time on standard
input and output: ``START 15``, ``TURN 7,8``, ``BOARD`` ... ``DONE``, and the
engine answers ``OK`` or its move ``x,y``. This module is that protocol and
nothing else: :func:`parse_command` turns a line into a typed command,
:class:`Brain` keeps the board and the match settings and asks the library
for moves (:func:`unbeatable.api.choose_move`), and :func:`serve` moves the
lines. The search knows nothing of it.

What it plays: freestyle, five or more in a row wins, on square boards of 5
to 20 (``RECTSTART`` rectangles too); the game of an n-board is
``mnk:n,n,5`` (15: ``gomoku``). Anything else (exactly five, continuous
games, renju, caro, swap2 openings) is refused with an ``ERROR`` line.

Coordinates: Gomocup's ``x,y`` is the column from the left and the row from
the top, both from 0; the library's moves are read back into them with the
game's own :meth:`~unbeatable.games.Game.cell`.

Answers: ``ERROR <why>`` for a known command that cannot be carried out (a
failed command leaves the board as it was), ``UNKNOWN <why>`` for a command
this brain does not know, and before every move one ``MESSAGE`` line with
what the search found. Problems with ``INFO`` lines are held back until the
next move is asked for, as the protocol says: managers do not read answers
to ``INFO``.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple, TextIO

from unbeatable import __version__, api
from unbeatable.api import MNK_MAX_SIDE as MAX_SIDE
from unbeatable.api import GameError, get_game

if TYPE_CHECKING:
    from unbeatable.api import Game, MoveValue

#: Stones in a row that win: freestyle Gomoku's five (or more).
K = 5
#: Smallest board side: five in a row needs five cells.
MIN_SIDE = K
#: ``time_left`` when the match has no time limit (the protocol's value).
UNLIMITED_MS = 2_147_483_647
#: Seconds searched when told to play as fast as possible (``timeout_turn 0``)
#: or out of time: enough for the engine to take a win and block a four.
FASTEST = 0.05
#: Kept back from every move's allowance for reading, writing and Python's
#: own pauses: this many seconds plus this share of the allowance.
MARGIN_SECONDS = 0.1
MARGIN_SHARE = 0.1
#: The match clock is shared as if this many of our moves were still to
#: come (fewer on a nearly full board): early moves get a fair share, and
#: since each share is a fraction of what is left, the clock never runs out.
PLANNED_MOVES = 20
#: Longest stretch of a bad line echoed back in an answer.
ECHO = 40

#: Field values of a ``BOARD`` line.
OWN, OPPONENT, MARKED = 1, 2, 3
#: Bits of ``INFO rule`` and what they ask for; freestyle is none of them.
RULE_BITS = {1: "exactly five", 2: "continuous game", 4: "renju", 8: "caro"}

ABOUT = f'name="unbeatable", version="{__version__}", author="The Unbeatable authors"'


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
    """``SWAP2BOARD``: a swap2 opening (refused); its lines end at ``DONE``."""


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
    #: Memory limit in bytes (0: none); noted, not enforced.
    max_memory: int | None = None
    #: Bitmask of rules: 0 is freestyle, the only rule played.
    rule: int = 0
    #: 0 a human opponent, 1 a brain, 2 a tournament, 3 a network tournament.
    game_type: int | None = None

    def refusal(self) -> str | None:
        """Why these settings cannot be played (None: they can)."""
        if self.rule == 0:
            return None
        asked = [name for bit, name in RULE_BITS.items() if self.rule & bit]
        unknown = self.rule & ~sum(RULE_BITS)
        if unknown:
            asked.append(f"unknown bits {unknown}")
        return (
            f"rule {self.rule} ({', '.join(asked)}) is not supported: this brain plays "
            "freestyle only (rule 0: five or more in a row wins)"
        )


#: INFO keys with a whole-number value and the settings field each sets.
_NUMERIC_INFO = ("timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "game_type")
#: Keys whose value may not be negative.
_NOT_NEGATIVE = frozenset({"timeout_turn", "timeout_match", "max_memory", "rule", "game_type"})


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


# -- the brain ------------------------------------------------------------------

Chooser = Callable[..., "MoveValue | None"]


class Brain:
    """The protocol's state: the board, the settings, the match clock.

    :meth:`handle` takes one input line and returns the lines to answer
    (none for ``INFO``, ``END`` and lines inside a ``BOARD`` block). It does
    no I/O of its own; ``choose`` is :func:`unbeatable.api.choose_move` (tests
    may wrap it) and ``clock`` :func:`time.perf_counter`.
    """

    def __init__(
        self,
        choose: Chooser = api.choose_move,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.choose = choose
        self.clock = clock
        self.game: Game[Any, Any] | None = None
        self.width = self.height = 0
        #: The stones on the board: 1 ours, 2 the opponent's.
        self.stones: dict[Point, int] = {}
        self.settings = Settings()
        #: Seconds spent on our moves this match (the clock when no time_left comes).
        self.spent = 0.0
        #: Set by END: the caller stops reading.
        self.finished = False
        #: An INFO problem to report in answer to the next move request.
        self._held_back: str | None = None
        #: Inside a BOARD or SWAP2BOARD block: its name, its lines, when it began.
        self._block: tuple[str, list[str], float] | None = None

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
            return self._in_block(line, stop)
        if not line:
            return []
        try:
            command = parse_command(line)
            return self._dispatch(command, received, stop)
        except (ProtocolError, GameError) as exc:
            return [_error(str(exc))]

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
                self._refuse_if_needed()
                return self._move(self.stones, received, stop)
            case Turn(point):
                self._need_board("TURN")
                self._refuse_if_needed()
                self._check_point("TURN", point, empty=True)
                return self._move({**self.stones, point: OPPONENT}, received, stop)
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
                return [ABOUT]
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
            if name == "SWAP2BOARD":
                raise ProtocolError("swap2 openings are not supported: this brain plays freestyle")
            self._need_board("BOARD")
            self._refuse_if_needed()
            return self._move(self._board_stones(lines), received, stop)
        except (ProtocolError, GameError) as exc:
            return [_error(str(exc))]

    # -- commands -------------------------------------------------------------

    def _start(self, width: int, height: int) -> list[str]:
        shape = f"{width}x{height}"
        if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
            raise ProtocolError(
                f"unsupported board {shape}: this brain plays sides of {MIN_SIDE} to {MAX_SIDE}"
            )
        game = get_game(f"mnk:{height},{width},{K}")
        # The engine's start-up work (compiling, loading) belongs to START,
        # which the match clock does not count, not to the first move.
        warm_up = getattr(api.engine(game), "warm_up", None)
        if warm_up is not None:
            warm_up()
        self.game, self.width, self.height = game, width, height
        self._new_match()
        return ["OK"]

    def _new_match(self) -> None:
        """An empty board and a fresh match clock (the settings stay)."""
        self.stones = {}
        self.spent = 0.0
        self.settings.time_left = None

    def _info(self, key: str, value: str) -> None:
        if key not in _NUMERIC_INFO:
            return  # folder, evaluate, and keys of other protocols: not needed
        try:
            number = int(value)
            if number < 0 and key in _NOT_NEGATIVE:
                raise ValueError
        except ValueError:
            self._held_back = f"INFO {key}: expected a whole number of at least 0, got {value!r}"
            return
        setattr(self.settings, key, number)

    def _need_board(self, name: str) -> None:
        if self.game is None:
            raise ProtocolError(f"{name} before START: no board yet")

    def _refuse_if_needed(self) -> None:
        """Raise the held-back INFO problem (once) or the refusal of the rule."""
        problem, self._held_back = self._held_back, None
        problem = problem or self.settings.refusal()
        if problem is not None:
            raise ProtocolError(problem)

    def _check_point(self, name: str, point: Point, *, empty: bool | None) -> None:
        """That ``point`` is on the board and, unless ``empty`` is None, empty
        (True) or taken (False) on the current board."""
        if not (0 <= point.x < self.width and 0 <= point.y < self.height):
            raise ProtocolError(
                f"{name} {point}: off the {self.width}x{self.height} board "
                f"(x 0-{self.width - 1}, y 0-{self.height - 1})"
            )
        if empty is None:
            return
        if empty and point in self.stones:
            raise ProtocolError(f"{name} {point}: that point is taken")
        if empty is False and point not in self.stones:
            raise ProtocolError(f"{name} {point}: there is no stone there")

    def _board_stones(self, lines: Iterable[str]) -> dict[Point, int]:
        """The stones a BOARD block lists, checked."""
        stones: dict[Point, int] = {}
        for line in lines:
            point, field = parse_entry(line)
            self._check_point("BOARD", point, empty=None)  # a new board: only bounds
            if field == MARKED:
                raise ProtocolError(
                    f"BOARD {point},3: winning-line and forbidden marks belong to continuous "
                    "games and renju, which this brain does not play"
                )
            if field not in (OWN, OPPONENT):
                raise ProtocolError(f"BOARD {point},{field}: the field must be 1 (own) or 2")
            if point in stones:
                raise ProtocolError(f"BOARD {point}: listed twice")
            stones[point] = field
        return stones

    # -- moves ----------------------------------------------------------------

    def position(self, stones: dict[Point, int]) -> tuple[Any, str]:
        """The library's position of ``stones`` with us to move, and our mark.

        We move first (x) when both sides have as many stones, second (o) when
        the opponent has one more; any other count cannot arise in play."""
        game = self.game
        assert game is not None
        own = sum(1 for field in stones.values() if field == OWN)
        theirs = len(stones) - own
        if theirs - own not in (0, 1):
            raise ProtocolError(
                f"{own} own and {theirs} opponent stones with us to move cannot arise in play "
                "(the side to move has as many stones as the other, or one fewer)"
            )
        first, second = game.players
        mine, other = (first, second) if own == theirs else (second, first)
        marks = {OWN: mine, OPPONENT: other}
        rows = (
            "".join(marks.get(stones.get(Point(x, y), 0), ".") for x in range(self.width))
            for y in range(self.height)
        )
        try:
            return game.parse("/".join(rows)), mine
        except GameError as exc:
            raise ProtocolError(f"not a position of play: {exc}") from None

    def _move(
        self, stones: dict[Point, int], received: float, stop: threading.Event | None
    ) -> list[str]:
        """Our move on ``stones``; the board becomes them plus our stone."""
        game = self.game
        assert game is not None
        pos, mine = self.position(stones)
        if game.is_terminal(pos):
            winner = game.winner(pos)
            why = (
                "the board is full"
                if winner is None
                else f"{'we have' if winner == mine else 'the opponent has'} five in a row"
            )
            raise ProtocolError(f"the game is over: {why}")
        if not stones:  # the opening move: the centre, at once
            move = game.ordered_moves(pos)[0]
            note = "opening move at the centre, no search"
            line: tuple[str, ...] = ()
        else:
            budget = move_budget(
                self.settings,
                self.width * self.height - len(stones),
                self.spent,
                api.default_time_limit(game),
            )
            budget = max(FASTEST, budget - (self.clock() - received))
            if stop is not None and stop.is_set():
                raise Interrupted
            value = self.choose(game, pos, "impossible", time_limit=budget, stop=stop)
            if stop is not None and stop.is_set():
                raise Interrupted
            if value is None:  # pragma: no cover - the position was checked above
                raise ProtocolError("the game is over")
            move, note, line = value.raw, _value_words(value), value.line
        point = _point(game.cell(pos, move))
        elapsed = self.clock() - received
        self.stones = {**stones, point: OWN}
        self.spent += elapsed
        return [f"MESSAGE {note}{self._search_fields(pos, move, line, elapsed)}", str(point)]

    def _search_fields(self, pos: Any, move: Any, line: tuple[str, ...], elapsed: float) -> str:
        """The line in the game's notation, then the fields tournament tools
        read: ``tm`` (milliseconds) and ``pv``, the line as Gomocup points."""
        game = self.game
        assert game is not None
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
    """Lines read and not yet handled.

    ``stop`` is set while ``END`` is the next line waiting: the search of the
    command being handled ends at once, and its answer is never written (the
    protocol allows no output after ``END``). An ``END`` further back waits
    its turn like any other line."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self._lines: deque[str | None] = deque()
        self._ready = threading.Condition()

    def put(self, lines: Iterable[str | None]) -> None:
        """Add lines at once (None: the input has ended)."""
        with self._ready:
            self._lines.extend(lines)
            self._mark_end()
            self._ready.notify()

    def take(self) -> str | None:
        """The next line, waiting for one (None: no more)."""
        with self._ready:
            while not self._lines:
                self._ready.wait()
            line = self._lines.popleft()
            if line is not None:
                self.stop.clear()
                self._mark_end()
            return line

    def _mark_end(self) -> None:
        head = self._lines[0] if self._lines else None
        if head is not None and head.strip().upper() == "END":
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
                inbox.put([raw.decode("utf-8", errors="replace") for raw in batch])
        except (OSError, ValueError):  # input closed under us: as the end of input
            pass
        finally:
            inbox.put([None])

    threading.Thread(target=read, name="gomocup-reader", daemon=True).start()
    while not brain.finished:
        line = inbox.take()
        if line is None:
            break
        try:
            # The move's clock starts now: a manager sends the next command
            # only once answered, so it has not waited (piped lines may have).
            answer = brain.handle(line, brain.clock(), inbox.stop)
        except Interrupted:
            break
        except Exception as exc:  # a bug: say so and keep playing, never a traceback
            answer = [_error(f"internal error ({type(exc).__name__}: {exc})")]
        if answer:
            stdout.write("".join(f"{text}\n" for text in answer))
            stdout.flush()
    return 0


def run() -> int:
    """Serve standard input and output; the exit code."""
    try:
        return serve(sys.stdin.buffer, sys.stdout)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the manager has gone
        from unbeatable.cli import _quiet_exit

        _quiet_exit()
        return 0  # pragma: no cover - _quiet_exit raises


def main() -> None:
    """Entry point of the ``pbrain-unbeatable`` console script."""
    raise SystemExit(run())


if __name__ == "__main__":  # python -m unbeatable.cli.brain
    main()
