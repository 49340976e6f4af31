"""A character the story names with "old" or "young" as a habit ("old Pew", "old Redruth",
"young Hawkins"), and the suggestion that the name so said is theirs.

NER takes the name and leaves the word before it, so "old Pew", written four times in
*Treasure Island*, is counted as "Pew" and listed nowhere. Said of one character's name
again and again, it is a name the story gives them. A name said with both words ("old
Osborne" and "young Osborne") names two generations and is no one's; so is a word of a name
that another character's names hold too ("young Hawkins" in a story with a Mrs. Hawkins may
be either's child); a titled name is one character's by its title ("old Mr. Emerson" is
the one "Mr. Emerson", though his son George is an Emerson too).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from loci.toolsets.story import names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithets import EPITHET_LEAST, sentence_at
from loci.toolsets.story.models import CastSuggestion

#: "old" or "young" and a name of one word, with a title before it or not ("old Mr. Laurence").
AGED = re.compile(
    r"\b([Oo]ld|[Yy]oung)\s+((?:(?:Mr|Mrs|Miss|Dr)\.?\s+)?[A-Z][\w'\u2019-]*)"
    r"(?![\w'\u2019-]|\s+[A-Z])"  # one word: not "old Tom Redruth"
)


def aged_suggestions(text: str, characters: Sequence[Entity]) -> list[CastSuggestion]:
    """An alias for each name the story says with "old" or "young" before it EPITHET_LEAST
    times or more, of one character alone."""
    owners: dict[str, list[Entity]] = {}
    for character in characters:
        for alias in character.aliases:
            owners.setdefault(names.key(alias), []).append(character)
    # How many characters' names hold each word: "Hawkins" of Jim's and of Mrs. Hawkins'.
    words = Counter(
        w for c in characters for w in {w for a in c.aliases for w in names.key(a).split()}
    )
    held = set(owners)
    said: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for match in AGED.finditer(text):
        key = (match.group(1).lower(), " ".join(match.group(2).split()))
        said.setdefault(key, []).append(match.span())
    suggested = []
    for (age, name), spans in said.items():
        written = f"{age} {name}"
        other_age = "young" if age == "old" else "old"
        hosts = owners.get(names.key(name), [])
        if len(spans) < EPITHET_LEAST or len(hosts) != 1 or (other_age, name) in said:
            continue
        # "old Mr. Emerson" is the one "Mr. Emerson", though his son George is an Emerson too.
        shared = not names.is_title(name.split()[0]) and words[names.key(name).split()[-1]] > 1
        if names.key(written) in held or shared:
            continue
        suggested.append(
            CastSuggestion(
                action="alias",
                name=hosts[0].name,
                other=written,
                mentions=len(spans),
                reason=f"{written!r} is written {len(spans)} times: {name!r}, a name of "
                f"{hosts[0].name!r} and of no other character, with {age!r} said before it",
                evidence=sentence_at(text, *spans[0]),
            )
        )
    return suggested
