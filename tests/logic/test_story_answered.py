"""A name called out that another character answers, in the paragraph after, time and again:
suggested as that character's."""

from __future__ import annotations

from loci.toolsets.story.answered import answered_suggestions
from loci.toolsets.story.entity import Entity, Seen


def _entity(number: int, name: str, mentions: int, *aliases: str) -> Entity:
    return Entity(number, name, "character", mentions, Seen(0, ""), [], [name, *aliases])


CALL = '"I say, Quohog, or whatever your name is, did you ever strike a fish?" cried Peleg.'
ANSWER = "Without a word, Queequeg jumped upon the bulwarks, and Bildad stared."
PELEG, QUEEQUEG = _entity(1, "Peleg", 30), _entity(2, "Queequeg", 60, "Mr. Queequeg")
BILDAD = _entity(3, "Bildad", 20)


def test_a_name_called_and_answered_by_one_character_is_suggested_as_theirs() -> None:
    text = "\n\n".join(f"{CALL}\n\n{ANSWER} ({day})" for day in range(3))
    quohog = _entity(4, "Quohog", 3)
    found = answered_suggestions(text, [PELEG, QUEEQUEG, BILDAD, quohog], [PELEG, QUEEQUEG])
    assert [(s.action, s.name, s.other, s.mentions) for s in found] == [
        ("merge", "Queequeg", "Quohog", 3)
    ]
    assert "called out 3 times" in found[0].reason
    assert "Quohog" in found[0].evidence and "Queequeg jumped" in found[0].evidence


def test_no_suggestion_when_answers_are_few_differ_or_the_name_is_narrated() -> None:
    quohog = _entity(4, "Quohog", 3)
    people = [PELEG, QUEEQUEG, BILDAD, quohog]
    twice = "\n\n".join(f"{CALL}\n\n{ANSWER}" for _ in range(2))
    assert answered_suggestions(twice, people, people) == []
    others = ANSWER.replace("Queequeg jumped", "Bildad jumped").replace(
        "and Bildad", "and Queequeg"
    )
    differ = "\n\n".join(f"{CALL}\n\n{a}" for a in (ANSWER, others, others, ANSWER))
    assert answered_suggestions(differ, people, people) == []
    # A name the narration writes as much as it is called is a character of its own, unless
    # another answers it in a good share of its calls (two fifths).
    narrated = "\n\n".join(f"{CALL}\n\n{ANSWER} Quohog sat down." for _ in range(3))
    its_own = "\n\n".join(f"{CALL}\n\nQuohog nodded." for _ in range(5))
    assert answered_suggestions(f"{narrated}\n\n{its_own}", people, people) == []
    assert [s.name for s in answered_suggestions(narrated, people, people)] == ["Queequeg"]
    # The answerer named in the calling paragraph's narration says nothing of who answers.
    beside = CALL.replace("cried Peleg", "cried Peleg to Queequeg")
    assert (
        answered_suggestions("\n\n".join(f"{beside}\n\n{ANSWER}" for _ in range(3)), people, people)
        == []
    )


def test_a_name_the_narrator_answers_as_often_as_their_own_is_the_narrators() -> None:
    # Great Expectations: Herbert calls Pip "Handel", and Pip, who tells the story, answers.
    pip, herbert = _entity(1, "Pip", 300), _entity(2, "Herbert", 200)
    handel, joe = _entity(3, "Handel", 4), _entity(4, "Joe", 250)
    own = '"Come along, Pip," said Joe.\n\n"Yes," said I.'
    nickname = '"Lucky for you, Handel," said Herbert.\n\n"I know it," said I.'
    aside = '"Come in, Joe," said Herbert.\n\nI sat down to my breakfast.'
    people = [pip, herbert, handel, joe]
    text = "\n\n".join([own, own, own, nickname, nickname, nickname, aside, aside, aside])
    found = answered_suggestions(text, people, people)
    assert [(s.action, s.name, s.other) for s in found] == [("merge", "Pip", "Handel")]
    assert "the narrator answers" in found[0].reason and "said I" in found[0].evidence
    # The narrator calling a name, then speaking on, is no answer to it.
    called = '"Come here, Handel," said I to the waiter.\n\n"Thank you," said I.'
    text = "\n\n".join([own, own, own, called, called, called])
    assert answered_suggestions(text, people, people) == []


