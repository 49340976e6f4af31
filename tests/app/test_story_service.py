"""The story service on a real store and model: nothing archived is lost or changed."""

from __future__ import annotations

import pytest

from loci.app import App
from loci.errors import InvalidInputError, NotFoundError
from loci.toolsets.story import store
from tests.storytext import filler

SMALL = {"max_tokens": 1000, "chunk_size": 200}


def archive_and_window(app: App, session: str) -> tuple[list[store.Chunk], str, store.Session]:
    with app.db.snapshot() as conn:
        found = store.session(conn, session)
        return (
            store.chunks(conn, found.id),
            store.stream(conn, found.id, found.window_start),
            found,
        )


def test_every_archived_chunk_comes_back_byte_exact(app: App) -> None:
    texts = [filler(seed) + "  \n\twith odd  spacing, “quotes” and é" for seed in range(25)]
    app.story.continue_story("exact", "Begin with the mill.", texts[0], SMALL)
    for text in texts[1:]:
        app.story.continue_story("exact", "", text)
    chunks, window, found = archive_and_window(app, "exact")
    with app.db.snapshot() as conn:
        story = store.stream(conn, found.id)
    assert story == "\n\n".join(["Begin with the mill.", *texts])
    assert app.story.export("exact", prompts="omit") == "\n\n".join(texts)
    assert app.story.export("exact").startswith("> Writer's prompt: Begin with the mill.\n\n")
    assert len(chunks) >= 5
    for chunk in chunks:
        assert chunk.content == story[chunk.start : chunk.end]
    assert "".join(c.content for c in chunks) + window == story
    assert found.window_tokens == app.story.counter.count(window)


def test_one_input_larger_than_the_window_is_archived_down_to_the_target(app: App) -> None:
    huge = "\n\n".join(filler(seed, sentences=30) for seed in range(12))
    result = app.story.continue_story("huge", "", huge, SMALL)
    assert app.story.counter.count(huge) > 3 * SMALL["max_tokens"]
    assert result.relieved and result.window_tokens <= 400
    assert all(chunk.tokens <= SMALL["chunk_size"] for chunk in result.archived)
    chunks, window, _ = archive_and_window(app, "huge")
    assert "".join(c.content for c in chunks) + window == huge


def test_settings_change_for_the_session_only(app: App) -> None:
    app.story.continue_story("a", "", "First.", {"max_tokens": 2000})
    app.story.continue_story("b", "", "First.")
    assert app.story.stats("a").settings.max_tokens == 2000
    assert app.story.stats("b").settings.max_tokens == 12_000
    with pytest.raises(InvalidInputError, match="relief_percentage must be below"):
        app.story.continue_story("a", "", "Second.", {"relief_percentage": 0.85})
    with pytest.raises(InvalidInputError, match="max_tokens: Input should be greater"):
        app.story.continue_story("a", "", "Second.", {"max_tokens": 10})
    assert app.story.stats("a").settings.relief_percentage == 0.4
    assert app.story.stats("a").interactions == 1


def test_bad_input_changes_nothing(app: App) -> None:
    app.story.continue_story("kept", "", "Ada Quill wrote the first line.")
    before = app.story.export("kept")
    for args in [("kept", "", ""), ("kept", "", "x\x00y"), ("../kept", "", "x")]:
        with pytest.raises(InvalidInputError):
            app.story.continue_story(*args)
    with pytest.raises(InvalidInputError, match="limit"):
        app.story.continue_story("kept", "", "x" * (300 * 1024))
    with pytest.raises(NotFoundError):
        app.story.stats("missing")
    assert app.story.export("kept") == before
    assert app.story.stats("kept").interactions == 1
    assert [s.session_id for s in app.story.sessions().sessions] == ["kept"]


def test_characters_are_confirmed_after_repeated_mentions_and_pronouns_never(app: App) -> None:
    app.story.continue_story(
        "cast",
        "",
        '"We sail at dawn," said Mira Voss. She checked the ropes. He watched her. '
        "Mira Voss laughed. Tobias Reed waved once from the pier.",
    )
    characters = app.story.stats("cast").characters
    from loci.toolsets.story.lookup import character, entities_of

    names = [e.name for e in entities_of(app.story, "cast")]
    assert names == ["Mira Voss"] and characters == 1
    assert character(app.story, "cast", "Voss").name == "Mira Voss"
    with pytest.raises(NotFoundError):
        character(app.story, "cast", "She")


