"""Reading story text: sentences, names as written, the gazetteer, word case and meetings."""

from __future__ import annotations

from loci import sentences
from loci.toolsets.story.ingest import excerpt
from loci.toolsets.story.mentions import Extractor, Mention, cleaned, with_given_name, with_sexes
from loci.toolsets.story.reading import pairs, word_cases


def test_a_sentence_never_ends_at_a_title_or_an_initial_nor_inside_dialogue() -> None:
    text = (
        '"Hurrah!" cried Jo. Mr. Darcy and Mr. Bingley came. R. Walton wrote. She smiled! '
        "A letter came from Messrs. Maw."
    )
    assert [text[a:b].strip() for a, b in sentences.spans(text)] == [
        '"Hurrah!" cried Jo.',
        "Mr. Darcy and Mr. Bingley came.",
        "R. Walton wrote.",
        "She smiled!",
        "A letter came from Messrs. Maw.",
    ]
    at = text.index("Bingley")
    assert excerpt(text, at, at + 7) == "Mr. Darcy and Mr. Bingley came."
    assert excerpt("Then Mr. Darcy looked at Lizzy.", 10, 15) == "Then Mr. Darcy looked at Lizzy."
    # A tester's search hit began "Hannah Lindqvist asked, when the last crate had gone past."
    asked = '"What is she saying?" Hannah Lindqvist asked, when it had gone. "Stop!" The door shut.'
    assert sentences.split(asked) == [
        '"What is she saying?" Hannah Lindqvist asked, when it had gone.',
        '"Stop!"',
        "The door shut.",
    ]


def test_a_blank_line_ends_a_sentence_a_line_break_alone_does_not() -> None:
    text = "The Lamplighter of Saltmarrow\n\nIn the town the lamps\nwere lit. He sighed."
    assert sentences.split(text) == [
        "The Lamplighter of Saltmarrow",
        "In the town the lamps\nwere lit.",
        "He sighed.",
    ]
    at = text.index("town")
    assert excerpt(text, at, at + 4) == "In the town the lamps were lit."


def test_a_mention_in_a_long_sentence_is_shown_with_its_cuts_marked() -> None:
    # Persuasion's first sentence runs on through a family's births: Anne's mention showed
    # "James Stevenson, Esq. of South Park, ..." as if a sentence began there.
    births = "; ".join(f"Child{n}, born June {n}, 1785" for n in range(1, 30))
    text = f"Walter Elliot married Elizabeth, who had issue {births}; and Anne, born 1787."
    at = text.index("Anne")
    shown = excerpt(text, at, at + 4)
    assert shown.startswith(sentences.ELLIPSIS) and "Anne, born 1787." in shown
    assert not shown.endswith(sentences.ELLIPSIS)  # it ends where the sentence does
    at = text.index("Walter")
    opening = excerpt(text, at, at + 6)
    assert opening.startswith("Walter Elliot") and opening.endswith(sentences.ELLIPSIS)
    assert len(opening) <= 281


def surface_in(text: str, written: str) -> str | None:
    """The name `cleaned` finds where `text` writes `written` (None for none)."""
    at = text.index(written)
    found = cleaned(text, at, at + len(written))
    return None if found is None else found.surface


def test_a_name_ends_where_its_capitalised_words_end_and_starts_after_stop_words() -> None:
    text = (
        "Jo warmly agreed. Mr. Darcy;--but no. But Ahab went. Then Meg Mr. Brooke came. "
        "Where's Laurie? O Laurie, come!"
    )

    assert surface_in(text, "Jo warmly") == "Jo"
    assert surface_in(text, "Mr. Darcy;--but") == "Mr. Darcy"
    assert surface_in(text, "But Ahab") == "Ahab"
    assert surface_in(text, "Meg Mr. Brooke") == "Meg"
    assert surface_in(text, "Where's Laurie") == "Laurie"
    assert surface_in(text, "O Laurie") == "Laurie"
    assert surface_in(text, "Then") is None or surface_in(text, "Then") == "Then"


def test_a_word_opening_a_sentence_before_a_full_name_is_no_word_of_it() -> None:
    text = (
        '"Sold Walter Ridley\'s bottom field," he said. Marrying Sibyl Vane was madness. '
        "Long John Silver laughed. Captain Tom Hawkes rose. Nguyen Thi Lan smiled."
    )
    assert surface_in(text, "Sold Walter Ridley") == "Walter Ridley"
    assert surface_in(text, "Marrying Sibyl Vane") == "Sibyl Vane"
    assert surface_in(text, "Long John Silver") == "Long John Silver"  # a nickname's word
    assert surface_in(text, "Captain Tom Hawkes") == "Captain Tom Hawkes"
    # A tester's nurse, family name first: "Nguyen" is a family name many carry.
    assert surface_in(text, "Nguyen Thi Lan") == "Nguyen Thi Lan"


def test_a_title_ending_a_name_is_its_last_word_not_the_start_of_another() -> None:
    text = (
        "But the Monkey King shook his head. Then spoke the Monkey King. Dorothy wept. "
        "There was Tom King, and Meg Mr. Brooke, and the Snow Queen."
    )
    assert surface_in(text, "Monkey King shook") == "Monkey King"
    assert surface_in(text, "Monkey King. Dorothy") == "Monkey King"
    assert surface_in(text, "Snow Queen") == "Snow Queen"
    assert surface_in(text, "Tom King,") == "Tom"  # a given name: King may be another's
    assert surface_in(text, "Meg Mr. Brooke") == "Meg"


