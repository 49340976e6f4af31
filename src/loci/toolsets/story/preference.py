"""Of several people a name fits, the one it means, if the text singles one out."""

from __future__ import annotations

from collections.abc import Sequence

from loci.toolsets.story import given_names
from loci.toolsets.story.people import Person, arms
from loci.toolsets.story.titles import RANKS

#: A single word fitting several people goes to one mentioned this many times as often as
#: the next, and at least DOMINANT_LEAST times.
DOMINANCE = 4
DOMINANT_LEAST = 3


def preferred(guest: Person, groups: list[list[Person]]) -> list[list[Person]]:
    """Of several people a name fits: all, when it is their fuller name (`_bridges`); none
    when two are namesakes of two generations ("Thomas Hale Sr." and "Thomas Hale Jr.");
    those who bear its title of rank or of arms too ("Sir William" is Sir William Lucas, not
    William Goulding; "Captain Tilney" is Captain Frederick Tilney, not Henry). Of several a
    single word fits: those of the word's own sex (by the pronouns that take it up), else the
    men (narration names men by surname alone far more than women) unless the one named far
    more often than the others is a woman known only by title and family name ("Medlock" is
    the housekeeper Mrs. Medlock, not her husband, named once; "Thatcher" is no Becky
    Thatcher). Of those, one named far more often than any other ("Hannah", said a hundred
    times, is not the Hannah named once; of men each written in full with the word, by those
    full names alone, `_namesakes`); for a titled name, only among people all named far less
    often than it (its fuller forms, not the family's main character)."""
    if _bridges(guest, groups):
        return [[p for g in groups for p in g]]
    if sum(1 for g in groups if any(p.generations for p in g)) > 1:
        return groups  # namesakes, a father and a son: which one a "Tommy" is, none says
    standing = guest.titles & RANKS | arms(guest.titles)
    titled = [g for g in groups if any(standing & (p.titles | arms(p.titles)) for p in g)]
    if titled:
        return titled
    if guest.detail > 0 and any(DOMINANCE * sum(p.count for p in g) > guest.count for g in groups):
        return groups  # "Mr. Laurence" is no more Laurie for Laurie's being named more
    if guest.detail == 0 and _literal_and_pet(guest, groups):
        return groups  # "Dick": Dick Johnson's, or a pet form of Richard Joyce's? None says
    if guest.detail == 0:
        # Pronouns few and at odds with the census are no sex: "George", taken up by "she"
        # five times in seven in Lucy's scenes, is a man.
        sex = guest.pronouns_sex()
        if sex is not None:
            groups = [g for g in groups if _sex_of(g) in (sex, None)]
        elif not _woman_by_family_name(_dominant(groups)):
            groups = [g for g in groups if _sex_of(g) == "m"] or groups
    dominant = _dominant(groups, _namesakes(guest, groups))
    return [dominant] if dominant is not None else groups


def _bridges(guest: Person, groups: list[list[Person]]) -> bool:
    """Whether `guest`, a full name, holds every word of each of `groups` ("Colin Roy Campbell",
    of "Colin Roy" and of "Colin Campbell"): their fuller name, it makes them one."""
    if not (guest.given and guest.surnames):
        return False
    held = guest.words | guest.called
    return all(p.words <= held for g in groups for p in g)


def _woman_by_family_name(group: list[Person] | None) -> bool:
    """Whether `group` is a woman the story names only by title and family name ("Mrs.
    Medlock"; "Miss Pross", named 150 times, whose brother "Solomon Pross" is named twice)."""
    if group is None:
        return False
    woman = any(p.married for p in group) and all(p.sex in ("f", None) for p in group)
    return woman and not any(p.given for p in group)


def _dominant(groups: list[list[Person]], given: set[str] | None = None) -> list[Person] | None:
    """The one group named far more often than any other, if there is one; by the full names
    written with `given` alone, when given."""

    def named(group: list[Person]) -> int:
        if given is None:
            return sum(p.count for p in group)
        return sum(p.given_mentions[w] for p in group for w in given)

    ranked = sorted(groups, key=lambda g: -named(g))
    if len(ranked) > 1:
        first, second = (named(g) for g in ranked[:2])
        if first >= max(DOMINANT_LEAST, DOMINANCE * second):
            return ranked[0]
    return None


def _literal_and_pet(guest: Person, groups: list[list[Person]]) -> bool:
    """Whether one of `groups` writes the guest's word as the given name of a full name ("Dick
    Johnson") and another has a name the word is a pet form of ("Richard Joyce"): two people it
    may be, the one named more often no likelier, unless one whose full name is written with
    the word is named far more than all the others (`_written_by_the_far_most_named`). ("Mr.
    Laurie" is no full name; "Elizabeth" is no pet form of Beth's, but her formal name.)"""
    literal = [any(_writes(guest, p) for p in g) for g in groups]
    pet = [any(_pet_of(w, p.given) for p in g for w in guest.words) for g in groups]
    if _written_by_the_far_most_named(guest, groups):
        return False
    return any(literal) and any(p and not lit for p, lit in zip(pet, literal, strict=True))


def _namesakes(guest: Person, groups: list[list[Person]]) -> set[str] | None:
    """A single word every one of `groups`, all men, writes as the given name of a full name
    ("Charles Hayter", "Charles Musgrove"), if it is one: which of them the word alone names,
    only how often each full name is written can say, not how often the family name is ("Mr.
    Hayter"). (A woman's two full names may be her maiden and married names: "Lydia Bennet",
    "Lydia Wickham".)"""
    men = all(_sex_of(g) == "m" for g in groups)
    if guest.detail == 0 and men and all(any(_writes(guest, p) for p in g) for g in groups):
        return guest.words
    return None


def _writes(guest: Person, person: Person) -> bool:
    """Whether `person` has a full name with the guest's word as its given name."""
    return bool(guest.words & person.given and person.surnames)


def _written_by_the_far_most_named(guest: Person, groups: list[list[Person]]) -> bool:
    """Whether one person whose full name is written with the guest's word is named
    DOMINANCE times as often as all the others it may be together (Dr. Seward, "Jack
    Seward", beside a "Jack Sheppard" and a John named once each; not "Mary Kingsley", named
    once, beside the parrot Polly)."""
    people = [p for g in groups for p in g]
    writers = [p for p in people if _writes(guest, p)]
    if not writers:
        return False
    first = max(writers, key=lambda p: p.count)
    rest = sum(p.count for p in people if p is not first)
    return first.count >= max(DOMINANT_LEAST, DOMINANCE * rest)


def _pet_of(word: str, given: set[str]) -> bool:
    """Whether `word` is a pet or short form of one of `given` (the nickname list relates
    names both ways: the pet form is the one no longer than the other)."""
    return any(
        word != name
        and len(word) <= len(name)
        and (name in given_names.formal(word) or given_names.short_form(word, name))
        for name in given
    )


def _sex_of(group: Sequence[Person]) -> str | None:
    return next((p.sex for p in group if p.sex), None)
