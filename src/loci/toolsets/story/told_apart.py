"""Names that share their words and still name two people: what in them tells the two apart.

The cast joins a name to the one person who carries its words (`loci.toolsets.story.cast`);
these are pairs a careful reader keeps apart though every word fits, for the words they share
are a family's, not a person's.
"""

from __future__ import annotations

from collections.abc import Iterable

from loci.toolsets.story.people import INITIALS, MISTER, Person

#: The detail of a full name: a given name and a family name (`names.Name.detail`).
FULL_NAME = 2


def initial_only(host: Person, guest: Person) -> bool:
    """Whether `host` is known by an initial for a given name and `guest` by none: a family
    name is all they share, and an initial tells no one of the family from another ("Mr. De
    Courcy" is not "C. De Courcy", his mother's signature)."""
    return bool(host.given) and host.given <= INITIALS and not guest.given


def mister_families(people: Iterable[Person]) -> frozenset[str]:
    """The family names the story writes after "Mr." alone ("Mr. De Courcy"): a family with a
    plain mister among its men."""
    return frozenset(
        word
        for p in people
        if p.titles & MISTER and not p.given
        for word in p.surnames | p.surnamish | p.bare
    )


def knight_and_namesake(a: Person, b: Person, misters: frozenset[str]) -> bool:
    """Whether one of `a` and `b` is a name with "Sir" and the other a full name of the same
    given name without it, in a family with a plain mister (`mister_families`): a knight and
    the son named for him (*Lady Susan*'s "Sir Reginald" and "Sir Reginald De Courcy", his
    son "Reginald De Courcy", "Mr. De Courcy"). A knight keeps his title; the family's
    mister is another man of it."""
    knight, other = (a, b) if "sir" in a.titles else (b, a)
    if "sir" not in knight.titles or "sir" in other.titles or other.detail < FULL_NAME:
        return False
    # "Sir Reginald" may be written without his family name.
    family = other.surnames & knight.surnames if knight.surnames else other.surnames
    return bool(family & misters and knight.given & other.given)
