"""The memory service on a real SQLite file with the real model."""

import sqlite3

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from loci import fields
from loci.app import App, build_app
from loci.errors import (
    InvalidInputError,
    ModelMismatchError,
    NotFoundError,
    StorageUnavailableError,
)
from loci.settings import load_settings
from loci.toolsets.memory.models import MemoryDraft, SequenceDraft
from loci.toolsets.memory.transfer import ImportOptions

FACTS = [
    ("The user prefers dark mode and vim keybindings", ["prefs"], 0.8, "default"),
    ("Deployments happen every Friday at 4pm", ["ops"], 0.6, "work"),
    ("The staging database runs PostgreSQL 16", ["ops", "db"], 0.4, "work"),
    ("Alice's favourite food is ramen", ["people"], 0.3, "default"),
]


def seed(app):
    drafts = [MemoryDraft(c, namespace=n, tags=t, importance=i) for c, t, i, n in FACTS]
    return app.memory.remember_batch(drafts).ids


def count_rows(app):
    return app.db.connection.execute("SELECT count(*) FROM memories").fetchone()[0]


def test_remember_then_recall_finds_it_first(app):
    seed(app)
    result = app.memory.recall("which editor settings does the user like?")
    assert result.memories[0].content.startswith("The user prefers dark mode")
    assert result.mode == "hybrid"
    assert 0 < result.memories[0].similarity <= 1


def test_recall_updates_access_fields(app):
    ids = seed(app)
    before = app.memory.get(ids[0])
    app.memory.recall("dark mode", limit=1)
    after = app.memory.get(ids[0])
    assert after.access_count == before.access_count + 1
    assert after.last_accessed > before.last_accessed


def test_recall_hits_show_the_access_they_record(app):
    ids = seed(app)
    hit = app.memory.recall("dark mode", limit=1).memories[0]
    stored = app.memory.get(ids[0])
    assert (hit.access_count, hit.last_accessed) == (stored.access_count, stored.last_accessed)
    assert hit.access_count == 1


def test_access_statistics_reach_other_processes(app, home, embedder):
    ids = seed(app)
    app.memory.recall("dark mode", limit=1)
    app.db.flush_behind()
    other = build_app(load_settings(home=home), embedder=embedder)
    try:
        assert other.memory.get(ids[0]).access_count == 1
    finally:
        other.close()


def test_closing_writes_queued_access_statistics(home, embedder):
    first = build_app(load_settings(home=home), embedder=embedder)
    ids = seed(first)
    first.memory.recall("dark mode", limit=1)
    first.close()
    second = build_app(load_settings(home=home), embedder=embedder)
    try:
        assert second.memory.get(ids[0]).access_count == 1
    finally:
        second.close()


def test_keyword_and_vector_modes(app):
    seed(app)
    keyword = app.memory.recall("PostgreSQL", hybrid_alpha=0.0, limit=4)
    assert keyword.mode == "keyword"
    assert [m.content for m in keyword.memories] == ["The staging database runs PostgreSQL 16"]
    vector = app.memory.recall("what does Alice like to eat", hybrid_alpha=1.0, limit=1)
    assert vector.mode == "vector"
    assert "ramen" in vector.memories[0].content


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"tags": {"contains": "ops"}}, {"Deployments", "The staging"}),
        ({"importance": {"gte": 0.6}}, {"The user", "Deployments"}),
        ({"namespace": "default"}, {"The user", "Alice's"}),
        ({"tags": {"nin": ["ops", "prefs"]}}, {"Alice's"}),
        (
            {
                "operator": "or",
                "filters": [
                    {"field": "tags", "operator": "contains", "value": "db"},
                    {"field": "importance", "operator": "lt", "value": 0.35},
                ],
            },
            {"The staging", "Alice's"},
        ),
        ({"content": {"contains": "Friday"}}, {"Deployments"}),
        (
            {"created_at": {"gt": "2000-01-01"}, "source": "manual"},
            {"The user", "Deployments", "The staging", "Alice's"},
        ),
        ({"importance": {"gte": 0.6}, "namespace": {"in": ["work"]}}, {"Deployments"}),
    ],
)
def test_filters_apply_before_ranking(app, filters, expected):
    seed(app)
    found = app.memory.recall("anything at all", limit=10, filters=filters)
    got = [m.content for m in found.memories]
    assert len(got) == len(expected)
    assert {next(e for e in expected if c.startswith(e)) for c in got} == expected


