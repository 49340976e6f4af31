"""Manuscripts: encodings, a Gutenberg book's licence, front and back matter, interactions."""

from __future__ import annotations

from pathlib import Path

import pytest

from loci.errors import InvalidInputError
from loci.token_count import BpeCounter
from loci.toolsets.story import gutenberg
from loci.toolsets.story.manuscript import book, interactions, read_text
from tests.storytext import filler

BOOK = "Chapter 1\n\nIt was a dark night.\n\nThe end."
PROSE = " ".join(filler(seed, sentences=4).replace("\n\n", " ") for seed in range(3))


def test_windows_1252_with_crlf_is_read_without_mangling(tmp_path: Path) -> None:
    text = "Caf\u00e9 na\u00efve \u2019quoted\u2019 \u2014 Sal\u00e8ve\r\n\r\nSecond paragraph.\r\n"
    file = tmp_path / "old.txt"
    file.write_bytes(text.encode("cp1252") * 3)
    assert read_text(file) == text.replace("\r\n", "\n") * 3


def test_utf8_with_a_byte_order_mark(tmp_path: Path) -> None:
    file = tmp_path / "new.txt"
    file.write_bytes("\ufeffZo\u00eb \u65e5\u672c".encode())
    assert read_text(file) == "Zo\u00eb \u65e5\u672c"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_or_without_a_byte_order_mark(tmp_path: Path, encoding: str) -> None:
    file = tmp_path / "wide.txt"
    text = "Peg counted the flashes of the lamp.\n\nZo\u00eb read on."
    file.write_bytes(text.encode(encoding))
    assert read_text(file) == text


def test_binary_is_refused_naming_the_file_and_offset(tmp_path: Path) -> None:
    file = tmp_path / "image.bin"
    file.write_bytes(b"\x89PNG" + bytes(range(256)) * 4)
    with pytest.raises(InvalidInputError, match=r"image\.bin.*offset"):
        read_text(file)


def test_a_nul_in_a_text_is_refused_naming_the_file_not_a_tool_field(tmp_path: Path) -> None:
    file = tmp_path / "odd.txt"
    file.write_bytes(b"A line.\x00 Another line, long enough to be text and not UTF-16 at all.")
    with pytest.raises(InvalidInputError, match=r"odd\.txt: a NUL character at offset 7"):
        read_text(file)


def gutenberg_file(body: str, licence: bool = True) -> str:
    if not licence:
        return body
    return (
        "The Project Gutenberg eBook of A Book\n\n"
        "*** START OF THE PROJECT GUTENBERG EBOOK A BOOK ***\n\n"
        f"{body}\n\n"
        "    *** END OF THE PROJECT GUTENBERG EBOOK A BOOK ***\n\nSection 1. General Terms of Use"
    )


def test_gutenberg_header_and_licence_are_dropped() -> None:
    assert book(gutenberg_file(BOOK)) == BOOK
    assert book(BOOK) == BOOK
    assert book(gutenberg_file(BOOK), keep_gutenberg=True) == gutenberg_file(BOOK)


def test_a_gutenberg_books_front_and_back_matter_are_not_the_story() -> None:
    story = f"CHAPTER I.\n\n{PROSE}\n\nCHAPTER II.\n\n{PROSE}\n\nThe last line of the story."
    body = (
        "                    LITTLE WOMEN\n\n            BY LOUISA M. ALCOTT\n\n"
        "CONTENTS\n\nCHAPTER I.\n\nCHAPTER II.\n\n"
        f"{story}\n\n[Illustration: Tail-piece]\n\n"
        "                      Louisa M. Alcott's Writings\n\n"
        "AUNT JO'S SCRAP BAG. Six volumes. $6.00.\n\n"
        "                          Transcriber's Notes:\n\nOn page 7, a comma was added."
    )
    assert gutenberg.story_part(gutenberg_file(body)) == f"{story}\n\n[Illustration: Tail-piece]"
    ending = (
        f"CHAPTER I.\n\n{PROSE}\n\n[Illustration:\n\n    THE\n    END\n    ]\n\nPRINTERS, LONDON."
    )
    assert gutenberg.story_part(gutenberg_file(ending)) == f"CHAPTER I.\n\n{PROSE}"
    assert gutenberg.story_part(ending) == ending  # not a Gutenberg file: all of it


def test_a_table_of_contents_a_preface_follows_is_not_the_story() -> None:
    # Dracula as Project Gutenberg prints it now: a contents list of "CHAPTER I. Jonathan
    # Harker's Journal" lines, then the author's note in prose. The list was kept as story,
    # and "Mina Harker" was written before "Mina Murray", her name before her wedding.
    story = f"CHAPTER I\n\nJONATHAN HARKER'S JOURNAL\n\n{PROSE}\n\nCHAPTER II\n\n{PROSE}"
    contents = (
        "Contents\n\nCHAPTER I. Jonathan Harker's Journal\nCHAPTER II. Mina Harker's Journal"
        f"\n\n\n\nHow these papers have been placed in sequence will be made manifest. {PROSE}"
    )
    assert gutenberg.story_part(gutenberg_file(f"{contents}\n\n{story}")) == story
    # A heading over a heading of another kind is one chapter's: "BOOK I" over "CHAPTER I".
    booked = f"BOOK I\nCHAPTER I\n\n{PROSE}\n\nCHAPTER II\n\n{PROSE}"
    assert gutenberg.story_part(gutenberg_file(f"CONTENTS\n\n{booked}")) == booked


