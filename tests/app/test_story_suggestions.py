"""Suggested corrections of the cast: each one call of `correct_character` with the mentions
it sets right, why, and a sentence of evidence; accepted in one step, and taken back."""

from __future__ import annotations

import pytest

from loci.app import App
from loci.toolsets.story.curation import correct, decline, undo
from loci.toolsets.story.kinds import Kind
from loci.toolsets.story.lookup import character, entities_of
from loci.toolsets.story.suggestions import suggest
from tests.storytext import filler, told, written

VOYAGE = [
    "Captain Hawkes stood at the rail of the Gull. Captain Hawkes said nothing to anyone.",
    "The Captain watched the storm come in over the bar, and Nell Quarry brought him tea.",
    "Nell Quarry laughed at the Captain's hat. The Captain did not laugh, and Nell went below.",
    "At dawn the Captain sent the boy aloft. Captain Hawkes was pleased with the boy.",
]


@pytest.fixture
def voyage(app: App) -> App:
    for number, text in enumerate(VOYAGE * 3):
        app.story.continue_story("voyage", "", f"{text} ({number})")
    return app


def test_an_epithet_of_the_storys_one_captain_is_suggested_and_accepted_in_one_step(
    voyage: App,
) -> None:
    found = suggest(voyage.story, "voyage").suggestions
    epithet = next(s for s in found if s.other == "the Captain")
    assert (epithet.action, epithet.name, epithet.mentions) == ("alias", "Captain Hawkes", 12)
    assert "the captain" in epithet.evidence.lower() and "only captain" in epithet.reason
    assert epithet.number == 1
    before = character(voyage.story, "voyage", "Captain Hawkes").mentions
    after = correct(voyage.story, "voyage", epithet.action, epithet.name, epithet.other)
    assert after.mentions == before + 12
    again = suggest(voyage.story, "voyage")
    assert all(s.other != "the Captain" for s in again.suggestions)  # done: not suggested
    assert len(again.corrections) == 1 and again.corrections[0].startswith("#1: ")
    undo(voyage.story, "voyage")
    assert any(s.other == "the Captain" for s in suggest(voyage.story, "voyage").suggestions)


def test_accepting_goes_on_past_a_suggestion_refused(voyage: App) -> None:
    # A tester's --accept-all stopped at a suggestion that could not be applied, the ones
    # before it applied without a word.
    from loci.toolsets.story.curation import accept
    from loci.toolsets.story.models import CastSuggestion

    listed = suggest(voyage.story, "voyage").suggestions
    unwritten = CastSuggestion(
        number=len(listed) + 1,
        action="alias",
        name="Nell Quarry",
        other="the Widow",
        mentions=1,
        reason="",
        evidence="",
    )
    done = accept(voyage.story, "voyage", [unwritten, *listed])
    assert list(done.refused) == [unwritten.number]
    assert "never writes 'the Widow'" in done.refused[unwritten.number].message
    assert len(done.applied) == len(listed)
    assert "the Captain" in character(voyage.story, "voyage", "Captain Hawkes").aliases
    # An applied suggestion that warns (two people merged) has its warning kept by number.
    two = unwritten.model_copy(update={"action": "merge", "other": "Captain Hawkes"})
    warned = accept(voyage.story, "voyage", [two])
    assert "look like two people" in warned.warnings[two.number]


def test_a_name_an_earlier_suggestion_took_is_not_merged_again_with_its_new_entity(
    voyage: App,
) -> None:
    # Sense and Sensibility: "Miss Dashwood" was offered to Elinor (who answers to it) and to
    # Marianne (by company); accepting both in one step would have merged Elinor into
    # Marianne.
    from loci.toolsets.story.curation import accept
    from loci.toolsets.story.models import CastSuggestion

    told(voyage, "voyage", ['"Come, Tom Pike," said Nell Quarry, and Tom Pike came.'] * 2)
    offer = CastSuggestion(
        number=1,
        action="merge",
        name="Nell Quarry",
        other="Tom Pike",
        mentions=4,
        reason="",
        evidence="",
    )
    again = offer.model_copy(update={"number": 2, "name": "Captain Hawkes"})
    done = accept(voyage.story, "voyage", [offer, again])
    assert len(done.applied) == 1 and list(done.refused) == [2]
    assert "'Tom Pike' is now a name of 'Nell Quarry'" in done.refused[2].message
    assert "Nell Quarry" not in character(voyage.story, "voyage", "Captain Hawkes").aliases


def test_a_sailors_epithet_is_suggested_for_the_storys_one_captain(app: App) -> None:
    scenes = [
        "Captain Marrow stood at the rail. Captain Marrow said nothing to anyone.",
        "\u201cAy,\u201d said the Cap\u2019n, and Marrow laughed at the rain.",
        "Tom Fisk brought the Cap\u2019n his tea. The Cap\u2019n drank it, and Marrow slept.",
    ]
    for number, text in enumerate(scenes * 3):
        app.story.continue_story("sloop", "", f"{text} ({number})")
    found = suggest(app.story, "sloop").suggestions
    epithet = next(s for s in found if s.other == "the Cap\u2019n")
    assert (epithet.action, epithet.name) == ("alias", "Captain Marrow")
    # Written nine times, it is his in the cast once the cast is worked out as an import's
    # end does it, and no longer suggested.
    app.story.resolve_cast("sloop")
    assert "the Cap\u2019n" in character(app.story, "sloop", "Captain Marrow").aliases
    assert all(s.other != "the Cap\u2019n" for s in suggest(app.story, "sloop").suggestions)


def test_a_calling_said_beside_one_name_is_that_characters_in_the_cast_after_an_import(
    app: App,
) -> None:
    # Oliver Twist: "Mr. Bumble, the beadle, ..."; "the beadle" (63 times) was a suggestion
    # only, the import's cast leaving it to no one.
    scenes = [
        "Oliver was startled by the apparition of Mr. Bumble, the beadle, at the gate.",
        "Mr. Bumble came in with his cocked hat and his cane.",
        '"Silence!" said the beadle to the boys, and the boys were silent.',
        "The fog lay thick on the workhouse all that day.",
    ]
    for number, text in enumerate(scenes * 3):
        app.story.continue_story("parish", "", f"{text} ({number})")
    found = suggest(app.story, "parish").suggestions
    assert ("alias", "Mr. Bumble", "the beadle") in [(s.action, s.name, s.other) for s in found]
    before = character(app.story, "parish", "Mr. Bumble").mentions
    # Written six times, the import's end takes it for his, counted in the text already
    # stored (the three beside his name too), and no longer suggests it.
    app.story.resolve_cast("parish")
    bumble = character(app.story, "parish", "Mr. Bumble")
    assert "the beadle" in bumble.aliases and bumble.mentions == before + 6
    assert all(s.other != "the beadle" for s in suggest(app.story, "parish").suggestions)
    # The writer may think otherwise: split off, it stays apart, a character of its own (it
    # speaks: a newcomer's split-off "the innkeeper" was "other", gone from the cast).
    correct(app.story, "parish", "split", "Mr. Bumble", "the beadle")
    app.story.resolve_cast("parish")
    assert "the beadle" not in character(app.story, "parish", "Mr. Bumble").aliases
    assert character(app.story, "parish", "the beadle").kind == "character"
    undo(app.story, "parish")
    assert "the beadle" in character(app.story, "parish", "Mr. Bumble").aliases