def test_metadata_filters(app):
    app.memory.remember_batch(
        [
            MemoryDraft(
                "alpha project note",
                metadata={"project": "alpha", "priority": 3, "labels": ["x", "y"]},
            ),
            MemoryDraft("beta project note", metadata={"project": "beta", "priority": 1}),
        ]
    )
    assert [
        m.content for m in app.memory.recall("note", filters={"metadata.project": "beta"}).memories
    ] == ["beta project note"]
    assert [
        m.content
        for m in app.memory.recall("note", filters={"metadata.priority": {"gt": 2}}).memories
    ] == ["alpha project note"]
    assert [
        m.content
        for m in app.memory.recall("note", filters={"metadata.labels": {"contains": "y"}}).memories
    ] == ["alpha project note"]


def test_filters_bind_what_any_sqlite_build_can(app):
    """Many systems' SQLite binds at most 32,766 values per statement; this one may allow more,
    so the test lowers its limit to that."""
    seed(app)
    app.db.connection.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 32_766)
    values = [f"v{n}" for n in range(1000)]
    widest = {"or": [{f"metadata.k{n}": {"in": values}} for n in range(9)]}
    assert app.memory.recall("x", filters=widest).total == 0
    assert app.memory.forget(filters=widest, dry_run=True).deleted == 0
    too_wide = {"or": [{f"metadata.k{n}": {"in": values}} for n in range(40)]}
    with pytest.raises(InvalidInputError, match="values in all"):
        app.memory.recall("x", filters=too_wide)
    with pytest.raises(InvalidInputError, match="values in all"):
        app.memory.forget(filters=too_wide, dry_run=True)


@pytest.mark.parametrize(
    "filters",
    [
        {"bogus": 1},
        {"importance": {"between": [0, 1]}},
        {"importance": {"gt": "high"}},
        {"tags": {"gt": "a"}},
        {"created_at": {"gt": "last tuesday"}},
        {"operator": "xor", "filters": [{"field": "source", "value": "manual"}]},
        {"operator": "and", "filters": []},
        {"metadata.a'b": 1},
        {"metadata.ab\n": 1},
        {"importance": {"in": []}},
        {"field": "importance", "operator": "gt", "value": 1, "extra": True},
        {"namespace": "../etc"},
        {"importance": {"lt": 2**70}},  # SQLite's integers are 64-bit
        {"metadata.n": {"in": [1, -(2**63) - 1]}},
        {"created_at": {"gt": "0001-01-01T00:00:00+01:00"}},  # before year 1 in UTC
        {"updated_at": {"lt": "9999-12-31T23:00:00-05:00"}},  # after 9999 in UTC
        {"source": "\ud800"},  # lone surrogates: SQLite cannot bind them
        {"tags": {"contains": "\udcff"}},
        {"metadata.k": {"in": ["ok", "\udcff"]}},
    ],
)
def test_malformed_filters_are_refused(app, filters):
    seed(app)
    with pytest.raises(InvalidInputError):
        app.memory.recall("x", filters=filters)


def test_batch_reports_invalid_items_and_stores_the_rest(app):
    result = app.memory.remember_batch(
        [
            MemoryDraft("fine"),
            MemoryDraft("   "),
            MemoryDraft("also fine", importance=1.5),
            MemoryDraft("ok", tags=["a"]),
        ]
    )
    assert result.stored == 2
    assert [e.index for e in result.errors] == [1, 2]
    assert count_rows(app) == 2


def test_failed_batch_write_stores_nothing(app, monkeypatch):
    from loci.storage.memory_tables import memories as sql

    original = sql.insert_memories

    def fail_midway(conn, items):
        original(conn, items[:1])
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(sql, "insert_memories", fail_midway)
    with pytest.raises(sqlite3.OperationalError):
        app.memory.remember_batch([MemoryDraft("one"), MemoryDraft("two")])
    assert count_rows(app) == 0


def nested(depth: int) -> dict:
    """Metadata whose objects and arrays nest `depth` levels deep (an object outermost)."""
    value: object = {}
    for level in range(depth - 1, 0, -1):
        value = {"a": value} if level % 2 else [value]
    assert isinstance(value, dict)
    return value


