"""The best keyword matches by FTS5's bm25, found without scoring every posting.

Scoring every posting of every query word costs time in proportion to how common the words
are: a word in 4 % of a million memories has 40,000 postings. The top `limit` is found in two
rounds instead, both exact (the answer is the one full scoring gives, ties included):

1. **Seed.** Score (with every word) the documents of the rarest words, as many words as fit
   in `SEED_POSTINGS` documents (at least the rarest: its documents with the most occurrences
   in the fewest tokens first). The `limit`-th best score among them, `threshold`, is a floor
   for the final `limit`-th best: real documents reach it. Rare words seeded whole answer the
   query already.
2. **Pruned.** A document beats `threshold` only if it holds one of the *essential* words:
   any set of words such that the others, each at its strongest (`Phrase.peak`, from the most
   occurrences and the fewest tokens of any of its postings), cannot reach it together
   (MaxScore's idea; the set with the fewest postings is chosen). And it holds each of its
   words with a term score of at least `threshold` less the peaks of all the others: a floor
   on occurrences for its length, which an index on (term, occurrences, tokens) reads as a few
   short ranges. Only the postings passing their word's floor are candidates; each candidate
   is scored with every word.

Documents outside the candidates score below `threshold`, so below the `limit`-th best.
When the essential words are among those the seed read whole, the seed's candidates were
every document that could reach it: the seed's answer is the answer, and no second round runs.
When every word is in few documents (`WHOLE_READ`), both rounds would read every posting
anyway: one sum over them all (`_summed`) answers at once.

A round reads postings from that index alone (it holds the document too): a word it scans
brings its scores with its documents; a word in few documents (`WHOLE_READ`) is read whole;
only a common word's postings of the other candidates are looked up one by one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from loci.storage.databases.db import Connection

#: bm25's parameters, as FTS5 sets them.
K1 = 1.2
B = 0.75
#: A document's bm25 score negated (lower is better, as FTS5's rank), summed over its
#: postings (columns idf, tf, tokens); its parameters are `_bm25_weights`.
BM25_SUM = "-sum(idf * ((tf * ?) / (tf + ? * (? + ? * tokens / ?))))"
#: FTS5's floor for the idf of terms found in more than half the documents.
IDF_FLOOR = 1e-6
#: How many postings of the rarest word the seed round scores at most.
SEED_POSTINGS = 2_000
#: Occurrence counts given a range of their own in a floor (the rest share one).
FLOOR_RANGES = 4
#: The most words whose every subset is weighed when choosing which to read.
CHOSEN_UP_TO = 8
#: A word in this few documents or fewer is read whole (index ranges, no heap) rather than
#: looked up document by document: reading is the cheaper of the two below this size.
WHOLE_READ = 5_000
#: Room left for rounding: scores are summed in another order by the database.
SLACK = 1e-9


@dataclass(frozen=True)
class Phrase:
    """A query word's terms in order, with what bounds its part of a document's score."""

    terms: tuple[str, ...]
    documents: int  # how many documents hold it
    idf: float
    max_tf: int  # at least as many occurrences as any document holds it
    min_tokens: int  # at most as many tokens as any document holding it has

    def peak(self, average: float) -> float:
        """The most this word adds to any document's score."""
        return self.idf * saturation(self.max_tf, self.min_tokens, average)


@dataclass(frozen=True)
class Corpus:
    """What bm25 reads of a whole corpus."""

    number: int
    documents: int
    average: float  # tokens per document


#: (doc, bm25) pairs, lowest (best) first; bm25 is negative for a match, as FTS5 gives it.
Matches = list[tuple[int, float]]


@dataclass(frozen=True)
class Scan:
    """SQL listing (doc, tf, tokens) of one phrase's documents (the phrase by its position in
    the query), and its parameters (None stands for the corpus's number). A one-term phrase's
    scan reads the index on (term, tf, tokens, doc) alone: its rows are the word's scores."""

    phrase: int
    sql: str
    params: list[Any]
    #: "all": the rows of every posting of a one-term phrase; "some": of some of them;
    #: "docs": the documents of a phrase of several terms (its tf and tokens read later).
    rows: Literal["all", "some", "docs"]


