"""Who is using the web view. The bearer token (or a named token) is presented once, on the
login form, and exchanged for a session: a random id in an HttpOnly, SameSite=Strict cookie,
with a token of its own for the forms (against cross-site requests). `loci ui` opens the view
with a one-time ticket instead, so that the token never sits in a URL or the browser's
history. Sessions live in the server's memory: a restart asks for the token again.

A session lasts as long as the token that opened it: a named token revoked, or the server's
token rotated (`loci token rotate`), ends it at its next request. The cookie's name carries
the port the browser reached the view on: cookies are kept per host name, not per port, so
two servers on one machine would otherwise overwrite each other's session."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from loci.access.grant import Grant

#: The start of the session cookie's name (the port follows: `cookie_name`).
SESSION_COOKIE = "loci_view"
#: A session unused this long ends (seconds).
IDLE_SECONDS = 12 * 3600.0
#: A ticket of `loci ui` must be used within this long (seconds).
TICKET_SECONDS = 120.0
#: Notices a session keeps for its next page at most (the oldest go first).
KEPT_NOTICES = 5


@dataclass
class ViewSession:
    """One browser's session: what it may do, the token its forms carry, and what its next
    page has to say."""

    grant: Grant | None  # None: every toolset and namespace, writes included
    presented: str | None  # a named token, looked up again at each request (revocation)
    opened_with: str | None = None  # the digest of the server's token it was opened with
    form_token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    seen: float = 0.0
    notices: list[str] = field(default_factory=list)

    def tell(self, notice: str) -> None:
        """Keep `notice` (the server's own words) for the session's next page."""
        self.notices = [*self.notices, notice][-KEPT_NOTICES:]

    def told(self) -> list[str]:
        """The notices kept for this page; the next page starts without them."""
        notices, self.notices = self.notices, []
        return notices


def cookie_name(port: int) -> str:
    """The session cookie's name for a view reached on `port`."""
    return f"{SESSION_COOKIE}_{port}"


def digest(token: str) -> str:
    """What a session keeps of the token that opened it (never the token)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same_digest(kept: str | None, token: str) -> bool:
    """Whether `token` is the one whose digest was `kept` (compared in constant time)."""
    return kept is not None and hmac.compare_digest(kept, digest(token))


class ViewSessions:
    """The view's sessions and `loci ui`'s one-time tickets, in this process's memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, ViewSession] = {}
        self._tickets: dict[str, float] = {}

    def open(
        self, grant: Grant | None, presented: str | None = None, opened_with: str | None = None
    ) -> str:
        """A new session's id."""
        session_id = secrets.token_urlsafe(32)
        with self._lock:
            self._sessions[session_id] = ViewSession(
                grant, presented, opened_with, seen=self._clock()
            )
        return session_id

    def get(self, session_id: str | None) -> ViewSession | None:
        """The live session of `session_id`, or None (unknown, or idle too long: ended)."""
        if not session_id:
            return None
        now = self._clock()
        with self._lock:
            found = self._sessions.get(session_id)
            if found is None or now - found.seen > IDLE_SECONDS:
                self._sessions.pop(session_id, None)
                return None
            found.seen = now
            return found

    def end(self, session_id: str | None) -> None:
        """End a session (logging out, or its token revoked or rotated)."""
        with self._lock:
            self._sessions.pop(session_id or "", None)

    def ticket(self) -> str:
        """A one-time ticket that opens an all-access session (for `loci ui`)."""
        ticket = secrets.token_urlsafe(32)
        with self._lock:
            self._tickets[ticket] = self._clock() + TICKET_SECONDS
        return ticket

    def redeem(self, ticket: str) -> bool:
        """Whether `ticket` is a live ticket; it is used up either way."""
        with self._lock:
            expires = self._tickets.pop(ticket, None)
        return expires is not None and self._clock() <= expires
