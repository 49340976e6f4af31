"""A letter's signature in capitals read as the name of its writer, and nothing else in
capitals (a chapter's heading, a mother signing as "MOTHER")."""

from __future__ import annotations

from loci.toolsets.story.letters import signatures
from loci.toolsets.story.mentions import Extractor

LETTER = (
    "The letter came at noon.\n\n"
    "     I remain, dear sir, with respectful compliments to your lady, your\n"
    "     well-wisher and friend,\n\n"
    "\u201cWILLIAM COLLINS.\u201d\n\n"
    "Mr. Bennet read it twice.\n\n"
    "     I shall write again. Yours, etc.\n\n"
    "\u201cEDW. GARDINER.\u201d\n\n"
    "CHAPTER IV\n\n"
    "MARTHA\n\n"
    "Martha came in. \u201cKiss your father for your loving\n\n"
    '                                   "MOTHER."\n'
)


def test_a_name_in_capitals_after_a_letters_closing_is_its_writers() -> None:
    found = [(LETTER[a:b], written) for a, b, written in signatures(LETTER, ["Gardiner"])]
    assert found == [("WILLIAM COLLINS", "William Collins"), ("EDW. GARDINER", "Edw. Gardiner")]


def test_a_heading_a_word_no_name_and_an_unknown_surname_are_no_signature() -> None:
    written = [w for _, _, w in signatures(LETTER, [])]
    assert written == ["William Collins"]  # "Gardiner" unknown, "Edw." no given name
    plain = "He sat down.\n\nYours ever,\n\nTHE END.\n"
    assert list(signatures(plain, [])) == []
    initial = "Your affectionate aunt,\n\nM. GARDINER.\n"  # no "Monsieur Gardiner"
    assert list(signatures(initial, ["Gardiner"])) == []
    dated = 'I had nothing else to write about. Bless you!\n\n   "DECEMBER.\n'
    assert list(signatures(dated, ["December"])) == []
    for heading in ("CHAPTER VI", "MINA MURRAY'S JOURNAL", "XII.", "THE LAURENCE BOY."):
        after = f"He was truly a friend to us all.\n\n{heading}\n\nIt rained."
        assert list(signatures(after, ["Mina", "Laurence"])) == [], heading
    hasty = "Thine, always, and in haste for the mail-boat,\n\nEDMUND.\n"
    assert [w for _, _, w in signatures(hasty, [])] == ["Edmund"]
    short = 'Ever your own\n\n      "JO."\n'
    assert [w for _, _, w in signatures(short, [])] == ["Jo"]


def test_the_extractor_mentions_a_signature_by_the_name_as_written() -> None:
    found = Extractor().mentions(LETTER, ["Mr. Bennet", "Martha", "Gardiner"])
    surfaces = [m.surface for m in found]
    assert "William Collins" in surfaces and "Edw. Gardiner" in surfaces
    assert not any(s.isupper() for s in surfaces)  # no heading, no "MOTHER"
    assert surfaces.count("Martha") == 1  # the heading "MARTHA" is not read as her
    signed = next(m for m in found if m.surface == "William Collins")
    assert LETTER[signed.start : signed.end] == "WILLIAM COLLINS"
    assert signed.label == "person" and signed.said  # the letter is its writer's words
