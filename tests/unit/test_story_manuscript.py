"""Manuscripts: encodings, Project Gutenberg's licence, interactions."""

from __future__ import annotations

from pathlib import Path

import pytest

from loci.errors import InvalidInputError
from loci.story.manuscript import interactions, read_text, without_gutenberg_licence
from loci.tokens import BpeCounter
from tests.storytext import filler

BOOK = "Chapter 1\n\nIt was a dark night.\n\nThe end."


def test_windows_1252_with_crlf_is_read_without_mangling(tmp_path: Path) -> None:
    text = "Caf\u00e9 na\u00efve \u2019quoted\u2019 \u2014 Sal\u00e8ve\r\n\r\nSecond paragraph.\r\n"
    file = tmp_path / "old.txt"
    file.write_bytes(text.encode("cp1252") * 3)
    assert read_text(file) == text.replace("\r\n", "\n") * 3


def test_utf8_with_a_byte_order_mark(tmp_path: Path) -> None:
    file = tmp_path / "new.txt"
    file.write_bytes("\ufeffZo\u00eb \u65e5\u672c".encode())
    assert read_text(file) == "Zo\u00eb \u65e5\u672c"


def test_binary_is_refused_naming_the_file_and_offset(tmp_path: Path) -> None:
    file = tmp_path / "image.bin"
    file.write_bytes(b"\x89PNG" + bytes(range(256)) * 4)
    with pytest.raises(InvalidInputError, match=r"image\.bin.*offset"):
        read_text(file)


def test_gutenberg_header_and_licence_are_dropped() -> None:
    wrapped = (
        "The Project Gutenberg eBook of A Book\n\n"
        "*** START OF THE PROJECT GUTENBERG EBOOK A BOOK ***\n\n"
        f"{BOOK}\n\n"
        "    *** END OF THE PROJECT GUTENBERG EBOOK A BOOK ***\n\nSection 1. General Terms of Use"
    )
    assert without_gutenberg_licence(wrapped) == BOOK
    assert without_gutenberg_licence(BOOK) == BOOK


def test_interactions_are_whole_paragraphs_of_about_the_size_asked() -> None:
    counter = BpeCounter()
    text = "\n\n".join(filler(seed) for seed in range(20))
    pieces = list(interactions(text, counter, 200))
    assert "\n\n".join(pieces) == text
    assert all(counter.count(piece) <= 200 for piece in pieces)
    assert len(pieces) > 5
