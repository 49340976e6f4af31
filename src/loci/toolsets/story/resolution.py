"""Working out who is who from the story tables, and reading the cast back as entities.

`resolve` reads every name of a session with its cues, how the story writes the words of
those names, which names met in sentences, and the writer's corrections; gathers the names
into people (`loci.toolsets.story.cast`), applies the corrections over them, and writes each name's
person and kind back. `entities` groups the rows into what the tools show.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from loci import sentences
from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import among
from loci.toolsets.story import (
    cast,
    common_words,
    corrections,
    derived_names,
    full_names,
    kin_words,
    kinds,
    names,
)
from loci.toolsets.story.entity import INTRODUCTION_CHARS, Entity, Seen, introduces
from loci.toolsets.story.kinds import Kind, Votes
from loci.toolsets.story.meetings import Together
from loci.toolsets.story.reading import WordCase

_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")


def resolve(conn: Connection, session: int, kept: list[corrections.Correction]) -> None:
    """Gather the session's names into people, apply the corrections, and save who is who."""
    rows = conn.execute(
        f"SELECT id, key, written, coalesce(person, id), kind, first_pos, recent_seen, "
        f"{kinds.VOTE_COLUMNS} FROM story_names WHERE session = ?",
        (session,),
    ).fetchall()
    surfaces = [
        cast.Surface(row[0], row[2], Votes(*row[7:]), row[5], _recent_places(row[6]))
        for row in rows
    ]
    id_of = {str(row[1]): int(row[0]) for row in rows}
    together = _together(conn, session)
    alone, declined = corrections.kept_apart(kept, id_of), corrections.declined(kept, id_of)
    cases = word_cases(conn, session, [s.written for s in surfaces])
    parted = {frozenset(pair) for pair, met in together.items() if met.parted}
    person_of, kind_of = cast.gather(surfaces, cases, together, alone, declined | parted)
    counts = {s.id: s.count for s in surfaces}
    _join_stated(person_of, kind_of, together, counts, alone, declined)
    fixed = corrections.replay(corrections.Cast(person_of, kind_of, {}), kept, id_of)
    changed = [
        (fixed.person_of[row[0]], fixed.kind_of[row[0]], row[0])
        for row in rows
        if (fixed.person_of[row[0]], fixed.kind_of[row[0]]) != (row[3], row[4])
    ]
    conn.executemany("UPDATE story_names SET person = ?, kind = ? WHERE id = ?", changed)


def _recent_places(recent: str) -> tuple[int, ...]:
    """Where the story last wrote a name: the places of its recent mentions, in order."""
    return tuple(sorted(int(at) for at, _ in json.loads(recent)))


def word_cases(conn: Connection, session: int, written: Sequence[str]) -> dict[str, WordCase]:
    """How the story writes each word of the `written` names; a word written with an
    apostrophe for a dropped letter counts as that word ("tha'", Yorkshire for "thou", is the
    name "Tha" NER found, its apostrophe read as a possessive's)."""
    words = sorted({common_words.word_key(w) for text in written for w in _WORD.findall(text)})
    wanted, listed = among(conn, "word", [*words, *(f"{w}'" for w in words)])
    rows = conn.execute(
        f"SELECT word, lower, inside FROM story_words WHERE session = ? AND {wanted}",
        (session, listed),
    )
    found: dict[str, WordCase] = {}
    for word, lower, inside in rows:
        key = word.removesuffix("'")
        before = found.get(key, WordCase())
        found[key] = WordCase(before.lower + lower, before.inside + inside)
    return found


def _together(conn: Connection, session: int) -> dict[tuple[int, int], Together]:
    rows = conn.execute(
        "SELECT a, b, sentence, apposition, stated, parted FROM story_meetings WHERE session = ? "
        "AND (sentence > 0 OR apposition > 0 OR stated > 0 OR parted > 0)",
        (session,),
    )
    return {(a, b): Together(*counted) for a, b, *counted in rows}