def names_of(app: App, session: str) -> list[set[str]]:
    from loci.toolsets.story import store

    with app.db.snapshot() as conn:
        found = store.session(conn, session)
        return [set(e.aliases) for e in app.story.graph.entities(conn, found.id)]


def test_a_shared_initial_joins_no_one_and_a_word_of_address_is_no_name(app: App) -> None:
    story = [
        '"Tea," said S. Arden, and S. Arden smiled at the window.',
        'Sam laughed. "Not now," said Sam, and Selby shook her head.',
        '"Friend John," said Piet Vander, "sit down." John Harker sat, and John Harker wrote.',
        '"Shall I go?" asked Selby, and Selby went.',
    ]
    for number, text in enumerate(story * 3):
        app.story.continue_story("initials", "", f"{text} ({number})")
    held = names_of(app, "initials")
    for aliases in held:
        assert not ({"Sam", "Selby"} & aliases and "S. Arden" in aliases), aliases
        assert "Friend John" not in aliases and "Shall I" not in aliases
    assert any({"John Harker"} <= aliases for aliases in held)


def test_a_name_several_people_carry_is_suggested_for_the_one_whose_company_it_keeps(
    app: App,
) -> None:
    scenes = [
        "Ada Bell walked with Tom Gale by the river. Tom Gale gave Ada Bell a rose.",
        "Cora Bell argued with Mr. Flint at the bank. Mr. Flint frowned at Cora Bell.",
        "Miss Bell met Tom Gale at the dance, and Tom Gale bowed to her.",
        "Tom Gale asked after Miss Bell; she smiled.",
    ]
    for number, text in enumerate(scenes * 4):
        app.story.continue_story("bells", "", f"{text} ({number})")
    found = suggest(app.story, "bells").suggestions
    miss = [s for s in found if s.other == "Miss Bell"]
    assert miss and miss[0].name == "Ada Bell" and miss[0].action == "merge"
    assert "keeps the same company" in miss[0].reason


def test_an_epithet_that_keeps_no_company_with_its_title_holder_is_not_suggested(
    app: App,
) -> None:
    story = [
        "King Olaf rode to the fjord, and King Olaf spoke to the fishermen.",
        "Long ago the King of the south built a tower; the King was cruel.",
        "Children still sing of the King who drowned, and the King's gold.",
        "King Olaf laughed at the old songs.",
    ]
    for number, text in enumerate(story * 3):
        app.story.continue_story("saga", "", f"{text} ({number})")
    assert all(s.other != "the King" for s in suggest(app.story, "saga").suggestions)


def test_an_epithet_in_the_paragraphs_after_its_holders_name_is_suggested(app: App) -> None:
    # A journal names "Count Dracula" once and says "the Count" in the paragraphs after.
    story = []
    for day in range(4):
        story += [
            f"Count Dracula met me at the door on the {day + 3}rd of May.",
            "The Count smiled, and the Count's hand was cold as ice.",
            filler(day, 4),
            "At night the Count walked the halls, and I heard the Count on the stair.",
            *(filler(10 * day + n) for n in range(6)),
        ]
    for number, text in enumerate(story):
        app.story.continue_story("journal", "", f"{text} ({number})")
    found = suggest(app.story, "journal").suggestions
    epithet = next(s for s in found if s.other == "the Count")
    assert (epithet.action, epithet.name) == ("alias", "Count Dracula")


def test_an_epithet_near_a_rarely_named_holder_more_than_by_chance_is_suggested() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.epithets import epithet_suggestions

    # The mentor is named three times and called "the Professor" ten; four of those stand
    # within two paragraphs of his name, nearly twice as often as the story's other paragraphs.
    said = {
        "N": "Professor Halvorsen came in, day {}.",
        "E": "The Professor frowned at me, day {}.",
        ".": "It rained on the moor, day {}.",
    }
    layout = "N.E" + "....E" * 4 + "N.E" + "....E" * 4 + "N" + "." * 5
    text = "\n\n".join(said[c].format(day) for day, c in enumerate(layout))
    holder = Entity(
        1, "Professor Halvorsen", "character", 3, Seen(0, ""), [], ["Professor Halvorsen"]
    )
    found = epithet_suggestions(text, [holder])
    assert [(s.name, s.other) for s in found] == [("Professor Halvorsen", "the Professor")]


def test_an_epithet_a_rarely_named_holder_goes_by_is_suggested_without_company() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.epithets import epithet_suggestions

    # A tester's story: "Colonel Pembury" is named in two paragraphs, far from any of the
    # eight that call him "the Colonel"; no other colonel is named.
    said = {
        "N": "My employer was Colonel Pembury, day {}.",
        "E": '"Nonsense," said the Colonel, day {}.',
        ".": "It rained on the sea front, day {}.",
    }
    layout = "N" + "." * 6 + "E...E..E" + "." * 6 + "N" + "." * 6 + "E..E.E..E..E"
    text = "\n\n".join(said[c].format(day) for day, c in enumerate(layout))
    holder = Entity(1, "Colonel Pembury", "character", 2, Seen(0, ""), [], ["Colonel Pembury"])
    found = epithet_suggestions(text, [holder])
    assert [(s.name, s.other, s.mentions) for s in found] == [("Colonel Pembury", "the Colonel", 8)]
    # Written in five paragraphs, it may be a few chance uses: company must tell.
    fewer = text
    for day in (7, 11, 14):
        fewer = fewer.replace(f"the Colonel, day {day}", f"the sergeant, day {day}")
    assert epithet_suggestions(fewer, [holder]) == []


