"""The web view's defences in depth: a Content-Security-Policy that allows no inline script or
style (so text from memories, escaped by the templates, could not run even if it slipped
through), no framing, no referrer to other sites (none at all would make the browser hide the
origin of the view's own forms); and the checks a request that changes something must pass
(its own origin, the session's form token)."""

from __future__ import annotations

import fnmatch
import hmac

from starlette.requests import Request

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
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


def host_allowed(request: Request, allowed: list[str]) -> bool:
    """Whether the Host header names this server (patterns such as `127.0.0.1:*`): a page of
    another site whose name was pointed at this address (DNS rebinding) is refused."""
    host = request.headers.get("host", "")
    return any(fnmatch.fnmatchcase(host, pattern) for pattern in allowed)


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
