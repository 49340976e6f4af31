"""Callings said beside a name ("Mr. Bumble, the beadle") suggested as that character's alias."""

from __future__ import annotations

from loci.toolsets.story.callings import calling_suggestions, sure_callings
from loci.toolsets.story.entity import Entity, Seen


def _character(number: int, *aliases: str) -> Entity:
    return Entity(number, aliases[0], "character", 10, Seen(0, ""), [], list(aliases))


def _story(said: dict[str, str], layout: str) -> str:
    return "\n\n".join(said[c].format(day) for day, c in enumerate(layout))


#: Oliver Twist: the beadle is named once in apposition, then called "the beadle" where
#: Mr. Bumble is about.
BEADLE = {
    "A": "Oliver was startled by the apparition of Mr. Bumble, the beadle, day {}.",
    "N": "Mr. Bumble came in with his cocked hat, day {}.",
    "E": '"Silence!" said the beadle to the boys, day {}.',
    ".": "The fog lay on the workhouse, day {}.",
}


def test_a_calling_said_beside_one_name_is_suggested_as_its_alias() -> None:
    text = _story(BEADLE, "A.NE..NE..E.NE..")
    bumble = _character(1, "Mr. Bumble", "Bumble")
    oliver = _character(2, "Oliver")
    found = calling_suggestions(text, [bumble, oliver])
    assert [(s.action, s.name, s.other, s.mentions) for s in found] == [
        ("alias", "Mr. Bumble", "the beadle", 5)
    ]
    assert "'Mr. Bumble, the beadle'" in found[0].reason
    assert "the beadle" in found[0].evidence
    # Held already, it is suggested no more.
    held = _character(1, "Mr. Bumble", "the beadle")
    assert calling_suggestions(text, [held, oliver]) == []


def test_a_calling_that_never_speaks_is_no_ones() -> None:
    # "Open the door, Amy!": a door is called beside a name, and never speaks.
    said = {
        "A": '"Open the door, Amy!" cried Jo, day {}.',
        "E": "Amy stood by the door, day {}.",
        ".": "Snow fell on the house, day {}.",
    }
    text = _story(said, "AE.AE.E.E")
    assert calling_suggestions(text, [_character(1, "Amy"), _character(2, "Jo")]) == []


def test_a_name_in_a_list_is_not_in_apposition() -> None:
    # "Captain Smollett, the squire, and Dr. Livesey": three people, not the squire's name.
    said = {
        "A": "Captain Smollett, the squire, and Dr. Livesey talked, day {}.",
        "E": '"Well," said the squire to Captain Smollett, day {}.',
        ".": "The ship rolled, day {}.",
    }
    text = _story(said, "A.E.E.E.E")
    smollett = _character(1, "Captain Smollett")
    assert calling_suggestions(text, [smollett, _character(2, "Dr. Livesey")]) == []
    # Tom Sawyer: "Aunt Polly, Sid, Mary, the minister, the editor, and ..." made every "the
    # minister" of the sermons Mary's, a name among others in a list.
    listed = {
        "A": "There were Aunt Polly, Sid, Mary, the minister, the editor, and more, day {}.",
        "B": "There were Sid, Mary, the minister, day {}.",
        "E": '"Let us pray," said the minister, and Mary bowed, day {}.',
        ".": "The church was full, day {}.",
    }
    mary, sid = _character(1, "Mary"), _character(2, "Sid")
    for line in "AB":
        text = _story(listed, f"{line}.E.E.E.E.E.E")
        assert calling_suggestions(text, [mary, sid]) == []
        assert sure_callings(text, [mary, sid]) == []
    # Named alone before it, she is the minister.
    alone = {**listed, "A": "In the pew was Mary, the minister, day {}."}
    text = _story(alone, "A.E.E.E.E.E.E")
    assert [s.name for s in calling_suggestions(text, [mary, sid])] == ["Mary"]


def test_a_calling_said_beside_two_goes_to_the_one_said_more_often_and_named_near_it() -> None:
    # Silas Marner: "Mr. Snell, the landlord" of the inn whose talk says "the landlord";
    # "Mr. Cass, the landlord" once, of a cottage, far from it.
    said = {
        "S": "At last Mr. Snell, the landlord, spoke up, day {}.",
        "E": '"Come, come," said the landlord to Mr. Snell\'s guests, day {}.',
        "C": "The cottage was altered by Mr. Cass, the landlord, day {}.",
        "N": "Mr. Snell poured the ale, day {}.",
        ".": "The Rainbow was warm, day {}.",
    }
    text = _story(said, "S.NE.NE.NE.S.NE.........C..")
    snell = _character(1, "Mr. Snell")
    cass = _character(2, "Mr. Cass")
    found = calling_suggestions(text, [snell, cass])
    assert [(s.name, s.other) for s in found] == [("Mr. Snell", "the landlord")]
    # Said as often beside each ("the master" of two houses), it is no one's.
    even = text.replace("At last Mr. Snell, the landlord, spoke", "At last Mr. Snell spoke", 1)
    assert calling_suggestions(even, [snell, cass]) == []


def test_a_calling_opening_a_sentence_before_a_name_is_in_apposition() -> None:
    said = {
        "A": "The boatswain, Job Anderson, was the likeliest man aboard, day {}.",
        "E": '"Aye," said the boatswain to Anderson\'s mates, day {}.',
        ".": "The ship rolled, day {}.",
    }
    text = _story(said, "A.E.E.E.")
    found = calling_suggestions(text, [_character(1, "Job Anderson", "Anderson")])
    assert [(s.name, s.other, s.mentions) for s in found] == [("Job Anderson", "the boatswain", 4)]
    assert "'The boatswain, Job Anderson'" in found[0].reason


