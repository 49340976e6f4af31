"""Epithets: "the" and a title ("the Captain", "the Count"), or an honorific said in place of
a name ("her Ladyship", "his Lordship", "Her Majesty"), and the suggestion that one is the
alias of the character who carries the title."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from loci.toolsets.story import address, names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithet_company import (
    PASSAGE_PARAGRAPHS,
    keeps_company,
    named,
    named_mostly_so,
    names_any,
    same_company,
)
from loci.toolsets.story.mentions import SPEECH_VERBS
from loci.toolsets.story.models import CastSuggestion

#: The longest sentence of evidence shown (a longer one is cut at a word).
EVIDENCE_CHARS = 280
#: The fewest times an epithet is written for it to be suggested.
EPITHET_LEAST = 3
#: A title carried by several characters goes to one carrying it this many times as often as
#: the next.
EPITHET_DOMINANCE = 4
#: A character is named by a title as a habit when this share of their names carry it.
TITLE_HABIT = 0.5
#: "the" and a title, as a sailor may say it too ("the Cap'n"), but not heading a longer name:
#: one made with "of" ("the Queen of the Marsh"), or a possessive before a capital ("the
#: Widow's Lantern", a ship; "the Captain's hat" is his).
EPITHET = re.compile(
    r"\b[Tt]he ([A-Z][a-z]+(?:['\u2019]n)?)\b"
    r"(?![ \t]+(?:[A-Z]|of\b)|['\u2019]s[ \t]+\n?[ \t]*[A-Z])"
)
#: "the" and a title in lower case, as a narrator names someone by their calling ("says the
#: doctor", "the squire was"): titles a common word seldom is ("the general", "the count" are).
TITLE_WORDS = (
    "doctor|captain|squire|colonel|professor|inspector|sergeant|lieutenant|admiral|governor"
    "|parson|vicar|rector|curate|bishop|duke|duchess|earl|baron|baroness|countess|marquis"
    "|king|queen|prince|princess|emperor|empress|sheriff|magistrate|commander|commodore"
)
LOWER_EPITHET = re.compile(rf"\b[Tt]he ({TITLE_WORDS})\b(?![ \t]+of\b)")
#: An honorific said in place of a name, after a possessive: "her Ladyship", "your Lordship".
HONORIFIC = re.compile(r"\b(?:[Hh]er|[Hh]is|[Yy]our)\s+(Ladyship|Lordship)\b")
#: A style said in place of a name ("Her Majesty", "Your Grace", "His Highness"; not "Her
#: Majesty's ships"), and the titles of those it is said to.
STYLE = re.compile(r"\b(?:Her|His|Your) (?:Majesty|Grace|Highness)\b(?!['\u2019]s)")
STYLED = {
    "her majesty": {"queen"},
    "his majesty": {"king"},
    "your majesty": {"queen", "king"},
    "her grace": {"duchess", "queen"},
    "his grace": {"duke", "archbishop", "king"},
    "your grace": {"duchess", "queen", "duke", "archbishop", "king"},
    "her highness": {"princess"},
    "his highness": {"prince"},
    "your highness": {"princess", "prince"},
}
#: A quotation, or its opening part where the sentence ends inside it.
QUOTED = re.compile(r"[\"\u201c][^\"\u201d]*(?:[\"\u201d]|$)")
#: Titles that are no epithet alone: "the Miss Lucases" names a family, "the Lord" God.
NOT_EPITHETS = frozenset({"mr", "mrs", "miss", "ms", "mister", "master", "lord", "lady"})
#: Titles called out to anyone ("Yes, Sir"), no one's epithet; a saint's is the first word of
#: a name ("A little more, St. John").
NOT_CALLED_EPITHETS = frozenset(
    {"sir", "madam", "madame", "dame", "ma'am", "ma\u2019am", "st", "saint", "ste"}
)
#: A title's short and long forms are one title ("Dr. Seward" is a doctor).
TITLE_FORMS = {
    "dr": "doctor",
    "prof": "professor",
    "capt": "captain",
    "cap'n": "captain",
    "cap\u2019n": "captain",
    "col": "colonel",
    "gen": "general",
    "lt": "lieutenant",
    "sgt": "sergeant",
    "rev": "reverend",
    "adm": "admiral",
    "maj": "major",
    "gov": "governor",
    "mme": "madame",
    "mlle": "mademoiselle",
    # The honorific of a title is that title: her Ladyship is a lady, his Lordship a lord.
    "ladyship": "lady",
    "lordship": "lord",
}


@dataclass(frozen=True)
class Epithet:
    """ "the <Title>" as the story writes it: the sentence of each place it is written, the
    paragraphs it stands in, and their passages (with PASSAGE_PARAGRAPHS on each side)."""

    written: str
    sentences: tuple[str, ...]
    paragraphs: tuple[str, ...]
    passages: tuple[str, ...]
    #: A title called out in dialogue ("Aye, Commander."), not written after "the".
    called: bool = False

    @property
    def count(self) -> int:
        """How often it is written."""
        return len(self.sentences)

    @property
    def sentence(self) -> str:
        """The first sentence holding it."""
        return self.sentences[0] if self.sentences else ""


def epithets(text: str) -> list[Epithet]:
    """The epithets of `text`: "the" and a title ("the Captain", "the Count"), an
    honorific said in place of a name ("her Ladyship", "your Ladyship": the alias is
    "Ladyship", which finds both), and a title called out in dialogue ("Aye, Commander."),
    each written at least EPITHET_LEAST times."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for pattern in (EPITHET, LOWER_EPITHET):
        for match in pattern.finditer(text):
            title = match.group(1)
            if names.is_title(title) and title.lower() not in NOT_EPITHETS:
                spans.setdefault(f"the {title}", []).append(match.span())
    for match in HONORIFIC.finditer(text):
        spans.setdefault(match.group(1), []).append(match.span())
    for match in STYLE.finditer(text):
        spans.setdefault(match.group(), []).append(match.span())
    called: set[str] = set()
    for start, end in address.called(text):
        title = text[start:end]
        if names.is_title(title) and title.lower() not in NOT_EPITHETS | NOT_CALLED_EPITHETS:
            if title not in spans:
                called.add(title)  # written no other way first ("her Ladyship")
            spans.setdefault(title, []).append((start, end))
    return [
        written_at(text, written, found, called=written in called)
        for written, found in spans.items()
        if len(found) >= EPITHET_LEAST
    ]


