"""The story's cast: the names it met with the evidence of the text, and who is who.

`EntityGraph` is what the story service needs; `SqliteGraph` keeps it in the story's own
SQLite transaction (a server engine would implement the same methods). Each name the story
writes is a row with the cues of its mentions; the words it writes and the names that meet
are counted beside them. Who is who (each name's `person` and `kind`) is worked out from these
by `loci.toolsets.story.resolution` whenever new names arrive, the window is relieved, or the writer
corrects the cast; reading the cast only groups the rows.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from loci.errors import NotFoundError
from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import among
from loci.toolsets.story import name_rows, names, resolution
from loci.toolsets.story.corrections import Correction
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.name_rows import Observed
from loci.toolsets.story.reading import WordCase


@dataclass(frozen=True)
class Recorded:
    """The name of each mention recorded, and whether any name was new."""

    names: list[int]
    new: bool


class EntityGraph(Protocol):
    """The story's names, entities and relations. `conn` is the story store's open
    transaction: the SQLite graph writes in it, so a piece of text and what it says about its
    names commit together."""

    def surfaces(self, conn: Connection, session: int) -> list[str]:
        """Every name the story knows, as written (the gazetteer)."""
        ...

    def first_found(self, conn: Connection, session: int) -> dict[str, int]:
        """Each name the story has counted, as written, with where (tokens) it was first."""
        ...

    def word_cases(
        self, conn: Connection, session: int, written: Sequence[str]
    ) -> dict[str, WordCase]:
        """How the story writes each word of the `written` names (lower case or capitalised
        inside a sentence): "pretty" of "Pretty Linton" is a common word."""
        ...

    def add_names(self, conn: Connection, session: int, written: Sequence[str]) -> None:
        """Make names the story's that NER never found (an epithet the cast reads at an
        import's end); their mentions are counted by reading the stored text again."""
        ...

    def state(self, conn: Connection, session: int, pairs: Sequence[tuple[str, str]]) -> None:
        """Keep that the story says each pair of names (as written) is one person's ("Abel
        Magwitch, otherwise Provis"): the cast joins their people (`resolve`)."""
        ...

    def part(self, conn: Connection, session: int, pairs: Sequence[tuple[str, str]]) -> None:
        """Keep that the story tells each pair of names (as written) apart as two people's
        ("Mr. Emerson", the father, and "George Emerson"): the cast never joins them."""
        ...

    def parted(self, conn: Connection, session: int) -> list[tuple[str, str]]:
        """The pairs of names (as written) the story tells apart (`part`)."""
        ...

    def record(
        self,
        conn: Connection,
        session: int,
        observed: Sequence[Observed],
        words: Mapping[str, WordCase],
        pairs: Sequence[tuple[int, int, str]],
    ) -> Recorded:
        """Add what a new piece says: its mentions, how it writes its words, and which of its
        mentions met (pairs of indexes into `observed`)."""
        ...

    def resolve(self, conn: Connection, session: int) -> None:
        """Work out again who is who, from the evidence and the writer's corrections."""
        ...

    def correct(self, conn: Connection, session: int, correction: Correction) -> list[int]:
        """Keep a correction of the writer's (it is applied at the next `resolve`); returns
        the ids of the names it brought that the story had not met."""
        ...

    def undo(self, conn: Connection, session: int, number: int | None) -> Correction:
        """Take back a correction (the last one when `number` is None) and the names it
        brought, with the mentions read for them; raises NotFoundError when there is none."""
        ...

    def add_mentions(
        self,
        conn: Connection,
        session: int,
        observed: Sequence[Observed],
        met: Sequence[tuple[int, str, str]],
    ) -> None:
        """Count more mentions of names the story has (found in its text after a correction
        brought their name), and their meetings: (index into `observed`, the other name's
        key, kind)."""
        ...

    def take_mentions(
        self,
        conn: Connection,
        session: int,
        observed: Sequence[Observed],
        met: Sequence[tuple[int, str, str]],
    ) -> None:
        """Count off mentions of names the story has, and their meetings, as `add_mentions`
        counts them on: a longer name a correction brought holds them now."""
        ...

    def corrections(self, conn: Connection, session: int) -> list[Correction]:
        """The writer's corrections, in order."""
        ...

    def entities(self, conn: Connection, session: int) -> list[Entity]:
        """Every entity of the session, most mentioned first."""
        ...

    def related(
        self, conn: Connection, entities: Sequence[Entity], ids: Collection[int]
    ) -> list[tuple[int, int, str, int]]:
        """Relations (a, b, kind, weight) between `entities` touching any of `ids`."""
        ...


