"""A title and an initial for a family name ("Mr. E.", "Mrs. M.", "Miss S."): how a letter, a
diary or a speaker shortens a name the story writes in full elsewhere (*Emma*'s Mrs. Elton
calls her husband "Mr. E."; *Lady Susan* writes "Mrs. M." of Mrs. Mainwaring).

The cast never joins them (an initial shares nothing by itself: `people.shares_a_name`), so
each is a suggestion: the one character the story calls by the same title and a family name
with that initial. Where two are ("Mr. K.", of Mr. Knightley or Mr. John Knightley?), none
is suggested. loci does not accept these itself at import (`is_abbreviation`): an initial is
the writer's to read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from loci.toolsets.story import names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.evidence import merge_suggestion
from loci.toolsets.story.models import CastSuggestion

#: A plain title and a capital with its stop, alone: "Mr. E.", "Mrs. M.", "Miss S.".
ABBREVIATION = re.compile(r"(?P<title>Mr|Mrs|Miss|Ms)\.?[ \t]+(?P<initial>[A-Z])\.")


def is_abbreviation(name: str) -> bool:
    """Whether `name` is a title and an initial alone ("Mr. E.")."""
    return ABBREVIATION.fullmatch(name.strip()) is not None


def abbreviated_suggestions(
    entities: Sequence[Entity], characters: Sequence[Entity]
) -> list[CastSuggestion]:
    """A merge of each name that is a title and an initial into the one character called by
    that title and a family name with that initial."""
    suggested = []
    for guest in entities:
        found = ABBREVIATION.fullmatch(guest.name.strip())
        if found is None or guest.kind not in ("character", "unknown"):
            continue
        title, initial = found.group("title").lower(), found.group("initial").lower()
        hosts = [c for c in characters if c.id != guest.id and _called(c, title, initial)]
        if len(hosts) != 1:
            continue
        forms = [hosts[0].name, *hosts[0].aliases]
        shown = next(a for a in forms if _titled_family(a, title, initial))
        reason = (
            f"{guest.name!r} is a title and an initial, and {shown!r} the story's only "
            f"{guest.name.split()[0]} of a family name beginning with {initial.upper()!r}"
        )
        suggested.append(merge_suggestion(guest, hosts[0], reason))
    return suggested


def _called(character: Entity, title: str, initial: str) -> bool:
    """Whether one of the character's names is `title` and a family name opening with
    `initial`."""
    return any(_titled_family(a, title, initial) for a in [character.name, *character.aliases])


def _titled_family(alias: str, title: str, initial: str) -> bool:
    parsed = names.parse(alias)
    family = {w for w in parsed.surnames | parsed.bare if len(w) > 1}
    return title in parsed.titles and any(w.startswith(initial) for w in family)