def written_at(
    text: str, written: str, spans: Sequence[tuple[int, int]], called: bool = False
) -> Epithet:
    """The epithet `written` where `text` writes it (`spans`): its sentences, paragraphs and
    passages."""
    return Epithet(
        written,
        tuple(sentence_at(text, start, end) for start, end in spans),
        tuple(_passage(text, start, end, 0) for start, end in spans),
        tuple(_passage(text, start, end, PASSAGE_PARAGRAPHS) for start, end in spans),
        called=called,
    )


def _passage(text: str, start: int, end: int, around: int) -> str:
    """The paragraph holding text[start:end], with `around` paragraphs on each side."""
    left, right = start, end
    for _ in range(around + 1):
        left = max(0, text.rfind("\n\n", 0, left))
        found = text.find("\n\n", right + 1)
        right = found if found >= 0 else len(text)
    return text[left:right]


@dataclass(frozen=True)
class Carried:
    """An epithet and the character who carries its title: how they stand out (`STANDING`);
    `beside`, the paragraphs (else passages) where the epithet keeps their company (none when
    it is only their habit: `epithet_company.named_mostly_so`)."""

    epithet: Epithet
    carrier: Entity
    titles: frozenset[str]
    standing: str
    beside: tuple[str, ...]

    @property
    def sole(self) -> bool:
        """Whether the carrier is the story's only one of the title by name."""
        return self.standing == "sole"


