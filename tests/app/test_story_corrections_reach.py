"""A correction reaches the whole manuscript: an alias counts the mentions of the text already
stored, not only of text written after it; every correction can be taken back."""

from __future__ import annotations

import re

import pytest

from loci.app import App
from loci.errors import ConflictError, InvalidInputError, NotFoundError
from loci.toolsets.story.curation import correct, kind_in_words, listing, undo
from loci.toolsets.story.lookup import character, entities_of
from tests.storytext import told

EARLY = [
    "Captain Hawkes stood at the rail of the Gull. Captain Hawkes said nothing.",
    "The Skipper watched the storm come in over the bar, and Nell Quarry brought him tea.",
    "Nell Quarry laughed at the Skipper's hat. The Skipper did not laugh.",
    "At dawn the Skipper sent the boy aloft. Captain Hawkes was pleased with the boy.",
]
LATER = "The Skipper rang the bell twice. Captain Hawkes went below."


@pytest.fixture
def voyage(app: App) -> App:
    for number, text in enumerate(EARLY * 3):
        app.story.continue_story("voyage", "", f"{text} ({number})")
    return app


def test_an_alias_counts_the_text_already_stored(voyage: App) -> None:
    before = character(voyage.story, "voyage", "Captain Hawkes")
    assert "the Skipper" not in before.aliases
    assert "Nell Quarry" not in [r.name for r in before.relationships]
    after = correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Skipper")
    # "the Skipper" is written 4 times in the four paragraphs, which went in three times.
    assert after.mentions == before.mentions + 12
    assert after.name == "Captain Hawkes"  # a proper name is shown before an epithet
    assert after.first_mention.position == before.first_mention.position
    met = character(voyage.story, "voyage", "Captain Hawkes").relationships
    assert "Nell Quarry" in [r.name for r in met]  # met only as the Skipper
    # The cast's list says whom each appears with, as one character's card does.
    listed = {e.name: e.relationships for e in entities_of(voyage.story, "voyage")}
    assert listed["Captain Hawkes"] == met
    voyage.story.continue_story("voyage", "", LATER)
    later = character(voyage.story, "voyage", "Captain Hawkes")
    assert later.mentions == after.mentions + 2  # and the text written since


def test_a_title_alone_added_as_a_name_is_not_the_name_shown(app: App) -> None:
    # A tester added "Colonel" (said alone far more often) to "Colonel Pembury": the
    # character was then shown as "Colonel".
    story = [
        "Colonel Pembury sat by the stove with his dog.",
        '"Nonsense, Colonel," said Greaves. "Sit down, Colonel."',
        '"Thank you, Colonel," said Nell Quarry, and Greaves laughed.',
    ]
    for number, text in enumerate(story * 3):
        app.story.continue_story("villa", "", f"{text} ({number})")
    after = correct(app.story, "villa", "alias", "Colonel Pembury", "Colonel")
    assert after.mentions >= 12 and "Colonel" in after.aliases
    assert after.name == "Colonel Pembury"


def test_an_alias_reaches_a_mention_before_every_other(app: App) -> None:
    app.story.continue_story("v", "", "The Skipper slept late on the first morning.")
    for text in EARLY[:1] * 3:
        app.story.continue_story("v", "", text)
    before = character(app.story, "v", "Captain Hawkes")
    after = correct(app.story, "v", "alias", "Captain Hawkes", "the Skipper")
    assert after.first_mention.position < before.first_mention.position
    assert "The Skipper slept late" in after.first_mention.excerpt


def test_a_correction_is_taken_back_with_what_it_brought(voyage: App) -> None:
    before = character(voyage.story, "voyage", "Captain Hawkes")
    correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Skipper")
    correct(voyage.story, "voyage", "kind", "Nell Quarry", "place")
    assert [c.split(":")[0] for c in listing(voyage.story, "voyage")] == ["#1", "#2"]
    first = undo(voyage.story, "voyage", 1)  # a named one, not the last
    assert "'the Skipper' added as a name of" in first.undone
    assert len(first.corrections) == 1 and "marked as place" in first.corrections[0]
    back = character(voyage.story, "voyage", "Captain Hawkes")
    assert back.mentions == before.mentions and "the Skipper" not in back.aliases
    assert character(voyage.story, "voyage", "Nell Quarry").kind == "place"
    last = undo(voyage.story, "voyage")
    assert "marked as place" in last.undone and last.corrections == []
    assert character(voyage.story, "voyage", "Nell Quarry").kind == "character"
    with pytest.raises(NotFoundError, match="no correction to undo"):
        undo(voyage.story, "voyage")
    with pytest.raises(NotFoundError, match="no correction #7 in this story"):
        undo(voyage.story, "voyage", 7)
    with pytest.raises(NotFoundError, match="correction #1 was undone already"):
        undo(voyage.story, "voyage", 1)


