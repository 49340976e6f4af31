"""Running the HTTP app under uvicorn: a deadline on request headers, and a shutdown on SIGTERM
or Ctrl-C that ends the event streams, finishes the requests in flight, closes the store and
exits 0."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Callable, Iterator
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from loci.errors import ConfigurationError
from loci.faces.http.app import build_http_app, check_exposure
from loci.faces.http.guard import Guard
from loci.settings import Settings


def serve_http(
    settings: Settings,
    starting: Callable[[], object] | None = None,
    listening: Callable[[Guard, Settings], object] | None = None,
) -> None:
    """Serve MCP (and the web view) over HTTP until SIGTERM or SIGINT; `starting` is called
    once the address is known to be free and the app is built, `listening` once the server
    accepts connections."""
    check_exposure(settings)  # a configuration error first: it stays one whatever the port
    check_port(settings.http_host, settings.http_port)
    guard = build_http_app(settings)
    if starting is not None:
        starting()
    config = uvicorn.Config(
        guard,
        host=settings.http_host,
        port=settings.http_port,
        http=DeadlineH11Protocol,
        lifespan="on",
        access_log=False,  # a URL can carry what must not be logged; the guard logs refusals
        log_level=settings.log_level.lower(),
        timeout_keep_alive=max(1, round(settings.http_read_timeout_seconds)),
        timeout_graceful_shutdown=max(1, round(settings.http_request_timeout_seconds)),
        server_header=False,
    )
    said = None if listening is None else lambda: listening(guard, settings)
    server = GracefulServer(config, guard, said)
    server.run()
    if not server.started:
        raise SystemExit(1)  # uvicorn has said why (the port is taken, say)


def check_port(host: str, port: int) -> None:
    """Refuse, with what to do, an address this process cannot listen on (taken, say)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        raise ConfigurationError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}; another server may be "
            "using it (choose another with --port or LOCI_HTTP_PORT)",
            setting="http_port",
        ) from None


class GracefulServer(uvicorn.Server):
    """uvicorn's Server that ends the event streams first when asked to stop and, having
    stopped, returns instead of raising the signal again (which would exit 143, not 0)."""

    def __init__(
        self,
        config: uvicorn.Config,
        guard: Guard,
        listening: Callable[[], object] | None = None,
    ) -> None:
        super().__init__(config)
        self.guard = guard
        self.listening = listening

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """Start as uvicorn does; then say the server is listening."""
        await super().startup(sockets)
        if self.started and self.listening is not None:
            self.listening()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Stop on SIGINT and SIGTERM; restore the previous handlers afterwards."""
        handled = (signal.SIGINT, signal.SIGTERM)
        original = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)

    async def shutdown(self, sockets: list[Any] | None = None) -> None:
        """End the event streams, then shut down as uvicorn does (requests in flight finish)."""
        self.guard.close_streams()
        await asyncio.sleep(0)  # the streams end before connections are waited for
        await super().shutdown(sockets)


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on a request's headers: a connection that has
    not sent them whole within the keep-alive timeout is closed (slow-loris), where uvicorn's own
    timer restarts with every byte received."""

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def data_received(self, data: bytes) -> None:
        self.conn.receive_data(data)
        self.handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self._unset_keepalive_if_required()  # the headers are in: the guard's limits apply
