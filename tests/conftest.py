"""Shared fixtures.

CLI: ``run_cli`` runs the ``unbeatable`` command in-process and returns its
exit code, standard output and standard error.

Web: ``web_client`` drives the app in-process (TestClient); ``live_server`` is a
real uvicorn server on a free loopback port, and ``browser`` Debian's Chromium,
for the browser tests (one of each per test process).
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from unbeatable.cli import main as cli_main
from unbeatable.web import create_app

# Tests send Ctrl-C (SIGINT) to the commands they start. A suite run as a
# shell's background job inherits SIGINT ignored, and so would those commands
# (Python leaves an ignored SIGINT ignored): they would never see it. The
# suite's own handler is reset to the default in every process it starts.
signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first (each group in its own order): the test workers
    then end on quick tests and finish together, not one waiting while the
    other runs a long test it took last. Where ``UNBEATABLE_TIMED_LIST``
    names a file, the timed tests' ids go there before ``-m`` leaves any
    out: ``.ci/run``'s second pass runs just those, and does not collect the
    whole suite again (15 s) to find them."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    listing = os.environ.get("UNBEATABLE_TIMED_LIST")
    if listing and os.environ.get("PYTEST_XDIST_WORKER", "gw0") == "gw0":
        timed = [item.nodeid for item in items if item.get_closest_marker("timed")]
        Path(listing).write_text("".join(f"{nodeid}\n" for nodeid in timed))


#: Connect Four budget in the web tests: enough for the solver, short enough
#: that no test waits long.
WEB_CONNECT4_SECONDS = 2.0


CliRun = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> CliRun:
    """Run ``unbeatable ARGV...``; returns (exit code, stdout, stderr)."""

    def run(*argv: str) -> tuple[int, str, str]:
        with pytest.raises(SystemExit) as exit_info:
            cli_main(list(argv))
        captured = capsys.readouterr()
        code = exit_info.value.code
        return (code if isinstance(code, int) else 1), captured.out, captured.err

    return run


@pytest.fixture(scope="module")
def web_client() -> Iterator[TestClient]:
    """The app behind an in-process client (lifespan run, so tables are warm),
    one per module: the app keeps no state of a request's that another reads
    (each answer is the library's), and its start costs 0.1 to 0.2 s."""
    app = create_app(time_limits={"connect4": WEB_CONNECT4_SECONDS})
    with TestClient(app) as client:
        yield client


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """Base URL of a real uvicorn server on 127.0.0.1, shared by the session."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(time_limits={"connect4": WEB_CONNECT4_SECONDS}),
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 180  # a cold numba cache compiles the solvers first
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test web server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright: launched once per
    test process (a launch costs a second or two), each test in tabs of its
    own. Playwright's event loop then runs in the main thread for the rest of
    the process: a test needing a loop of its own runs it on another thread."""
    from playwright import sync_api  # only the browser tests need it

    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
