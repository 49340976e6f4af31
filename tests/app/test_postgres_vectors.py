"""Vector search in PostgreSQL: exact while small or narrowly filtered (the same hits as an
exact scan in numpy), through HNSW above a size (near-exact), filtered before ranking."""

from __future__ import annotations

import numpy as np
import pytest

from loci.storage.databases.vector_blob import VectorBlob
from loci.storage.indexes.vectors.protocol import Allowed
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables.schema import MEMORY_SCHEMA
from tests.logic.test_vector_index import embeddings_like

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")

from loci.storage.databases.postgres.database import PostgresDatabase
from loci.storage.indexes.keywords.postgres import KeywordPostings
from loci.storage.indexes.vectors.postgres import PgVectorIndex

DIMENSIONS = 384
NAMESPACES = ("a", "b", "c")


def memory(name: str, namespace: str, vector: np.ndarray) -> sql.NewMemory:
    """A memory of that name (its text and id) and vector."""
    blob = vector.astype("<f4").tobytes()
    return sql.NewMemory(
        name, name, f"h{name}", namespace, [], 0.5, "agent", "{}", "t", "t", "t", 0, blob
    )


def add_passages(db, rows) -> None:
    """Passages of (memory seq, vector)."""
    with db.write() as conn:
        conn.executemany(
            'INSERT INTO passages (seq, start, "end", embedding) VALUES (?, ?, ?, ?)',
            [(seq, 0, 1, VectorBlob(p.astype("<f4").tobytes())) for seq, p in rows],
        )


def stored(db, count: int) -> np.ndarray:
    """`count` memories with unit vectors; the i-th has seq i + 1 and namespace i % 3."""
    vectors = embeddings_like(count, seed=11)
    items = [memory(f"text {i}", NAMESPACES[i % 3], vectors[i]) for i in range(count)]
    with db.write() as conn:
        sql.ensure_namespaces(conn, set(NAMESPACES), "t")
        assert sql.insert_memories(conn, items) == list(range(1, count + 1))
    return vectors


def exact(vectors, query, k, admitted=None):
    scores = vectors @ query
    keys = range(vectors.shape[0]) if admitted is None else admitted
    return sorted(keys, key=lambda key: (-float(scores[key]), key))[:k]


@pytest.fixture
def db(postgres_url):
    keywords = KeywordPostings({1: lambda conn, docs: []})
    database = PostgresDatabase(
        postgres_url, schemas=(MEMORY_SCHEMA,), before_commit=(keywords.refresh_stale,)
    )
    yield database
    database.close()


def test_a_small_store_is_searched_exactly(db):
    vectors = stored(db, 600)
    index = PgVectorIndex(db, DIMENSIONS)
    index.warm()  # too small for HNSW: nothing made
    assert index.count() == 600
    for query in embeddings_like(6, seed=12):
        hits = index.search(query, 10)
        assert [h.key - 1 for h in hits] == exact(vectors, query, 10)
        assert [h.similarity for h in hits] == pytest.approx(
            [float(vectors[h.key - 1] @ query) for h in hits], abs=1e-5
        )


def test_filters_apply_before_ranking(db):
    vectors = stored(db, 600)
    index = PgVectorIndex(db, DIMENSIONS)
    query = embeddings_like(1, seed=13)[0]
    in_b = [i for i in range(600) if NAMESPACES[i % 3] == "b"]
    hits = index.search(query, 10, Allowed(namespaces=frozenset({"b"})))
    assert [h.key - 1 for h in hits] == exact(vectors, query, 10, in_b)
    few = np.array([5, 17, 300, 599], dtype=np.int64)
    hits = index.search(query, 10, Allowed(keys=few))
    assert [h.key - 1 for h in hits] == exact(vectors, query, 10, (few - 1).tolist())
    assert index.search(query, 10, Allowed(keys=np.array([], dtype=np.int64))) == []
    assert index.search(query, 10, Allowed(namespaces=frozenset({"nowhere"}))) == []


