"""The reference Connect Four solvers, built and run outside the repository.

Two references, compiled from their public sources into folders beside the
checkout (``UNBEATABLE_REFS``, default ``/work/refs``); nothing of them is
part of this project, and neither is needed by anything but the benchmarks:

* Pascal Pons' solver (github.com/PascalPons/connect4; clone it to
  ``pons-src``): the design ours started from, one thread, a table of about
  2^24 entries. Its board is a constant in ``Position.hpp``, so
  :func:`pons_build` copies the sources once per board (``pons-boards/WxH``,
  at most 9 columns: it reads a column as one digit) and compiles them with
  ``g++ -O3``, its own ``c4solver`` and, beside it, a small program of ours.
* Christophe Steininger's ``c4`` (github.com/ChristopheSteininger/c4; clone
  it to ``steininger``), the fastest open solver. Its board, its threads and
  its table are constants in ``src/solver/settings.h``, so
  :func:`steininger_build` copies the sources once per board and thread count
  (``steininger-boards/WxH-tN``), sets the first two (the table stays at its
  default, 1 GB) and builds with its own CMake preset (``cmake --preset
  optimise``, ``ninja -C out/optimise``: ``-O3 -flto``) its ``c4`` program and
  a small program of ours linked to its solver library.

The two small programs are ours (the C++ sources below), written against each
solver's public interface so that every solver is timed alike: they read one
position a line as Pons' sets write them (one column digit a move, from 1),
solve it strongly with one solver object (its table kept from one line to the
next, as ours is within a set) and print the score, the nodes the solver
counted and the solve's wall and CPU time (all threads) by the program's own
clocks (the process's start and the table's allocation left out, as they are
for ours). Scores need no conversion: all three score a win as one plus the
stones its winner would still have to play on a full board, ``(cells + 2 -
winning move) // 2``, and a loss as minus the opponent's.

A reference that is absent or cannot be built raises :class:`Unavailable`,
whose message says what is missing and how to get it; the scripts print it
and exit with status 2.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

REFS = Path(os.environ.get("UNBEATABLE_REFS", "/work/refs"))
PONS_SOURCE = REFS / "pons-src"
PONS_BUILDS = REFS / "pons-boards"
STEININGER_SOURCE = REFS / "steininger"
STEININGER_BUILDS = REFS / "steininger-boards"
#: Pons' solver takes a column as one digit, so at most 9 of them.
PONS_COLUMNS = 9
#: The name of our program in each build folder.
PROGRAM = "unbeatable_lines"
#: How Pons' Makefile compiles his solver.
_GXX = ["g++", "--std=c++11", "-O3", "-DNDEBUG"]

#: Ours, compiled against Pons' ``Solver.hpp`` in each of his build folders.
_PONS_PROGRAM = r"""// The unbeatable project's benchmark driver for Pascal Pons' solver.
// Reads one position a line (column digits from 1), writes one line each:
// score, nodes, and the solve's microseconds of wall and CPU time (all
// threads), or "invalid".
#include <chrono>
#include <ctime>
#include <iostream>
#include <string>

#include "Solver.hpp"

using GameSolver::Connect4::Position;
using GameSolver::Connect4::Solver;

int main() {
    Solver solver;
    std::cout << "# board " << Position::WIDTH << " x " << Position::HEIGHT << ", 1 thread"
              << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
        Position position;
        if (position.play(line) != line.size()) {
            std::cout << "invalid" << std::endl;
            continue;
        }
        unsigned long long nodes = solver.getNodeCount();
        std::clock_t cpu = std::clock();
        auto start = std::chrono::steady_clock::now();
        int score = solver.solve(position);
        auto spent = std::chrono::steady_clock::now() - start;
        cpu = std::clock() - cpu;
        std::cout << score << ' ' << solver.getNodeCount() - nodes << ' '
                  << std::chrono::duration_cast<std::chrono::microseconds>(spent).count() << ' '
                  << cpu * 1000000LL / CLOCKS_PER_SEC << std::endl;
    }
    return 0;
}
"""

#: Ours, linked to Steininger's solver library in each of his build folders.
_STEININGER_PROGRAM = r"""// The unbeatable project's benchmark driver for Steininger's solver.
// Reads one position a line (column digits from 1), writes one line each:
// score, nodes, and the solve's microseconds of wall and CPU time (all
// threads), or "invalid".
#include <chrono>
#include <ctime>
#include <iostream>
#include <string>

#include "solver/position.h"
#include "solver/settings.h"
#include "solver/solver.h"

