"""A name two people carry, read as a reader does: the one of them named last before it."""

from __future__ import annotations

from collections import Counter

from loci.toolsets.story.company import Company
from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.named_last import named_last
from loci.toolsets.story.suggestions import same_person_suggestions

#: Tom Sawyer's two Joes, the bare name mostly the boy's: Joe Harper is named last before
#: three of the four "Joe"s, Injun Joe before one (a "Joe" inside "Injun Joe" is his name).
STORY = (
    "Tom met Joe Harper at the school. Joe took out a pin. Tom and Joe played with the tick.\n\n"
    "That night Injun Joe came to the graveyard. Injun Joe said nothing. \u201cLord, Joe!\u201d "
    "said Potter.\n\nNext day Joe Harper ran to the river. Joe swam across, and Tom cheered."
)


def _entity(number: int, aliases: list[str], mentions: int) -> Entity:
    return Entity(number, aliases[0], "character", mentions, Seen(0, ""), [], aliases, [number])


def test_each_bare_name_counts_for_the_carrier_named_last_before_it() -> None:
    found = named_last(STORY, "Joe", {1: ["Joe Harper"], 2: ["Injun Joe"]})
    assert dict(found.counts) == {1: 3, 2: 1}
    start, end = found.closest[1]
    assert STORY[start:end] == "Joe Harper at the school. Joe"


def test_a_bare_name_is_suggested_for_the_carrier_named_last_before_it_far_more_often() -> None:
    characters = [
        _entity(1, ["Joe Harper"], 19),
        _entity(2, ["Injun Joe"], 65),
        _entity(3, ["Joe"], 84),
        _entity(4, ["Tom"], 800),
    ]
    many = (STORY + "\n\n") * 2  # six after Joe Harper, two after Injun Joe
    suggested = same_person_suggestions(characters, Company(), many)
    assert [(s.name, s.other) for s in suggested] == [("Joe Harper", "Joe")]
    assert "6 after 'Joe Harper'" in suggested[0].reason
    assert "2 after 'Injun Joe'" in suggested[0].reason
    assert suggested[0].evidence == "Tom met Joe Harper at the school. Joe took out a pin."


def test_no_carrier_is_suggested_when_neither_is_named_last_far_more_often() -> None:
    characters = [
        _entity(1, ["Joe Harper"], 19),
        _entity(2, ["Injun Joe"], 65),
        _entity(3, ["Joe"], 84),
    ]
    even = (
        "Joe Harper came. Joe sat. Injun Joe came. Joe sat. Joe Harper ran. Joe swam. "
        "Injun Joe hid. Joe waited. Joe Harper sang. Joe laughed. Injun Joe fled. Joe slept."
    )
    assert same_person_suggestions(characters, Company(), even) == []
    assert same_person_suggestions(characters, Company(), STORY) == []  # too few to say


def test_the_hero_named_everywhere_is_no_carrier_for_being_named_last() -> None:
    # The Secret Garden: "Mester Craven" (the father) comes after "Colin" five times, and
    # once after the father's own name; but Colin is named on every page.
    colin = _entity(1, ["Colin", "Colin Craven"], 332)
    father = _entity(2, ["Mr. Archibald Craven"], 10)
    story = "Colin woke. Mester Craven came. " * 5 + "Mr. Archibald Craven rode. Mester Craven."
    suggested = same_person_suggestions([colin, father, _entity(3, ["Mester Craven"], 7)],
                                        Company(), story)  # fmt: skip
    assert suggested == []


def test_a_lords_pet_name_is_suggested_by_who_is_named_last_before_it() -> None:
    # The Picture of Dorian Gray: his friends call Lord Henry "Harry"; a pet form never joins
    # a lord by itself (Kitty is not Lady Catherine), but a writer may be offered it.
    lord = _entity(1, ["Lord Henry", "Henry Wotton"], 6)
    knight = _entity(2, ["Sir Henry Ashton"], 1)
    harry = _entity(3, ["Harry"], 9)
    scene = "Lord Henry smiled. \u201cHarry, you are wicked,\u201d said Basil. Harry laughed. "
    story = scene * 4 + "Sir Henry Ashton left. Harry shrugged."
    suggested = same_person_suggestions([lord, knight, harry], Company(), story)
    assert [(s.name, s.other) for s in suggested] == [("Lord Henry", "Harry")]
    assert "8 after 'Lord Henry'" in suggested[0].reason


