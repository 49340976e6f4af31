"""The gazetteer: the names a story already knows, found again wherever a text writes them,
whatever NER thinks of that sentence (across a line break, "Theodore\nLaurence"; with a title
before one, "Miss Darcy"; with a known surname after a single name, "Amy March"; with a given
name before the surname of a known titled name, "Maria Temple" of "Miss Temple")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from loci import sentences
from loci.toolsets.story import census, names, titles

#: A word before a name that may be its title ("Mr. ", "Captain ", "Cap'n ").
#: A capitalised word right before a name, on its line or the line above (never across a
#: blank line: "The Winter at Queen's", a chapter's title, then "Anne's homesickness"), or
#: after the underscore of italics ("_Sir Reginald De Courcy to his Son._").
TITLE_BEFORE = re.compile(r"(?:\b|(?<=_))([A-Z][a-z'\u2019]{0,11})\.?(?:[ \t]+|[ \t]*\n[ \t]*)\Z")
#: A kin title written in lower case before a name, as *Silas Marner* writes "uncle Kimble"
#: and "aunt Osgood": the title the family calls them by ("his sister Priscilla" says who she
#: is to him; "aunt" and "uncle" are said to them, as names).
KIN_TITLES = frozenset({"uncle", "aunt"})
KIN_BEFORE = re.compile(
    rf"(?<![\w'\u2019-])(?:{'|'.join(sorted(KIN_TITLES))})(?:[ \t]+|[ \t]*\n[ \t]*)\Z"
)
#: A possessive is whose the name is, never its title ("the Queen's class").
POSSESSIVE_END = re.compile(r"['\u2019]s$")
#: A capitalised word and "of" right before a name: a rank whose domain it is ("the Duchess of
#: Wrexham").
RANK_OF_BEFORE = re.compile(
    r"\b([A-Z][a-z]+)(?:[ \t]+|[ \t]*\n[ \t]*)of(?:[ \t]+|[ \t]*\n[ \t]*)(?:the[ \t]+)?\Z"
)
SURNAME_AFTER = re.compile(r"(?:[ \t]+|[ \t]*\n[ \t]*)([A-Z][\w\u2019'-]+)(?![\w\u2019'-])")
#: An article opening a known name ("the Captain"), with the space after it.
ARTICLE = re.compile(r"(?:the|a|an)(?:[ \t]+|[ \t]*\n[ \t]*)", re.IGNORECASE)
#: Between the words of a known name: spaces, or a line break ("Theodore\nLaurence").
LINE_BREAK_OR_SPACE = r"(?:[ \t]+|[ \t]*\n[ \t]*)"


def _word_pattern(word: str, at: int) -> str:
    """A word of a known name as the gazetteer matches it: as written, but for a leading
    article, which a sentence may capitalise ("the Captain", "The Captain")."""
    if at == 0 and word.lower() in ("the", "a", "an"):
        return f"[{word[0].upper()}{word[0].lower()}]{re.escape(word[1:])}"
    return re.escape(word)


@dataclass(frozen=True)
class Gazetteer:
    """The names a story knows, as one pattern, and the surnames among their words."""

    pattern: re.Pattern[str]
    surnames: frozenset[str]
    #: The names known as the domain of another ("Wrexham" of "Duke of Wrexham").
    domains: frozenset[str] = frozenset()
    #: A capitalised word before the surname of a known titled name ("Maria Temple" of "Miss
    #: Temple"), a name's last word: NER often misses a full name written once.
    given_before: re.Pattern[str] | None = None

    @classmethod
    def of(cls, known: tuple[str, ...], context: Iterable[str] = ()) -> Gazetteer | None:
        """The gazetteer of `known` names (None for none); names made with "of" among them or
        in `context` (the others the story knows) say which are another's domain."""
        if not known:
            return None
        alternatives = "|".join(
            LINE_BREAK_OR_SPACE.join(
                _word_pattern(word, at) for at, word in enumerate(name.split())
            )
            for name in sorted(known, key=len, reverse=True)
        )
        surnames = frozenset(
            name.split()[-1] for name in known if len(name.split()) > 1 and name[:1].isupper()
        )
        domains = frozenset(
            name.split(" of ", 1)[1] for name in (*known, *context) if " of " in name
        )
        pattern = re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w])")
        return cls(pattern, surnames, domains, _given_before(known))

    def spans(self, text: str) -> Iterable[tuple[int, int]]:
        """Where `text` writes the known names: with a title written before one ("Miss Darcy"
        is not "Darcy"), and with a known surname after a single name ("Amy March", "Miss
        Eliza Bennet"): that surname is no mention of its own as well; and a given name with
        the surname of a known titled name ("Maria Temple"), where no known name is."""
        known = list(self._known_spans(text))
        given = [
            (start, end)
            for start, end in self._given_spans(text)
            if all(end <= a or b <= start for a, b in known)
        ]
        return sorted([*known, *given])

    def _given_spans(self, text: str) -> Iterable[tuple[int, int]]:
        """Where a given name is written before the surname of a known titled name, with a
        title before it if one is ("Miss Maria Temple"): a word the census lists as a given
        name ("Poor Temple" is none) that is no title and no stop word ("So Temple said")."""
        if self.given_before is None:
            return
        from spacy.lang.en.stop_words import STOP_WORDS

        for match in self.given_before.finditer(text):
            given = match.group(1)
            if names.is_title(given) or given.lower() in STOP_WORDS:
                continue
            if census.is_given_name(given):
                yield title_before(text, match.start()), match.end()

    def _known_spans(self, text: str) -> Iterable[tuple[int, int]]:
        """Where `text` writes the known names themselves (`spans`)."""
        taken = 0
        for match in self._longest(text):
            start, end = match.start(), match.end()
            if start < taken:
                continue  # the surname a single name before it took in
            if match.group() in self.domains:
                start = _rank_of_before(text, start)
            if not names.is_title(match.group()):
                start = title_before(text, start)
            after = SURNAME_AFTER.match(text, end)
            single = len([w for w in match.group().split() if not names.is_title(w)]) == 1
            if single and after and after.group(1) in self.surnames:
                end = after.end()
            taken = end
            yield start, end

    def _longest(self, text: str) -> Iterable[re.Match[str]]:
        """The pattern's matches, but where a name opening with an article ("the Queen") is
        the start of a longer name after the article ("Queen of the Marsh"), the longer."""
        at = 0
        while (match := self.pattern.search(text, at)) is not None:
            article = ARTICLE.match(match.group())
            if article is not None:
                longer = self.pattern.match(text, match.start() + article.end())
                if longer is not None and longer.end() > match.end():
                    match = longer
            yield match
            at = max(match.end(), at + 1)


