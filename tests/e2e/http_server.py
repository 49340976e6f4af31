"""A real `loci serve --transport http` process for tests, and plain HTTP requests to it."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from mcp import Client
from tests.e2e.conftest import INITIALIZE

START_SECONDS = 60.0


@dataclass
class Served:
    """A running HTTP server: its process, port, data folder and token; what it writes to
    standard error is read as it comes (a full pipe would stop the server)."""

    process: subprocess.Popen[str]
    port: int
    home: Path
    _stderr: list[str] = field(default_factory=list)
    _reader: threading.Thread | None = None

    def start_reading(self) -> None:
        def read() -> None:
            assert self.process.stderr is not None
            for line in self.process.stderr:
                self._stderr.append(line)

        self._reader = threading.Thread(target=read, daemon=True)
        self._reader.start()

    def said(self, words: str, seconds: float = START_SECONDS) -> bool:
        """Whether the server writes `words` to standard error within `seconds`."""
        deadline = time.monotonic() + seconds
        while words not in self.stderr():
            if time.monotonic() > deadline or self.process.poll() is not None:
                return words in self.stderr()
            time.sleep(0.05)  # polling what the reader thread collects, bounded by the deadline
        return True

    def stderr(self) -> str:
        """What the server wrote to standard error (all of it once it has exited)."""
        if self.process.poll() is not None and self._reader is not None:
            self._reader.join(30)
        return "".join(self._stderr)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    @property
    def token(self) -> str:
        return (self.home / "http-token").read_text(encoding="utf-8").strip()

    def request(
        self,
        method: str,
        path: str = "/mcp",
        body: object = None,
        headers: dict[str, str] | None = None,
        authorized: bool = True,
    ) -> tuple[int, dict[str, str], bytes]:
        """One plain HTTP request: (status, headers, body)."""
        sent = {"Accept": "application/json, text/event-stream", **(headers or {})}
        if authorized:
            sent.setdefault("Authorization", f"Bearer {self.token}")
        data = (
            None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
        )
        if data is not None:
            sent.setdefault("Content-Type", "application/json")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            return (
                response.status,
                {k.lower(): v for k, v in response.getheaders()},
                response.read(),
            )
        finally:
            connection.close()

    def stop(self, timeout: float = 60.0) -> int:
        """SIGTERM, then the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def http_server(home: Path, *args: str, healthy: bool = True, **env: str) -> Iterator[Served]:
    """`loci serve --transport http` on a free port, ready (its /healthz answers `ok`; any
    answer when not `healthy`: a server whose store is down)."""
    port = free_port()
    environment = {**os.environ, "LOCI_HOME": str(home), **env}
    process = subprocess.Popen(
        [sys.executable, "-m", "loci", "serve", "--transport", "http", "--port", str(port), *args],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    served = Served(process, port, home)
    served.start_reading()
    try:
        wait_until_healthy(served, healthy)
        yield served
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(30)
        served.stderr()


def wait_until_healthy(served: Served, healthy: bool = True) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if served.process.poll() is not None:
            raise AssertionError(f"loci serve exited: {served.stderr()}")
        try:
            if served.request("GET", "/healthz", authorized=False)[0] == 200 or not healthy:
                return
        except OSError:
            pass
        time.sleep(0.05)  # polling the port until the server listens, bounded by the deadline
    raise AssertionError("loci serve --transport http did not start")


@asynccontextmanager
async def http_client(served: Served, token: str | None = None, **options: Any) -> Any:
    """The MCP SDK's client over streamable HTTP, with the token (and `Client` options)."""
    headers = {"Authorization": f"Bearer {token or served.token}"}
    http = create_mcp_http_client(headers=headers)
    transport = streamable_http_client(served.url, http_client=http)
    async with http, Client(transport, **options) as client:
        yield client


def session_of(served: Served) -> str:
    """A new MCP session opened by a plain initialize request; its id."""
    status, headers, _ = served.request("POST", body=INITIALIZE)
    assert status == 200, status
    return headers["mcp-session-id"]
