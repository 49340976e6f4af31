"""Reading a story back: searching its passages, and what it says about a character."""

from __future__ import annotations

import re
import sqlite3
from typing import TYPE_CHECKING, Literal

from loci import fields
from loci.errors import InvalidInputError, NotFoundError
from loci.story import names, store
from loci.story.graph import Entity
from loci.story.models import CharacterInfo, Mentioned, Relationship, StoryHit, StorySearchResult
from loci.story.relevance import Named, rank

if TYPE_CHECKING:
    from loci.story.service import StoryService

EntityType = Literal["character", "place"]
RELATIONSHIPS_SHOWN = 12
MAX_QUERY_BYTES = 16 * 1024


def search(
    service: StoryService,
    session_id: str,
    query: str,
    entity_type: EntityType | None = None,
    max_results: int = 5,
) -> StorySearchResult:
    """The passages most relevant to `query`, one per archived chunk (or in the window)."""
    name = service.session_name(session_id)
    query = fields.content(query, MAX_QUERY_BYTES, "query")
    max_results = fields.bounded_int(max_results, 1, service.limits.max_results, "max_results")
    if entity_type not in (None, "character", "place"):
        raise InvalidInputError(
            f"entity_type must be 'character' or 'place', got {fields.shown(entity_type)}",
            field="entity_type",
        )
    vector = service.embed_beside(query)
    with service.db.snapshot() as conn:
        found = store.session(conn, name)
        known = service.entities(conn, found)
        names = query_entities(service, conn, found, query, known)
    entities = {e.id: e for e in known}
    kinds = {e.id for e in known if e.kind == entity_type}
    matrix = service.matrix(found.id)
    ranked = rank(
        matrix,
        service.query(found, query, names, vector),
        found.settings,
        service,
        keep=lambda p: entity_type is None or bool(kinds & set(p.entities)),
    )
    hits: list[StoryHit] = []
    chunks_seen: set[int | None] = set()
    with service.db.snapshot() as conn:
        for scored in ranked:
            passage = scored.passage
            chunk = store.chunk_at(conn, found.id, passage.start)
            key = None if chunk is None else chunk.id
            if chunk is not None and key in chunks_seen:
                continue
            chunks_seen.add(key)
            hits.append(
                StoryHit(
                    where="window" if chunk is None else "archive",
                    chunk_id=key,
                    score=round(scored.score, 4),
                    signals=scored.signals,
                    passage=scored.text or store.stream(conn, found.id, passage.start, passage.end),
                    chunk=None if chunk is None else chunk.content,
                    position=passage.token_pos,
                    entities=[display_name(entities[e]) for e in passage.entities if e in entities],
                )
            )
            if len(hits) >= max_results:
                break
    return StorySearchResult(session_id=name, query=query, hits=hits)


def character(service: StoryService, session_id: str, character_name: str) -> CharacterInfo:
    """What the story says about `character_name` (any alias of it)."""
    name = service.session_name(session_id)
    wanted = fields.name(character_name, "character_name")
    with service.db.snapshot() as conn:
        found = store.session(conn, name)
        entity = service.graph.resolve(conn, found.id, wanted)
        if entity is None:
            raise NotFoundError(
                f"the story {name!r} names no character {fields.shown(wanted)} yet",
                session_id=name,
                character_name=wanted,
            )
        relations = service.graph.related(conn, [entity.id])
        others = {e.id: e for e in service.entities(conn, found)}
    relationships = [
        Relationship(
            name=others[other].name,
            kind=others[other].kind,
            relation=relation,
            weight=weight,
        )
        for a, b, relation, weight in relations
        if (other := b if a == entity.id else a) in others
    ][:RELATIONSHIPS_SHOWN]
    return info(name, entity, found.settings.confirm_after, relationships)


def info(
    session: str, entity: Entity, confirm_after: int, relationships: list[Relationship]
) -> CharacterInfo:
    """An entity as the tools show it."""
    return CharacterInfo(
        session_id=session,
        name=display_name(entity),
        kind=entity.kind,
        confirmed=entity.confirmed(confirm_after),
        aliases=entity.aliases,
        description=entity.first.excerpt,
        mentions=entity.mentions,
        first_mention=Mentioned(position=entity.first.position, excerpt=entity.first.excerpt),
        recent_mentions=[Mentioned(position=s.position, excerpt=s.excerpt) for s in entity.recent],
        relationships=relationships,
    )


def display_name(entity: Entity) -> str:
    """The fullest name the story uses for the entity (the most words, then most used)."""
    if not entity.aliases:
        return entity.name
    return max(entity.aliases, key=lambda a: (len(a.split()), -entity.aliases.index(a)))


def query_entities(
    service: StoryService,
    conn: sqlite3.Connection,
    found: store.Session,
    text: str,
    entities: list[Entity],
) -> tuple[Named, ...]:
    """The known names in `text` (by the gazetteer of the story's aliases), each with the
    entities it can mean: its alias's, and for a single word every entity it fits (over a
    story, "Victor" may have named more than one entity before they were told apart)."""
    known = service.graph.surfaces(conn, found.id)
    surfaces = sorted({m.surface for m in service.extractor.known_mentions(text, known)})
    if not surfaces:
        return ()
    by_alias = {a: e.id for e in entities for a in e.aliases}
    named: list[Named] = []
    for surface in surfaces:
        ids = {by_alias[surface]} if surface in by_alias else set()
        parts = names.parse(surface)
        if parts.bare and not (parts.given or parts.surnames or parts.titles):
            ids |= {e.id for e in entities if names.same_person(parts, e.parts)}
        written = {a for e in entities if e.id in ids for a in e.aliases} | {surface}
        pattern = "|".join(re.escape(w) for w in sorted(written, key=len, reverse=True))
        named.append(Named(frozenset(ids), re.compile(rf"(?<![\w.])(?:{pattern})(?!\w)")))
    return tuple(named)


def entities_of(
    service: StoryService, session_id: str, kind: EntityType = "character", limit: int = 50
) -> list[CharacterInfo]:
    """The confirmed characters (or places) of a session, most mentioned first."""
    name = service.session_name(session_id)
    limit = fields.bounded_int(limit, 1, 1000, "limit")
    with service.db.snapshot() as conn:
        found = store.session(conn, name)
        entities = service.entities(conn, found)
    confirm = found.settings.confirm_after
    chosen = [e for e in entities if e.kind == kind and e.confirmed(confirm)][:limit]
    return [info(name, e, confirm, []) for e in chosen]