def test_a_large_store_is_searched_through_hnsw_near_exactly(db):
    vectors = stored(db, 3000)
    index = PgVectorIndex(db, DIMENSIONS, hnsw_from=1000)
    index.warm()
    with db.locked() as conn:
        assert conn.execute("SELECT to_regclass('memory_vectors_hnsw_384')").fetchone()[0]
    agreement = []
    for query in embeddings_like(20, seed=14):
        hits = index.search(query, 10)
        assert len(hits) == 10
        assert [h.similarity for h in hits] == sorted((h.similarity for h in hits), reverse=True)
        agreement.append(len({h.key - 1 for h in hits} & set(exact(vectors, query, 10))) / 10)
    assert np.mean(agreement) >= 0.95
    query = embeddings_like(1, seed=15)[0]
    in_c = [i for i in range(3000) if NAMESPACES[i % 3] == "c"]
    hits = index.search(query, 10, Allowed(namespaces=frozenset({"c"})))
    assert len(hits) == 10 and all(NAMESPACES[(h.key - 1) % 3] == "c" for h in hits)
    assert len({h.key - 1 for h in hits} & set(exact(vectors, query, 10, in_c))) >= 9


def test_vectors_are_read_back_as_stored(db):
    vectors = stored(db, 30)
    index = PgVectorIndex(db, DIMENSIONS)
    assert np.array_equal(index.get(4), vectors[3])
    assert index.get(999) is None
    query = embeddings_like(1, seed=16)[0]
    found = index.similarities(query, np.array([1, 999, 30], dtype=np.int64))
    assert found[0] == pytest.approx(float(vectors[0] @ query), abs=1e-5)
    assert np.isnan(found[1]) and found[2] == pytest.approx(float(vectors[29] @ query), abs=1e-5)


def test_a_store_that_grows_large_gets_its_hnsw_index_in_the_background(db):
    vectors = stored(db, 1200)
    with db.write() as conn:
        conn.execute("ANALYZE memory_vectors")  # the size check reads the table's statistics
    index = PgVectorIndex(db, DIMENSIONS, hnsw_from=1000)
    query = embeddings_like(1, seed=17)[0]
    exact_hits = index.search(query, 10)  # exact, and starts the build
    assert [h.key - 1 for h in exact_hits] == exact(vectors, query, 10)
    builder = index._builder
    assert builder is not None
    builder.join(timeout=120)
    with db.locked() as conn:
        valid = conn.execute(
            "SELECT indisvalid FROM pg_index WHERE indexrelid = 'memory_vectors_hnsw_384'::regclass"
        ).fetchone()
    assert valid == (True,)
    assert len(index.search(query, 10)) == 10


def test_builds_at_once_do_not_collide_and_a_failed_one_is_built_again(db):
    import threading

    stored(db, 1200)
    index = PgVectorIndex(db, DIMENSIONS, hnsw_from=1000)
    builders = [threading.Thread(target=index.warm) for _ in range(3)]
    for builder in builders:
        builder.start()
    for builder in builders:
        builder.join(timeout=120)
    valid = "SELECT indisvalid FROM pg_index WHERE indexrelid = 'memory_vectors_hnsw_384'::regclass"
    with db.locked() as conn:
        assert conn.execute(valid).fetchone() == (True,)
        # As a build that failed half-way leaves it.
        conn.execute(
            "UPDATE pg_index SET indisvalid = FALSE "
            "WHERE indexrelid = 'memory_vectors_hnsw_384'::regclass"
        )
    index.warm()
    with db.locked() as conn:
        assert conn.execute(valid).fetchone() == (True,)


