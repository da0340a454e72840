"""What the library and the command line say on stderr by themselves.

The library is quiet: getting an engine ready is a note at INFO on the
``unbeatable`` logger, which Python's last resort does not show, so a script
using it prints nothing it did not ask for. The faces show the notes (the
command line's one line while an engine compiles). And the command line's
"an exact answer ... can take long" comes only after a second of real
searching, never for a quick exact answer after a slow start.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from typing import Any

import pytest

from conftest import CliRun
from unbeatable import api
from unbeatable.cli import progress as cli_progress

#: Connect Four two stones from the end (column 1 takes both).
NEAR_END = "2552354151743427467645672467721166333352"
LONG = "can take long"


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_library_says_nothing_on_stderr_unless_asked() -> None:
    """Readying an engine always takes longer than READY_NOTE = 0: the note
    is made, at INFO, and heard only by a handler the script installs."""
    done = python(
        """
        import logging
        from unbeatable import api

        api.engines.READY_NOTE = 0.0
        api.warm("mnk:4,4,4")
        print(api.solve("mnk:4,4,4", "", time_limit=0.5).to_move)
        heard = []

        class Heard(logging.Handler):
            def emit(self, record):
                heard.append((record.levelname, record.getMessage()))

        logging.getLogger("unbeatable").addHandler(Heard())
        logging.getLogger("unbeatable").setLevel(logging.INFO)
        api.warm("mnk:5,5,4")
        for item in heard:
            print(item)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    first, *heard = done.stdout.splitlines()
    assert first == "x"
    assert len(heard) == 1 and heard[0].startswith("('INFO', \"getting the mnk:5,5,4 engine ready")


def test_the_command_line_says_in_one_line_that_an_engine_is_getting_ready() -> None:
    done = python(
        """
        from unbeatable import api
        from unbeatable.cli import main

        api.engines.READY_NOTE = 0.0
        main(["solve", "mnk:4,4,4", "x.../..../..../....", "--json"])
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("{")
    (line,) = done.stderr.splitlines()
    assert line.startswith("unbeatable: getting the mnk:4,4,4 engine ready (its kernels compile")
    assert "'unbeatable warm' does it ahead" in line


def test_the_server_shows_the_notes() -> None:
    from unbeatable.web import create_app

    create_app()
    shown = [h for h in api.log.handlers if isinstance(h, api.NoteLines)]
    assert shown == [api.show_notes()]  # installed once, however many apps


def test_a_quick_exact_answer_says_nothing_of_taking_long(run_cli: CliRun) -> None:
    for command in ("solve", "analyze"):
        code, out, err = run_cli(command, "connect4", NEAR_END, "--no-book")
        assert code == 0 and "x to move" in out, out
        assert LONG not in err, err


def test_a_slow_start_and_a_quick_search_say_nothing_of_taking_long(
    run_cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine takes longer than PATIENCE to start (loading its book, say:
    no report yet), then searches a moment: the note is owed to a second of
    searching, so it is not said. A search that goes on past PATIENCE after
    its first report is announced."""
    monkeypatch.setattr(cli_progress, "PATIENCE", 0.5)
    real = api.solve

    def start_slowly(searching: float) -> Any:
        def solve(*args: Any, progress: Any = None, **kwargs: Any) -> Any:
            time.sleep(0.8)  # starting: past PATIENCE, short of 3 x PATIENCE
            progress(api.Progress(100_000))  # the first slice searched
            time.sleep(searching)
            return real(*args, **kwargs)

        return solve

    monkeypatch.setattr(api, "solve", start_slowly(0.02))
    code, out, err = run_cli("solve", "connect4", NEAR_END)
    assert code == 0 and out and LONG not in err, err
    monkeypatch.setattr(api, "solve", start_slowly(1.5))
    code, out, err = run_cli("solve", "connect4", NEAR_END)
    assert code == 0 and out and LONG in err and "--time-limit 2" in err