def _join_stated(
    person_of: dict[int, int],
    kind_of: dict[int, Kind],
    together: Mapping[tuple[int, int], Together],
    counts: Mapping[int, int],
    alone: Collection[int],
    declined: Collection[frozenset[int]],
) -> None:
    """Make one character of the people of two names the story says outright are one
    person's, once the cast is worked out from the names: whole people, as a reader who read
    the statement joins them, the more mentioned keeping its person. Not where the writer
    split either name off (`alone`) or kept a name of one apart from a name of the other
    (`declined`); keeping "Mrs. Penniman" apart from "Mr. Penniman" leaves her "Lavinia"."""
    for a, b in sorted(pair for pair, met in together.items() if met.stated):
        if a not in person_of or b not in person_of or a in alone or b in alone:
            continue
        groups: dict[int, list[int]] = {person_of[a]: [], person_of[b]: []}
        if len(groups) == 1:
            continue
        for surface, person in person_of.items():
            if person in groups:
                groups[person].append(surface)
        first, second = groups.values()
        if any(frozenset({x, y}) in declined for x in first for y in second):
            continue
        host, guest = sorted(groups, key=lambda p: -sum(counts[s] for s in groups[p]))
        for surface in groups[host] + groups[guest]:
            person_of[surface] = host
            kind_of[surface] = "character"


def entities(
    rows: Sequence[tuple[object, ...]], kept: list[corrections.Correction]
) -> list[Entity]:
    """The entities of name rows (id, written, mentions, first_pos, first_seen, recent_seen,
    person, kind, and how many of its mentions follow "the", if known), with the names shown
    and the notes the corrections leave."""
    grouped: dict[int, list[tuple[object, ...]]] = {}
    for row in rows:
        grouped.setdefault(int(str(row[6])), []).append(row)
    # A merge loci made itself names the entity as its suggestion happened to: not a name
    # the writer chose.
    by_writer = [c for c in kept if c.by == corrections.WRITER]
    renamed, named = _shown(kept, ("rename",)), _shown(by_writer, ("merge", "alias"))
    found: list[Entity] = []
    chosen: set[int] = set()
    for person, members in grouped.items():
        members.sort(key=lambda r: (-int(str(r[2])), int(str(r[0]))))
        seen = [r for r in members if int(str(r[2])) > 0] or members
        first = min(seen, key=lambda r: int(str(r[3])))
        recent = _latest(Seen(int(p), str(e)) for r in seen for p, e in json.loads(str(r[5])))
        # A name whose first sentences went to a longer name keeps its earliest one left.
        introduction = _introduction(seen) or (recent[0].excerpt if recent else "")
        written = [str(r[1]) for r in members]
        # Written after "the" in most of its mentions, a name is an epithet ("the Jew").
        led = {str(r[1]) for r in members if len(r) > 8 and 2 * int(str(r[8])) > int(str(r[2]))}
        named_by_writer = _name_chosen(written, renamed, named)
        if named_by_writer is not None:
            chosen.add(person)
        found.append(
            Entity(
                id=person,
                name=named_by_writer or _plain(written, led),
                kind=_kind(members),
                mentions=sum(int(str(r[2])) for r in members),
                first=Seen(int(str(first[3])), introduction),
                recent=recent,
                aliases=written,
                names=[int(str(r[0])) for r in members],
                corrections=[c.described() for c in kept if _touches(c, written)],
                vouched=any(c.action != "apart" and _touches(c, written) for c in kept),
            )
        )
    found.sort(key=lambda e: (-e.mentions, e.id))
    derived_names.add(found, {str(r[1]): int(str(r[2])) for r in rows})
    full_names.mark(found)
    full_names.tell_apart(found, chosen)
    return found


#: How many recent mentions an entity shows.
RECENT_SHOWN = 3