def test_an_epithet_of_a_short_storys_one_captain_named_everywhere_is_suggested() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.epithets import epithet_suggestions

    # A tester's short story: Captain Whitlock is named in half its paragraphs, seldom in one
    # with "the Captain"; near it as often as anywhere, never far more often.
    said = {
        "N": "Whitlock looked at Okafor, day {}.",
        "E": "The Captain said nothing to Okafor, day {}.",
        ".": "The drive hummed, day {}.",
    }
    layout = "N.E.N." * 4 + "EN.N.E" * 4
    text = "\n\n".join(said[c].format(day) for day, c in enumerate(layout))
    text += "\n\nCaptain Jonah Whitlock signed the log."
    names = ["Whitlock", "Captain Jonah Whitlock"]
    holder = Entity(1, "Whitlock", "character", 17, Seen(0, ""), [], names)
    crew = Entity(3, "Okafor", "character", 28, Seen(0, ""), [], ["Okafor"])
    found = epithet_suggestions(text, [holder, crew])
    assert [(s.name, s.other, s.mentions) for s in found] == [("Whitlock", "the Captain", 12)]
    # Met beside no one he meets, it may be another captain.
    alone = text.replace("nothing to Okafor", "nothing")
    assert epithet_suggestions(alone, [holder, crew]) == []
    # Of two captains, the one named as often as anywhere near it is no more likely than the
    # other: company must tell.
    other = Entity(2, "Captain Reyes", "character", 1, Seen(0, ""), [], ["Captain Reyes"])
    assert epithet_suggestions(text, [holder, crew, other]) == []


def test_a_calling_in_lower_case_is_suggested_and_ranks_go_by_how_often_they_are_borne() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.epithets import epithet_suggestions

    # Treasure Island: "says the doctor" (111 times) is Dr. Livesey, the one doctor; "the
    # captain" is no one's by far: Silver, named everywhere, is "Cap'n Silver" once.
    scenes = [
        '"Were you addressing me?" says the doctor, and Dr. Livesey rose.',
        "Captain Smollett frowned; the captain went below, and Silver laughed.",
        '"Cap\u2019n Silver," said Morgan; the doctor and Silver watched the captain.',
        "Captain Smollett and Captain Smollett's mate; Silver and Silver; the doctor slept.",
    ]
    text = "\n\n".join(scenes * 3)
    livesey = Entity(1, "Dr. Livesey", "character", 3, Seen(0, ""), [], ["Dr. Livesey"])
    smollett = Entity(2, "Captain Smollett", "character", 9, Seen(0, ""), [], ["Captain Smollett"])
    silver = Entity(3, "Silver", "character", 400, Seen(0, ""), [], ["Silver", "Cap\u2019n Silver"])
    # Smollett is "Captain Smollett" as a habit, Silver hardly ever "Cap'n Silver".
    found = epithet_suggestions(text, [livesey, smollett, silver])
    assert [(s.name, s.other, s.mentions) for s in found] == [
        ("Dr. Livesey", "the doctor", 9),
        ("Captain Smollett", "the captain", 6),
    ]
    assert "only doctor by name" in found[0].reason
    assert "captain known by the title as a habit" in found[1].reason
    # A Smollett mostly named without his rank is no likelier the captain than Silver.
    plain = Entity(
        2, "Smollett", "character", 40, Seen(0, ""), [], ["Smollett", "Captain Smollett"]
    )
    found = epithet_suggestions(text, [livesey, plain, silver])
    assert [(s.name, s.other) for s in found] == [("Dr. Livesey", "the doctor")]


def test_an_epithet_of_two_titled_goes_to_the_one_named_near_it_far_more_often() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.epithets import epithet_suggestions

    # Persuasion: Admiral Croft (14 times) is "the Admiral" where he is named; Admiral Baldwin
    # (4), whom one talk mentions, is named near it once. Neither is titled four times as
    # often as the other, and both are always titled.
    said = {
        "C": "Admiral Croft walked with his wife, day {}.",
        "E": "The Admiral laughed at the weather, day {}.",
        "B": "Sir Walter spoke of Admiral Baldwin, day {}.",
        ".": "The rain went on at Bath, day {}.",
    }
    layout = "CE.CE." * 4 + ".........B...BEB.."
    text = "\n\n".join(said[c].format(day) for day, c in enumerate(layout))
    croft = Entity(1, "Admiral Croft", "character", 8, Seen(0, ""), [], ["Admiral Croft"])
    baldwin = Entity(2, "Admiral Baldwin", "character", 3, Seen(0, ""), [], ["Admiral Baldwin"])
    found = epithet_suggestions(text, [croft, baldwin])
    assert [(s.name, s.other, s.mentions) for s in found] == [("Admiral Croft", "the Admiral", 9)]
    assert "admiral named near it far more often" in found[0].reason
    # Named near it as often as Baldwin, Croft is no likelier.
    even = text.replace("The Admiral laughed", "Admiral Baldwin came; the Admiral laughed")
    assert epithet_suggestions(even, [croft, baldwin]) == []


def test_her_majesty_is_suggested_for_the_storys_one_queen() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.epithets import epithet_suggestions

    said = {
        "N": "The Queen of the Marsh rose from the reeds; Her Majesty smiled, day {}.",
        "E": "Her Majesty wishes to see us at the Mill, day {}.",
        "S": "Her Majesty's boats lay on the river, day {}.",  # a possessive: not counted
        ".": "It rained on the marsh, day {}.",
    }
    text = "\n\n".join(said[c].format(day) for day, c in enumerate("NE.ES..E"))
    queen = Entity(1, "Queen of the Marsh", "character", 2, Seen(0, ""), [], ["Queen of the Marsh"])
    found = epithet_suggestions(text, [queen])
    assert [(s.name, s.other, s.mentions) for s in found] == [
        ("Queen of the Marsh", "Her Majesty", 4)
    ]
    king = Entity(1, "King Olaf", "character", 2, Seen(0, ""), [], ["King Olaf"])
    assert epithet_suggestions(text, [king]) == []  # "Her Majesty" is no king


def test_your_grace_is_suggested_for_the_storys_one_queen_and_counted_once_accepted(
    app: App,
) -> None:
    # A tester's fantasy: "Her Grace" and "Your Grace" became a character "Grace".
    story = [
        "Queen Ysolde sat at the far end of the hall, and Aldric Thorne knelt.",
        '"Your Grace," said Aldric Thorne. Queen Ysolde did not smile.',
        "The lords waited. Aldric Thorne looked at the fire.",
    ]
    told(app, "court", story)
    assert all("Grace" not in e.aliases for e in entities_of(app.story, "court"))
    found = suggest(app.story, "court").suggestions
    styled = next(s for s in found if s.other == "Your Grace")
    assert (styled.name, styled.mentions) == ("Queen Ysolde", 3)
    assert "the story's only queen by name" in styled.reason
    before = character(app.story, "court", "Queen Ysolde").mentions
    after = correct(app.story, "court", styled.action, styled.name, styled.other)
    assert after.mentions == before + 3