def test_a_longer_name_added_takes_the_mentions_it_holds_and_gives_them_back(app: App) -> None:
    # A tester added "Young Dunmore" to Edward: "Dunmore" still counted the mention inside it.
    story = [
        "Gerald Dunmore and Edward Dunmore came up from the harbour. Edward laughed.",
        '"Young Dunmore went out twice," said Greaves to Edward Dunmore.',
        "No one was a Dunmore in that house but Gerald Dunmore and Edward.",
    ]
    for number, text in enumerate(story * 3):
        app.story.continue_story("villa", "", f"{text} ({number})")
    family, edward = (character(app.story, "villa", n) for n in ("Dunmore", "Edward"))
    after = correct(app.story, "villa", "alias", "Edward", "Young Dunmore")
    assert after.mentions == edward.mentions + 3
    held = character(app.story, "villa", "Dunmore")
    assert held.mentions == family.mentions - 3  # each mention counted once: the longest name
    assert all("Young Dunmore" not in m.excerpt for m in held.recent_mentions)
    assert "Young Dunmore" not in held.first_mention.excerpt
    undo(app.story, "villa")
    back = character(app.story, "villa", "Dunmore")
    assert back.mentions == family.mentions and back.relationships == family.relationships
    assert character(app.story, "villa", "Edward").mentions == edward.mentions


def test_a_correction_a_later_one_builds_on_is_not_undone_alone(voyage: App) -> None:
    correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Skipper")
    correct(voyage.story, "voyage", "split", "Captain Hawkes", "the Skipper")
    correct(voyage.story, "voyage", "kind", "the Skipper", "other")
    before = listing(voyage.story, "voyage")
    # Undoing the split alone would mark Captain Hawkes himself "other".
    with pytest.raises(ConflictError, match=r"#2 cannot be undone alone.*Undo #3 first") as err:
        undo(voyage.story, "voyage", 2)
    assert err.value.details["later"] == [3]
    assert "marked as other by the writer (interaction 12) names 'the Skipper'." in str(err.value)
    assert listing(voyage.story, "voyage") == before  # nothing changed
    assert character(voyage.story, "voyage", "Captain Hawkes").kind == "character"
    undo(voyage.story, "voyage", 3)
    undo(voyage.story, "voyage", 2)
    assert character(voyage.story, "voyage", "Captain Hawkes").kind == "character"
    assert "the Skipper" in character(voyage.story, "voyage", "Captain Hawkes").aliases


def test_a_kind_is_undone_alone_unless_it_added_the_name_a_later_one_names(voyage: App) -> None:
    # A kind moves no name: a newcomer could not undo one once a later correction named it.
    correct(voyage.story, "voyage", "kind", "Captain Hawkes", "place")
    correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Skipper")
    first = undo(voyage.story, "voyage", 1)
    assert "marked as place" in first.undone
    after = character(voyage.story, "voyage", "Captain Hawkes")
    assert after.kind == "character" and "the Skipper" in after.aliases
    # One that brought its name to the story is still relied on.
    voyage.story.continue_story("voyage", "", "Harriet waved from the quay.")
    correct(voyage.story, "voyage", "kind", "Harriet", "character")
    correct(voyage.story, "voyage", "merge", "Nell Quarry", "Harriet")
    with pytest.raises(ConflictError, match=r"#3 cannot be undone alone.*Undo #4 first"):
        undo(voyage.story, "voyage", 3)  # numbers are never given twice: #1 stays gone


