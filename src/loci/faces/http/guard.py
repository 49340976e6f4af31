"""What stands between the network and the MCP endpoint: the Host the request names, the
bearer token, the request body's size and pace, each session's requests in flight, and how
long a request may take.

Refusals are JSON-RPC error objects with an HTTP status, logged at warning level with the
method, path and reason only: never a header's value, the query string or the body.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

import anyio

from loci.access.grant import Grant
from loci.errors import LociError
from loci.faces.http.bearer import BearerToken
from loci.faces.mcp.client_log import SERVER_ONLY
from loci.faces.mcp.grants import GRANT_KEY
from loci.faces.web.security import FAVICON_PATH, host_matches, token_in

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
#: Looks a presented token up among the named ones: what it may do, or None.
GrantLookup = Callable[[str], Awaitable[Grant | None]]
#: Why a presented token that is not one is refused, when the store knows (it was revoked).
RevocationLookup = Callable[[str], Awaitable[str | None]]

HEALTH_PATH = "/healthz"
VIEW_PATH = "/ui"
#: JSON-RPC error code of refusals before the MCP layer (the SDK's own transport errors use it).
REFUSED = -32000
SESSION_HEADER = b"mcp-session-id"
log = logging.getLogger("loci.http")


@dataclass(frozen=True)
class Limits:
    """The bounds a request must keep."""

    max_body_bytes: int
    client_concurrency: int
    request_timeout: float
    read_timeout: float


class Guard:
    """ASGI middleware in front of the whole app (the health check passes through it)."""

    def __init__(
        self,
        app: ASGIApp,
        token: BearerToken | None,
        limits: Limits,
        grants: GrantLookup | None = None,
        view: ASGIApp | None = None,
        view_ticket: Callable[[], str] | None = None,
        allowed_hosts: list[str] | None = None,
        revocations: RevocationLookup | None = None,
    ) -> None:
        self.app = app
        self.view = view  # the web view (`/ui`): it checks its own session cookie and Host
        self.allowed_hosts = allowed_hosts  # None: any Host (the SDK's check then stands alone)
        self.view_ticket = view_ticket  # a one-time login ticket for the view (`loci ui`)
        self.token = token
        self.limits = limits
        self.grants = grants
        self.revocations = revocations
        self._in_flight: Counter[bytes] = Counter()
        self._closing: anyio.Event | None = None

    def close_streams(self) -> None:
        """End the open event streams (GET): a shutdown then waits only for real requests."""
        if self._closing is not None:
            self._closing.set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] == HEALTH_PATH:
            await self.app(scope, receive, send)
            return
        if self.view is not None and _in_view(scope["path"]):
            await self._request(scope, receive, send, self.view)
            return
        refusal = await self._refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        if scope["method"] == "GET":
            await self._stream(scope, receive, send)
            return
        key = _header(scope, SESSION_HEADER) or _peer(scope).encode()
        if self._in_flight[key] >= self.limits.client_concurrency:
            await _refuse(
                scope, send, 429, "too_many_requests",
                f"this session already has {self.limits.client_concurrency} requests in flight; "
                "wait for one to finish (LOCI_HTTP_CLIENT_CONCURRENCY)",
            )  # fmt: skip
            return
        self._in_flight[key] += 1
        try:
            await self._request(scope, receive, send)
        finally:
            self._in_flight[key] -= 1
            if not self._in_flight[key]:
                del self._in_flight[key]

    async def _refusal(
        self, scope: Scope
    ) -> Callable[[Scope, Receive, Send], Awaitable[None]] | None:
        """The answer to a request that may not go further, if it may not. A named token's
        grant is left in the scope for the MCP layer."""
        host = (_header(scope, b"host") or b"").decode("latin-1")
        if self.allowed_hosts is not None and not host_matches(host, self.allowed_hosts):
            # The SDK's own check admits `127.0.0.1:8765.evil.example` for `127.0.0.1:*`.
            return _refusing(421, "misdirected", "this server does not answer for that host name")
        query = scope.get("query_string", b"").decode("latin-1")
        if token_in(query):
            return _refusing(
                400, "token_in_url",
                "send the token in the Authorization header, never in the URL (URLs end up in "
                "logs and browser history); this one should now be rotated: `loci token rotate`",
            )  # fmt: skip
        if self.token is None:
            return None
        presented = _header(scope, b"authorization") or b""
        scheme, _, credential = presented.decode("latin-1").partition(" ")
        credential = credential.strip()
        bearer = scheme.lower() == "bearer"
        revoked = None
        try:
            matches = bearer and self.token.matches(credential)
            if not matches and bearer and self.grants is not None:
                grant = await self.grants(credential)
                matches = grant is not None
                scope[GRANT_KEY] = grant
            if not matches and bearer and self.revocations is not None:
                revoked = await self.revocations(credential)
        except LociError as exc:  # the token file or store cannot be read: nobody gets in
            return _refusing(503, "token_unreadable", exc.message)
        if not matches:
            why = "missing" if not presented else "wrong"
            return _refusing(
                401, "unauthorized",
                revoked or f"the bearer token is {why}: send 'Authorization: Bearer <token>' "
                "(`loci token show` prints it)",
                [(b"www-authenticate", b'Bearer realm="loci"')],
            )  # fmt: skip
        return None

    async def _request(
        self, scope: Scope, receive: Receive, send: Send, app: ASGIApp | None = None
    ) -> None:
        """Read the body within the limits, then let the app (the MCP endpoint unless another
        is given) answer within the time allowed."""
        body = await self._body(scope, receive, send)
        if body is None:
            return
        answer: list[Message] = []  # the response's start, then its last part, once sent

        async def replay() -> Message:
            nonlocal body
            if body is not None:
                message, body = {"type": "http.request", "body": body, "more_body": False}, None
                return message
            return await receive()

        async def tracked(message: Message) -> None:
            ends = message["type"] == "http.response.body" and not message.get("more_body")
            if message["type"] == "http.response.start" or ends:
                answer.append(message)
            await send(message)

        request_id = _request_id(body)
        with anyio.move_on_after(self.limits.request_timeout) as deadline:
            await (app or self.app)(scope, replay, tracked)
        if deadline.cancelled_caught and len(answer) < 2:  # not answered whole in time
            await self._too_late(scope, send, answer, request_id)

    async def _body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None once a refusal is sent (too large, too slow, gone)."""
        declared = _header(scope, b"content-length")
        if (
            declared is not None
            and declared.isdigit()
            and int(declared) > self.limits.max_body_bytes
        ):
            await _too_large(scope, send, self.limits.max_body_bytes)
            return None
        chunks: list[bytes] = []
        size = 0
        with anyio.move_on_after(self.limits.read_timeout) as deadline:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return None
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.limits.max_body_bytes:
                    await _too_large(scope, send, self.limits.max_body_bytes)
                    return None
                chunks.append(chunk)
                if not message.get("more_body", False):
                    return b"".join(chunks)
        assert deadline.cancelled_caught
        await _refuse(
            scope, send, 408, "request_timeout",
            f"the request body did not arrive within {self.limits.read_timeout:g} s",
        )  # fmt: skip
        return None

    async def _too_late(
        self, scope: Scope, send: Send, answer: list[Message], request_id: object
    ) -> None:
        message = (
            f"no answer within {self.limits.request_timeout:g} s "
            "(LOCI_HTTP_REQUEST_TIMEOUT_SECONDS); the work may still complete"
        )
        if not answer:
            await _refuse(scope, send, 504, "timeout", message)
            return
        log.warning(
            "answered too late (the event stream was ended) a request from %s",
            _peer(scope),
            extra=SERVER_ONLY,
        )
        headers = dict(answer[0].get("headers", []))
        body = b""
        if headers.get(b"content-type", b"").startswith(b"text/event-stream"):
            event = json.dumps(_error_object(request_id, "timeout", message))
            body = f"event: message\ndata: {event}\n\n".encode()
        await send({"type": "http.response.body", "body": body, "more_body": False})

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A GET event stream, ended when the server shuts down."""
        if self._closing is None:
            self._closing = anyio.Event()
        closing = self._closing
        async with anyio.create_task_group() as group:

            async def end_on_close() -> None:
                await closing.wait()
                group.cancel_scope.cancel()

            group.start_soon(end_on_close)
            await self.app(scope, receive, send)
            group.cancel_scope.cancel()


def _in_view(path: str) -> bool:
    return path in (VIEW_PATH, FAVICON_PATH) or path.startswith(VIEW_PATH + "/")


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value)
    return None


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "?"


def _request_id(body: bytes) -> object:
    try:
        message = json.loads(body)
    except ValueError:
        return None
    return message.get("id") if isinstance(message, dict) else None


def _error_object(request_id: object, kind: str, message: str) -> dict[str, Any]:
    error = {"code": REFUSED, "message": message, "data": {"type": kind}}
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


async def _too_large(scope: Scope, send: Send, limit: int) -> None:
    await _refuse(
        scope, send, 413, "body_too_large",
        f"the request body is over {limit} bytes (LOCI_HTTP_MAX_BODY_BYTES)",
    )  # fmt: skip


def _refusing(
    status: int, kind: str, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    async def answer(scope: Scope, receive: Receive, send: Send) -> None:
        del receive
        await _refuse(scope, send, status, kind, message, headers)

    return answer


async def _refuse(
    scope: Scope,
    send: Send,
    status: int,
    kind: str,
    message: str,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    # Never the path or other text the client chose: the log is read by people.
    log.warning("refused (%d %s) a request from %s", status, kind, _peer(scope), extra=SERVER_ONLY)
    body = json.dumps(_error_object(None, kind, message)).encode("utf-8")
    fields = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send(
        {"type": "http.response.start", "status": status, "headers": fields + (headers or [])}
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})