def test_mama_called_out_is_suggested_for_the_familys_one_mother(app: App) -> None:
    # A tester's regency: "Mama" never reached the cast, NER seeing no name in it.
    story = [
        '"Lord Saltire is looking at the clock, Mama," said Kitty Ashby.',
        "Mrs. Ashby sighed, and Eleanor Ashby laughed at her sister.",
        '"My bonnet is quite well, Mama," said Eleanor Ashby. Mrs. Ashby frowned.',
        "Kitty Ashby ran to the window, and Mrs. Ashby followed her.",
    ]
    told(app, "ashby", story)
    found = suggest(app.story, "ashby").suggestions
    assert ("merge", "Mrs. Ashby", "Mama", 6) in [
        (s.action, s.name, s.other, s.mentions) for s in found
    ]


def test_a_name_said_more_often_than_all_who_carry_it_is_merged_into_none(app: App) -> None:
    story = [
        "The Wicked Witch of the East was dead, and the Witch of the North kissed Dorothy.",
        '"Go to the Emerald City," said the Witch of the North to Dorothy.',
        "The Wicked Witch of the West saw Dorothy with her one eye.",
        '"Give me the shoes of the Wicked Witch of the East," said the Witch.',
        "The Witch laughed, and the Witch locked the gate, and the Witch slept.",
        '"Fetch water," said the Witch. The Witch wanted the silver shoes.',
    ]
    told(app, "oz", story)
    found = suggest(app.story, "oz").suggestions
    assert all(s.other != "Witch" for s in found), [(s.name, s.other) for s in found]


def test_a_given_name_said_more_than_its_full_names_is_still_one_of_them() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.suggestions import _a_name_of_its_own

    def named(name: str, mentions: int) -> Entity:
        return Entity(mentions, name, "character", mentions, Seen(0, ""), [], [name])

    witches = [named("Wicked Witch of the East", 11), named("Wicked Witch of the West", 8)]
    assert _a_name_of_its_own(named("Witch", 50), witches)
    sallies = [named("Sallie Gardiner", 3), named("Sallie Moffat", 3)]
    assert not _a_name_of_its_own(named("Sallie", 42), sallies)  # her given name


def test_evidence_is_a_whole_sentence_when_the_excerpts_hold_one() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.evidence import evidence

    cut = "many pretty women in the room, and the eldest Miss Bennet, beyond a"
    whole = "Miss Bennet was therefore established as a sweet girl."
    entity = Entity(
        7, "Miss Bennet", "character", 3, Seen(0, cut), [Seen(9, whole)], ["Miss Bennet"]
    )
    assert evidence(entity) == whole


def test_an_introduction_leaves_out_windows_that_start_mid_sentence() -> None:
    from loci.toolsets.story.resolution import _introduction

    first = "Miss Bennet was therefore established as a sweet girl."
    rows = [(1, "Miss Bennet", 3, 10, f"{first}\nmany pretty women in the room, the eldest Miss")]
    assert _introduction(rows) == first


def test_an_introduction_is_one_passage_near_the_first_mention(app: App) -> None:
    # Testers' introductions strung together lines from the whole story: a chapter-ten line
    # for Leo, seven forms of address for Dorsey.
    from loci.toolsets.story.resolution import _introduction

    first = "Leo Sarnoff kept the books for the Dutchman at the Blue Parrot, and kept them well."
    rows = [
        (1, "Leo Sarnoff", 3, 10, first),
        (2, "Leo", 9, 5000, "Leo was found in chapter ten with a bullet in his ear."),
    ]
    assert _introduction(rows) == first
    signed = [(1, "Whitlock", 3, 10, "Whitlock, out."), (2, "Jonah Whitlock", 1, 900, first)]
    assert _introduction(signed) == f"Whitlock, out. {first}"  # a line says nothing of him
    story = [first, *(filler(seed, 40) for seed in range(12)), "Leo Sarnoff was found dead."]
    for number, text in enumerate(story):
        app.story.continue_story("noir", "", f"{text} ({number})")
    app.story.resolve_cast("noir")
    introduced = character(app.story, "noir", "Leo Sarnoff").first_mention.excerpt
    assert introduced.startswith("Leo Sarnoff kept the books") and "found dead" not in introduced


def test_a_name_found_pages_earlier_is_introduced_there_alone() -> None:
    # A newcomer's Dr. Kitto: the import's end found earlier mentions and stitched their
    # sentences to the introduction of a later page (3 May, 19 May and 26 May as one).
    from loci.toolsets.story.mentions import Mention
    from loci.toolsets.story.name_rows import Observed, count

    row: dict[str, object] = {
        "mentions": 1,
        "first_pos": 5000,
        "first_seen": "Dr. Kitto came to dine.",
        "recent_seen": "[]",
        "written": "Dr. Kitto",
        **dict.fromkeys(["ner_person", "ner_place", "ner_other", "said", "acts"], 0),
        **dict.fromkeys(["place_word", "article", "male", "female", "addressed", "named"], 0),
    }
    near = dict(row)
    count(row, Observed(Mention("Dr. Kitto", 0, 9), 10, "Dr. Kitto came at six.", 0))
    assert (row["first_pos"], row["first_seen"]) == (10, "Dr. Kitto came at six.")
    count(near, Observed(Mention("Dr. Kitto", 0, 9), 4900, "Dr. Kitto came at six.", 0))
    assert near["first_seen"] == "Dr. Kitto came at six.\nDr. Kitto came to dine."


def test_her_ladyship_is_suggested_for_the_storys_one_lady_by_far_and_accepted(
    app: App,
) -> None:
    story = [
        "Lady Catherine received them at Rosings. Lady Catherine spoke, and Anne listened.",
        "Anne said nothing, for her Ladyship disliked being interrupted by anyone.",
        "Your Ladyship is very kind, said Anne to Lady Catherine, and Lady Catherine nodded.",
        "Lady Lucas came to call on Lady Catherine once.",
    ]
    for number, text in enumerate(story * 3):
        app.story.continue_story("rosings", "", f"{text} ({number})")
    found = suggest(app.story, "rosings").suggestions
    honorific = next(s for s in found if s.other == "Ladyship")
    assert (honorific.action, honorific.name, honorific.mentions) == ("alias", "Lady Catherine", 6)
    assert "ladyship" in honorific.evidence.lower()
    before = character(app.story, "rosings", "Lady Catherine").mentions
    after = correct(app.story, "rosings", "alias", "Lady Catherine", "Ladyship")
    assert after.mentions == before + 6