def test_an_alias_is_undone_alone_when_later_ones_name_only_the_name_it_was_added_to(
    voyage: App,
) -> None:
    # A tester could not undo "the Queen" added to "Queen of the Marsh" after merging another
    # name into "Queen of the Marsh", a name the story writes itself.
    correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Skipper")
    correct(voyage.story, "voyage", "kind", "Captain Hawkes", "character")
    first = undo(voyage.story, "voyage", 1)
    assert "'the Skipper' added as a name of" in first.undone
    assert "the Skipper" not in character(voyage.story, "voyage", "Captain Hawkes").aliases
    # A later one naming the alias itself still holds it back.
    correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Skipper")
    correct(voyage.story, "voyage", "split", "Captain Hawkes", "the Skipper")
    with pytest.raises(ConflictError, match="names 'the Skipper'"):
        undo(voyage.story, "voyage", 3)


def test_a_kind_given_by_one_of_several_names_warns_it_is_the_whole_entitys(
    voyage: App,
) -> None:
    # A tester marked "Graham Petty Cc", a stray name of Graham Petty, "other", and Graham
    # Petty became other without a word.
    correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Skipper")
    marked = correct(voyage.story, "voyage", "kind", "the Skipper", "other")
    assert marked.kind == "other" and marked.warning is not None
    assert "'the Skipper' is one of the names of 'Captain Hawkes'" in marked.warning
    plain = correct(voyage.story, "voyage", "kind", "Captain Hawkes", "character")
    assert plain.warning is None
    # A newcomer marked Dr. Sloper a character, which he was: told so, not kept silent.
    undo(voyage.story, "voyage")
    undo(voyage.story, "voyage")
    same = correct(voyage.story, "voyage", "kind", "Captain Hawkes", "character")
    assert same.warning == "'Captain Hawkes' was a character already: it stays so"
    # Wuthering Heights: a newcomer read "'Fanny' was a other already".
    assert kind_in_words("other") == "other (not a character)"
    assert kind_in_words("place") == "a place"
    # A tester marked a place a place twice: the second, changing nothing, held back undoing
    # the first.
    with pytest.raises(InvalidInputError, match="'Captain Hawkes' is marked character already"):
        correct(voyage.story, "voyage", "kind", "the Skipper", "character")


def test_a_blank_name_is_refused_as_blank_and_a_kind_is_read_in_any_case(voyage: App) -> None:
    # A tester renaming to "   " was told the name "must be 1-128 characters", and "Other"
    # was refused as no kind.
    with pytest.raises(InvalidInputError, match="other must not be blank, got '   '"):
        correct(voyage.story, "voyage", "rename", "Captain Hawkes", "   ")
    assert listing(voyage.story, "voyage") == []
    marked = correct(voyage.story, "voyage", "kind", "Nell Quarry", "Other")
    assert marked.kind == "other"
    with pytest.raises(InvalidInputError, match="kind must be one of"):
        correct(voyage.story, "voyage", "kind", "Nell Quarry", "Person")


def test_an_alias_the_story_never_writes_is_refused_and_nothing_is_kept(voyage: App) -> None:
    with pytest.raises(NotFoundError, match="never writes 'the Admiral'"):
        correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Admiral")
    assert listing(voyage.story, "voyage") == []
    assert "the Admiral" not in character(voyage.story, "voyage", "Captain Hawkes").aliases


def test_a_split_takes_one_name_off_and_leaves_the_rest_together(app: App) -> None:
    story = [
        "At dawn John Brand rode north, and the dogs ran after John Brand.",
        "The road was long, said John, and Mr. Brand laughed at him.",
        "By noon John stopped, and John Brand watered the horses.",
    ]
    for number, text in enumerate(story * 3):
        app.story.continue_story("ride", "", f"{text} ({number})")
    entity = character(app.story, "ride", "John Brand")
    assert {"John", "Mr. Brand"} <= set(entity.aliases)
    # "John Brand" is what joins "John" and "Mr. Brand": split off, the two stay one.
    split = correct(app.story, "ride", "split", "John", "John Brand")
    assert split.aliases == ["John Brand"]
    after = character(app.story, "ride", "Mr. Brand")
    assert {"John", "Mr. Brand"} <= set(after.aliases) and "John Brand" not in after.aliases


