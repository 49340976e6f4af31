"""A family name after a title ("Mr. Craven") and the one full name the story writes with the
same title and family name ("Mr. Archibald Craven"): one man, as a careful reader takes it.

The cast keeps the two apart when the family has others ("Colin Craven", his son; "Dr.
Craven", a cousin): which of them the short name is, company often cannot tell, for the full
name is written a few times only. Its title can: the story wrote "Mr." before both, and before
no other full name of the family. Only titles before which a single word is a surname count
("Mr.", "Mrs.", "Captain"; not "Miss", which names the eldest daughter of whichever family the
story is in), and the pair is never one named twice in a sentence (two people side by side).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from loci.toolsets.story import names
from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.evidence import merge_suggestion
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.people import ARMS, DISTINGUISHED_LEAST, DOCTOR, MISTER, plain_family
from loci.toolsets.story.titles import SURNAME_TITLES

#: Of several full names written with a title and a family name, the one written this many
#: times as often as any other is the one the two alone name.
TITLED_DOMINANCE = 4


def calling(title: str) -> str:
    """A title as what it calls someone: "Mester" and "Mister" are "Mr.", "Capt." is
    "Captain"."""
    if title in MISTER:
        return "mr"
    if title in DOCTOR:
        return "dr"
    return ARMS.get(title, title)


def titled_surname(entity: Entity) -> tuple[frozenset[str], str] | None:
    """The callings and the family name of an entity named only by a title and one family
    name ("Mr. Craven", "Mester Craven"), or None."""
    parsed = [names.parse(alias) for alias in entity.aliases]
    words = {word for name in parsed for word in name.words}
    if len(words) != 1 or any(not name.titles <= SURNAME_TITLES for name in parsed):
        return None
    if any(not name.titles or name.given or name.husband for name in parsed):
        return None
    return frozenset(calling(t) for name in parsed for t in name.titles), next(iter(words))


def titled_full_names(entity: Entity) -> set[tuple[str, str]]:
    """The (calling, family name) pairs of the full names the entity is written by with a
    title ("Mr. Archibald Craven": ("mr", "craven")); "Mrs. John Brooke" is her husband's."""
    return set().union(*(_titled_full_name(alias) for alias in entity.aliases))


def _titled_full_name(alias: str) -> set[tuple[str, str]]:
    """The (calling, family name) pairs `alias` is a full name with a title of."""
    name = names.parse(alias)
    if not name.given or name.husband:
        return set()
    return {(calling(t), s) for t in name.titles for s in name.surnames}


def titled_name_suggestions(
    characters: Sequence[Entity], company: Company, text: str = ""
) -> list[CastSuggestion]:
    """Merges of a title and a family name into the one character written by a full name
    with the same title and family name, where the two never meet in a sentence, and `text`
    does not write the full name so again and again to tell him from the family's head ("Mr.
    John Knightley", 29 times, is not "Mr. Knightley")."""
    written = {e.id: titled_full_names(e) - distinguished(e.aliases, text) for e in characters}
    suggested = []
    for guest in characters:
        short = titled_surname(guest)
        if short is None:
            continue
        callings, family = short
        hosts = [
            e
            for e in characters
            if e.id != guest.id and any((c, family) in written[e.id] for c in callings)
        ]
        found = _the_one(hosts, callings, family, text)
        if found is None or company.met_in_sentences(guest.id, found[0].id):
            continue
        suggested.append(merge_suggestion(guest, found[0], f"{guest.name!r} is {found[1]}"))
    return suggested


def _the_one(
    hosts: Sequence[Entity], callings: frozenset[str], family: str, text: str
) -> tuple[Entity, str] | None:
    """The one of `hosts` a title and a family name are, with the reason in words: the only
    one written by a full name with them, or the one the story writes so TITLED_DOMINANCE
    times as often as any other ("Mr. Matthew Pocket" six times, "Mr. Herbert Pocket", the son
    named formally, once: "Mr. Pocket" is the father)."""
    if len(hosts) == 1:
        return hosts[0], (
            f"{hosts[0].name!r} by title and family name: the only full name the story writes "
            "with them"
        )
    times = {
        h.id: sum(written_times(a, text) for a in _titled_full(h, callings, family)) for h in hosts
    }
    ranked = sorted(hosts, key=lambda h: -times[h.id])
    if len(ranked) < 2 or times[ranked[0].id] < TITLED_DOMINANCE * max(1, times[ranked[1].id]):
        return None
    others = ", ".join(f"{h.name!r} {times[h.id]}" for h in ranked[1:])
    return ranked[0], (
        f"{ranked[0].name!r} by title and family name: the full name the story writes with "
        f"them {times[ranked[0].id]} times, another's far less ({others})"
    )


def _titled_full(entity: Entity, callings: frozenset[str], family: str) -> list[str]:
    """The entity's full names written with one of `callings` and `family`."""
    return [
        alias
        for alias in entity.aliases
        if any((c, family) in _titled_full_name(alias) for c in callings)
    ]


def distinguished(aliases: Iterable[str], text: str) -> set[tuple[str, str]]:
    """The plain titles and family names of the full names among `aliases` that `text`
    writes DISTINGUISHED_LEAST times or more (`Person.distinguished`)."""
    found: set[tuple[str, str]] = set()
    for alias in aliases:
        plain = plain_family(names.parse(alias))
        if plain and written_times(alias, text) >= DISTINGUISHED_LEAST:
            found |= plain
    return found


def written_times(alias: str, text: str) -> int:
    """How often `text` writes `alias`, as whole words."""
    words = r"\s+".join(map(re.escape, alias.split()))
    return len(re.findall(rf"(?<![\w.]){words}(?!\w)", text))