def test_a_calling_after_and_or_with_its_place_is_in_apposition_too() -> None:
    # Treasure Island: "And the coxswain, Israel Hands, was a careful, wily, old, experienced
    # seaman"; Kidnapped: "Mr. Campbell, the minister of Essendean, was waiting for me".
    said = {
        "A": "The mate was no seaman. And the\ncoxswain, Israel Hands, was careful, day {}.",
        "M": "Mr. Campbell, the minister of Essendean, was waiting, day {}.",
        "E": '"Aye," said the coxswain to Hands\'s mates, day {}.',
        "F": '"Go, lad," said the minister to Mr. Campbell\'s guest, day {}.',
        ".": "The ship rolled, day {}.",
    }
    text = _story(said, "A.E.E.E.M.F.F.F.")
    hands = _character(1, "Israel Hands", "Hands")
    campbell = _character(2, "Mr. Campbell", "Campbell")
    found = calling_suggestions(text, [hands, campbell])
    assert sorted((s.name, s.other, s.mentions) for s in found) == [
        ("Israel Hands", "the coxswain", 4),
        ("Mr. Campbell", "the minister", 4),
    ]
    reasons = " ".join(s.reason for s in found)
    assert "'the coxswain, Israel Hands'" in reasons
    assert "'Mr. Campbell, the minister of Essendean'" in reasons


def test_a_relation_said_beside_a_name_is_no_calling() -> None:
    # "Harriet, the daughter of Mr. Smith": a daughter speaks ("said the daughter"), and is
    # one of a family's, no calling.
    said = {
        "A": "Harriet, the daughter of Mr. Smith, came in, day {}.",
        "E": '"Yes," said the daughter to Harriet\'s friend, day {}.',
        ".": "Rain fell, day {}.",
    }
    text = _story(said, "A.E.E.E.")
    assert calling_suggestions(text, [_character(1, "Harriet")]) == []


def test_a_calling_said_beside_one_name_alone_and_written_often_is_sure() -> None:
    # What an import takes for a name of the story, for the cast to join to its character.
    from loci.toolsets.story.callings import sure_callings

    text = _story(BEADLE, "A.NE..NE..E.NE..")  # "the beadle" 5 times
    bumble, oliver = _character(1, "Mr. Bumble", "Bumble"), _character(2, "Oliver")
    assert sure_callings(text, [bumble, oliver]) == ["the beadle"]
    # Written fewer times, it is a suggestion only; so is one said with a word between
    # ("Mr. Bumble, the parochial beadle"), which the cast would not read beside the name.
    assert sure_callings(_story(BEADLE, "A.NE..NE.."), [bumble, oliver]) == []
    parochial = {
        "A": "Oliver saw Mr. Bumble, the parochial beadle, day {}.",
        "E": '"Silence!" said the beadle, and Mr. Bumble\'s hat shook, day {}.',
        ".": "The fog lay on the workhouse, day {}.",
    }
    text = _story(parochial, "A.E..E..E.E..E..")
    assert [s.other for s in calling_suggestions(text, [bumble, oliver])] == ["the beadle"]
    assert sure_callings(text, [bumble, oliver]) == []


def test_a_calling_that_names_someone_is_suggested_as_their_alias() -> None:
    # Silas Marner: "such a linen-weaver, named Silas Marner", then "the weaver" where Silas is.
    said = {
        "A": "In those years such a linen-weaver, named Silas Marner, worked at his loom, day {}.",
        "N": "Silas counted his guineas, day {}.",
        "E": "The boys peeped in at the weaver who sat at his loom, day {}.",
        "B": "Silas rose, and the boys ran from the weaver who had seen them, day {}.",
        ".": "Rain fell on Raveloe, day {}.",
    }
    text = _story(said, "A.NE..NB..E.NE..")
    silas = _character(1, "Silas", "Silas Marner")
    found = calling_suggestions(text, [silas, _character(2, "Godfrey")])
    assert [(s.action, s.name, s.other, s.mentions) for s in found] == [
        ("alias", "Silas", "the weaver", 4)
    ]
    assert "'a linen-weaver, named Silas Marner'" in found[0].reason
    # Not taken at import: the story said it once, and not beside the name as written alone.
    assert sure_callings(text, [silas]) == []


def test_anyone_named_so_is_no_calling() -> None:
    # "a little girl called Jane Eyre": a girl is anyone, and "the girl" no one's by name.
    said = {
        "A": "There was a little girl called Jane Eyre at the school, day {}.",
        "N": "Jane sat by the window, day {}.",
        "E": "The girl who sat by the window said nothing, day {}.",
        "B": "Jane rose, and the girl who had wept went out, day {}.",
        ".": "Snow lay on the moor, day {}.",
    }
    text = _story(said, "A.NE..NB..E.NE..")
    assert calling_suggestions(text, [_character(1, "Jane", "Jane Eyre")]) == []


def test_a_calling_set_beside_a_name_without_a_comma_is_suggested_and_taken() -> None:
    # The Hound of the Baskervilles: "Barrymore the butler, who made the discovery".
    said = {
        "A": "On the night of the death Barrymore the butler, who made the discovery, wept.",
        "N": "Barrymore brought the lamp to the hall, day {}.",
        "E": '"Nothing, sir," said the butler to Barrymore\'s wife, day {}.',
        ".": "The moor lay grey, day {}.",
    }
    text = _story(said, "A.NE..NE..E.NE..")
    barrymore = _character(1, "Barrymore")
    found = calling_suggestions(text, [barrymore, _character(2, "Holmes")])
    assert [(s.name, s.other) for s in found] == [("Barrymore", "the butler")]
    assert "'Barrymore the butler'" in found[0].reason
    assert sure_callings(text, [barrymore, _character(2, "Holmes")]) == ["the butler"]