def test_the_evidence_of_a_suggestion_shows_its_name_in_a_long_sentence(app: App) -> None:
    # Pride and Prejudice: "Ladyship" was shown with the first 280 characters of Mr.
    # Collins's letter, which write it only later.
    letter = (
        "The disagreement subsisting between yourself and my late honoured father always gave "
        "me much uneasiness, and since I have had the misfortune to lose him I have frequently "
        "wished to heal the breach, but for some time I was kept back by my own doubts, fearing "
        "lest it might seem disrespectful to his memory, and I am now resolved upon it, having "
        "been so fortunate as to be distinguished by the patronage of her Ladyship at Rosings."
    )
    story = [
        "Lady Catherine received them at Rosings, and Lady Catherine spoke.",
        letter,
        "Her Ladyship was at home. Lady Catherine nodded to the guests.",
        "Lady Lucas came to call on Lady Catherine once.",
    ]
    for number, text in enumerate(story * 2):
        app.story.continue_story("letter", "", f"{text} ({number})")
    found = suggest(app.story, "letter").suggestions
    honorific = next(s for s in found if s.other == "Ladyship")
    assert "Ladyship" in honorific.evidence and len(honorific.evidence) <= 280


def test_a_calling_said_beside_a_name_is_suggested_and_counted_once_accepted(app: App) -> None:
    story = [
        "Oliver was startled by the apparition of Mr. Bumble, the beadle, at the gate.",
        '"Silence!" said the beadle, and Mr. Bumble shook his cane at Oliver.',
        "The fog lay on the workhouse, and the boys ate their gruel in silence.",
        "Mr. Bumble took Oliver by the hand; the beadle was in a fine temper.",
    ]
    # Written a piece at a time: an import's end would take it for his at once
    # (`test_a_calling_said_beside_one_name_is_that_characters_in_the_cast_after_an_import`).
    for number, text in enumerate(story * 2):
        app.story.continue_story("workhouse", "", f"{text} ({number})")
    found = suggest(app.story, "workhouse").suggestions
    calling = next(s for s in found if s.other == "the beadle")
    assert (calling.action, calling.name, calling.mentions) == ("alias", "Mr. Bumble", 6)
    assert "'Mr. Bumble, the beadle'" in calling.reason
    before = character(app.story, "workhouse", "Mr. Bumble").mentions
    after = correct(app.story, "workhouse", calling.action, calling.name, calling.other)
    assert after.mentions == before + 6


def test_a_title_said_alone_of_someone_is_suggested_and_accepted_as_a_character(app: App) -> None:
    story = [
        '"It is nothing," said the Marquis to Gaspard, and Gaspard bowed.',
        "The carriage of the Marquis rolled on through the village.",
        "The Marquis looked out at the fountain; Gaspard stood by it.",
        "Night fell on the chateau of the Marquis.",
    ]
    for number, text in enumerate(story * 6):  # written, not imported: no import's end
        app.story.continue_story("chateau", "", f"{text} ({number})")
    found = suggest(app.story, "chateau").suggestions
    alone = next(s for s in found if s.action == "kind")
    assert (alone.name, alone.other, alone.mentions) == ("Marquis", "character", 24)
    after = correct(app.story, "chateau", alone.action, alone.name, alone.other)
    assert (after.kind, after.mentions) == ("character", 24)
    # Declined instead, the name is marked as no character, and not offered again.
    undo(app.story, "chateau")
    assert decline(app.story, "chateau", alone).kind == "other"
    assert all(s.action != "kind" for s in suggest(app.story, "chateau").suggestions)


def test_a_title_said_alone_of_someone_is_a_character_of_the_cast_after_an_import(
    app: App,
) -> None:
    # A Tale of Two Cities: "the Marquis" (63 times, speaking 18) was a suggestion only.
    story = [
        '"It is nothing," said the Marquis to Gaspard, and Gaspard bowed.',
        "The carriage of the Marquis rolled on through the village.",
        "The Marquis looked out at the fountain; Gaspard stood by it.",
        "Night fell on the chateau of the Marquis.",
    ]
    told(app, "chateau", story, times=6)  # and the import's end
    marquis = character(app.story, "chateau", "the Marquis")
    assert (marquis.kind, marquis.mentions) == ("character", 24)
    assert all(s.action != "kind" for s in suggest(app.story, "chateau").suggestions)
    # The writer may think otherwise: no character, it stays so through the import's end.
    correct(app.story, "chateau", "kind", "the Marquis", "other")
    app.story.resolve_cast("chateau")
    assert character(app.story, "chateau", "the Marquis").kind == "other"


def test_a_name_the_story_says_a_character_is_called_by_is_suggested_and_accepted(
    app: App,
) -> None:
    story = [
        "Tobin Marsh was the smallest hand aboard the Gull. They called him Cricket on board.",
        "Cricket ran up the shrouds at dawn, and Nell Quarry watched him from the deck.",
        "Nell Quarry sent Cricket below for rope. Cricket came back with the wrong rope.",
        "Tobin Marsh laughed at himself, and Nell Quarry laughed with him.",
    ]
    for number, text in enumerate(story * 2):
        app.story.continue_story("gull", "", f"{text} ({number})")
    found = suggest(app.story, "gull").suggestions
    nickname = next(s for s in found if "called" in s.reason)
    assert (nickname.name, nickname.other) == ("Tobin Marsh", "Cricket")
    assert "They called him Cricket on board." in nickname.evidence
    before = character(app.story, "gull", "Tobin Marsh").mentions
    after = correct(app.story, "gull", nickname.action, nickname.name, nickname.other)
    assert after.mentions >= before + 6 and "Cricket" in after.aliases
    assert all("called" not in s.reason for s in suggest(app.story, "gull").suggestions)


def test_a_title_a_character_comes_into_is_suggested_for_them(app: App) -> None:
    story = [
        "Harry Ashdown walked on the cliff with Nell Quarry. Harry Ashdown said little.",
        "A letter came for Harry Ashdown. His father had died. Harry, now Lord Brantwell, "
        "went up by the noon train.",
        "Lord Brantwell came down in black. Nell Quarry ran to meet Lord Brantwell at the gate.",
        "Lord Brantwell spoke of the funeral, and Nell Quarry listened to Lord Brantwell.",
    ]
    written(app, "cliff", story, times=2)  # an import's end takes it itself
    found = suggest(app.story, "cliff").suggestions
    title = next(s for s in found if s.other == "Lord Brantwell")
    assert (title.action, title.name) == ("merge", "Harry Ashdown")
    assert "now Lord Brantwell" in title.evidence
    after = correct(app.story, "cliff", title.action, title.name, title.other)
    assert "Lord Brantwell" in after.aliases


