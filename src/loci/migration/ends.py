"""The two ends of `loci migrate`: a data folder or a PostgreSQL database, opened as a
read-only source (a connection of its own that cannot write: an older store is refused, never
brought up to date) or, as `build_app` opens a store, as a target."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from loci.database_url import masked
from loci.errors import CheckpointCorruptedError, StorageUnavailableError
from loci.migration.move import Source, Target
from loci.storage.databases import schema
from loci.storage.databases.postgres import require_driver
from loci.store import OpenedDatabase, open_database, schemas
from loci.toolsets.checkpoints.blob_table import TableBlobs
from loci.toolsets.checkpoints.blobs import BlobStore, check_digest
from loci.toolsets.story import passage_keywords
from loci.toolsets.story.passage_keywords import PassageKeywords


@contextmanager
def folder_source(home: Path) -> Iterator[Source]:
    """The store of the data folder `home`, opened read-only."""
    path = home / "loci.db"
    if not path.is_file():
        raise StorageUnavailableError(f"there is no store in {home}", path=str(path))
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        if not schema.is_current(conn, schemas()):
            raise StorageUnavailableError(
                f"the store in {home} was written by an older loci: run `loci --home {home} "
                "doctor` once to bring its tables up to date, then migrate",
                path=str(path),
            )
        blobs = BlobStore(home / "checkpoints" / "blobs", root=home)
        yield Source(str(path), conn, lambda digest: blobs.get(digest, digest))
    finally:
        conn.close()


@contextmanager
def database_source(url: str) -> Iterator[Source]:
    """The store of the PostgreSQL database at `url`, read in read-only transactions."""
    require_driver()
    from loci.storage.databases.postgres.connect import CONNECT_TIMEOUT_SECONDS, connect
    from loci.storage.databases.postgres.connection import PgConnection
    from loci.storage.databases.postgres.failures import translated
    from loci.storage.databases.postgres.vector_type import register_vector_type

    raw = connect(url, CONNECT_TIMEOUT_SECONDS, options="-c default_transaction_read_only=on")
    with translated(masked(url)):
        register_vector_type(raw)
    conn = PgConnection(raw)
    try:
        yield Source(masked(url), conn, lambda digest: _database_blob(conn, digest))
    finally:
        raw.close()


@contextmanager
def database_target(url: str) -> Iterator[Target]:
    """The PostgreSQL database at `url`, its tables made, as a target."""
    opened = open_database(url)
    try:
        yield Target(opened.db, TableBlobs(opened.db).put, _passages_indexed_in(opened).add)
    finally:
        opened.db.close()


@contextmanager
def folder_target(home: Path) -> Iterator[Target]:
    """The data folder `home`'s store (made if new), as a target."""
    opened = open_database(home / "loci.db")
    try:
        blobs = BlobStore(home / "checkpoints" / "blobs", root=home)
        yield Target(opened.db, blobs.put, _passages_indexed_in(opened).add)
    finally:
        opened.db.close()


def _passages_indexed_in(opened: OpenedDatabase) -> PassageKeywords:
    """The story passages' keyword index of the target's engine."""
    return passage_keywords.for_store(None if opened.postgres is None else opened.postgres.postings)


def _database_blob(conn: Any, digest: str) -> bytes:
    check_digest(digest)
    row = conn.execute("SELECT data FROM checkpoint_blobs WHERE digest = ?", (digest,)).fetchone()
    if row is None:
        raise CheckpointCorruptedError(f"checkpoint payload {digest} is missing in the source")
    return bytes(row[0])
