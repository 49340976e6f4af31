"""Names in a story's cast that are no person's: a month, a day or a document of an
epistolary novel ("Journal") that does not speak or act as a person does."""

from __future__ import annotations

from collections.abc import Sequence

from loci.toolsets.story import kinds, names
from loci.toolsets.story.address import CALENDAR
from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.evidence import evidence
from loci.toolsets.story.models import CastSuggestion

#: Words of a name that is no person's: months, days, documents of an epistolary novel.
NOT_PERSON_WORDS = frozenset(
    (
        *CALENDAR,
        *("journal", "diary", "log", "letter", "telegram", "memorandum", "postscript"),
        *("chapter", "volume", "book", "appendix", "preface"),
    )
)


def not_people_suggestions(characters: Sequence[Entity], company: Company) -> list[CastSuggestion]:
    """A character whose every name is a month, a day or a document, and who does not act as
    a person (speak, act, be taken up by "he" or "she"), is likely no person ("May" who
    speaks is May Chester)."""
    suggested = []
    for entity in characters:
        words = {w for alias in entity.aliases for w in names.key(alias).split()}
        cues = company.votes.get(entity.id, kinds.Votes())
        acts = cues.said + cues.acts + cues.male + cues.female
        if words and words <= NOT_PERSON_WORDS and acts < kinds.CUE_SHARE * entity.mentions:
            suggested.append(
                CastSuggestion(
                    action="kind",
                    name=entity.name,
                    other="other",
                    mentions=entity.mentions,
                    reason=f"{entity.name!r} is a month, a day or a document, not a person",
                    evidence=evidence(entity),
                )
            )
    return suggested
