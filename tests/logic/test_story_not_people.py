"""Names in the cast that are no one's: a month, a day, a feast or a document that does not
act as a person."""

from __future__ import annotations

from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.kinds import Votes
from loci.toolsets.story.not_people import not_people_suggestions


def _character(number: int, name: str, mentions: int) -> Entity:
    return Entity(number, name, "character", mentions, Seen(0, ""), [], [name], [number])


def test_a_month_a_feast_or_a_document_that_never_acts_is_suggested_as_no_one() -> None:
    characters = [
        _character(1, "Michaelmas", 3),
        _character(2, "Journal", 6),
        _character(3, "May", 20),  # May Chester speaks
        _character(4, "Nell", 12),
    ]
    company = Company()
    company.votes[3] = Votes(mentions=20, said=6)
    found = [(s.name, s.action, s.other) for s in not_people_suggestions(characters, company)]
    assert found == [("Michaelmas", "kind", "other"), ("Journal", "kind", "other")]