#: How a carrier of an epithet's title stands out, as the suggestion says it (after "the
#: story's" and the title).
STANDING = {
    "sole": "only {} by name",
    "most": "{} named so far more often than any other",
    "habit": "{} known by the title as a habit, and named so far more often than any other who is",
    "near": "{} named near it far more often than any other",
}


def carried(text: str, characters: Sequence[Entity]) -> list[Carried]:
    """Each epithet of `text` no character holds yet whose title one character carries ("the
    Captain" is Captain Hawkes), or carries far more often than anyone else, and that keeps
    that character's company."""
    held = {names.key(alias) for entity in characters for alias in entity.aliases}
    paragraphs = text.split("\n\n")
    found = []
    for epithet in epithets(text):
        key = names.key(epithet.written)
        if key in held:
            continue
        titles = STYLED.get(key) or {long_title(key.split()[-1])}
        titled = {
            e.id: _titled_mentions(text, e, titles) for e in characters if titles & titles_of(e)
        }
        carriers = sorted((e for e in characters if e.id in titled), key=lambda e: -titled[e.id])
        likeliest = _likeliest(epithet, carriers, titled)
        if likeliest is None:
            continue
        carrier, standing = likeliest
        if epithet.called:
            epithet = _called_by_others(epithet, carrier)
            if epithet.count < EPITHET_LEAST:
                continue
        sole = standing == "sole"
        alike = sole and same_company(epithet, carrier, characters, paragraphs)
        beside = keeps_company(epithet, carrier, paragraphs, alike)
        if beside or (sole and named_mostly_so(epithet, carrier, paragraphs)):
            titles_carried = frozenset(titles & titles_of(carrier))
            found.append(Carried(epithet, carrier, titles_carried, standing, tuple(beside)))
    return found


def _likeliest(
    epithet: Epithet, carriers: Sequence[Entity], titled: Mapping[int, int]
) -> tuple[Entity, str] | None:
    """The one of `carriers` (most often titled first) an epithet names, if one stands out,
    and how (`STANDING`): the only one; else the one named with the title far more often
    than any other; else the one among those the story names by the title as a habit
    ("Captain Smollett", hardly ever "Smollett", is "the captain" of a story that also names
    "Captain Flint" now and then); else the one named near the epithet far more often than
    any other ("the Admiral" is written where Admiral Croft is named, not Admiral Baldwin,
    whom one talk mentions)."""
    if len(carriers) < 2:
        return (carriers[0], "sole") if carriers else None
    if _dominant(carriers, lambda e: titled[e.id]):
        return carriers[0], "most"
    habitual = [e for e in carriers if titled[e.id] >= TITLE_HABIT * e.mentions]
    if habitual and _dominant(habitual, lambda e: titled[e.id]):
        return habitual[0], "habit"
    near = {e.id: sum(names_any(e, p) for p in epithet.passages) for e in carriers}
    by_company = sorted(carriers, key=lambda e: -near[e.id])
    if _dominant(by_company, lambda e: max(near[e.id], 1)):
        return by_company[0], "near"
    return None


def _dominant(ranked: Sequence[Entity], count: Callable[[Entity], int]) -> bool:
    """Whether the first of `ranked` counts EPITHET_DOMINANCE times as many as the next."""
    return len(ranked) < 2 or count(ranked[0]) >= EPITHET_DOMINANCE * count(ranked[1])


def epithet_suggestions(text: str, characters: Sequence[Entity]) -> list[CastSuggestion]:
    """An alias for each epithet of `text` a character carries (`carried`)."""
    return [
        CastSuggestion(
            action="alias",
            name=c.carrier.name,
            other=c.epithet.written,
            mentions=c.epithet.count,
            reason=f"{c.epithet.written!r} is "
            f"{'called out' if c.epithet.called else 'written'} {c.epithet.count} times, and "
            f"{c.carrier.name!r} is the story's " + STANDING[c.standing].format(_or(c.titles)),
            # A title called out is shown called ("said the captain" calls no one).
            evidence=c.epithet.sentence
            if c.epithet.called
            else sentence_with(c.beside, c.epithet.written, c.carrier) or c.epithet.sentence,
        )
        for c in carried(text, characters)
    ]


