"""Vectors and passages of drafts whose text is already stored: reused, not embedded again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from loci.engine.search.engine import MemoryEngine
from loci.storage.memory_tables.passages import NewPassage
from loci.toolsets.memory.validation import CheckedDraft, content_hash


def vectors_reusing(
    engine: MemoryEngine, items: Sequence[CheckedDraft], known: Mapping[str, bytes]
) -> np.ndarray[Any, Any]:
    """Embeddings of `items`, computing only those whose text is not in `known`."""
    vectors = np.zeros((len(items), engine.embedder.identity.dimensions), np.float32)
    fresh: list[int] = []
    for n, item in enumerate(items):
        stored = known.get(content_hash(item.content))
        if stored is None:
            fresh.append(n)
        else:
            vectors[n] = np.frombuffer(stored, dtype=np.float32)
    if fresh:
        vectors[fresh] = engine.embed([items[n].content for n in fresh])
    return vectors


def passages_reusing(
    engine: MemoryEngine, items: Sequence[CheckedDraft], known: Mapping[str, list[NewPassage]]
) -> list[list[NewPassage]]:
    """The passages of `items`, embedding only those of text not in `known`."""
    hashes = [content_hash(item.content) for item in items]
    fresh = [n for n, digest in enumerate(hashes) if digest not in known]
    made = iter(engine.passages_of([items[n].content for n in fresh]))
    return [known[digest] if digest in known else next(made) for digest in hashes]