def test_a_contents_of_one_paragraph_a_line_is_not_the_story_nor_what_follows_it() -> None:
    # Tom Sawyer as Project Gutenberg prints it: each contents line a paragraph of its own, then
    # the illustrations' captions and a preface. The story began at the last contents line, and
    # "Tom Swears" and "Tom Contemplating", captions, were names of Tom's.
    story = f"CHAPTER I\n\n{PROSE}\n\nCHAPTER II\n\n{PROSE}\n\nCHAPTER III\n\n{PROSE}"
    lines = "\n\n".join(
        f"CHAPTER {n}. Tom {title}"
        for n, title in (("I", "at Home"), ("II", "Swears"), ("III", "Dreams"))
    )
    front = (
        f"{lines}\n\nILLUSTRATIONS\n\nTom Contemplating\n\nPREFACE\n\nMost of it occurred. {PROSE}"
    )
    assert gutenberg.story_part(gutenberg_file(f"{front}\n\n{story}")) == story
    # With nothing between the contents and the story, the story still opens at its first chapter.
    assert gutenberg.story_part(gutenberg_file(f"{lines}\n\n{story}")) == story
    # Chapters each book numbers anew, prose between them, are all story.
    books = f"BOOK I\n{story}\n\nBOOK II\n{story}"
    assert gutenberg.story_part(gutenberg_file(f"CONTENTS\n\n{books}")) == books


def test_a_printed_books_front_matter_is_left_out_without_the_gutenberg_lines() -> None:
    # A tester's Silas Marner and Kidnapped, copied without Project Gutenberg's lines: the
    # title page made "George Eliot" a character, and a preface introduced Alan Breck.
    story = f"CHAPTER I\n\n{PROSE}\n\nCHAPTER II\n\n{PROSE}"
    title_page = f"SILAS MARNER\n\nThe Weaver of Raveloe\n\nby\n\nGeorge Eliot\n\n1861\n\n{story}"
    assert book(title_page) == story
    assert book(title_page, keep_gutenberg=True) == title_page
    preface = f"KIDNAPPED\n\nPREFACE TO THE BIOGRAPHICAL EDITION\n\nMy husband wrote. {PROSE}"
    assert book(f"{preface}\n\n{story}") == story
    # A writer's own untitled opening before "Chapter 1" is story, byline or not.
    opening = f"My Novel\n\nby Jane Doe\n\n{PROSE}\n\n{story}"
    assert book(opening) == opening
    scene = f"Introduction over, they sat.\n\nSo it began.\n\n{story}"
    assert book(scene) == scene
    assert book(story) == story
    # Daddy-Long-Legs, no chapter headings: its title page, copyright and dedication became
    # the story ("Century Company" a name of it). It opens at the title of its first part.
    letters = f"Blue Wednesday\n\n{PROSE}\n\nDear Daddy,\n\n{PROSE}"
    titled = (
        "DADDY-LONG-LEGS\n\n\nby\n\nJEAN WEBSTER\n\n\n\nCopyright 1912 by The Century "
        f"Company\n\n\n\n\nTO YOU\n\n\n\n\n{letters}"
    )
    assert book(titled) == letters and book(gutenberg_file(titled)) == letters
    assert book(f"My Letters\n\n{letters}") == f"My Letters\n\n{letters}"  # no title page


def test_an_older_gutenberg_file_with_no_start_line_loses_its_front_matter_too() -> None:
    # A tester's Fathers and Sons (1921): a title page and an editor's introduction, no START
    # line, and "End of Project Gutenberg's Fathers and Sons" at the end; the introduction's
    # translators were listed as characters.
    story = f"I\n\n{PROSE}\n\nII\n\n{PROSE}"
    old = (
        "FATHERS AND SONS\n\nBY\n\nIVAN S. TURGENEV\n\n\nINTRODUCTION\n\n"
        f"In this masterly novel, F. P. Abbott wrote, Turgenev drew a character. {PROSE}\n\n"
        f"{story}\n\n\nEnd of Project Gutenberg's Fathers and Sons, by Ivan Sergeevich Turgenev\n"
    )
    assert book(old) == story
    assert book(old, keep_gutenberg=True) == old
    # With no end line, a printed book's introduction before the first chapter goes too (the
    # import says how much it left out; --keep-gutenberg keeps it).
    told = f"INTRODUCTION\n\n{PROSE}\n\n{story}"
    assert book(told) == story and book(told, keep_gutenberg=True) == told


def test_interactions_are_whole_paragraphs_of_about_the_size_asked() -> None:
    counter = BpeCounter()
    text = "\n\n".join(filler(seed) for seed in range(20))
    pieces = list(interactions(text, counter, 200))
    assert "\n\n".join(pieces) == text
    assert all(counter.count(piece) <= 200 for piece in pieces)
    assert len(pieces) > 5


def test_indented_paragraphs_and_wide_breaks_come_back_exactly() -> None:
    prose = ("Peg counted the flashes of the lamp. " * 6).strip()
    verse = '    "A letter," she read.\n    Verse two.'
    text = "\n\n".join([prose, verse] * 6) + "\n\n\n\nThe end, after a wider break."
    pieces = list(interactions(text, BpeCounter(), 50))
    assert len(pieces) > 3
    assert "\n\n".join(pieces) == text
    assert all(piece.strip() for piece in pieces)
