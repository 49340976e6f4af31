"""The entity graph of a story: characters and places, their aliases, and who appears with whom.

`EntityGraph` is what the story service needs; `SqliteGraph` keeps it in the story's own
SQLite transaction (a server graph engine would implement the same methods).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

from loci.story import names
from loci.story.entities import Mention

#: What resolving a piece's mentions works on: the entities, aliases and merges so far.
_State = tuple[dict[int, "Entity"], dict[str, int], dict[int, int]]
RECENT_KEPT = 3
#: The sentences that introduce an entity are kept until they are this long.
INTRODUCTION_CHARS = 320


@dataclass(frozen=True)
class Seen:
    """Where an entity was mentioned: its story position (tokens) and the sentence."""

    position: int
    excerpt: str


@dataclass
class Entity:
    """A character or place as the graph knows it."""

    id: int
    name: str
    parts: names.Parts
    person: float
    place: float
    mentions: int
    lowercase: int
    first: Seen
    recent: list[Seen]
    aliases: list[str]

    @property
    def kind(self) -> str:
        """character, place, or unknown (no evidence either way yet)."""
        if self.person <= 0 and self.place <= 0:
            return "unknown"
        return "character" if self.person >= self.place else "place"

    def confirmed(self, after: int) -> bool:
        """Mentioned at least `after` times, and not a word the story mostly writes in lower
        case (a single capitalised common word)."""
        return self.mentions >= after and self.lowercase <= self.mentions


@dataclass(frozen=True)
class Observed:
    """A mention in a new piece, with its story position and its sentence."""

    mention: Mention
    position: int
    excerpt: str
    paragraph: int


class EntityGraph(Protocol):
    """The story's entities, aliases and relations.

    `conn` is the story store's open transaction: the SQLite graph writes in it, so a piece of
    text and what it says about its entities commit together; a server graph (Neo4j) would
    keep its own session and take `session` as the story's key."""

    def surfaces(self, conn: sqlite3.Connection, session: int) -> list[str]:
        """Every alias the story knows, as written (the gazetteer)."""
        ...

    def record(
        self, conn: sqlite3.Connection, session: int, observed: Sequence[Observed], text: str
    ) -> list[int]:
        """Add the observations of a new piece (`text`); the entity of each, in order."""
        ...

    def resolve(self, conn: sqlite3.Connection, session: int, name: str) -> Entity | None:
        """The entity `name` (any alias, or a compatible form of it) refers to."""
        ...

    def entities(self, conn: sqlite3.Connection, session: int) -> list[Entity]:
        """Every entity of the session, most mentioned first."""
        ...

    def related(
        self, conn: sqlite3.Connection, ids: Iterable[int]
    ) -> list[tuple[int, int, str, int]]:
        """Relations (a, b, kind, weight) touching any of `ids`."""
        ...


