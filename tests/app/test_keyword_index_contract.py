"""One contract every `KeywordIndex` passes: FTS5 in SQL (the reference) and the in-memory
mirror in front of it, loaded or not. All answer alike, restricted alike."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from loci.app import App
from loci.engine.search.filters import compile_filter
from loci.storage.indexes.keywords.mirror import KeywordMirror
from loci.storage.indexes.keywords.protocol import (
    KeywordIndex,
    KeywordQuery,
    MirroredKeywords,
    SqlKeywords,
)
from tests.app.test_keyword_mirror import QUERY_WORDS, sentences, store

Factory = Callable[[App], KeywordIndex]
#: A `mirror_from` no store reaches: the mirror stays unloaded and SQL answers.
NEVER = 2**62


def mirror_of(app: App, mirror_from: int) -> KeywordIndex:
    """A mirror loaded as a process loads it (or never, below `mirror_from`)."""
    mirror = KeywordMirror(mirror_from=mirror_from)
    with app.db.locked() as conn:  # the temp tables are made outside a transaction
        mirror.prepare(conn)
    with app.db.snapshot() as conn:
        mirror.load(conn)
    assert mirror.loaded == (mirror_from != NEVER)  # so that the mirror, not SQL, answers
    return MirroredKeywords(mirror)


def same(found: list[tuple[int, float]], expected: list[tuple[int, float]]) -> None:
    assert [seq for seq, _ in found] == [seq for seq, _ in expected]
    assert [s for _, s in found] == pytest.approx([s for _, s in expected], rel=1e-12)


IMPLEMENTATIONS: dict[str, Factory] = {
    "sql": lambda app: SqlKeywords(),
    "mirror": lambda app: mirror_of(app, 1),
    "mirror-unloaded": lambda app: mirror_of(app, NEVER),
}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def index(request: pytest.FixtureRequest, app: App) -> KeywordIndex:
    store(app, sentences(300))
    return IMPLEMENTATIONS[request.param](app)


def query(words, namespaces=None, within=None, mirrorable=True, limit=20) -> KeywordQuery:
    compiled = compile_filter({"namespace": {"in": sorted(namespaces)}} if namespaces else None)
    where, params = compiled.sql, list(compiled.params)
    if within is not None:
        where = f"({where}) AND m.seq IN ({','.join('?' * len(within))})"
        params += within
    keys = None if within is None else np.array(within, dtype=np.int64)
    return KeywordQuery(words, limit, namespaces, keys, where, params, mirrorable)


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


def test_a_restriction_only_sql_can_read_goes_to_sql(app: App, index: KeywordIndex) -> None:
    asked = query(QUERY_WORDS[1], within=[1, 2, 3], mirrorable=False)._replace(
        where="m.seq > ?", params=[250]
    )
    with app.db.snapshot() as conn:
        found = index.search(conn, asked)
    assert found and all(seq > 250 for seq, _ in found)


def test_no_words_and_no_room_find_nothing(app: App, index: KeywordIndex) -> None:
    with app.db.snapshot() as conn:
        assert index.search(conn, query([])) == []
        assert index.search(conn, query(["darcy"], limit=0)) == []
        assert index.search(conn, query(["zebraunicorn"])) == []
