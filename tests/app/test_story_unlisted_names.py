"""Names the lists loci reads do not hold: a given name the census lacks ("Priya", "Dmitri"),
written only where a sentence opens, and ranks nameparser does not know ("Ensign")."""

from __future__ import annotations

from loci.app import App
from loci.toolsets.story import names
from loci.toolsets.story.lookup import character
from tests.storytext import told

CREW = [
    "Priya Nair was twenty-three and the youngest officer aboard the Perihelion.",
    '"What is she doing?" Priya asked. Ensign Nair leaned over the console.',
    "Dmitri Sokolov put down his spanner. Priya watched him from the doorway.",
    '"Dmitri," she said, "you will get us all killed." Chief Sokolov laughed.',
]


def test_a_rank_the_title_list_lacks_is_a_title() -> None:
    for rank in ("Ensign", "Constable", "Marshal", "Superintendent", "Midshipman"):
        parsed = names.parse(f"{rank} Nair")
        assert parsed.titles == {rank.lower()} and parsed.bare == {"nair"}, rank


def test_given_names_the_census_lacks_join_their_full_names(app: App) -> None:
    # A tester's "Priya" was a thing apart from "Priya Nair", itself read as "Nair" ("Priya"
    # never written in lower case nor inside a sentence, as a common word may be), and
    # "Ensign Nair" as two given names; "Dmitri" was apart from "Dmitri Sokolov".
    told(app, "ship", CREW)
    nair = character(app.story, "ship", "Priya")
    assert nair.kind == "character"
    assert {"Priya", "Priya Nair", "Ensign Nair"} <= set(nair.aliases)
    sokolov = character(app.story, "ship", "Dmitri")
    assert {"Dmitri", "Dmitri Sokolov", "Chief Sokolov"} <= set(sokolov.aliases)
