"""The answer a search hit gives: the sentences of its passage that hold what was asked.

A passage is about a hundred words, most of them about something else than the question; an
agent wants the part that answers it. Each sentence of the hits' passages is scored by the
query's words it holds, stemmed as the keyword index stems them (FTS5's Porter tokenizer, so
"kept" finds "keeps"), each word weighted by how rare it is among those sentences (a name every
sentence holds tells less than the one word only the answer holds). Where no sentence of a
passage holds a word of the query, its sentences are ranked by meaning instead (embedded, against
the query's vector). The best sentence is then widened by its neighbours, up to ANSWER_CHARS,
always on sentence boundaries.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from loci import sentences
from loci.engine.search.query_words import keyword_terms
from loci.storage.indexes.keywords.fts_terms import Tokenizer

#: An answer grows by neighbouring sentences up to this many characters.
ANSWER_CHARS = 480

Span = tuple[int, int]
Embed = Callable[[Sequence[str]], npt.NDArray[np.float32]]


def answer_spans(
    texts: Sequence[str],
    query: str,
    query_vector: npt.NDArray[np.float32],
    tokenizer: Tokenizer,
    embed: Embed,
) -> list[Span]:
    """For each passage text, the span of the sentences that answer `query` best."""
    split = [[s for s in sentences.spans(text) if text[s[0] : s[1]].strip()] for text in texts]
    owners = [i for i, spans in enumerate(split) for _ in spans]
    flat = [span for spans in split for span in spans]
    said = [texts[i][s:e] for i, (s, e) in zip(owners, flat, strict=True)]
    best = _by_words(said, owners, query, tokenizer)
    unmatched = set(owners) - set(best)
    best |= _by_meaning(said, owners, unmatched, query_vector, embed)
    return [
        _widened(split[i], split[i].index(flat[best[i]])) if i in best else (0, len(text))
        for i, text in enumerate(texts)
    ]


def _by_words(
    said: Sequence[str], owners: Sequence[int], query: str, tokenizer: Tokenizer
) -> dict[int, int]:
    """For each passage with a sentence holding a query word, the index of its best one."""
    terms = _terms(tokenizer, [query, *said])
    wanted, held = terms[0], terms[1:]
    found = Counter(term for sentence in held for term in sentence & wanted)
    # A term's weight is the log of how rare it is among the sentences.
    weight = {term: math.log(1 + len(held) / count) for term, count in found.items()}
    return _best(owners, [sum(weight.get(t, 0.0) for t in sentence) for sentence in held])


def _terms(tokenizer: Tokenizer, texts: Sequence[str]) -> list[frozenset[str]]:
    """Each text's terms, stop words left out."""
    kept = [" ".join(keyword_terms(text)) for text in texts]
    counts = tokenizer.counts(list(enumerate(kept)))
    return [frozenset(counts[i]) for i in range(len(texts))]


def _by_meaning(
    said: Sequence[str],
    owners: Sequence[int],
    passages: set[int],
    query_vector: npt.NDArray[np.float32],
    embed: Embed,
) -> dict[int, int]:
    """For each of `passages`, the index of its sentence closest to the query in meaning."""
    candidates = [at for at, owner in enumerate(owners) if owner in passages]
    if not candidates:
        return {}
    vectors = embed([said[at] for at in candidates])
    similarity = vectors @ np.asarray(query_vector, dtype=np.float32).reshape(-1)
    scores = dict(zip(candidates, similarity.tolist(), strict=True))
    return _best(owners, [scores.get(at, -math.inf) for at in range(len(owners))], floor=-math.inf)


def _best(owners: Sequence[int], scores: Sequence[float], floor: float = 0.0) -> dict[int, int]:
    """For each passage, the index of its sentence of the highest score above `floor`."""
    best: dict[int, int] = {}
    for at, (owner, score) in enumerate(zip(owners, scores, strict=True)):
        if score > floor and (owner not in best or score > scores[best[owner]]):
            best[owner] = at
    return best


def _widened(spans: Sequence[Span], chosen: int) -> Span:
    """The chosen sentence with its neighbours, after then before, while they fit."""
    first = last = chosen
    start, end = spans[chosen]
    grew = True
    while grew:
        grew = False
        if last + 1 < len(spans) and spans[last + 1][1] - start <= ANSWER_CHARS:
            last += 1
            end = spans[last][1]
            grew = True
        if first > 0 and end - spans[first - 1][0] <= ANSWER_CHARS:
            first -= 1
            start = spans[first][0]
            grew = True
    return start, end
