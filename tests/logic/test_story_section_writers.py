"""Who writes the part of a novel in letters or journals: the writer its last heading names."""

from __future__ import annotations

import pytest

from loci.toolsets.story.section_writers import last_writer


@pytest.mark.parametrize(
    ("before", "writer"),
    [
        ("IV\n\n_Mr. De Courcy to Mrs. Vernon._\n\nParklands.\n\nMy dear Sister", "Mr. De Courcy"),
        (
            "_Mrs. Vernon to Lady De Courcy._\n\nIt rained.\n\n_From the same to the same._\n\n",
            "Mrs. Vernon",
        ),
        (
            "CHAPTER I\n\nJONATHAN HARKER\u2019S JOURNAL\n\n(_Kept in shorthand._)\n\n3 May.",
            "Jonathan Harker",
        ),
        ("CHAPTER V\n\nDR. SEWARD'S DIARY--_continued_.\n\nThe day", "Dr. Seward"),
        (
            "_Dr. Seward's Phonograph Diary, spoken by Van Helsing._\n\nThis to Jonathan",
            "Dr. Seward",
        ),
        ("_Memorandum left by Lucy Westenra._\n\n17 September.", "Lucy Westenra"),
        ("Letter, Lucy Westenra to Mina Murray.\n\nMy dearest Mina", "Lucy Westenra"),
        # The last heading holds: a journal after a letter.
        ("Letter, Lucy Westenra to Mina Murray.\n\nMINA MURRAY'S JOURNAL.\n\nLucy", "Mina Murray"),
    ],
)
def test_the_last_heading_names_the_parts_writer(before: str, writer: str) -> None:
    assert last_writer(before) == writer


def test_prose_and_a_letter_to_someone_name_no_writer() -> None:
    assert last_writer("It was a fine day. I went home and read Harker's journal again.") is None
    assert last_writer("Letter 1\n\n_To Mrs. Saville, England._\n\nYou will rejoice") is None
    assert last_writer("CHAPTER 125. The Log and Line.\n\nI resolved") is None
