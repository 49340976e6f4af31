"""Epithets in the cast: "the doctor", written a hundred times in a story whose only doctor by
name is Dr. Livesey, is Dr. Livesey, in the cast itself and not only in a suggestion; and so
is "the beadle" Mr. Bumble, a calling the story says beside his name alone.

An import reads such epithets at its end (`sure_epithets`): "the" and a title the story's one
character carries by name (or far more often than any other: "the Count" of Count Dracula,
whose alias "Count de Ville" is written twice), written EPITHET_SURE_LEAST times or more, in
the paragraphs (or passages) that name that character too. They become names of the story,
counted in the text already stored and in what is written after. The cast then joins each to
the one character carrying its title (`epithet_host`), or to no one once the story names a
second doctor as often; a title shared by several ("the captain" of a story of many
captains) stays a suggestion (`loci.toolsets.story.epithets`).

A calling an import takes for a name (`callings.sure_callings`) joins the character whose
name it restates in apposition ("Mr. Bumble, the beadle", `reading.pairs`) far more often
than any other's (`calling_hosts`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from loci.toolsets.story import names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithets import EPITHET_DOMINANCE, NOT_EPITHETS, carried, long_title
from loci.toolsets.story.meetings import Together
from loci.toolsets.story.mentions import CALLING
from loci.toolsets.story.people import Person

#: The fewest times an epithet is written for the cast to read it as a name of its own
#: (a suggestion takes fewer: `epithets.EPITHET_LEAST`).
EPITHET_SURE_LEAST = 5
#: How a carrier must stand out for the import to take an epithet of its title: the only
#: one by name, or the one named with the title far more often than any other ("Count
#: Dracula", beside his alias "Count de Ville" twice).
SURE_STANDING = frozenset({"sole", "most"})
#: "the" and one word: an epithet as the cast reads it.
THE_TITLE = re.compile(r"^[Tt]he (\S+)$")


def sure_epithets(text: str, characters: Sequence[Entity]) -> list[str]:
    """The epithets of `text` ("the doctor") whose title one character alone carries before
    a name of theirs ("Dr. Livesey"; the cast reads no "Woodman" of "Tin Woodman" as a
    title), or one named with it and mentioned far more often than any other ("Count
    Dracula", beside "Count de Ville"), written often and keeping that character's company,
    as written."""
    found = []
    for each in carried(text, characters):
        epithet = each.epithet
        title = epithet_title(epithet.written)
        sure = each.standing in SURE_STANDING and each.beside and not epithet.called
        carrier = title in _titles(each.carrier) and _outnumbers(each.carrier, title, characters)
        if sure and carrier and epithet.count >= EPITHET_SURE_LEAST:
            found.append(epithet.written)
    return found


def _outnumbers(carrier: Entity, title: str | None, characters: Sequence[Entity]) -> bool:
    """Whether `carrier` is mentioned EPITHET_DOMINANCE times as often as any other character
    carrying `title`, as the cast needs to join the epithet to it (`epithet_host`)."""
    others = [e for e in characters if e.id != carrier.id and title in _titles(e)]
    return all(carrier.mentions >= EPITHET_DOMINANCE * e.mentions for e in others)


def _titles(entity: Entity) -> set[str]:
    """The titles written before the entity's names, in their long form."""
    return {long_title(t) for alias in entity.aliases for t in names.parse(alias).titles}


def epithet_title(written: str) -> str | None:
    """The title of an epithet ("doctor" of "the Doctor", of "the Dr."), or None for another
    name."""
    match = THE_TITLE.match(written)
    if match is None:
        return None
    word = match.group(1).rstrip(".")
    if not names.is_title(word) or word.lower() in NOT_EPITHETS:
        return None
    return long_title(word.lower())


def epithet_host(title: str, people: Iterable[Person]) -> Person | None:
    """The character among `people` whose names carry `title` (in its long form): the only
    one, or one mentioned EPITHET_DOMINANCE times as often as any other ("Prof. Sands",
    named once, is not the Professor of a story that names Mr. Bhaer ninety times)."""
    carriers = sorted(
        (p for p in people if p.character and title in {long_title(t) for t in p.titles}),
        key=lambda p: -p.count,
    )
    if not carriers or (
        len(carriers) > 1 and carriers[0].count < EPITHET_DOMINANCE * carriers[1].count
    ):
        return None
    return carriers[0]


def epithet_hosts(
    written: Iterable[tuple[int, str]],
    people: Sequence[Person],
    alone: Collection[int],
    declined: Collection[frozenset[int]],
) -> list[tuple[int, Person]]:
    """Each epithet among the `written` names (id, as written) with the person it joins
    (`epithet_host`): never one the writer split off (`alone`), nor into a person the writer
    kept it apart from (`declined`)."""
    found = []
    for surface, name in written:
        title = epithet_title(name)
        if title is None or surface in alone:
            continue
        host = epithet_host(title, people)
        if host is not None and not any(frozenset({surface, m}) in declined for m in host.members):
            found.append((surface, host))
    return found


def calling_hosts(
    written: Iterable[tuple[int, str]],
    people: Sequence[Person],
    together: Mapping[tuple[int, int], Together],
    alone: Collection[int],
    declined: Collection[frozenset[int]],
) -> list[tuple[int, Person]]:
    """Each calling among the `written` names (id, as written) with the character whose names
    it restates in apposition EPITHET_DOMINANCE times as often as any other's: never one the
    writer split off (`alone`), nor into a person the writer kept it apart from (`declined`)."""
    found = []
    for surface, name in written:
        if not is_calling(name) or surface in alone:
            continue
        restated = {
            person.id: sum(_apposed(together, surface, m) for m in person.members)
            for person in people
            if person.character
        }
        ranked = sorted(people, key=lambda p: -restated.get(p.id, 0))
        best = restated.get(ranked[0].id, 0) if ranked else 0
        second = restated.get(ranked[1].id, 0) if len(ranked) > 1 else 0
        kept_apart = any(frozenset({surface, m}) in declined for m in ranked[0].members)
        if best and best >= EPITHET_DOMINANCE * second and not kept_apart:
            found.append((surface, ranked[0]))
    return found


def is_calling(written: str) -> bool:
    """Whether a name of the story is "the" and a calling ("the beadle", "the minister")."""
    return CALLING.fullmatch(written) is not None


def _apposed(together: Mapping[tuple[int, int], Together], a: int, b: int) -> int:
    met = together.get((a, b)) or together.get((b, a))
    return met.apposition if met else 0
