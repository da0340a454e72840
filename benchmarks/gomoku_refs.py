"""Reference opponents for the Gomoku benchmarks, driven from outside.

Neither opponent is part of this project or installed with it; both are built
outside the repository (``benchmarks/README.md``, "Gomoku: strength" says
how) and found at the paths below unless the scripts' options say otherwise:

* Rapfi, a Gomocup tournament engine, spoken to over the Gomocup protocol
  (:class:`GomocupEngine`; the same class drives ``pbrain-unbeatable``);
* PyPI ``gomokubench``'s search engine, run in its own virtual environment by
  ``gomoku_gomokubench_adapter.py`` (:class:`GomokuBench`).

Cells are numbered row-major from the top-left (row 0 at the top), as the
project's m,n,k rules number them; the helpers convert to the project's
notation (``h8``: a column letter, a row number from the bottom), to
Gomocup's ``x,y`` (column, row from the top) and to gomokubench's
``row,column``. Every read from another process has a time limit: an engine
that says nothing raises :class:`EngineError` instead of hanging the run.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

SIZE = 15
#: Where the opponents are built by default (outside the repository).
REFS = Path(os.environ.get("UNBEATABLE_REFS", "/work/refs"))
RAPFI = REFS / "rapfi" / "Rapfi" / "build" / "pbrain-rapfi"
GOMOKUBENCH_PYTHON = REFS / "gomokubench-venv" / "bin" / "python"
ADAPTER = Path(__file__).resolve().with_name("gomoku_gomokubench_adapter.py")
#: Gomocup's ``INFO rule`` number of each rule set Rapfi and the project both play.
RAPFI_RULES = {"freestyle": 0, "standard": 1, "renju": 4}
#: Rapfi's settings for no clock at all: its moves then end at ``max_depth``.
UNTIMED = [("timeout_match", 0), ("timeout_turn", 0)]
#: The project's name of each rule set's 15x15 game.
GAMES = {"freestyle": "gomoku", "standard": "gomoku:standard,15", "renju": "renju"}
HOW_TO_BUILD = 'see benchmarks/README.md, section "Gomoku: strength", for how to build it'

_MOVE_LINE = re.compile(r"(\d+),(\d+)")
_EVAL = re.compile(r"\bEval (\S+)")
_DEPTH_LINE = re.compile(r"^Depth (\d+)-\d+ \| Eval (\S+) \| Time \S+ \| ([A-Z0-9 ]*)$")
_PV_MOVE = re.compile(r"([A-Z])(\d+)")


class OpponentMissing(Exception):
    """An opponent's program is not where the options say (the message says
    where it was looked for and how to build it)."""


class EngineError(Exception):
    """Another program misbehaved: no answer in time, an error, or it died."""


# -- coordinates ---------------------------------------------------------------


def notation(cell: int, size: int = SIZE) -> str:
    """The project's name of a cell: ``h8`` is column h, row 8 from the bottom."""
    row, column = divmod(cell, size)
    return f"{chr(ord('a') + column)}{size - row}"


def from_notation(text: str, size: int = SIZE) -> int:
    """The cell named ``text`` (``h8``); raises ValueError if it is not one."""
    text = text.strip().lower()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        raise ValueError(f"bad move {text!r}: expected a column letter and a row number")
    column, number = ord(text[0]) - ord("a"), int(text[1:])
    if not (0 <= column < size and 1 <= number <= size):
        raise ValueError(f"{text!r} is off the {size}x{size} board")
    return (size - number) * size + column


def gomocup(cell: int, size: int = SIZE) -> str:
    """Gomocup's ``x,y`` of a cell (column, row from the top, from 0)."""
    row, column = divmod(cell, size)
    return f"{column},{row}"


def from_gomocup(x: int, y: int, size: int = SIZE) -> int:
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"{x},{y} is off the {size}x{size} board")
    return y * size + x


# -- Rapfi's evaluations -----------------------------------------------------------


