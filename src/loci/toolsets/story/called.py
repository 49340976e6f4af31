"""Names the story says a character is called by: "They called him King-Post", "the girls
christened him Mr. Greatheart", "known as Old Thunder", "Tobias, whom the whole harbour called
Toby", "the crew called him the Old Man", "His call-sign had been Sparrow", "Old Tom called
Lila 'Bug'", "our ship's cook, Barbecue, as the men called him"; and a title a character
comes into: "Arthur, now Lord Godalming", "He is Lord Brantwell now"; and a woman's name
before her marriage: "Mrs. Weston (poor Miss Taylor that was)", or before a title: "Lord
Godalming (that was Arthur of Miss Lucy)". The one the name is given to is the one named
between the calling and the quoted name, else the character named right before "whom" (or
the brackets), else the one named last before the calling (in its sentence, else the
sentences before it in the paragraph), never the one doing the calling ("Jo called him …"
names Jo's listener, not Jo). A question answered by a name alone says so too: "Who's Old
Thunder?" and, as the next paragraph, "Captain Ahab."

NER often takes a nickname for a thing ("King-Post") or for a person of its own. A name that
is a character's already is suggested only when the two are never named in one sentence, but in
those saying one is called the other ("Harry, now Lord Brantwell"): a
girl "we shall call Daisy", named beside her mother Margaret again and again, is a person of
her own. A name she bore before her marriage is said outright to be hers: the two may meet.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass

from loci import sentences
from loci.toolsets.story import address, names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithets import EVIDENCE_CHARS, QUOTED
from loci.toolsets.story.models import CastSuggestion

#: A word of a name: a title's abbreviation with its stop ("Mr."), or a capitalised word with
#: hyphens and apostrophes inside it.
_WORD = (
    "(?:(?:"
    + "|".join(sorted((a.capitalize() for a in sentences.ABBREVIATIONS), key=len, reverse=True))
    + r")\.|[A-Z][\w\u2019'-]*)"
)
_CALLING = r"(?:called|calls|call|nicknamed|dubbed|christened)"
_NICKNAME = r"(?:nickname|call-sign|callsign|call\s+sign|pet\s+name|real\s+name|true\s+name)"
#: "called him X", "christened her X", "known as X" (or "by the name of X"), ", whom everyone
#: called X", "his call-sign had been X", "his real name was X": the name, quoted or not
#: ("called him the Old Man": after "the").
CALLED = re.compile(
    rf"(?:(?P<whom>,\s*whom\b)[^,.;:!?\"\u201c\u201d]{{0,40}}?\b{_CALLING}"
    rf"|\b{_CALLING}\s+(?P<pronoun>him|her)(?:\s+the)?"
    # "Old Tom called Lila 'Bug'": the one called is named, the name quoted after.
    rf"|\b{_CALLING}\s+(?P<callee>{_WORD}(?:[ ]{_WORD})?)(?=\s+[\"\u201c\u2018])"
    rf"|\b(?P<possessive>[Hh]is|[Hh]er)\s+{_NICKNAME}\b[^.;:!?\"\u201c\u201d]{{0,40}}?\b"
    r"(?:is|was|had\s+been)"
    r"|\b(?:known|spoken\s+of)\s+as"
    # "better known by the sobriquet of 'The Artful Dodger'" (the noun in italics, maybe)
    r"|\bknown\s+by\s+the\s+_?(?:sobriquet|nickname|name|appellation)_?\s+of)"
    r"\s+[\"\u201c\u2018]?"
    rf"(?P<name>{_WORD}(?:[ -]{_WORD})*)"
)
#: Ranks a character may come into, and a married name ("who was now Mrs. Dunmore").
_RANK = r"(?:Lord|Lady|Sir|Dame|Earl|Countess|Count|Duke|Duchess|Baron|Baroness|Viscount|Mrs\.?)"
#: A title a character comes into: "Arthur, now Lord Godalming", "he is now Lord Godalming",
#: "became Lady Ashby", "He is Lord Brantwell now", "Margaret, who was now Mrs. Dunmore".
TITLED = (
    re.compile(rf"(?:,|\bis|\bwas)\s+now\s+(?P<name>{_RANK}\s+{_WORD})"),
    re.compile(rf"\b(?:became|becomes|becoming|has\s+become)\s+(?P<name>{_RANK}\s+{_WORD})"),
    re.compile(rf"\b(?:is|was)\s+(?P<name>{_RANK}\s+{_WORD})\s+now\b"),
)
#: A woman styled by her given name and the title her husband's family name gives her: "Laura,
#: Lady Glyde" on the tombstone of Sir Percival Glyde's wife; not a list's next one ("Laura,
#: Lady Glyde, and Marian").
STYLED = re.compile(
    rf"(?<![\w.])(?P<callee>[A-Z][a-z]+),\s+(?P<name>Lady\s+{_WORD})(?!,?\s+(?:and\b|[A-Z]))"
)
#: A name she had before her marriage, said of the one named right before: "Mrs. Weston (poor
#: Miss Taylor that was)". It says the two are one, however often they are named side by side.
FORMERLY = re.compile(rf"(?P<name>(?:Miss|Mrs\.?)\s+{_WORD})\s+that\s+was\b(?!\s+[a-z])")
#: Two names of one person said outright: "Abel Magwitch, otherwise Provis", "Mr. John
#: Dawkins (otherwise the Artful Dodger)", "Mr. Claypole, otherwise Bolter".
OTHERWISE = re.compile(
    rf"(?P<callee>{_WORD}(?:\s+{_WORD})*)\s*[,(]\s*(?:otherwise|alias)\s+"
    rf"(?P<name>(?:the\s+)?{_WORD}(?:[ -]{_WORD})*)"
)
#: A name someone had before, said in brackets after the one they have now: "Lord Godalming
#: (that was Arthur of Miss Lucy)", a son come into his father's title.
THAT_WAS = re.compile(
    rf"(?P<callee>{_WORD}(?:\s+{_WORD})*)\s*\(\s*that\s+was\s+(?P<name>{_WORD}(?:\s+{_WORD})*)"
)
#: "our ship's cook, Barbecue, as the men called him": a name set beside a description, then
#: the calling (after a word in lower case: "Tom, as the boys called him" names Tom himself).
AS_CALLED = re.compile(
    rf"(?<=[a-z]),\s+(?P<name>{_WORD}(?:[ -]{_WORD})*),?\s+as\s+[^,.;:!?\"\u201c\u201d]{{0,40}}?"
    rf"\b{_CALLING}\s+(?P<pronoun>him|her)\b"
)
#: "he is ..." before a title taken: the sex of the one who takes it.
SUBJECT = re.compile(r"\b(?:(he)|(she))\s+(?:is|was|has)\b[\w\s]*$", re.IGNORECASE)
#: "Who's Old Thunder?", "Who is Sparrow?": a question asking who a name is.
WHO_IS = re.compile(rf"\bWho(?:['\u2019]s|\s+is|\s+was)\s+(?P<name>{_WORD}(?:[ -]{_WORD})*)\?")
#: A reply that is a name alone, in quotes: "Captain Ahab."
REPLY = re.compile(
    r"[\"\u201c\u2018'](?P<name>[^\"\u201c\u201d\u2018\u2019!?]+?)[.!]?[\"\u201d\u2019']"
)
#: Words that may lead a nickname and are no part of the name the story then uses alone
#: ("Old Fritz" is Fritz).
LEADING = frozenset({"old", "little", "young", "big", "poor", "dear"})
#: What may stand between a caller's name and the calling: nothing, or the domain of a name
#: made with "of" ("Maren of the Hollow called him Al").
ONLY_A_DOMAIN = re.compile(
    r"\s*(?:of\s+(?:the\s+)?[A-Z][\w'\u2019-]*(?:\s+[A-Z][\w'\u2019-]*)*\s*)?"
)
#: The fewest times the called name is written for it to be suggested.
CALLED_LEAST = 3

#: A character's sex as its names and pronouns say it ("m", "f"), if they do.
SexOf = Callable[[Entity], str | None]
#: How many sentences name both of two entities (two people, most often).
Together = Callable[[Entity, Entity], int]


@dataclass(frozen=True)
class Calling:
    """One sentence saying a character is called by a name."""

    name: str
    character: Entity
    sentence: str
    #: Said outright to be the same person's ("Miss Taylor that was"), and how.
    stated: bool = False
    said_as: str = "is called"


def callings(text: str, characters: Sequence[Entity], sex_of: SexOf) -> Iterator[Calling]:
    """Each place `text` says one of `characters` is called by a name."""
    paragraphs = text.split("\n\n")
    for number, paragraph in enumerate(paragraphs):
        for match in CALLED.finditer(paragraph):
            said = _called_name(match.group("name"))
            callee = _callee(paragraph, match, characters, sex_of)
            if said and callee is not None:
                yield Calling(said, callee, _sentence(paragraph, match))
        for match in AS_CALLED.finditer(paragraph):
            said = _called_name(match.group("name"))
            sex = "m" if match.group("pronoun").lower() == "him" else "f"
            fitting = [c for c in characters if sex_of(c) in (sex, None)]
            callee = _last_before(paragraph, match.start(), fitting)
            if said and callee is not None:
                yield Calling(said, callee, _sentence(paragraph, match))
        yield from _titled(paragraph, characters, sex_of)
        yield from _styled(paragraph, characters, sex_of)
        for match in FORMERLY.finditer(paragraph):
            women = [c for c in characters if sex_of(c) != "m"]
            found = _last_before(paragraph, match.start(), women)
            if found is not None:
                yield Calling(match.group("name"), found, _sentence(paragraph, match), True, "was")
        for pattern, said_as in ((OTHERWISE, "is otherwise"), (THAT_WAS, "was")):
            for match in pattern.finditer(paragraph):
                said, found = match.group("name"), _ending_with(match.group("callee"), characters)
                if found is not None and _called_name(said):
                    yield Calling(said, found, _sentence(paragraph, match), True, said_as)
        if number + 1 < len(paragraphs):
            yield from _answered(paragraph, paragraphs[number + 1], characters)


def _titled(paragraph: str, characters: Sequence[Entity], sex_of: SexOf) -> Iterator[Calling]:
    """A title the paragraph says a character comes into, given to the one named last before
    it (of the sex "he" or "she" says, if one stands before it)."""
    for pattern in TITLED:
        for match in pattern.finditer(paragraph):
            left, _ = sentences.around(paragraph, match.start(), match.end())
            subject = SUBJECT.search(paragraph, left, match.start("name"))
            sex = None if subject is None else ("m" if subject.group(1) else "f")
            fitting = [c for c in characters if sex is None or sex_of(c) in (sex, None)]
            found = _last_before(paragraph, match.start(), fitting)
            if found is not None:
                yield Calling(match.group("name"), found, _sentence(paragraph, match))


def _styled(paragraph: str, characters: Sequence[Entity], sex_of: SexOf) -> Iterator[Calling]:
    """A woman the paragraph styles by her given name and "Lady" with the surname of a man of
    the story ("Laura, Lady Glyde"): said outright to be one, as his wife. A title before the
    given name makes it a list ("Lady Catherine, Lady Lucas")."""
    for match in STYLED.finditer(paragraph):
        before = paragraph[: match.start()].split()[-1:]
        family = names.key(match.group("name").split()[-1])
        men = (names.parse(a) for c in characters if sex_of(c) == "m" for a in c.aliases)
        if (before and names.is_title(before[0])) or not any(family in m.surnames for m in men):
            continue
        women = [c for c in characters if sex_of(c) != "m"]
        found = _named_so(match.group("callee"), women)
        if found is not None:
            yield Calling(match.group("name"), found, _sentence(paragraph, match), True, "is")


def _answered(question: str, reply: str, characters: Sequence[Entity]) -> Iterator[Calling]:
    """ "Who's Old Thunder?" answered, in the next paragraph, by a character's name alone."""
    answer = REPLY.fullmatch(" ".join(reply.split()))
    if answer is None:
        return
    by_key = {names.key(a): c for c in characters for a in c.aliases}
    character = by_key.get(names.key(answer.group("name")))
    if character is None:
        return
    for match in WHO_IS.finditer(question):
        said = _called_name(match.group("name"))
        if said:
            evidence = f"{_sentence(question, match)} {' '.join(reply.split())}"
            yield Calling(said, character, sentences.clipped(evidence, EVIDENCE_CHARS))