def test_a_name_made_with_of_is_whole_but_a_persons_own_name_ends_before_of() -> None:
    text = (
        "Then the Wicked Witch of the West laughed. The Queen of the Field Mice bowed. "
        "Mr. Darcy of Pemberley came, and Jane of Longbourn. The Duke of Wellington sat."
    )

    assert surface_in(text, "the Wicked Witch of the West laughed") == "Wicked Witch of the West"
    assert surface_in(text, "The Queen of the Field Mice bowed") == "Queen of the Field Mice"
    assert surface_in(text, "The Duke of Wellington sat") == "Duke of Wellington"
    assert surface_in(text, "Mr. Darcy of Pemberley") == "Mr. Darcy"
    assert surface_in(text, "Jane of Longbourn") == "Jane"
    assert surface_in(text, "Witch of the") == "Witch"  # "of" joins only a capitalised name


def test_a_longer_name_wins_over_the_names_inside_it() -> None:
    text = (
        "Dorothy looked at the Wicked Witch of the West, who was very angry. The Wicked "
        'Witch of the West laughed. "You have killed her," said the Witch of the North.'
    )
    found = Extractor().mentions(text, [])
    assert [m.surface for m in found if "West" in m.surface or "North" in m.surface] == [
        "Wicked Witch of the West",
        "Wicked Witch of the West",
        "Witch of the North",
    ]
    assert [m.said for m in found if m.surface == "Witch of the North"] == [True]


def test_a_name_after_another_and_of_is_where_the_other_comes_from() -> None:
    text = "Maren of Saltcote closed the door. Most of Maren's friends laughed."
    found = Extractor().mentions(text, ["Maren", "Saltcote"])
    cues = {(m.surface, m.start): (m.place_word, m.acts) for m in found}
    assert cues[("Saltcote", text.index("Saltcote"))] == (True, False)
    assert cues[("Maren", text.rindex("Maren"))] == (False, False)


def test_a_place_is_where_one_is_or_goes_not_what_one_owns_or_says_to() -> None:
    text = (
        "The map lay in Billy Bones\u2019s chest, and Jim sat in Bristol. We shall drive "
        "directly to Clifton, said Isabella to Catherine. You must go to the Great Oz."
    )
    known = ["Billy Bones", "Bristol", "Clifton", "Catherine", "Great Oz"]
    cues = {m.surface: m.place_word for m in Extractor().mentions(text, known)}
    assert cues["Billy Bones"] is False and cues["Catherine"] is False
    assert cues["Great Oz"] is False  # going to someone called by an epithet
    assert cues["Bristol"] is True and cues["Clifton"] is True


def test_a_look_at_a_name_is_no_place_cue() -> None:
    text = "The Professor looked long at Lucy, and Mina smiled up at Arthur in Whitby."
    known = ["Lucy", "Mina", "Arthur", "Whitby"]
    cues = {m.surface: m.place_word for m in Extractor().mentions(text, known)}
    assert cues == {"Lucy": False, "Mina": False, "Arthur": False, "Whitby": True}


def test_the_gazetteer_finds_a_known_name_across_a_line_break_and_with_its_surname() -> None:
    text = "Then Amy March came with Miss Darcy and Theodore\nLaurence, and Amy alone."
    known = ["Amy", "Mrs. March", "Darcy", "Theodore Laurence"]
    found = [m.surface for m in Extractor().known_mentions(text, known)]
    assert found == ["Amy March", "Miss Darcy", "Theodore Laurence", "Amy"]
    sailor = "\u201cAy,\u201d said Cap\u2019n Silver, and Little Pip laughed."
    found = [m.surface for m in Extractor().known_mentions(sailor, ["Silver", "Little Pip"])]
    assert found == ["Cap\u2019n Silver", "Little Pip"]
    # A title ending a chapter's title is no title of the name that opens the chapter.
    opening = "CHAPTER III. Agnes and the Captain\n\nAgnes walked to the mill."
    found = [m.surface for m in Extractor().known_mentions(opening, ["Agnes", "the Captain"])]
    assert found == ["Agnes", "the Captain", "Agnes"]


def test_a_known_epithet_is_no_mention_where_a_longer_name_follows_its_article() -> None:
    # A tester aliased "the Queen" to "Queen of the Marsh": "the Queen of the Marsh" was then
    # counted as both.
    known = ["the Queen", "Queen of the Marsh"]
    text = "Then the Queen of the Marsh rose from the reeds. The Queen smiled."
    found = [m.surface for m in Extractor().known_mentions(text, known)]
    assert found == ["Queen of the Marsh", "The Queen"]


def test_an_epithet_is_not_the_head_of_a_name_with_of() -> None:
    from loci.toolsets.story.epithets import epithets

    text = " ".join(["The Queen of the Marsh rose, and the Queen of the Marsh spoke."] * 2)
    text += " The Queen smiled. The Queen sang. The Queen slept."
    assert [(e.written, e.count) for e in epithets(text)] == [("the Queen", 3)]


def test_a_name_does_not_run_on_into_the_label_of_the_next_line() -> None:
    # A tester's story quoted emails: "Rebecca Ashworth Subject" and "Graham Petty Cc" were
    # names.
    text = (
        "From: Priya Raman-Whitlock\nTo: Rebecca Ashworth\nCc: Graham Petty\n"
        "Subject: Taking the time you need\n\nHi Rebecca, take the week."
    )
    found = [m.surface for m in Extractor().mentions(text, [])]
    assert "Rebecca Ashworth" in found and "Graham Petty" in found
    assert not [name for name in found if "Cc" in name or "Subject" in name]


