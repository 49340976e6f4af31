""" "Miss" and a family name alone ("Miss Vernon") and the one woman of the family who could
ever have been called so: one woman, as a careful reader takes it.

"Miss Vernon" names the eldest unmarried daughter of whichever Vernons the story is among. The
cast weighs it while reading, before it knows which woman of the family is its wife (*Lady
Susan*'s Catherine Vernon is Mrs. Vernon: a Vernon by marriage, never Miss Vernon), and keeps
it apart. Once the cast is known, a woman of the family by a given name who is called "Mrs."
by the family's name, or "Lady", was never its Miss; a woman married into another family
("Mrs. Brooke", *Little Women*'s Meg March) was, before. Where one woman of the family is
left, and the story never names the two in one sentence, "Miss" and the family name are
suggested as hers ("Miss Vernon" is Frederica Vernon).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loci.toolsets.story import names
from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.evidence import merge_suggestion
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.people import Person


def family_miss_suggestions(
    characters: Sequence[Entity], people: Mapping[int, Person], company: Company
) -> list[CastSuggestion]:
    """A merge of each "Miss" and a family name alone into the one woman of the family who
    could have been its Miss (`people`: each character's names as one person)."""
    suggested = []
    for guest in characters:
        family = _miss_by_family(guest)
        if family is None:
            continue
        women = [
            e for e in characters if e.id != guest.id and _may_be_miss(e, people[e.id], family)
        ]
        if len(women) != 1 or company.met_in_sentences(guest.id, women[0].id):
            continue
        reason = (
            f"{guest.name!r} names an unmarried daughter of the family, and {women[0].name!r} "
            "is the only woman of it the story names who is neither its 'Mrs.' nor a 'Lady'"
        )
        suggested.append(merge_suggestion(guest, women[0], reason))
    return suggested


def _miss_by_family(entity: Entity) -> str | None:
    """The family name of an entity named only "Miss" and a family name, or None."""
    parsed = [names.parse(a) for a in [entity.name, *entity.aliases]]
    families = {w for p in parsed for w in p.surnames | p.bare}
    if len(families) != 1 or any(p.titles != {"miss"} or p.given for p in parsed):
        return None
    return next(iter(families))


def _may_be_miss(entity: Entity, person: Person, family: str) -> bool:
    """Whether `entity`, a woman of `family` by a given name, may have been called "Miss" and
    the family name: not its "Mrs." (a wife of the family) nor a "Lady"."""
    if not person.given or family not in person.surnames or person.sex == "m":
        return False
    for alias in [entity.name, *entity.aliases]:
        parsed = names.parse(alias)
        if "lady" in parsed.titles or (
            "mrs" in parsed.titles and family in parsed.surnames | parsed.bare
        ):
            return False
    return True