def _sentence(paragraph: str, match: re.Match[str]) -> str:
    left, right = sentences.around(paragraph, match.start(), match.end())
    return sentences.clipped(paragraph[left:right], EVIDENCE_CHARS, keep=(match.group("name"),))


def called_suggestions(
    text: str,
    entities: Sequence[Entity],
    characters: Sequence[Entity],
    sex_of: SexOf,
    together: Together,
) -> list[CastSuggestion]:
    """A name the story says one character is called by, merged into that character (or
    made an alias of it, when the cast does not hold the name at all); a name that is a
    character's already, only when `together` says the two share no sentence but those
    saying so."""
    held = {names.key(a): e for e in entities for a in e.aliases}
    # A name written once may be the one said to be called so ("His name was Silas
    # Penhallow, but the whole quay called him Tallow"): a character's, though not confirmed.
    confirmed = {c.id for c in characters}
    named = [*characters, *(e for e in entities if e.kind == "character" and e.id not in confirmed)]
    found = list(callings(text, named, lambda e: sex_of(e) if e.id in confirmed else None))
    suggested: dict[str, CastSuggestion] = {}
    for calling, other in ((c, form) for c in found for form in _held_forms(c.name, held)):
        entity = held.get(names.key(other))
        if entity is not None and (
            entity.kind == "place"
            or entity == calling.character
            or (
                entity.kind == "character"
                and not calling.stated
                and together(entity, calling.character) > _saying(found, entity, calling)
            )
        ):
            continue
        # Written counts every use; the mentions the cast holds miss those written before NER
        # first took the name for one ("Who's Old Thunder?" comes after "seen Old Thunder").
        written = len(re.findall(_whole(other), text))
        if written < CALLED_LEAST or other in suggested:
            continue
        suggested[other] = CastSuggestion(
            action="alias" if entity is None else "merge",
            name=calling.character.name,
            other=other if entity is None else entity.name,
            mentions=written if entity is None else entity.mentions,
            reason=f"the story says {calling.character.name!r} {calling.said_as} "
            f"{calling.name!r}, "
            + (
                f"a name written {written} times"
                if other == calling.name
                else f"and {other!r} is written {written} times"
            ),
            evidence=calling.sentence,
        )
    return list(suggested.values())


