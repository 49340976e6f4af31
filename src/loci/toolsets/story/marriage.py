"""A woman's maiden and married names: "Mina Murray" in the letters before her wedding and
"Mina Harker" after it are one woman. A reader knows it by what the story shows: the same
given name; the maiden surname written before the married one first is, and after it in one
moment at most (a stray memory: "Sallie Gardiner's wedding cake"); a man of the story who
bears the married one (her husband), and a woman it calls "Mrs." of it; and the two names
never meeting in a sentence as two people. Two women of one given name in two families fail
one of these: both names written in the same stretch of the story, no man of the second
family, or no wife. And when a married name alone is another woman than one of its family
(`wife_apart`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from loci.toolsets.story.meetings import Evidence
from loci.toolsets.story.people import Person, wife_by_name

#: The moments the story may write a maiden name in after the married name first appears
#: (a stray memory: "Sallie Gardiner's wedding cake"; "That was Miss Mina Murray?" and her
#: "Yes" asked again, a few lines on, are one).
WRITTEN_AFTER = 1
#: How far apart (story tokens) two mentions may be and be one moment.
MOMENT = 300


@dataclass(frozen=True)
class Written:
    """Where a name is written in the story (its first mention, and its latest few in order),
    and its surnames."""

    first: int
    latest: tuple[int, ...]
    surnames: frozenset[str]


def maiden_and_married(
    people: Mapping[int, Person], written: Mapping[int, Written], evidence: Evidence
) -> list[tuple[Person, Person]]:
    """Pairs of one woman's people: (by her maiden name, by her married name)."""
    women = [p for p in people.values() if p.sex == "f" and p.given and len(p.surnames) == 1]
    husbands = {w for p in people.values() if p.sex == "m" for w in p.surnames}
    # A family a woman marries into has a wife the story calls by its name ("Mrs. Moffat"):
    # the sisters "Diana and Mary Rivers" were born to theirs.
    husbands &= {w for p in people.values() if wife_by_name(p) for w in p.family}
    pairs = []
    taken: set[int] = set()
    for maiden in sorted(women, key=lambda p: (-p.count, p.id)):
        for married in women:
            if {maiden.id, married.id} & taken or not _wed(maiden, married, husbands, written):
                continue
            if not evidence.seen_apart(maiden, married):
                pairs.append((maiden, married))
                taken |= {maiden.id, married.id}
    return pairs


def _wed(
    maiden: Person, married: Person, husbands: set[str], written: Mapping[int, Written]
) -> bool:
    """Whether `married` may be `maiden` after her wedding, by their names and where the story
    writes them."""
    if maiden.id == married.id or not maiden.given & married.given:
        return False
    if maiden.surnames & married.surnames or not married.surnames & husbands:
        return False
    before, after = _by_surname(maiden, written), _by_surname(married, written)
    if not before or not after:
        return False
    wedding = min(w.first for w in after)
    later = sorted(at for w in before for at in w.latest if at > wedding)
    moments = sum(1 for i, at in enumerate(later) if i == 0 or at - later[i - 1] > MOMENT)
    return min(w.first for w in before) < wedding and moments <= WRITTEN_AFTER


def _by_surname(person: Person, written: Mapping[int, Written]) -> list[Written]:
    """Where the story writes the names of `person` that carry its surname."""
    found = [written[m] for m in person.members if m in written]
    return [w for w in found if w.surnames & person.surnames]


def wife_apart(wife: Person, other: Person, evidence: Evidence, near: Sequence[Person]) -> bool:
    """Whether `wife`, a married woman named by her husband's name, is someone other than
    `other`, whom nothing says is married, when the story names more of her family (among
    `near`): "Mrs. Gardiner" is not Sallie Gardiner, her daughter, nor "Mrs. Darling" Wendy
    Moira Angela Darling; "Mrs. Laurence" is not James Laurence. Of a family the story names
    no one else of (but by the wife's titles), "Mrs. Dean" is Ellen Dean (a servant called
    so), unless the two ever meet in a sentence ("Mrs. Hale watched from the gate, and Tilly
    Hale waved to her": her mother; "'Mrs. Poole,' said she, addressing Grace" would take
    reading who is addressed)."""
    by_given = bool((wife.given | wife.bare) & evidence.given_words)
    if True not in wife.married or by_given or True in other.married:
        return False
    kin = any(
        p.id not in (wife.id, other.id) and p.words & wife.family and not wife_by_name(p)
        for p in near
    )
    return kin or evidence.met(wife, other) > 0