def test_a_narrated_name_another_answers_in_many_of_its_calls_is_suggested_as_theirs() -> None:
    # Oliver Twist: the narration calls Fagin "the Jew" as often as "Fagin", and the Jew
    # answers the calls of "Fagin" in the paragraph after, time and again.
    fagin, jew, sikes = _entity(1, "Fagin", 300), _entity(2, "Jew", 320), _entity(3, "Sikes", 400)
    call = '"What\'s the matter, Fagin?" asked Sikes.'
    answer = '"Matter!" replied the Jew. "Nothing." Fagin sat down.'
    people = [fagin, jew, sikes]
    text = "\n\n".join(f"{call}\n\n{answer} ({n})" for n in range(3))
    found = answered_suggestions(text, people, people)
    assert [(s.action, s.name, s.other) for s in found] == [("merge", "Fagin", "Jew")]
    assert "opens on 'the Jew'" in found[0].reason and "replied the Jew" in found[0].evidence
    # Answered by a name, not an epithet, the more mentioned of the two is kept.
    by_name = text.replace("replied the Jew", "replied Jew")
    found = answered_suggestions(by_name, people, people)
    assert [(s.name, s.other) for s in found] == [("Jew", "Fagin")]


def test_an_epithet_other_characters_names_carry_is_not_given_to_the_one_it_answers() -> None:
    # A Christmas Carol: "the Ghost" answers "Jacob" in Marley's scenes, but the Ghost of
    # Christmas Past and of Christmas Present are "the Ghost" in theirs (77 times in all).
    marley, ghost = _entity(1, "Marley", 23, "Jacob"), _entity(2, "Ghost", 77)
    scrooge, past = _entity(3, "Scrooge", 365), _entity(4, "Ghost of Christmas Past", 3)
    call = '"Jacob," he said, imploringly. "Old Jacob Marley, tell me more."'
    answer = '"I have none to give," the Ghost replied. Marley was gone.'
    text = "\n\n".join(f"{call}\n\n{answer} ({n})" for n in range(3))
    people = [marley, ghost, scrooge]
    found = answered_suggestions(text, people, people)
    assert [{s.name, s.other} for s in found] == [{"Marley", "Ghost"}]
    people.append(past)
    assert answered_suggestions(text, people, people) == []


def test_a_sister_answering_a_narrated_name_is_not_offered_her_sisters_names() -> None:
    # Persuasion: "Miss Elliot" (Elizabeth) is called out where Anne, whose story it is,
    # opens the paragraph after: Elizabeth was offered to Anne, 137 mentions.
    anne = _entity(1, "Anne", 500, "Anne Elliot")
    elizabeth = _entity(2, "Elizabeth", 137, "Miss Elliot", "Elizabeth Elliot")
    call = '"Miss Elliot, I am sure you are tired," cried Mrs Croft.'
    answer = "Anne was still in the lane. Elizabeth had gone on."
    people = [anne, elizabeth]
    text = "\n\n".join(f"{call}\n\n{answer} ({n})" for n in range(3))
    assert answered_suggestions(text, people, people) == []


def test_a_younger_sister_answering_the_eldests_name_is_not_offered_it() -> None:
    # Pride and Prejudice: the narration keeps "Miss Bennet" for Jane, the eldest of "the
    # Miss Bennets"; Lady Catherine and Darcy call Elizabeth so where Jane is away, and
    # Elizabeth answers. The import's end made it hers (the cast gives it to the one sister
    # the story never calls "Miss" and her given name).
    elizabeth = _entity(1, "Elizabeth", 700, "Miss Elizabeth", "Elizabeth Bennet")
    jane = _entity(2, "Jane", 300, "Jane Bennet")
    miss = _entity(3, "Miss Bennet", 60)
    catherine = _entity(4, "Lady Catherine", 100)
    call = '"Miss Bennet, do you play and sing?" said Lady Catherine.'
    answer = "Elizabeth said she did a little. Lady Catherine nodded."
    sisters = "The Miss Bennets were at home. Miss Bennet sat with Bingley."
    people = [elizabeth, jane, miss, catherine]
    text = "\n\n".join([f"{call}\n\n{answer} ({n})" for n in range(4)] + [sisters] * 3)
    assert answered_suggestions(text, people, people) == []
    # Where the story writes of no sisters of the name, she answers to it as her own.
    alone = text.replace("The Miss Bennets", "The Bennets")
    found = answered_suggestions(alone, people, people)
    assert [(s.name, s.other) for s in found] == [("Elizabeth", "Miss Bennet")]


