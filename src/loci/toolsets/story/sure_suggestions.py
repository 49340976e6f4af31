"""The suggestions loci accepts itself when it imports a manuscript into a new story: the
merges among those it lists first (`loci.toolsets.story.suggestions`), each of two names it
reads as one person's on evidence of the text ("Mary", a name four people carry, named with
the Rivers family in 43 sentences and with another carrier's in 5 at most).

A merge is the one kind of suggestion read this way: its evidence is the whole story, where
an alias's may be a few sentences ("Father", called out three times, is not the one father
named). A merge whose two entities look like two people (`correction_checks.two_people`),
which the writer would be warned of, is left a suggestion. Each merge made is a correction
`by` loci: listed with the writer's, undone as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loci.toolsets.story import abbreviated, correction_checks, lookup, store
from loci.toolsets.story.corrections import LOCI
from loci.toolsets.story.curation import accept
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.suggestions import suggest

if TYPE_CHECKING:
    from loci.toolsets.story.service import StoryService

#: The suggestions read for merges: as many as `story suggestions` lists first.
READ = 10


def accept_sure(service: StoryService, session_id: str) -> list[str]:
    """Accept the merges among the first suggestions for the cast of `session_id`, as
    corrections by loci, unless a correction was ever made to it (a cast the writer has
    corrected, or loci has, is the writer's); returns each made, in words, with the number
    `story undo` takes it back by ("#1: 'Mrs. Cass' merged into 'Nancy': ...")."""
    if _ever_corrected(service, session_id):
        return []
    merges = [s for s in suggest(service, session_id, READ).suggestions if s.action == "merge"]
    sure = [
        s
        for s in merges
        if not abbreviated.is_abbreviation(s.other) and not two_people(service, session_id, s)
    ]
    if not sure:
        return []
    done = accept(service, session_id, sure, by=LOCI)
    made = [s for s in sure if s.number not in done.refused]
    # The cast had no correction before: its corrections are these, one each, in order.
    numbers = _correction_numbers(service, session_id)
    return [
        f"#{n}: {s.other!r} merged into {s.name!r}: {s.reason}"
        for n, s in zip(numbers, made, strict=False)
    ]


def _ever_corrected(service: StoryService, session_id: str) -> bool:
    """Whether any correction was made to the cast of `session_id`, even one undone since."""
    with service.db.snapshot() as conn:
        found = store.session(conn, service.session_name(session_id))
        row = conn.execute(
            "SELECT corrections_made FROM story_sessions WHERE id = ?", (found.id,)
        ).fetchone()
    return row is not None and int(row[0]) > 0


def _correction_numbers(service: StoryService, session_id: str) -> list[int]:
    """The numbers of the corrections of the cast of `session_id` in force, in order."""
    with service.db.snapshot() as conn:
        found = store.session(conn, service.session_name(session_id))
        return [c.id for c in service.graph.corrections(conn, found.id) if c.id is not None]


def two_people(service: StoryService, session_id: str, merge: CastSuggestion) -> bool:
    """Whether the two entities of `merge` look like two people's (the writer merging them
    would be warned so)."""
    session = service.session_name(session_id)
    with service.db.snapshot() as conn:
        found = store.session(conn, session)
        entities = service.graph.entities(conn, found.id)
        kept, merged = lookup.holder(entities, merge.name), lookup.holder(entities, merge.other)
        if kept is None or merged is None:
            return True  # not as listed: no merge to make
        cases = service.graph.word_cases(conn, found.id, [*kept.aliases, *merged.aliases])
    return correction_checks.two_people(kept, merged, cases) is not None
