"""A letter's signature: its writer's name in capitals on a line of its own, after the
letter's closing ("your well-wisher and friend," then "WILLIAM COLLINS."); and its dateline,
where it was written ("Parklands.", before "My dear Sister,--").

Neither NER nor the cast reads a name in capitals (a chapter's heading is in capitals too:
"CHAPTER X", "DICKON"), so a name a story writes only where a letter is signed (*Pride and
Prejudice*'s "William Collins") was lost, and an epistolary novel's letters counted for no
one. A line in capitals is a signature only after a closing ("Yours ever,", "Your obedient
servant,", "God bless you."), and a name only with a given name or a name the story knows, and
not after an initial that is a title too ("M. GARDINER", Mrs. Gardiner's, is no Monsieur
Gardiner; "S. VERNON", Lady Susan's, is hers).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from loci.toolsets.story import census, names
from loci.toolsets.story.address import CALENDAR
from loci.toolsets.story.gutenberg import in_heading

#: A line of one to three words in capitals, quoted or not, ending in a stop or a comma:
#: '"WILLIAM COLLINS."', "EDW. GARDINER.", "MINA."
SIGNATURE = re.compile(
    r"^[ \t]*[\"\u201c]?(?P<name>[A-Z][A-Z'\u2019-]*\.?(?:[ \t]+[A-Z][A-Z'\u2019-]*\.?){0,2})"
    r"[,!]?[\"\u201d]?[ \t]*$",
    re.MULTILINE,
)
#: The words a letter's closing holds, on the line before its signature (or it ends with a
#: comma: "Thine, always, and in haste for the mail-boat,").
CLOSING = re.compile(
    r"\b(?:yours?|thine|friend|servant|loving|affectionate|faithfully|sincerely|truly|respectfully"
    r"|bless you)\b",
    re.IGNORECASE,
)
#: A possessive and a roman numeral, which a heading has and a signature never does.
POSSESSIVE = re.compile(r"['\u2019]s\b", re.IGNORECASE)
ROMAN = re.compile(r"[IVXLC]+", re.IGNORECASE)
#: An initial: a capital and its stop.
INITIAL = re.compile(r"[A-Z]\.")
#: How far back the closing's line is looked for.
CLOSING_CHARS = 200
#: Between the story's text and the text added to it.
SEPARATOR = "\n\n"
#: What may follow a dateline's place on its line: the rest of an address or a date after a
#: comma ("Langford, Dec.", "Hunsford, near Westerham, Kent, 15th October."), a full stop.
DATELINE_REST = re.compile(r"(?:,[^\n]{0,60})?\.?_?[ \t]*\n")
#: A blank line ending where a line starts.
BLANK_LINE_BEFORE = re.compile(r"\n[ \t]*\n$")
#: A letter's salutation, opening the line after its dateline: "My dear Sister,--", "Sir,".
SALUTATION = re.compile(
    r"[_\"\u201c]?(?:my[ \t]+)?(?:dear(?:est)?|sir|madam|gentlemen)\b", re.IGNORECASE
)


def signatures(text: str, known: Sequence[str], before: str = "") -> Iterator[tuple[int, int, str]]:
    """The signatures of letters in `text`: where each name stands, and the name as the story
    writes names ("WILLIAM COLLINS" is "William Collins"). `before` is the text before
    `text` (a letter's closing may end it)."""
    keys = {names.key(name) for name in known} | {_untitled(name) for name in known}
    for found in SIGNATURE.finditer(text):
        start, end = found.span("name")
        if text[end - 1] == "." and len(text[start:end].split()[-1]) > 2:
            end -= 1  # the stop after the name, not an initial's ("A. S.")
        written = text[start:end].title()
        if in_heading(text, start) or not _a_name(written, keys):
            continue
        if _after_closing(before + SEPARATOR + text[: found.start()]):
            yield start, end, written


def dateline(text: str, start: int, end: int) -> bool:
    """Whether the name at `text[start:end]` opens a letter's dateline: a line of its own
    after a blank one, only an address or a date after the name, and the next line with words
    opening a salutation. An epistolary novel's "Parklands." (NER's person four times in
    five) is where a letter was written, a place; a sentence's end wrapped onto a line
    ("passed across to\nAnne.", before '"Dear Anne," ran the note') is no dateline."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip(" \t_") or text[start:end].isupper():
        return False  # inside a line; or a signature in capitals, which may precede a letter
    if line_start and not BLANK_LINE_BEFORE.search(text, max(0, line_start - 40), line_start):
        return False
    rest = DATELINE_REST.match(text, end)
    following = text[rest.end() : rest.end() + 200].lstrip() if rest else ""
    return SALUTATION.match(following) is not None


def _after_closing(before: str) -> bool:
    """Whether the last line of `before` holding words is a letter's closing."""
    last = before[-CLOSING_CHARS:].rstrip().rsplit("\n", 1)[-1]
    return CLOSING.search(last) is not None or last.endswith(",")


def _untitled(name: str) -> str:
    """The key of `name` without the titles before it: "Mr. De Courcy" knows "De Courcy"."""
    words = name.split()
    while len(words) > 1 and names.is_title(words[0]):
        words = words[1:]
    return names.key(" ".join(words))


def _a_name(written: str, keys: set[str]) -> bool:
    words = written.replace(".", " ").split()
    # An initial before a name is no numeral: "C. VERNON" is Catherine Vernon's signature.
    tokens = written.split()
    numerals = tokens[-1:] + [w for w in tokens[:-1] if not INITIAL.fullmatch(w)]
    if POSSESSIVE.search(written) or any(ROMAN.fullmatch(w.rstrip(".")) for w in numerals):
        return False  # "MINA MURRAY'S JOURNAL", "BOOK XII": a heading's
    if words[0].lower() in ("the", "a", "an") or all(names.is_title(word) for word in words):
        return False  # "MOTHER.", signed by what she is
    if len(words) == 1 and words[0].lower() in CALENDAR:
        return False  # a date heading the next letter: "DECEMBER."
    if len(words[0]) == 1 and names.is_title(words[0]):
        return False  # an initial read as a title ("M. Gardiner" as Monsieur)
    # A family name of two words counts whole: "R. DE COURCY" signs as "De Courcy".
    family = (" ".join(words[i:]) for i in range(len(words)))
    return any(names.key(part) in keys for part in family) or any(
        census.is_given_name(word) or names.key(word) in keys for word in words
    )
