"""The story's rows of names: a mention counted on a name (its cues, first and recent
mentions) and counted off again, and the meetings of names; `loci.toolsets.story.graph` keeps
them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import among
from loci.toolsets.story.entity import INTRODUCTION_CHARS, INTRODUCTION_REACH, introduces
from loci.toolsets.story.mentions import Mention

RECENT_KEPT = 3
#: The ways two names meet: in one paragraph, one sentence, or restating one another.
_KINDS = ("paragraph", "sentence", "apposition")
VOTES = (
    *("ner_person", "ner_place", "ner_other", "said", "acts", "place_word", "article"),
    *("addressed", "named"),
)


@dataclass(frozen=True)
class Observed:
    """A mention in a new piece, with its story position, its sentence and paragraph."""

    mention: Mention
    position: int
    excerpt: str
    paragraph: int


def rows(conn: Connection, session: int, keys: Sequence[str]) -> dict[str, dict[str, object]]:
    """The name rows of `keys` that exist, by key."""
    wanted, listed = among(conn, "key", keys)
    cursor = conn.execute(
        f"SELECT * FROM story_names WHERE session = ? AND {wanted}", (session, listed)
    )
    columns = [d[0] for d in cursor.description]
    return {row[2]: dict(zip(columns, row, strict=True)) for row in cursor}


def new_row(conn: Connection, session: int, key: str, seen: Observed) -> dict[str, object]:
    """A row for a name met for the first time, at `seen`."""
    cursor = conn.execute(
        "INSERT INTO story_names (session, key, written, first_pos, first_seen) "
        "VALUES (?, ?, ?, ?, ?) RETURNING *",
        (session, key, seen.mention.surface, seen.position, seen.excerpt),
    )
    columns = [d[0] for d in cursor.description]
    return dict(zip(columns, cursor.fetchone(), strict=True))


def count(row: dict[str, object], seen: Observed) -> None:
    """Add a mention's cues to its name's row (a mention read again after a correction may
    come before those counted so far: first and recent mentions keep story order)."""
    mention = seen.mention
    earlier = int(str(row["mentions"])) == 0 or seen.position < int(str(row["first_pos"]))
    row["mentions"] = int(str(row["mentions"])) + 1
    for column, present in _cues(mention).items():
        row[column] = int(str(row[column])) + int(present)
    if str(row["written"]).isupper() and not mention.surface.isupper():
        row["written"] = mention.surface
    recent = [*json.loads(str(row["recent_seen"])), [seen.position, seen.excerpt]]
    recent.sort(key=lambda seen_at: int(seen_at[0]))
    row["recent_seen"] = json.dumps(recent[-RECENT_KEPT:])
    first = str(row["first_seen"])
    if earlier:
        # The introduction so far goes on after the earlier sentence only if it is near it: a
        # name found again pages before is introduced there, not stitched to a later page.
        near = int(str(row["first_pos"])) - seen.position <= INTRODUCTION_REACH
        row["first_pos"] = seen.position
        if seen.excerpt not in first:
            kept = f"{seen.excerpt}\n{first}" if near else seen.excerpt
            row["first_seen"] = kept[: 2 * INTRODUCTION_CHARS].strip()
    elif (
        len(first) < INTRODUCTION_CHARS
        and seen.excerpt not in first
        and introduces(first, seen.position - int(str(row["first_pos"])))
    ):
        row["first_seen"] = f"{first}\n{seen.excerpt}".strip()


def uncount(row: dict[str, object], seen: Observed) -> None:
    """Take a mention off its name's row, as `count` put it on: a longer name the writer
    brought holds it now ("Dunmore" of "Young Dunmore")."""
    row["mentions"] = max(0, int(str(row["mentions"])) - 1)
    for column, present in _cues(seen.mention).items():
        row[column] = max(0, int(str(row[column])) - int(present))
    recent = [r for r in json.loads(str(row["recent_seen"])) if int(r[0]) != seen.position]
    row["recent_seen"] = json.dumps(recent)
    first = [line for line in str(row["first_seen"]).split("\n") if line != seen.excerpt]
    row["first_seen"] = "\n".join(first)
    if int(str(row["first_pos"])) == seen.position and recent:
        row["first_pos"] = min(int(r[0]) for r in recent)


def _cues(mention: Mention) -> dict[str, bool]:
    return {
        "ner_person": mention.label == "person",
        "ner_place": mention.label == "place",
        "ner_other": mention.label == "other",
        "said": mention.said,
        "acts": mention.acts,
        "place_word": mention.place_word,
        "article": mention.article,
        "male": mention.sex == "m",
        "female": mention.sex == "f",
        "addressed": mention.addressed,
        "named": mention.named,
    }


def save(conn: Connection, row: dict[str, object]) -> None:
    """Write back a row `count` or `uncount` changed."""
    columns = (
        *("written", "mentions", *VOTES, "male", "female"),
        *("recent_seen", "first_pos", "first_seen"),
    )
    conn.execute(
        f"UPDATE story_names SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
        (*(row[c] for c in columns), row["id"]),
    )


def meet(conn: Connection, session: int, met: Sequence[tuple[int, int, str]]) -> None:
    """Count the meetings of names (in a paragraph, a sentence, or restating one another)."""
    counts = _meetings(met)
    conn.executemany(
        "INSERT INTO story_meetings (session, a, b, paragraph, sentence, apposition) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (a, b) DO UPDATE SET "
        "paragraph = story_meetings.paragraph + excluded.paragraph, "
        "sentence = story_meetings.sentence + excluded.sentence, "
        "apposition = story_meetings.apposition + excluded.apposition",
        [
            (session, a, b, c["paragraph"], c["sentence"], c["apposition"])
            for (a, b), c in counts.items()
        ],
    )


def unmeet(conn: Connection, session: int, met: Sequence[tuple[int, int, str]]) -> None:
    """Count off meetings `meet` counted (never below none)."""
    conn.executemany(
        "UPDATE story_meetings SET "
        "paragraph = CASE WHEN paragraph > ? THEN paragraph - ? ELSE 0 END, "
        "sentence = CASE WHEN sentence > ? THEN sentence - ? ELSE 0 END, "
        "apposition = CASE WHEN apposition > ? THEN apposition - ? ELSE 0 END "
        "WHERE session = ? AND a = ? AND b = ?",
        [
            (*(n for kind in _KINDS for n in (c[kind], c[kind])), session, a, b)
            for (a, b), c in _meetings(met).items()
        ],
    )


def _meetings(met: Sequence[tuple[int, int, str]]) -> dict[tuple[int, int], dict[str, int]]:
    counts: dict[tuple[int, int], dict[str, int]] = {}
    for a, b, kind in met:
        if a != b:
            pair = counts.setdefault((min(a, b), max(a, b)), dict.fromkeys(_KINDS, 0))
            pair[kind] += 1
    return counts
