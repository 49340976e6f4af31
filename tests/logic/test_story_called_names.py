"""Names NER never takes, which the dialogue calls out and the narration writes mid-sentence,
never in lower case (`called_names.sure_called_names`)."""

from __future__ import annotations

from loci.toolsets.story.called_names import sure_called_names

CALLED = [
    '"So here is the young master, Prokofitch!" said Nikolai.',
    "Meanwhile Prokofitch chewed his lips at the door.",
    "The old butler, Prokofitch, looked sour whenever he handed the wine.",
    "Only old Prokofitch seemed undismayed at the noise.",
]


def test_a_word_called_out_and_written_inside_sentences_is_taken_for_a_name() -> None:
    assert sure_called_names("\n\n".join(CALLED), known=set()) == ["Prokofitch"]


def test_no_name_is_taken_when_a_sign_is_missing() -> None:
    text = "\n\n".join(CALLED)
    # Known already: NER (or the cast) has it.
    assert sure_called_names(text, known={"prokofitch"}) == []
    # Written inside a sentence twice only (the call counts).
    assert sure_called_names("\n\n".join(CALLED[:2]), known=set()) == []
    # Never called out.
    assert sure_called_names("\n\n".join(CALLED[1:] * 2), known=set()) == []
    # Written in lower case somewhere: a word, not a name ("Hush", "ah").
    lower = "\n\n".join([*CALLED, "He spoke of prokofitch as of a dish."])
    assert sure_called_names(lower, known=set()) == []


def test_a_title_a_generation_or_a_parent_called_out_is_no_name() -> None:
    calls = [
        '"Thank you, Junior," said Mr. Pocket, and then Junior and Junior and Junior.',
        '"Come here, Captain!" said she, and then Captain and Captain and Captain.',
        '"Hush, Mama," said she, and then Mama and Mama and Mama came.',
    ]
    assert sure_called_names("\n\n".join(calls), known=set()) == []
