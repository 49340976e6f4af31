"""A letter's signature in capitals read as the name of its writer, and nothing else in
capitals (a chapter's heading, a mother signing as "MOTHER"); a letter's dateline read as the
place it was written."""

from __future__ import annotations

from loci.toolsets.story.letters import dateline, signatures
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
    # Another initial is the writer's own (Lady Susan signs "S. VERNON"), of a known name.
    signed = "Yours ever,\n\nS. VERNON.\n"
    assert [w for _, _, w in signatures(signed, ["Lady Susan Vernon"])] == ["S. Vernon"]
    assert list(signatures("Yours ever,\n\nS. QUARRY.\n", [])) == []  # a name unknown
    # An initial that is also a numeral ("C.") and a family name of two words, known by a
    # title ("Mr. De Courcy"): Lady Susan's "C. VERNON" and "R. DE COURCY".
    catherine = "Your affectionate daughter,\nC. VERNON\n\n\nXV\n"
    assert [w for _, _, w in signatures(catherine, ["Mrs. Vernon"])] == ["C. Vernon"]
    reginald = "I am, &c., &c.,\nR. DE COURCY.\n"
    assert [w for _, _, w in signatures(reginald, ["Mr. De Courcy"])] == ["R. De Courcy"]
    assert list(signatures("Yours ever,\n\nBOOK C.\n", ["Book"])) == []
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


#: Lady Susan's letters: a heading, the place written from, the salutation.
LETTERS = (
    "IV\n\n\n_Mr. De Courcy to Mrs. Vernon._\n\n\nParklands.\n\n\n"
    "My dear Sister,\u2014I congratulate you and Mr. Vernon.\n\n\nV\n\n"
    "_Lady Susan Vernon to Mrs. Johnson._\n\n\nLangford, Dec.\n\n\n"
    "Dear Alicia,\u2014Frederica came from Parklands.\n"
)


def _at(text: str, name: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(name, start + 1)
    return start, start + len(name)


def test_a_name_on_a_line_of_its_own_before_a_salutation_is_a_dateline() -> None:
    assert dateline(LETTERS, *_at(LETTERS, "Parklands"))
    assert dateline(LETTERS, *_at(LETTERS, "Langford"))  # a date after a comma
    assert not dateline(LETTERS, *_at(LETTERS, "Parklands", 1))  # inside a sentence
    assert not dateline(LETTERS, *_at(LETTERS, "Frederica"))
    # A sentence's end wrapped onto a line of its own, before a note read out, is no dateline
    # (Anne of Green Gables); nor a signature in capitals before the next letter.
    wrapped = "a small parcel were passed across to\nAnne.\n\n\u201cDear Anne, ran the note."
    assert not dateline(wrapped, *_at(wrapped, "Anne"))
    signed = "Yours ever,\n\nMINA.\n\nMy dearest Lucy,\u2014I have news."
    assert not dateline(signed, *_at(signed, "MINA"))
    prose = "They drove on.\n\nParklands was near.\n\nMy dear friends were there."
    assert not dateline(prose, *_at(prose, "Parklands"))


def test_the_extractor_reads_a_dateline_as_a_place() -> None:
    found = Extractor().mentions(LETTERS, ["Mr. Vernon"])
    placed = [m for m in found if m.surface in ("Parklands", "Langford")]
    assert placed and all(m.place_word for m in placed), placed


def test_a_title_opening_a_line_in_italics_is_the_names() -> None:
    # Lady Susan: "_Sir Reginald De Courcy to his Son._" named "Reginald De Courcy", the
    # son's name: the underscore of italics hid the father's title.
    heading = "XII\n\n\n_Sir Reginald De Courcy to his Son._\n\n\nI know that young men do not."
    surfaces = [m.surface for m in Extractor().mentions(heading, [])]
    assert "Sir Reginald De Courcy" in surfaces and "Reginald De Courcy" not in surfaces