class Eval(NamedTuple):
    """A search value as Rapfi prints it, for the side to move: ``+M9`` is a
    proved win whose fifth stone is placed 9 plies from now (the side to
    move's 5th move), ``-M8`` a proved loss in 8 plies, anything else a
    heuristic score."""

    text: str

    @property
    def mate(self) -> int | None:
        """Plies to a proved end: positive for a win, negative for a loss,
        None when nothing is proved (``+M*`` from a database has no
        distance and counts as unproved here)."""
        m = re.fullmatch(r"([+-])M(\d+)", self.text)
        if m is None:
            return None
        plies = int(m.group(2))
        return plies if m.group(1) == "+" else -plies

    @property
    def wins(self) -> bool:
        return (self.mate or 0) > 0

    @property
    def loses(self) -> bool:
        return (self.mate or 0) < 0


class Reply(NamedTuple):
    """An engine's move with what it said while searching."""

    cell: int
    seconds: float
    messages: tuple[str, ...]

    @property
    def eval(self) -> Eval | None:
        """The last value the engine printed (Rapfi: its final ``Eval``)."""
        for message in reversed(self.messages):
            found = _EVAL.search(message)
            if found:
                return Eval(found.group(1))
        return None

    @property
    def depth(self) -> int | None:
        """The deepest iteration Rapfi finished."""
        for message in reversed(self.messages):
            found = _DEPTH_LINE.match(message)
            if found:
                return int(found.group(1))
        return None

    def pv(self, size: int = SIZE) -> list[int]:
        """Rapfi's principal variation at its deepest finished iteration
        (``H8I9``: a column letter from A, a row number from 1 at the top,
        since Rapfi is run with ``coord_conversion_mode = "none"``)."""
        for message in reversed(self.messages):
            found = _DEPTH_LINE.match(message)
            if found:
                return [
                    (int(number) - 1) * size + ord(letter) - ord("A")
                    for letter, number in _PV_MOVE.findall(found.group(3))
                ]
        return []


# -- a Gomocup brain ---------------------------------------------------------------


