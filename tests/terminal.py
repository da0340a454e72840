"""Driving a command in a pseudo-terminal and stopping it with Ctrl-C, as a
user at a terminal would (shared by the tests of long searches' progress)."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time


def interrupted_in_terminal(args: list[str], wait_for: bytes, seconds: float) -> str:
    """Run ``unbeatable ARGS`` on a terminal until it prints ``wait_for``
    (within ``seconds``), send it Ctrl-C, check that it ends at once with exit
    code 130, and return all it wrote."""
    leader, follower = pty.openpty()
    command = [sys.executable, "-m", "unbeatable", *args]
    process = subprocess.Popen(
        command, stdin=follower, stdout=follower, stderr=follower, close_fds=True
    )
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + seconds
    try:
        while wait_for not in seen:
            assert process.poll() is None, seen.decode(errors="replace")
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                seen += os.read(leader, 4096)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 130
        while select.select([leader], [], [], 0.2)[0]:
            try:
                seen += os.read(leader, 4096)
            except OSError:  # the terminal's other end has closed
                break
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)
    return seen.decode(errors="replace")
