"""Reading an FTS5 table's postings into numpy arrays, for the keyword mirrors (`mirror`).

Each term's postings (document, occurrences) come from the table's `fts5vocab` views: the
'row' view lists the terms, the 'instance' view every occurrence, read in chunks of terms and
checked for consistency as they are read.
"""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

#: Instances read per query while loading (bounds the memory a load takes for a moment).
LOAD_CHUNK = 500_000

Floats = npt.NDArray[np.float64]


class Documents(NamedTuple):
    """A one-column FTS5 table a mirror follows: its name, the query listing its documents
    (id, namespace) by id, and the names of its vocabulary views in the temp schema."""

    table: str
    rows: str
    terms: str  # fts5vocab 'row': term, docs, occurrences
    instances: str  # fts5vocab 'instance': term, doc, col, offset


MEMORIES = Documents(
    "memories_fts",
    "SELECT seq, namespace FROM memories ORDER BY seq",
    "loci_memory_terms",
    "loci_memory_term_instances",
)


def create_vocabularies(conn: sqlite3.Connection) -> None:
    """The vocabulary views the mirror loads from (temp schema, once per connection, outside
    a transaction)."""
    for documents in (MEMORIES,):
        for name, kind in ((documents.terms, "row"), (documents.instances, "instance")):
            conn.execute(
                f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{name} "
                f"USING fts5vocab(main, {documents.table}, '{kind}')"
            )


@dataclass
class Postings:
    """The documents as read in one snapshot: postings by term, and each document's facts."""

    seqs: npt.NDArray[np.int64]  # sorted; a memory's position is its index here
    namespaces: npt.NDArray[np.int32]  # namespace code per position
    lengths: Floats  # tokens per position
    live: npt.NDArray[np.bool_]  # False once a memory was deleted or rewritten
    terms: dict[str, int]
    bounds: npt.NDArray[np.int64]  # term i's postings are [bounds[i], bounds[i + 1])
    positions: npt.NDArray[np.int32]
    counts: npt.NDArray[np.float32]  # occurrences of the term in the memory


def read_postings(
    conn: sqlite3.Connection,
    documents: Documents,
    seqs: npt.NDArray[np.int64],
    namespaces: npt.NDArray[np.int32],
) -> Postings | None:
    """Every term's postings, read from the vocabulary tables in chunks of terms."""
    listed = _read_vocabulary(conn, documents.terms)
    if listed is None:
        return None
    vocabulary, docs, occurrences = listed
    positions: list[npt.NDArray[np.int32]] = []
    counts: list[npt.NDArray[np.float32]] = []
    lengths = np.zeros(seqs.shape[0])
    for first, last in _term_chunks(occurrences):
        read = _read_chunk(
            conn, documents.instances, vocabulary, docs, occurrences, (first, last), seqs
        )
        if read is None:
            return None
        chunk_positions, chunk_counts, chunk_lengths = read
        positions.append(chunk_positions)
        counts.append(chunk_counts)
        lengths += chunk_lengths
    return Postings(
        seqs=seqs,
        namespaces=namespaces,
        lengths=lengths,
        live=np.ones(seqs.shape[0], dtype=np.bool_),
        terms={term: index for index, term in enumerate(vocabulary)},
        bounds=np.concatenate([[0], np.cumsum(docs)]),
        positions=np.concatenate(positions) if positions else np.zeros(0, np.int32),
        counts=np.concatenate(counts) if counts else np.zeros(0, np.float32),
    )


def _read_vocabulary(
    conn: sqlite3.Connection, view: str
) -> tuple[list[str], npt.NDArray[np.int64], npt.NDArray[np.int64]] | None:
    """The terms in order, with how many documents hold each and its occurrences; None if
    the three lists disagree. Read as three joined strings rather than a row per term (at
    100k memories, 106k tuples and twice as many ints held while the postings are read)."""
    terms, docs, counts = conn.execute(
        f"SELECT group_concat(term, char(31)), group_concat(doc), group_concat(cnt) "
        f"FROM temp.{view}"
    ).fetchone()
    if terms is None:
        return [], np.zeros(0, np.int64), np.zeros(0, np.int64)
    vocabulary = terms.split("\x1f")  # a separator the tokenizer never leaves in a term
    doc_counts = np.fromstring(docs, dtype=np.int64, sep=",")
    occurrences = np.fromstring(counts, dtype=np.int64, sep=",")
    if not len(vocabulary) == doc_counts.shape[0] == occurrences.shape[0]:
        return None
    return vocabulary, doc_counts, occurrences


def _term_chunks(occurrences: npt.NDArray[np.int64]) -> list[tuple[int, int]]:
    """[first, last) ranges of terms holding about LOAD_CHUNK instances each."""
    if occurrences.shape[0] == 0:
        return []
    cumulative = np.cumsum(occurrences)
    marks = np.arange(LOAD_CHUNK, int(cumulative[-1]), LOAD_CHUNK)
    cuts = np.searchsorted(cumulative, marks, side="right").tolist()
    edges = sorted({0, *cuts, occurrences.shape[0]})
    return list(itertools.pairwise(edges))


def _read_chunk(
    conn: sqlite3.Connection,
    instances_view: str,
    vocabulary: list[str],
    docs: npt.NDArray[np.int64],
    occurrences: npt.NDArray[np.int64],
    terms: tuple[int, int],
    seqs: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.float32], Floats] | None:
    """Postings (positions, occurrence counts) of terms [first, last), in term order, and
    the tokens they add to each memory's length; None if the index reads inconsistently."""
    first, last = terms
    text = conn.execute(
        f"SELECT group_concat(doc, ',') FROM temp.{instances_view} WHERE term >= ? AND term <= ?",
        (vocabulary[first], vocabulary[last - 1]),
    ).fetchone()[0]
    instances = np.fromstring(text, dtype=np.int64, sep=",") if text else np.zeros(0, np.int64)
    expected = occurrences[first:last]
    if instances.shape[0] != int(expected.sum()):
        return None
    term_of = np.repeat(np.arange(first, last), expected)
    same_term = term_of[1:] == term_of[:-1]
    # Within a term, instances come by memory (the vocabulary table's order): check it.
    if np.any(same_term & (instances[1:] < instances[:-1])):
        return None
    starts = np.flatnonzero(np.r_[True, ~same_term | (instances[1:] != instances[:-1])])
    per_term = np.bincount(term_of[starts] - first, minlength=last - first)
    where = np.minimum(np.searchsorted(seqs, instances), max(seqs.shape[0] - 1, 0))
    if not np.array_equal(per_term, docs[first:last]) or np.any(seqs[where] != instances):
        return None
    counts = np.diff(np.r_[starts, instances.shape[0]]).astype(np.float32)
    lengths = np.bincount(where, minlength=seqs.shape[0]).astype(np.float64)
    return where[starts].astype(np.int32), counts, lengths
