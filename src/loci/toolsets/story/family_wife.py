"""A married name alone and the one woman its family has by name ("Mrs. Winthrop" and Dolly
Winthrop, "Mrs. Wilson" and Myrtle Wilson): one woman, as a careful reader takes it.

The cast keeps them apart, as it must: a woman of a family name may be its daughter (Sallie
Gardiner is no Mrs. Gardiner; Justine Moritz no Madame Moritz). A reader takes her for the
family's wife where she is the one woman of the family the story names who is no "Miss" or
"Lady" by her own name (*Lady Susan*'s "Mrs. Vernon" is Catherine Vernon: Lady Susan Vernon
is a lady in her own right, Frederica "Miss Frederica"), and it writes no "Miss" of the family
that none of them answers to (a daughter by title alone), names her with a man of the family
in a sentence (the household she is the wife of: the Gardiners and the Moritzes have none by
name), mentions her half as often as the married name at least (a Laura Spencer named twice
is no "Mrs. Spencer" met 34 times), gives her no other family name (Jane Eyre, "Jane
Rochester" at the end, is no "Mrs. Rochester" before it), never names the two in one
sentence, and never calls her someone's daughter, sister or niece ("his daughter Lettie")
nor gives her a parent, an uncle or an aunt ("Julia's mother": *Daddy-Long-Legs*' "Mrs.
Pendleton", written once, is Julia Pendleton's mother, no wife of her uncle Jervis).
Married names given at a wedding the story tells are `kinship.wife_suggestions`'. An import's
end takes these for the woman's (`loci.toolsets.story.stated`): on sixteen books, each one
offered was right (Myrtle, Dolly Winthrop, Mary Cavendish, Catherine Vernon).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from loci.toolsets.story import names
from loci.toolsets.story.address import NAME
from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.evidence import evidence, merge_suggestion
from loci.toolsets.story.gazetteer import LINE_BREAK_OR_SPACE
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.people import Person

#: A woman the story calls a daughter of the family, or a sister: "his daughter Lettie",
#: "Amos's daughter, Lettie", "my sister Mary".
KIN = re.compile(
    rf"\b(?:[Hh]is|[Hh]er|[Mm]y|[Tt]heir|{NAME}['\u2019]s){LINE_BREAK_OR_SPACE}"
    rf"(?:daughter|sister|niece|granddaughter),?{LINE_BREAK_OR_SPACE}(?P<kin>{NAME})"
)
#: A woman the story gives a parent, an uncle or an aunt: "Julia's mother says" (and her
#: "Mrs. Pendleton" is that mother, no wife of Julia's uncle Jervis Pendleton).
PARENTED = re.compile(
    rf"\b(?P<kin>{NAME})['\u2019]s{LINE_BREAK_OR_SPACE}(?:mother|father|parents|uncle|aunt)\b"
)
#: The titles a woman bears by her own name that no "Mrs." of her family is: a daughter
#: ("Miss Frederica") and a peer's daughter ("Lady Susan").
OWN_TITLES = frozenset({"miss", "lady"})
#: The married name may be written up to this many times as often as the wife's names.
WIFE_SHARE = 2


def family_wife_suggestions(
    entities: Sequence[Entity],
    characters: Sequence[Entity],
    people: Mapping[int, Person],
    company: Company,
    text: str = "",
) -> list[CastSuggestion]:
    """A merge of each married name alone ("Mrs. Winthrop") into the one woman of its
    family the story names by a given name, where the story tells her the family's wife
    (see the module's rules; `people`: each character's names as one person)."""
    by_title = _families_with_a_miss(entities)
    kin = {names.key(m.group("kin")) for r in (KIN, PARENTED) for m in r.finditer(text)}
    suggested = []
    for guest in characters:
        mine = people[guest.id]
        if mine.given or mine.sex != "f" or True not in mine.married or len(mine.family) != 1:
            continue
        misses = _misses_by_name(mine.family, characters, people)
        if mine.family & by_title and not misses:
            continue  # a daughter known by the title alone may be the woman named
        found = _the_wife(guest, characters, people, company)
        if found is not None and not kin & {names.key(a) for a in found[0].aliases}:
            wife, husband = found
            family = guest.name.split(maxsplit=1)[-1]  # as written: "De Courcy"
            others = (
                f"the only woman of it the story names but its Misses and Ladies by name "
                f"({', '.join(repr(m.name) for m in misses)})"
                if misses
                else f"the only woman of it the story names, with no 'Miss {family}'"
            )
            met = company.met_in_sentences(wife.id, husband.id)
            reason = (
                f"{guest.name!r} is a married name of the {family} family, and {wife.name!r} "
                f"{others}: its wife, named with {husband.name!r} in {met} "
                f"sentence{'' if met == 1 else 's'}"
            )
            suggested.append(merge_suggestion(guest, wife, reason, evidence(wife, husband)))
    return suggested


def _the_wife(
    guest: Entity,
    characters: Sequence[Entity],
    people: Mapping[int, Person],
    company: Company,
) -> tuple[Entity, Entity] | None:
    """The one woman of the married name's family named by a given name and by no title of
    her own, and the man of the family she is named with most in sentences, if the story
    tells her its wife."""
    family = people[guest.id].family
    women = [
        e
        for e in _women_of(family, characters, people)
        if e.id != guest.id and not people[e.id].titles & OWN_TITLES
    ]
    if len(women) != 1:
        return None
    wife, her = women[0], people[women[0].id]
    if her.surnames != family or wife.mentions * WIFE_SHARE < guest.mentions:
        return None
    if company.met_in_sentences(guest.id, wife.id):
        return None
    men = [
        e
        for e in characters
        if people[e.id].sex == "m" and people[e.id].given and family & people[e.id].family
    ]
    husband = max(men, key=lambda m: company.met_in_sentences(wife.id, m.id), default=None)
    if husband is None or not company.met_in_sentences(wife.id, husband.id):
        return None
    return wife, husband


def _misses_by_name(
    family: set[str], characters: Sequence[Entity], people: Mapping[int, Person]
) -> list[Entity]:
    """The women of `family` the story names by a given name and a title of their own
    ("Miss Frederica", "Lady Susan")."""
    return [e for e in _women_of(family, characters, people) if people[e.id].titles & OWN_TITLES]


def _women_of(
    family: set[str], characters: Sequence[Entity], people: Mapping[int, Person]
) -> list[Entity]:
    """The characters of `family` named by a given name, none of them a man."""
    return [
        e
        for e in characters
        if people[e.id].given and family & people[e.id].surnames and people[e.id].sex != "m"
    ]


def _families_with_a_miss(entities: Sequence[Entity]) -> frozenset[str]:
    """The family names any entity writes after "Miss" (a daughter of the family, by title)."""
    found: set[str] = set()
    for entity in entities:
        for alias in entity.aliases:
            name = names.parse(alias)
            if "miss" in name.titles:
                found |= name.surnames | name.bare
    return frozenset(found)
