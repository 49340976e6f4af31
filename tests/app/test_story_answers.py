"""A search hit's answer: the sentences of its passage that hold what was asked, on sentence
boundaries, a few hundred characters at most."""

from __future__ import annotations

from loci.storage.indexes.keywords.fts_terms import Tokenizer
from loci.toolsets.story.answers import ANSWER_CHARS, answer_spans

FILLER = (
    "The rain came in from the sea and the lamps were lit early along the harbour wall. "
    "Nobody spoke of the weather at supper, though everyone thought of it. "
    "Mr. Quill read aloud from the almanac until the candles guttered. "
    "The dogs slept by the stove and the clock ticked over the mantel. "
)
NEEDLE = "Hannah hides the household egg money inside a cracked yellow teapot."


def answer(embedder, texts: list[str], query: str) -> list[str]:
    vector = embedder.embed([query])[0]
    spans = answer_spans(texts, query, vector, Tokenizer(), embedder.embed)
    return [text[start:end] for text, (start, end) in zip(texts, spans, strict=True)]


def test_the_sentence_holding_the_asked_words_is_the_answer(embedder) -> None:
    passage = FILLER + NEEDLE + " " + FILLER
    (found,) = answer(embedder, [passage], "Where does Hannah hide the egg money?")
    assert NEEDLE in found and len(found) <= ANSWER_CHARS
    assert found.startswith(("The", "Nobody", "Mr.", "Hannah"))  # a whole sentence first
    assert found.rstrip().endswith(".")


def test_words_match_as_the_keyword_index_stems_them(embedder) -> None:
    passage = (
        FILLER + "Jo keeps her spare pen nibs in a tin box painted with a blue heron. " + FILLER
    )
    (found,) = answer(embedder, [passage], "What was painted on the box Jo kept her nibs in?")
    assert "blue heron" in found


def test_a_passage_without_the_asked_words_answers_by_meaning(embedder) -> None:
    passage = FILLER + "The old sailor wept when his ship went down with all his savings. " + FILLER
    (found,) = answer(embedder, [passage], "Who lost everything in a shipwreck?")
    assert "wept when his ship went down" in found


def test_each_passage_gets_its_own_answer_and_a_short_one_stays_whole(embedder) -> None:
    short = "Beth named her grey kitten Thimbleweed."
    texts = [FILLER + NEEDLE, short]
    found = answer(embedder, texts, "What did Beth name the kitten, and where is the egg money?")
    assert NEEDLE in found[0] and found[1] == short
