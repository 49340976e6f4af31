"""A title and a family name ("Mr. Craven") suggested as the one full name the story writes
with the same title and family name ("Mr. Archibald Craven"), where the cast keeps them apart
because the family has others (a son, a cousin who is a doctor)."""

from __future__ import annotations

from loci.app import App
from loci.toolsets.story.curation import correct
from loci.toolsets.story.lookup import character
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.offered import offered_once, one_entity_each
from loci.toolsets.story.suggestions import suggest
from loci.toolsets.story.titled_names import calling
from tests.app.test_story_suggestions import names_of
from tests.storytext import told

MANOR = [
    "Mr. Archibald Craven owned the manor on the moor, and he seldom came home.",
    "Colin Craven lay in his room, and Master Colin would see no one.",
    "Dr. Craven came up from the village. Dr. Craven looked at the boy and frowned.",
    "Mr. Craven walked in the rose garden alone. Mr. Craven said nothing to the gardener.",
    "Martha told the boy that Mester Craven was away, and she laughed at the rain.",
    "Mr. Craven wrote from Italy. Mr. Craven asked after the garden and the boy.",
]


def test_a_titled_family_name_is_suggested_for_the_one_full_name_written_with_the_title(
    app: App,
) -> None:
    told(app, "manor", MANOR * 3)
    held = names_of(app, "manor")
    assert not any({"Mr. Craven", "Mr. Archibald Craven"} <= aliases for aliases in held)
    found = suggest(app.story, "manor").suggestions
    # Named either way round (a merge is named after the name written far more often).
    titled = {
        frozenset({s.name, s.other}): s for s in found if "by title and family name" in s.reason
    }
    assert not any("Dr. Craven" in pair for pair in titled)  # a doctor
    mr = titled[frozenset({"Mr. Craven", "Mr. Archibald Craven"})]
    # Offered once, to one entity ("Mr. Craven", whom the suggestion above gives Archibald).
    mester = [s.name for s in found if s.other == "Mester Craven"]
    assert len(mester) == 1 and mester[0] in ("Mr. Craven", "Mr. Archibald Craven")
    assert (mr.action, mr.name) == ("merge", "Mr. Craven")  # written four times as often
    assert mr.mentions == character(app.story, "manor", "Mr. Craven").mentions
    assert "Mr. Craven" in mr.evidence
    merged = correct(app.story, "manor", mr.action, mr.name, mr.other)
    assert {"Mr. Craven", "Mr. Archibald Craven"} <= set(merged.aliases)


def test_no_titled_family_name_is_suggested_where_two_full_names_carry_the_title(
    app: App,
) -> None:
    story = [*MANOR, "Mr. Henry Craven, his brother, rode over from the coast."]
    told(app, "brothers", story * 3)
    found = suggest(app.story, "brothers").suggestions
    assert not any("by title and family name" in s.reason for s in found)


def test_a_titled_family_name_goes_to_the_full_name_written_with_it_far_more_often(
    app: App,
) -> None:
    # Great Expectations: "Mr. Pocket" (52 times) is Matthew, written "Mr. Matthew Pocket"
    # six times; his son Herbert is "Mr. Herbert Pocket" once.
    nephew = "Mr. Henry Craven, his nephew, rode over from the coast."
    told(app, "nephew", [*MANOR, *MANOR[:1] * 8, nephew, nephew], times=1)
    found = suggest(app.story, "nephew").suggestions
    titled = [s for s in found if "by title and family name" in s.reason]
    assert [frozenset({s.name, s.other}) for s in titled] == [
        frozenset({"Mr. Craven", "Mr. Archibald Craven"})
    ]
    assert "9 times, another's far less ('Mr. Henry Craven' 2)" in titled[0].reason
    # Written three times as often, not four: no one.
    told(app, "even", [*MANOR, *MANOR[:1] * 5, nephew, nephew], times=1)
    found = suggest(app.story, "even").suggestions
    assert not any("by title and family name" in s.reason for s in found)


def test_two_people_named_in_one_sentence_are_not_suggested_as_one(app: App) -> None:
    story = [*MANOR, "Mr. Craven shook hands with Mr. Archibald Craven at the gate."]
    told(app, "met", story * 3)
    found = suggest(app.story, "met").suggestions
    assert not any(s.other == "Mr. Craven" and "by title" in s.reason for s in found)


def test_a_correction_two_kinds_of_evidence_propose_is_offered_once() -> None:
    def proposed(reason: str) -> CastSuggestion:
        return CastSuggestion(
            action="merge",
            name="Mr. Oliver Brand",
            other="Mr. Brand",
            mentions=3,
            reason=reason,
            evidence="",
        )

    other = proposed("keeps the same company").model_copy(update={"other": "Brand"})
    found = offered_once([proposed("keeps the same company"), other, proposed("by title")])
    assert [(s.other, s.reason) for s in found] == [
        ("Mr. Brand", "keeps the same company"),
        ("Brand", "keeps the same company"),
    ]
    # A merge either way round is one correction (Lady Susan: "Catherine" into "Mrs. Vernon",
    # by the letters, and "Mrs. Vernon" into "Catherine", by the family).
    turned = proposed("by letters").model_copy(
        update={"name": "Mr. Brand", "other": "Mr. Oliver Brand"}
    )
    assert [s.reason for s in offered_once([proposed("by title"), turned])] == ["by title"]


def test_a_name_is_offered_to_one_entity_only_the_first_found() -> None:
    # Sense and Sensibility: "Miss Dashwood" was offered to Elinor, who answers to it, and to
    # Marianne, whose company it keeps; accepting both merges the sisters.
    answered = CastSuggestion(
        action="merge", name="Elinor", other="Miss Dashwood", mentions=70, reason="", evidence=""
    )
    company = answered.model_copy(update={"name": "Marianne"})
    alias = answered.model_copy(update={"action": "alias", "name": "Marianne"})
    assert one_entity_each([answered, company, alias]) == [answered, alias]


def test_a_merge_is_named_after_the_name_written_far_more_often() -> None:
    # Persuasion: accepting "merge 'Miss Hamilton' 'Mrs Smith'" showed Mrs Smith (64
    # mentions) as "Miss Hamilton" (4); so James Benwick (5) for Captain Benwick (69).
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.offered import shown_first

    def entity(number: int, name: str, mentions: int) -> Entity:
        return Entity(number, name, "character", mentions, Seen(0, ""), [], [name])

    people = [entity(1, "Miss Hamilton", 4), entity(2, "Mrs Smith", 64)]
    people += [entity(3, "Fagin", 90), entity(4, "Jew", 400), entity(5, "Mama", 80)]
    people.append(entity(6, "Mrs. Hale", 10))

    def merge(name: str, other: str) -> tuple[str, str]:
        offer = CastSuggestion(
            action="merge", name=name, other=other, mentions=9, reason="", evidence=""
        )
        found = shown_first(offer, people, "Fagin laughed. The Jew said so. " * 3)
        return found.name, found.other

    assert merge("Miss Hamilton", "Mrs Smith") == ("Mrs Smith", "Miss Hamilton")
    assert merge("Fagin", "Jew") == ("Fagin", "Jew")  # an epithet: "the Jew"
    assert merge("Mrs. Hale", "Mama") == ("Mrs. Hale", "Mama")  # a child's word


def test_callings_read_a_title_as_what_it_calls_someone() -> None:
    assert calling("mester") == calling("mister") == calling("mr") == "mr"
    assert calling("capt") == "captain" and calling("doctor") == "dr"
    assert calling("mrs") == "mrs"
