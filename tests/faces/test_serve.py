"""`unbeatable serve` as a user runs it: it prints what the README shows and
nothing else (uvicorn's own log only when asked with ``--log-level``), a port
in use is one line on stderr, and Ctrl+C stops it quietly."""

from __future__ import annotations

import logging
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/")


def documented_output() -> list[str]:
    """The lines the README's serve example shows after the command."""
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ unbeatable serve\n(.*?)```", text, re.DOTALL)
    assert block, "the README shows `unbeatable serve` in a console block"
    return block.group(1).splitlines()


def serve_once(*options: str) -> tuple[list[str], list[str], int]:
    """Start ``unbeatable serve --port 0``, wait for its address, fetch ``/``
    once, press Ctrl+C; returns its standard output and error lines, with the
    chosen port written as the README's 8000, and its exit code."""
    server = subprocess.Popen(
        [sys.executable, "-m", "unbeatable", "serve", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        found = ADDRESS.search(first)
        assert found, f"no address in {first!r}"
        port = found.group(1)
        assert port != "0", "port 0 prints the port the system chose"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            assert page.status == 200 and b"<html" in page.read()
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()

    def lines(text: str) -> list[str]:
        return text.replace(f":{port}", ":8000").splitlines()

    return lines(first + out), lines(err), server.returncode


#: The line a start-up that compiles (or loads slowly) adds on stderr.
GETTING_READY = "unbeatable: getting the engines ready"


def test_serve_prints_only_the_documented_line() -> None:
    out, err, code = serve_once()
    assert out == documented_output()
    # (A start-up slower than WARM_UP_NOTE, a cold cache's, says why first.)
    assert [line for line in err if not line.startswith(GETTING_READY)] == []
    # Ctrl+C: stopped by the signal (as a shell reports it), with no traceback.
    assert code in (0, -signal.SIGINT, 128 + signal.SIGINT)


def test_log_level_info_shows_uvicorns_log_and_each_request() -> None:
    out, err, _code = serve_once("--log-level", "info")
    assert out[0] == documented_output()[0]
    log = "\n".join(out + err)  # uvicorn writes requests to stdout, the rest to stderr
    assert "Application startup complete" in log
    assert '"GET / HTTP/1.1" 200' in log


def test_a_busy_port_is_one_line_on_stderr() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "unbeatable", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert f"cannot listen on 127.0.0.1 port {port}" in result.stderr


def test_an_unknown_log_level_is_refused_in_one_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "unbeatable", "serve", "--log-level", "loud"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "'loud' is not one of" in result.stderr


@pytest.mark.parametrize("level", ["loud", "INFO"])
def test_serve_refuses_a_log_level_uvicorn_does_not_know(level: str) -> None:
    from unbeatable.web import serve

    with pytest.raises(ValueError, match="log_level must be one of"):
        serve(port=0, log_level=level)


def test_a_slow_start_up_says_why_the_page_waits(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import time

    from fastapi.testclient import TestClient

    from unbeatable.web import app as web_app

    def notes() -> list[logging.LogRecord]:
        prefix = GETTING_READY.removeprefix("unbeatable: ")
        return [
            r
            for r in caplog.records
            if r.name == "unbeatable.web" and r.getMessage().startswith(prefix)
        ]

    # The stand-in start-up lasts until the note is heard (or a deadline no
    # machine misses): a fixed sleep raced the note's timer on a loaded one.
    def slow_warm_up() -> None:
        deadline = time.monotonic() + 60
        while not notes() and time.monotonic() < deadline:
            time.sleep(0.01)

    monkeypatch.setattr(web_app, "WARM_UP_NOTE", 0.05)
    monkeypatch.setattr(web_app, "_warm_up", slow_warm_up)
    # Timed from before the start-up begins (the record's own clock), since on a
    # loaded machine the note may fire before the warm-up's thread even starts.
    before = time.time()
    with caplog.at_level("INFO", logger="unbeatable"), TestClient(web_app.create_app()):
        pass
    assert len(notes()) == 1
    # said once the start-up took longer than WARM_UP_NOTE, not before
    assert notes()[0].created - before >= 0.05
    caplog.clear()
    # A warm start says nothing, not even after the note's time has passed (its
    # timer is cancelled). Judged only when the start-up itself was quicker than
    # the note: a loaded machine may take longer than that to start a thread.
    monkeypatch.setattr(web_app, "WARM_UP_NOTE", 1.0)
    monkeypatch.setattr(web_app, "_warm_up", lambda: None)
    with caplog.at_level("INFO", logger="unbeatable"):
        start = time.monotonic()
        with TestClient(web_app.create_app()):
            took = time.monotonic() - start
        time.sleep(max(0.0, start + 1.3 - time.monotonic()))
    if took < 1.0:
        assert not notes()