int main() {
    Solver solver{};
    std::cout << "# " << solver.get_settings_string();
    std::string line;
    while (std::getline(std::cin, line)) {
        Position position{};
        bool valid = true;
        for (char digit : line) {
            int column = digit - '1';
            if (column < 0 || column >= BOARD_WIDTH || !position.is_move_valid(column)
                || position.is_game_over()) {
                valid = false;
                break;
            }
            position.move(column);
        }
        if (!valid) {
            std::cout << "invalid" << std::endl;
            continue;
        }
        unsigned long long nodes = solver.get_merged_stats().get_num_nodes();
        std::clock_t cpu = std::clock();
        auto start = std::chrono::steady_clock::now();
        int score = solver.solve_strong(position);
        auto spent = std::chrono::steady_clock::now() - start;
        cpu = std::clock() - cpu;
        std::cout << score << ' ' << solver.get_merged_stats().get_num_nodes() - nodes << ' '
                  << std::chrono::duration_cast<std::chrono::microseconds>(spent).count() << ' '
                  << cpu * 1000000LL / CLOCKS_PER_SEC << std::endl;
    }
    return 0;
}
"""


class Unavailable(Exception):
    """A reference that is not there or cannot be built (the message says
    what to do): the scripts exit with status 2 on it, not a traceback."""


class Failed(Exception):
    """A reference that ran but did not answer as expected."""


@dataclass(frozen=True)
class Run:
    """One solve by a reference: its score, the nodes it counted (each solver
    counts its own way, so node counts compare tree sizes only roughly), and
    the solve's wall and CPU seconds (all its threads) by its own clocks."""

    score: int
    nodes: int
    seconds: float
    cpu: float


@dataclass(frozen=True)
class Answers:
    """A reference's answers to a list of positions, one process for all."""

    runs: list[Run]
    #: The settings line our program printed first (board, threads, table).
    settings: str


def _needs(*tools: str) -> None:
    """Unavailable unless every build tool is on the path."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        raise Unavailable(f"building the references needs {', '.join(missing)} on the PATH")


def _write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` unless the file already holds it; whether it wrote."""
    if path.is_file() and path.read_text() == text:
        return False
    path.write_text(text)
    return True


def _compile(command: list[str], where: Path, log: Path, what: str) -> None:
    """Run one build step in ``where``, its output to ``log``."""
    with log.open("a") as sink:
        sink.write(f"$ {' '.join(command)}\n")
        sink.flush()
        if subprocess.run(command, cwd=where, stdout=sink, stderr=sink).returncode:
            raise Unavailable(f"building {what} failed: see {log}")


def pons_build(
    columns: int,
    rows: int,
    *,
    source: Path = PONS_SOURCE,
    builds: Path = PONS_BUILDS,
    program: bool = True,
) -> Path:
    """The folder of Pons' solver built for a board: its ``c4solver`` and,
    with ``program``, ours (:data:`PROGRAM`). Built once; our program again
    when its source here changes."""
    if columns > PONS_COLUMNS:
        raise Unavailable(f"Pons' solver takes at most {PONS_COLUMNS} columns, not {columns}")
    where = builds / f"{columns}x{rows}"
    if not (where / "c4solver").is_file():
        if not (source / "Position.hpp").is_file():
            raise Unavailable(
                f"no Pons sources at {source}: git clone "
                f"https://github.com/PascalPons/connect4 {source} (or name the folder "
                "with --pons-src)"
            )
        _needs("g++")
        where.mkdir(parents=True, exist_ok=True)
        for name in (
            "Position.hpp",
            "Solver.hpp",
            "Solver.cpp",
            "TranspositionTable.hpp",
            "MoveSorter.hpp",
            "OpeningBook.hpp",
            "main.cpp",
        ):
            shutil.copy(source / name, where / name)
        header = (where / "Position.hpp").read_text()
        header, n_width = re.subn(r"WIDTH = \d+;", f"WIDTH = {columns};", header)
        header, n_height = re.subn(r"HEIGHT = \d+;", f"HEIGHT = {rows};", header)
        if (n_width, n_height) != (1, 1):
            raise Unavailable(f"{source / 'Position.hpp'}: cannot find WIDTH and HEIGHT to set")
        (where / "Position.hpp").write_text(header)
        command = [*_GXX, "-o", "c4solver", "main.cpp", "Solver.cpp"]
        _compile(command, where, where / "build.log", "Pons' solver")
    if program:
        fresh = _write_if_changed(where / f"{PROGRAM}.cpp", _PONS_PROGRAM)
        if fresh or not (where / PROGRAM).is_file():
            _needs("g++")
            command = [*_GXX, "-o", PROGRAM, f"{PROGRAM}.cpp", "Solver.cpp"]
            _compile(command, where, where / "build.log", "our program for Pons' solver")
    return where