@pytest.mark.parametrize(
    "draft",
    [
        MemoryDraft(""),
        MemoryDraft("x" * 70_000),
        MemoryDraft("ok", importance=-0.1),
        MemoryDraft("ok", importance=float("nan")),
        MemoryDraft("ok", namespace="../../etc"),
        MemoryDraft("ok", namespace="a/b"),
        MemoryDraft("ok", namespace="notes\n"),
        MemoryDraft("ok", source="manual\n"),
        MemoryDraft("bad \ud800 surrogate"),
        MemoryDraft("nul \x00 inside"),
        MemoryDraft("ok", tags=["x" * 65]),
        MemoryDraft("ok", metadata={"v": float("inf")}),
        MemoryDraft("ok", metadata={"big": "x" * 20_000}),
        MemoryDraft("ok", metadata=nested(33)),
        MemoryDraft("ok", metadata=nested(5000)),  # past Python's recursion limit
    ],
)
def test_bad_input_changes_nothing(app, draft):
    with pytest.raises(InvalidInputError):
        app.memory.remember(draft)
    assert count_rows(app) == 0


def test_metadata_nested_up_to_the_limit_is_stored_and_filtered(app):
    deepest = nested(fields.MAX_METADATA_DEPTH)
    app.memory.remember(MemoryDraft("deep note", metadata=deepest))
    found = app.memory.recall("note", filters={"metadata.a": {"ne": "x"}}).memories
    assert [m.metadata for m in found] == [deepest]


@pytest.mark.parametrize(
    "bad_id",
    [
        "",
        "../../etc/passwd",
        "abc",
        "\x00" * 36,
        "1" * 10_000,
        "12345678-1234-1234-1234-1234567890a\n",
        "00000000-0000-4000-8000-000000000000\n",  # Python's `$` would let the newline by
    ],
)
def test_malformed_ids_are_refused(app, bad_id):
    with pytest.raises(InvalidInputError):
        app.memory.nearby(bad_id)
    with pytest.raises(InvalidInputError):
        app.memory.forget(memory_id=bad_id)


def test_unknown_ids_and_namespaces(app):
    seed(app)
    unknown = "00000000-0000-4000-8000-000000000000"
    with pytest.raises(NotFoundError):
        app.memory.nearby(unknown)
    with pytest.raises(NotFoundError):
        app.memory.forget(memory_id=unknown)
    with pytest.raises(NotFoundError):
        app.memory.recall("x", namespace="nope")
    with pytest.raises(NotFoundError):
        app.catalog.stats("nope")
    assert count_rows(app) == len(FACTS)


def test_forget_dry_run_then_for_real(app):
    seed(app)
    preview = app.memory.forget(filters={"tags": {"contains": "ops"}}, dry_run=True)
    assert preview.deleted == 2 and preview.dry_run
    assert count_rows(app) == 4
    done = app.memory.forget(filters={"tags": {"contains": "ops"}})
    assert sorted(done.ids) == sorted(preview.ids)
    assert count_rows(app) == 2
    assert all("ops" not in m.tags for m in app.memory.recall("deploy database", limit=10).memories)


def test_forget_batch_reports_not_found(app):
    ids = seed(app)
    missing = "00000000-0000-4000-8000-000000000001"
    result = app.memory.forget_batch([ids[0], missing])
    assert result.deleted == 1 and result.not_found == [missing]


def test_nearby_excludes_self_and_ranks_by_similarity(app):
    ids = seed(app)
    result = app.memory.nearby(ids[1], limit=2)
    assert result.reference.id == ids[1]
    assert ids[1] not in [n.id for n in result.neighbors]
    sims = [n.similarity for n in result.neighbors]
    assert sims == sorted(sims, reverse=True)


def test_stats_of_the_store_and_of_one_namespace(app):
    seed(app)
    whole = app.catalog.stats()
    assert whole.total_memories == 4 and whole.namespaces == {"default": 2, "work": 2}
    assert whole.tag_distribution == {"ops": 2, "db": 1, "people": 1, "prefs": 1}
    assert list(whole.tag_distribution) == ["ops", "db", "people", "prefs"]  # count, then name
    assert whole.average_importance == pytest.approx(0.525)
    assert whole.oldest_memory is not None and whole.oldest_memory <= whole.newest_memory
    work = app.catalog.stats("work")
    assert work.total_memories == 2 and work.namespaces == {"work": 2}
    assert work.tag_distribution == {"ops": 2, "db": 1}
    assert work.average_importance == pytest.approx(0.5)
    app.memory.remember_batch([MemoryDraft("x", tags=[f"tag{i:02d}"]) for i in range(60)])
    assert len(app.catalog.stats().tag_distribution) == 50  # the 50 commonest


