"""The `loci` entry point. `loci serve` with no options starts the MCP server without loading the
command-line machinery (click and every command group): MCP clients start it for each window,
and this keeps its cold start close to a bare MCP server's."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from loci.faces.http.guard import Guard
    from loci.faces.mcp.server import LociServer
    from loci.settings import Settings

WAITING = (
    "loci is waiting for an MCP client on standard input (data folder {home}); MCP clients "
    "start `loci serve` themselves: `loci config claude|claude-code|cursor|vscode` prints "
    "what to add to yours. Ctrl-C stops it.\n"
)

SERVING = (
    "loci serves MCP at http://{s.http_host}:{s.http_port}/mcp (store {s.database_shown}; {auth}; "
    "health: /healthz; web view: /ui). `loci config cursor --http` prints a client snippet. "
    "Ctrl-C stops it.\n"
)


def main() -> None:
    """Console-script entry point."""
    if sys.argv[1:] == ["serve"]:
        serve_stdio(None, None)
        return
    from loci.faces.cli.main import main as command_line

    command_line()


def serve_stdio(config: Path | None, home: Path | None, database: str | None = None) -> None:
    """Serve MCP over stdio; a loci error (bad settings, say) exits with its code."""
    from loci.errors import LociError
    from loci.settings import load_settings

    overrides = {"home": home, "database_url": database}
    stopper = StdioStop()
    try:
        settings = load_settings(config, **{k: v for k, v in overrides.items() if v is not None})
        if sys.stdin.isatty():  # started by hand: say why nothing seems to happen
            sys.stderr.write(WAITING.format(home=settings.home))
        from loci.faces.mcp.server import build_server

        stopper.server = build_server(settings)
        stopper.server.run("stdio")
    except LociError as exc:
        sys.stderr.write(f"error ({exc.code}): {exc.message}\n")
        sys.exit(exc.exit_code)


class StdioStop:
    """Ctrl-C and SIGTERM stop the stdio server at once: the call in flight finishes, the store
    closes, and the process exits 0. The SDK's stdio transport reads standard input in a thread
    that cancelling cannot stop, so a plain Ctrl-C hung until a line came in and a second one
    ended in a traceback. A signal during that stop exits 130 without waiting; a store that
    fails to close exits 1, saying so."""

    def __init__(self) -> None:
        self.server: LociServer | None = None  # set once built; before, there is nothing to close
        self._stopping = False
        signal.signal(signal.SIGINT, self.stop)
        signal.signal(signal.SIGTERM, self.stop)

    def stop(self, signum: int, frame: object) -> None:
        """The signal handler."""
        if self._stopping:
            os._exit(130)
        self._stopping = True
        code = 0
        try:
            if self.server is not None:
                self.server.provider.close()
        except Exception as exc:  # noqa: BLE001 - said, and the exit code tells it
            sys.stderr.write(f"loci: the store did not close cleanly: {exc}\n")
            code = 1
        sys.stderr.flush()
        os._exit(code)  # a normal exit would wait for the stdin reader thread's line


def serve_over_http(
    config: Path | None,
    home: Path | None,
    host: str | None,
    port: int | None,
    database: str | None = None,
    listening: Callable[[Guard, Settings], object] | None = None,
) -> None:
    """Serve MCP (and the web view) over streamable HTTP; a loci error (bad settings, say)
    exits with its code. `listening` is called once the server accepts connections."""
    from loci.errors import LociError
    from loci.settings import load_settings

    overrides = {"home": home, "http_host": host, "http_port": port, "database_url": database}
    try:
        settings = load_settings(config, **{k: v for k, v in overrides.items() if v is not None})
        from loci.faces.http.serve import serve_http

        auth = "bearer token: `loci token show`" if settings.http_auth == "token" else "no token"
        started = lambda: sys.stderr.write(SERVING.format(s=settings, auth=auth))  # noqa: E731
        serve_http(settings, started, listening)
    except LociError as exc:
        sys.stderr.write(f"error ({exc.code}): {exc.message}\n")
        sys.exit(exc.exit_code)
