"""Who writes the part of a novel in letters or journals a sentence stands in: the writer its
last heading names.

A letter's heading names its writer ("_Mrs. Vernon to Lady De Courcy._", "Letter, Mina Murray
to Lucy Westenra."; "_From the same to the same._" keeps the one before), a journal's its
keeper ("JONATHAN HARKER'S JOURNAL", "Dr. Seward's Diary"), on a line of its own. The "I" of
such a part is its writer's, not one narrator's: a plot thread an "I resolved" opens there is
"Mrs. Vernon's resolution". A novel without such headings has no section writers; its "I" is
the narrator's.
"""

from __future__ import annotations

import re

from loci.storage.databases.db import Connection
from loci.toolsets.story import store
from loci.toolsets.story.letter_names import HEADING

#: A writer's name in a heading: up to four capitalised words, titles with their stops.
_NAME = r"[A-Z][A-Za-z'\u2019-]*\.?(?:[ \t]+[A-Z][A-Za-z'\u2019-]*\.?){0,3}"
#: The kinds of record a part of such a novel is.
_RECORD = r"(?:JOURNAL|DIARY|LOG|MEMORANDUM|NARRATIVE|Journal|Diary|Log|Memorandum|Narrative)"
#: A journal's heading: a keeper's name in the possessive and the kind of record (a word or
#: two may stand between), on a line of its own, in capitals or not ("MINA MURRAY'S
#: JOURNAL", "Dr. Seward's Diary--continued.", "Dr. Seward's Phonograph Diary"); or the
#: record and its writer after "by" ("Memorandum left by Lucy Westenra.").
JOURNAL = re.compile(
    r"^[ \t_]*(?:CHAPTER[ \t]+\w+\.?[ \t]+)?(?:"
    rf"(?P<writer>{_NAME})['\u2019][Ss][ \t]+"
    rf"(?:[A-Z][A-Za-z]+[ \t]+){{0,2}}{_RECORD}\b"
    rf"|{_RECORD}[ \t]+(?:[a-z]+[ \t]+)?by[ \t]+(?P<by>{_NAME})"
    r")[^\n]{0,40}$",
    re.MULTILINE,
)
#: A letter headed as by the writer of the one before.
SAME = re.compile(r"^[ \t_]*From the same to the same[.,]?_?[ \t]*$", re.MULTILINE | re.I)
#: How far back (in characters of the story) a heading is looked for: a journal runs on for
#: chapters, and a letter's heading is its writer's till the next.
REACH = 200_000


def writer(conn: Connection, session: int, text: str, at: int) -> str | None:
    """The writer of the letter or journal in which `text[at]` stands, reading back into the
    story stored before `text` (whose last piece `text` may already be), or None."""
    found = last_writer(text[:at])
    if found is not None:
        return found
    stored = store.tail(conn, session, REACH + len(text))
    if stored.endswith(text):
        stored = stored[: len(stored) - len(text)]
    return last_writer(stored[-REACH:] + "\n\n" + text[:at])


def last_writer(before: str) -> str | None:
    """The writer the last heading of `before` names, as the story writes names ("JONATHAN
    HARKER" is "Jonathan Harker"), or None when it holds none."""
    headings = [
        *((m.start(), m.group("writer")) for m in HEADING.finditer(before)),
        *((m.start(), m.group("writer") or m.group("by")) for m in JOURNAL.finditer(before)),
        *((m.start(), "") for m in SAME.finditer(before)),
    ]
    named = None
    for _, name in sorted(headings):
        named = name or named  # "From the same to the same" keeps the writer before
    if named is None:
        return None
    if len(named.split()[-1].rstrip(".")) > 2:
        named = named.rstrip(".")  # the heading's stop, not an initial's ("Lucy Westenra.")
    return named.title() if named.isupper() else named
