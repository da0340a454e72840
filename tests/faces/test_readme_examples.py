"""The README's examples run as shown, so that they cannot drift.

Every ``console`` block of README.md whose first line is a command (``$ ...``)
is run, command by command, in a shell at the top of the repository, with
``unbeatable`` and ``python`` taken from the Python running the tests; each
command's output must be what the block shows below it. ``…`` in the shown
output stands for anything within its line (a time, the rest of a JSON
object), and a line of ``…`` alone for any number of lines. A block preceded
by an ``<!-- not run: REASON -->`` comment is skipped (a server, a game that
waits for its player, an hour-long build); the test checks that every skipped
block says why. Every ``python`` block is run too, and a line such as
``expression  # 'c1'`` must give the value in its comment when that is a
Python literal.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: What the shown output uses for an elided stretch ("..." is a tic-tac-toe row).
ELIDED = "…"
#: Commands the test may run: the package's own, fed by printf at most.
RUNNABLE = re.compile(r"^(?:printf '[^']*' \| )?(?:unbeatable|\.venv/bin/python examples/)\S* ")
SKIP = re.compile(r"<!-- not run: (?P<reason>[^>]*\S)\s*-->\s*$")


class Block(NamedTuple):
    """A fenced block of the README: its language, first line number and text."""

    language: str
    line: int
    text: str
    #: Why it is not run (an ``<!-- not run: ... -->`` comment just above it).
    skip: str | None


def blocks() -> list[Block]:
    """Every fenced block of README.md, in order."""
    found: list[Block] = []
    lines = README.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[i])
        if fence is None:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        above = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        skip = SKIP.match(above)
        text = "\n".join(lines[i + 1 : end]) + "\n"
        found.append(Block(fence.group(1), i + 2, text, skip and skip.group("reason")))
        i = end + 1
    return found


def sessions() -> list[Block]:
    """The console blocks that show commands and their output."""
    return [b for b in blocks() if b.language == "console" and b.text.startswith("$ ")]


class Step(NamedTuple):
    command: str
    shown: str


def steps(block: Block) -> list[Step]:
    """A console block as commands, each with the output shown below it."""
    out: list[Step] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            out.append(Step(line[2:], ""))
        else:
            out[-1] = out[-1]._replace(shown=out[-1].shown + line + "\n")
    return out


def pattern(shown: str) -> re.Pattern[str]:
    """The output a command may print for ``shown``: literal but for ``…``."""
    parts = []
    for line in shown.splitlines():
        if line.strip() == ELIDED:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*?".join(re.escape(piece) for piece in line.split(ELIDED)) + "\n")
    return re.compile("".join(parts))


def run(command: str) -> subprocess.CompletedProcess[str]:
    """``command`` in a shell at the repository's top, with this Python's
    ``unbeatable`` and ``python`` (the README's ``.venv/bin/python``)."""
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    env.update({"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"})
    command = command.replace(".venv/bin/python ", f"{sys.executable} ")
    return subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def normalise(output: str) -> str:
    return "".join(line.rstrip() + "\n" for line in output.splitlines())


SESSIONS = sessions()


def test_the_readme_has_examples_to_check() -> None:
    run_blocks = [b for b in SESSIONS if b.skip is None]
    assert len(run_blocks) >= 8
    commands = [step.command for b in run_blocks for step in steps(b)]
    for name in ("analyze", "solve", "tree", "perft"):
        assert any(c.startswith(f"unbeatable {name} ") for c in commands), name
    assert any("examples/nim.py" in c for c in commands)


@pytest.mark.parametrize("block", SESSIONS, ids=[f"line {b.line}" for b in SESSIONS])
def test_console_examples_print_what_the_readme_shows(block: Block) -> None:
    if block.skip is not None:
        pytest.skip(block.skip)
    for step in steps(block):
        # Only the package's own commands run: anything else (pip, a server) must be marked.
        assert RUNNABLE.match(step.command), f"README line {block.line}: mark it <!-- not run: -->"
        result = run(step.command)  # its exit code may be 2: a bad line read from stdin
        printed = normalise(result.stdout)
        assert step.shown.strip() and pattern(step.shown).fullmatch(printed), (
            f"README line {block.line}: `{step.command}` printed\n{printed}\n"
            f"(and on stderr {result.stderr!r}) where the README shows\n{step.shown}"
        )


def _checks(source: str) -> list[tuple[int, str, object]]:
    """``(line, expression, value)`` for each ``expression  # literal`` line."""
    out = []
    for number, line in enumerate(source.splitlines(), 1):
        code, sep, comment = line.partition("  # ")
        if not sep or not code.strip():
            continue
        try:
            expression = ast.parse(code.strip(), mode="eval")
            value = ast.literal_eval(comment.strip())
        except (SyntaxError, ValueError):
            continue
        out.append((number, ast.unparse(expression), value))
    return out


PYTHON = [b for b in blocks() if b.language == "python"]


@pytest.mark.parametrize("block", PYTHON, ids=[f"line {b.line}" for b in PYTHON])
def test_python_examples_run_and_give_the_values_shown(block: Block) -> None:
    if block.skip is not None:
        pytest.skip(block.skip)
    namespace: dict[str, object] = {}
    exec(compile(block.text, f"README.md:{block.line}", "exec"), namespace)
    checks = _checks(block.text)
    assert checks, "no line states its value"
    for number, expression, value in checks:
        got = eval(expression, namespace)
        assert got == value, f"README line {block.line + number - 1}: {expression} is {got!r}"


def test_the_elision_marks_only_what_it_should() -> None:
    shown = "a1 … b2\n…\nlast xox/oox/...\n"
    assert pattern(shown).fullmatch("a1 then b2\nx\ny\nlast xox/oox/...\n")
    assert pattern(shown).fullmatch("a1  b2\nlast xox/oox/...\n")
    assert not pattern(shown).fullmatch("a1 b2\nlast xox/oox/abc\n")
    assert not pattern("a1 … b2\n").fullmatch("a1 x\nb2\n")