def test_an_epithet_is_not_the_possessive_at_the_head_of_a_name() -> None:
    # A tester's fantasy: "the Widow's Lantern", a ship, was offered as "the Widow", an
    # epithet the story never writes alone; accepting it was refused.
    from loci.toolsets.story.epithets import epithets

    text = "They sailed on the Widow's Lantern. The Widow\u2019s Lantern rolled. " * 3
    text += "The Widow smiled. The Widow sang. The Widow slept."
    assert [(e.written, e.count) for e in epithets(text)] == [("the Widow", 3)]


def test_the_gazetteer_finds_a_given_name_with_the_surname_of_a_known_titled_name() -> None:
    # NER missed "Maria Temple" (written once, after "Miss Temple") and took "Martha" alone.
    text = (
        "the exterior of Miss Temple\u2014Maria Temple, as I saw the name written. Bessie "
        "said to Martha Abbot and to Miss Maria\nTemple. Poor Temple! Dear Abbot. Edward "
        "Abbot Rochester came. Lydia Temple\u2019s hat."
    )
    known = ["Miss Temple", "Miss Abbot", "Bessie"]
    found = [m.surface for m in Extractor().known_mentions(text, known)]
    assert found == [
        "Miss Temple",
        "Maria Temple",
        "Bessie",
        "Martha Abbot",
        "Miss Maria Temple",
        "Lydia Temple",
    ]
    # Only a titled name's surname ("Temple" alone is no titled name), and one the census
    # holds no given name far more often ("Miss Lydia" is a given name with a title).
    untitled = Extractor().known_mentions(text, ["Temple"])
    assert [m.surface for m in untitled] == ["Miss Temple", "Temple", "Temple", "Temple", "Temple"]
    given = Extractor().known_mentions("Anne Lydia smiled at Miss Lydia.", ["Miss Lydia"])
    assert [m.surface for m in given] == ["Miss Lydia"]


def test_a_given_name_before_a_lone_surname_is_part_of_the_name() -> None:
    text = (
        "\u201cAlphonse Frankenstein. Poor Frankenstein! Will Frankenstein come? Miss Frankenstein."
    )

    def widened(before: str) -> str:
        at = text.index("Frankenstein", text.index(before))
        return with_given_name(text, Mention("Frankenstein", at, at + 12, label="person")).surface

    assert widened("Alphonse") == "Alphonse Frankenstein"
    assert [widened("Poor"), widened("Will"), widened("Miss")] == ["Frankenstein"] * 3
    found = Extractor().mentions("\u201cYour father,\n\n\u201cAlphonse Frankenstein.", [])
    assert "Alphonse Frankenstein" in [m.surface for m in found]


def test_a_word_capitalised_only_where_a_sentence_starts_is_counted_so() -> None:
    cases = word_cases('"Hush!" said Jo. Time passed, and Jo waited for time.\nHush, Meg.')
    assert cases["jo"].inside == 2 and cases["jo"].lower == 0
    assert cases["hush"].inside == 0  # at a sentence's start and a line's
    assert cases["time"].lower == 1 and cases["time"].inside == 0


def test_names_in_one_sentence_of_narration_are_apart_and_a_restatement_is_one() -> None:
    text = (
        '"Jo," said Meg, and Jo laughed. Teddy, or Mr. Theodore Laurence, bowed. '
        "Kitty, or Mary, will go."
    )
    mentions = [
        Mention(word, text.index(word), text.index(word) + len(word))
        for word in ("Jo", "Meg", "Mr. Theodore Laurence", "Kitty", "Mary")
    ]
    mentions.insert(2, Mention("Jo", text.index("Jo laughed"), text.index("Jo laughed") + 2))
    mentions.insert(3, Mention("Teddy", text.index("Teddy"), text.index("Teddy") + 5))
    met = {(mentions[i].surface, mentions[j].surface, kind) for i, j, kind in pairs(text, mentions)}
    assert ("Jo", "Meg", "sentence") not in met or ("Meg", "Jo", "sentence") in met
    assert ("Meg", "Jo", "sentence") in met  # both in the narration
    assert ("Teddy", "Mr. Theodore Laurence", "apposition") in met
    assert ("Kitty", "Mary", "sentence") in met  # "or" between two names that share none
    # A tester's grandfather "Old Tom called Lila 'Bug'" was joined to Lila: one calls another.
    calls = "Old Tom called Lila Bug from the day she was born. Tobias, called Toby, waved."
    said = [
        Mention(word, calls.index(word), calls.index(word) + len(word))
        for word in ("Old Tom", "Lila", "Tobias", "Toby")
    ]
    met = {(said[i].surface, said[j].surface, kind) for i, j, kind in pairs(calls, said)}
    assert ("Old Tom", "Lila", "sentence") in met
    assert ("Tobias", "Toby", "apposition") in met


def test_a_name_in_an_aside_in_brackets_is_not_apart_from_the_names_outside_it() -> None:
    # Jane Eyre: "Miss Ingram" is Blanche, glossed in brackets, not another woman.
    text = (
        "Mary was milder than Blanche (Miss Ingram was dark as a Spaniard), but Mary was "
        "dull. Miss Ingram laughed at Blanche."
    )
    spans, at = [], 0
    for word in ("Mary", "Blanche", "Miss Ingram", "Mary", "Miss Ingram", "Blanche"):
        at = text.index(word, at)
        spans.append(Mention(word, at, at + len(word)))
        at += len(word)
    met = {(i, j) for i, j, kind in pairs(text, spans) if kind == "sentence"}
    assert (0, 1) in met and (0, 3) in met and (1, 3) in met  # outside the aside
    assert not {(0, 2), (1, 2), (2, 3)} & met  # the aside and the names around it
    assert (4, 5) in met  # a sentence with no aside, as before


