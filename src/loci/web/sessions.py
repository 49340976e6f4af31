"""Who is using the web view. The bearer token (or a named token) is presented once, on the
login form, and exchanged for a session: a random id in an HttpOnly, SameSite=Strict cookie,
with a token of its own for the forms (against cross-site requests). `loci ui` opens the view
with a one-time ticket instead, so that the token never sits in a URL or the browser's
history. Sessions live in the server's memory: a restart asks for the token again."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from loci.access.grant import Grant

#: The session cookie's name.
SESSION_COOKIE = "loci_view"
#: A session unused this long ends (seconds).
IDLE_SECONDS = 12 * 3600.0
#: A ticket of `loci ui` must be used within this long (seconds).
TICKET_SECONDS = 120.0


@dataclass
class ViewSession:
    """One browser's session: what it may do, and the token its forms carry."""

    grant: Grant | None  # None: every toolset and namespace, writes included
    presented: str | None  # a named token, looked up again at each request (revocation)
    form_token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    seen: float = 0.0


class ViewSessions:
    """The view's sessions and `loci ui`'s one-time tickets, in this process's memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, ViewSession] = {}
        self._tickets: dict[str, float] = {}

    def open(self, grant: Grant | None, presented: str | None = None) -> str:
        """A new session's id."""
        session_id = secrets.token_urlsafe(32)
        with self._lock:
            self._sessions[session_id] = ViewSession(grant, presented, seen=self._clock())
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
        """End a session (logging out, or a token revoked)."""
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
