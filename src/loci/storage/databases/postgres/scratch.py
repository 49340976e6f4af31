"""A schema of its own in a PostgreSQL database, for work that must start from an empty store
and leave nothing behind (an evaluation run against a team's database)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from psycopg import sql

from loci.database_url import masked
from loci.storage.databases.postgres.connect import CONNECT_TIMEOUT_SECONDS, connect
from loci.storage.databases.postgres.failures import translated


@contextmanager
def scratch_schema(url: str, prefix: str = "loci_scratch") -> Iterator[str]:
    """A new schema in the database at `url`, dropped with everything in it afterwards;
    yields `url` with that schema first on its search path (pgvector's type stays found in
    `public`)."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    with connect(url, CONNECT_TIMEOUT_SECONDS) as admin, translated(masked(url)):
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
    try:
        yield _with_search_path(url, f"{name},public")
    finally:
        with connect(url, CONNECT_TIMEOUT_SECONDS) as admin, translated(masked(url)):
            admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(name)))


def _with_search_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "options"]
    query.append(("options", f"-csearch_path={path}"))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), parts.fragment))
