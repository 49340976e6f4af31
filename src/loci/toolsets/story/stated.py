"""Names a careful reader takes for one person's, taken so by an import's end: two names the
story says outright are one ("Abel Magwitch, otherwise Provis", "They called him King-Post",
"our ship's cook, Barbecue, as the men called him", "Mrs. Weston (poor Miss Taylor that was)":
`called`), a name called out in dialogue that one character answers time and again ("Quohog",
answered by Queequeg: `answered`), a married name the story calls one woman's ("his wife
Lettie": `wives`), and a married name alone whose family the story names one woman of, beside
a man of it ("Mrs. Wilson" and Myrtle Wilson: `family_wife`), as their suggestions offer
them. Each pair is kept with the story's
meetings of names, and the cast joins the two people once it has worked them out from their
names (`resolution`), unless the writer splits one off or keeps it apart; a name the cast did
not hold ("Old Thunder", which NER missed) is made the story's first and counted in its text.
A name two readings give to two characters is left to the writer. A married name the cast
only guesses from company (`kinship`) stays a suggestion, as do all of them in a story written
a piece at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from loci.storage.databases.db import Connection
from loci.toolsets.story import names, store
from loci.toolsets.story.answered import answered_suggestions
from loci.toolsets.story.called import called_suggestions
from loci.toolsets.story.company import Company
from loci.toolsets.story.family_wife import family_wife_suggestions
from loci.toolsets.story.graph import EntityGraph
from loci.toolsets.story.mentions import Extractor
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.rereading import reread
from loci.toolsets.story.suggestions import people_of
from loci.toolsets.story.wives import stated_wife_suggestions


def read_stated(
    conn: Connection, graph: EntityGraph, extractor: Extractor, found: store.Session, text: str
) -> int:
    """Keep each pair of names a careful reader takes for one person's (the readings above),
    making a name of a pair the story's if the cast did not hold it (`text`: the story as
    rendered without prompts); returns how many mentions of such new names were found."""
    entities = graph.entities(conn, found.id)
    confirm = found.settings.confirm_after
    characters = [e for e in entities if e.kind == "character" and e.confirmed(confirm)]
    company = Company.read(conn, found.id, entities)
    people = people_of(characters, company)
    stated = sure_pairs(
        [
            *called_suggestions(
                text,
                entities,
                characters,
                lambda entity: people[entity.id].sex,
                lambda a, b: company.met_in_sentences(a.id, b.id),
            ),
            *answered_suggestions(text, entities, characters),
            *stated_wife_suggestions(text, characters, people, company),
            *family_wife_suggestions(entities, characters, people, company, text),
        ]
    )
    new = [said.other for said in stated if said.action == "alias"]
    counted = 0
    if new:
        graph.add_names(conn, found.id, new)
        counted = reread(conn, graph, extractor, found, new)
    graph.state(conn, found.id, [(said.name, said.other) for said in stated])
    return counted


def sure_pairs(stated: Sequence[CastSuggestion]) -> list[CastSuggestion]:
    """The readings of `stated` that give a name to one character only: a name two readings
    give to two characters ("Miss Dashwood", answered by Elinor, said of Marianne) is left
    to the writer."""
    hosts: dict[str, set[str]] = {}
    for said in stated:
        hosts.setdefault(names.key(said.other), set()).add(names.key(said.name))
    return [said for said in stated if len(hosts[names.key(said.other)]) == 1]
