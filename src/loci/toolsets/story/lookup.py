"""Reading a story back: searching its passages, and what it says about a character."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from loci import fields
from loci.errors import InvalidInputError, NotFoundError
from loci.storage.databases.db import Connection
from loci.toolsets.story import common_words, kinds, names, namespans, people, store
from loci.toolsets.story.answers import answer_spans
from loci.toolsets.story.castview import CastView
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithet_company import named
from loci.toolsets.story.models import (
    CharacterInfo,
    Mentioned,
    Relationship,
    StoryHit,
    StorySearchResult,
)
from loci.toolsets.story.relevance import Named, Scored, Weights, rank

if TYPE_CHECKING:
    from loci.toolsets.story.service import StoryService

EntityType = Literal["character", "place"]
RELATIONSHIPS_SHOWN = 12
MAX_QUERY_BYTES = 16 * 1024
#: How many names a misspelt one is answered with, at most.
CLOSEST = 3


def search(
    service: StoryService,
    session_id: str,
    query: str,
    entity_type: EntityType | None = None,
    max_results: int = 5,
    include_chunk: bool = False,
) -> StorySearchResult:
    """The passages most relevant to `query`, one per archived chunk (or in the window),
    each cut to the sentences that answer it (`answers`); with `include_chunk`, each archived
    hit also carries its whole chunk."""
    name = service.session_name(session_id)
    query = fields.content(query, MAX_QUERY_BYTES, "query", setting=None)
    max_results = fields.bounded_int(max_results, 1, service.limits.max_results, "max_results")
    if entity_type not in (None, "character", "place"):
        raise InvalidInputError(
            f"entity_type must be 'character' or 'place', got {fields.shown(entity_type)}",
            field="entity_type",
        )
    vector = service.embed_beside(query)
    with service.db.snapshot() as conn:
        found = store.session(conn, name)
        view = service.view(conn, found)
    known = view.entities
    named = query_entities(service, view, query)
    of_kind = {n for e in known if e.kind == entity_type for n in e.names}
    ranked = rank(
        service.matrix(found.id),
        service.query(found, query, named, vector),
        Weights.for_search(found.settings),
        service.lookups(view),
        keep=lambda p: entity_type is None or bool(of_kind.intersection(p.names)),
        half_life=found.settings.recency_half_life,
    )
    with service.db.snapshot() as conn:
        hits = _hits(conn, found, ranked, known, max_results, include_chunk)
    spans = answer_spans(
        [hit.passage for hit in hits],
        query,
        vector.result(),
        service.tokenizer,
        service.engine.embed,
    )
    by_name = {e.name: e for e in known}
    for hit, (start, end) in zip(hits, spans, strict=True):
        answer = hit.passage[start:end].strip()
        hit.passage = store.marked_prompt(answer) if hit.prompt else answer
        # Those the answer names, not the whole passage it was cut from; people and places,
        # not what the cast holds for no one ("Hello").
        hit.entities = [
            n
            for n in hit.entities
            if by_name[n].kind in SHOWN_IN_HITS and _writes_any(answer, by_name[n].aliases)
        ]
    return StorySearchResult(session_id=name, query=query, hits=hits)


#: The kinds of entity a search hit names.
SHOWN_IN_HITS = ("character", "place", "household")


def _writes_any(text: str, aliases: Sequence[str]) -> bool:
    return any(named(alias, text) for alias in aliases)


def _hits(
    conn: Connection,
    found: store.Session,
    ranked: list[Scored],
    known: Sequence[Entity],
    most: int,
    include_chunk: bool,
) -> list[StoryHit]:
    """The best passage of each archived chunk (and of the window), best first, each with
    its whole text (the caller cuts it to the answer)."""
    entity_of = {n: e for e in known for n in e.names}
    hits: list[StoryHit] = []
    chunks_seen: set[int | None] = set()
    for scored in ranked:
        passage = scored.passage
        # A passage overlaps the one before it by a sentence, which may end the chunk before:
        # its chunk is the one holding the middle of it.
        chunk = store.chunk_at(conn, found.id, (passage.start + passage.end) // 2)
        key = None if chunk is None else chunk.id
        if chunk is not None and key in chunks_seen:
            continue
        chunks_seen.add(key)
        text = scored.text or store.stream(conn, found.id, passage.start, passage.end)
        named = {entity_of[n].id: entity_of[n].name for n in passage.names if n in entity_of}
        hits.append(
            StoryHit(
                where="window" if chunk is None else "archive",
                chunk_id=key,
                score=round(scored.score, 4),
                signals=scored.signals,
                passage=text,
                prompt=passage.prompt,
                chunk=None
                if chunk is None or not include_chunk
                else store.rendered(conn, found.id, (chunk.start, chunk.end)),
                position=passage.token_pos,
                entities=list(named.values()),
            )
        )
        if len(hits) >= most:
            break
    return hits


def closest(entities: Sequence[Entity], wanted: str) -> list[str]:
    """The names of the cast written most like `wanted` (a misspelling: "Talow" for
    "Tallow"), closest first, a character's, a place's or a household's before a word of no
    one's ("Sallie" before "Shall", for "Sally"); never `wanted` itself."""
    key = names.key(wanted)

    def close(among: Iterable[Entity]) -> list[str]:
        written = sorted({a for e in among for a in [e.name, *e.written] if names.key(a) != key})
        return difflib.get_close_matches(wanted, written, n=CLOSEST, cutoff=0.6)

    named = close(e for e in entities if e.kind in SHOWN_IN_HITS)
    return [*named, *(w for w in close(entities) if w not in named)][:CLOSEST]


