"""The pressure valve's cutting and planning, on real token counts."""

from __future__ import annotations

from itertools import pairwise

import pytest

from loci.token_count import BpeCounter
from loci.toolsets.story.valve import paragraph_spans, plan_relief, units
from tests.storytext import filler

COUNTER = BpeCounter()


def test_units_cover_every_character_in_order() -> None:
    text = "\n\n".join(filler(seed) for seed in range(6)) + "\n\n\nA last line without a stop"
    found = units(text, 1000, COUNTER, 60)
    assert "".join(text[u.start - 1000 : u.end - 1000] for u in found) == text
    assert all(a.end == b.start for a, b in pairwise(found))
    assert all(u.tokens <= 60 for u in found)


def test_a_long_paragraph_is_cut_between_sentences_never_inside_one() -> None:
    paragraph = filler(7, sentences=40).replace("\n\n", " ")
    found = units(paragraph, 0, COUNTER, 80)
    assert len(found) > 1
    assert all(paragraph[u.end - 2] == "." or u.end == len(paragraph) for u in found)


def test_one_sentence_longer_than_a_chunk_is_cut_between_words() -> None:
    sentence = " ".join(["word"] * 500) + "."
    found = units(sentence, 0, COUNTER, 100)
    assert len(found) >= 5 and all(u.tokens <= 100 for u in found)
    assert all(sentence[u.start] != " " for u in found[1:])


@pytest.mark.parametrize("target", [0, 50, 200])
def test_relief_reaches_its_target_with_chunks_under_the_limit(target: int) -> None:
    text = "\n\n".join(filler(seed) for seed in range(12))
    window = units(text, 0, COUNTER, 120)
    total = sum(u.tokens for u in window)
    cuts = plan_relief(window, total, target, 120)
    archived = sum(c.tokens for c in cuts)
    assert total - archived <= target
    assert all(c.tokens <= 120 for c in cuts)
    assert cuts[0].start == 0 and all(a.end == b.start for a, b in pairwise(cuts))


def test_no_relief_when_under_target() -> None:
    window = units("Short.\n\nStory.", 0, COUNTER, 100)
    assert plan_relief(window, 4, 10, 100) == []


def test_paragraphs_split_at_blank_lines_also_with_windows_line_ends() -> None:
    text = "One.\r\n\r\nTwo.\n\nThree."
    assert [text[s:e] for s, e in paragraph_spans(text)] == ["One.\r\n\r\n", "Two.\n\n", "Three."]
