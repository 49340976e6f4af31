"""Reading the stored story again for names it did not know when that text was read: names
a correction brought, so that a correction reaches the whole manuscript and not only the text
written after it, names NER first found later in an import (`read_before_found`), and the
epithets (and callings) an import's end takes for one character's, and the names NER never
took that the dialogue calls out (`read_epithets`).

An alias ("the Captain" is Hawkes) or a new display name is a name the story's gazetteer did
not know while the text before it was read. Every stored piece of the story (the writer's
prompts aside) that holds its words is read again by the gazetteer of every known name, the
longest name winning where two overlap ("Captain Hawkes" stays Captain Hawkes); each mention
of the new names is counted with its sentence and place in the story, and its meetings with
the other names of its sentences and paragraphs are counted too. NER is not run again: the
names are known; the cues around each mention (a line of dialogue said, a call, an act, a
pronoun) are read as the text after them was.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from loci.storage.databases.db import Connection
from loci.toolsets.story import names, reading, store, valve
from loci.toolsets.story.called_names import sure_called_names
from loci.toolsets.story.callings import sure_callings
from loci.toolsets.story.epithet_cast import sure_epithets
from loci.toolsets.story.graph import EntityGraph
from loci.toolsets.story.ingest import excerpt
from loci.toolsets.story.mentions import Extractor, Mention
from loci.toolsets.story.name_rows import Observed
from loci.toolsets.story.title_alone import sure_titles_alone


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
    before = [surface for surface in known if names.key(surface) not in wanted]
    total = 0
    for piece in store.story_pieces(conn, found):
        if not holds.search(piece.content):
            continue
        total += _read(conn, graph, extractor, found.id, piece, known, wanted)
        # The longest name wins: "Dunmore" of "Young Dunmore" is counted off.
        _tally_held(conn, graph, extractor, found.id, piece, before, known, on=False)
    return total


def read_without(
    conn: Connection,
    graph: EntityGraph,
    extractor: Extractor,
    found: store.Session,
    gone: Sequence[str],
) -> None:
    """Count again the mentions that names taken back (`gone`, an undone correction's) held
    ("Dunmore" of "Young Dunmore", once "Young Dunmore" is no name of the story)."""
    if not gone:
        return
    known = graph.surfaces(conn, found.id)
    words = sorted({w for surface in gone for w in surface.split()}, key=len, reverse=True)
    holds = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    for piece in store.story_pieces(conn, found):
        if holds.search(piece.content):
            _tally_held(conn, graph, extractor, found.id, piece, known, [*known, *gone], on=True)


def _tally_held(
    conn: Connection,
    graph: EntityGraph,
    extractor: Extractor,
    session: int,
    piece: store.StoredPiece,
    fewer: Sequence[str],
    more: Sequence[str],
    on: bool,
) -> None:
    """The mentions of names `fewer` knows that a longer name only `more` knows holds in a
    piece, counted on (`on`) or off, with their meetings."""
    text = piece.content
    found = extractor.known_mentions(text, fewer)
    longer = [m for m in extractor.known_mentions(text, more) if m not in found]
    held = [
        i for i, m in enumerate(found) if any(o.start <= m.start and m.end <= o.end for o in longer)
    ]
    if held:
        observed, met = _observed(text, piece, found, held)
        (graph.add_mentions if on else graph.take_mentions)(conn, session, observed, met)


def read_before_found(
    conn: Connection, graph: EntityGraph, extractor: Extractor, found: store.Session
) -> int:
    """Count each name's mentions in the stored pieces read before the one where the story
    first found it, and their meetings; returns how many were found. NER may miss a name
    until a later chapter ("the Widow Pell", named twice in chapter I, found in chapter
    III), while each piece is read by the names known then. A mention is not counted again
    where a name known then was counted inside it ("Tom" of a "Tom Sawyer" found later)."""
    first = sorted(
        (at, names.key(written)) for written, at in graph.first_found(conn, found.id).items()
    )
    known = graph.surfaces(conn, found.id)
    then: set[str] = set()
    later = {key for _, key in first}
    total, passed = 0, 0
    for piece in store.story_pieces(conn, found):
        end = piece.token_start + piece.tokens
        while passed < len(first) and first[passed][0] < end:
            then.add(first[passed][1])
            later.discard(first[passed][1])
            passed += 1
        if later:
            total += _read(conn, graph, extractor, found.id, piece, known, later, then)
    return total


def read_epithets(
    conn: Connection, graph: EntityGraph, extractor: Extractor, found: store.Session, text: str
) -> int:
    """Make the epithets a careful reader takes for one character's ("the doctor" of the
    story's only doctor, `epithet_cast.sure_epithets`; "the beadle" said beside Mr. Bumble's
    name, `callings.sure_callings`), and the names NER never took that the dialogue calls
    out (`called_names.sure_called_names`), names of the story, and count their mentions in
    its stored text (`text`, as rendered without prompts); returns how many were found."""
    entities = graph.entities(conn, found.id)
    confirm = found.settings.confirm_after
    characters = [e for e in entities if e.kind == "character" and e.confirmed(confirm)]
    # One the story knows already (an earlier import's) is counted as the text comes.
    known = {names.key(written) for written in graph.surfaces(conn, found.id)}
    found_sure = [
        *sure_epithets(text, characters),
        *sure_callings(text, characters),
        *sure_titles_alone(text, entities, characters),
        *sure_called_names(text, known),
    ]
    sure = [e for e in found_sure if names.key(e) not in known]
    if not sure:
        return 0
    graph.add_names(conn, found.id, sure)
    return reread(conn, graph, extractor, found, sure)


def _read(
    conn: Connection,
    graph: EntityGraph,
    extractor: Extractor,
    session: int,
    piece: store.StoredPiece,
    known: Sequence[str],
    wanted: set[str],
    counted: Collection[str] = (),
) -> int:
    """Count the wanted names' mentions in one piece, and their meetings (not where one of
    the names `counted` there is inside the mention)."""
    text = piece.content
    found = extractor.cued_known_mentions(text, known)
    new = [
        i
        for i, m in enumerate(found)
        if names.key(m.surface) in wanted and not _holds(names.key(m.surface), counted)
    ]
    if not new:
        return 0
    observed, met = _observed(text, piece, found, new)
    graph.add_mentions(conn, session, observed, met)
    return len(observed)


def _observed(
    text: str, piece: store.StoredPiece, found: Sequence[Mention], chosen: Sequence[int]
) -> tuple[list[Observed], list[tuple[int, str, str]]]:
    """The `chosen` mentions of `found` (in text order) as observed, and their meetings with
    the others of the piece: (index into the observed, the other name's key, kind)."""
    paragraphs = reading.numbered(found, valve.paragraph_spans(text))
    observed = [
        Observed(
            found[i],
            piece.token_start + (piece.tokens * found[i].start) // max(1, len(text)),
            excerpt(text, found[i].start, found[i].end),
            paragraphs[i],
        )
        for i in chosen
    ]
    at = {i: n for n, i in enumerate(chosen)}
    met = [
        (at[mine], names.key(found[theirs].surface), kind)
        for a, b, kind in reading.pairs(text, found)
        for mine, theirs in ((a, b), (b, a))
        if mine in at and (theirs not in at or mine < theirs)  # two chosen names: once
    ]
    return observed, met


def _holds(key: str, counted: Collection[str]) -> bool:
    """Whether a shorter name of `counted` is words of the name `key`."""
    words = key.split()
    return any(
        " ".join(words[a:b]) in counted
        for a in range(len(words))
        for b in range(a + 1, len(words) + 1)
        if b - a < len(words)
    )
