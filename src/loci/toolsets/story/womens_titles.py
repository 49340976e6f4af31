"""A woman called by her place in a family or her calling, and her family name ("Aunt Reed",
"Nurse Rooke"), and the one married woman of that family ("Mrs. Reed", "Mrs Rooke"): one
woman, as a careful reader takes it.

The cast keeps them apart, as it must: *Little Women*'s Aunt March is no Mrs. March. A reader
takes the two for one where the family has no other married woman, no other woman called so,
and the story never names the two in one sentence (Aunt March and Mrs. March meet in
sentences of the narration; Jane Eyre says "Aunt Reed" only to the Mrs. Reed of the
narration, never beside her).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.evidence import merge_suggestion
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.people import Person

#: Titles of a woman by her place in a family or her calling, before a family name.
WOMENS_TITLES = frozenset({"aunt", "nurse", "widow"})
#: The married woman's title.
MARRIED = "mrs"


def womens_title_suggestions(
    characters: Sequence[Entity], people: Mapping[int, Person], company: Company
) -> list[CastSuggestion]:
    """A merge of each woman called by a title of WOMENS_TITLES and a family name alone into
    the one "Mrs." of the family, or the other way round (the less mentioned into the more),
    where neither has a rival of her title in the family and the two never meet in a
    sentence."""
    suggested = []
    for guest in characters:
        titles = people[guest.id].titles & WOMENS_TITLES
        if len(titles) != 1 or not _family_only(people[guest.id]):
            continue
        family = people[guest.id].family
        called = _of_family(family, titles, characters, people)
        wives = _of_family(family, {MARRIED}, characters, people)
        if len(called) != 1 or len(wives) != 1 or sum(e.id == guest.id for e in wives):
            continue
        wife = wives[0]
        if company.met_in_sentences(guest.id, wife.id):
            continue
        other, main = sorted((guest, wife), key=lambda e: (e.mentions, -e.id))
        written = guest.name.split(maxsplit=1)[-1]  # the family as written: "Reed"
        reason = (
            f"{guest.name!r} is the only {next(iter(titles))} of the {written} family and "
            f"{wife.name!r} its only married woman, never named in one sentence"
        )
        suggested.append(merge_suggestion(other, main, reason))
    return suggested


def _family_only(person: Person) -> bool:
    """Whether the person is named by a title and one family name, no given name."""
    return not person.given and len(person.family) == 1 and person.sex != "m"


def _of_family(
    family: set[str], titles: set[str], characters: Sequence[Entity], people: Mapping[int, Person]
) -> list[Entity]:
    """The characters of `family` called by one of `titles`."""
    return [
        e
        for e in characters
        if people[e.id].titles & titles and people[e.id].family & family and people[e.id].sex != "m"
    ]
