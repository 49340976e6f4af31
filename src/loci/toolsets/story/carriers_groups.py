"""The people the carriers of a name can be, and which of them a name may not decide for.

"Catherine" fits Kitty and Lady Catherine, who share no name: two groups, and the name joins
one only if something singles it out (`loci.toolsets.story.preference`). A carrier that fits
the chosen group and another ("Mr. Gatz", of James Gatz or Henry C. Gatz) is torn: the name
does not take it along unless the name is said far more often than it.
"""

from __future__ import annotations

from collections.abc import Sequence

from loci.toolsets.story.marriage import wife_apart
from loci.toolsets.story.meetings import Evidence
from loci.toolsets.story.people import Person, shares_a_name
from loci.toolsets.story.preference import DOMINANCE


def groups(
    carriers: Sequence[Person], evidence: Evidence, near: Sequence[Person]
) -> list[list[Person]]:
    """The carriers as the people they can be: each joins the first group (most mentioned
    first, with the mentions of its given name alone) all of whose members it can be one
    person with, and shares a name with ("Catherine" fits Kitty and Lady Catherine, who share
    none: two groups; "Tilney" fits "Mr. Tilney" and "Captain Tilney", called by different
    titles: two groups; "Mr. Mason" fits Richard Mason, named once but "Richard" six times,
    before Jonas Mason, named once)."""
    found: list[list[Person]] = []
    for carrier in sorted(carriers, key=lambda p: (-p.count - evidence.alone(p), p.id)):
        for group in found:
            if all(one_with(carrier, member, evidence, near) for member in group):
                group.append(carrier)
                break
        else:
            found.append([carrier])
    return found


def torn(
    guest: Person,
    member: Person,
    others: Sequence[Person],
    evidence: Evidence,
    near: Sequence[Person],
) -> bool:
    """Whether `member` of the group `guest` joins may as well be one of `others`, and the
    guest is not named far more often than it, to decide for it."""
    if guest.count >= DOMINANCE * member.count:
        return False
    return any(one_with(member, other, evidence, near) for other in others)


def one_with(a: Person, b: Person, evidence: Evidence, near: Sequence[Person]) -> bool:
    """Whether `a` and `b` may be one person: they share a name, and neither the story's
    evidence nor a wife's name keeps them apart."""
    if evidence.conflict(a, b):
        return False
    if wife_apart(a, b, evidence, near) or wife_apart(b, a, evidence, near):
        return False
    return shares_a_name(a, b) or shares_a_name(b, a)