def test_a_married_name_a_character_comes_into_is_suggested_for_her(app: App) -> None:
    # A tester's story: "Margaret, who was now Mrs. Dunmore" (she married Gerald Dunmore).
    story = [
        "Margaret Ellery sat by the stove with Gerald Dunmore. Margaret laughed at the snow.",
        "Then Margaret, who was now Mrs. Dunmore, came in from the terrace.",
        '"Mrs. Dunmore," said Hollis, and Mrs. Dunmore turned at last.',
        "Gerald Dunmore looked at the fire while Mrs. Dunmore answered Hollis.",
    ]
    written(app, "villa", story, times=2)  # an import's end takes it itself
    found = suggest(app.story, "villa").suggestions
    married = next(s for s in found if s.other == "Mrs. Dunmore")
    assert (married.action, married.name) == ("merge", "Margaret")
    assert "now Mrs. Dunmore" in married.evidence


#: Mrs. Weston, once Miss Taylor, as the story says outright (Emma).
HARTFIELD = [
    "Miss Taylor smiled at Emma Hale across the table. Miss Taylor said nothing.",
    "Mrs. Weston walked to the gate with Emma Hale, and Emma Hale took her arm.",
    "Neither your father nor Mrs. Weston (poor Miss Taylor that was) would suffer it.",
    "Mr. Hale sighed for Miss Taylor, though Mrs. Weston laughed at Miss Taylor's name.",
]


def test_a_name_she_bore_before_her_marriage_is_suggested_for_her_though_they_meet(
    app: App,
) -> None:
    # Emma: "Mrs. Weston (poor Miss Taylor that was)"; Mr. Woodhouse names the two in one
    # sentence now and then, which made "Miss Taylor" (48 times) another woman.
    written(app, "hartfield", HARTFIELD, times=2)  # an import's end takes it itself
    found = suggest(app.story, "hartfield").suggestions
    former = next(s for s in found if s.other == "Miss Taylor")
    assert (former.action, former.name) == ("merge", "Mrs. Weston")
    assert "Miss Taylor that was" in former.evidence and "was 'Miss Taylor'" in former.reason


def test_each_story_numbers_its_corrections_and_never_gives_a_number_twice(voyage: App) -> None:
    from loci.errors import NotFoundError

    for number, text in enumerate(VOYAGE * 3):
        voyage.story.continue_story("other", "", f"{text} ({number})")
    correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Captain")
    correct(voyage.story, "other", "alias", "Captain Hawkes", "the Captain")
    listed = suggest(voyage.story, "other").corrections
    assert [c.split(":")[0] for c in listed] == ["#1"]  # its own first, whatever "voyage" did
    correct(voyage.story, "voyage", "kind", "Nell Quarry", "other")
    assert undo(voyage.story, "voyage").undone.startswith("#2: ")
    again = correct(voyage.story, "voyage", "kind", "Nell Quarry", "other")
    assert again.corrections[-1].startswith("#3: ")  # #2 is never given again
    with pytest.raises(NotFoundError):
        undo(voyage.story, "voyage", 2)  # undone already: names nothing now
    assert undo(voyage.story, "other", 1).undone.startswith("#1: ")
    assert [c.split(":")[0] for c in suggest(voyage.story, "voyage").corrections] == ["#1", "#3"]


def test_a_nickname_a_question_asks_about_is_suggested_for_the_one_named_in_answer(
    app: App,
) -> None:
    scenes = [
        "Captain Tobin Marsh walked the deck of the Gull. Captain Tobin Marsh said nothing.",
        "\u201cYe haven\u2019t seen Old Sparrow yet, have ye?\u201d cried Silas Crane.",
        "\u201cWho\u2019s Old Sparrow?\u201d said Nell Quarry.",
        "\u201cCaptain Tobin Marsh.\u201d",
        "That night Old Sparrow paced above, and Nell Quarry listened to Old Sparrow pace.",
    ]
    for number in range(3):
        app.story.continue_story("gull", "", "\n\n".join(scenes) + f" ({number})")
    found = suggest(app.story, "gull").suggestions
    called = next(s for s in found if "Sparrow" in s.other)
    assert (called.name, called.other) == ("Captain Tobin Marsh", "Old Sparrow")
    assert "\u201cCaptain Tobin Marsh.\u201d" in called.evidence
    after = correct(app.story, "gull", called.action, called.name, called.other)
    assert "Old Sparrow" in after.aliases and after.mentions >= 12


def test_an_epithet_that_is_the_last_word_of_one_characters_name_is_suggested(app: App) -> None:
    story = [
        '"Good morning," said the Tin Woodman, and Nell Quarry oiled his joints.',
        'The Woodman thanked her. "I can move again," answered the Tin Woodman.',
        "Nell Quarry laughed, and the Woodman swung his axe at the dead tree.",
        '"Where now?" asked the Tin Woodman. Nell Quarry pointed to the road.',
    ]
    told(app, "road", story)
    found = suggest(app.story, "road").suggestions
    epithet = next(s for s in found if s.other == "the Woodman")
    assert (epithet.action, epithet.name) == ("alias", "Tin Woodman")
    assert "only woodman" in epithet.reason
    before = character(app.story, "road", "Tin Woodman").mentions
    after = correct(app.story, "road", epithet.action, epithet.name, epithet.other)
    assert after.mentions == before + epithet.mentions


def test_maiden_and_married_names_are_written_one_before_the_other() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.suggestions import _one_before_the_other

    def written(name: str, first: int, *recent: int) -> Entity:
        seen = [Seen(at, "") for at in recent]
        return Entity(first, name, "character", 9, Seen(first, ""), seen, [name])

    maiden = written("Sallie Gardiner", 10, 40, 50, 900)  # once after the wedding: a needle
    married = written("Sallie Moffat", 100, 300, 400, 500)
    assert _one_before_the_other(maiden, married) and _one_before_the_other(married, maiden)
    # Two girls named all through the story ("Josie Pye", "Miss Josephine Barry").
    josie = written("Josie Pye", 10, 300, 500, 700)
    josephine = written("Miss Josephine Barry", 200, 400, 600, 800)
    assert not _one_before_the_other(josie, josephine)