class SqliteGraph:
    """`EntityGraph` in the story tables of the SQLite store."""

    def surfaces(self, conn: Connection, session: int) -> list[str]:
        """Every name the story knows, as written."""
        rows = conn.execute("SELECT written FROM story_names WHERE session = ?", (session,))
        return [written for (written,) in rows]

    def add_names(self, conn: Connection, session: int, written: Sequence[str]) -> None:
        """Make names the story's that NER never found."""
        for name in written:
            conn.execute(
                "INSERT INTO story_names (session, key, written) VALUES (?, ?, ?) "
                "ON CONFLICT (session, key) DO NOTHING",
                (session, names.key(name), name),
            )

    def state(self, conn: Connection, session: int, pairs: Sequence[tuple[str, str]]) -> None:
        """Keep that the story says each pair of names is one person's."""
        _keep_pairs(conn, session, pairs, "stated")

    def part(self, conn: Connection, session: int, pairs: Sequence[tuple[str, str]]) -> None:
        """Keep that the story tells each pair of names apart."""
        _keep_pairs(conn, session, pairs, "parted")

    def parted(self, conn: Connection, session: int) -> list[tuple[str, str]]:
        """The pairs of names the story tells apart."""
        rows = conn.execute(
            "SELECT x.written, y.written FROM story_meetings m JOIN story_names x ON x.id = m.a "
            "JOIN story_names y ON y.id = m.b WHERE m.session = ? AND m.parted > 0 "
            "ORDER BY m.a, m.b",
            (session,),
        )
        return [(str(a), str(b)) for a, b in rows]

    def word_cases(
        self, conn: Connection, session: int, written: Sequence[str]
    ) -> dict[str, WordCase]:
        """How the story writes each word of the `written` names."""
        return resolution.word_cases(conn, session, written)

    def first_found(self, conn: Connection, session: int) -> dict[str, int]:
        """Each name counted, as written, with where it was first."""
        rows = conn.execute(
            "SELECT written, first_pos FROM story_names WHERE session = ? AND mentions > 0",
            (session,),
        )
        return {str(written): int(at) for written, at in rows}

    def record(
        self,
        conn: Connection,
        session: int,
        observed: Sequence[Observed],
        words: Mapping[str, WordCase],
        pairs: Sequence[tuple[int, int, str]],
    ) -> Recorded:
        """Count each mention on its name (a new name gets a row), the piece's words, and
        the meetings of its names."""
        keys = [names.key(seen.mention.surface) for seen in observed]
        known = name_rows.rows(conn, session, sorted(set(keys)))
        new = False
        for key, seen in zip(keys, observed, strict=True):
            row = known.get(key)
            if row is None:
                row = known[key] = name_rows.new_row(conn, session, key, seen)
                new = True
            name_rows.count(row, seen)
        for row in known.values():
            name_rows.save(conn, row)
        conn.executemany(
            "INSERT INTO story_words (session, word, lower, inside) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (session, word) DO UPDATE SET "
            "lower = story_words.lower + excluded.lower, "
            "inside = story_words.inside + excluded.inside",
            [(session, word, case.lower, case.inside) for word, case in words.items()],
        )
        ids = [int(str(known[key]["id"])) for key in keys]
        name_rows.meet(conn, session, [(ids[i], ids[j], kind) for i, j, kind in pairs])
        return Recorded(ids, new)

    def resolve(self, conn: Connection, session: int) -> None:
        """Work out again who is who."""
        resolution.resolve(conn, session, self.corrections(conn, session))

    def correct(self, conn: Connection, session: int, correction: Correction) -> list[int]:
        """Keep a correction (its names exist: `loci.toolsets.story.corrections` checked them); the
        ids of the names it brought."""
        created: list[int] = []
        for written in correction.new_names():
            row = conn.execute(
                "INSERT INTO story_names (session, key, written) VALUES (?, ?, ?) "
                "ON CONFLICT (session, key) DO NOTHING RETURNING id",
                (session, names.key(written), written),
            ).fetchone()
            if row is not None:
                created.append(int(row[0]))
        (number,) = conn.execute(
            "UPDATE story_sessions SET corrections_made = corrections_made + 1 WHERE id = ? "
            "RETURNING corrections_made",
            (session,),
        ).fetchone()
        conn.execute(
            "INSERT INTO story_corrections "
            "(session, number, action, name, other, interaction, at, created, kept, along, "
            "made_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                session,
                int(number),
                correction.action,
                correction.name,
                correction.other,
                correction.interaction,
                correction.at,
                json.dumps(created),
                json.dumps(list(correction.kept)),
                json.dumps(list(correction.along)),
                correction.by,
            ),
        )
        return created

    def undo(self, conn: Connection, session: int, number: int | None) -> Correction:
        """Take back a correction and the names it brought."""
        which = "id = (SELECT max(id) FROM story_corrections WHERE session = ?)"
        wanted: tuple[int, ...] = (session,) if number is None else (number,)
        if number is not None:
            which = "number = ?"
        row = conn.execute(
            "DELETE FROM story_corrections WHERE session = ? AND "
            f"{which} RETURNING action, name, other, interaction, at, number, created, kept, along, "
            "made_by",
            (session, *wanted),
        ).fetchone()
        if row is None:
            raise NotFoundError(
                f"{_missing(conn, session, number)} (its corrections: `loci story corrections`)"
            )
        created = [int(i) for i in json.loads(str(row[6]))]
        if created:
            wanted_ids, listed = among(conn, "id", created)
            conn.execute(
                f"DELETE FROM story_names WHERE session = ? AND {wanted_ids}", (session, listed)
            )
        return Correction.from_row(row)

    def add_mentions(
        self,
        conn: Connection,
        session: int,
        observed: Sequence[Observed],
        met: Sequence[tuple[int, str, str]],
    ) -> None:
        """Count more mentions of known names, and their meetings."""
        self._tally(conn, session, observed, met, on=True)

    def take_mentions(
        self,
        conn: Connection,
        session: int,
        observed: Sequence[Observed],
        met: Sequence[tuple[int, str, str]],
    ) -> None:
        """Count off mentions of known names, and their meetings."""
        self._tally(conn, session, observed, met, on=False)

    def _tally(
        self,
        conn: Connection,
        session: int,
        observed: Sequence[Observed],
        met: Sequence[tuple[int, str, str]],
        on: bool,
    ) -> None:
        keys = [names.key(seen.mention.surface) for seen in observed]
        rows = name_rows.rows(conn, session, sorted({*keys, *(key for _, key, _ in met)}))
        for key, seen in zip(keys, observed, strict=True):
            if key in rows:
                (name_rows.count if on else name_rows.uncount)(rows[key], seen)
        for key in set(keys):
            if key in rows:
                name_rows.save(conn, rows[key])
        ids = {key: int(str(row["id"])) for key, row in rows.items()}
        pairs = [
            (ids[keys[at]], ids[other], kind)
            for at, other, kind in met
            if keys[at] in ids and other in ids
        ]
        (name_rows.meet if on else name_rows.unmeet)(conn, session, pairs)

    def corrections(self, conn: Connection, session: int) -> list[Correction]:
        """The corrections of the cast (the writer's, and those loci accepted), in order."""
        rows = conn.execute(
            "SELECT action, name, other, interaction, at, number, created, kept, along, made_by "
            "FROM story_corrections WHERE session = ? ORDER BY id",
            (session,),
        )
        return [Correction.from_row(row) for row in rows]

    def entities(self, conn: Connection, session: int) -> list[Entity]:
        """Every entity of the session, most mentioned first, with its names."""
        rows = conn.execute(
            "SELECT id, written, mentions, first_pos, first_seen, recent_seen, "
            "coalesce(person, id), kind, article FROM story_names WHERE session = ?",
            (session,),
        ).fetchall()
        return resolution.entities(rows, self.corrections(conn, session))

    def related(
        self, conn: Connection, entities: Sequence[Entity], ids: Collection[int]
    ) -> list[tuple[int, int, str, int]]:
        """Entities that appear with any of `ids` (in one paragraph), strongest first."""
        entity_of = {name: e.id for e in entities for name in e.names}
        wanted = sorted({n for e in entities if e.id in ids for n in e.names})
        in_a, listed = among(conn, "a", wanted)
        in_b, _ = among(conn, "b", wanted)
        rows = conn.execute(
            f"SELECT a, b, paragraph FROM story_meetings WHERE paragraph > 0 AND "
            f"({in_a} OR {in_b})",
            (listed, listed),
        )
        weights: dict[tuple[int, int], int] = {}
        for a, b, count in rows:
            x, y = entity_of.get(a, a), entity_of.get(b, b)
            if x != y:
                pair = (min(x, y), max(x, y))
                weights[pair] = weights.get(pair, 0) + count
        ranked = sorted(weights.items(), key=lambda item: (-item[1], item[0]))
        return [(a, b, "appears_with", weight) for (a, b), weight in ranked]