def _given_before(known: Iterable[str]) -> re.Pattern[str] | None:
    """The pattern of a capitalised word before the surname of a known titled name ("Miss
    Temple", "Mr. Brocklehurst"), not followed by another name ("Edward Fairfax Rochester" is
    no Mrs. Fairfax's), for surnames the census holds no given name ("Miss Lydia")."""
    surnames = {
        words[1]
        for words in (name.split() for name in known)
        if len(words) == 2
        and names.is_title(words[0])
        and words[1][:1].isupper()
        and not census.given_not_surname(words[1].lower())
    }
    if not surnames:
        return None
    alternatives = "|".join(re.escape(s) for s in sorted(surnames))
    return re.compile(
        rf"(?<![\w.])([A-Z][a-z]+){LINE_BREAK_OR_SPACE}(?:{alternatives})"
        rf"(?!\w)(?!{LINE_BREAK_OR_SPACE}[A-Z])"
    )


def _rank_of_before(text: str, start: int) -> int:
    """Where the name at `start`, known as the domain of a titled name, begins when another
    rank and "of" are written before it ("Wrexham" of "the Duchess of Wrexham", a name of its
    own, not the Duke of Wrexham's "Wrexham"), else `start` ("the King of Japan" leaves Japan,
    known as no one's domain, where it is)."""
    rank = RANK_OF_BEFORE.search(text, max(0, start - 30), start)
    if rank is None or rank.group(1).lower() not in titles.DOMAIN_TITLES:
        return start  # "Most of Maren's friends"
    return rank.start(1)


def title_before(text: str, start: int) -> int:
    """Where the name at `start` begins with the title written before it ("Mr. Darcy",
    "Captain Hawkes", "uncle Kimble"), or an abbreviated given name ("Jas. Hook"), or `start`
    when none is. A title word with a full stop that is not an abbreviation ends a sentence:
    "asked the Tin Woodman. Nell Quarry" gives Nell no title."""
    title = TITLE_BEFORE.search(text, max(0, start - 16), start)
    if title is None:
        kin = KIN_BEFORE.search(text, max(0, start - 8), start)
        return start if kin is None else kin.start()
    dotted = text[title.end(1)] == "."
    if dotted and title.group(1).lower() in sentences.GIVEN_ABBREVIATIONS:
        return title.start(1)
    if not names.is_title(title.group(1)) or POSSESSIVE_END.search(title.group(1)):
        return start
    return title.start(1) if not dotted or sentences.is_abbreviation(title.group(1)) else start