def test_a_reply_in_bare_quotation_marks_tells_nothing_of_who_answers() -> None:
    # Washington Square: the Doctor's "Lavinia" is answered by Mrs. Penniman three times;
    # Catherine's "Aunt Lavinia" five times more by a reply no narration tells of.
    aunt, lavinia = _entity(1, "Mrs. Penniman", 300), _entity(2, "Lavinia", 60, "Aunt Lavinia")
    doctor = _entity(3, "Doctor", 200)
    told = '"Try and be clever, Lavinia," said the Doctor.\n\nMrs. Penniman looked thoughtful.'
    bare = '"No, Aunt Lavinia."\n\n"Then I shall do it again."'
    narrated = "Lavinia went up the stairs. Lavinia sat down."
    people = [aunt, lavinia, doctor]
    text = "\n\n".join([told] * 3 + [bare] * 5 + [narrated] * 3)
    found = answered_suggestions(text, people, people)
    assert [(s.name, s.other) for s in found] == [("Mrs. Penniman", "Lavinia")]
    # A reply some narration tells of counts, whoever it names.
    named = bare.replace('again."', 'again," said Catherine.')
    others = "\n\n".join([told] * 3 + [named] * 5 + [narrated] * 3)
    assert answered_suggestions(others, people, people) == []


def test_a_call_answered_by_a_pronoun_tells_nothing_of_who_answers() -> None:
    # Dorian Gray: Basil and Dorian call Lord Henry "Harry" 108 times; a reply named in the
    # paragraph after is Lord Henry's 32 times in 40, the rest of the replies say "he".
    henry, basil = _entity(1, "Lord Henry", 227), _entity(2, "Basil", 211)
    harry = _entity(3, "Harry", 178)
    named = '"You don\'t understand me, Harry," said Basil.\n\nLord Henry laughed.'
    pronoun = '"I do not, Harry," said Basil.\n\nHe shrugged his shoulders.'
    people = [henry, basil, harry]
    text = "\n\n".join([named] * 3 + [pronoun] * 3)
    found = answered_suggestions(text, people, people)
    assert [(s.action, s.name, s.other) for s in found] == [("merge", "Lord Henry", "Harry")]
    # Replies that name another as often leave it to the writer.
    other = named.replace("Lord Henry laughed", "Basil laughed").replace(
        "said Basil", "said Dorian"
    )
    text = "\n\n".join([named] * 3 + [other] * 3 + [pronoun] * 3)
    assert answered_suggestions(text, people, people) == []


def test_an_answerer_named_less_than_the_name_called_is_taken_into_it() -> None:
    # Dorian Gray: Lord Henry's "Uncle George", called out 10 times, is Lord Fermor, whom the
    # story names 4 times; the two are one, shown by the name the story writes more.
    henry, fermor = _entity(1, "Lord Henry", 227), _entity(2, "Lord Fermor", 4)
    george = _entity(3, "Uncle George", 10)
    call = '"Pure family affection, Uncle George," said Lord Henry.'
    answer = '"Money, I suppose," said Lord Fermor, making a wry face.'
    people = [henry, fermor, george]
    text = "\n\n".join(f"{call}\n\n{answer} ({n})" for n in range(3))
    found = answered_suggestions(text, people, people)
    assert [(s.action, s.name, s.other) for s in found] == [
        ("merge", "Uncle George", "Lord Fermor")
    ]
    assert "opens on 'Lord Fermor'" in found[0].reason
