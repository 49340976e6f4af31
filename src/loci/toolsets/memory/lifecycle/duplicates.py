"""Near-duplicates: how alike two memories are, groups that never chain, and the union of
their sentences.

Two memories are near-duplicates when they share most of their words (SHARED_WORDS) and one
says every sentence of the other, or they are alike enough in meaning (the cosine of their
vectors) or in spelling (the character similarity of their texts, case and punctuation aside).
Meaning alone also pairs paraphrases of distinct
facts ("Ana is grateful for Ben's help" / "Ana appreciates Ben's kind words"); spelling alone
misses sentences reordered.

A group admits a memory only if it is similar enough to every member already in it (complete
linkage), so A~B and B~C never merge A with C unless A~C too. Pairs are taken most similar
first, so each memory joins the group of its closest duplicate.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

from loci.sentences import split as split_sentences

#: The space after a sentence: after . ! ? or one of them and a closing quote or bracket.
_NOT_WORD = re.compile(r"[\W_]+")
#: Least share of their distinct words (Jaccard) two near-duplicates have in common.
SHARED_WORDS = 0.6
#: Longest texts whose character similarity is computed (it is quadratic in the length; in
#: longer texts one changed word hardly moves the cosine).
LONGEST_COMPARED = 300

Pair = tuple[int, int, float]


def groups_of(pairs: Iterable[Pair], similar: Callable[[int, int], bool]) -> list[list[int]]:
    """Groups of keys from candidate pairs (a, b, similarity); `similar(a, b)` says whether two
    keys are near-duplicates. Every two members of a group are."""
    group_of: dict[int, list[int]] = {}
    groups: list[list[int]] = []
    for a, b, _ in sorted(pairs, key=lambda pair: -pair[2]):
        if a in group_of and b in group_of:
            continue  # already placed: groups never merge
        if a not in group_of and b not in group_of:
            group = [a, b]
            groups.append(group)
            group_of[a] = group_of[b] = group
            continue
        grouped, newcomer = (a, b) if a in group_of else (b, a)
        group = group_of[grouped]
        if all(similar(newcomer, member) for member in group):
            group.append(newcomer)
            group_of[newcomer] = group
    return groups


class Prepared(NamedTuple):
    """A text as `likeness` compares it: its key, its words and the keys of its sentences."""

    key: str
    words: frozenset[str]
    said: frozenset[str]


def prepare(text: str) -> Prepared:
    """`text` ready for `likeness` (prepare each memory once when comparing many pairs)."""
    key = sentence_key(text)
    return Prepared(
        key, frozenset(key.split()), frozenset(sentence_key(s) for s in sentences(text))
    )


def likeness(cosine: float, first: Prepared, second: Prepared, enough: float = 1.0) -> float:
    """How alike two memories are (0-1): 0 unless they share SHARED_WORDS of their words; 1 when
    every sentence of one is in the other; else the larger of their cosine and their character
    similarity (not computed when the cosine reaches `enough` already)."""
    union = first.words | second.words
    if not union or len(first.words & second.words) / len(union) < SHARED_WORDS:
        return 0.0
    if first.said <= second.said or second.said <= first.said:
        return 1.0
    if cosine >= enough or max(len(first.key), len(second.key)) > LONGEST_COMPARED:
        return cosine
    matcher = SequenceMatcher(None, first.key, second.key, autojunk=False)
    if matcher.quick_ratio() <= cosine:  # an upper bound of the ratio
        return cosine
    return max(cosine, matcher.ratio())


def sentences(text: str) -> list[str]:
    """The sentences of `text`, in order, as written."""
    return split_sentences(text)


def sentence_key(sentence: str) -> str:
    """What two sentences share when they differ only in case, spacing or punctuation."""
    return _NOT_WORD.sub(" ", sentence.lower()).strip()


def merged_text(texts: Sequence[str]) -> str:
    """The first text, then every sentence of the others it does not already say."""
    seen = {sentence_key(s) for s in sentences(texts[0])}
    added: list[str] = []
    for text in texts[1:]:
        for sentence in sentences(text):
            key = sentence_key(sentence)
            if key and key not in seen:
                seen.add(key)
                added.append(sentence)
    return " ".join([texts[0].strip(), *added]) if added else texts[0]
