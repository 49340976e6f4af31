"""The query half of a recall: the text the vector search embeds, embedded while the database
half (`search_side.prepare`) runs in the worker thread."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from loci.search.engine import MemoryEngine
from loci.search.ranking import named_speaker, vector_query
from loci.search.search_side import Prepared


class Embedded(NamedTuple):
    """The query's vector, what the database half found, the time spent embedding (ms), and
    the one actor of the searched sequences the query names, if any."""

    vector: npt.NDArray[np.float32]
    prepared: Prepared
    ms: float
    actor: str | None = None


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
) -> Embedded:
    """Embed the query for the vector search while `prepare` runs in the worker thread (or
    take `ahead`'s vector when it embedded the same text). `prepare` takes the database lock
    there: never call this while holding it."""
    # The vector search leaves the names of the sequences' actors out of the text it embeds
    # (see `vector_query`): those known before `prepare` refreshes the mirrors...
    speakers = engine.actors(namespaces)
    text = vector_query(query, speakers)
    if ahead is not None and ahead.text == text:
        vector, ms, prepared = ahead.vector, ahead.ms, prepare()
    else:
        pending = engine.beside(prepare)
        vector, ms = _embedded(engine, text)
        prepared = pending.result()
    # ...unless the refresh brought actors that change the text (the first recall after they
    # were stored): embedding again then beats refreshing before every embedding. The sync
    # answers with the same object until the memories change.
    after = engine.actors(namespaces)
    fresh = text if after is speakers else vector_query(query, after)
    if fresh != text:
        vector, again = _embedded(engine, fresh)
        ms += again
    return Embedded(vector, prepared, ms, named_speaker(query, after.candidates(query)))


def _embedded(engine: MemoryEngine, text: str) -> tuple[npt.NDArray[np.float32], float]:
    """The text's vector and the time embedding it took (ms)."""
    started = time.perf_counter()
    vector = engine.embed([text])[0]
    return vector, (time.perf_counter() - started) * 1000