def test_a_suggestion_the_writers_corrections_answered_is_not_offered_again(voyage: App) -> None:
    # A tester marked a lipstick's colour `other` and was offered it for a character again;
    # accepting undid the correction without a word.
    offered = [s.other for s in suggest(voyage.story, "voyage").suggestions]
    assert "the Captain" in offered
    correct(voyage.story, "voyage", "alias", "Captain Hawkes", "the Captain")
    correct(voyage.story, "voyage", "split", "Captain Hawkes", "the Captain")
    assert "the Captain" not in [s.other for s in suggest(voyage.story, "voyage").suggestions]
    undo(voyage.story, "voyage")
    undo(voyage.story, "voyage")
    correct(voyage.story, "voyage", "kind", "Nell Quarry", "other")
    assert all(s.other != "Nell Quarry" for s in suggest(voyage.story, "voyage").suggestions)


def test_a_suggestion_declined_is_not_offered_again_until_undone(voyage: App) -> None:
    from loci.errors import InvalidInputError, NotFoundError
    from loci.toolsets.story.curation import accept

    offered = next(
        s for s in suggest(voyage.story, "voyage").suggestions if s.other == "the Captain"
    )
    before = character(voyage.story, "voyage", "Captain Hawkes")
    done = accept(voyage.story, "voyage", [offered], declining=True)
    assert not done.refused and done.applied[0].name == "Captain Hawkes"
    after = character(voyage.story, "voyage", "Captain Hawkes")
    assert after.mentions == before.mentions and after.aliases == before.aliases  # cast as it was
    assert "'the Captain' kept apart from 'Captain Hawkes'" in after.corrections[-1]
    assert all(s.other != "the Captain" for s in suggest(voyage.story, "voyage").suggestions)
    undo(voyage.story, "voyage")
    assert any(s.other == "the Captain" for s in suggest(voyage.story, "voyage").suggestions)
    # Nothing the story never writes, and no name of the entity itself, is kept apart.
    with pytest.raises(NotFoundError, match="never writes 'the Admiral'"):
        correct(voyage.story, "voyage", "apart", "Captain Hawkes", "the Admiral")
    with pytest.raises(InvalidInputError, match="split it off"):
        correct(voyage.story, "voyage", "apart", "Nell Quarry", "Nell")
    assert suggest(voyage.story, "voyage").corrections == []


def test_a_name_with_a_title_the_story_writes_is_declined_as_written(app: App) -> None:
    from loci.toolsets.story.curation import accept

    # A Room with a View: "old Mrs. Butterworth", offered as her alias, could not be declined:
    # its title's full stop was looked for as "old mrs butterworth" ("never writes").
    told(
        app,
        "pension",
        [
            "Mrs. Butterworth knitted by the stove of the pension.",
            "Lucy Honeychurch smiled, and old Mrs. Butterworth nodded at her.",
        ],
        times=3,
    )
    offered = next(
        s for s in suggest(app.story, "pension").suggestions if s.other == "old Mrs. Butterworth"
    )
    done = accept(app.story, "pension", [offered], declining=True)
    assert not done.refused
    assert all(s.other != "old Mrs. Butterworth" for s in suggest(app.story, "pension").suggestions)


def test_a_name_marked_not_a_character_is_not_suggested_for_one(app: App) -> None:
    from loci.toolsets.story import store
    from loci.toolsets.story.heeded import heeded
    from loci.toolsets.story.models import CastSuggestion

    def heeded_now() -> list[CastSuggestion]:
        with app.db.snapshot() as conn:
            session = store.session(conn, "noir").id
            kept = app.story.graph.corrections(conn, session)
            return heeded([offered], kept, app.story.graph.entities(conn, session))

    told(app, "noir", ["Leo Sarnoff wore Black Cherry on his collar. Leo smiled."] * 3)
    offered = CastSuggestion(
        action="merge", name="Leo Sarnoff", other="Black Cherry", mentions=3, reason="", evidence=""
    )
    assert heeded_now() == [offered]
    correct(app.story, "noir", "kind", "Black Cherry", "other")
    assert heeded_now() == []
    correct(app.story, "noir", "kind", "Black Cherry", "character")
    assert heeded_now() == [offered]  # the writer's last word on its kind


def test_a_name_of_no_one_is_suggested_for_the_one_whose_company_it_keeps_if_it_acts() -> None:
    from collections import Counter

    from loci.toolsets.story.company import Company
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.kinds import Votes
    from loci.toolsets.story.suggestions import unplaced_suggestions

    def named(number: int, name: str, kind: Kind, mentions: int = 20) -> Entity:
        return Entity(number, name, kind, mentions, Seen(0, ""), [], [name])

    people = [named(1, "Leo Sarnoff", "character"), named(2, "Lorraine", "character")]
    people.append(named(3, "Hap", "character"))
    guest = named(4, "Black Cherry", "unknown", 5)
    company = Company()
    for (a, b), times in {(1, 4): 5, (1, 5): 6, (2, 3): 8, (2, 6): 4, (3, 6): 5, (4, 5): 3}.items():
        company.paragraph.setdefault(a, Counter())[b] += times
        company.paragraph.setdefault(b, Counter())[a] += times
    # A pet's name that acts ("Fritz barked") keeps its master's company: his.
    company.votes = {4: Votes(mentions=5, acts=2)}
    found = unplaced_suggestions([*people, guest], people, company)
    assert [(s.name, s.other) for s in found] == [("Leo Sarnoff", "Black Cherry")]
    # A tester's lipstick colour, worn by a woman of Leo's, never acts: no one's name.
    company.votes = {4: Votes(mentions=5)}
    assert unplaced_suggestions([*people, guest], people, company) == []


def test_a_title_called_out_is_suggested_for_the_storys_one_bearer_of_it() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.epithets import epithet_suggestions

    # A tester's first officer, "Commander Okafor", was called "Commander" again and again.
    said = '"Two life signs, Commander. One adult." Commander Okafor frowned at Vasquez.'
    text = "\n\n".join(f"{said} ({day})" for day in range(4))
    okafor = Entity(1, "Okafor", "character", 8, Seen(0, ""), [], ["Okafor", "Commander Okafor"])
    found = epithet_suggestions(text, [okafor])
    assert [(s.name, s.other, s.mentions) for s in found] == [("Okafor", "Commander", 4)]
    assert found[0].reason.startswith("'Commander' is called out 4 times")
    # Its evidence is a call, never the title in the narration (Kidnapped: 'said the captain'
    # was shown for "Captain" called out).
    narrated = text.replace("frowned at", "said the commander to")
    called = next(s for s in epithet_suggestions(narrated, [okafor]) if s.other == "Commander")
    assert called.evidence.startswith('"Two life signs, Commander.')
    sir = text.replace("Commander. One", "Sir. One").replace("Commander Okafor", "Sir Okafor")
    knight = Entity(1, "Okafor", "character", 8, Seen(0, ""), [], ["Okafor", "Sir Okafor"])
    assert epithet_suggestions(sir, [knight]) == []  # "Yes, Sir" is said to anyone


