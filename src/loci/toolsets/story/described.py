"""A character's name with a word said of them before it ("the Great Oz", "the Great
Wizard"), which the cast holds for no one (NER took "the Great Oz" for a place), and the
suggestion that it is that character's.

The words before must be common words, not names: written in lower case in the story more
often than with a capital ("great"), no title ("King Crow" is a king) and no given name
("Injun Joe"). The name after must be one character's alone, and the two never named in one
sentence (two people side by side).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from loci.toolsets.story import census, names
from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.evidence import merge_suggestion
from loci.toolsets.story.models import CastSuggestion

#: The fewest mentions of a name for it to be suggested: company says little of fewer.
DESCRIBED_LEAST = 5


def describing_words(words: Sequence[str], text: str) -> bool:
    """Whether `words` are common words said of someone: each written in lower case in
    `text` more often than with a capital, and none a title or a given name."""
    for word in words:
        if names.is_title(word) or census.is_given_name(word):
            return False
        lower = len(re.findall(rf"\b{re.escape(word.lower())}\b", text))
        capital = len(re.findall(rf"\b{re.escape(word.capitalize())}\b", text))
        if lower <= capital:
            return False
    return True


def described_suggestions(
    entities: Sequence[Entity], characters: Sequence[Entity], company: Company, text: str
) -> list[CastSuggestion]:
    """Merges of a name the cast holds for no one into the one character whose name it is,
    with common words before it."""
    owners: dict[str, list[Entity]] = {}
    for character in characters:
        for alias in {names.unarticled(a) for a in character.aliases}:
            owners.setdefault(alias, []).append(character)
    suggested = []
    for guest in entities:
        if guest.kind not in ("unknown", "other") or guest.mentions < DESCRIBED_LEAST:
            continue
        words = names.unarticled(guest.name).split()
        if "of" in words:
            continue  # "the Land of Oz" is a land
        for cut in range(1, len(words)):
            hosts = owners.get(" ".join(words[cut:]), [])
            if len(hosts) != 1 or company.met_in_sentences(guest.id, hosts[0].id):
                continue
            if describing_words(words[:cut], text):
                reason = (
                    f"{guest.name!r} is {hosts[0].name!r} with {' '.join(words[:cut])!r} said "
                    "before it, a common word the story writes in lower case, and the cast "
                    "holds it for no one else"
                )
                suggested.append(merge_suggestion(guest, hosts[0], reason))
                break
    return suggested