class SqliteGraph:
    """`EntityGraph` in the story tables of the SQLite store."""

    def surfaces(self, conn: sqlite3.Connection, session: int) -> list[str]:
        """Every alias the story knows, as written."""
        rows = conn.execute("SELECT alias FROM story_aliases WHERE session = ?", (session,))
        return [alias for (alias,) in rows]

    def record(
        self, conn: sqlite3.Connection, session: int, observed: Sequence[Observed], text: str
    ) -> list[int]:
        """Resolve each mention to an entity (new when nothing known fits), count it, vote on
        its kind, and relate the entities met in one paragraph."""
        known = {e.id: e for e in self.entities(conn, session)}
        by_key = dict(
            conn.execute("SELECT key, entity FROM story_aliases WHERE session = ?", (session,))
        )
        merged: dict[int, int] = {}
        touched: set[int] = set()
        ids: list[int] = []
        for seen in observed:
            entity = self._entity_for(conn, session, seen, (known, by_key, merged))
            ids.append(entity.id)
            touched.add(entity.id)
            entity.person += seen.mention.person
            entity.place += seen.mention.place
            if seen.mention.end > seen.mention.start:
                entity.mentions += 1
                entity.recent = [*entity.recent, Seen(seen.position, seen.excerpt)][-RECENT_KEPT:]
                entity.first = _introduction(entity.first, seen.excerpt)
                key = names.key(seen.mention.surface)
                conn.execute(
                    "UPDATE story_aliases SET count = count + 1 WHERE session = ? AND key = ?",
                    (session, key),
                )
        ids = [_followed(merged, i) for i in ids]
        for entity_id in {_followed(merged, i) for i in touched}:
            entity = known[entity_id]
            entity.lowercase += _lowercase_uses(entity, text)
            _save(conn, entity)
        _relate(conn, session, observed, ids)
        return ids

    def resolve(self, conn: sqlite3.Connection, session: int, name: str) -> Entity | None:
        """Exact alias first; then the most mentioned entity that can be the same person;
        then one sharing a surname without conflict ("Fitzwilliam Darcy" -> "Mr. Darcy")."""
        row = conn.execute(
            "SELECT entity FROM story_aliases WHERE session = ? AND key = ?",
            (session, names.key(name)),
        ).fetchone()
        entities = self.entities(conn, session)
        if row is not None and not names.is_bare(names.parse(name)):
            return next(e for e in entities if e.id == row[0])
        parts = names.parse(name)
        best = _best_fit(parts, name, entities)
        if best is not None:
            return best
        key = names.preference(parts, name)
        fitting = [
            e
            for e in entities
            if parts.surnames & (e.parts.surnames | e.parts.bare)
            and not names.conflicts(parts, e.parts)
        ]
        return max(fitting, key=lambda e: key(e.parts, e.mentions, True), default=None)

    def entities(self, conn: sqlite3.Connection, session: int) -> list[Entity]:
        """Every entity of the session, most mentioned first, with its aliases."""
        aliases: dict[int, list[str]] = {}
        for entity_id, alias in conn.execute(
            "SELECT entity, alias FROM story_aliases WHERE session = ? ORDER BY count DESC",
            (session,),
        ):
            aliases.setdefault(entity_id, []).append(alias)
        rows = conn.execute(
            "SELECT id, name, parts, person, place, mentions, lowercase, first_pos, first_seen, "
            "recent_seen FROM story_entities WHERE session = ? ORDER BY mentions DESC, id",
            (session,),
        )
        return [_entity(row, aliases.get(row[0], [])) for row in rows]

    def related(
        self, conn: sqlite3.Connection, ids: Iterable[int]
    ) -> list[tuple[int, int, str, int]]:
        """Relations touching any of `ids`, strongest first."""
        wanted = json.dumps(sorted(set(ids)))
        rows = conn.execute(
            "SELECT a, b, kind, weight FROM story_relations WHERE a IN (SELECT value FROM "
            "json_each(?)) OR b IN (SELECT value FROM json_each(?)) ORDER BY weight DESC",
            (wanted, wanted),
        )
        return [(a, b, kind, weight) for a, b, kind, weight in rows]

    def _entity_for(
        self, conn: sqlite3.Connection, session: int, seen: Observed, state: _State
    ) -> Entity:
        known, by_key, _ = state
        surface = seen.mention.surface
        key = names.key(surface)
        parts = names.parse(surface)
        if key in by_key and not names.is_bare(parts):
            return known[by_key[key]]
        # A bare word ("Bingley") goes to whoever it names most often by now, so that its
        # first use (perhaps for a sister) does not decide it for the whole story.
        entity = _best_fit(parts, surface, known.values())
        if entity is not None and parts.given and parts.surnames:
            entity = _joined(conn, session, parts, entity, state)
        if entity is None:
            entity = _insert(conn, session, surface, parts, Seen(seen.position, seen.excerpt))
            known[entity.id] = entity
        else:
            entity.parts.absorb(parts)
        if by_key.get(key) != entity.id:
            conn.execute(
                "INSERT INTO story_aliases (session, key, alias, entity) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (session, key) DO UPDATE SET entity = excluded.entity, count = 0",
                (session, key, surface, entity.id),
            )
            previous = known[by_key[key]].aliases if key in by_key else []
            if surface in previous:
                previous.remove(surface)
            by_key[key] = entity.id
            entity.aliases.append(surface)
        return entity


def _introduction(first: Seen, excerpt: str) -> Seen:
    """The first mention's sentences, with one more while they are short."""
    if len(first.excerpt) >= INTRODUCTION_CHARS or excerpt in first.excerpt:
        return first
    return Seen(first.position, f"{first.excerpt} {excerpt}")


def _joined(
    conn: sqlite3.Connection, session: int, parts: names.Parts, entity: Entity, state: _State
) -> Entity:
    """A full name ("Victor Frankenstein") first met after its given name and its surname
    were each met alone: the two single-word entities are one person; merged into `entity`
    (passages that named the other now name it)."""
    known, by_key, merged = state
    if not names.is_bare(entity.parts):
        return entity
    other_word = (parts.given | parts.surnames) - entity.parts.bare
    others = [
        e
        for e in known.values()
        if e.id != entity.id and names.is_bare(e.parts) and e.parts.bare & other_word
    ]
    for other in others:
        entity.parts.absorb(other.parts)
        entity.mentions += other.mentions
        entity.person += other.person
        entity.place += other.place
        entity.aliases += other.aliases
        for key, owner in list(by_key.items()):
            if owner == other.id:
                by_key[key] = entity.id
        conn.execute("UPDATE story_aliases SET entity = ? WHERE entity = ?", (entity.id, other.id))
        conn.execute("DELETE FROM story_relations WHERE a = ? OR b = ?", (other.id, other.id))
        _renamed_in_passages(conn, session, other.id, entity.id)
        conn.execute("DELETE FROM story_entities WHERE id = ?", (other.id,))
        del known[other.id]
        merged[other.id] = entity.id
    return entity


