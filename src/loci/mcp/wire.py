"""The stdio transport, with an answer for every request the SDK cannot read.

The SDK's stdio transport parses each line with pydantic; a line it cannot parse (a lone
surrogate escape such as `\\ud800`, nesting deeper than its JSON reader goes, a message that is
not JSON-RPC) reaches the server as an exception, which the server drops without a word, and
the client waits for an answer that never comes. Here such a line is answered with a JSON-RPC
error carrying the request's id, found by a reader that takes what pydantic's refuses, and the
reason is logged as a warning. A line with no id to answer (a notification, or not JSON at all)
is only logged.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import TracebackType
from typing import Any, Self

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


@asynccontextmanager
async def answering_stdio() -> AsyncIterator[
    tuple[ReadStream[SessionMessage | Exception], WriteStream[SessionMessage]]
]:
    """The SDK's stdio streams, reading past unreadable lines once they are answered."""
    async with stdio_server() as (read_stream, write_stream):
        yield AnsweringReadStream(read_stream, write_stream), write_stream


class AnsweringReadStream:
    """A read stream that answers the transport's parse failures instead of passing them on."""

    def __init__(
        self, inner: ReadStream[SessionMessage | Exception], replies: WriteStream[SessionMessage]
    ) -> None:
        self._inner = inner
        self._replies = replies

    @property
    def last_context(self) -> Any:
        """The sender's context of the last message (the SDK's dispatcher restores it)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        """The next readable message."""
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            await self._answer(item)

    async def _answer(self, failure: Exception) -> None:
        request_id, error = unreadable_request(failure)
        if request_id is None:
            log.warning("ignored a message with no id to answer: %s", error.message)
            return
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


def unreadable_request(failure: Exception) -> tuple[RequestId | None, ErrorData]:
    """The id of the request a transport could not read (None if it has none), and the
    JSON-RPC error that tells the client why."""
    raw = _raw_input(failure)
    if isinstance(raw, str):
        return top_level_id(raw), ErrorData(code=PARSE_ERROR, message=_parse_problem(failure))
    found = raw.get("id") if isinstance(raw, dict) else None
    request_id = found if isinstance(found, int | str) and not isinstance(found, bool) else None
    problem = f"not a valid JSON-RPC request: {_first_error(failure)}"
    return request_id, ErrorData(code=INVALID_REQUEST, message=problem)


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
    if isinstance(value, str) and not _is_text(value):
        return None  # an id that cannot be written back as UTF-8
    return value if isinstance(value, int | str) else None


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _raw_input(failure: Exception) -> Any:
    """What the transport tried to read: the line, or the JSON value it parsed."""
    if isinstance(failure, ValidationError):
        for error in failure.errors(include_url=False):
            if "input" in error:
                return error["input"]
    return None


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