def test_a_name_written_with_a_curly_apostrophe_may_be_typed_with_a_straight_one(
    app: App,
) -> None:
    # A newcomer could not split "Miss Bartlett\u2019s Boiler" (a chapter's title, since read
    # as Miss Bartlett's) off Charlotte: the keyboard's apostrophe is not the book's.
    story = [
        "Major O\u2019Dowd was at the window, and Charlotte Bartlett read to him.",
        "Charlotte Bartlett smiled, and Major O\u2019Dowd went on.",
    ]
    for number, text in enumerate(story * 3):
        app.story.continue_story("room", "", f"{text} ({number})")
    merged = correct(app.story, "room", "merge", "Charlotte Bartlett", "Major O'Dowd")
    assert "Major O\u2019Dowd" in merged.aliases
    split = correct(app.story, "room", "split", "Charlotte Bartlett", "Major O'Dowd")
    assert "Major O\u2019Dowd" in split.aliases
    kind = correct(app.story, "room", "kind", "Major O'Dowd", "other")
    assert kind.kind == "other" and kind.name == "Major O\u2019Dowd"


def test_a_split_takes_the_names_that_are_forms_of_the_name_split_off(app: App) -> None:
    # Persuasion: splitting "Richard" off "Mr Musgrove" moved "Richard" alone; "Dick" and
    # "Dick Musgrove" stayed, and took two more splits and two merges.
    story = [
        "Mr. Musgrove sat by the fire, and Charles Musgrove read aloud to him.",
        "Richard went to sea at last. Dick wrote home once, and Dick Musgrove was lost.",
    ]
    told(app, "hall", story * 3)
    correct(app.story, "hall", "merge", "Mr. Musgrove", "Charles Musgrove")
    correct(app.story, "hall", "merge", "Mr. Musgrove", "Dick")
    joined = character(app.story, "hall", "Mr. Musgrove")  # one entity, as the tester had it
    assert {"Richard", "Dick", "Dick Musgrove", "Charles Musgrove"} <= set(joined.aliases)
    split = correct(app.story, "hall", "split", "Mr. Musgrove", "Richard")
    assert set(split.aliases) - set(split.derived_aliases) == {"Richard", "Dick", "Dick Musgrove"}
    kept = character(app.story, "hall", "Mr. Musgrove")
    assert "Charles Musgrove" in kept.aliases and "Dick" not in kept.aliases
    assert "with 'Dick', 'Dick Musgrove'" in listing(app.story, "hall")[-1]
    undo(app.story, "hall")
    assert "Dick" in character(app.story, "hall", "Mr. Musgrove").aliases


def test_a_split_says_which_full_names_of_the_name_split_off_stayed(app: App) -> None:
    # Silas Marner (a tester's book): splitting "Solomon" (the brother) off "Mr. Macey" left
    # "Solomon Macey" with Mr. Macey without a word; it read as a split that failed.
    story = [
        "Mr. Macey sat in the corner, and Mr. Macey spoke of the old days.",
        "Solomon played the fiddle, and Solomon Macey bowed to the company.",
    ]
    told(app, "inn", story * 3)
    if "Solomon" not in character(app.story, "inn", "Mr. Macey").aliases:
        correct(app.story, "inn", "merge", "Mr. Macey", "Solomon")
    assert {"Solomon", "Solomon Macey"} <= set(character(app.story, "inn", "Mr. Macey").aliases)
    split = correct(app.story, "inn", "split", "Mr. Macey", "Solomon")
    assert split.warning is not None
    assert "'Solomon Macey' stayed with 'Mr. Macey'" in split.warning
    assert "if it is 'Solomon''s, split it off too" in split.warning
    # Nor when the names left go by that given name themselves (Kidnapped: "James More"
    # split off "James", "James Stewart" stays with "James").
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.split_names import left_behind

    written = ["James", "James Stewart", "James More"]
    james = Entity(1, "James", "character", 43, Seen(0, ""), [], written)
    assert left_behind(james, "James", "James More", ()) is None
    # Nor of the name split from itself (a tester's "'Marie Bashkirtseff' stayed with 'Marie
    # Bashkirtseff'", when "Marion", a pupil, was split off her).
    marie = Entity(
        2, "Marie Bashkirtseff", "character", 3, Seen(0, ""), [], ["Marie Bashkirtseff", "Marion"]
    )
    assert left_behind(marie, "Marie Bashkirtseff", "Marion", ()) is None
    # A split whose forms all went along says nothing of it.
    undo(app.story, "inn")
    clean = correct(app.story, "inn", "split", "Mr. Macey", "Solomon Macey")
    assert "Solomon" in clean.aliases and (clean.warning is None or "stayed" not in clean.warning)