def _missing(conn: Connection, session: int, number: int | None) -> str:
    """Why there is no correction to undo: none left, one undone already, or one never made."""
    if number is None:
        return "no correction to undo in this story"
    row = conn.execute(
        "SELECT corrections_made FROM story_sessions WHERE id = ?", (session,)
    ).fetchone()
    if row is not None and 1 <= number <= int(row[0]):
        return f"correction #{number} was undone already"
    return f"no correction #{number} in this story"


def _keep_pairs(
    conn: Connection, session: int, pairs: Sequence[tuple[str, str]], column: str
) -> None:
    """Mark each pair of names (as written) the story has in `column` of its meetings."""
    keys = [(names.key(a), names.key(b)) for a, b in pairs]
    wanted, listed = among(conn, "key", sorted({key for pair in keys for key in pair}))
    ids = {
        str(key): int(number)
        for key, number in conn.execute(
            f"SELECT key, id FROM story_names WHERE session = ? AND {wanted}",
            (session, listed),
        )
    }
    found = {(ids[a], ids[b]) for a, b in keys if a in ids and b in ids and a != b}
    conn.executemany(
        f"INSERT INTO story_meetings (session, a, b, {column}) VALUES (?, ?, ?, 1) "
        f"ON CONFLICT (a, b) DO UPDATE SET {column} = 1",
        [(session, min(a, b), max(a, b)) for a, b in sorted(found)],
    )
