"""loci's log records sent to the client as `notifications/message` (the MCP logging capability).

A record logged while a request is handled (in the event loop or in the tool's worker thread,
which inherits the request's context) is sent before that request's answer; one logged outside
any request (the background warm-up, a line the transport could not read) is sent after the
next request's answer, unless it is logged with `SERVER_ONLY`. The client picks the lowest
level it wants with `logging/setLevel` (warning until it does); standard error keeps the
server's own level (`LOCI_LOG_LEVEL`).
"""

from __future__ import annotations

import logging
import warnings
from collections import deque
from contextvars import ContextVar
from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.types import EmptyResult, LoggingLevel, SetLevelRequestParams

#: The client's level names, lowest first, with the Python level each stands for.
CLIENT_LEVELS: dict[LoggingLevel, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO + 5,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL + 5,
    "emergency": logging.CRITICAL + 10,
}
#: Records kept for the next request when none is being handled (the oldest are dropped).
MAX_PENDING = 100
LOGGER = "loci"
#: `extra=` for a record that stays in the server's own log: over HTTP one server has many
#: clients, and what one client's request caused (a refusal) is not another client's business.
SERVER_ONLY: dict[str, object] = {"loci_server_only": True}

_request_records: ContextVar[list[logging.LogRecord] | None] = ContextVar(
    "loci_request_records", default=None
)


class ClientLog(logging.Handler):
    """A handler on the `loci` logger that forwards records to the client."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._pending: deque[logging.LogRecord] = deque(maxlen=MAX_PENDING)

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record for the request being handled, or for the next one (never one
        logged with `SERVER_ONLY`)."""
        if getattr(record, "loci_server_only", False):
            return
        records = _request_records.get()
        (self._pending if records is None else records).append(record)

    def attach(self) -> None:
        """Start forwarding: the `loci` logger gets this handler, and the handlers already on
        the root logger keep the level they print at when the client asks for more."""
        # The logging capability is deprecated by the 2026-07-28 protocol (which the SDK also
        # serves, delivering only what a request opts into); clients of earlier ones use it.
        warnings.filterwarnings(
            "ignore", message="The logging capability is deprecated", category=MCPDeprecationWarning
        )
        root = logging.getLogger()
        for handler in root.handlers:
            if handler.level == logging.NOTSET:
                handler.setLevel(root.getEffectiveLevel())
        logging.getLogger(LOGGER).addHandler(self)
        self._follow_client_level()

    def detach(self) -> None:
        """Stop forwarding."""
        logging.getLogger(LOGGER).removeHandler(self)

    async def set_level(
        self, ctx: ServerRequestContext[Any, Any], params: SetLevelRequestParams
    ) -> EmptyResult:
        """`logging/setLevel`: send records at `params.level` and above from now on."""
        del ctx
        self.setLevel(CLIENT_LEVELS[params.level])
        self._follow_client_level()
        return EmptyResult()

    async def middleware(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """Collect what a request logs and send it before its answer, with what was logged
        between requests."""
        if ctx.request_id is None or ctx.method == "initialize":
            return await call_next(ctx)
        records: list[logging.LogRecord] = []
        token = _request_records.set(records)
        try:
            return await call_next(ctx)
        finally:
            _request_records.reset(token)
            await self._send(ctx, [*self._drain_pending(), *records])

    def _drain_pending(self) -> list[logging.LogRecord]:
        drained: list[logging.LogRecord] = []
        while self._pending:
            drained.append(self._pending.popleft())
        return drained

    async def _send(
        self, ctx: ServerRequestContext[Any, Any], records: list[logging.LogRecord]
    ) -> None:
        for record in records:
            if record.levelno < self.level:
                continue
            try:
                await ctx.session.send_log_message(
                    client_level(record.levelno),
                    self.format(record),
                    logger=record.name,
                    related_request_id=ctx.request_id,
                )
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return  # the client is gone: nobody to tell

    def _follow_client_level(self) -> None:
        """Let the `loci` logger make records down to the client's level as well as the
        server's own."""
        server_level = logging.getLogger().getEffectiveLevel()
        logging.getLogger(LOGGER).setLevel(min(server_level, self.level))


def client_level(levelno: int) -> LoggingLevel:
    """The client's name for a Python level: the highest client level it reaches."""
    reached: LoggingLevel = "debug"
    for name, value in CLIENT_LEVELS.items():
        if levelno >= value:
            reached = name
    return reached