def test_a_character_named_once_in_full_is_listed_and_other_names_once_are_not(
    app: App,
) -> None:
    # Northanger Abbey's "Charles Hodges will plague me to death": a given name and a family
    # name say someone a reader lists, though the story names him once. A title and a name
    # ("Captain Hunt"), or words that are no given name ("Holy Writ"), wait for a second;
    # a plain title and a family name do not (Daddy-Long-Legs' "Mr. Kellogg", the minister),
    # unless no family carries the word ("Mr. Philanthropist", a joke name).
    app.story.continue_story(
        "once",
        "",
        '"We sail at dawn," said Mira Voss. Mira Voss laughed. Charles Hodges will plague me '
        "to death, I dare say. Captain Hunt waved once from the pier. She swore by Holy Writ "
        "and walked over Magdalen Bridge. Do you remember Mr. Kellogg, the minister? "
        "Mr. Philanthropist sent roses.",
    )
    from loci.toolsets.story.lookup import entities_of

    listed = {e.name: e.mentions for e in entities_of(app.story, "once")}
    assert listed == {"Mira Voss": 2, "Charles Hodges": 1, "Mr. Kellogg": 1}
    every = {e.name: e.confirmed for e in entities_of(app.story, "once", kind=None)}
    assert every["Captain Hunt"] is False and every["Charles Hodges"] is True
    assert every["Mr. Philanthropist"] is False
    assert app.story.stats("once").characters == 3


def test_a_vow_in_the_text_opens_a_detected_thread_the_agent_can_resolve(app: App) -> None:
    app.story.continue_story(
        "vow", "", "Mira Voss vowed to find the stolen compass before winter. The rain went on."
    )
    app.story.continue_story(
        "vow",
        "",
        '"Hush," said Tobias Reed, and Tobias Reed resolved to sail alone; Mira Voss laughed.',
    )
    detected = app.story.plot_threads("vow").active
    assert {(t.name, t.source, tuple(t.entities)) for t in detected} == {
        ("Mira Voss's vow: find the stolen compass before winter", "detected", ("Mira Voss",)),
        ("Tobias Reed's resolution: sail alone", "detected", ("Tobias Reed",)),
    }
    detected = [t for t in detected if t.entities == ["Mira Voss"]]
    assert detected[0].description.startswith("Mira Voss vowed to find the stolen compass")
    resolved = app.story.update_thread("vow", detected[0].name, "resolve", "Found in the well.")
    assert resolved.status == "resolved" and resolved.source == "detected"
    assert [t.entities for t in app.story.plot_threads("vow").active] == [["Tobias Reed"]]


def test_only_clear_threads_are_detected_once_each_and_never_credited_to_a_place(
    app: App,
) -> None:
    story = [
        "In Paris, after supper, he decided to get back to his house by nightfall.",
        "Jo March undertook to pinch the papered locks with a pair of hot tongs.",
        "[Illustration: Jo March undertook to pinch the papered locks]",
        "Mira Voss had solemnly vowed to find the stolen compass. Mira Voss smiled.",
        "Mira Voss had solemnly vowed to find the stolen compass. Mira Voss smiled.",
        "Greystone Abbey promised to be a cold house all winter.",
        "Tobias Reed decided to go.",
    ]
    for text in story:
        app.story.continue_story("plots", "", text)
    names = sorted(t.name for t in app.story.plot_threads("plots").active)
    assert names == [
        "Jo March's undertaking: pinch the papered locks",
        "Mira Voss's vow: find the stolen compass",
    ] or names == [
        "Greystone Abbey's promise: be a cold house all winter",
        "Jo March's undertaking: pinch the papered locks",
        "Mira Voss's vow: find the stolen compass",
    ]
    # Whatever NER made of the abbey, once the cast knows it for a place it credits no thread.
    from loci.toolsets.story.curation import correct

    correct(app.story, "plots", "kind", "Greystone Abbey", "place")
    assert sorted(t.name for t in app.story.plot_threads("plots").active) == [
        "Jo March's undertaking: pinch the papered locks",
        "Mira Voss's vow: find the stolen compass",
    ]


def test_a_title_after_the_opens_a_thread_as_its_person_and_a_river_none(app: App) -> None:
    # Dracula: "in London the Count decided to get back to his castle by water" opened no
    # thread: "the Count" is no name NER finds, and London, further back, is a place.
    story = [
        "My surmise is that in London the Count decided to get back to his castle by water.",
        "At dawn the Thames decided to rise over the lower fields.",
        "Then the Captain had solemnly vowed to bring the ship home.",
        # Persuasion: a family's thread was "Harvilles's promise".
        "The Harvilles had promised to come with her and stay at Uppercross.",
    ]
    for text in story:
        app.story.continue_story("epithets", "", text)
    assert sorted(t.name for t in app.story.plot_threads("epithets").active) == [
        "the Captain's vow: bring the ship home",
        "the Count's decision: get back to his castle by water",
        "the Harvilles' promise: come with her and stay at Uppercross",
    ]