def test_a_doctor_and_a_mister_of_one_name_are_not_suggested_as_one() -> None:
    # The Secret Garden: Dr. Craven is Mr. Craven's cousin, and keeps his company.
    doctor = _entity(1, ["Dr. Craven"], 48)
    mister = _entity(2, ["Mr. Archibald Craven", "Archibald Craven"], 10)
    company = Company()
    company.paragraph = {1: Counter({3: 9}), 2: Counter({3: 9}), 3: Counter({1: 9, 2: 9})}
    colin = _entity(3, ["Colin"], 300)
    assert same_person_suggestions([doctor, mister, colin], company, "") == []


def test_a_bare_name_pages_from_every_carrier_is_no_ones_and_many_such_suggest_nothing() -> None:
    # Treasure Island: the seaman "Tom" whom Silver kills, chapters after Tom Redruth was
    # named, is someone else; half the "Tom"s so far off leave "Tom" to no one.
    page = "The sea was grey and the wind was cold. " * 80  # far beyond a page
    near = "Tom Redruth loaded the guns. Tom fired. Tom swore."
    far = f"{page}Where'd I be, Tom? Tom stood. Tom fell."
    found = named_last(near + far, "Tom", {1: ["Tom Redruth"], 2: ["Tom Morgan"]})
    assert dict(found.counts) == {1: 2} and found.away == 3
    characters = [
        _entity(1, ["Tom Redruth"], 20),
        _entity(2, ["Tom Morgan"], 20),
        _entity(3, ["Tom"], 30),
    ]
    close = "\n\n".join([near] * 5)
    suggested = same_person_suggestions(characters, Company(), close)
    assert [(s.name, s.other) for s in suggested] == [("Tom Redruth", "Tom")]
    assert same_person_suggestions(characters, Company(), close + "\n\n" + far * 4) == []


def test_a_title_and_a_family_name_far_from_its_carriers_is_still_one_of_the_family() -> None:
    # Jane Eyre: "Miss Ingram" (58 times) is Blanche's: named after "Blanche" 18 times, after
    # "Mary Ingram" twice, and 38 times chapters away from either, where the narrator calls
    # her so. A title and a family name is one of the family, wherever it stands.
    page = "The rain beat on the windows of Thornfield. " * 80
    near = "Blanche Ingram sang. Miss Ingram laughed. Mary Ingram sat. Miss Ingram rose."
    far = f"{page}Miss Ingram swept past. Miss Ingram smiled."
    characters = [
        _entity(1, ["Blanche", "Blanche Ingram"], 23),
        _entity(2, ["Mary Ingram"], 5),
        _entity(3, ["Miss Ingram"], 58),
    ]
    story = "\n\n".join([near] * 3 + [far] * 5)
    found = named_last(story, "Miss Ingram", {1: ["Blanche", "Blanche Ingram"], 2: ["Mary Ingram"]})
    assert (found.counts[1], found.counts[2], found.away) == (3, 3, 10)
    story = "\n\n".join([near.replace("Mary Ingram sat", "Blanche sat")] * 3 + [far] * 5)
    suggested = same_person_suggestions(characters, Company(), story)
    assert [(s.name, s.other) for s in suggested] == [("Blanche", "Miss Ingram")]
    assert "10 far from any of them" in suggested[0].reason


def test_evidence_cut_by_its_window_ends_at_a_word_with_an_ellipsis() -> None:
    # Lady Susan: the evidence of "Charles" ended "... the delicacy of those feelings which
    # could not endu", a sentence the window cut.
    from loci.toolsets.story.named_last import EVIDENCE_REACH, evidence_between

    words = " ".join(["endure"] * EVIDENCE_REACH)
    text = f"Mr. Vernon came. I did not let Charles buy it, for {words} at last."
    at = text.index("Charles")
    said = evidence_between(text, (text.index("Mr. Vernon"), at + len("Charles")))
    assert said.endswith("endure\u2026") and said.startswith("Mr. Vernon came.")
    whole = "Mr. Vernon came. I did not let Charles buy it."
    assert evidence_between(whole, (0, whole.index("Charles") + 7)) == whole