def character(service: StoryService, session_id: str, character_name: str) -> CharacterInfo:
    """What the story says about `character_name` (any name of it)."""
    name = service.session_name(session_id)
    wanted = fields.name(character_name, "character_name")
    with service.db.snapshot() as conn:
        found = store.session(conn, name)
        known = service.entities(conn, found)
        entity = find(known, wanted)
        if entity is None:
            written = writes_as_a_name(store.rendered(conn, found.id, prompts="omit"), wanted)
            hint = " yet"
            if written:
                hint = " (the story writes it: `kind` adds it to the cast)"
            elif close := closest(known, wanted):
                hint = f" yet; did you mean {' or '.join(map(repr, close))}?"
            raise NotFoundError(
                f"the story {name!r} names no character {fields.shown(wanted)}{hint}",
                session_id=name,
                character_name=wanted,
            )
        relations = service.graph.related(conn, known, [entity.id])
    met = relationships(entity.id, relations, known)
    shown = info(name, entity, found.settings.confirm_after, met)
    if holder(known, wanted) is None:  # "Frances" shows Fanny, whose names it fits
        shown.warning = f"no entity holds the name {wanted!r}: this is the one whose names fit it"
        # "old Mr. Emerson" fits George Emerson, named most, and his father "Mr. Emerson" as
        # well: the writer is told of each, to add the name to the right one.
        if also := [e.name for e in fitting(known, wanted)[1:] if e.kind == entity.kind]:
            shown.warning += f"; so do the names of {' and '.join(map(repr, also))}"
    return shown


def relationships(
    entity_id: int, relations: Sequence[tuple[int, int, str, int]], known: Sequence[Entity]
) -> list[Relationship]:
    """The strongest relations of `entity_id` among `relations`, with whom and where they
    are: characters, places and households, not what is no one ("Christian", of "Christian
    name") nor a name the cast cannot tell ("Cambridge", taken for a person once)."""
    others = {e.id: e for e in known if e.kind not in ("other", "unknown")}
    return [
        Relationship(
            name=others[other].name,
            kind=others[other].kind,
            relation=relation,
            weight=weight,
        )
        for a, b, relation, weight in relations
        if entity_id in (a, b) and (other := b if a == entity_id else a) in others
    ][:RELATIONSHIPS_SHOWN]


def find(entities: Sequence[Entity], wanted: str) -> Entity | None:
    """The entity `wanted` names: the one with that name (as written, in any case), else the
    one whose names it fits without conflict, sharing most of its words, a character before a
    place, the most mentioned ("Theodore Laurence" is Laurie, never Mrs. Laurence)."""
    return holder(entities, wanted) or next(iter(fitting(entities, wanted)), None)


def holder(entities: Sequence[Entity], wanted: str) -> Entity | None:
    """The entity holding the name `wanted` (as written, in any case, or without its
    article), if one does."""
    for key in dict.fromkeys([names.key(wanted), names.unarticled(wanted)]):
        for entity in entities:
            if any(names.key(alias) == key for alias in [entity.name, *entity.aliases]):
                return entity
    return None