def test_the_pronoun_after_a_name_says_its_sex_but_never_across_a_quotation() -> None:
    text = 'Darcy bowed, and he left. "Lizzy," said her father, and he frowned.'
    mentions = [
        Mention("Darcy", 0, 5),
        Mention("Lizzy", text.index("Lizzy"), text.index("Lizzy") + 5),
    ]
    assert [m.sex for m in with_sexes(text, mentions)] == ["m", None]
    # The Tenant of Wildfell Hall quotes in single marks: "'My dear Gilbert,' said she" made
    # its narrator a woman, eleven times. A name called out is the listener's, whatever the
    # marks; the pronoun after it is the speaker's.
    single = "\u2018My dear Gilbert,\u2019 said she. Gilbert laughed, and he left."
    called = Mention(
        "Gilbert", single.index("Gilbert"), single.index("Gilbert") + 7, addressed=True
    )
    later = single.index("Gilbert laughed")
    told = with_sexes(single, [called, Mention("Gilbert", later, later + 7)])
    assert [m.sex for m in told] == [None, "m"]


def test_names_in_an_editors_brackets_are_not_the_storys_but_a_captions_are() -> None:
    text = (
        "Elizabeth walked to Netherfield with George Allen.\n\n"
        "[_Copyright 1894 by George Allen._]\n\n"
        "[Illustration: Mr. Darcy at the ball]\n\nMr. Darcy bowed."
    )
    found = [(m.surface, text[: m.start].count("\n\n")) for m in Extractor().mentions(text, [])]
    assert ("George Allen", 0) in found and ("Mr. Darcy", 3) in found
    assert ("George Allen", 1) not in found
    assert ("Mr. Darcy", 2) in found  # a caption quotes the story
    known = [m.surface for m in Extractor().known_mentions(text, ["George Allen", "Mr. Darcy"])]
    assert known.count("George Allen") == 1 and known.count("Mr. Darcy") == 2


def test_a_chapter_headings_capitals_make_no_new_name_but_a_known_name_counts_there() -> None:
    # Anne of Green Gables titles its chapters, every word capitalised: NER took "Anne
    # Comes" for a name.
    text = (
        "     CHAPTER VIII       Anne's Bringing-Up Is Begun\n\n"
        "CHAPTER XXIII. Anne Comes to Grief in an Affair of Honor\n\n"
        "Anne Shirley went home, and Diana Barry ran after her."
    )
    found = {m.surface for m in Extractor().mentions(text, [])}
    assert {"Anne Shirley", "Diana Barry"} <= found
    assert not {"Anne Comes", "Anne's Bringing-Up Is Begun"} & found
    heading = [
        m for m in Extractor().mentions(text, ["Anne"]) if m.start < text.index("Anne Shirley")
    ]
    assert [m.surface for m in heading] == ["Anne", "Anne"]  # known: it counts


def test_a_title_on_the_lines_under_a_chapters_number_makes_no_new_name() -> None:
    # A Room with a View sets its titles under the number: "Miss Lucy Honeychurch Drive
    # Out" and "Miss Bartlett's Boiler" were listed among the two women's names.
    text = (
        "Chapter VI\nThe Reverend Arthur Beebe, Miss Charlotte Bartlett, and\n"
        "Miss Lucy Honeychurch Drive Out in Carriages to See a View.\n\n\n"
        "It was Phaethon who drove them, and Lucy Honeychurch laughed.\n\n"
        "Chapter XIII\nHow Miss Bartlett\u2019s Boiler Was So Tiresome\n\n"
        "Chapter XIV\nLucy Honeychurch sat down with Cecil Vyse, and sighed.\n\n"
    )
    found = [m.surface for m in Extractor().mentions(text, [])]
    assert not {"Miss Lucy Honeychurch Drive Out", "Miss Bartlett\u2019s Boiler"} & set(found)
    # The names it lists are names: the book writes Mr. Beebe's given name nowhere else.
    assert "Reverend Arthur Beebe" in found
    # Prose right under a number, no title there, is read as prose.
    assert found.count("Lucy Honeychurch") == 2
    known = [m.surface for m in Extractor().mentions(text, ["Miss Lucy Honeychurch"])]
    assert "Miss Lucy Honeychurch" in known  # a known name counts there


def test_a_possessive_or_a_word_across_a_blank_line_is_no_title_of_the_name_after_it() -> None:
    # Anne of Green Gables: a chapter's title ends "at Queen's" (a college), and the chapter
    # opens with "Anne's"; the name was read as "Queen's Anne", or dropped.
    text = (
        "CHAPTER XXXV. The Winter at Queen's\n\n\nAnne's homesickness wore off, helped by "
        "Diana. They joined the Queen's class. Then Mr.\nDarcy came, with Captain Hawkes."
    )
    for known in ([], ["Anne", "Diana", "Darcy"]):
        found = [m.surface for m in Extractor().mentions(text, known)]
        assert found == ["Anne", "Diana", "Mr. Darcy", "Captain Hawkes"], known


def test_an_honorific_said_in_place_of_a_name_is_no_name() -> None:
    from loci.toolsets.story.namespans import is_name

    assert not is_name("Ladyship") and not is_name("Lordship") and not is_name("Captain")
    assert is_name("Lady Catherine") and is_name("Grace")


def test_a_family_name_that_is_a_title_too_is_a_name_after_a_plain_title() -> None:
    # Jane Eyre: the maid Miss Abbot (8 times) was no one, "Abbot" being a monk's title.
    from loci.toolsets.story.namespans import is_name

    assert is_name("Miss Abbot") and is_name("Mr. King") and is_name("Mrs. Prince")
    assert not is_name("Abbot") and not is_name("Mr. Mrs") and not is_name("Miss Lady")
    text = (
        '"Hold her arms, Miss Abbot: she is like a mad cat." Miss Abbot turned to divest a '
        "stout leg of the necessary ligature. Bessie and Miss Abbot stood with folded arms."
    )
    found = [m.surface for m in Extractor().mentions(text, [])]
    assert found.count("Miss Abbot") == 3


