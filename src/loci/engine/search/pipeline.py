"""One recall, in two halves that run side by side.

The database half (`prepare`, run in the worker thread) checks the namespace and the model,
finds what the filter admits, runs the keyword search (over memories, through the keyword
index, and over whole sequences when the store holds any), and reads the periods the query
names ("in May 2023", "last week"), adding the best keyword matches inside them and the
memories they hold for a vector search of their own. The query half (`embed_beside`) embeds
the text the vector search uses meanwhile. Once the query's vector is known, `ranked` adds the
vector candidates and ranks them all. When the indexes are the database's own (PostgreSQL),
the vector search (`vector_found`) starts as soon as the vector is known, while the database
half finishes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from loci.engine.search import hybrid, when
from loci.engine.search.engine import MemoryEngine, require_namespace
from loci.engine.search.filters import CompiledFilter, admitted, admitted_as_sql
from loci.engine.search.query_words import keyword_terms, named_speaker, vector_query
from loci.engine.search.signals import Profile
from loci.engine.search.when import Period
from loci.engine.sequences import members
from loci.storage.databases.db import Connection, Database
from loci.storage.indexes.keywords.protocol import KeywordQuery, Matches
from loci.storage.indexes.passages.in_process import PassageSearch
from loci.storage.indexes.vectors.protocol import Allowed, Hit, KeyArray
from loci.storage.memory_tables import timeline

#: At most this many memories of the periods a query names are searched as extra candidates.
MAX_WITHIN = 5000
#: A question names a few periods; a long text given as the query may name hundreds, and only
#: its first this many are searched (each adds to the SQL that finds their memories).
MAX_PERIODS = 32


@dataclass(frozen=True)
class Prepared:
    """What the database said about a query, before its vector is known."""

    allowed: Allowed | None
    keyword: dict[int, float]  # seq -> keyword score, larger is better
    sequences: bool  # whether any memory is in a sequence
    group_keyword: dict[int, float]  # sequence id -> its keyword score, larger is better
    periods: list[Period]  # the periods the query names
    within: KeyArray | None  # admitted memories of those periods (None: no period named)


def prepare(
    db: Database,
    engine: MemoryEngine,
    namespace: str | None,
    compiled: CompiledFilter,
    keyword_search: bool,
    depth: int,
    query: str,
) -> Prepared:
    """Checks, the filter's admitted rows and (if `keyword_search`) the keyword ranking, also
    within the periods the query names; refreshes the index first."""
    words = keyword_terms(query) if keyword_search else []
    indexes = engine.indexes
    facets = indexes.facets
    engine.catch_up(facets.holder(compiled.condition) if facets is not None else None)
    with db.snapshot() as conn:
        if namespace is not None:
            require_namespace(conn, namespace)
        engine.check_model(conn)
        in_sequences = members.any_items(conn)
        allowed = admitted(conn, compiled, indexes.facets)
        keys = allowed.keys if allowed is not None else None
        index = indexes.keywords
        restricted = KeywordQuery(
            words, depth, compiled.namespaces, keys, compiled.sql, compiled.params
        )
        keyword = index.search(conn, restricted) if words else []
        periods, within = _periods(engine, conn, query, compiled, restricted, keyword)
        group_keyword = (
            index.sequences(conn, words, depth, compiled.namespaces)
            if in_sequences and words
            else {}
        )
    # bm25() is lower-is-better and negative for matches: flip it to larger-is-better.
    return Prepared(
        allowed=allowed,
        keyword={seq: -rank for seq, rank in keyword},
        sequences=in_sequences,
        group_keyword=group_keyword,
        periods=periods,
        within=within,
    )


def _periods(
    engine: MemoryEngine,
    conn: Connection,
    query: str,
    compiled: CompiledFilter,
    restricted: KeywordQuery,
    keyword: Matches,
) -> tuple[list[Period], KeyArray | None]:
    """The periods the query names and the memories the filter admits in them (at most
    MAX_WITHIN, the earliest, read off the time index); the best keyword matches among those
    are added to `keyword`."""
    if not when.names_a_time(query):
        return [], None
    periods = when.periods_in(query, datetime.now(UTC), timeline.years(conn))[:MAX_PERIODS]
    if not periods:
        return [], None
    spans = [when.search_bounds(period) for period in periods]
    within = timeline.seqs_within(conn, spans, compiled.sql, compiled.params, MAX_WITHIN)
    if restricted.words and within.size:
        clause, params = timeline.within_clause(spans)
        inside = restricted._replace(
            within=within,
            where=f"({compiled.sql}) AND {clause}",
            params=[*compiled.params, *params],
            # Cut short at MAX_WITHIN, the list no longer says what the clause says.
            mirrorable=within.size < MAX_WITHIN,
        )
        keyword += engine.indexes.keywords.search(conn, inside)
    return periods, within


class Asked(NamedTuple):
    """What a recall asks of ranking: the question, the profile, how many candidates each
    search brings, and whether to explain."""

    query: str
    actor: str | None  # the one actor the query names
    profile: Profile
    depth: int
    explain: bool


class VectorFound(NamedTuple):
    """The vector search's candidates (a long memory by its best passage too), and the
    passages' index when it holds any."""

    hits: list[Hit]
    held: PassageSearch | None


