"""The context-file store on both engines: projects, every version of each file, the newest
of each, history in order, and the failed attempts since the last save."""

from __future__ import annotations

import pytest

from loci.storage.databases.db import CONSTRAINT_ERRORS
from loci.toolsets.context import store as sql


def version(file_type: str, number: int, content: str) -> sql.VersionRow:
    return sql.VersionRow(file_type, number, content, f"h{number}", f"t{number}", False, "[]")


def test_projects_versions_and_history(store):
    project = sql.ProjectRow("p1", "Shop", "/work/shop", "t0")
    with store.write() as conn:
        assert sql.upsert_project(conn, project) is True
        assert sql.upsert_project(conn, sql.ProjectRow("p1", "Shop 2", "/x", "t1")) is False
        for number, content in enumerate(["# one", "# two — ünïcødé", "# three"], start=1):
            sql.insert_version(conn, "p1", version("bugs", number, content))
        sql.insert_version(conn, "p1", version("features", 1, "# f"))
    with store.snapshot() as conn:
        assert sql.project(conn, "p1") == sql.ProjectRow("p1", "Shop 2", "/work/shop", "t0")
        assert sql.project(conn, "nope") is None and sql.projects(conn)[0].name == "Shop 2"
        newest = sql.latest_versions(conn, "p1")
        assert [(v.file_type, v.version) for v in newest] == [("bugs", 3), ("features", 1)]
        assert sql.version(conn, "p1", "bugs", None).content == "# three"
        assert sql.version(conn, "p1", "bugs", 2).content == "# two — ünïcødé"
        assert sql.version(conn, "p1", "bugs", 9) is None
        assert [v.version for v in sql.history(conn, "p1", "bugs", 2)] == [3, 2]


def test_a_version_number_is_taken_once(store):
    with store.write() as conn:
        sql.upsert_project(conn, sql.ProjectRow("p1", "Shop", "/s", "t0"))
        sql.insert_version(conn, "p1", version("bugs", 1, "a"))
    with pytest.raises(CONSTRAINT_ERRORS), store.write() as conn:
        sql.insert_version(conn, "p1", version("bugs", 1, "b"))
    with store.locked() as conn:
        assert sql.version(conn, "p1", "bugs", 1).content == "a"


def test_failed_attempts_keep_the_best_and_reset_after_a_save(store):
    with store.write() as conn:
        sql.upsert_project(conn, sql.ProjectRow("p1", "Shop", "/s", "t0"))
        assert sql.attempts(conn, "p1", "bugs") == sql.Attempts(0, 0, 0.0)
        sql.record_failure(conn, "p1", "bugs", 0.4)
        sql.record_failure(conn, "p1", "bugs", 0.75)
        assert sql.record_failure(conn, "p1", "bugs", 0.5) == sql.Attempts(3, 2, 0.75)
    with store.write() as conn:
        sql.reset_attempts(conn, "p1", "bugs")
        assert sql.attempts(conn, "p1", "bugs").failures == 0
