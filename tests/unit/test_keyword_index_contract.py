"""One contract every `KeywordIndex` passes (FTS5 in SQL is the reference; another engine's
index joins the list): the best matches of any word, best first, restricted as asked."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import numpy as np
import pytest

from loci.app import App
from loci.memory.transfer import ImportOptions
from loci.search.filters import compile_filter
from loci.search.query_words import keyword_terms
from loci.storage.keyword_index import KeywordIndex, KeywordQuery, SqlKeywords
from tests import prose

Factory = Callable[[App], KeywordIndex]

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


def same(found: list[tuple[int, float]], expected: list[tuple[int, float]]) -> None:
    assert [seq for seq, _ in found] == [seq for seq, _ in expected]
    assert [s for _, s in found] == pytest.approx([s for _, s in expected], rel=1e-12)


IMPLEMENTATIONS: dict[str, Factory] = {"sql": lambda app: SqlKeywords()}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def index(request: pytest.FixtureRequest, app: App) -> KeywordIndex:
    store(app, sentences(300))
    return IMPLEMENTATIONS[request.param](app)


def query(words, namespaces=None, within=None, limit=20) -> KeywordQuery:
    compiled = compile_filter({"namespace": {"in": sorted(namespaces)}} if namespaces else None)
    where, params = compiled.sql, list(compiled.params)
    if within is not None:
        where = f"({where}) AND m.seq IN ({','.join('?' * len(within))})"
        params += within
    return KeywordQuery(words, limit, where, params)


def reference(app: App, asked: KeywordQuery) -> list[tuple[int, float]]:
    with app.db.snapshot() as conn:
        return SqlKeywords().search(conn, asked)


@pytest.mark.parametrize("namespaces", [None, frozenset({"a"}), frozenset({"nowhere"})])
def test_every_implementation_answers_as_fts5(
    app: App, index: KeywordIndex, namespaces: frozenset[str] | None
) -> None:
    for words in QUERY_WORDS:
        asked = query(words, namespaces)
        with app.db.snapshot() as conn:
            found = index.search(conn, asked)
        same(found, reference(app, asked))
        assert len(found) <= asked.limit
        assert [s for _, s in found] == sorted(s for _, s in found)  # best (lowest) first


def test_a_restriction_to_some_memories_is_kept(app: App, index: KeywordIndex) -> None:
    within = list(range(1, 300, 7))
    for words in QUERY_WORDS:
        asked = query(words, within=within)
        with app.db.snapshot() as conn:
            found = index.search(conn, asked)
        assert {seq for seq, _ in found} <= set(within)
        same(found, reference(app, asked))


def test_any_sql_restriction_is_kept(app: App, index: KeywordIndex) -> None:
    asked = query(QUERY_WORDS[1])._replace(where="m.seq > ?", params=[250])
    with app.db.snapshot() as conn:
        found = index.search(conn, asked)
    assert found and all(seq > 250 for seq, _ in found)


def test_no_words_and_no_room_find_nothing(app: App, index: KeywordIndex) -> None:
    with app.db.snapshot() as conn:
        assert index.search(conn, query([])) == []
        assert index.search(conn, query(["darcy"], limit=0)) == []
        assert index.search(conn, query(["zebraunicorn"])) == []