def vector_found(
    engine: MemoryEngine,
    query_vector: npt.NDArray[np.float32],
    allowed: Allowed | None,
    profile: Profile,
    depth: int,
) -> VectorFound:
    """The `depth` allowed memories nearest the query's vector, by their start or their best
    passage."""
    index, passages = engine.indexes.vectors, engine.indexes.passages
    if not profile.vector:
        return VectorFound([], passages if passages.holds_any() else None)
    # A long memory is found by its best passage as well as by its start. None found: none
    # of the allowed memories has passages (asking first would be a query on PostgreSQL).
    if engine.indexes.in_database:  # two searches the database runs side by side
        pending = engine.beside(lambda: passages.search(query_vector, depth, allowed))
        starts = index.search(query_vector, depth, allowed)
        parts = pending.result()
    else:
        starts = index.search(query_vector, depth, allowed)
        parts = passages.search(query_vector, depth, allowed)
    return VectorFound(hybrid.best_of(starts, parts), passages if parts else None)


def search_beside(
    engine: MemoryEngine, compiled: CompiledFilter, profile: Profile, depth: int
) -> Callable[[npt.NDArray[np.float32]], VectorFound] | None:
    """The vector search to run while the keyword search finishes (`embed_beside`), when the
    indexes are the database's own; else None (it waits for the refresh `prepare` runs)."""
    if not engine.indexes.in_database:
        return None
    allowed = admitted_as_sql(compiled)

    def search(vector: npt.NDArray[np.float32]) -> VectorFound:
        engine.catch_up()  # what the process holds beside the database, as `prepare` does
        return vector_found(engine, vector, allowed, profile, depth)

    return search


def ranked(
    db: Database,
    engine: MemoryEngine,
    query_vector: npt.NDArray[np.float32],
    prepared: Prepared,
    asked: Asked,
    found: VectorFound | None = None,
) -> Iterator[hybrid.Ranked]:
    """The ranked candidates (filtered before ranking), best first: the vector search's
    (`found`, if it ran already), with the best matches inside the periods the query names,
    and what `prepare` found."""
    profile, index = asked.profile, engine.indexes.vectors
    if found is None:
        found = vector_found(engine, query_vector, prepared.allowed, profile, asked.depth)
    vector = found.hits
    if prepared.within is not None and prepared.within.size and 0.0 < profile.vector < 1.0:
        seen = {hit.key for hit in vector}
        inside = index.search(query_vector, asked.depth, Allowed(keys=prepared.within))
        vector = [*vector, *(hit for hit in inside if hit.key not in seen)]
    candidates = hybrid.Candidates(
        vector=vector,
        keyword=prepared.keyword,
        group_keyword=prepared.group_keyword,
        sequences=prepared.sequences,
        actor=asked.actor,
        periods=prepared.periods,
    )
    context = hybrid.Context(db, index, prepared.allowed, engine.indexes.keywords, found.held)
    return hybrid.rank(context, query_vector, candidates, profile, asked.explain)


class Embedded(NamedTuple):
    """The query's vector, what the database half found, the time spent embedding (ms), and
    the one actor of the searched sequences the query names, if any."""

    vector: npt.NDArray[np.float32]
    prepared: Prepared
    ms: float
    actor: str | None = None
    found: VectorFound | None = None  # the vector search, when it ran beside `prepare`


class Ahead(NamedTuple):
    """A query embedded before its recall (`embed_ahead`): the text embedded, its vector and
    the time it took (ms)."""

    text: str
    vector: npt.NDArray[np.float32]
    ms: float


def embed_ahead(engine: MemoryEngine, query: str, namespaces: frozenset[str] | None) -> Ahead:
    """Embed the query's vector-search text now; safe alongside other calls (the actors' names
    are read under their own lock, and the model runs calls side by side)."""
    text = vector_query(query, engine.actors(namespaces))
    return Ahead(text, *_embedded(engine, text))


def embed_beside(
    engine: MemoryEngine,
    query: str,
    namespaces: frozenset[str] | None,
    prepare: Callable[[], Prepared],
    ahead: Ahead | None = None,
    search: Callable[[npt.NDArray[np.float32]], VectorFound] | None = None,
) -> Embedded:
    """Embed the query for the vector search while `prepare` runs in the worker thread (or
    take `ahead`'s vector when it embedded the same text); then run `search` with the vector,
    if given, while `prepare` finishes. `prepare` takes the database lock there: never call
    this while holding it."""
    # The vector search leaves the names of the sequences' actors out of the text it embeds
    # (see `vector_query`): those known before `prepare` refreshes the mirrors...
    speakers = engine.actors(namespaces)
    text = vector_query(query, speakers)
    pending = engine.beside(prepare)
    if ahead is not None and ahead.text == text:
        vector, ms = ahead.vector, ahead.ms
    else:
        vector, ms = _embedded(engine, text)
    found = _searched(search, vector, pending)
    prepared = pending.result()
    # ...unless the refresh brought actors that change the text (the first recall after they
    # were stored): embedding again then beats refreshing before every embedding. The sync
    # answers with the same object until the memories change.
    after = engine.actors(namespaces)
    fresh = text if after is speakers else vector_query(query, after)
    if fresh != text:
        vector, again = _embedded(engine, fresh)
        ms += again
        found = _searched(search, vector, pending)
    return Embedded(vector, prepared, ms, named_speaker(query, after.candidates(query)), found)


def _searched(
    search: Callable[[npt.NDArray[np.float32]], VectorFound] | None,
    vector: npt.NDArray[np.float32],
    pending: Future[Prepared],
) -> VectorFound | None:
    """`search`'s answer, if given; when it fails, `prepare`'s own failure (a namespace that
    does not exist, a store made by another model) says more, and is raised first."""
    if search is None:
        return None
    try:
        return search(vector)
    except Exception:
        pending.result()
        raise


def _embedded(engine: MemoryEngine, text: str) -> tuple[npt.NDArray[np.float32], float]:
    """The text's vector and the time embedding it took (ms)."""
    started = time.perf_counter()
    vector = engine.embed([text])[0]
    return vector, (time.perf_counter() - started) * 1000