def _saying(found: Sequence[Calling], entity: Entity, calling: Calling) -> int:
    """How many of the sentences `found` that say `calling`'s character is called by one of
    `entity`'s names name them both ("Harry, now Lord Brantwell"): meetings that make them
    one, not two."""
    return sum(
        c.character == calling.character
        and any(re.search(_whole(a), c.sentence) for a in entity.aliases)
        and any(re.search(_whole(a), c.sentence) for a in calling.character.aliases)
        for c in found
    )


def _called_name(found: str) -> str:
    """The name as called, unless it is a title alone ("Mr.") or a possessive ("a voice almost
    as well known as Willoughby's": his voice, no name)."""
    found = found.strip("-")
    possessive = found.endswith(("'s", "\u2019s"))
    return found if found and not possessive and not names.is_title(found.rstrip(".")) else ""


def _held_forms(name: str, held: dict[str, Entity]) -> list[str]:
    """The forms of `name` the cast holds: itself, or without a leading "Old" or "The" ("The
    Artful Dodger", held as "Artful Dodger"); and a sobriquet's last word, held as a name of
    its own ("Dodger", as the story shortens "the Artful Dodger"). `name` itself if none."""
    first, _, rest = name.partition(" ")
    leading = first.lower() in LEADING or first.lower() == "the"
    forms = [name]
    if names.key(name) not in held and leading and names.key(rest) in held:
        forms = [rest]
    last = name.split()[-1]
    if first.lower() == "the" and len(name.split()) > 2 and names.key(last) in held:
        forms.append(last)
    return forms


