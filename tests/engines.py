"""Stores on both engines: the same contract tests run on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from loci.storage.databases.db import BeforeCommit, Database
from loci.storage.databases.schema import Schema
from loci.storage.databases.sqlite import SqliteDatabase
from loci.store import schemas

#: The owners whose stores the contract tests open: all but the memory tables (they have
#: their own tests) and the story's (its passages are memories).
PORTED = tuple(schema for schema in schemas() if schema.owner not in ("memory", "story"))
ENGINES = ("sqlite", "postgresql")

#: Opens one more connection (one more "server") to the test's store.
Opener = Callable[..., Database]


@pytest.fixture(params=ENGINES)
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens connections to one new store of the parametrized engine; closes them after."""
    opened: list[Database] = []
    if request.param == "sqlite":
        path = tmp_path / "loci.db"

        def opener(
            schemas: tuple[Schema, ...] = PORTED, before_commit: tuple[BeforeCommit, ...] = ()
        ) -> Database:
            db = SqliteDatabase(path, schemas=schemas, before_commit=before_commit)
            opened.append(db)
            return db
    else:
        from loci.storage.databases.postgres.database import PostgresDatabase

        url = request.getfixturevalue("postgres_url")

        def opener(
            schemas: tuple[Schema, ...] = PORTED, before_commit: tuple[BeforeCommit, ...] = ()
        ) -> Database:
            db = PostgresDatabase(url, schemas=schemas, before_commit=before_commit)
            opened.append(db)
            return db

    yield opener
    for db in opened:
        db.close()


@pytest.fixture
def store(open_store: Opener) -> Database:
    """One connection to a new store of the parametrized engine."""
    return open_store()
