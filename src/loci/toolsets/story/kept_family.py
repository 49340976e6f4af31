"""Which of several people a shared given name means, by the family it is named with.

*Jane Eyre* writes "Mary" alone 81 times. Mary Rivers, Mary Ingram and Mary Ann Wilson carry
it; "Mary Rivers" is written four times only, so the full names keep too little company to
compare, and the bare name mostly stands pages from any of them (`named_last` cannot tell).
But "Mary" is named in 38 sentences with Diana Rivers and 5 with St. John Rivers, in 7 with
the Ingrams: a reader takes her for the Rivers' Mary, the sister named beside her brother and
sister. A family two of the carriers share tells nothing ("Mr. Reed" and "Mrs. Reed" may be
named with either of their children), nor do the carriers themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.people import Person

#: The family a shared given name is named with must be so in this many sentences at least,
#: and in this many times as many as any other carrier's family.
FAMILY_LEAST = 10
CLEARLY_MORE = 2.0


def carrier_by_family(
    guest: Entity,
    carriers: Sequence[Entity],
    characters: Sequence[Entity],
    people: Mapping[int, Person],
    company: Company,
) -> tuple[Entity, str, str] | None:
    """The one of `carriers` (who all carry `guest`, a given name alone) whose family the
    story names `guest` with far more often than any other carrier's, with the reason in
    words; None when none stands out."""
    if people[guest.id].surnames:
        return None
    families = {c.id: people[c.id].surnames for c in carriers}
    shared = Counter(word for words in families.values() for word in words)
    carried = {c.id for c in carriers} | {guest.id}
    kin: dict[int, list[tuple[Entity, int]]] = {}
    owns: dict[int, set[str]] = {}
    for carrier in carriers:
        own = owns[carrier.id] = {word for word in families[carrier.id] if shared[word] == 1}
        kin[carrier.id] = [
            (k, company.met_in_sentences(guest.id, k.id))
            for k in characters
            if k.id not in carried and own & (people[k.id].surnames | people[k.id].surnamish)
        ]
    met = Counter({c: sum(n for _, n in kin[c]) for c in kin})
    ranked = met.most_common(2)
    top, times = ranked[0] if ranked else (0, 0)
    second = ranked[1][1] if len(ranked) > 1 else 0
    if times < max(FAMILY_LEAST, CLEARLY_MORE * second):
        return None
    host = next(c for c in carriers if c.id == top)
    named = ", ".join(f"{k.name!r} {n}" for k, n in sorted(kin[top], key=lambda kn: -kn[1]) if n)
    family = " or ".join(sorted(word.title() for word in owns[top]))
    others = f"another carrier's in {second} at most" if second else "no other carrier's"
    reason = (
        f"{guest.name!r}, a name {len(carriers)} people carry, is named with the {family} "
        f"family of {host.name!r} in {times} sentences ({named}), with {others}"
    )
    return host, reason, ""
