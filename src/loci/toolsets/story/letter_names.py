"""Names a novel in letters gives one person: a letter headed to "Mrs. Johnson" that greets
"My dear Alicia", and one headed from her signed "ALICIA.", say that Alicia is Mrs. Johnson
(*Lady Susan*). No list of names knows it, and the two rarely keep the same company: the
letters are written to her, not of her.

A heading is a line of its own, in italics or opening with "Letter": "_Lady Susan Vernon to
Mrs. Johnson._", "Letter, Mina Murray to Lucy Westenra.". The greeting is looked for at the
letter's opening ("My dear Alicia,--", "Well, my dear Reginald, I have seen her"), the
signature at its close (`letters.signatures`). A name given so in two letters or more, to
one character and to no other, is suggested as theirs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from loci.toolsets.story import names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.evidence import merge_suggestion
from loci.toolsets.story.letters import signatures
from loci.toolsets.story.models import CastSuggestion

#: A person in a heading: up to four capitalised words, titles with their full stops.
_PERSON = r"[A-Z][\w'\u2019-]*\.?(?:[ \t]+[A-Z][\w'\u2019-]*\.?){0,3}"
#: A letter's heading: who wrote it to whom, in italics or after "Letter".
HEADING = re.compile(
    rf"^[ \t]*(?:_(?:Letter[,.]?[ \t]+)?|(?:Letter|LETTER)[,.]?[ \t]+)(?:[Ff]rom[ \t]+)?"
    rf"(?P<writer>{_PERSON})[ \t]+(?:to|TO)[ \t]+(?P<reader>{_PERSON})[.,]?_?[ \t]*$",
    re.MULTILINE,
)
#: Where a letter ends at the latest: a line in italics, a numeral alone, a "Letter" line (the
#: next letter's heading, which may name no one: "_Sir Reginald De Courcy to his Son._").
BOUNDARY = re.compile(
    r"^[ \t]*(?:_[^\n]*_|[IVXLC]+\.?|(?:Letter|LETTER)\b[^\n]*)[ \t]*$", re.MULTILINE
)
#: The greeting of a letter's reader by name.
GREETING = re.compile(
    r"\b(?:[Mm]y|MY)[ \t]+(?:dear(?:est)?|DEAR(?:EST)?)[ \t]+"
    r"(?P<name>[A-Z][a-zA-Z'\u2019-]+(?:[ \t]+[A-Z][a-zA-Z'\u2019-]+)?)"
)
#: How far into a letter its greeting is looked for (past a dateline).
OPENING_CHARS = 300
#: The fewest letters that must give a name so.
LETTERS_LEAST = 2


def letter_name_suggestions(text: str, characters: Sequence[Entity]) -> list[CastSuggestion]:
    """A merge of each name the letters give a character by their headings (greeted, or
    signed, by it in LETTERS_LEAST letters or more, and never so for another character)."""
    owner = {names.key(a): e for e in characters for a in e.aliases}
    known = [a for e in characters for a in e.aliases]
    given: Counter[tuple[int, int]] = Counter()
    said: dict[tuple[int, int], str] = {}
    for headed, written, line in _letters_names(text, known):
        host, guest = owner.get(names.key(headed)), owner.get(names.key(written))
        if host is not None and guest is not None and host.id != guest.id:
            given[(host.id, guest.id)] += 1
            said.setdefault((host.id, guest.id), line)
    by_id = {e.id: e for e in characters}
    suggested = []
    for (host_id, guest_id), count in given.items():
        others = [h for h, g in given if g == guest_id and h != host_id]
        if count < LETTERS_LEAST or others:
            continue
        host, guest = by_id[host_id], by_id[guest_id]
        if guest.mentions > host.mentions:
            host, guest = guest, host
        reason = (
            f"letters headed to or from {by_id[host_id].name!r} greet or sign them as "
            f"{by_id[guest_id].name!r}, {count} times"
        )
        suggested.append(merge_suggestion(guest, host, reason, said[(host_id, guest_id)]))
    return suggested


def _letters_names(text: str, known: Sequence[str]) -> list[tuple[str, str, str]]:
    """Each (name in a heading, name the letter gives them, the heading and that line) of
    `text`'s letters: the reader and the greeting, the writer and the signature."""
    headings = list(HEADING.finditer(text))
    found = []
    for heading in headings:
        boundary = BOUNDARY.search(text, heading.end() + 1)
        body = text[heading.end() : boundary.start() if boundary else len(text)]
        shown = " ".join(heading.group().split())
        greeting = GREETING.search(body, 0, OPENING_CHARS)
        if greeting is not None:
            line = " ".join(body[greeting.start() : greeting.end()].split())
            found.append((heading.group("reader"), greeting.group("name"), f"{shown} {line}"))
        signed = list(signatures(body, known))
        if signed:
            found.append((heading.group("writer"), signed[-1][2], f"{shown} ... {signed[-1][2]}"))
    return found