def test_a_name_found_in_a_text_is_found_again_wherever_that_text_writes_it() -> None:
    text = (
        "\u201cWho\u2019s Old Sparrow?\u201d said the stranger. \u201cIs it really Old Sparrow?\u201d "
        "Old Sparrow brings her in tonight, and Old Sparrow never fails."
    )
    found = [m.surface for m in Extractor().mentions(text, [])]
    assert found.count("Old Sparrow") == 4
    # The same as when the name was known before the text was read.
    assert found == [m.surface for m in Extractor().mentions(text, ["Old Sparrow"])]


def test_a_known_name_read_again_without_ner_keeps_the_cues_of_its_words() -> None:
    # Kidnapped: the clerk Torrance, called out and following his master, was counted in the
    # chapters read before NER found him with none of those cues, and stayed no one.
    text = (
        "\u201cTorrance,\u201d said he, \u201cbring the deed.\u201d Torrance nodded and went "
        "out. \u201cWhere is it, Torrance?\u201d said Rankeillor. Torrance smiled; he had it."
    )
    known = ["Torrance", "Rankeillor"]
    cued = Extractor().cued_known_mentions(text, known)
    read = [m for m in Extractor().mentions(text, known) if m.surface == "Torrance"]
    torrance = [m for m in cued if m.surface == "Torrance"]
    assert [(m.addressed, m.acts, m.sex) for m in torrance] == [
        (m.addressed, m.acts, m.sex) for m in read
    ]
    assert any(m.addressed for m in torrance) and any(m.acts for m in torrance)
    assert [m.surface for m in cued if m.said] == ["Rankeillor"]
    # Only known names: no new one, as the gazetteer alone would find.
    assert {m.surface for m in cued} == {"Torrance", "Rankeillor"}


def test_a_known_name_goes_on_through_of_after_the() -> None:
    text = (
        "The Ghost of Christmas Present rose, and the Ghost of Christmas Yet To Come waited. "
        "Mr. Darcy of Pemberley bowed to the Ghost. \u201cAm I in the presence of the Ghost "
        "of Christmas Yet To\nCome?\u201d said Mr. Darcy.\n\nThe Ghost of\n\nNight passed."
    )
    found = [m.surface for m in Extractor().mentions(text, ["Ghost", "Mr. Darcy"])]
    assert found == [
        "Ghost of Christmas Present",
        "Ghost of Christmas Yet To Come",
        "Mr. Darcy",
        "Ghost",
        "Ghost of Christmas Yet To Come",
        "Mr. Darcy",
        "Ghost",  # never across a blank line
    ]
    wrapped = "\u201cAm I in the presence of the Ghost of Christmas Yet To\nCome?\u201d he said."
    found = [m.surface for m in Extractor().mentions(wrapped, ["Ghost"])]
    assert found == ["Ghost of Christmas Yet To Come"]  # across a line break, as prose is wrapped


def test_an_adverb_opening_a_sentence_and_a_chapters_number_are_no_part_of_a_name() -> None:
    from loci.toolsets.story.namespans import name_span

    text = (
        "Sorrowfully Dorothy left the Throne Room. Unfortunately Liza returned to her "
        "puddings. Emily Brown laughed, and the Cowardly Lion roared. Dimly Katia saw it. "
        "Kelly Moss waved."
    )
    found = [m.surface for m in Extractor().mentions(text, ["Cowardly Lion", "Katia"])]
    assert "Dorothy" in found and "Liza" in found and "Emily Brown" in found
    assert "Katia" in found and "Kelly Moss" in found  # "Kelly" is a given name
    assert "Cowardly Lion" in found  # an adjective after "the" opens no sentence
    opening = "The night was wild.\n\n\nChapter 7\n\n\nOn my return, Victor wrote to me."
    assert [m.surface for m in Extractor().mentions(opening, [])] == ["Victor"]
    for heading in ("Chapter X. The Guardian of the Gates", "Chapter X\nThe Guardian of the Gates"):
        start, end = name_span(heading, 0, len(heading)) or (0, 0)
        assert heading[start:end] == "Guardian of the Gates"


def test_a_full_name_after_of_is_whose_not_where() -> None:
    text = "The Journal of Tom Hollis lay open. Maren of Saltcote came in."
    known = ["Journal", "Tom Hollis", "Maren", "Saltcote"]
    cues = {m.surface: m.place_word for m in Extractor().mentions(text, known)}
    assert cues == {"Journal": False, "Tom Hollis": False, "Maren": False, "Saltcote": True}


def test_a_place_named_for_someone_is_whole_and_a_kind_of_place_before_of_is_a_place_cue() -> None:
    text = (
        "Mr. Pellow, of Lincoln's Inn, wrote. They camped on Jackson\u2019s Island. "
        "Anne ran down Lover's Lane. Darcy's horse was lame. The Earl died in the county of "
        "Kent."
    )
    cues = {m.surface: m.place_word for m in Extractor().mentions(text, [])}
    assert {"Lincoln's Inn", "Jackson\u2019s Island", "Lover's Lane", "Darcy"} <= set(cues)
    assert "Inn" not in cues and "Lincoln" not in cues  # NER's "Lincoln" and "Inn"
    assert cues["Kent"] is True


