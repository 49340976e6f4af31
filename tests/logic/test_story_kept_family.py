"""A given name several people carry, read as a reader does: the one whose family it is named
with (Jane Eyre's "Mary", beside Diana and St. John Rivers, is Mary Rivers)."""

from __future__ import annotations

from collections import Counter

from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.suggestions import same_person_suggestions


def _entity(number: int, aliases: list[str], mentions: int) -> Entity:
    return Entity(number, aliases[0], "character", mentions, Seen(0, ""), [], aliases, [number])


#: Mary (bare, 81), Mary Rivers (4) and Mary Ingram (5); the Rivers: Diana and St. John; the
#: Ingrams: Blanche. No text: no carrier is named last before the bare name.
CAST = [
    _entity(1, ["Mary"], 81),
    _entity(2, ["Mary Rivers"], 4),
    _entity(3, ["Mary Ingram"], 5),
    _entity(4, ["Diana", "Diana Rivers"], 76),
    _entity(5, ["St. John", "St. John Rivers"], 165),
    _entity(6, ["Blanche", "Blanche Ingram"], 18),
]


def _company(met: dict[int, int]) -> Company:
    """Mary named in one sentence with each of `met` (id: times)."""
    company = Company()
    company.sentence[1] = Counter(met)
    for other, times in met.items():
        company.sentence.setdefault(other, Counter())[1] = times
    return company


def _offered(met: dict[int, int], cast: list[Entity] = CAST) -> list[tuple[str, str]]:
    found = same_person_suggestions(cast, _company(met), "")
    return [(s.name, s.other) for s in found if "Mary" in (s.name, s.other)]


def test_a_shared_given_name_goes_to_the_carrier_whose_family_it_is_named_with() -> None:
    found = same_person_suggestions(CAST, _company({4: 38, 5: 5, 6: 5}), "")
    mary = next(s for s in found if s.other == "Mary")
    assert (mary.action, mary.name, mary.mentions) == ("merge", "Mary Rivers", 81)
    assert "the Rivers family" in mary.reason and "in 43 sentences" in mary.reason
    assert "'Diana' 38" in mary.reason and "another carrier's in 5 at most" in mary.reason


def test_no_carrier_when_no_family_stands_out_or_is_named_with_it_often() -> None:
    assert _offered({4: 12, 5: 2, 6: 8}) == []  # 14 beside 8: not twice as many
    assert _offered({4: 6, 5: 2}) == []  # 8 sentences: too few to tell


def test_a_family_two_carriers_share_tells_nothing() -> None:
    sisters = [*CAST[:2], _entity(3, ["Mary Ann Rivers"], 5), *CAST[3:]]
    assert _offered({4: 38, 5: 5}, sisters) == []


def test_a_full_name_is_never_given_to_another_carrier_by_family() -> None:
    # Only a given name alone is read so: "Mary Smith" is Mary Smith whoever she is near.
    cast = [_entity(1, ["Mary Smith"], 81), *CAST[1:]]
    assert _offered({4: 38, 5: 5, 6: 5}, cast) == []
