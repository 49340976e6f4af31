"""Epithets: "the" and a title ("the Captain", "the Count"), or an honorific said in place of
a name ("her Ladyship", "his Lordship", "Her Majesty"), and the suggestion that one is the
alias of the character who carries the title."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from loci.toolsets.story import address, names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.mentions import SPEECH_VERBS
from loci.toolsets.story.models import CastSuggestion

#: The longest sentence of evidence shown (a longer one is cut at a word).
EVIDENCE_CHARS = 280
#: The fewest times an epithet is written for it to be suggested.
EPITHET_LEAST = 3
#: A title carried by several characters goes to one carrying it this many times as often as
#: the next.
EPITHET_DOMINANCE = 4
#: The least share of an epithet's paragraphs (or passages) that name its character too.
EPITHET_COMPANY = 0.1
#: The paragraphs on each side of an epithet's own that make its passage: a journal names
#: "Count Dracula" once and says "the Count" in the paragraphs after.
PASSAGE_PARAGRAPHS = 2
#: The fewest paragraphs an epithet is written in for it to be suggested without the company
#: of its character's name (see `_named_mostly_so`): a habit of the story, not a few chance uses.
EPITHET_ALONE_LEAST = 6
#: How many times as often as the story's other passages an epithet's passages must name its
#: character, when its own paragraphs do not: company, not chance.
PASSAGE_LIFT = 1.5
#: How alike (cosine) the people met beside an epithet and beside its one carrier must be for
#: chance company to do.
SAME_COMPANY = 0.5
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
        Epithet(
            written,
            tuple(_sentence(text, start) for start, _ in found),
            tuple(_passage(text, start, end, 0) for start, end in found),
            tuple(_passage(text, start, end, PASSAGE_PARAGRAPHS) for start, end in found),
            called=written in called,
        )
        for written, found in spans.items()
        if len(found) >= EPITHET_LEAST
    ]


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
    """An epithet and the character who carries its title: the story's only one by name
    (`sole`), else one named so far more often than anyone else; `beside`, the paragraphs
    (else passages) where the epithet keeps their company (none when it is only their habit:
    `_named_mostly_so`)."""

    epithet: Epithet
    carrier: Entity
    titles: frozenset[str]
    sole: bool
    beside: tuple[str, ...]


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
            e.id: _titled_mentions(text, e, titles) for e in characters if titles & _titles_of(e)
        }
        carriers = sorted((e for e in characters if e.id in titled), key=lambda e: -titled[e.id])
        if not carriers:
            continue
        if (
            len(carriers) > 1
            and titled[carriers[0].id] < EPITHET_DOMINANCE * titled[carriers[1].id]
        ):
            continue
        carrier = carriers[0]
        if epithet.called:
            epithet = _called_by_others(epithet, carrier)
            if epithet.count < EPITHET_LEAST:
                continue
        sole = len(carriers) == 1
        alike = sole and _same_company(epithet, carrier, characters, paragraphs)
        beside = _company(epithet, carrier, paragraphs, alike)
        if beside or (sole and _named_mostly_so(epithet, carrier, paragraphs)):
            found.append(
                Carried(
                    epithet, carrier, frozenset(titles & _titles_of(carrier)), sole, tuple(beside)
                )
            )
    return found


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
            f"{c.carrier.name!r} is the story's "
            + (
                f"only {_or(c.titles)} by name"
                if c.sole
                else f"{_or(c.titles)} named far more often than any other"
            ),
            # A title called out is shown called ("said the captain" calls no one).
            evidence=c.epithet.sentence
            if c.epithet.called
            else _sentence_with(c.beside, c.epithet.written, c.carrier) or c.epithet.sentence,
        )
        for c in carried(text, characters)
    ]


def _titled_mentions(text: str, carrier: Entity, titles: set[str]) -> int:
    """How often `text` names `carrier` with one of `titles` ("Captain Smollett", "Cap'n
    Smollett"): a captain the story names a thousand times, once "Cap'n Silver", is no likelier
    "the captain" than one always named by his rank."""
    titled = [a for a in carrier.aliases if titles & _titles_of(replace(carrier, aliases=[a]))]
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


def _company(
    epithet: Epithet, carrier: Entity, paragraphs: Sequence[str], sole: bool = False
) -> list[str]:
    """The paragraphs (else passages) where `epithet` keeps `carrier`'s company, or none
    when it does not: "the Captain" stands where Captain Hawkes is named too, or in the
    passages that name him far more often than the story's other passages do; "the King"
    of a story told of many kings does neither. The story's `sole` carrier of the title, who
    meets the same people the epithet does, need only be named near it as often as
    elsewhere: a short story's captain, named in half its passages, cannot be named near his
    epithet far more often than by chance."""
    beside = [p for p in epithet.paragraphs if _names(carrier, p)]
    if len(beside) >= EPITHET_COMPANY * len(epithet.paragraphs):
        return beside
    beside = [p for p in epithet.passages if _names(carrier, p)]
    share = len(beside) / len(epithet.passages)
    lift = 1.0 if sole else PASSAGE_LIFT
    if share < EPITHET_COMPANY or share < lift * _chance(epithet, carrier, paragraphs):
        return []
    return beside


def _same_company(
    epithet: Epithet, carrier: Entity, characters: Sequence[Entity], paragraphs: Sequence[str]
) -> bool:
    """Whether the others named in the epithet's paragraphs are those named in its carrier's,
    much as often (cosine at least SAME_COMPANY): "the Captain" gives orders to the crew
    Captain Whitlock does, where "the King" of an old song meets no one King Olaf meets."""
    others = [c for c in characters if c.id != carrier.id]
    mine = [p for p in paragraphs if _names(carrier, p)]
    first = [sum(_names(o, p) for p in epithet.paragraphs) for o in others]
    second = [sum(_names(o, p) for p in mine) for o in others]
    dot = sum(a * b for a, b in zip(first, second, strict=True))
    norms = math.hypot(*first) * math.hypot(*second)
    return bool(norms) and dot / norms >= SAME_COMPANY


def _named_mostly_so(epithet: Epithet, carrier: Entity, paragraphs: Sequence[str]) -> bool:
    """Whether the story's one carrier of the title is mostly named by the epithet: in at
    least twice as many paragraphs as by a name of theirs ("Colonel Pembury", named in two
    paragraphs, is "the Colonel" in eleven: too seldom named for company to tell anything).
    A king named as often as "the King" is written may be one of many kings."""
    written = len(set(epithet.paragraphs))
    if written < EPITHET_ALONE_LEAST:
        return False
    return 2 * sum(_names(carrier, p) for p in paragraphs) <= written


def _chance(epithet: Epithet, carrier: Entity, paragraphs: Sequence[str]) -> float:
    """The share of the paragraphs not writing `epithet` whose passage names `carrier`."""
    marked = [_names(carrier, p) for p in paragraphs]
    reach = PASSAGE_PARAGRAPHS
    near = [any(marked[max(0, i - reach) : i + reach + 1]) for i in range(len(marked))]
    written = re.compile(rf"\b[Tt]he {re.escape(epithet.written.split()[-1])}\b")
    away = [n for n, p in zip(near, paragraphs, strict=True) if not written.search(p)]
    return sum(away) / len(away) if away else 1.0


def _names(carrier: Entity, text: str) -> bool:
    return any(named(alias, text) for alias in carrier.aliases)


def named(alias: str, text: str) -> bool:
    """Whether `text` writes `alias` as whole words."""
    return re.search(rf"(?<![\w.]){re.escape(alias)}(?!\w)", text) is not None


def _sentence_with(passages: Sequence[str], epithet: str, carrier: Entity) -> str:
    """A sentence of `passages` writing the epithet and a name of its carrier, if any."""
    from loci import sentences

    for passage in passages:
        for left, right in sentences.spans(passage):
            said = passage[left:right]
            if epithet.lower() in said.lower() and any(named(a, said) for a in carrier.aliases):
                return sentences.clipped(said, EVIDENCE_CHARS)
    return ""


def _or(titles: Iterable[str]) -> str:
    return " or ".join(sorted(titles))


def long_title(word: str) -> str:
    """A title in its long form ("doctor" of "dr")."""
    return TITLE_FORMS.get(word, word)


def _titles_of(entity: Entity) -> set[str]:
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


def _sentence(text: str, at: int) -> str:
    """The sentence around `at`, on one line."""
    from loci import sentences

    left, right = sentences.around(text, at, at + 1)
    return sentences.clipped(text[left:right], EVIDENCE_CHARS)
