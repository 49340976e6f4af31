def test_a_long_sentence_is_clipped_at_a_word_with_an_ellipsis() -> None:
    # A tester's evidence ended "…and that she " (cut at 280 characters, mid-sentence).
    from loci.sentences import clipped

    long = "She said that she had always known, " + "and that she " * 30 + "laughed."
    cut = clipped(long, 60)
    assert len(cut) <= 60 and cut.endswith("\u2026") and not cut[:-1].endswith((" ", ","))
    assert clipped("A short one.\n", 60) == "A short one."