def _renamed_in_passages(conn: sqlite3.Connection, session: int, old: int, new: int) -> None:
    rows = conn.execute(
        "SELECT id, entities FROM story_passages WHERE session = ? AND EXISTS "
        "(SELECT 1 FROM json_each(entities) WHERE value = ?)",
        (session, old),
    ).fetchall()
    for passage_id, entities in rows:
        renamed = sorted({new if e == old else e for e in json.loads(entities)})
        conn.execute(
            "UPDATE story_passages SET entities = ? WHERE id = ?", (json.dumps(renamed), passage_id)
        )


def _followed(merged: dict[int, int], entity_id: int) -> int:
    while entity_id in merged:
        entity_id = merged[entity_id]
    return entity_id


def _best_fit(parts: names.Parts, surface: str, entities: Iterable[Entity]) -> Entity | None:
    """The known entity a new name most likely means, if it can be anyone known."""
    key = names.preference(parts, surface)
    full_untitled = bool(parts.given and parts.surnames and not parts.titles)
    fitting = []
    for entity in entities:
        if not names.same_person(parts, entity.parts):
            continue
        untitled = any(not names.parse(a).titles for a in entity.aliases)
        # "William Goulding" is not "Sir William", whom the story never calls William alone.
        if full_untitled and entity.parts.titles and not untitled:
            continue
        fitting.append((key(entity.parts, entity.mentions, untitled), entity.id, entity))
    fitting = [f for f in fitting if f[0][0] >= 0]
    return max(fitting, key=lambda f: (f[0], -f[1]))[2] if fitting else None


def _insert(
    conn: sqlite3.Connection, session: int, name: str, parts: names.Parts, seen: Seen
) -> Entity:
    cursor = conn.execute(
        "INSERT INTO story_entities (session, name, parts, first_pos, last_pos, first_seen) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (session, name, json.dumps(parts.to_json()), seen.position, seen.position, seen.excerpt),
    )
    assert cursor.lastrowid is not None
    return Entity(cursor.lastrowid, name, parts, 0.0, 0.0, 0, 0, seen, [], [])


def _save(conn: sqlite3.Connection, entity: Entity) -> None:
    last = entity.recent[-1].position if entity.recent else entity.first.position
    conn.execute(
        "UPDATE story_entities SET parts = ?, person = ?, place = ?, mentions = ?, lowercase = ?, "
        "last_pos = ?, recent_seen = ?, first_seen = ? WHERE id = ?",
        (
            json.dumps(entity.parts.to_json()),
            entity.person,
            entity.place,
            entity.mentions,
            entity.lowercase,
            last,
            json.dumps([[s.position, s.excerpt] for s in entity.recent]),
            entity.first.excerpt,
            entity.id,
        ),
    )


def _entity(row: sqlite3.Row | tuple[object, ...], aliases: list[str]) -> Entity:
    entity_id, name, parts, person, place, mentions, lowercase, first_pos, first_seen, recent = row
    return Entity(
        id=int(str(entity_id)),
        name=str(name),
        parts=names.Parts.from_json(json.loads(str(parts))),
        person=float(str(person)),
        place=float(str(place)),
        mentions=int(str(mentions)),
        lowercase=int(str(lowercase)),
        first=Seen(int(str(first_pos)), str(first_seen)),
        recent=[Seen(int(p), str(e)) for p, e in json.loads(str(recent))],
        aliases=aliases,
    )


def _lowercase_uses(entity: Entity, text: str) -> int:
    """How often the entity's one-word names appear in lower case in `text`."""
    words = {a.lower() for a in entity.aliases if " " not in a}
    return sum(len(re.findall(rf"\b{re.escape(w)}\b", text)) for w in words)


def _relate(
    conn: sqlite3.Connection, session: int, observed: Sequence[Observed], ids: list[int]
) -> None:
    """Entities mentioned in one paragraph appear together."""
    by_paragraph: dict[int, set[int]] = {}
    for seen, entity_id in zip(observed, ids, strict=True):
        by_paragraph.setdefault(seen.paragraph, set()).add(entity_id)
    for together in by_paragraph.values():
        for a, b in combinations(sorted(together), 2):
            conn.execute(
                "INSERT INTO story_relations (session, a, b, kind, weight) VALUES (?, ?, ?, "
                "'appears_with', 1) ON CONFLICT (a, b, kind) DO UPDATE SET weight = weight + 1",
                (session, a, b),
            )