def saturation(tf: int, tokens: int, average: float) -> float:
    """bm25's term-frequency part: grows with occurrences, shrinks with the document's length."""
    return tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * tokens / average))


def idf(documents: int, holding: int) -> float:
    """FTS5's inverse document frequency, floored for terms in over half the documents."""
    value = math.log((documents - holding + 0.5) / (holding + 0.5))
    return value if value > 0.0 else IDF_FLOOR


def top_matches(
    conn: Connection,
    corpus: Corpus,
    phrases: Sequence[Phrase],
    limit: int,
    restrict: str = "",
    params: Sequence[Any] = (),
) -> Matches:
    """The best `limit` documents holding any of `phrases` (see the module's docstring);
    `restrict` is SQL over the candidate `h.doc` (with `params`)."""
    ordered = sorted(phrases, key=lambda p: -p.peak(corpus.average))
    if not ordered or limit <= 0:
        return []
    if all(len(p.terms) == 1 and p.documents <= WHOLE_READ for p in ordered):
        return _summed(conn, corpus, ordered, limit, restrict, params)
    seeds, whole = _seeds(ordered)
    found = _scored(conn, corpus, ordered, seeds, limit, restrict, params)
    if whole:
        return found
    threshold = -found[-1][1] * (1.0 - SLACK) if len(found) == limit else 0.0
    peaks = [phrase.peak(corpus.average) for phrase in ordered]
    essential = essential_words(peaks, [p.documents for p in ordered], threshold)
    if set(essential) <= {seed.phrase for seed in seeds if seed.rows != "some"}:
        return found
    scans = _pruned_scans(corpus, ordered, peaks, essential, threshold)
    return _scored(conn, corpus, ordered, scans, limit, restrict, params)


def essential_count(peaks: Sequence[float], threshold: float) -> int:
    """How many of the words (strongest peak first) a document must hold one of to reach
    `threshold`: the words after them cannot reach it together."""
    rest = sum(peaks)
    for count, peak in enumerate(peaks):
        if rest < threshold:
            return count
        rest -= peak
    return len(peaks)


def essential_words(peaks: Sequence[float], costs: Sequence[int], threshold: float) -> list[int]:
    """The words (by index) a document must hold one of to reach `threshold`, chosen for the
    fewest postings to read: any set whose left-out words cannot reach it together will do.
    Up to `CHOSEN_UP_TO` words every set is weighed; past that, MaxScore's strongest first
    (`peaks` in descending order)."""
    count = len(peaks)
    if count > CHOSEN_UP_TO:
        return list(range(essential_count(peaks, threshold)))
    best: tuple[int, list[int]] | None = None
    for chosen in range(1 << count):
        kept = [i for i in range(count) if chosen >> i & 1]
        left_out = sum(peaks[i] for i in range(count) if not chosen >> i & 1)
        cost = sum(costs[i] for i in kept)
        if left_out < threshold and (best is None or cost < best[0]):
            best = (cost, kept)
    return best[1] if best is not None else list(range(count))


def _seeds(phrases: Sequence[Phrase]) -> tuple[list[Scan], bool]:
    """The seed round's scans: the rarest words while their documents fit in SEED_POSTINGS
    (the rarest at least, its best documents if too many); and whether they are every word,
    whole (the seed round's answer is then the answer)."""
    scans: list[Scan] = []
    budget = SEED_POSTINGS
    for index in sorted(range(len(phrases)), key=lambda i: phrases[i].documents):
        phrase = phrases[index]
        if phrase.documents > budget and scans:
            return scans, False
        scans.append(_seed(index, phrase))
        budget -= phrase.documents
    return scans, budget >= 0


