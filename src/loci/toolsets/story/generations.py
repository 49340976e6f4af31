"""Two generations of one family, as a reader tells them: a family name the story says with
"old" and with "young" ("old Mr. Emerson", nine times in *A Room with a View*, and "young Mr.
Emerson", four) names a parent and a child. Where the story gives one of them a given name
and the other none ("George Emerson", the son; his father is only ever "Mr. Emerson"), the
family name written without a given name is no more the son's than the father's: a reader
keeps it apart from the son, and the father, called by his title alone, is a character of his
own. Where both have given names ("James Laurence", "Theodore Laurence" in *Little Women*),
the cast tells them apart by their names, as it does any two people.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from loci.storage.databases.db import Connection
from loci.toolsets.story import names, store
from loci.toolsets.story.aged import AGED
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.graph import EntityGraph

#: How often the story must say a family name with each of "old" and "young": once each may
#: be one person seen at two ages ("old Brooke" and "young Brooke", both John Brooke).
SAID_LEAST = 2


def read_generations(conn: Connection, graph: EntityGraph, found: store.Session, text: str) -> bool:
    """Keep apart the names of each family the story says has two generations (`text`: the
    story as rendered without prompts), as `two_generations` finds them in the cast worked
    out so far; returns whether any pair was kept apart."""
    confirm = found.settings.confirm_after
    characters = [
        e for e in graph.entities(conn, found.id) if e.kind == "character" and e.confirmed(confirm)
    ]
    pairs = two_generations(text, characters)
    graph.part(conn, found.id, pairs)
    return bool(pairs)


def two_generations(text: str, characters: Sequence[Entity]) -> list[tuple[str, str]]:
    """Pairs of names (as written) of one character that are two people's: in each family
    the story says with both "old" and "young", where one character alone holds the
    family's names with a given name, its names of the family without one, each with each
    of its names with one."""
    said = Counter(
        (names.key(match.group(2)).split()[-1], match.group(1).lower())
        for match in AGED.finditer(text)
    )
    families = sorted(
        family
        for family, age in said
        if age == "old" and min(said[family, "old"], said[family, "young"]) >= SAID_LEAST
    )
    pairs = []
    for family in families:
        named = [c for c in characters if any(_given_and(family, a) for a in c.aliases)]
        if len(named) != 1:
            continue
        given = [a for a in named[0].aliases if _given_and(family, a)]
        alone = [a for a in named[0].aliases if _family_alone(family, a)]
        pairs += [(a, b) for a in alone for b in given]
    return pairs


def _given_and(family: str, written: str) -> bool:
    name = names.parse(written)
    return bool(name.given) and family in name.surnames


def _family_alone(family: str, written: str) -> bool:
    name = names.parse(written)
    return not name.given and family in name.surnames | name.bare