def test_an_epithet_after_a_name_or_a_name_after_a_is_neither_apart_nor_restating() -> None:
    text = (
        "It is ruled by Oz, the Great Wizard I told you of. "
        "Then came Dorothy, the Scarecrow and the Lion. Oz, the Wizard, sent word. "
        "Dorothy was told that Oz is a good Wizard. A call at Oz's, and Dorothy smiled."
    )
    words = ("Oz", "Great Wizard", "Dorothy", "Scarecrow", "Lion")
    mentions = [Mention(w, text.index(w), text.index(w) + len(w)) for w in words]
    last = text.index("Oz, the Wizard")
    mentions += [Mention("Oz", last, last + 2), Mention("Wizard", last + 8, last + 14)]
    good = text.index("Dorothy was")
    for word in ("Dorothy", "Oz", "Wizard", "Oz", "Dorothy"):
        at = text.index(word, good)
        mentions.append(Mention(word, at, at + len(word)))
        good = at + len(word)
    met = {(mentions[i].surface, mentions[j].surface, kind) for i, j, kind in pairs(text, mentions)}
    assert ("Oz", "Great Wizard", "paragraph") in met
    assert not {("Oz", "Great Wizard", "sentence"), ("Oz", "Wizard", "sentence")} & met
    assert not {("Oz", "Great Wizard", "apposition"), ("Oz", "Wizard", "apposition")} & met
    assert ("Dorothy", "Scarecrow", "sentence") in met  # a list of names goes on after it
    # "a good Wizard" is a common noun there: no one apart from Oz (Dorothy is).
    assert ("Dorothy", "Oz", "sentence") in met and ("Oz", "Wizard", "sentence") not in met
    # "A call at Oz's": "a" begins "a call", and Oz is a name there.
    assert ("Oz", "Dorothy", "sentence") in met


def test_names_in_a_chapters_title_are_not_two_people() -> None:
    text = "CHAPTER XXIII. Old Muff\u2019s Friends\u2014Muff Potter in Court\n\nMuff slept. Tom met Muff."
    spans = [(text.index("Muff"), "Muff"), (text.index("Muff Potter"), "Muff Potter")]
    spans += [(text.index("Muff slept"), "Muff"), (text.index("Tom"), "Tom")]
    spans += [(text.rindex("Muff"), "Muff")]
    mentions = [Mention(word, at, at + len(word)) for at, word in spans]
    met = [(mentions[i].surface, mentions[j].surface, kind) for i, j, kind in pairs(text, mentions)]
    assert ("Muff", "Muff Potter", "paragraph") in met
    assert ("Muff", "Muff Potter", "sentence") not in met and ("Tom", "Muff", "sentence") in met


def test_a_verb_opening_a_sentence_is_no_word_of_the_name_after_it() -> None:
    from loci.toolsets.story.namespans import name_span

    text = (
        "Tell Lucy her father has a parrot for her. Tell Hannah that I have not forgotten "
        "her brother. \u201cAsk Mr. Gray to wait, Parker.\u201d Old Tell Morgan came in. "
        "Said Anfisushka: \u201cGo.\u201d Leaving Joseph there, we rode. 'Send Ellen, then.'"
        " \u201cSuppose Lucy marries him?\u201d \u201cArrested Lawrence?\u201d I gasped. "
        "\u201cNaughty Cecil! Marry George, dear.\u201d Mildred Hale came. Ted Hale came. "
        "\u201cIt interests me no longer. Marry\nFreddy, dear. Leaving\nJoseph Grey, we rode.\u201d"
        " Leave Frederica, therefore, to me."
    )
    spans = {
        written: name_span(text, text.index(written), text.index(written) + len(written))
        for written in (
            "Tell Lucy",
            "Tell Hannah",
            "Ask Mr. Gray",
            "Tell Morgan",
            "Said Anfisushka",
            "Leaving Joseph",
            "Send Ellen",
            "Suppose Lucy",
            "Arrested Lawrence",
            "Naughty Cecil",
            "Marry George",
            "Mildred Hale",
            "Ted Hale",
            "Marry\nFreddy",
            "Leaving\nJoseph Grey",
            "Leave Frederica",
        )
    }
    named = {w: text[span[0] : span[1]] for w, span in spans.items() if span is not None}
    assert named == {
        "Tell Lucy": "Lucy",
        "Tell Hannah": "Hannah",
        "Ask Mr. Gray": "Mr. Gray",
        "Said Anfisushka": "Anfisushka",
        "Leaving Joseph": "Joseph",  # a participle, as an adverb is
        "Send Ellen": "Ellen",  # a line of dialogue in single quotes opens with the verb
        "Suppose Lucy": "Lucy",
        "Arrested Lawrence": "Lawrence",
        "Naughty Cecil": "Cecil",
        "Marry George": "George",
        "Mildred Hale": "Mildred Hale",  # a given name ending so is a name
        "Ted Hale": "Ted Hale",
        "Marry\nFreddy": "Freddy",  # the name on the next line
        "Leaving\nJoseph Grey": "Joseph Grey",
        "Leave Frederica": "Frederica",  # Lady Susan
        "Tell Morgan": "Tell Morgan",  # not opening a sentence: a name of its own
    }


def test_a_style_said_in_place_of_a_name_is_no_name() -> None:
    # A tester's fantasy queen, "Her Grace" and "Your Grace", became a character "Grace".
    text = '"Your Grace," said Aldric. Her Grace smiled at Grace Poole, and Grace laughed.'
    found = [m.surface for m in Extractor().mentions(text, [])]
    assert found.count("Grace") == 1 and "Aldric" in found