def test_names_the_writer_kept_apart_are_never_joined_by_a_later_reading(app: App) -> None:
    # A tester kept "Robert" apart from Lucy; the cast, worked out again after a split,
    # joined them all the same. Here a full name written later would join both.
    told(
        app,
        "ride",
        [
            "At dawn John rode north, and the dogs ran after John.",
            "The road was long, said Mr. Brand, and the horses slowed.",
        ],
    )
    assert character(app.story, "ride", "John").name != "Mr. Brand"
    correct(app.story, "ride", "apart", "Mr. Brand", "John")
    told(app, "ride", ["By noon John Brand stopped, and John Brand watered the horses."])
    john = character(app.story, "ride", "John")
    assert "Mr. Brand" not in john.aliases and "John Brand" in john.aliases


def test_a_name_kept_apart_from_one_of_its_carriers_is_not_given_to_the_other(
    app: App,
) -> None:
    # Persuasion: "Charles" (Mary's husband, Charles Musgrove) is a name Charles Hayter carries
    # too, so the cast keeps it alone. A tester declined the suggestion that it is Charles
    # Musgrove's; the cast, worked out again, gave "Charles" to Charles Hayter.
    told(
        app,
        "uppercross",
        [
            "Charles Musgrove rode out with his gun, and Charles Musgrove came back late.",
            "Charles Hayter read in the parlour, and Charles Hayter did not look up.",
            '"We dine at five," said Charles, and Charles laughed at the rain.',
        ],
    )
    alone = character(app.story, "uppercross", "Charles")
    assert alone.aliases == ["Charles"]
    kept = correct(app.story, "uppercross", "apart", "Charles", "Charles Musgrove")
    assert kept.aliases == ["Charles"] and kept.warning is None
    assert "Charles" not in character(app.story, "uppercross", "Charles Hayter").aliases


