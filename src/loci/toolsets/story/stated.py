"""Names the story says outright are one person's, taken by an import's end as a careful
reader takes them: "Abel Magwitch, otherwise Provis", "They called him King-Post", "our
ship's cook, Barbecue, as the men called him", "Mrs. Weston (poor Miss Taylor that was)" (the
readings of `called`, as its suggestions offer them). Each pair is kept with the story's
meetings of names, and the cast joins the two people once it has worked them out from their
names (`resolution`), unless the writer splits one off or keeps it apart; a name the cast did
not hold ("Old Thunder", which NER missed) is made the story's first and counted in its text.
A story written a piece at a time is offered the same names as suggestions.
"""

from __future__ import annotations

from loci.storage.databases.db import Connection
from loci.toolsets.story import store
from loci.toolsets.story.called import called_suggestions
from loci.toolsets.story.company import Company
from loci.toolsets.story.graph import EntityGraph
from loci.toolsets.story.mentions import Extractor
from loci.toolsets.story.rereading import reread
from loci.toolsets.story.suggestions import people_of


def read_stated(
    conn: Connection, graph: EntityGraph, extractor: Extractor, found: store.Session
) -> int:
    """Keep each pair of names the story says are one person's, making a name of the pair
    the story's if the cast did not hold it; returns how many mentions of such new names were
    found."""
    entities = graph.entities(conn, found.id)
    confirm = found.settings.confirm_after
    characters = [e for e in entities if e.kind == "character" and e.confirmed(confirm)]
    company = Company.read(conn, found.id, entities)
    people = people_of(characters, company)
    stated = called_suggestions(
        store.rendered(conn, found.id, prompts="omit"),
        entities,
        characters,
        lambda entity: people[entity.id].sex,
        lambda a, b: company.met_in_sentences(a.id, b.id),
    )
    new = [said.other for said in stated if said.action == "alias"]
    counted = 0
    if new:
        graph.add_names(conn, found.id, new)
        counted = reread(conn, graph, extractor, found, new)
    graph.state(conn, found.id, [(said.name, said.other) for said in stated])
    return counted