@pytest.mark.parametrize("hold_up_to", [0, 10_000])
def test_passages_are_searched_by_their_memories(db, hold_up_to):
    """Each memory found by its best passage, exactly while few (held in the server, or
    scanned by the database when none may be held) and through HNSW when many."""
    from loci.storage.indexes.passages.postgres import PgPassageIndex

    stored(db, 600)
    passages = embeddings_like(2400, seed=16)  # four per memory
    add_passages(db, [(i // 4 + 1, p) for i, p in enumerate(passages)])
    best_of = passages.reshape(600, 4, DIMENSIONS)
    index = PgPassageIndex(db, DIMENSIONS, hnsw_from=2000, hold_up_to=hold_up_to)
    assert index.holds_any()
    query = embeddings_like(1, seed=17)[0]
    scores = (best_of @ query).max(axis=1)
    expected = sorted(range(600), key=lambda i: (-float(scores[i]), i))[:10]
    assert [h.key - 1 for h in index.search(query, 10)] == expected
    assert index.best(query, np.array([1, 2, 9999])) == pytest.approx(
        [scores[0], scores[1], np.nan], nan_ok=True, abs=1e-5
    )
    in_a = [h.key for h in index.search(query, 5, Allowed(namespaces=frozenset({"a"})))]
    assert len(in_a) == 5 and all(NAMESPACES[(seq - 1) % 3] == "a" for seq in in_a)
    assert index._held._position >= 0 if hold_up_to else index._held._position < 0
    if hold_up_to:
        return
    index.warm()
    with db.locked() as conn:
        assert conn.execute("SELECT to_regclass('passages_hnsw_384')").fetchone()[0]
    found = [h.key - 1 for h in index.search(query, 10)]
    assert len(set(found) & set(expected)) >= 9


def test_a_filter_given_as_sql_is_applied_by_the_database(db):
    """Filters go to PostgreSQL as SQL over `memories m` (no list of admitted keys): through
    HNSW when many are admitted, exactly when the scan runs out before finding enough."""
    vectors = stored(db, 3000)
    index = PgVectorIndex(db, DIMENSIONS, hnsw_from=1000)
    index.warm()
    query = embeddings_like(1, seed=18)[0]
    broad = Allowed(where="m.namespace = ? AND m.importance >= ?", params=("c", 0.5))
    in_c = [i for i in range(3000) if NAMESPACES[i % 3] == "c"]
    hits = index.search(query, 10, broad)
    assert all(NAMESPACES[(h.key - 1) % 3] == "c" for h in hits)
    assert len({h.key - 1 for h in hits} & set(exact(vectors, query, 10, in_c))) >= 9
    few = Allowed(where="m.content IN (?, ?, ?)", params=("text 5", "text 17", "text 2999"))
    assert [h.key - 1 for h in index.search(query, 10, few)] == exact(
        vectors, query, 10, [5, 17, 2999]
    )
    none = Allowed(namespaces=frozenset({"a"}), where="m.content = ?", params=("text 1",))
    assert index.search(query, 10, none) == []  # text 1 is in namespace b


def test_small_namespaces_beside_a_large_one_are_ranked_exactly(db):
    """Once the statistics know the namespaces' sizes, the small ones are searched exactly
    beside the HNSW scan of the large one: what they hold is never out of the index's reach."""
    from loci.storage.indexes.vectors.postgres_namespace_sizes import NamespaceSizes

    vectors = stored(db, 3000)
    with db.write() as conn:  # "a" becomes large (2,700); "b" and "c" keep 150 each
        conn.execute("UPDATE memories SET namespace = 'a' WHERE seq % 10 <> 0")
        conn.execute("ANALYZE memories")
    small = [i for i in range(3000) if (i + 1) % 10 == 0]
    sizes = NamespaceSizes(exact_beside=1000)
    large = frozenset({"a"})
    with db.snapshot() as conn:
        assert sizes.split(conn, None) == (None, large, large)  # None: every small one
        assert sizes.split(conn, frozenset({"b"})) == ({"b"}, frozenset(), large)
        assert NamespaceSizes(exact_beside=160).split(conn, None) is None  # 300 beside
    index = PgVectorIndex(db, DIMENSIONS, hnsw_from=1000)
    index._sizes = sizes
    index.warm()
    agreement = []
    for query in embeddings_like(10, seed=19):
        hits = index.search(query, 50)
        # Every one of the exact top 50 that is in a small namespace is found.
        assert set(exact(vectors, query, 50)) & set(small) <= {h.key - 1 for h in hits}
        top = {h.key - 1 for h in hits[:10]}
        agreement.append(len(top & set(exact(vectors, query, 10))) / 10)
        in_b = index.search(query, 10, Allowed(namespaces=frozenset({"b", "a"})))
        assert len(in_b) == 10
        # A small namespace alone is ranked exactly, from the vectors held in the server.
        only_b = [i for i in small if NAMESPACES[i % 3] == "b"]
        alone = index.search(query, 10, Allowed(namespaces=frozenset({"b"})))
        assert [h.key - 1 for h in alone] == exact(vectors, query, 10, only_b)
    assert np.mean(agreement) >= 0.95


def test_the_small_namespaces_held_follow_every_servers_changes(db, postgres_url):
    """What the server holds of the small namespaces is a derived index `IndexSync` keeps in
    step with the change log, as the engine does before each search: a memory another server
    adds, moves or forgets is found, or not, at the next search; a reset log loads them anew."""
    from loci.storage.indexes.sync import IndexSync
    from loci.storage.indexes.vectors.postgres_namespace_sizes import NamespaceSizes
    from loci.storage.memory_tables.change_log import reload_everywhere

    vectors = stored(db, 3000)
    with db.write() as conn:
        conn.execute("UPDATE memories SET namespace = 'a' WHERE seq % 10 <> 0")
        conn.execute("ANALYZE memories")
    index = PgVectorIndex(db, DIMENSIONS, hnsw_from=1000)
    index._sizes = NamespaceSizes(exact_beside=1000)
    index.warm()
    sync = IndexSync(db, [index.held])

    def search(k: int, allowed: Allowed | None = None) -> list[int]:
        sync.refresh()
        return [hit.key for hit in index.search(query, k, allowed)]

    query = embeddings_like(1, seed=23)[0]
    in_c = Allowed(namespaces=frozenset({"c"}))
    search(5, in_c)  # loads what is held
    other = PostgresDatabase(postgres_url, schemas=(MEMORY_SCHEMA,))
    try:
        near = memory("near", "c", query)
        with other.write() as conn:
            (added,) = sql.insert_memories(conn, [near])
        assert index.search(query, 1, in_c)[0].key != added  # not seen before the sync's refresh
        assert search(1, in_c) == [added]
        assert search(1) == [added]  # unfiltered: held part included
        moved = exact(vectors, query, 1, [i for i in range(3000) if (i + 1) % 10])[0] + 1
        with other.write() as conn:
            conn.execute("DELETE FROM memories WHERE seq = ?", (added,))
            conn.execute("UPDATE memories SET namespace = 'c' WHERE seq = ?", (moved,))
        assert search(1, in_c) == [moved]
        with other.write() as conn:
            conn.execute("UPDATE memories SET namespace = 'a' WHERE seq = ?", (moved,))
            reload_everywhere(conn)
        assert moved not in search(50, in_c)
    finally:
        other.close()


def test_an_index_another_server_built_is_used_once_its_state_is_read_again(db, monkeypatch):
    from loci.storage.indexes.vectors import postgres as pg_vectors

    stored(db, 1200)
    here, there = (PgVectorIndex(db, DIMENSIONS, hnsw_from=1000) for _ in range(2))
    with db.locked() as conn:
        assert not here._has_index(conn)  # read now, trusted for a while
    there.warm()
    with db.locked() as conn:
        assert not here._has_index(conn)
        monkeypatch.setattr(pg_vectors, "INDEX_CHECK_SECONDS", 0.0)
        assert here._has_index(conn)


def test_passages_grown_past_what_is_held_are_searched_by_the_database(db, monkeypatch):
    """Held while few; once there are more than `hold_up_to`, dropped from the server and
    searched by the database, with the same answer."""
    from loci.storage.indexes.passages import postgres as passage_vectors
    from loci.storage.indexes.passages.postgres import PgPassageIndex

    stored(db, 300)
    passages = embeddings_like(600, seed=29)
    add_passages(db, [(i % 300 + 1, p) for i, p in enumerate(passages[:300])])
    monkeypatch.setattr(passage_vectors, "COUNT_EVERY_SECONDS", 0.0)
    index = PgPassageIndex(db, DIMENSIONS, hold_up_to=400)
    query = embeddings_like(1, seed=31)[0]
    held = index.search(query, 10)
    assert index._held._position >= 0
    add_passages(db, [(i % 300 + 1, p) for i, p in enumerate(passages[300:])])
    grown = index.search(query, 10)
    assert index._held._position < 0  # dropped: 600 passages are more than 400
    first = passages[:300] @ query
    assert [h.key - 1 for h in held] == sorted(range(300), key=lambda i: (-first[i], i))[:10]
    best = (passages.reshape(2, 300, DIMENSIONS) @ query).max(axis=0)
    assert [h.key - 1 for h in grown] == sorted(range(300), key=lambda i: (-best[i], i))[:10]


def test_held_vectors_loaded_from_an_older_state_than_the_sync_reached_are_loaded_again(db):
    """A batch of the change log that starts after what the held vectors were loaded from
    (a search loaded them while another thread's refresh read on) cannot be applied: they are
    dropped and loaded again at the next search."""
    from loci.storage.indexes.derived import MemoryChanges

    stored(db, 300)
    index = PgVectorIndex(db, DIMENSIONS)
    held = index.held
    query = embeddings_like(1, seed=37)[0]
    with db.locked() as conn:
        first = held.nearest(conn, query, 5, None, frozenset())
        loaded_at = held._position
        assert loaded_at >= 0 and len(first) == 5
        held.apply(conn, MemoryChanges([], [], [], loaded_at, loaded_at))  # nothing new
        assert held._position == loaded_at
        held.apply(conn, MemoryChanges([1], [], [], loaded_at + 1, loaded_at + 2))
        assert held._position < 0  # entries it never saw: dropped
        assert held.nearest(conn, query, 5, None, frozenset()) == first  # loaded again
