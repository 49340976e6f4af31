"""Opening a connection to the database a URL names.

The URL's parameters are checked first: a parameter libpq does not know (`?bogus=1`) is a
configuration error naming the setting, not a driver's traceback. A `connect_timeout` the URL
gives is kept (loci's own applies only when it gives none), and a server that cannot be
reached is a `storage_unavailable` error that names the URL with its password masked.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from loci.database_url import masked
from loci.errors import ConfigurationError
from loci.storage.databases.postgres.failures import translated

#: How long a connection of a command's own (not a server's) may take, when the URL says not.
CONNECT_TIMEOUT_SECONDS = 10.0


def connect(url: str, timeout_seconds: float, **options: Any) -> psycopg.Connection[Any]:
    """A new connection to `url` (autocommit unless `options` say otherwise), given up after
    the URL's `connect_timeout`, else after `timeout_seconds`."""
    parameters = url_parameters(url)
    if "connect_timeout" not in parameters:
        options["connect_timeout"] = max(1, round(timeout_seconds))
    options.setdefault("autocommit", True)
    options.setdefault("application_name", "loci")
    with translated(masked(url)):
        return psycopg.connect(url, **options)


def url_parameters(url: str) -> dict[str, Any]:
    """The connection parameters of `url`; a configuration error for a malformed one."""
    try:
        return conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise ConfigurationError(
            f"the database URL {masked(url)} is not valid: {str(exc).strip()}; every parameter must be "
            "one libpq knows (https://www.postgresql.org/docs/current/libpq-connect.html)",
            setting="database_url",
        ) from None