def test_namespace_lifecycle(app):
    seed(app)
    app.catalog.namespaces("create", "empty")
    names = {n.name: n.count for n in app.catalog.namespaces().namespaces}
    assert names == {"default": 2, "work": 2, "empty": 0}
    renamed = app.catalog.namespaces("rename", "work", "job")
    assert renamed.memories_moved == 2
    assert app.memory.recall("deploy", namespace="job").total == 2
    deleted = app.catalog.namespaces("delete", "job")
    assert deleted.memories_removed == 2
    assert count_rows(app) == 2


def test_export_import_round_trips_every_field(app, tmp_path, embedder):
    from loci.app import build_app
    from loci.settings import load_settings

    app.memory.remember_batch(
        [
            MemoryDraft(c, namespace=n, tags=t, importance=i, metadata={"n": 1})
            for c, t, i, n in FACTS
        ]
    )
    app.memory.recall("dark mode")  # access fields differ from creation
    exported = app.transfer.export(include_vectors=True)
    other = build_app(load_settings(home=tmp_path / "other"), embedder=embedder)
    try:
        result = other.transfer.import_data(
            exported.model_dump(), ImportOptions(recompute_vectors=False)
        )
        assert result.imported == len(FACTS)
        again = other.transfer.export(include_vectors=True)
        assert again.export.memories == exported.export.memories
        repeat = other.transfer.import_data(exported.model_dump(), ImportOptions())
        assert repeat.imported == 0 and repeat.skipped_duplicates == len(FACTS)
    finally:
        other.close()


def test_an_export_imported_into_another_namespace_is_copied_under_new_ids(app):
    app.memory.remember_batch([MemoryDraft(f"fact {i}", namespace="work") for i in range(3)])
    exported = app.transfer.export("work").model_dump()
    copied = app.transfer.import_data(exported, ImportOptions(namespace_override="archive"))
    assert (copied.imported, copied.skipped_duplicates) == (3, 0)
    originals = {m["id"] for m in exported["export"]["memories"]}
    assert not originals & set(copied.ids)
    assert len(app.transfer.export("work").export.memories) == 3  # the originals stay as they were
    again = app.transfer.import_data(exported, ImportOptions(namespace_override="archive"))
    assert (again.imported, again.skipped_duplicates) == (0, 3)  # same text, same namespace
    home = app.transfer.import_data(exported, ImportOptions())
    assert (home.imported, home.skipped_duplicates) == (0, 3)  # same ids, same namespace


def test_export_pages_add_up_to_the_whole_export(app):
    app.memory.remember_batch(
        [MemoryDraft(f"fact {i}", namespace=("even" if i % 2 == 0 else "odd")) for i in range(7)]
    )
    for namespace in (None, "odd"):
        whole = app.transfer.export(namespace, limit=1000).export.memories
        pages, offset = [], 0
        while offset is not None:
            page = app.transfer.export(namespace, offset=offset, limit=2)
            pages += page.export.memories
            offset = page.next_offset
        assert [m.content for m in pages] == [m.content for m in whole]
        assert len(whole) == (7 if namespace is None else 3)
    assert app.transfer.export(offset=7).count == 0


def test_import_reports_malformed_items(app):
    deep = {
        "id": "6f1c5c1e-8f43-4a57-9c54-2d0f3f6b9a10",
        "content": "nested too deep",
        "namespace": "default",
        "tags": [],
        "importance": 0.5,
        "source": "import",
        "created_at": "2026-01-01T00:00:00Z",
        "updated_at": "2026-01-01T00:00:00Z",
        "last_accessed": "2026-01-01T00:00:00Z",
        "access_count": 0,
        "metadata": nested(fields.MAX_METADATA_DEPTH + 1),
    }
    data = {"memories": [{"content": "no id"}, {"id": "x", "content": "y"}, deep]}
    result = app.transfer.import_data(data, ImportOptions())
    assert result.imported == 0 and result.failed == 3
    assert "nests" in result.errors[2].message
    with pytest.raises(InvalidInputError):
        app.transfer.import_data({"memories": "nope"}, ImportOptions())


