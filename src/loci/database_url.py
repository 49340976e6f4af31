"""Database URLs as loci shows them: never with their password (settings, doctor, errors)."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

#: What stands for a password wherever a URL is shown.
MASK = "***"
SCHEMES = ("postgresql", "postgres")
_SECRET_PARAMETERS = frozenset({"password", "sslpassword"})
#: `password=...` in a key/value connection string (quoted or not).
_KEYWORD_SECRET = re.compile(r"\b(password|sslpassword)\s*=\s*('(?:[^'\\]|\\.)*'|\S+)")


def is_database_url(value: str) -> bool:
    """Whether `value` names a PostgreSQL database (a `postgresql://` URL)."""
    return urlsplit(value).scheme in SCHEMES


def masked(url: str) -> str:
    """`url` with its passwords replaced by `***` (in the authority and the query)."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        return _KEYWORD_SECRET.sub(lambda m: f"{m.group(1)}={MASK}", url)
    netloc = parts.netloc
    if "@" in netloc:
        credentials, _, hosts = netloc.rpartition("@")
        user, colon, _password = credentials.partition(":")
        netloc = f"{user}{':' + MASK if colon else ''}@{hosts}"
    query = urlencode(
        [
            (key, MASK if key in _SECRET_PARAMETERS else value)
            for key, value in parse_qsl(parts.query, keep_blank_values=True)
        ],
        safe="/*",
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