def test_a_title_its_carrier_calls_out_is_another_captains() -> None:
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.epithets import epithet_suggestions

    # Moby-Dick: "Ahab stolidly turned aside; then said to Mayhew, 'Captain, ...'" was the
    # evidence that "Captain" called out is Ahab.
    said = 'Ahab turned aside; then said to Mayhew, "Captain, I have a letter for thy mate."'
    text = "\n\n".join(f"{said} ({day})" for day in range(4))
    ahab = Entity(1, "Ahab", "character", 80, Seen(0, ""), [], ["Ahab", "Captain Ahab"])
    assert epithet_suggestions(text, [ahab]) == []
    heard = text.replace("Ahab turned aside; then said to Mayhew", "Stubb turned to Ahab")
    found = epithet_suggestions(heard, [ahab])
    assert [(s.name, s.other, s.mentions) for s in found] == [("Ahab", "Captain", 4)]


def test_two_entities_a_split_parted_are_not_suggested_as_one(app: App) -> None:
    # A tester split "Thomas Hale Sr." off "Tommy" (his son) and was offered a merge of him
    # with another of Tommy's names.
    from loci.toolsets.story import store
    from loci.toolsets.story.heeded import heeded
    from loci.toolsets.story.models import CastSuggestion

    told(app, "saga", ["Tobias Reed mended the nets by the quay.", "Mira Voss sang by the fire."])
    correct(app.story, "saga", "merge", "Mira Voss", "Tobias Reed")
    correct(app.story, "saga", "split", "Mira Voss", "Tobias Reed")
    offered = CastSuggestion(
        action="merge", name="Tobias Reed", other="Mira Voss", mentions=3, reason="", evidence=""
    )
    with app.db.snapshot() as conn:
        session = store.session(conn, "saga").id
        kept = app.story.graph.corrections(conn, session)
        assert heeded([offered], kept, app.story.graph.entities(conn, session)) == []


def test_a_name_whose_first_sentences_went_to_a_longer_name_keeps_its_earliest_left() -> None:
    # A tester split "Hale" off a character and saw an empty "introduced:".
    import json

    from loci.toolsets.story.resolution import entities

    recent = json.dumps([[40, "The Hale farm lay north."], [90, "Hale land again."]])
    row = (1, "Hale", 2, 40, "", recent, 1, "other")
    assert entities([row], [])[0].first.excerpt == "The Hale farm lay north."


def test_a_short_name_of_namesakes_of_two_generations_is_suggested_for_neither() -> None:
    # A tester's saga: "Tommy" (the son) was offered to "Thomas Hale Sr.", named last before
    # it far more often than "Thomas Hale Jr."
    from loci.toolsets.story.company import Company
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.suggestions import same_person_suggestions

    def named(number: int, aliases: list[str], mentions: int) -> Entity:
        return Entity(number, aliases[0], "character", mentions, Seen(0, ""), [], aliases)

    father = named(1, ["Thomas Hale Sr.", "Old Tom"], 5)
    son = named(2, ["Thomas Hale Jr.", "Young Tom"], 2)
    tommy = named(3, ["Tommy"], 30)
    text = "Thomas Hale Sr. gave the reins away.\n\n" + "Tommy drove.\n\n" * 27
    text += "Thomas Hale Jr. wrote home.\n\n" + "Tommy wrote.\n\n" * 3
    found = same_person_suggestions([father, son, tommy], Company(), text)
    assert all(s.other != "Tommy" for s in found)


def test_a_correction_naming_a_name_the_cast_missed_never_corrects_another_it_fits() -> None:
    # A tester's "kind Frances character" marked Fanny, Isabella's spaniel, and a merge into
    # "Frances" merged Hindley's wife into the dog: Fanny is a pet form of Frances. A
    # newcomer's `kind "Lady Jory" place` marked Jory: a name the story never writes was
    # taken for the entity whose names it fits, and the cast changed on a slip.
    from loci.errors import NotFoundError
    from loci.toolsets.story import correction_checks as checks
    from loci.toolsets.story.entity import Entity, Seen
    from loci.toolsets.story.lookup import holder

    fanny = Entity(1, "Fanny", "character", 2, Seen(0, ""), [], ["Fanny"])
    laurie = Entity(2, "Laurie", "character", 90, Seen(0, ""), [], ["Laurie", "Theodore Laurence"])
    cast = [fanny, laurie]
    text = "Fanny barked. Frances coughed, and Frances smiled at Laurie."
    assert holder(cast, "Frances") is None and holder(cast, "Fanny") is fanny
    assert checks.unheld(text, cast, ("kind", "Frances", "character"), "s") == "Frances"
    with pytest.raises(NotFoundError, match="the story writes it: `kind` adds it"):
        checks.unheld(text, cast, ("merge", "Frances", "Laurie"), "s")
    # Never written, it is refused, the one whose names it fits offered first.
    with pytest.raises(NotFoundError, match="'Teddy Laurence'; did you mean 'Laurie' or"):
        checks.unheld(text, cast, ("kind", "Teddy Laurence", "place"), "s")


def test_character_info_by_a_name_no_entity_holds_says_so(app: App) -> None:
    told(app, "nets", ["Tobias Reed mended the nets. Tobias Reed sang.", "Mira Voss sang."])
    exact = character(app.story, "nets", "Tobias Reed")
    assert exact.warning is None
    fitting = character(app.story, "nets", "Mr. Tobias Reed")
    assert fitting.name == "Tobias Reed" and fitting.warning is not None
    assert "no entity holds the name 'Mr. Tobias Reed'" in fitting.warning


def test_character_info_by_a_misspelt_name_offers_the_closest_names(app: App) -> None:
    # A newcomer's "story character harrowby Talow" said only "names no character": `merge`
    # offered "did you mean 'Tallow'?" for the same slip.
    from loci.errors import NotFoundError

    told(app, "nets", ["Tobias Reed mended the nets. Tobias Reed sang.", "Mira Voss sang."])
    with pytest.raises(NotFoundError, match=r"did you mean 'Tobias Reed'\?"):
        character(app.story, "nets", "Tobias Reid")
    with pytest.raises(NotFoundError) as far:
        character(app.story, "nets", "Zzyzx")
    assert "did you mean" not in str(far.value)