def _seed(index: int, phrase: Phrase) -> Scan:
    """A word's documents likely to score well: those with the most occurrences in the fewest
    tokens, at most SEED_POSTINGS (a phrase of several terms: all its documents)."""
    if len(phrase.terms) > 1:
        sql, params = phrase_documents(phrase.terms)
        return Scan(index, f"SELECT doc, 0, 0 FROM ({sql}) AS seed", params, "docs")
    return Scan(
        index,
        "SELECT doc, tf, tokens FROM keyword_postings WHERE corpus = ? AND term = ? "
        "ORDER BY tf DESC, tokens LIMIT ?",
        [None, phrase.terms[0], SEED_POSTINGS],
        "all" if phrase.documents <= SEED_POSTINGS else "some",
    )


def _pruned_scans(
    corpus: Corpus,
    ordered: Sequence[Phrase],
    peaks: Sequence[float],
    essential: Sequence[int],
    threshold: float,
) -> list[Scan]:
    """The postings that may hold a document reaching `threshold` (see the module's
    docstring), one scan per essential word (a word in few documents read whole)."""
    total = sum(peaks)
    scans = []
    for index in essential:
        phrase, peak = ordered[index], peaks[index]
        if len(phrase.terms) > 1:
            sql, params = phrase_documents(phrase.terms)
            scans.append(Scan(index, f"SELECT doc, 0, 0 FROM ({sql}) AS whole", params, "docs"))
            continue
        floor = (threshold - (total - peak)) / phrase.idf
        condition, params = ("", [])
        if phrase.documents > WHOLE_READ:
            condition, params = _floor_condition(phrase, floor, corpus.average)
        scans.append(
            Scan(
                index,
                "SELECT doc, tf, tokens FROM keyword_postings "
                f"WHERE corpus = ? AND term = ? {condition}",
                [None, phrase.terms[0], *params],
                "some" if condition else "all",
            )
        )
    return scans


def _floor_condition(phrase: Phrase, floor: float, average: float) -> tuple[str, list[Any]]:
    """SQL keeping the postings whose saturation reaches `floor`: for each count of
    occurrences, the documents short enough (index ranges on (term, tf, tokens))."""
    if floor <= 0.0:
        return "", []
    ranges, params = [], []
    for tf in range(1, min(phrase.max_tf, FLOOR_RANGES) + 1):
        # From FLOOR_RANGES occurrences on, one range: as long as the most occurrences allow.
        shared = tf == FLOOR_RANGES and phrase.max_tf > FLOOR_RANGES
        longest = math.floor(_longest(phrase.max_tf if shared else tf, floor, average))
        if longest >= phrase.min_tokens:
            ranges.append(f"(tf {'>=' if shared else '='} ? AND tokens <= ?)")
            params += [tf, longest]
    if not ranges:
        return "AND FALSE", []
    return f"AND ({' OR '.join(ranges)})", params


def _longest(tf: int, floor: float, average: float) -> float:
    """The most tokens a document with `tf` occurrences may have for its saturation to reach
    `floor` (negative: none may)."""
    if floor >= K1 + 1.0:
        return -1.0
    return (tf * (K1 + 1.0 - floor) - floor * K1 * (1.0 - B)) * average / (floor * K1 * B)


def _scored(
    conn: Connection,
    corpus: Corpus,
    phrases: Sequence[Phrase],
    scans: Sequence[Scan],
    limit: int,
    restrict: str,
    params: Sequence[Any],
) -> Matches:
    """The best `limit` of the documents `scans` find (and `restrict` admits), each scored
    with every phrase."""
    found_sql = " UNION ALL ".join(f"(SELECT {s.phrase}, f.* FROM ({s.sql}) AS f)" for s in scans)
    found_params = [corpus.number if p is None else p for scan in scans for p in scan.params]
    hits: list[str] = []
    hit_params: list[Any] = []
    for index, phrase in enumerate(phrases):
        sql, ps = _hits(corpus, index, phrase, {s.rows for s in scans if s.phrase == index})
        hits.append(f"SELECT doc, tf, tokens, CAST(? AS DOUBLE PRECISION) FROM ({sql}) AS w")
        hit_params += [phrase.idf, *ps]
    statement = (
        f"WITH found (phrase, doc, tf, tokens) AS ({found_sql}), "
        f"candidates AS (SELECT DISTINCT h.doc FROM found h "
        f"{'WHERE ' + restrict if restrict else ''}), "
        f"hits (doc, tf, tokens, idf) AS ({' UNION ALL '.join(hits)}) "
        f"SELECT doc, {BM25_SUM} AS score "
        "FROM hits WHERE doc IN (SELECT doc FROM candidates) "
        "GROUP BY doc ORDER BY score, doc LIMIT ?"
    )
    rows = conn.execute(
        statement, [*found_params, *params, *hit_params, *_bm25_weights(corpus), limit]
    ).fetchall()
    return [(int(doc), float(score)) for doc, score in rows]


