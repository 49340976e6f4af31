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


def test_a_long_sentence_is_clipped_around_the_names_it_is_evidence_for() -> None:
    # Pride and Prejudice: the evidence for "Ladyship" was the first 280 characters of Mr.
    # Collins's letter, cut before the word it was shown for.
    from loci.sentences import clipped

    long = "The disagreement between us, " + "and my doubts, " * 20 + "led her Ladyship to say so."
    cut = clipped(long, 80, keep=("Ladyship",))
    assert "Ladyship" in cut and len(cut) <= 80
    assert cut.startswith("\u2026") and not cut.startswith("\u2026 ")
    assert cut.endswith("say so.")


def test_a_clipped_sentence_keeps_both_names_when_they_fit_and_the_first_else() -> None:
    from loci.sentences import clipped

    middle = "and then, " * 12
    long = "At first " + middle + "Charlotte met Mrs. Collins " + middle + "at the door."
    both = clipped(long, 100, keep=("Mrs. Collins", "Charlotte"))
    assert "Charlotte" in both and "Mrs. Collins" in both and len(both) <= 100
    assert both.startswith("\u2026") and both.endswith("\u2026")
    apart = "Charlotte " + middle * 3 + "Mrs. Collins came."
    first = clipped(apart, 60, keep=("Mrs. Collins", "Charlotte"))
    assert first.startswith("Charlotte") and len(first) <= 60
    # A name the sentence does not write, or one early enough, leaves the plain cut.
    assert clipped(long, 60, keep=("Darcy",)) == clipped(long, 60)
    assert clipped(long, 60, keep=("first",)) == clipped(long, 60)
