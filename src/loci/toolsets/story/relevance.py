"""Which passages of a story matter for a query: semantic similarity, entity overlap, recency
in story position, and connections in the entity graph, weighted per session.

The candidates are the passages nearest to the query in vector space and those its words
match; each gets the four signals, each in [0, 1], and their weighted sum:

- semantic: the passage's cosine to the query, clipped to [0, 1], raised by up to
  KEYWORD_BONUS when the query's words match it (the best keyword match most). A planted
  detail is often one sentence of a passage about something else: its words find it where
  the passage's vector alone does not.
- entity: the share of the names in the query that the passage names. (Jaccard, as the design
  has it, also divides by the passage's other names, so a rich passage loses to a thin one
  that names the same person.)
- recency: 0.5 ** (story tokens since the passage / half-life): distance in the story, never
  wall-clock time, so a writer who pauses a week loses nothing.
- graph: the share of the passage's entities that are, or appear with, an entity of the query.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np
import numpy.typing as npt

from loci.toolsets.story.models import StorySettings
from loci.toolsets.story.store import Passage

VECTOR_CANDIDATES = 32
KEYWORD_CANDIDATES = 16
KEYWORD_BONUS = 0.3
#: A search counts the story signals at this share of their weight in context assembly.
SEARCH_SIGNALS_SHARE = 0.25


@dataclass
class PassageMatrix:
    """A session's passages with their vectors, kept in memory and extended as they arrive."""

    dimensions: int
    passages: list[Passage] = field(default_factory=list)
    vectors: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    index: dict[int, int] = field(default_factory=dict)

    @property
    def last_id(self) -> int:
        """The highest passage id held (0 for none)."""
        return self.passages[-1].id if self.passages else 0

    def extend(self, rows: list[tuple[Passage, bytes]]) -> None:
        """Add passages read from the store (in id order)."""
        if not rows:
            return
        new = np.frombuffer(b"".join(v for _, v in rows), dtype=np.float32)
        new = new.reshape(len(rows), self.dimensions)
        old = self.vectors if self.passages else np.zeros((0, self.dimensions), np.float32)
        self.vectors = np.vstack([old, new])
        for passage, _ in rows:
            self.index[passage.id] = len(self.passages)
            self.passages.append(passage)

    def similarities(self, query: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Cosine similarity of every passage to the (normalised) query vector."""
        if not self.passages:
            return np.zeros(0, np.float32)
        return np.asarray(self.vectors @ query, dtype=np.float32)


@dataclass(frozen=True)
class Scored:
    """A passage, its relevance, and the signals that make it up."""

    passage: Passage
    score: float
    signals: dict[str, float]
    text: str | None = None


@dataclass(frozen=True)
class Named:
    """A name in the query: the entities it can mean, their names (as stored with passages),
    and the ways the story writes them."""

    entities: frozenset[int]
    names: frozenset[int]
    written: re.Pattern[str]

    def in_passage(self, names: set[int], text: str) -> bool:
        """Whether the passage names it: by the names found when it was written, or by the
        text (a name learnt later counts in earlier passages too)."""
        return bool(names & self.names) or self.written.search(text) is not None


class Lookups(Protocol):
    """What ranking reads of a session: its cast and its passages' texts."""

    def entity_of(self, name: int) -> int:
        """The entity a name (as stored with passages) belongs to."""
        ...

    def related(self, ids: Collection[int]) -> set[tuple[int, int]]:
        """Pairs (a, b), a < b, of related entities among those touching `ids`."""
        ...

    def texts(self, passage_ids: Sequence[int]) -> dict[int, str]:
        """The text of each passage."""
        ...


@dataclass(frozen=True)
class Query:
    """What relevance is measured against."""

    vector: npt.NDArray[np.float32]
    names: tuple[Named, ...]
    position: int
    keyword_ids: list[int]

    @property
    def entities(self) -> frozenset[int]:
        """Every entity the query's names can mean."""
        return frozenset().union(*(n.entities for n in self.names))

    @property
    def entity_names(self) -> frozenset[int]:
        """Every name of those entities."""
        return frozenset().union(*(n.names for n in self.names))


@dataclass(frozen=True)
class Weights:
    """How much each signal counts."""

    semantic: float
    entity: float
    recency: float
    graph: float

    @classmethod
    def of(cls, settings: StorySettings) -> Weights:
        """The session's weights, as context assembly uses them."""
        return cls(
            settings.semantic_weight,
            settings.entity_weight,
            settings.recency_weight,
            settings.graph_weight,
        )

    @classmethod
    def for_search(cls, settings: StorySettings) -> Weights:
        """For a search: what the passage says comes first; names, story position and the
        graph break ties (a detail asked about is one sentence of a passage the story's
        main characters may not share with a hundred others)."""
        return cls(
            1.0,
            settings.entity_weight * SEARCH_SIGNALS_SHARE,
            settings.recency_weight * SEARCH_SIGNALS_SHARE,
            settings.graph_weight * SEARCH_SIGNALS_SHARE,
        )


def rank(
    matrix: PassageMatrix,
    query: Query,
    weights: Weights,
    lookups: Lookups,
    keep: Callable[[Passage], bool] = lambda _: True,
    half_life: int = 96_000,
) -> list[Scored]:
    """Candidate passages that `keep` accepts, scored, best first."""
    sims = matrix.similarities(query.vector)
    if not len(sims):
        return []
    order = np.argsort(-sims)
    by_id = matrix.index
    chosen: list[int] = []
    for i in order:
        if len(chosen) >= VECTOR_CANDIDATES:
            break
        if keep(matrix.passages[i]):
            chosen.append(int(i))
    for passage_id in query.keyword_ids[:KEYWORD_CANDIDATES]:
        i = by_id.get(passage_id)
        if i is not None and i not in chosen and keep(matrix.passages[i]):
            chosen.append(i)
    if query.entities:
        chosen.extend(_entity_candidates(matrix, query.entity_names, chosen, keep))
    links = lookups.related(query.entities) if query.entities else set()
    texts = lookups.texts([matrix.passages[i].id for i in chosen]) if query.names else {}
    keyword_rank = {p: r for r, p in enumerate(query.keyword_ids[:KEYWORD_CANDIDATES])}
    scored = [
        _scored(
            matrix.passages[i],
            _semantic(float(sims[i]), keyword_rank.get(matrix.passages[i].id)),
            _names_in(query.names, matrix.passages[i], texts),
            query,
            (weights, half_life),
            (links, lookups),
        )
        for i in chosen
    ]
    ordered = sorted(scored, key=lambda s: -s.score)
    return [replace(s, text=texts.get(s.passage.id)) for s in ordered] if texts else ordered


def _names_in(names: tuple[Named, ...], passage: Passage, texts: dict[int, str]) -> float:
    """The share of the query's names that the passage names."""
    if not names:
        return 0.0
    own = set(passage.names)
    text = texts.get(passage.id, "")
    return sum(1 for name in names if name.in_passage(own, text)) / len(names)


def _entity_candidates(
    matrix: PassageMatrix,
    names: frozenset[int],
    chosen: list[int],
    keep: Callable[[Passage], bool],
) -> Iterable[int]:
    """The latest passages naming any entity of the query (a few)."""
    found = 0
    taken = set(chosen)
    for i in range(len(matrix.passages) - 1, -1, -1):
        passage = matrix.passages[i]
        if i not in taken and names.intersection(passage.names) and keep(passage):
            yield i
            found += 1
            if found >= KEYWORD_CANDIDATES:
                return


def _semantic(cosine: float, keyword_rank: int | None) -> float:
    """The cosine clipped to [0, 1], raised when the query's words match the passage."""
    bonus = 0.0 if keyword_rank is None else KEYWORD_BONUS * (1 - keyword_rank / KEYWORD_CANDIDATES)
    return min(1.0, max(0.0, cosine) + bonus)


def _scored(
    passage: Passage,
    semantic: float,
    overlap: float,
    query: Query,
    weighting: tuple[Weights, int],
    graph: tuple[set[tuple[int, int]], Lookups],
) -> Scored:
    links, lookups = graph
    weights, half_life = weighting
    own = {lookups.entity_of(name) for name in passage.names}
    distance = max(0, query.position - passage.token_pos)
    signals = {
        "semantic": semantic,
        "entity": overlap,
        "recency": 0.5 ** (distance / half_life),
        "graph": _connectivity(own, query.entities, links),
    }
    score = (
        weights.semantic * signals["semantic"]
        + weights.entity * signals["entity"]
        + weights.recency * signals["recency"]
        + weights.graph * signals["graph"]
    )
    return Scored(passage, score, {k: round(v, 4) for k, v in signals.items()})


def _connectivity(own: set[int], wanted: frozenset[int], links: set[tuple[int, int]]) -> float:
    """Share of the passage's entities that are, or are related to, an entity of the query."""
    if not own or not wanted:
        return 0.0
    connected = sum(
        1 for e in own if e in wanted or any((min(e, w), max(e, w)) in links for w in wanted)
    )
    return connected / len(own)