def steininger_build(
    columns: int,
    rows: int,
    threads: int,
    *,
    source: Path = STEININGER_SOURCE,
    builds: Path = STEININGER_BUILDS,
) -> Path:
    """The folder of Steininger's solver built for a board and a thread
    count: ``out/optimise/c4`` (his) and ``out/optimise/`` :data:`PROGRAM`
    (ours). Built once (a few minutes: link-time optimisation); our program
    again when its source here changes."""
    where = builds / f"{columns}x{rows}-t{threads}"
    out = where / "out" / "optimise"
    settings = where / "src" / "solver" / "settings.h"
    if not settings.is_file():
        if not (source / "src" / "solver" / "settings.h").is_file():
            raise Unavailable(
                f"no Steininger sources at {source}: git clone "
                f"https://github.com/ChristopheSteininger/c4 {source} (or name the folder "
                "with --steininger-src)"
            )
        # Set up beside it, then renamed: a folder that exists is configured.
        partial = where.with_name(where.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(source, partial, ignore=shutil.ignore_patterns(".git", "out"))
        copied = partial / "src" / "solver" / "settings.h"
        text = copied.read_text()
        for name, value in (
            ("BOARD_WIDTH", columns),
            ("BOARD_HEIGHT", rows),
            ("NUM_THREADS", threads),
        ):
            text, found = re.subn(rf"(int {name} = )\d+;", rf"\g<1>{value};", text)
            if found != 1:
                raise Unavailable(f"{source}/src/solver/settings.h: cannot find {name} to set")
        copied.write_text(text)
        partial.rename(where)
    fresh = _write_if_changed(where / "src" / f"{PROGRAM}.cpp", _STEININGER_PROGRAM)
    cmake = where / "CMakeLists.txt"
    if f"add_executable({PROGRAM} " not in cmake.read_text():
        with cmake.open("a") as lists:
            lists.write(
                f'\nadd_executable({PROGRAM} "${{CMAKE_SOURCE_DIR}}/src/{PROGRAM}.cpp")\n'
                f"target_link_libraries({PROGRAM} PRIVATE solver)\n"
            )
        fresh = True
    if fresh or not (out / "c4").is_file() or not (out / PROGRAM).is_file():
        _needs("cmake", "ninja", "g++")
        log = where / "build.log"
        if not (out / "build.ninja").is_file():
            _compile(["cmake", "--preset", "optimise"], where, log, "Steininger's solver")
        _compile(["ninja", "-C", "out/optimise", "c4", PROGRAM], where, log, "Steininger's solver")
    return where


def _answers(binary: Path, lines: list[str], expected: str, who: str) -> Answers:
    """Run our program at ``binary`` on ``lines``; check that its settings
    line starts with ``expected`` (the board and threads it was built for)."""
    done = subprocess.run(
        [str(binary)],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=binary.parent,  # no book or table file of the caller's folder
        env={**os.environ, "LC_ALL": "C"},  # plain numbers in its reports
    )
    if done.returncode:
        raise Failed(f"{who} exited with status {done.returncode}: {done.stderr.strip()[-500:]}")
    out = done.stdout.splitlines()
    if not out or not out[0].startswith("# "):
        raise Failed(f"{who} printed no settings line: {done.stdout[:200]!r}")
    settings = out[0][2:]
    if not settings.startswith(expected):
        raise Failed(f"{binary} was built for {settings!r}, not {expected!r}: delete its folder")
    runs = []
    for line, answer in zip(lines, out[1:], strict=False):
        fields = answer.split()
        if len(fields) != 4:
            raise Failed(f"{who} answered {answer!r} to {line!r}")
        score, nodes, wall, cpu = (int(field) for field in fields)
        runs.append(Run(score, nodes, wall / 1e6, cpu / 1e6))
    if len(runs) != len(lines):
        raise Failed(f"{who} answered {len(runs)} of {len(lines)} positions")
    return Answers(runs, settings)


def pons(where: Path, columns: int, rows: int, lines: list[str]) -> Answers:
    """Pons' solver (built at ``where`` by :func:`pons_build`) on positions in
    his notation, one process for all."""
    expected = f"board {columns} x {rows}, 1 thread"
    return _answers(where / PROGRAM, lines, expected, "our program for Pons' solver")


def steininger(where: Path, columns: int, rows: int, threads: int, lines: list[str]) -> Answers:
    """Steininger's solver (built at ``where`` by :func:`steininger_build`)
    on positions in Pons' notation, one process for all."""
    expected = f"Using a {columns} x {rows} board"
    binary = where / "out" / "optimise" / PROGRAM
    answers = _answers(binary, lines, expected, "Steininger's solver")
    if f"and {threads} threads" not in answers.settings:
        raise Failed(f"{where} was built for {answers.settings!r}, not {threads} threads")
    return answers
