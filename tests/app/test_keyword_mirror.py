"""The in-memory keyword mirror answers exactly what FTS5's bm25() search answers, and follows
every write: its own process's, another process's, deletions, renames, bulk loads."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.engine.search.filters import compile_filter
from loci.engine.search.query_words import fts_match, keyword_terms
from loci.settings import load_settings
from loci.storage.databases.sqlite import SqliteDatabase
from loci.storage.indexes.facets.mirror import MemoryFacets
from loci.storage.indexes.keywords import mirror as keyword_module
from loci.storage.indexes.keywords.fts_terms import TOKENIZE
from loci.storage.indexes.keywords.mirror import KeywordMirror
from loci.storage.indexes.keywords.protocol import MirroredKeywords, SqlKeywords
from loci.storage.indexes.sync import IndexSync
from loci.storage.indexes.vectors.embedded import EmbeddedIndex
from loci.storage.indexes.vectors.memory_vectors import MemoryVectors
from loci.storage.memory_tables import memories as sql
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.transfer import ImportOptions
from tests import prose

EXTRA = [
    "Le café naïve résumé über Straße",  # diacritics and case folding
    "!!! ... ???",  # no tokens at all: still a row to FTS5's statistics
    "running runs runner ran",  # one stem for several words
    "Darcy Darcy Darcy Darcy",  # repeated terms
    "snake_case e-mail 3.14 2024-05-01",
]
QUERIES = [
    "Who is going to marry Mr. Bingley?",
    "What did Elizabeth think of Mr. Darcy at the ball?",
    "Where does Mr. Collins live",
    "letter from Jane",
    "café résumé",
    "run",
    "the of and",  # every word common: idf floors
    "zebra unicorn",  # no match
    "Darcy",
    "Lydia officers Brighton",
    "running runs letters letter",  # words of one stem: each counts, as in FTS5
]
QUERY_WORDS = [keyword_terms(q) for q in QUERIES]


def sentences(count: int) -> list[str]:
    return (EXTRA + prose.sentences(count))[:count]


def store(
    app: App,
    texts: list[str],
    namespaces: tuple[str, ...] = ("a", "b"),
    metadata: Callable[[int], dict[str, object]] = lambda _: {},
) -> None:
    """Store texts with made-up vectors (the mirror never looks at them), the i-th text with
    `metadata(i)`."""
    rng = np.random.default_rng(len(texts))
    vectors = rng.standard_normal((len(texts), 384))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    stamp = "2026-01-01T00:00:00.000000Z"
    memories = [
        {
            "id": str(uuid.uuid4()),
            "content": text,
            "namespace": namespaces[i % len(namespaces)],
            "tags": [],
            "importance": 0.5,
            "source": "manual",
            "metadata": metadata(i),
            "created_at": stamp,
            "updated_at": stamp,
            "last_accessed": stamp,
            "access_count": 0,
            "vector": vector.tolist(),
        }
        for i, (text, vector) in enumerate(zip(texts, vectors, strict=True))
    ]
    data = {"embedding_model": "all-MiniLM-L6-v2", "memories": memories}
    result = app.transfer.import_data(
        data, ImportOptions(skip_duplicates=False, recompute_vectors=False)
    )
    assert result.imported == len(texts)


@dataclass
class Reader:
    """Another process's view of the app's store: its own connection, index and mirrors."""

    db: SqliteDatabase
    sync: IndexSync
    facets: MemoryFacets
    mirror: KeywordMirror


def reader_of(app: App, mirror_from: int = 1) -> Reader:
    """Indexes of the app's store kept in step as another process keeps them."""
    db = SqliteDatabase(app.db.path)
    facets, mirror = MemoryFacets(), KeywordMirror(mirror_from=mirror_from)
    sync = IndexSync(db, [MemoryVectors(EmbeddedIndex(384), 384), facets, mirror])
    return Reader(db, sync, facets, mirror)


@pytest.fixture
def opened() -> Iterator[list[SqliteDatabase]]:
    databases: list[SqliteDatabase] = []
    yield databases
    for db in databases:
        db.close()


def mirrored(app: App, opened: list[SqliteDatabase], mirror_from: int = 1) -> Reader:
    """A reader of the app's store whose mirror loads from `mirror_from` memories."""
    reader = reader_of(app, mirror_from)
    opened.append(reader.db)
    reader.sync.refresh()
    return reader


def agree(reader: Reader, limit: int = 20, within: list[int] | None = None) -> int:
    """Assert the mirror answers each query as SQL does (same memories in the same order, same
    scores), among the seqs `within` when given; returns how many results were compared."""
    compared = 0
    for namespaces in (None, frozenset({"a"}), frozenset({"b", "c"}), frozenset({"nowhere"})):
        compiled = compile_filter({"namespace": {"in": sorted(namespaces)}} if namespaces else None)
        where, params = compiled.sql, compiled.params
        if within is not None:
            where = f"({where}) AND m.seq IN ({','.join('?' * len(within))})"
            params = [*params, *within]
        restricted = None if within is None else np.array(within, dtype=np.int64)
        with reader.db.snapshot() as conn:
            for words in QUERY_WORDS:
                expected = sql.keyword_search(
                    conn, fts_match(" ".join(words)) or "", where, params, limit
                )
                found = reader.mirror.search(conn, words, namespaces, limit, restricted)
                assert found is not None
                assert [seq for seq, _ in found] == [seq for seq, _ in expected], words
                assert [s for _, s in found] == pytest.approx([s for _, s in expected], rel=1e-12)
                compared += len(found)
    return compared


