"""Each owner's tables migrate on their own numbers, and every store ends with the same tables
whichever version it started from."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from loci.errors import StorageUnavailableError
from loci.storage.databases.schema import LEGACY_LAST, OWNED_VERSIONS, Schema, run_script
from loci.storage.databases.sqlite import SqliteDatabase
from loci.storage.memory_tables.schema import MEMORY_SCHEMA
from loci.store import schemas


def legacy_scripts(version: int) -> list[str]:
    """The migrations a store at `version` of the single list had run, in their order."""
    steps = sorted(
        (position, schema.migrations[index])
        for schema in schemas()
        for index, position in enumerate(schema.legacy)
        if position <= version
    )
    return [script for _, script in steps]


def legacy_store(path: Path, version: int) -> None:
    with closing(sqlite3.connect(path)) as conn:
        for script in legacy_scripts(version):
            run_script(conn, script)
        conn.execute(f"PRAGMA user_version = {version}")
        conn.commit()


def tables(path: Path) -> list[tuple[str, str, str]]:
    with closing(sqlite3.connect(path)) as conn:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name != 'schema_versions' "
            "ORDER BY type, name"
        ).fetchall()
    return [(kind, name, " ".join((sql or "").split())) for kind, name, sql in rows]


def opened(path: Path, schemas: tuple[Schema, ...] = schemas()) -> dict[str, int]:
    db = SqliteDatabase(path, schemas=schemas)
    try:
        assert db.schema_version() == OWNED_VERSIONS
        return db.schema_versions()
    finally:
        db.close()


def test_every_legacy_version_ends_with_the_tables_of_a_new_store(tmp_path: Path) -> None:
    fresh = tmp_path / "new.db"
    everything = {schema.owner: len(schema.migrations) for schema in schemas()}
    assert opened(fresh) == everything
    for version in range(1, LEGACY_LAST + 1):
        old = tmp_path / f"v{version}.db"
        legacy_store(old, version)
        assert opened(old) == everything, version
        assert tables(old) == tables(fresh), version


def test_an_owner_registered_later_gets_its_tables_once(tmp_path: Path) -> None:
    for version in (0, LEGACY_LAST):
        path = tmp_path / f"v{version}.db"
        legacy_store(path, version)
        assert set(opened(path, (MEMORY_SCHEMA,))) == {"memory"}
        assert opened(path) == {schema.owner: len(schema.migrations) for schema in schemas()}
        assert tables(path) == tables(tmp_path / "v0.db")


def test_a_store_a_newer_loci_wrote_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "loci.db"
    opened(path)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE schema_versions SET version = version + 1 WHERE owner = 'story'")
        conn.commit()
    before = tables(path)
    with pytest.raises(StorageUnavailableError, match="newer loci"):
        SqliteDatabase(path, schemas=schemas())
    with closing(sqlite3.connect(path)) as conn:
        conn.execute(f"PRAGMA user_version = {OWNED_VERSIONS + 1}")
    with pytest.raises(StorageUnavailableError, match="newer loci"):
        SqliteDatabase(path, schemas=schemas())
    assert tables(path) == before


def test_storage_owns_no_toolset_table() -> None:
    memory_sql = " ".join(MEMORY_SCHEMA.migrations)
    for other in schemas():
        if other is not MEMORY_SCHEMA:
            for script in other.migrations:
                for name in _created(script):
                    assert name not in memory_sql, (other.owner, name)


def _created(script: str) -> list[str]:
    words = script.split()
    return [
        words[i + 2]
        for i, word in enumerate(words[:-2])
        if word == "CREATE" and words[i + 1] == "TABLE"
    ]
