"""The PostgreSQL engine (with pgvector): one database shared by every server of a team.

Needs the `postgres` extra (psycopg 3); nothing here that needs it is imported unless a
database URL is set, and every way in calls :func:`require_driver` first.
"""

from __future__ import annotations

from loci.errors import ConfigurationError

#: How to add the driver, from a clone of loci (the package is not published on PyPI).
INSTALL_DRIVER = (
    'pip install -e ".[postgres]" in loci\'s folder (or pip install "psycopg[binary]>=3.2")'
)


def require_driver() -> None:
    """Raise :class:`ConfigurationError` naming the extra to install when psycopg is missing
    (a plain install has no PostgreSQL driver: SQLite is the default)."""
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:  # missing, or installed without a libpq it can load
        raise ConfigurationError(
            f"a PostgreSQL database URL needs the PostgreSQL driver, which cannot be imported "
            f"({exc}): {INSTALL_DRIVER}",
            setting="database_url",
        ) from exc


#: What other parts of loci may import from here (the rest is this package's own).
__all__ = [
    "connect",
    "connection",
    "database",
    "failures",
    "readiness",
    "require_driver",
    "scratch",
    "vector_type",
]