def fitting(entities: Sequence[Entity], wanted: str) -> list[Entity]:
    """The characters and places whose names `wanted` fits without conflict, best first (as
    `find` ranks them), those sharing fewer of its words left out."""
    guest = people.Person.named(0, names.parse(wanted), kinds.Votes())
    ranked = sorted(
        (
            (len(guest.words & person.words), entity.kind == "character", entity.mentions, entity)
            for entity in entities
            if entity.kind in ("character", "place")
            and _fits(guest, person := people.Person.of_names(entity.id, entity.aliases))
        ),
        key=lambda fit: fit[:3],
        reverse=True,
    )
    return [fit[3] for fit in ranked if fit[0] == ranked[0][0]]


def _fits(guest: people.Person, host: people.Person) -> bool:
    shared = people.shares_a_name(guest, host) or people.shares_a_name(host, guest)
    return shared and not people.names_conflict(guest, host, ())


def info(
    session: str, entity: Entity, confirm_after: int, relationships: list[Relationship]
) -> CharacterInfo:
    """An entity as the tools show it."""
    return CharacterInfo(
        session_id=session,
        name=entity.name,
        kind=entity.kind,
        confirmed=entity.confirmed(confirm_after),
        aliases=entity.aliases,
        derived_aliases=entity.derived,
        description=entity.first.excerpt,
        mentions=entity.mentions,
        first_mention=Mentioned(position=entity.first.position, excerpt=entity.first.excerpt),
        recent_mentions=[Mentioned(position=s.position, excerpt=s.excerpt) for s in entity.recent],
        relationships=relationships,
        corrections=entity.corrections,
    )


def query_entities(service: StoryService, view: CastView, text: str) -> tuple[Named, ...]:
    """The known names in `text` (by the gazetteer of the story's names), each with the
    entity it names and the ways the story writes that entity."""
    found = service.extractor.known_mentions(text, view.surfaces)
    surfaces = sorted({m.surface for m in found})
    by_key = view.by_key
    named: list[Named] = []
    for surface in surfaces:
        entity = by_key.get(names.key(surface)) or by_key.get(
            names.key(" ".join(common_words.name_words(surface)))
        )
        if entity is None:
            continue
        written = {*entity.aliases, surface}
        pattern = "|".join(re.escape(w) for w in sorted(written, key=len, reverse=True))
        named.append(
            Named(
                frozenset({entity.id}),
                frozenset(entity.names),
                re.compile(rf"(?<![\w.])(?:{pattern})(?!\w)"),
            )
        )
    return tuple(named)


def entities_of(
    service: StoryService,
    session_id: str,
    kind: EntityType | None = "character",
    limit: int = 50,
) -> list[CharacterInfo]:
    """The confirmed characters (or places) of a session, most mentioned first; with `kind`
    None, every name of the cast, of any kind, confirmed or not."""
    return cast_page(service, session_id, kind, limit).entities


@dataclass(frozen=True)
class CastPage:
    """The first `limit` entities of a listing and how many the whole listing holds."""

    entities: list[CharacterInfo]
    total: int


def cast_page(
    service: StoryService, session_id: str, kind: EntityType | None, limit: int
) -> CastPage:
    """`entities_of` with the size of the whole listing (the command line says what it did not
    show)."""
    name = service.session_name(session_id)
    limit = fields.bounded_int(limit, 1, 1_000_000, "limit")
    with service.db.snapshot() as conn:
        found = store.session(conn, name)
        entities = service.entities(conn, found)
        confirm = found.settings.confirm_after
        listed = [e for e in entities if kind is None or e.kind == kind]
        every = [e for e in listed if kind is None or e.confirmed(confirm)]
        chosen = every[:limit]
        relations = service.graph.related(conn, entities, [e.id for e in chosen])
    shown = [info(name, e, confirm, relationships(e.id, relations, entities)) for e in chosen]
    return CastPage(shown, len(every))


def writes_as_a_name(text: str, name: str) -> bool:
    """Whether `text` writes `name` as a name: whole words, as given, capitalised, and not a
    stop word alone ("Nobody", "There": a sentence opens with them)."""
    return name[:1].isupper() and not namespans.a_stop_word(name) and named(name, text)