def test_merging_two_people_is_done_with_a_warning(voyage: App) -> None:
    merged = correct(voyage.story, "voyage", "merge", "Captain Hawkes", "Nell Quarry")
    assert merged.warning is not None and "look like two people" in merged.warning
    undo(voyage.story, "voyage")
    # A tester merging "Rebecca Kerr" into "Rebecca" (Rebecca Ashworth) was told the names
    # "do not fit together": the family names are what differ.
    told(voyage, "voyage", ["Nell Dunmore laughed, and Nell Dunmore sang."], times=1)
    two = correct(voyage.story, "voyage", "merge", "Nell Quarry", "Nell Dunmore").warning
    assert two is not None and "two family names, Quarry and Dunmore, as a woman's maiden" in two
    # Of two men, no maiden and married names (a tester merging Magwitch into Provis).
    told(voyage, "voyage", ["Mr. Provis nodded, and Mr. Provis spoke."], times=1)
    told(voyage, "voyage", ["Mr. Magwitch wept, and Mr. Magwitch sat."], times=1)
    men = correct(voyage.story, "voyage", "merge", "Mr. Provis", "Mr. Magwitch").warning
    assert men is not None and "two family names, Provis and Magwitch)" in men
    assert "maiden" not in men
    # A tester's twins, "Lily" and "Lila", and a father and son merged without a word.
    told(voyage, "voyage", ['"Come here," said Lily.', '"No," said Lila, and she ran.'], times=2)
    twins = correct(voyage.story, "voyage", "merge", "Lily", "Lila").warning
    assert twins is not None and "two given names, Lily and Lila" in twins
    # An initial is no name to say where the name is spelt out: a tester read "S or Susan".
    told(voyage, "voyage", ["Lady Susan Vale wrote it.", "Lady S. Vale, she signed it."], times=2)
    told(voyage, "voyage", ['"Hush," said Frederica.', '"No," said Frederica.'], times=2)
    vale = correct(voyage.story, "voyage", "merge", "Lady Susan Vale", "Frederica").warning
    assert vale is not None and "two given names, Susan and Frederica" in vale
    told(voyage, "voyage", ['"Sow," said Thomas Hale Sr.', '"Reap," said Thomas Hale Jr.'], times=2)
    hales = correct(voyage.story, "voyage", "merge", "Thomas Hale Sr.", "Thomas Hale Jr.").warning
    assert hales is not None and "namesakes of two generations, Senior and Junior" in hales
    fine = correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Skipper")
    assert fine.warning is None
    # Treasure Island: "Joyce" (a census woman's name) is Richard Joyce's family name.
    from loci.toolsets.story.correction_checks import two_people
    from loci.toolsets.story.entity import Entity, Seen

    joyce = Entity(1, "Joyce", "character", 9, Seen(0, ""), [], ["Joyce"])
    richard = Entity(2, "Richard Joyce", "character", 3, Seen(0, ""), [], ["Richard Joyce"])
    assert two_people(joyce, richard) is None
    # Persuasion: "Clay", of Mrs Clay, is her family's name, no given name beside "Penelope".
    clay = Entity(3, "Mrs Clay", "character", 66, Seen(0, ""), [], ["Mrs Clay", "Clay"])
    penelope = Entity(4, "Penelope", "character", 2, Seen(0, ""), [], ["Penelope"])
    assert two_people(clay, penelope) is None
    # Silas Marner (a tester's book): "Nancy Lammeter" merged into "Mrs. Cass", her married
    # name, was said to look like two people; a maiden name and a married one are one woman's.
    cass = Entity(5, "Mrs. Cass", "character", 10, Seen(0, ""), [], ["Mrs. Cass", "Madam Cass"])
    nancy = Entity(6, "Nancy", "character", 179, Seen(0, ""), [], ["Nancy", "Nancy Lammeter"])
    assert two_people(cass, nancy) is None
    # Two married names of two families are two women still.
    osgood = Entity(7, "Mrs. Osgood", "character", 12, Seen(0, ""), [], ["Mrs. Osgood"])
    assert two_people(cass, osgood) is not None
    # Kidnapped: "Alan Breck" is Alan Breck Stewart; a tester merging the two was warned of
    # "two family names, Breck and Stewart".
    alan = Entity(8, "Alan", "character", 446, Seen(0, ""), [], ["Alan", "Alan Breck"])
    full = ["Alan Breck Stewart", "Alan Stewart"]
    stewart = Entity(9, "Alan Breck Stewart", "character", 6, Seen(0, ""), [], full)
    assert two_people(alan, stewart) is None
    # Jane Eyre: the servants' "Mr. Edward" merged into Mr. Rochester was said to be of "two
    # family names, Rochester and Edward"; Edward is his given name. A family name of a
    # given name's spelling stays one ("Mr. Joyce" of another family than Richard Joyce's).
    full = ["Mr. Rochester", "Edward Fairfax Rochester", "Edward"]
    rochester = Entity(10, "Mr. Rochester", "character", 353, Seen(0, ""), [], full)
    edward = Entity(11, "Mr. Edward", "character", 11, Seen(0, ""), [], ["Mr. Edward"])
    assert two_people(rochester, edward) is None
    mason = Entity(12, "Mr. Mason", "character", 30, Seen(0, ""), [], ["Mr. Mason"])
    assert two_people(rochester, mason) is not None
    # Wuthering Heights: "Pretty Linton" merged into "Linton Heathcliff" was said to be of "two
    # family names, Heathcliff and Linton"; "pretty" is a word the book writes in lower case.
    from loci.toolsets.story.reading import WordCase

    son = Entity(10, "Linton Heathcliff", "character", 9, Seen(0, ""), [], ["Linton Heathcliff"])
    pretty = Entity(11, "Pretty Linton", "character", 2, Seen(0, ""), [], ["Pretty Linton"])
    assert two_people(son, pretty) is not None  # the words alone say two families
    assert two_people(son, pretty, {"pretty": WordCase(lower=40, inside=2)}) is None
    # A correction answers with whom the character appears, as its card does.
    card = character(voyage.story, "voyage", "Captain Hawkes")
    assert fine.relationships == card.relationships and fine.relationships


