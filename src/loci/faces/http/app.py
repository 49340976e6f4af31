"""The ASGI app `loci serve --transport http` runs: the SDK's streamable HTTP endpoint at
`/mcp` behind the guard, and `/healthz` for process managers."""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING, Any

from loci import __version__
from loci.errors import ConfigurationError, LociError
from loci.faces.http.bearer import BearerToken
from loci.faces.http.guard import HEALTH_PATH, GrantLookup, Guard, Limits, RevocationLookup
from loci.settings import HTTP_BODY_CEILING, Settings

if TYPE_CHECKING:
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.requests import Request
    from starlette.responses import Response

    from loci.access.grant import Grant
    from loci.engine.embedding import Embedder
    from loci.faces.mcp.server import LociServer

MCP_PATH = "/mcp"
LOOPBACK_HOSTS = ("127.0.0.1:*", "localhost:*", "[::1]:*")
LOOPBACK_ORIGINS = ("http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*")


def is_loopback(host: str) -> bool:
    """Whether binding `host` keeps the server reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_exposure(settings: Settings) -> None:
    """Refuse to serve without a token anywhere but on a loopback address."""
    if settings.http_auth == "none" and not is_loopback(settings.http_host):
        raise ConfigurationError(
            f"LOCI_HTTP_AUTH=none is allowed on a loopback address only, not on "
            f"{settings.http_host}: anyone who reaches the port could read and change the "
            "memory. Keep the token (the default) or bind 127.0.0.1.",
            setting="http_auth",
        )


def build_http_app(settings: Settings, embedder: Embedder | None = None) -> Guard:
    """The guarded ASGI app for `settings` (the token is made now if there is none)."""
    from starlette.responses import JSONResponse

    from loci.faces.mcp.server import build_server
    from loci.faces.web.app import build_view

    check_exposure(settings)
    token = BearerToken(settings.home) if settings.http_auth == "token" else None
    if token is not None:
        token.value()
    server = build_server(settings, embedder)
    # A long-lived server loads its store and model now: the first call need not wait, and
    # a store it cannot use (a database down, a wrong password) is said at the start.
    server.provider.warm_up_in_background()

    async def health(request: Request) -> Response:
        """`ok`, or 503 `unavailable` when the store cannot be reached (a database that is
        down), so that a process manager or load balancer sends clients elsewhere."""
        del request
        import anyio.to_thread

        try:
            await anyio.to_thread.run_sync(lambda: server.provider.app().db.data_version())
        except LociError as exc:
            problem = {"type": exc.code, "message": exc.message}
            return JSONResponse(
                {"status": "unavailable", "version": __version__, "error": problem},
                status_code=503,
            )
        return JSONResponse({"status": "ok", "version": __version__})

    server.custom_route(HEALTH_PATH, methods=["GET"])(health)

    app: Any = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        # The guard enforces the body limit, for /ui as for /mcp, before the SDK reads a byte:
        # the SDK's own check is set where it can never refuse first.
        max_request_body_size=HTTP_BODY_CEILING,
        session_idle_timeout=settings.http_session_idle_seconds,
        max_sessions=settings.http_max_sessions,
        transport_security=transport_security(settings),
        host=settings.http_host,
    )
    limits = Limits(
        max_body_bytes=settings.http_max_body_bytes,
        client_concurrency=settings.http_client_concurrency,
        request_timeout=settings.http_request_timeout_seconds,
        read_timeout=settings.http_read_timeout_seconds,
    )
    grants = named_grants(server) if token is not None else None
    security = transport_security(settings)
    view, frame = build_view(server.provider, token, grants, security.allowed_hosts)
    revocations = named_revocations(server) if token is not None else None
    return Guard(
        app,
        token,
        limits,
        grants,
        view,
        frame.sessions.ticket,
        security.allowed_hosts,
        revocations,
    )


def named_grants(server: LociServer) -> GrantLookup:
    """Looks presented tokens up among the store's named ones (in a worker thread: the store
    may be busy with a write)."""
    import anyio.to_thread

    async def lookup(presented: str) -> Grant | None:
        return await anyio.to_thread.run_sync(
            lambda: server.provider.app().access.grant_of(presented)
        )

    return lookup


def named_revocations(server: LociServer) -> RevocationLookup:
    """Says a presented token was revoked, when it was (so that its holder is not told to
    look for a typo)."""
    import anyio.to_thread

    def said(presented: str) -> str | None:
        found = server.provider.app().access.revocation(presented)
        if found is None:
            return None
        return (
            f"the token {found.name!r} was revoked on {found.revoked_at[:10]} "
            "(`loci token revoke`): ask the server's owner for a new one (`loci token create`)"
        )

    async def lookup(presented: str) -> str | None:
        return await anyio.to_thread.run_sync(lambda: said(presented))

    return lookup


def transport_security(settings: Settings) -> TransportSecuritySettings:
    """Host and Origin checks (DNS rebinding): loopback names, the bound address, and what the
    settings add."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = [*LOOPBACK_HOSTS, *settings.http_allowed_hosts]
    if not is_loopback(settings.http_host) and settings.http_host not in ("0.0.0.0", "::"):
        hosts.append(f"{settings.http_host}:*")
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[*LOOPBACK_ORIGINS, *settings.http_allowed_origins],
    )