def _callee(
    paragraph: str, match: re.Match[str], characters: Sequence[Entity], sex_of: SexOf
) -> Entity | None:
    """The character named last before the calling, its caller aside: in the calling's
    sentence, else in the sentences before it in the paragraph."""
    left, _ = sentences.around(paragraph, match.start(), match.end())
    if match.group("callee"):  # "Old Tom called Lila 'Bug'": Lila, as the text names her
        return _named_so(match.group("callee"), characters)
    if match.group("whom"):  # "Tobias, whom the harbour called Toby": the one before "whom"
        return _named_before(paragraph, left, match.start(), characters, last_only=True)
    caller = _named_before(paragraph, left, match.start(), characters, last_only=True)
    pronoun = match.group("pronoun") or match.group("possessive") or ""
    sex = {"him": "m", "his": "m", "her": "f"}.get(pronoun.lower())
    fitting = [
        c for c in characters if c is not caller and (sex is None or sex_of(c) in (sex, None))
    ]
    # The one spoken to is "you" and the speaker "I", never "her": '"Yes," said Harriet,
    # "... Miss Woodhouse, ... He called her Augusta"' is said of Miss Hawkins.
    skipped = set(address.called(paragraph, within=True))
    if address.in_quotation(paragraph[: match.start()]):
        skipped |= set(_narration(paragraph))
    return _last_before(paragraph, match.start(), fitting, skipped)


