"""The in-memory mirror of filter fields admits exactly the memories SQL admits, leaves what it
does not hold to SQL, follows every write (another process's too), and serves filtered recall."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from loci.app import App
from loci.engine.search import pipeline, when
from loci.engine.search.filters import admitted, compile_filter
from loci.engine.search.query_words import fts_match
from loci.storage.databases.sqlite import SqliteDatabase
from loci.storage.indexes.facets import mirror as facets_module
from loci.storage.indexes.facets.mirror import MemoryFacets, mirrored
from loci.storage.indexes.keywords import mirror as keyword_module
from loci.storage.indexes.keywords.protocol import MirroredKeywords
from loci.storage.indexes.sync import Then
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import timeline
from loci.toolsets.memory.transfer import ImportOptions
from tests.app.test_keyword_mirror import Reader, reader_of

WORDS = ["harbour", "lantern", "orchard", "quarry", "meadow", "glacier", "canyon", "delta"]
TAGS = [[], ["work"], ["home"], ["work", "urgent"], ["Work"], ["home", "ünïcode"]]
SOURCES = ["manual", "import", "agent", "agent-2", "zeta"]
STAMPS = [
    "2024-01-01T00:00:00.000000Z",
    "2024-06-15T12:30:00.000000Z",
    "2025-03-01T08:00:00.000000Z",
    "2026-01-01T00:00:00.000000Z",
]
NAMESPACES = ("a", "b", "c")
#: Values of every JSON type, numbers written as text, a key that is sometimes missing.
METADATA: list[dict[str, Any]] = [
    {"kind": "x", "n": 1},
    {"kind": "y", "n": 2.5, "flag": True},
    {"kind": "x", "n": "2", "nested": {"level": "deep"}, "list": [1, True, "x", None, 2.5]},
    {"n": None, "flag": False, "list": ["a", "b"]},
    {"kind": "ünï", "n": 10, "nested": {"level": 3}},
    {"kind": "", "n": -1, "flag": 1, "deep": [["a"], {"b": 1}]},
    {"kind": 5, "n": 2},
]

#: Every mirrored field with every operator it takes, plus groups that nest and mix them.
FILTERS: list[dict[str, Any]] = [
    {"tags": {"contains": "work"}},
    {"tags": "home"},
    {"tags": {"ne": "work"}},
    {"tags": {"in": ["urgent", "ünïcode", "missing"]}},
    {"tags": {"nin": ["work", "home"]}},
    {"tags": {"contains": "nowhere"}},
    {"importance": {"gte": 0.5}},
    {"importance": {"gt": 0.5}},
    {"importance": 0.25},
    {"importance": {"ne": 0.25}},
    {"importance": {"lt": 0.3}},
    {"importance": {"lte": 0}},
    {"importance": {"in": [0, 1, 0.75]}},
    {"importance": {"nin": [0.5]}},
    {"source": "agent"},
    {"source": {"contains": "agent"}},
    {"source": {"contains": ""}},
    {"source": {"gt": "agent"}},
    {"source": {"lte": "import"}},
    {"source": {"in": ["manual", "zeta", "none"]}},
    {"source": {"nin": ["manual"]}},
    {"created_at": {"gte": "2024-06-15T12:30:00Z"}},
    {"created_at": {"lt": "2025-03-01"}},
    {"created_at": {"in": ["2024-01-01", "2026-01-01T00:00:00Z"]}},
    {"updated_at": {"gt": "2024-06-15T12:30:00Z"}},
    {"updated_at": {"nin": ["2024-01-01"]}},
    {"updated_at": "2025-03-01T08:00:00+00:00"},
    {"namespace": {"ne": "a"}},
    {"metadata.kind": "x"},
    {"metadata.kind": {"ne": "x"}},
    {"metadata.kind": {"gt": "x"}},
    {"metadata.kind": {"lt": "x"}},
    {"metadata.kind": {"lte": 5}},
    {"metadata.n": {"gte": 2}},
    {"metadata.n": {"lt": 2}},
    {"metadata.n": {"in": [1, "2", 10.0]}},
    {"metadata.n": {"nin": [1]}},
    {"metadata.flag": True},
    {"metadata.flag": {"ne": False}},
    {"metadata.nested.level": {"gte": "a"}},
    {"metadata.nested.level": 3},
    {"metadata.nested": '{"level":3}'},
    {"metadata.list": {"in": ['["a","b"]', "a"]}},
    {"metadata.missing": {"ne": "x"}},
    {"metadata.list": {"contains": "a"}},
    {"metadata.list": {"contains": 1}},
    {"metadata.list": {"contains": 2.5}},
    {"metadata.kind": {"contains": "n"}},
    {"metadata.kind": {"contains": ""}},
    {"metadata.n": {"contains": 2}},
    {"metadata.nested": {"contains": "level"}},
    {"or": [{"metadata.kind": "y"}, {"tags": "home"}]},
    {"namespace": {"contains": "b"}},
    {"operator": "or", "filters": [{"tags": "urgent"}, {"namespace": "c"}]},
    {"or": [{"importance": {"gte": 0.9}}, {"and": [{"source": "agent"}, {"tags": "home"}]}]},
    {"tags": {"contains": "work"}, "importance": {"gte": 0.5}, "source": {"ne": "manual"}},
    {
        "operator": "and",
        "filters": [
            {"field": "created_at", "operator": "gte", "value": "2024-03-01"},
            {"operator": "or", "filters": [{"field": "tags", "operator": "nin", "value": ["x"]}]},
        ],
    },
]
#: Filters the facets leave to SQL: fields they do not hold, and metadata values only SQL can
#: judge (a real found in a text; arrays holding arrays or objects).
UNMIRRORED: list[dict[str, Any]] = [
    {"metadata.kind": {"contains": 1.5}},
    {"metadata.deep": {"contains": "a"}},
    {"and": [{"tags": "work"}, {"or": [{"source": "agent"}, {"metadata.deep": {"contains": 1}}]}]},
    {"content": {"contains": "harbour"}},
    {"access_count": {"gte": 1}},
    {"last_accessed": {"gte": "2024-01-01"}},
    {"or": [{"tags": "work"}, {"content": {"contains": "note 1"}}]},
]


def memory(i: int, namespaces: tuple[str, ...] = NAMESPACES) -> dict[str, Any]:
    """The i-th made-up memory: fields cycle at different rates, so they combine freely."""
    vector = np.random.default_rng(i).standard_normal(384)
    return {
        "id": str(uuid.uuid4()),
        "content": f"{WORDS[i % len(WORDS)]} {WORDS[(i * 3) % len(WORDS)]} note {i}",
        "namespace": namespaces[i % len(namespaces)],
        "tags": TAGS[i % len(TAGS)],
        "importance": [0.0, 0.25, 0.5, 0.75, 1.0][i % 5],
        "source": SOURCES[i % len(SOURCES)],
        "metadata": METADATA[i % len(METADATA)],
        "created_at": STAMPS[i % len(STAMPS)],
        "updated_at": STAMPS[(i // 2) % len(STAMPS)],
        "last_accessed": STAMPS[0],
        "access_count": 0,
        "vector": (vector / np.linalg.norm(vector)).tolist(),
    }


def store(app: App, indexes: range) -> None:
    data = {"embedding_model": "all-MiniLM-L6-v2", "memories": [memory(i) for i in indexes]}
    result = app.transfer.import_data(
        data, ImportOptions(skip_duplicates=False, recompute_vectors=False)
    )
    assert result.imported == len(indexes)


@pytest.fixture
def reader(app: App) -> Iterator[Reader]:
    found = reader_of(app)
    yield found
    found.db.close()


def agree(catch_up: Callable[[Then | None], None], facets: MemoryFacets, db: SqliteDatabase) -> int:
    """Assert the facets admit what SQL admits for every filter and namespace choice, the
    indexes brought up to date by `catch_up` (an engine's, or a reader's own sync); returns
    how many memories they admitted in all."""
    admitted_total = 0
    for spec in FILTERS:
        for namespace in (None, "a", "c"):
            compiled = compile_filter(spec, namespace)
            assert compiled.condition is not None and mirrored(compiled.condition)
            catch_up(facets.holder(compiled.condition))
            with db.snapshot() as conn:
                found = facets.matching(compiled.condition, compiled.namespaces)
                expected = sql.matching_seqs(conn, compiled.sql, compiled.params)
                assert found is not None
                assert found.tolist() == sorted(expected.tolist()), (spec, namespace)
                admitted_total += found.shape[0]
    return admitted_total


def test_the_facets_admit_what_sql_admits(app: App) -> None:
    store(app, range(120))
    total = agree(app.engine.catch_up, app.engine.indexes.facets, app.db)
    # The filters are neither all-admitting nor all-empty: the comparison means something.
    assert 0 < total < len(FILTERS) * 3 * 120


def test_what_the_facets_cannot_judge_is_left_to_sql(app: App) -> None:
    store(app, range(30))
    engine, facets = app.engine, app.engine.indexes.facets
    for spec in UNMIRRORED:
        compiled = compile_filter(spec)
        assert compiled.condition is not None
        engine.catch_up(facets.holder(compiled.condition))
        assert facets.matching(compiled.condition, None) is None
        with app.db.snapshot() as conn:
            allowed = admitted(conn, compiled, facets)
            assert allowed is not None and allowed.keys is not None
            expected = sql.matching_seqs(conn, compiled.sql, compiled.params)
            assert allowed.keys.tolist() == expected.tolist()
    compiled = compile_filter({"tags": "work"})
    assert compiled.condition is not None
    assert MemoryFacets().matching(compiled.condition, None) is None  # not loaded


def test_the_facets_load_only_for_a_filter_they_can_answer(app: App) -> None:
    store(app, range(20))
    app.memory.recall("harbour", filters={"content": {"contains": "harbour"}})
    assert not app.engine.indexes.facets.loaded
    app.memory.recall("harbour", namespace="a")
    assert not app.engine.indexes.facets.loaded
    hits = app.memory.recall("harbour", filters={"tags": "urgent"}).memories
    assert app.engine.indexes.facets.loaded
    assert hits and all("urgent" in hit.tags for hit in hits)


def test_the_facets_follow_another_processs_writes(app: App, reader: Reader) -> None:
    store(app, range(60))
    agree(reader.sync.refresh, reader.facets, reader.db)
    store(app, range(60, 90))  # new memories join tags already looked up
    agree(reader.sync.refresh, reader.facets, reader.db)
    gone = [row.id for row in app.memory.recall("harbour lantern", limit=8).memories]
    assert app.memory.forget_batch(gone).deleted == len(gone)
    app.catalog.namespaces("rename", "b", "renamed")
    with app.db.write() as conn:
        # Fields changed behind loci's back, as a later version might: the log still tells.
        conn.execute("UPDATE memories SET importance = 0.25 WHERE seq % 7 = 0")
        conn.execute("UPDATE memories SET source = 'agent' WHERE seq % 5 = 0")
        conn.execute("UPDATE memories SET created_at = ? WHERE seq % 4 = 0", (STAMPS[3],))
        conn.execute("UPDATE memories SET updated_at = ? WHERE seq % 6 = 0", (STAMPS[0],))
        conn.execute("DELETE FROM memory_tags WHERE memory_seq % 2 = 0")
        conn.execute(
            "INSERT INTO memory_tags(tag, memory_seq) SELECT 'urgent', seq FROM memories "
            "WHERE seq % 2 = 0"
        )
        conn.execute("UPDATE memories SET tags = '[\"urgent\"]' WHERE seq % 2 = 0")
    agree(reader.sync.refresh, reader.facets, reader.db)
    with app.db.write() as conn:
        conn.execute(
            "UPDATE memories SET metadata = json_set(metadata, '$.kind', 'y', '$.n', 7) "
            "WHERE seq % 3 = 0"
        )
    agree(reader.sync.refresh, reader.facets, reader.db)
    urgent = compile_filter({"tags": "urgent"}, "renamed")
    assert urgent.condition is not None
    found = reader.facets.matching(urgent.condition, urgent.namespaces)
    assert found is not None and found.size > 0


def test_a_memory_older_than_those_held_takes_its_place_in_order(app: App, reader: Reader) -> None:
    store(app, range(40))
    with app.db.write() as conn:
        conn.execute("DELETE FROM memories WHERE seq <= 5")
    agree(reader.sync.refresh, reader.facets, reader.db)  # the reader holds seqs 6 and on
    with app.db.write() as conn:
        # A row with a seq below all held (loci never writes one: a later version might).
        conn.execute(
            "INSERT INTO memories(seq, id, namespace, content, content_hash, tags, importance, "
            "source, metadata, created_at, updated_at, last_accessed, access_count) "
            "SELECT 2, 'an-older-one', namespace, content, content_hash, tags, 0.25, 'zeta', "
            "json_set(metadata, '$.kind', 'z'), created_at, updated_at, last_accessed, "
            "access_count FROM memories WHERE seq = 40"
        )
        conn.execute(
            "INSERT INTO memory_vectors(seq, embedding) "
            "SELECT 2, embedding FROM memory_vectors WHERE seq = 40"
        )
    assert agree(reader.sync.refresh, reader.facets, reader.db) > 0
    kind = compile_filter({"metadata.kind": "z"})
    assert kind.condition is not None
    found = reader.facets.matching(kind.condition, None)
    assert found is not None and found.tolist() == [2]


def test_metadata_keys_past_the_limit_go_to_sql_and_held_ones_survive_a_reload(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(facets_module, "MAX_METADATA_KEYS", 2)
    store(app, range(40))
    engine, facets = app.engine, app.engine.indexes.facets
    specs = [{"metadata.kind": "x"}, {"metadata.n": {"gte": 2}}, {"metadata.flag": True}]
    for spec in specs:
        engine.catch_up(facets.holder(compile_filter(spec).condition))
    assert facets.metadata_keys == {"metadata.kind", "metadata.n"}
    engine.rebuild_indexes()  # a full load reads the held keys anew
    assert facets.metadata_keys == {"metadata.kind", "metadata.n"}
    with app.db.snapshot() as conn:
        for spec, held in zip(specs, (True, True, False), strict=True):
            compiled = compile_filter(spec)
            assert compiled.condition is not None
            found = facets.matching(compiled.condition, None)
            expected = sql.matching_seqs(conn, compiled.sql, compiled.params).tolist()
            assert (found is not None) == held
            allowed = admitted(conn, compiled, facets)
            assert allowed is not None and allowed.keys is not None
            assert allowed.keys.tolist() == expected and expected, spec
    hits = app.memory.recall("harbour", filters={"metadata.flag": True}).memories
    assert hits and all(hit.metadata.get("flag") in (True, 1) for hit in hits)


def test_filtered_keyword_search_reads_the_mirrors(app: App) -> None:
    """A filtered recall's keyword ranking, from the keyword mirror restricted to what the
    facets admit, is the one SQL gives for the same filter."""
    store(app, range(keyword_module.MIRROR_FROM + 20))
    engine = app.engine
    for spec in FILTERS[:8] + UNMIRRORED[:2]:
        compiled = compile_filter(spec, "a")
        for query in ("harbour lantern", "quarry note", "glacier delta meadow"):
            match = fts_match(query)
            assert match is not None
            prepared = pipeline.prepare(app.db, engine, "a", compiled, True, 20, query)
            assert isinstance(engine.indexes.keywords, MirroredKeywords)
            assert engine.indexes.keywords.mirror.loaded
            with app.db.snapshot() as conn:
                expected = sql.keyword_search(conn, match, compiled.sql, compiled.params, 20)
            assert sorted(prepared.keyword) == sorted(seq for seq, _ in expected), spec
            scores = [prepared.keyword[seq] for seq, _ in expected]
            assert scores == pytest.approx([-rank for _, rank in expected], rel=1e-12)


def test_a_filtered_dated_question_searches_the_admitted_memories_of_its_period(
    app: App,
) -> None:
    store(app, range(80))
    engine = app.engine
    query = "what happened in June 2024"
    periods = when.periods_in(query, datetime.now(UTC), [2024, 2025, 2026])
    spans = [when.search_bounds(period) for period in periods]
    for spec in ({"tags": "work"}, {"importance": {"gte": 0.5}}, {"metadata.kind": "x"}):
        compiled = compile_filter(spec)
        prepared = pipeline.prepare(app.db, engine, None, compiled, True, 20, query)
        with app.db.snapshot() as conn:
            expected = timeline.seqs_within(conn, spans, compiled.sql, compiled.params, 5000)
        assert prepared.within is not None and prepared.within.size > 0
        assert sorted(prepared.within.tolist()) == sorted(expected.tolist()), spec
