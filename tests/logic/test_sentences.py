def test_a_long_sentence_is_clipped_at_a_word_with_an_ellipsis() -> None:
    # A tester's evidence ended "…and that she " (cut at 280 characters, mid-sentence).
    from loci.sentences import clipped

    long = "She said that she had always known, " + "and that she " * 30 + "laughed."
    cut = clipped(long, 60)
    assert len(cut) <= 60 and cut.endswith("\u2026") and not cut[:-1].endswith((" ", ","))
    assert clipped("A short one.\n", 60) == "A short one."


def test_a_full_stop_before_a_number_ends_no_sentence_after_its_abbreviation() -> None:
    # The Mysterious Affair at Styles: an excerpt began "3 represents ...", cut after "No.".
    from loci.sentences import split

    text = "Look at Photo No. 3 again. It shows vol. 2, p. 14. No. 5 was lost. He said No."
    assert split(text) == [
        "Look at Photo No. 3 again.",
        "It shows vol. 2, p. 14.",
        "No. 5 was lost.",
        "He said No.",
    ]
    assert split("He said no. 3 men came.") == ["He said no. 3 men came."]
    assert split("The answer was Yes. 3 men came.") == ["The answer was Yes.", "3 men came."]


def test_a_title_opening_italics_ends_no_sentence() -> None:
    # Lady Susan: a letter's heading, "_Mr. De Courcy to Mrs. Vernon._", was cut after "_Mr."
    # and an excerpt began "De Courcy to Mrs. Vernon._".
    from loci.sentences import split

    text = "_Mr. De Courcy to Mrs. Vernon._ My dear Sister, I write. _Yours_ ever."
    assert split(text) == [
        "_Mr. De Courcy to Mrs. Vernon._",
        "My dear Sister, I write.",
        "_Yours_ ever.",
    ]