def test_a_title_before_a_capitalised_word_is_a_name_with_a_stop_or_without() -> None:
    # A tester's hospital: NER saw no name in "I'm Dr Doherty" nor in "Dr Doherty smiled".
    text = (
        "\"Mrs Kerr? I'm Dr Doherty, I'm one of the doctors looking after you.\"\n\n"
        "Dr Doherty smiled at that, briefly. Mr. Okafor had the appendix."
    )
    found = [m.surface for m in Extractor().mentions(text, [])]
    assert found.count("Dr Doherty") == 2 and "Mrs Kerr" in found and "Mr. Okafor" in found


def test_a_title_and_an_initial_is_a_name_and_the_initial_no_monsieur() -> None:
    # Lady Susan: "Miss M." (Maria Mainwaring, written so once) was no name: "M." read as
    # Monsieur's title, and a title alone is no one. An initial before a name stays the name's.
    text = (
        "It is well known that Miss M. is absolutely engaged to Sir James. Lord C. wrote, "
        "and Mrs. B. Smith answered."
    )
    found = [m.surface for m in Extractor().mentions(text, [])]
    assert {"Miss M.", "Lord C.", "Mrs. B. Smith"} <= set(found)
    assert "Mrs. B." not in found and "Miss" not in found


def test_a_peers_title_before_a_capitalised_word_is_a_name() -> None:
    # Northanger Abbey: NER took no one in "We are going to Lord Longtown's, near Hereford".
    text = (
        "We are going to Lord Longtown\u2019s, near Hereford, for a fortnight. Sir Roger "
        "came, and Lady Mary. Lord St. Ives wrote. Good Lord! Lord, how she laughed."
    )
    found = [m.surface for m in Extractor().mentions(text, [])]
    assert {"Lord Longtown", "Sir Roger", "Lady Mary"} <= set(found)
    assert not [f for f in found if f in ("Lord St", "Lord", "Good Lord")]
    # Persuasion: a title after titles alone goes on with the name, where it was cut to
    # "Dowager", a title alone, and no one.
    cards = "She had the cards of Dowager Viscountess Dalrymple, and Meg Mr. Brooke's."
    dowager = cleaned(cards, cards.index("Dowager"), cards.index(","))
    meg = cleaned(cards, cards.index("Meg"), cards.index("'s"))
    assert [m.surface if m else None for m in (dowager, meg)] == [
        "Dowager Viscountess Dalrymple",
        "Meg",
    ]


def test_a_stop_word_the_census_gives_as_a_name_is_one_inside_a_sentence() -> None:
    # A writer's trial: "The carter, Will Dacre, arrived" made "Will" and "Dacre" two people.
    found = [
        [m.surface for m in Extractor().mentions(text, [])]
        for text in (
            "The carter, Will Dacre, arrived at last.",
            "Hester told her that Will Dacre meant to leave Haddon.",
            "In May Jo went to the city with Laurie.",
        )
    ]
    assert found[0] == ["Will Dacre"] and "Will Dacre" in found[1]
    assert not [name for name in found[2] if name.startswith("May")]


def test_a_known_domain_after_another_rank_and_of_is_that_ranks_name() -> None:
    # A tester's regency: "The Duchess of Wrexham came to London" counted for the Duke,
    # whose names were "Duke of Wrexham" and "Wrexham".
    known = ["Duke of Wrexham", "Wrexham"]
    text = "The Duchess of Wrexham came to London. The Duke of Wrexham bowed. Wrexham laughed."
    found = [m.surface for m in Extractor().known_mentions(text, known)]
    assert found == ["Duchess of Wrexham", "Duke of Wrexham", "Wrexham"]
    # A name known as no one's domain stays itself: "the King of Japan" still names Japan.
    found = [m.surface for m in Extractor().known_mentions("the King of Japan came.", ["Japan"])]
    assert found == ["Japan"]


def test_a_childs_word_for_a_parent_called_out_is_a_name() -> None:
    # A tester's regency: "Mama", called out again and again, never reached the cast, and no
    # suggestion could give it to Mrs. Ashby.
    text = (
        '"Lord Saltire is looking at the clock, Mama," said Kitty.\n\n'
        '"Papa, do sit down," said Eleanor. "Yes, my dear," said Mr. Ashby.'
    )
    found = {m.surface: m for m in Extractor().mentions(text, [])}
    assert found["Mama"].addressed and found["Papa"].addressed


def test_a_speaker_written_in_capitals_is_a_name_a_heading_in_capitals_is_not() -> None:
    # A tester's ship's mind, "HALCYON", spoke and was called out twenty times and was missing
    # from the cast: a word in capitals is a heading's or a shout elsewhere.
    text = (
        'HALCYON SYSTEM LOG\n\n"I can," said HALCYON. "STOP," said Okafor.\n\n'
        "Then HALCYON ran its numbers again."
    )
    found = [(m.surface, m.said) for m in Extractor().mentions(text, [])]
    assert ("HALCYON", True) in found and ("HALCYON", False) in found
    assert not any(surface in ("STOP", "LOG", "SYSTEM") for surface, _ in found)


def test_a_calling_taken_for_a_name_restates_the_name_it_is_set_beside() -> None:
    # Oliver Twist: once the import takes "the beadle" for a name, "Mr. Bumble, the beadle,"
    # says the two are one person, and so does "The boatswain, Job Anderson, ..."; in a list
    # the calling is another's.
    text = (
        "He met Mr. Bumble, the beadle, at the gate. The boatswain, Job Anderson, was "
        "aboard. Mr. Bumble, the beadle and Oliver went in. Mr. Sowerberry said the beadle "
        "was late."
    )
    found = [("Mr. Bumble", 0), ("the beadle", 0), ("The boatswain", 0), ("Job Anderson", 0)]
    found += [("Mr. Bumble", 1), ("the beadle", 1), ("Oliver", 0)]
    found += [("Mr. Sowerberry", 0), ("the beadle", 2)]
    mentions = []
    for word, nth in found:
        at = -1
        for _ in range(nth + 1):
            at = text.index(word, at + 1)
        mentions.append(Mention(word, at, at + len(word)))
    met = {(mentions[i].surface, mentions[j].surface, k) for i, j, k in pairs(text, mentions)}
    assert ("Mr. Bumble", "the beadle", "apposition") in met
    assert ("The boatswain", "Job Anderson", "apposition") in met
    sentence_kinds = {k for a, b, k in met if (a, b) == ("Mr. Bumble", "the beadle")}
    assert sentence_kinds == {"apposition", "sentence", "paragraph"}  # the list: apart
    assert ("Mr. Sowerberry", "the beadle", "sentence") in met
    assert ("Mr. Sowerberry", "the beadle", "apposition") not in met