def _narration(paragraph: str) -> Iterator[tuple[int, int]]:
    """The spans of `paragraph` outside quotation marks."""
    at = 0
    for quoted in QUOTED.finditer(paragraph):
        yield at, quoted.start()
        at = quoted.end()
    yield at, len(paragraph)


def _last_before(
    paragraph: str,
    at: int,
    characters: Sequence[Entity],
    skipped: Collection[tuple[int, int]] = (),
) -> Entity | None:
    """The character named last before `at` in its sentence, else in the sentences before it
    in the paragraph (but where `skipped` spans of the paragraph name them)."""
    left, _ = sentences.around(paragraph, at, at + 1)
    return _named_before(paragraph, left, at, characters, skipped=skipped) or _named_before(
        paragraph, 0, left, characters, skipped=skipped
    )


def _ending_with(words: str, characters: Sequence[Entity]) -> Entity | None:
    """The one character the longest run of words ending `words` names ("Then Mr. John
    Dawkins": Mr. John Dawkins), if any."""
    split = words.split()
    runs = (" ".join(split[at:]) for at in range(len(split)))
    return next((found for run in runs if (found := _named_so(run, characters))), None)


def _named_so(written: str, characters: Sequence[Entity]) -> Entity | None:
    """The one character `written` names: by a name of theirs, else as the first word of one
    ("Hester" of "Hester Vane"), if only one fits."""
    wanted = names.key(written)
    whole = [c for c in characters if any(names.key(a) == wanted for a in c.aliases)]
    first = [c for c in characters if any(names.key(a).split()[:1] == [wanted] for a in c.aliases)]
    found = whole or first
    return found[0] if len(found) == 1 else None


def _named_before(
    paragraph: str,
    start: int,
    end: int,
    characters: Sequence[Entity],
    *,
    last_only: bool = False,
    skipped: Collection[tuple[int, int]] = (),
) -> Entity | None:
    """The character whose name ends last in paragraph[start:end] (the one right before the
    verb, with `last_only`, if a name stands there, or only its domain after it), but where
    `skipped` spans name them."""
    span = paragraph[start:end]
    best: tuple[int, Entity] | None = None
    for entity in characters:
        for alias in entity.aliases:
            for found in re.finditer(_whole(alias), span):
                if last_only and not ONLY_A_DOMAIN.fullmatch(span, found.end()):
                    continue
                at = (start + found.start(), start + found.end())
                if any(a < at[1] and at[0] < b for a, b in skipped):
                    continue
                if best is None or found.end() > best[0]:
                    best = (found.end(), entity)
    return best[1] if best is not None else None


def _whole(alias: str) -> str:
    return rf"(?<![\w.]){re.escape(alias)}(?!\w)"