def test_a_pronoun_or_the_narrators_i_opens_a_thread_when_its_person_is_clear(
    app: App,
) -> None:
    # Jane Eyre opened no thread: its heroine's resolutions are the narrator's "I resolved",
    # and third-person novels write "She had resolved" as often as "Anne had resolved".
    story = [
        # One person of the pronoun's sex named in its paragraph; the aim runs past a line
        # break.
        "Tobias Reed rode home with Mira Voss. It rained. He had resolved\nto tell his father "
        "everything.",
        # Two people named: the pronoun could be either's.
        "Tobias Reed and Hugh Moss rode home. He resolved to sell the farm at once.",
        # A woman named, and "he": someone the passage does not name.
        "Mira Voss rode home. He resolved to sell the old mill.",
        # Dialogue between: whoever speaks may be anyone.
        'Tobias Reed came in. "Sit down," said the old woman. He decided to wait for the post.',
        # The one who speaks, named after the quotation, is who goes on.
        '"Go home," said Hugh Moss. He promised to bring the horses round.',
        # Told in the third person, "she" of a paragraph naming another woman may be the
        # heroine the story takes up by "she" most (Persuasion's Anne, beside Mrs Smith).
        "Mira Voss laughed as she ran. Mira Voss sang as she danced. Mira Voss read as she "
        "ate. Mira Voss slept as she wished.",
        "Ada Lane came to tea. She had promised to bring the letters home.",
        # The narrator's "I", in narration.
        "The winter was long. I resolved to leave the house before the spring came.",
        # A relative clause's aim has lost its object; "be" and one word is a judgement.
        "The winter came. The letter which I had promised to send to her stayed in my desk.",
        "Her tale of the mill Hugh Moss resolved to be false.",
        # An aim of a pronoun alone has lost its object to an earlier sentence.
        "Tobias Reed found the letter. Tobias Reed resolved to peruse it.",
        "The employment was poor. Hugh Moss promised to obtain for me.",
        "Hugh Moss wanted work. Hugh Moss promised to obtain for me the employment.",
        # A plain text's dash ends the aim as the printed one does.
        "Tobias Reed had decided to stay with Hugh Moss--why, nobody knew.",
        # A long aim is cut before a clause: Frankenstein's "visit the spot where my poor
        # William had" ended on a hanging "had".
        "Hugh Moss resolved to visit the spot where his poor brother had been lost.",
        # Nor inside a name: Daddy-Long-Legs' "stay until I've written 114 novels like
        # Anthony | Trollope's mother" ended on "Anthony".
        "Ada Lane had decided to stay until she wrote 114 novels like Anthony Trollope's mother.",
        "Mira Voss had resolved to visit dear old kind Aunt Mary Ann Smith Jones today.",
        # A speaker's "I" is no narrator's.
        '"I promised to write every week," said Mira Voss.',
    ]
    for text in story:
        app.story.continue_story("pronouns", "", text)
    found = {(t.name, tuple(t.entities)) for t in app.story.plot_threads("pronouns").active}
    assert found == {
        ("Tobias Reed's resolution: tell his father everything", ("Tobias Reed",)),
        ("Hugh Moss's promise: bring the horses round", ("Hugh Moss",)),
        ("Hugh Moss's resolution: visit the spot", ("Hugh Moss",)),
        ("Hugh Moss's promise: obtain for me the employment", ("Hugh Moss",)),
        ("Tobias Reed's decision: stay with Hugh Moss", ("Tobias Reed",)),
        ("Ada Lane's decision: stay until she wrote 114 novels", ("Ada Lane",)),
        ("Mira Voss's resolution: visit dear old kind Aunt Mary Ann Smith Jones", ("Mira Voss",)),
        ("the narrator's resolution: leave the house before the spring came", ()),
    }


def test_an_i_in_a_novel_of_letters_or_journals_is_its_writers(app: App) -> None:
    # Lady Susan, Dracula: every part is some writer's "I"; "the narrator" says no one.
    story = [
        "IV\n\n_Mrs. Vernon to Lady De Courcy._\n\nChurchhill.\n\nMy dear Mother,\u2014Mr. "
        "Vernon rode out. I resolved to write to Reginald at once.",
        # A part's heading holds for the pieces after it, till the next.
        "The rain kept on. I promised to send the children to Parklands.",
        "_From the same to the same._\n\nI had resolved to keep the letter from him.",
        "CHAPTER I\n\nJONATHAN HARKER\u2019S JOURNAL\n\n3 May. The road was long.",
        "I decided to go on to the castle before night.",
    ]
    for text in story:
        app.story.continue_story("letters", "", text)
    found = {(t.name, tuple(t.entities)) for t in app.story.plot_threads("letters").active}
    assert found == {
        ("Mrs. Vernon's resolution: write to Reginald at once", ("Mrs. Vernon",)),
        ("Mrs. Vernon's promise: send the children to Parklands", ("Mrs. Vernon",)),
        ("Mrs. Vernon's resolution: keep the letter from him", ("Mrs. Vernon",)),
        ("Jonathan Harker's decision: go on to the castle before night", ("Jonathan Harker",)),
    }


