"""`loci serve` started by hand in a terminal says what it waits for; under a client it is quiet."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

pytestmark = pytest.mark.e2e

WAITS_FOR = b"waiting for an MCP client"


def serve(home: Path, stdin: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "loci", "serve"],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "LOCI_HOME": str(home)},
    )


def first_line(stream: IO[bytes] | None, timeout: float) -> bytes:
    """The first line written to `stream`, waiting at most `timeout` seconds for it."""
    assert stream is not None
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if ready else b""


def test_in_a_terminal_it_says_it_waits_for_a_client(tmp_path: Path) -> None:
    terminal, typist = pty.openpty()
    server = serve(tmp_path / "home", terminal)
    try:
        line = first_line(server.stderr, timeout=60)
    finally:
        server.kill()
        server.wait(timeout=30)
        os.close(terminal)
        os.close(typist)
    assert WAITS_FOR in line and b"loci config" in line
    assert str(tmp_path / "home").encode() in line


def test_under_a_client_it_says_nothing(tmp_path: Path) -> None:
    server = serve(tmp_path / "home", subprocess.PIPE)
    _, errors = server.communicate(input=b"", timeout=60)  # the client hangs up at once
    assert WAITS_FOR not in errors


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_stops_it_at_once_and_quietly(tmp_path: Path, sent: signal.Signals) -> None:
    """Ctrl-C used to wait for a line on standard input, and a second one printed a traceback."""
    terminal, typist = pty.openpty()
    server = serve(tmp_path / "home", terminal)
    try:
        assert WAITS_FOR in first_line(server.stderr, timeout=60)
        server.send_signal(sent)
        assert server.wait(timeout=60) == 0
        assert server.stderr is not None
        assert b"Traceback" not in server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()
        server.wait(timeout=30)
        os.close(terminal)
        os.close(typist)