class GomocupEngine:
    """A ``pbrain-*`` program over the Gomocup protocol.

    Every move is asked for with ``BOARD`` (the whole game so far, in order,
    each stone marked as the brain's own or the opponent's), so one process
    can play either colour and start from any position. ``settings`` are
    sent as ``INFO key value`` once, after ``START``; ``clear`` is a command
    sent before each game to forget what earlier games taught the engine
    (Rapfi: ``YXHASHCLEAR``), so that games are reproducible.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str,
        size: int = SIZE,
        settings: Sequence[tuple[str, int]] = (),
        clear: str | None = None,
        stop: str | None = None,
        start_timeout: float = 30.0,
    ) -> None:
        self.name, self.size, self.clear, self.stop = name, size, clear, stop
        try:
            self.process = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise OpponentMissing(f"{name}: cannot run {command[0]}: {error}") from error
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.send(f"START {size}")
        self._expect_ok(start_timeout)
        for key, value in settings:
            self.send(f"INFO {key} {value}")

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.strip())
        self._lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except OSError as error:
            raise EngineError(f"{self.name} has stopped ({error})") from error

    def _read(self, deadline: float) -> str:
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise TimeoutError from None
        if line is None:
            raise EngineError(f"{self.name} exited (code {self.process.wait()})")
        return line

    def _expect_ok(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._read(deadline)
            except TimeoutError:
                raise EngineError(f"{self.name} did not answer OK in {timeout:g} s") from None
            if line == "OK":
                return
            if line.startswith("ERROR"):
                raise EngineError(f"{self.name}: {line}")

    def _settle(self) -> None:
        """Wait until the brain reads commands again. Rapfi drops every
        command that arrives while it still counts itself as thinking, which
        it does for a moment after printing its move; ``ABOUT`` is answered
        (with a ``name=...`` line) only once it listens, so ask until it is."""
        for _ in range(40):
            self.send("ABOUT")
            deadline = time.monotonic() + 0.25
            while True:
                try:
                    line = self._read(deadline)
                except TimeoutError:
                    break
                if line.startswith("name="):
                    self._drain()
                    return
        raise EngineError(f"{self.name} did not answer ABOUT in 10 s")

    def _drain(self) -> None:
        """Drop what is already waiting (late messages, a repeated ABOUT's answer)."""
        time.sleep(0.01)
        while True:
            try:
                self._lines.get_nowait()
            except queue.Empty:
                return

    def new_game(self) -> None:
        self._settle()
        if self.clear:
            self.send(self.clear)
        self.send("RESTART")
        self._expect_ok(30.0)

    def move(self, moves: Sequence[int], timeout: float) -> Reply:
        """The brain's move after ``moves`` (black first), within ``timeout``
        seconds; past it the stop command (if any) gets 5 s more."""
        self._settle()
        own = len(moves) % 2
        lines = ["BOARD"]
        lines += [
            f"{gomocup(c, self.size)},{1 if i % 2 == own else 2}" for i, c in enumerate(moves)
        ]
        lines.append("DONE")
        start = time.monotonic()
        self.send("\n".join(lines))
        deadline = start + timeout
        stopped = False
        messages: list[str] = []
        while True:
            try:
                line = self._read(deadline)
            except TimeoutError:
                if self.stop and not stopped:
                    self.send(self.stop)
                    stopped, deadline = True, time.monotonic() + 5.0
                    continue
                raise EngineError(f"{self.name} gave no move in {timeout:g} s") from None
            if line.startswith("MESSAGE "):
                messages.append(line[len("MESSAGE ") :])
            elif line.startswith("ERROR"):
                raise EngineError(f"{self.name}: {line}")
            elif (found := _MOVE_LINE.fullmatch(line)) is not None:
                seconds = time.monotonic() - start
                cell = from_gomocup(int(found.group(1)), int(found.group(2)), self.size)
                if cell in moves:
                    raise EngineError(f"{self.name} played {notation(cell, self.size)}, taken")
                return Reply(cell, seconds, tuple(messages))
            # OK, DEBUG, INFO, SUGGEST, REALTIME and ABOUT's name=... lines
            # say nothing we need.

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send("END")
                self.process.wait(timeout=5)
            except (EngineError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def rapfi(
    path: Path,
    settings: Sequence[tuple[str, int]],
    size: int = SIZE,
) -> GomocupEngine:
    """Rapfi with its classical weights (``config.toml`` beside the binary),
    freestyle, one thread, and the given ``INFO`` settings."""
    if not path.is_file():
        raise OpponentMissing(f"Rapfi not found at {path}: {HOW_TO_BUILD}")
    if not (path.parent / "config.toml").is_file():
        raise OpponentMissing(f"Rapfi's config.toml is not beside {path}: {HOW_TO_BUILD}")
    base = [("rule", 0), ("thread_num", 1), ("max_memory", 64 << 20)]
    return GomocupEngine(
        [str(path)],
        name="Rapfi",
        size=size,
        settings=[*base, *settings],
        clear="YXHASHCLEAR",
        stop="YXSTOP",
    )


# -- gomokubench ------------------------------------------------------------------


class GomokuBench:
    """gomokubench's engine, asked through the adapter in its own environment."""

    def __init__(self, python: Path, size: int = SIZE) -> None:
        if not python.is_file():
            raise OpponentMissing(f"gomokubench's Python not found at {python}: {HOW_TO_BUILD}")
        self.size = size
        self.process = subprocess.Popen(
            [str(python), str(ADAPTER), "--size", str(size)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        first = self._read(60.0)
        if not first.startswith("READY"):
            self.close()
            raise OpponentMissing(f"gomokubench at {python}: {first} ({HOW_TO_BUILD})")
        self.version = first.removeprefix("READY ").strip()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.strip())
        self._lines.put(None)

    def _read(self, timeout: float) -> str:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"gomokubench gave no answer in {timeout:g} s") from None
        if line is None:
            raise EngineError(f"gomokubench's adapter exited (code {self.process.wait()})")
        return line

    def move(self, level: str, seed: int, moves: Sequence[int], timeout: float) -> Reply:
        text = " ".join(f"{c // self.size},{c % self.size}" for c in moves) or "-"
        start = time.monotonic()
        assert self.process.stdin is not None
        self.process.stdin.write(f"{level} {seed} {text}\n")
        self.process.stdin.flush()
        line = self._read(timeout)
        seconds = time.monotonic() - start
        found = _MOVE_LINE.fullmatch(line)
        if found is None:
            raise EngineError(f"gomokubench: {line}")
        row, column = int(found.group(1)), int(found.group(2))
        cell = row * self.size + column
        if not (0 <= row < self.size and 0 <= column < self.size) or cell in moves:
            raise EngineError(f"gomokubench played an illegal move {line}")
        return Reply(cell, seconds, ())

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
