"""Reading the stored story again for names a correction brought, so that a correction
reaches the whole manuscript and not only the text written after it.

An alias ("the Captain" is Hawkes) or a new display name is a name the story's gazetteer did
not know while the text before it was read. Every stored piece of the story (the writer's
prompts aside) that holds its words is read again by the gazetteer of every known name, the
longest name winning where two overlap ("Captain Hawkes" stays Captain Hawkes); each mention
of the new names is counted with its sentence and place in the story, and its meetings with
the other names of its sentences and paragraphs are counted too. NER is not run again: the
names are known.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from loci.storage.databases.db import Connection
from loci.toolsets.story import names, reading, store, valve
from loci.toolsets.story.graph import EntityGraph, Observed
from loci.toolsets.story.ingest import excerpt
from loci.toolsets.story.mentions import Extractor


def reread(
    conn: Connection,
    graph: EntityGraph,
    extractor: Extractor,
    found: store.Session,
    surfaces: Sequence[str],
) -> int:
    """Count the mentions of `surfaces` (names new to the story) in its stored text, and
    their meetings; returns how many mentions were found."""
    wanted = {names.key(surface) for surface in surfaces}
    if not wanted:
        return 0
    words = sorted({w for surface in surfaces for w in surface.split()}, key=len, reverse=True)
    holds = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    known = graph.surfaces(conn, found.id)
    total = 0
    for piece in store.story_pieces(conn, found):
        if not holds.search(piece.content):
            continue
        total += _read(conn, graph, extractor, found.id, piece, known, wanted)
    return total


def _read(
    conn: Connection,
    graph: EntityGraph,
    extractor: Extractor,
    session: int,
    piece: store.StoredPiece,
    known: Sequence[str],
    wanted: set[str],
) -> int:
    """Count the wanted names' mentions in one piece, and their meetings."""
    text = piece.content
    found = extractor.known_mentions(text, known)
    new = [i for i, m in enumerate(found) if names.key(m.surface) in wanted]
    if not new:
        return 0
    paragraphs = reading.numbered(found, valve.paragraph_spans(text))
    observed = [
        Observed(
            found[i],
            piece.token_start + (piece.tokens * found[i].start) // max(1, len(text)),
            excerpt(text, found[i].start, found[i].end),
            paragraphs[i],
        )
        for i in new
    ]
    at = {i: n for n, i in enumerate(new)}
    met = [
        (at[mine], names.key(found[theirs].surface), kind)
        for a, b, kind in reading.pairs(text, found)
        for mine, theirs in ((a, b), (b, a))
        if mine in at and theirs not in at
    ]
    graph.add_mentions(conn, session, observed, met)
    return len(observed)