def test_the_tokenizer_is_the_keyword_index_s(app: App) -> None:
    with app.db.locked() as conn:
        schema = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'memories_fts'"
        ).fetchone()[0]
    assert f"tokenize='{TOKENIZE}'" in schema


def test_a_loaded_mirror_answers_as_sql_does(app: App, opened: list[SqliteDatabase]) -> None:
    store(app, sentences(600))
    reader = mirrored(app, opened)
    assert reader.mirror.loaded
    assert agree(reader) > 200


def test_it_follows_inserts_deletes_renames_and_rewrites(
    app: App, opened: list[SqliteDatabase]
) -> None:
    store(app, sentences(600))
    reader = mirrored(app, opened)
    store(app, [*sentences(640)[600:], "Darcy wrote a letter to Jane", "a letter, a letter"])
    with app.db.write() as conn:  # rewrite old and new memories behind loci's back
        conn.execute("UPDATE memories SET content = 'Bingley letter Darcy' WHERE seq IN (7, 601)")
        conn.execute("DELETE FROM memories WHERE seq IN (3, 9, 600, 602)")
    app.catalog.namespaces("rename", "b", "c")
    reader.sync.refresh()
    assert reader.mirror.loaded and not reader.mirror.needs_reload()
    assert agree(reader) > 200


def test_it_searches_within_given_memories_as_sql_does(
    app: App, opened: list[SqliteDatabase]
) -> None:
    store(app, sentences(600))
    reader = mirrored(app, opened)
    store(app, [*sentences(640)[600:], "Darcy wrote a letter to Jane"])  # kept aside as recent
    reader.sync.refresh()
    assert agree(reader, within=list(range(1, 642, 3))) > 100
    assert agree(reader, within=[]) == 0


def test_a_bulk_write_makes_it_read_anew(
    app: App, opened: list[SqliteDatabase], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keyword_module, "RELOAD_MIN", 50)
    store(app, sentences(600))
    reader = mirrored(app, opened)
    loads = []
    original = KeywordMirror.read
    monkeypatch.setattr(
        KeywordMirror, "read", lambda self, conn: loads.append(original(self, conn))
    )
    store(app, sentences(700)[600:])
    reader.sync.refresh()
    assert len(loads) == 1 and reader.mirror.loaded
    assert agree(reader) > 200


def test_another_process_s_writes_reach_it(
    app: App, second_app: App, opened: list[SqliteDatabase]
) -> None:
    store(app, sentences(600))
    reader = mirrored(app, opened)
    second_app.memory.remember(MemoryDraft("Zebras and unicorns met Darcy", namespace="a"))
    reader.sync.refresh()
    with reader.db.snapshot() as conn:
        found = reader.mirror.search(conn, ["zebras"], None, 5)
    assert found is not None and len(found) == 1
    assert agree(reader) > 200


def test_it_grows_into_a_mirror_and_small_stores_use_sql(
    app: App, opened: list[SqliteDatabase]
) -> None:
    store(app, sentences(100))
    reader = mirrored(app, opened, mirror_from=150)
    assert not reader.mirror.loaded
    with reader.db.snapshot() as conn:
        assert reader.mirror.search(conn, ["darcy"], None, 5) is None
    store(app, sentences(200)[100:])
    reader.sync.refresh()
    assert reader.mirror.loaded
    assert agree(reader) > 100


def test_words_that_are_phrases_to_fts5_go_to_sql(app: App, opened: list[SqliteDatabase]) -> None:
    store(app, sentences(600))
    reader = mirrored(app, opened)
    with reader.db.snapshot() as conn:
        assert reader.mirror.search(conn, ["snake_case"], None, 5) is None
        assert reader.mirror.search(conn, ["darcy"], None, 0) == []


def test_recall_ranks_the_same_with_and_without_the_mirror(home: Path, embedder) -> None:
    app = build_app(load_settings(home=home), embedder=embedder)
    try:
        texts = sentences(keyword_module.MIRROR_FROM + 50)
        app.memory.remember_batch([MemoryDraft(t, namespace="a") for t in texts[:40]])
        store(app, texts[40:], namespaces=("a",))
        app.memory.warm_up()
        keywords = app.engine.indexes.keywords
        assert isinstance(keywords, MirroredKeywords)
        mirror = keywords.mirror
        assert mirror.loaded
        questions = ["Who will marry Mr. Bingley?", "What did Lydia do in Brighton?"]
        with_mirror = [app.memory.recall(q, 10, "a").memories for q in questions]
        mirror.unload()
        without = [app.memory.recall(q, 10, "a").memories for q in questions]
        assert [[m.id for m in r] for r in with_mirror] == [[m.id for m in r] for r in without]
    finally:
        app.close()


def test_an_app_for_one_command_keeps_no_mirror_and_ranks_the_same(
    app: App, home: Path, embedder: OnnxMiniLM
) -> None:
    store(app, sentences(KeywordMirror().mirror_from + 100))  # a store a server mirrors
    one_shot = build_app(load_settings(home=home), embedder=embedder, long_lived=False)
    try:
        for query in QUERIES:
            served = app.memory.recall(query, limit=10, hybrid_alpha=0.0).memories
            once = one_shot.memory.recall(query, limit=10, hybrid_alpha=0.0).memories
            assert [(m.id, pytest.approx(m.score)) for m in once] == [
                (m.id, m.score) for m in served
            ]
        served_keywords = app.engine.indexes.keywords
        assert isinstance(served_keywords, MirroredKeywords) and served_keywords.mirror.loaded
        assert isinstance(one_shot.engine.indexes.keywords, SqlKeywords)
    finally:
        one_shot.close()