def test_import_refuses_vectors_and_times_it_cannot_keep_item_by_item(app):
    model = app.embedder.identity
    base = app.memory.remember(MemoryDraft("a stored memory to copy"))
    item = app.transfer.export(include_vectors=True).export.memories[0].model_dump()
    app.memory.forget(base.id)
    vector = item["vector"]

    def variant(number: int, **changes):
        return {
            **item,
            "id": f"6f1c5c1e-8f43-4a57-9c54-2d0f3f6b9a{number:02d}",
            "content": f"copy {number}",
            **changes,
        }

    items = [
        variant(1, vector=[0.0] * model.dimensions),
        variant(2, vector=[1e-12] * model.dimensions),
        variant(3, vector=[float("nan")] * model.dimensions),
        variant(4, vector=[1e39] * model.dimensions),  # finite, but not as float32
        variant(5, created_at="0001-01-01T00:00:00+01:00"),
        variant(6, last_accessed="9999-12-31T23:00:00-05:00"),
        variant(7, vector=[v * 1e30 for v in vector]),  # kept: scaled back to unit length
        variant(8),
    ]
    data = {"embedding_model": model.name, "memories": items}
    result = app.transfer.import_data(data, ImportOptions(recompute_vectors=False))
    assert [e.index for e in result.errors] == [0, 1, 2, 3, 4, 5]
    assert all(e.type == "invalid_input" for e in result.errors)
    assert result.imported == 2 and count_rows(app) == 2
    for memory in app.transfer.export(include_vectors=True).export.memories:
        assert np.allclose(memory.vector, vector, atol=1e-6)
    assert app.memory.nearby(result.ids[0], limit=1).neighbors[0].similarity > 0.99


def test_second_process_sees_writes_on_next_call(app, second_app):
    app.memory.remember(MemoryDraft("written by the first process about kites"))
    assert second_app.memory.recall("kites").memories[0].content.endswith("kites")
    gone = second_app.memory.forget(filters={"content": {"contains": "kites"}})
    assert gone.deleted == 1
    assert app.memory.recall("kites").total == 0
    assert app.memory.indexed_count() == second_app.memory.indexed_count() == 0


def test_model_mismatch_is_reported_and_reindex_fixes_it(app):
    seed(app)
    with app.db.write() as conn:
        conn.execute("UPDATE meta SET value = 'other-model' WHERE key = 'embedding_model'")
    with pytest.raises(ModelMismatchError, match="loci reindex"):
        app.memory.recall("dark mode")
    report = app.transfer.reindex()
    assert report["re_embedded"] == len(FACTS)
    assert app.memory.recall("dark mode").total > 0


def test_locked_database_gives_storage_error(home, embedder):
    from loci.app import build_app
    from loci.settings import load_settings

    app = build_app(load_settings(home=home, busy_timeout_seconds=0.2), embedder=embedder)
    blocker = sqlite3.connect(app.db.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StorageUnavailableError):
            app.memory.remember(MemoryDraft("blocked"))
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
        app.close()


def test_vectors_are_stored_in_sqlite(app):
    ids = seed(app)
    blob = app.db.connection.execute(
        "SELECT v.embedding FROM memory_vectors v JOIN memories m ON m.seq = v.seq WHERE m.id = ?",
        (ids[0],),
    ).fetchone()[0]
    vector = np.frombuffer(blob, dtype=np.float32)
    assert vector.shape == (384,)
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_an_app_runs_numpy_products_on_one_thread(app: App) -> None:
    """OpenBLAS's idle threads spin after each product, on the cores the model needs next."""
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas and all(pool["num_threads"] == 1 for pool in blas)


def test_a_query_embedded_ahead_recalls_as_the_plain_recall_does(app):
    app.memory.remember(MemoryDraft("Ana booked the ferry to Skye for June."))
    app.memory.remember(MemoryDraft("The budget review moved to Thursday."))
    query = "What did Ana book for June?"
    ahead = app.memory.embed_query(query)
    assert ahead.text == query and ahead.ms > 0
    plain = app.memory.recall(query, limit=2)
    early = app.memory.recall(query, limit=2, ahead=ahead)
    assert [h.id for h in early.memories] == [h.id for h in plain.memories]
    assert [h.score for h in early.memories] == pytest.approx([h.score for h in plain.memories])


def test_a_query_embedded_before_new_actors_arrived_is_embedded_again(app):
    query = "What did Ana book for June?"
    ahead = app.memory.embed_query(query)
    turn = SequenceDraft(name="chat-1", kind="conversation", position=0, actor="Ana")
    app.memory.remember(MemoryDraft("Ana: I booked the ferry to Skye for June.", sequence=turn))
    recalled = app.memory.recall(query, limit=1, ahead=ahead)  # "Ana" is an actor now
    assert recalled.memories[0].content.startswith("Ana: I booked")
    assert app.memory.embed_query(query).text != ahead.text


def test_embedding_ahead_checks_the_query(app):
    with pytest.raises(InvalidInputError):
        app.memory.embed_query("")
    with pytest.raises(InvalidInputError):
        app.memory.embed_query("ferry", namespace="../etc")
