"""Opening a store's database, the one way `build_app` and `loci migrate` both do: its tables
(the engine's and every toolset's) brought up to date, and the hooks that make derived rows
commit with what they follow (on PostgreSQL, the keyword postings of memories, sequences and
story passages alike)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from loci import toolsets as registry
from loci.access.schema import ACCESS_SCHEMA
from loci.storage.databases.db import BeforeCommit, Database
from loci.storage.databases.receipts import RECEIPTS_SCHEMA
from loci.storage.databases.schema import Schema
from loci.storage.databases.sqlite import SqliteDatabase
from loci.storage.memory_tables import sequence_documents as documents
from loci.storage.memory_tables.schema import MEMORY_SCHEMA

if TYPE_CHECKING:
    from loci.settings import Settings
    from loci.storage.databases.postgres.database import PostgresDatabase
    from loci.storage.indexes.keywords.postgres import KeywordPostings
    from loci.storage.indexes.keywords.postgres_memories import PgKeywords


def schemas() -> tuple[Schema, ...]:
    """Every owner's tables, in the order their migrations run: the engine's (memories,
    receipts of keyed writes, access tokens), then each toolset's, in registry order."""
    owned = (toolset.tables() for toolset in registry.TOOLSETS)
    return (MEMORY_SCHEMA, RECEIPTS_SCHEMA, ACCESS_SCHEMA, *(s for s in owned if s is not None))


@dataclass(frozen=True)
class PostgresParts:
    """What searches a PostgreSQL store needs of its opening: the database as such (its
    indexes are PostgreSQL's), the keyword postings its writes keep in step (memories,
    sequences and story passages), and the memories' keyword index over them."""

    db: PostgresDatabase
    postings: KeywordPostings
    memory_keywords: PgKeywords


@dataclass(frozen=True)
class OpenedDatabase:
    """A store's database, and on PostgreSQL what searching it needs (None on SQLite, whose
    keyword indexes are FTS5 tables kept by the database itself)."""

    db: Database
    postgres: PostgresParts | None = None


def location(settings: Settings) -> Path | str:
    """Where the settings put the store: the data folder's SQLite file, or a PostgreSQL URL."""
    url = settings.database_url
    return settings.database_path if url is None else url.get_secret_value()


def open_database(
    where: Path | str,
    busy_timeout_seconds: float | None = None,
    claims: Sequence[BeforeCommit] = (),
) -> OpenedDatabase:
    """The database at `where`: a SQLite file, or a PostgreSQL URL (str). `claims` run before
    every commit, ahead of the hooks of derived rows (a keyed write's receipt commits with
    it)."""
    if isinstance(where, Path):
        timeout = (
            {} if busy_timeout_seconds is None else {"busy_timeout_seconds": busy_timeout_seconds}
        )
        # A sequence's keyword document follows its memories.
        hooks = (*claims, documents.refresh_stale)
        db = SqliteDatabase(where, schemas=schemas(), before_commit=hooks, **timeout)
        return OpenedDatabase(db)
    from loci.storage.databases.postgres import require_driver

    require_driver()
    from loci.storage.databases.postgres.database import PostgresDatabase
    from loci.storage.indexes.keywords.postgres import KeywordPostings
    from loci.storage.indexes.keywords.postgres_memories import MEMORY_CORPORA, PgKeywords

    postings = KeywordPostings(MEMORY_CORPORA)
    keywords = PgKeywords(postings)
    # Sequence documents follow their memories, and keyword postings their texts.
    hooks = (*claims, keywords.refresh_sequences, postings.refresh_stale)
    timeout = (
        {} if busy_timeout_seconds is None else {"connect_timeout_seconds": busy_timeout_seconds}
    )
    pg = PostgresDatabase(where, schemas=schemas(), before_commit=hooks, **timeout)
    return OpenedDatabase(pg, PostgresParts(pg, postings, keywords))