def _latest(seen: Iterable[Seen]) -> list[Seen]:
    """The latest mentions, earliest first, each sentence once (two names of one entity in
    one sentence are one mention to read)."""
    kept: list[Seen] = []
    for mention in sorted(seen, key=lambda s: -s.position):
        if len(kept) < RECENT_SHOWN and all(k.excerpt != mention.excerpt for k in kept):
            kept.append(mention)
    return kept[::-1]


def _plain(written: Sequence[str], epithets: Collection[str] = ()) -> str:
    """The name an entity is shown by: its most written, but a proper name before an epithet
    (one of `epithets`, written after "the" as a habit: "Fagin", not "the Jew" he is called
    more often), a title alone or a child's word for a parent ("Captain Hawkes", not "the
    Skipper" or "Skipper"; "Mrs. Hale", not the "Mama" her children say)."""
    proper = (
        w
        for w in written
        if w not in epithets
        and w.split()[0].lower() not in names.ARTICLES
        and kin_words.parent_word_sex(w) is None
        and not (" " not in w and names.is_title(w))
    )
    return next(proper, written[0])


#: How a sentence ends (a heading does not): a stop, with any closing quotes or brackets.
SENTENCE_END = re.compile(r"[.!?\u2026][\"'\u201d\u2019)\]_*]*$")


def _introduction(members: Sequence[tuple[object, ...]]) -> str:
    """The sentences that introduced the entity, earliest first, while they are short and
    near its first mention (names first met later are not its introduction); a
    heading (a line with no full stop: "The Weaver and the Swallow") only when nothing else
    introduced it, as it would read glued to the sentence after it."""
    ordered = sorted(members, key=lambda r: int(str(r[3])))
    earliest = int(str(ordered[0][3]))
    seen = [
        (int(str(row[3])) - earliest, sentence)
        for row in ordered
        for sentence in str(row[4]).split("\n")
    ]
    text = ""
    for distance, sentence in [s for s in seen if SENTENCE_END.search(s[1])] or seen:
        if not introduces(text, distance):
            continue  # a name first met later, far from the entity's introduction
        if len(text) >= INTRODUCTION_CHARS:
            return text
        # A window that starts mid-sentence (`ingest.excerpt` marks the cut) reads as a cut
        # once glued after another.
        cut = sentence[:1].islower() or sentence.startswith(sentences.ELLIPSIS)
        if sentence and sentence not in text and not (text and cut):
            text = f"{text} {sentence}".strip()
    return text


def _kind(members: Sequence[tuple[object, ...]]) -> Kind:
    kind = str(members[0][7])
    return kind if kind in kinds.KINDS else "unknown"


def _name_chosen(
    written: Sequence[str], renamed: dict[str, str], named: dict[str, str]
) -> str | None:
    """The name the corrections show an entity by, if any: the latest the writer renamed it
    to, else the name the latest merge or alias into it named (merged into "Ysolde", it is
    not shown as "Grace", the form written most)."""
    keys = [names.key(w) for w in written]
    for shown in (renamed, named):
        # A name the entity still holds (a merge's name may have been split off since).
        found = [k for k in shown if k in keys and names.key(shown[k]) in keys]
        if found:
            return shown[found[-1]]
    return None


def _shown(kept: list[corrections.Correction], actions: tuple[str, ...]) -> dict[str, str]:
    """The names the writer's corrections of `actions` show, by the key of a name of the
    entity, the latest last: a rename's new name, a merge's or an alias's name kept."""
    shown: dict[str, str] = {}
    for correction in kept:
        if correction.action not in actions or not correction.other:
            continue
        given = correction.other if correction.action == "rename" else correction.name
        for key in {names.key(correction.name), names.key(correction.other)}:
            shown.pop(key, None)  # re-inserted: the latest correction last
            shown[key] = given
    return shown


def _touches(correction: corrections.Correction, written: list[str]) -> bool:
    keys = {names.key(w) for w in written}
    return names.key(correction.name) in keys or names.key(correction.other or "") in keys
