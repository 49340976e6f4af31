"""`loci ui` as a real process: it serves on loopback, prints a link that lets one browser in
once (a session cookie for a one-time ticket, never the token), and stops on SIGTERM."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.http_server import START_SECONDS, free_port

pytestmark = pytest.mark.timeout(300)


def test_loci_ui_prints_a_one_time_link(home: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "loci", "ui", "--no-browser", "--port", str(port)],
        env={**os.environ, "LOCI_HOME": str(home)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        link = _link(process)
        assert link.startswith(f"http://127.0.0.1:{port}/ui/login?ticket=")
        token = (home / "http-token").read_text(encoding="utf-8").strip()
        assert token not in link
        first = _get(port, link.split(str(port), 1)[1])
        assert first.status == 303 and f"loci_view_{port}=" in (first.getheader("set-cookie") or "")
        assert _get(port, link.split(str(port), 1)[1]).status == 401  # used up
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(30)


def _link(process: subprocess.Popen[str]) -> str:
    """The link `loci ui` prints once it listens (bounded by the start deadline)."""
    deadline = time.monotonic() + START_SECONDS
    assert process.stderr is not None
    for line in process.stderr:
        found = re.search(r"(http://\S+/ui/login\S*)", line)
        if found:
            return found.group(1)
        assert time.monotonic() < deadline, "loci ui printed no link in time"
    raise AssertionError(f"loci ui exited with {process.wait(30)} before printing a link")


def _get(port: int, path: str) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response