def test_a_childs_word_merged_into_a_parent_is_never_the_name_shown(app: App) -> None:
    text = (
        '"Marmee, look!" cried Tilly Hale. Marmee laughed, and Marmee ran after the kite. '
        "Mrs. Hale watched from the gate, and Tilly Hale waved to her."
    )
    for number in range(4):
        app.story.continue_story("kite", "", f"{text} ({number})")
    before = character(app.story, "kite", "Mrs. Hale")
    merged = correct(app.story, "kite", "merge", "Mrs. Hale", "Marmee")
    assert merged.mentions > 3 * before.mentions  # "Marmee" is said far more often
    assert merged.name == "Mrs. Hale" and "Marmee" in merged.aliases


def test_a_name_the_writer_corrects_is_listed_however_rarely_it_is_written(app: App) -> None:
    app.story.continue_story("v", "", "Captain Hawkes sailed for Port Elder at dawn.")
    assert "Port Elder" not in [p.name for p in entities_of(app.story, "v", "place")]
    correct(app.story, "v", "kind", "Port Elder", "place")
    places = entities_of(app.story, "v", "place")
    assert [(p.name, p.confirmed) for p in places] == [("Port Elder", True)]


def test_an_import_counts_a_name_in_the_text_read_before_it_was_found(app: App) -> None:
    from loci.toolsets.story.manuscript import stream_into

    # A chapter's heading makes no new name (NER reads its words as names), so the first
    # piece says "Hester Pell" before the story knows her; "Amos" is known there already,
    # so the "Amos Thorne" of that heading was counted as Amos.
    pieces = [
        "Amos fed the pigs at dawn. Amos sang as he worked in the yard.",
        "CHAPTER II. Hester Pell and Amos Thorne\n\nThe rain came down all day.",
        "Hester Pell walked to the gate at noon, and Amos Thorne followed her down the lane.",
    ]
    result = stream_into(app.story, "pell", pieces)
    hester = character(app.story, "pell", "Hester Pell")
    assert result.earlier_mentions == 1 and hester.mentions == 2
    assert [m.position for m in hester.recent_mentions] == [hester.first_mention.position, 37]
    assert "Hester Pell and Amos Thorne" in hester.recent_mentions[0].excerpt
    # Amos twice, Amos in the heading, Amos Thorne once: not that heading's name twice.
    assert character(app.story, "pell", "Amos Thorne").mentions == 4


def test_two_names_found_later_meet_in_the_text_read_before_them(app: App) -> None:
    from loci.toolsets.story.manuscript import stream_into

    pieces = [
        "CHAPTER I. Hester Pell and Jonas Marrow\n\nThe mill wheel turned all night.",
        "Hester Pell met Jonas Marrow at the mill, and Jonas Marrow bowed to her.",
    ]
    stream_into(app.story, "mill", pieces)
    met = {r.name: r.weight for r in character(app.story, "mill", "Hester Pell").relationships}
    # Once in the heading's paragraph, and twice in the next (Jonas is named twice there).
    assert met == {"Jonas Marrow": 3}


def test_names_a_correction_moves_between_other_entities_are_reported() -> None:
    # A tester split "Paul Petrovitch Kirsanov" off "Kirsanov": the rest of that entity then
    # joined Arkady without a word.
    from loci.toolsets.story.correction_checks import moved_elsewhere
    from loci.toolsets.story.entity import Entity, Seen

    def entity(number: int, *written: str) -> Entity:
        return Entity(number, written[0], "character", 9, Seen(0, ""), [], list(written))

    kirsanov = entity(1, "Kirsanov", "General Kirsanov", "Paul Petrovitch Kirsanov")
    arkady = entity(2, "Arkady", "Arkady Kirsanov")
    before = [kirsanov, arkady]
    after = [entity(3, "Arkady", "Arkady Kirsanov", "Kirsanov", "General Kirsanov")]
    after.append(entity(4, "Paul Petrovitch Kirsanov"))
    said = moved_elsewhere(before, after, set())
    assert said is not None
    assert "'Kirsanov', 'General Kirsanov' (of 'Kirsanov') joined 'Arkady'" in said
    assert "undo" in said
    # A merge's own two entities together are what it was asked to do.
    assert moved_elsewhere(before, after[:1], {1, 2}) is None
    assert moved_elsewhere(before, before, set()) is None
    # Persuasion: Richard's three names joined "Mr Musgrove": reported as "'Mr
    # Musgrove' (of 'Mr Musgrove') joined 'Mr Musgrove'".
    musgrove = entity(5, "Mr Musgrove")
    richard = entity(6, "Richard", "Dick", "Dick Musgrove")
    joined = entity(7, "Mr Musgrove", *musgrove.written, *richard.written)
    said = moved_elsewhere([musgrove, richard], [joined], set())
    assert said is not None and "(of 'Richard') joined 'Mr Musgrove'" in said
    assert "(of 'Mr Musgrove')" not in said


