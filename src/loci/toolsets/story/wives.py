"""A married name alone ("Mrs. Pruett") and the woman the story calls its husband's wife by
name ("Amos Pruett was a broad red man ... and his wife Lettie was small and quick"): one
woman, as a careful reader takes it.

The cast keeps "Mrs. Pruett" apart from "Lettie Pruett": a woman of a family name may be a
daughter of it, as Jane Bennet is no Mrs. Bennet. The story saying whose wife she is (or
whose marriage with her it tells of: "Mr. Willoughby's marriage with Miss Grey") settles
it: the husband is the man named before "'s wife", or the man named last before "his wife" in
its sentence; "Mrs." with his family name is his wife's, unless the story calls two women his
wife, or names the married name with her in a sentence as another person.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from loci import sentences
from loci.toolsets.story import names
from loci.toolsets.story.address import NAME
from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithets import EVIDENCE_CHARS
from loci.toolsets.story.evidence import merge_suggestion
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.people import Person

#: "his wife Lettie", "Amos's wife, Lettie", "Mr. Willoughby's marriage with Miss Grey"; not
#: a list's next one with a calling of her own ("John and his wife, Leah the housemaid, and
#: Sophie the French nurse").
WIFE = re.compile(
    rf"\b(?:[Hh]is|(?P<owner>{NAME})['\u2019]s)[ \t]+(?:wife,?|marriage[ \t]+(?:with|to))"
    rf"[ \t]+\n?[ \t]*(?P<wife>{NAME})(?![\w'\u2019-]|\s+the\s+[a-z])"
)
#: Where a sentence ends, for the husband "his" refers to: the man named last before it.
SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019]?\s|\n\s*\n")
#: How far back (in characters) the husband is looked for.
REACH = 300


def wives(
    text: str, characters: Sequence[Entity], people: Mapping[int, Person]
) -> dict[int, dict[int, str]]:
    """Each husband (a man of the cast) and the women the story calls his wife by name, each
    with the first sentence that does."""
    by_key = {names.key(a): e for e in characters for a in [e.name, *e.aliases]}
    men = [a for e in characters if people[e.id].sex == "m" for a in [e.name, *e.aliases]]
    if not men:
        return {}
    man = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(men, key=len)[::-1])) + r")\b")
    found: dict[int, dict[int, str]] = {}
    for match in WIFE.finditer(text):
        wife = by_key.get(names.key(match.group("wife")))
        owner = match.group("owner")
        husband = by_key.get(names.key(owner)) if owner else _named_last(text, match, man, by_key)
        if wife is not None and husband is not None and wife.id != husband.id:
            left, right = sentences.around(text, match.start(), match.end())
            said = sentences.clipped(
                text[left:right], EVIDENCE_CHARS, keep=(match.group("wife"), owner or "")
            )
            found.setdefault(husband.id, {}).setdefault(wife.id, said)
    return found


def _named_last(
    text: str, match: re.Match[str], man: re.Pattern[str], by_key: Mapping[str, Entity]
) -> Entity | None:
    """The man named last before `match` in its sentence."""
    before = text[max(0, match.start() - REACH) : match.start()]
    ends = list(SENTENCE_END.finditer(before))
    sentence = before[ends[-1].end() :] if ends else before
    named = list(man.finditer(sentence))
    return by_key.get(names.key(named[-1].group())) if named else None


def stated_wife_suggestions(
    text: str, characters: Sequence[Entity], people: Mapping[int, Person], company: Company
) -> list[CastSuggestion]:
    """Merges of a married name alone into the one woman the story calls the wife of the man
    whose family name it bears."""
    stated = wives(text, characters, people)
    by_id = {e.id: e for e in characters}
    suggested = []
    for guest in characters:
        mine = people[guest.id]
        if True not in mine.married or mine.given or mine.sex != "f" or not mine.family:
            continue
        theirs = {
            wife: said
            for husband, women in stated.items()
            if people[husband].sex == "m" and people[husband].family & mine.family
            for wife, said in women.items()
        }
        if len(theirs) != 1 or guest.id in theirs:
            continue
        ((wife_id, said),) = theirs.items()
        wife = by_id[wife_id]
        if company.met_in_sentences(guest.id, wife.id) or not _may_bear(people[wife.id], mine):
            continue
        reason = (
            f"{guest.name!r} is the wife of a man of the name, and the story calls {wife.name!r} "
            "his wife, or tells of his marriage with her"
        )
        suggested.append(merge_suggestion(guest, wife, reason, said))
    return suggested


def _may_bear(wife: Person, married: Person) -> bool:
    """Whether the woman may bear the married name: no other family name, no man's sex."""
    family = wife.surnames | wife.surnamish
    return wife.sex != "m" and (not family or bool(family & married.family))
