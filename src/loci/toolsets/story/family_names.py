"""Names of a family the story's characters carry: a given name before the family name of a
character ("Blanche Ingram", of "Miss Ingram") names a person, whatever NER labelled
it, and so does that given name alone when its mentions show someone ("Blanche", called out);
the family's name in the plural names its household ("the Marches", "two Miss Thorpes")."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from loci.toolsets.story import census, names, namespans
from loci.toolsets.story.common_words import word_key
from loci.toolsets.story.place_words import PLACE_HEADS
from loci.toolsets.story.reading import WordCase

#: Share of a plural's mentions written after "the" for it to be a household ("the Marches").
HOUSEHOLD_ARTICLE_SHARE = 0.3


def full_names(family: Collection[str], written: Sequence[str]) -> set[str]:
    """The names of `written` that are a given name the census lists and one of the `family`
    names (of characters): "Blanche Ingram", beside "Miss Ingram"; not a house named
    for the family ("Lucas Lodge")."""
    return {
        name
        for name in written
        if len(words := name.split()) == 2
        and word_key(words[1]) in family
        and word_key(words[1]) not in PLACE_HEADS
        and census.is_given_name(words[0])
        and not names.is_title(words[0])
        and not namespans.a_stop_word(words[0])  # "So Elton", a sentence's opening
    }


def given(full: Collection[str]) -> set[str]:
    """The given names of the full names `full`."""
    return {word_key(name.split()[0]) for name in full}


def given_before(
    family: Collection[str], written: Sequence[str], cases: Mapping[str, WordCase]
) -> set[str]:
    """Words the story never writes in lower case that stand before a character's family
    name ("Priya" of "Priya Nair"): given names, though the census lacks them and they open
    sentences only, as a common word may."""
    found = set()
    for name in written:
        words = name.split()
        if len(words) == 2 and word_key(words[1]) in family and not names.is_title(words[0]):
            case = cases.get(word_key(words[0]))
            if case is not None and case.lower == 0:
                found.add(word_key(words[0]))
    return found


def is_household(written: str, after_the: int, mentions: int, family: Collection[str]) -> bool:
    """Whether `written` is the plural of a `family` name (of characters), used as one: written
    after "the" in HOUSEHOLD_ARTICLE_SHARE of its `mentions` or more ("the Marches")."""
    last = written.split()[-1].lower()
    if not last.endswith("s") or after_the < HOUSEHOLD_ARTICLE_SHARE * mentions:
        return False
    singulars = {last[:-1], last[:-2]} if last.endswith("es") else {last[:-1]}
    return bool(singulars & set(family))


def sisters(written: Sequence[str]) -> set[str]:
    """The names of `written` that name sisters, whatever stands before them: "Misses" and a
    family name (*Jane Eyre*'s "Misses Eshton", listed as a character), or "Miss" and a
    family name in the plural where the story writes "Miss" and that name alone too ("two
    Miss Thorpes", beside "Miss Thorpe", in *Northanger Abbey*; "Miss Jones" is one woman,
    with no "Miss Jone" written): `names.sisters_family`."""
    parsed = {name: names.parse(name) for name in written}
    misses = {word for name in parsed.values() if name.titles == {"miss"} for word in name.bare}
    return {
        written_as
        for written_as, name in parsed.items()
        if (family := names.sisters_family(written_as))
        and (name.titles == {"misses"} or family & misses)
    }