def test_a_split_off_given_name_leaves_the_full_name_of_the_names_left() -> None:
    # Splitting "John" off "Mr. Barsad" takes "Jack" (a form of John alone) and leaves "John
    # Barsad", whose family name the names left carry and who may be theirs.
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.split_names import along

    names = ["Mr. Barsad", "Barsad", "John Barsad", "John", "Jack"]
    barsad = Entity(1, "Mr. Barsad", "character", 48, Seen(0, ""), [], names)
    assert along(barsad, "Mr. Barsad", "John") == ("Jack",)
    musgrove = ["Mr Musgrove", "Charles Musgrove", "Richard", "Dick", "Dick Musgrove"]
    joined = Entity(2, "Mr Musgrove", "character", 47, Seen(0, ""), [], musgrove)
    assert along(joined, "Mr Musgrove", "Richard") == ("Dick", "Dick Musgrove")
    # Lady Susan: splitting "Sir Reginald" (the father) off his son Reginald left "Sir Reginald
    # De Courcy" with the son; a titled given name takes its own full names along.
    courcy = ["Reginald", "Sir Reginald", "Reginald De Courcy", "Sir Reginald De Courcy"]
    son = Entity(3, "Reginald", "character", 81, Seen(0, ""), [], courcy)
    assert along(son, "Reginald", "Sir Reginald") == ("Sir Reginald De Courcy",)
    # Washington Square: splitting the mother's "Catherine Harrington" off her daughter
    # Catherine left "Miss Catherine Harrington"; a full name takes its titled forms along.
    mother = ["Catherine", "Miss Catherine Harrington", "Catherine Harrington", "Harrington"]
    daughter = Entity(4, "Catherine", "character", 547, Seen(0, ""), [], mother)
    split = along(daughter, "Catherine", "Catherine Harrington")
    assert split == ("Miss Catherine Harrington",)


def test_a_merge_naming_one_of_another_entitys_names_warns_the_whole_joins(voyage: App) -> None:
    # A newcomer merged "Sir Reginald De Courcy", a name of the son's entity, into his father
    # "Sir Reginald", and the son went along without a word.
    correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Skipper")
    merged = correct(voyage.story, "voyage", "merge", "Nell Quarry", "the Skipper")
    assert merged.warning is not None
    assert re.search(r"'the Skipper' was one of the \d names of 'Captain Hawkes'", merged.warning)
    assert "split it off first" in merged.warning
    undo(voyage.story, "voyage")
    # Naming the entity by its own name shown says nothing more than the merge does.
    plain = correct(voyage.story, "voyage", "merge", "Nell Quarry", "Captain Hawkes").warning
    assert plain is None or "names of" not in plain


def test_names_kept_apart_already_are_refused_again(voyage: App) -> None:
    kept = correct(voyage.story, "voyage", "apart", "Captain Hawkes", "Nell Quarry")
    before = len(listing(voyage.story, "voyage"))
    for name, other in (("Captain Hawkes", "Nell Quarry"), ("Nell Quarry", "Captain Hawkes")):
        with pytest.raises(InvalidInputError, match=r"kept apart already \(correction #\d+\)"):
            correct(voyage.story, "voyage", "apart", name, other)
    assert len(listing(voyage.story, "voyage")) == before
    assert kept.name == "Captain Hawkes"