def test_a_calling_taken_for_a_name_speaks_as_a_name_does() -> None:
    # A newcomer's "the innkeeper", split off its character, was "other": the lines of
    # dialogue it said went uncounted (the patterns read names with a capital).
    text = (
        'Mr. Hobb, the innkeeper, came out. "Aye," said the innkeeper. "No!" the innkeeper '
        'cried. The innkeeper sat down, and "the innkeeper" was painted on the sign.'
    )
    found = Extractor().cued_known_mentions(text, ["Mr. Hobb", "the innkeeper"])
    assert [(m.surface, m.said) for m in found if m.surface.lower() == "the innkeeper"] == [
        ("the innkeeper", False),
        ("the innkeeper", True),
        ("the innkeeper", True),
        ("The innkeeper", False),
        ("the innkeeper", False),
    ]


def test_a_calling_set_beside_a_name_without_a_comma_restates_it() -> None:
    # The Hound of the Baskervilles: "Barrymore the butler, who made the discovery, ..."; the
    # butler (11 times) is Barrymore, set beside him with no comma between.
    text = "On the night of the death Barrymore the butler, who made the discovery, sent word."
    barrymore, butler = text.index("Barrymore"), text.index("the butler")
    mentions = [
        Mention("Barrymore", barrymore, barrymore + 9),
        Mention("the butler", butler, butler + 10),
    ]
    assert (0, 1, "apposition") in pairs(text, mentions)


def test_a_word_in_capitals_before_a_name_is_no_part_of_it() -> None:
    # Sense and Sensibility: "that I greatly ESTEEM Edward" made an alias "ESTEEM Edward".
    from loci.toolsets.story.namespans import name_span

    text = "I do ESTEEM Edward. G. J. Utterson came. The letter was to Mr. UTTERSON. Ned Land."
    spans = {
        written: name_span(text, text.index(written), text.index(written) + len(written))
        for written in ("ESTEEM Edward", "G. J. Utterson", "Ned Land")
    }
    named = {w: text[span[0] : span[1]] for w, span in spans.items() if span is not None}
    assert named == {
        "ESTEEM Edward": "Edward",
        "G. J. Utterson": "G. J. Utterson",
        "Ned Land": "Ned Land",
    }


def test_a_name_written_twice_running_is_two_mentions_not_a_full_name() -> None:
    # A Christmas Carol: "people new to the business called Scrooge Scrooge" made a full name
    # "Scrooge Scrooge", a second Scrooge that kept "Mr. Scrooge" from Ebenezer Scrooge.
    from loci.toolsets.story.namespans import name_span

    text = "Some called Scrooge Scrooge, and sometimes Marley. Ebenezer Scrooge signed."
    spans = {
        written: name_span(text, text.index(written), text.index(written) + len(written))
        for written in ("Scrooge Scrooge", "Ebenezer Scrooge")
    }
    named = {w: text[span[0] : span[1]] for w, span in spans.items() if span is not None}
    assert named == {"Scrooge Scrooge": "Scrooge", "Ebenezer Scrooge": "Ebenezer Scrooge"}


def test_a_name_ends_before_a_possessive_inside_it_unless_a_place_word_follows() -> None:
    # Dracula: the chapter headings "Dr. Seward's Diary" and "Dr. Van Helsing's Memorandum"
    # were names of their own, and the memorandum took in "Van Helsing" (239 mentions).
    from loci.toolsets.story.namespans import name_span

    text = (
        "CHAPTER XII. Dr. Seward\u2019s Diary\n\nDr. Van Helsing\u2019s Memorandum came, "
        "and then Marley's Ghost, by way of Lincoln's Inn Fields."
    )
    found = {}
    for written in (
        "Dr. Seward\u2019s Diary",
        "Dr. Van Helsing\u2019s Memorandum",
        "Marley's Ghost",
        "Lincoln's Inn Fields",
    ):
        span = name_span(text, text.index(written), text.index(written) + len(written))
        found[written] = None if span is None else text[span[0] : span[1]]
    assert found == {
        "Dr. Seward\u2019s Diary": "Dr. Seward",
        "Dr. Van Helsing\u2019s Memorandum": "Dr. Van Helsing",
        "Marley's Ghost": "Marley",
        "Lincoln's Inn Fields": "Lincoln's Inn Fields",
    }


def test_a_known_surname_a_given_name_takes_in_is_no_mention_of_its_own() -> None:
    # Counted twice, "Benwick" met "James Benwick" in one sentence and kept them two people.
    text = "She is to marry James Benwick. You know James\nBenwick, and Captain Benwick too."
    known = ["James", "Benwick", "Captain Benwick"]
    found = [m.surface for m in Extractor().known_mentions(text, known)]
    assert found == ["James Benwick", "James Benwick", "Captain Benwick"]
    found = [m.surface for m in Extractor().mentions(text, known)]
    assert found.count("Benwick") == 0