def _bm25_weights(corpus: Corpus) -> list[float]:
    """The parameters of `BM25_SUM`, in its order."""
    return [K1 + 1.0, K1, 1.0 - B, B, corpus.average]


def _summed(
    conn: Connection,
    corpus: Corpus,
    phrases: Sequence[Phrase],
    limit: int,
    restrict: str,
    params: Sequence[Any],
) -> Matches:
    """The best `limit` documents (that `restrict` admits) by the sum over every posting of
    `phrases`, each a single term read whole."""
    postings = " UNION ALL ".join(
        "SELECT doc, tf, tokens, CAST(? AS DOUBLE PRECISION) AS idf FROM keyword_postings "
        "WHERE corpus = ? AND term = ?"
        for _ in phrases
    )
    statement = (
        f"SELECT h.doc, {BM25_SUM} AS score "
        f"FROM ({postings}) AS h {'WHERE ' + restrict if restrict else ''} "
        "GROUP BY h.doc ORDER BY score, h.doc LIMIT ?"
    )
    terms = [value for p in phrases for value in (p.idf, corpus.number, p.terms[0])]
    rows = conn.execute(statement, [*_bm25_weights(corpus), *terms, *params, limit]).fetchall()
    return [(int(doc), float(score)) for doc, score in rows]


def _hits(corpus: Corpus, index: int, phrase: Phrase, scanned: set[str]) -> tuple[str, list[Any]]:
    """SQL listing (doc, tf, tokens) of a phrase's postings, each once, among which those of
    every candidate: from its scan's rows where that read them all; a word in few documents
    read whole; else the scan's rows and the other candidates looked up."""
    number = corpus.number
    if len(phrase.terms) > 1:
        sql, ps = phrase_documents(phrase.terms, "p0.doc = ANY(ARRAY(SELECT doc FROM candidates))")
        return sql, [number if p is None else p for p in ps]
    own = f"SELECT doc, tf, tokens FROM found WHERE phrase = {index}"
    if "all" in scanned:
        return own, []
    postings = "SELECT doc, tf, tokens FROM keyword_postings WHERE corpus = ? AND term = ?"
    if phrase.documents <= WHOLE_READ:
        return postings, [number, phrase.terms[0]]
    others = "SELECT doc FROM candidates"
    if scanned:
        others += f" EXCEPT SELECT doc FROM found WHERE phrase = {index}"
    looked_up = f"{postings} AND doc = ANY(ARRAY({others}))"
    return f"{own} UNION ALL {looked_up}" if scanned else looked_up, [number, phrase.terms[0]]


def phrase_documents(terms: tuple[str, ...], where: str = "TRUE") -> tuple[str, list[Any]]:
    """SQL listing (doc, occurrences, tokens) of the documents holding the terms in a row, and
    its parameters (None stands for the corpus number); `where` is SQL over `p0.doc`."""
    joins = " ".join(
        f"JOIN keyword_postings p{n} ON p{n}.corpus = p0.corpus AND p{n}.doc = p0.doc "
        f"AND p{n}.term = ? AND s.pos + {n} = ANY(p{n}.positions)"
        for n in range(1, len(terms))
    )
    sql = (
        "SELECT p0.doc AS doc, count(*) AS tf, min(p0.tokens) AS tokens "
        "FROM keyword_postings p0 "
        f"CROSS JOIN LATERAL unnest(p0.positions) AS s(pos) {joins} "
        f"WHERE p0.corpus = ? AND p0.term = ? AND {where} GROUP BY p0.doc"
    )
    return sql, [*terms[1:], None, terms[0]]
