"""The web view's defences in depth: a Content-Security-Policy that allows no inline script or
style (so text from memories, escaped by the templates, could not run even if it slipped
through) and no image from the view itself (a document shown in the view cannot make the
browser call the view's pages), no framing, no referrer to other sites (none at all would make
the browser hide the origin of the view's own forms); the Host a request must name; and the
checks a request that changes something must pass (its own origin, the session's form
token)."""

from __future__ import annotations

import hmac
from urllib.parse import parse_qsl

from starlette.requests import Request

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "cache-control": "no-store",
}
#: Where browsers ask for a site's icon when a page names none: the view answers it (so that
#: a visit is not logged as a refused request).
FAVICON_PATH = "/favicon.ico"
#: Query parameters that would carry a token in a URL (refused: URLs end up in logs and
#: browser history).
TOKEN_PARAMETERS = frozenset({"token", "access_token", "auth"})


def host_matches(host: str, patterns: list[str]) -> bool:
    """Whether the Host header `host` is one of `patterns`: `name:port` exactly, or `name:*`
    for the name with any port (digits only, or none): `127.0.0.1:*` does not admit
    `127.0.0.1:8765.evil.example`."""
    host = host.lower()
    for pattern in patterns:
        pattern = pattern.lower()
        if pattern.endswith(":*"):
            name, port = (host.rpartition(":")[0::2]) if _has_port(host) else (host, None)
            fits = port is None or (port.isdigit() and len(port) <= 5)
            if name == pattern[:-2] and fits:
                return True
        elif host == pattern:
            return True
    return False


def _has_port(host: str) -> bool:
    """Whether `host` ends with a port (`[::1]:8765` does, `[::1]` does not)."""
    return ":" in host.rpartition("]")[2]


def host_allowed(request: Request, allowed: list[str]) -> bool:
    """Whether the Host header names this server: a page of another site whose name was
    pointed at this address (DNS rebinding) is refused."""
    return host_matches(request.headers.get("host", ""), allowed)


def token_in(query: str) -> bool:
    """Whether a query string carries a token."""
    return any(name.lower() in TOKEN_PARAMETERS for name, _ in parse_qsl(query))


def same_origin(request: Request) -> bool:
    """Whether a request that changes something comes from the view's own pages: its Origin
    (or, without one, the browser's Sec-Fetch-Site) must say so."""
    origin = request.headers.get("origin")
    if origin is None:
        return request.headers.get("sec-fetch-site") == "same-origin"
    host = request.headers.get("host", "")
    return origin == f"{request.url.scheme}://{host}"


def form_token_matches(expected: str, presented: object) -> bool:
    """Whether a form carried the session's token (compared in constant time)."""
    return isinstance(presented, str) and hmac.compare_digest(
        expected.encode("utf-8"), presented.encode("utf-8")
    )
