"""Names NER never takes, which the dialogue calls out: "Prokofitch", the Kirsanovs' old
butler in *Fathers and Sons*, is written eleven times and never tagged, though a speaker
calls him ('"So here is the young master, Prokofitch!" said Nikolai Petrovitch') and the
narration writes him mid-sentence ("Meanwhile Prokofitch chewed his lips").

A reader takes such a word for a name on three signs together: a speaker calls it out (a
call alone is not enough: "Ah", "Hush" and "Humph" end a spoken phrase as names do), the
story writes it capitalised inside a sentence, after a word in lower case or a comma, where
only a name or a title stands (CALLED_MID_LEAST times at least, a call among them), and it
never writes it in lower case, as it writes every interjection and common word ("ah",
"hush") somewhere. An import's end takes each such word for a name of the story
(`sure_called_names`), counted in the text already stored.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from loci.toolsets.story import address, kin_words, names

#: The fewest times the narration writes a called name inside a sentence (after a word in
#: lower case or a comma) for the import to take it.
CALLED_MID_LEAST = 3


def sure_called_names(text: str, known: Collection[str]) -> list[str]:
    """The one-word names `text` calls out in dialogue, writes capitalised inside sentences
    CALLED_MID_LEAST times or more and never in lower case, that no name of `known` (keys)
    is already."""
    from spacy.lang.en.stop_words import STOP_WORDS

    called = {text[a:b] for a, b in address.called(text, within=True)}
    found = []
    for word in sorted(called):
        if (
            not _one_name_word(word)
            or word.lower() in STOP_WORDS
            or names.key(word) in known
            or names.is_title(word)
            or word.lower() in names.GENERATIONS
            or word.lower() in address.ANYONES
            or kin_words.parent_word_sex(word)
        ):
            continue
        if _never_lower(word, text) and _inside_sentences(word, text) >= CALLED_MID_LEAST:
            found.append(word)
    return found


def _one_name_word(word: str) -> bool:
    """Whether `word` is one capitalised word of letters ("Prokofitch"), as a name is."""
    return word.isalpha() and word[0].isupper() and word[1:].islower() and len(word) > 1


def _never_lower(word: str, text: str) -> bool:
    """Whether `text` never writes `word` in lower case."""
    return re.search(rf"\b{re.escape(word.lower())}\b", text) is None


def _inside_sentences(word: str, text: str) -> int:
    """How often `text` writes `word` after a word in lower case or a comma, inside a
    sentence."""
    return len(re.findall(rf"[a-z,;]\s+{re.escape(word)}\b", text))