def test_two_processes_writing_one_story_keep_it_whole(app: App, second_app: App) -> None:
    texts = [f"Part {n}. " + filler(400 + n) for n in range(16)]
    app.story.continue_story("shared", "", texts[0], SMALL)
    for n, text in enumerate(texts[1:], start=1):
        (second_app if n % 2 else app).story.continue_story("shared", "", text)
    story = second_app.story.export("shared")
    assert story == "\n\n".join(texts)
    chunks, window, found = archive_and_window(app, "shared")
    assert "".join(c.content for c in chunks) + window == story
    assert found.interactions == 16 and app.story.stats("shared").reliefs >= 2
    from loci.toolsets.story.lookup import search

    # Each process sees the passages the other wrote.
    hits = search(app.story, "shared", "Part 15", max_results=3).hits
    assert any("Part 15." in (h.chunk or h.passage) for h in hits)


def test_search_by_entity_type_keeps_passages_naming_one(app: App) -> None:
    app.story.continue_story(
        "kinds", "", "The fog lay thick in London. They met in London at noon."
    )
    app.story.continue_story(
        "kinds", "", "Mira Voss laughed. Mira Voss counted the fog-bound ships."
    )
    from loci.toolsets.story.lookup import search

    places = search(app.story, "kinds", "fog", entity_type="place").hits
    people = search(app.story, "kinds", "fog", entity_type="character").hits
    assert places and all("London" in h.entities for h in places)
    assert people and all("Mira Voss" in h.entities for h in people)
    with pytest.raises(InvalidInputError, match="entity_type"):
        search(app.story, "kinds", "fog", entity_type="theme")  # type: ignore[arg-type]


def test_a_hits_entities_are_those_its_answer_names(app: App) -> None:
    # A tester's hit listed names its passage, cut to the answer, no longer held.
    from loci.toolsets.story.lookup import entities_of, search

    story = (
        "Mira Voss sold the rudder of the Gull to Tobias Reed at the quay. Tobias Reed paid. "
        "The gulls wheeled over the harbour wall and cried at the boats coming in. "
        "The tide came in over the shingle, grey and slow, and the nets were hung to dry. "
        "Smoke rose from the chimneys of the fish sheds along the front all afternoon. "
        "A cart rattled down the cobbles with a load of barrels for the inn by the quay. "
        "Children ran along the sea wall shouting at the gulls, and a dog barked at them. "
        "The church bell rang the hour, and the fishermen's wives came down to the water. "
        "A fog bank stood far out past the point, waiting for the evening to roll in. "
        "Somebody was singing in the sail loft, an old song about a drowned sailor. "
        "The lighthouse keeper polished the great brass lamp until it shone."
    )
    app.story.continue_story("cut", "", story)
    hits = search(app.story, "cut", "Who polished the brass lamp?", max_results=1).hits
    assert "polished the great brass lamp" in hits[0].passage
    assert "Mira Voss" not in hits[0].passage and hits[0].entities == []
    # A tester's hit named "Hello", which the cast holds for no one.
    sold = search(app.story, "cut", "Who sold the rudder of the Gull?", max_results=1).hits[0]
    gull = [e for e in entities_of(app.story, "cut", None) if e.name == "Gull"]
    assert gull and gull[0].kind not in ("character", "place", "household")
    assert "Mira Voss" in sold.entities and "Gull" not in sold.entities


def test_a_session_named_in_another_case_is_offered(app: App) -> None:
    # A newcomer typed "Gatsby" for the session "gatsby" and read only "no story session".
    app.story.continue_story("gatsby", "", "In my younger and more vulnerable years.")
    with pytest.raises(NotFoundError, match=r"no story session 'Gatsby' \(names are exact: did "
                       r"you mean 'gatsby'\?\)"):  # fmt: skip
        app.story.stats("Gatsby")
    with pytest.raises(
        NotFoundError, match="no story session 'nope' \\(this data folder holds 'gatsby'\\)"
    ):
        app.story.stats("nope")
    # Of many, how many there are and where they are listed.
    for number in range(5):
        app.story.continue_story(f"draft{number}", "", "It rained.")
    with pytest.raises(
        NotFoundError, match=r"holds 6: list_story_sessions, `loci story stats`, lists them\)"
    ):
        app.story.stats("nope")
    # A name spelt nearly so is offered too.
    with pytest.raises(
        NotFoundError, match=r"no story session 'gatsbyy' \(did you mean 'gatsby'\?\)"
    ):
        app.story.stats("gatsbyy")
