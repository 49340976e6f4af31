"""The stdio transport, with an answer for every message the SDK cannot read.

The SDK's stdio transport parses each line with pydantic; a line it cannot parse (a lone
surrogate escape such as `\\ud800`, nesting deeper than its JSON reader goes, a message that is
not JSON-RPC, a batch) reaches the server as an exception, which the server drops without a
word, and the client waits for an answer that never comes. Here stdin keeps each line until the
message made of it is taken (the transport makes exactly one message or one failure of each
line, in order), so a failure is answered from its own line: a JSON-RPC error carrying the
request's id, or a null id when the line has none that can be written back. The reason is
logged as a warning.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from io import TextIOWrapper
from types import TracebackType
from typing import Any, BinaryIO, Self

import anyio
from mcp.server.stdio import stdio_server
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

log = logging.getLogger("loci.mcp")

#: What follows a top-level `"id"` key: a number or a JSON string.
_ID_VALUE = re.compile(r'\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')
RequestId = int | str
_NOT_JSON = object()


@asynccontextmanager
async def answering_stdio() -> AsyncIterator[
    tuple[ReadStream[SessionMessage | Exception], WriteStream[SessionMessage]]
]:
    """The SDK's stdio streams, reading past unreadable lines once they are answered."""
    stdin = KeptLines(_Unowned(sys.stdin.buffer))
    async with stdio_server(stdin=stdin) as (read_stream, write_stream):
        yield AnsweringReadStream(read_stream, write_stream, stdin.lines), write_stream


class _Unowned(TextIOWrapper):
    """stdin as UTF-8 text whose closing leaves the process's own stdin open."""

    def __init__(self, buffer: BinaryIO) -> None:
        super().__init__(buffer, encoding="utf-8", errors="replace")

    def close(self) -> None:
        with suppress(ValueError):
            self.detach()


class KeptLines(anyio.AsyncFile[str]):
    """An async text file that keeps each line it reads, in order, until it is taken."""

    def __init__(self, file: TextIOWrapper) -> None:
        super().__init__(file)
        self.lines: deque[str] = deque()

    async def readline(self) -> str:
        """The next line, kept as well."""
        line = await super().readline()
        if line:
            self.lines.append(line)
        return line


class AnsweringReadStream:
    """A read stream that answers the transport's parse failures instead of passing them on."""

    def __init__(
        self,
        inner: ReadStream[SessionMessage | Exception],
        replies: WriteStream[SessionMessage],
        lines: deque[str],
    ) -> None:
        self._inner = inner
        self._replies = replies
        self._lines = lines

    @property
    def last_context(self) -> Any:
        """The sender's context of the last message (the SDK's dispatcher restores it)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        """The next readable message."""
        while True:
            item = await self._inner.receive()
            line = self._lines.popleft() if self._lines else ""
            if not isinstance(item, Exception):
                return item
            for request_id, error in unreadable_message(line, item):
                await self._answer(request_id, error)

    async def _answer(self, request_id: RequestId | None, error: ErrorData) -> None:
        log.warning("answered request %r with error %d: %s", request_id, error.code, error.message)
        reply = JSONRPCError(jsonrpc="2.0", id=request_id, error=error)
        try:
            await self._replies.send(SessionMessage(reply))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            log.warning("could not answer request %r: the output is closed", request_id)

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        """Close the transport's stream."""
        await self._inner.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        await self.aclose()
        return None


def unreadable_message(line: str, failure: Exception) -> list[tuple[RequestId | None, ErrorData]]:
    """The answers owed for a line the transport could not read: one per request in it (a
    batch holds several), each with the request's id, or one with a null id when it has none
    that can be written back. A blank line is no message and is owed nothing."""
    if not line.strip():
        return []
    try:
        value: Any = json.loads(line)
    except (ValueError, RecursionError):
        value = _NOT_JSON
    if _is_parse_failure(failure):
        request_id = top_level_id(line) if value is _NOT_JSON else _usable_id(value)
        return [(request_id, ErrorData(code=PARSE_ERROR, message=_parse_problem(failure)))]
    if isinstance(value, list) and value:
        batch = ErrorData(
            code=INVALID_REQUEST,
            message="not a valid JSON-RPC request: a batch (a JSON array of messages) is not "
            "supported; send each message on its own line",
        )
        return [(_usable_id(part), batch) for part in value]
    problem = f"not a valid JSON-RPC request: {_first_error(failure)}"
    return [(_usable_id(value), ErrorData(code=INVALID_REQUEST, message=problem))]


def _is_parse_failure(failure: Exception) -> bool:
    """Whether the transport could not read the line as JSON at all."""
    if not isinstance(failure, ValidationError):
        return True
    return any(error["type"] == "json_invalid" for error in failure.errors(include_url=False))


def _usable_id(message: Any) -> RequestId | None:
    """The message's id if it is one JSON-RPC allows and it can be written back as UTF-8."""
    found = message.get("id") if isinstance(message, dict) else None
    if isinstance(found, bool) or not isinstance(found, int | str):
        return None
    return found if not isinstance(found, str) or _is_text(found) else None


def top_level_id(line: str) -> RequestId | None:
    """The value of the `"id"` key of the outermost JSON object on `line`, read by a scan
    that keeps no nesting stack (so no depth is too deep) and decodes no other string."""
    depth, in_string, escaped = 0, False, False
    for position, char in enumerate(line):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            if depth == 1 and line.startswith('"id"', position):
                value = _ID_VALUE.match(line, position + 4)
                if value is not None:
                    return _id_from(value.group(1))
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
    return None


def _id_from(token: str) -> RequestId | None:
    try:
        value = json.loads(token)
    except ValueError:
        return None
    return _usable_id({"id": value})


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _first_error(failure: Exception) -> str:
    if isinstance(failure, ValidationError):
        errors = failure.errors(include_url=False, include_input=False)
        if errors:
            where = ".".join(str(part) for part in errors[0]["loc"])
            return f"{where}: {errors[0]['msg']}" if where else errors[0]["msg"]
    return str(failure)


def _parse_problem(failure: Exception) -> str:
    """Why a line is not JSON the server can read, in words a client's author can act on."""
    detail = _first_error(failure)
    if "recursion limit" in detail:
        return f"parse error: the request nests too deep ({detail})"
    if "escape" in detail or "surrogate" in detail:
        return (
            "parse error: the request holds an escape that is not text, such as a lone "
            f"surrogate (\\ud800) ({detail})"
        )
    return f"parse error: {detail}"