def _titled_mentions(text: str, carrier: Entity, titles: set[str]) -> int:
    """How often `text` names `carrier` with one of `titles` ("Captain Smollett", "Cap'n
    Smollett"): a captain the story names a thousand times, once "Cap'n Silver", is no likelier
    "the captain" than one always named by his rank."""
    titled = [a for a in carrier.aliases if titles & titles_of(replace(carrier, aliases=[a]))]
    return sum(len(re.findall(rf"(?<![\w.]){re.escape(a)}(?!\w)", text)) for a in titled)


def _called_by_others(epithet: Epithet, carrier: Entity) -> Epithet:
    """`epithet`, a title called out, without the calls its carrier makes: no one calls
    himself by his title, so "Ahab said to Mayhew, 'Captain, ...'" calls another captain."""
    kept = [
        at
        for at, sentence in enumerate(epithet.sentences)
        if not any(_speaks(alias, _narration(sentence)) for alias in carrier.aliases)
    ]
    return replace(
        epithet,
        sentences=tuple(epithet.sentences[at] for at in kept),
        paragraphs=tuple(epithet.paragraphs[at] for at in kept),
        passages=tuple(epithet.passages[at] for at in kept),
    )


def _narration(sentence: str) -> str:
    """What `sentence` says outside its quotation marks."""
    return QUOTED.sub(" ", sentence)


def _speaks(alias: str, narration: str) -> bool:
    """Whether `narration` has `alias` speak: the name, then a verb of speech ("Ahab turned
    aside; then said to Mayhew"), or the verb, then the name ("said Ahab")."""
    name = rf"(?<![\w.]){re.escape(alias)}(?!\w)"
    return (
        re.search(rf"{name}[^.!?]{{0,60}}?\b(?:{SPEECH_VERBS})\b", narration) is not None
        or re.search(rf"\b(?:{SPEECH_VERBS})\s+{name}", narration) is not None
    )


def _or(titles: Iterable[str]) -> str:
    return " or ".join(sorted(titles))


def long_title(word: str) -> str:
    """A title in its long form ("doctor" of "dr")."""
    return TITLE_FORMS.get(word, word)


def titles_of(entity: Entity) -> set[str]:
    """The titles the entity's names carry, each in its long form: before the name ("Captain
    Hawkes"), or as the last word of a name that has none before it ("Tin Woodman": "the
    Woodman" is his, as "the Captain" is Captain Hawkes')."""
    found = set()
    for alias in entity.aliases:
        parsed = names.parse(alias)
        found |= {long_title(t) for t in parsed.titles}
        words = alias.split()
        if not parsed.titles and len(words) > 1 and names.is_title(words[-1]):
            found.add(long_title(words[-1].rstrip(".").lower()))
    return found


def sentence_at(text: str, start: int, end: int) -> str:
    """The sentence around text[start:end], clipped to EVIDENCE_CHARS around it."""
    from loci import sentences

    left, right = sentences.around(text, start, end)
    return sentences.clipped(text[left:right], EVIDENCE_CHARS, keep=(text[start:end],))


def sentence_with(passages: Sequence[str], epithet: str, carrier: Entity) -> str:
    """A sentence of `passages` writing the epithet and a name of its carrier, if any."""
    from loci import sentences

    for passage in passages:
        for left, right in sentences.spans(passage):
            said = passage[left:right]
            if epithet.lower() in said.lower() and any(named(a, said) for a in carrier.aliases):
                return sentences.clipped(said, EVIDENCE_CHARS, keep=(epithet, *carrier.aliases))
    return ""
