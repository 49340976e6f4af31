"""Whose aim a sentence sets, as a careful reader takes it: the name right before the verb
("Jo resolved"), a title after "the" there ("the Count decided"), or a pronoun whose person
the passage leaves in no doubt:

- "he" or "she", where its paragraph names one person only who could be of that sex before
  it, and is, and no dialogue runs between ("Godfrey rode home with Nancy. He had resolved
  to tell his father": Godfrey's). Told in the third person, that person must be the one
  the story takes up most by that pronoun, unless none is yet: a heroine goes unnamed for
  pages ("she determined to mention it" is Anne Elliot's, in a paragraph naming Mrs Smith);
- the narrator's "I", outside any quotation (a speaker's "I" is whoever speaks): "the
  narrator", or in a novel of letters or journals the writer the part's heading names
  (`loci.toolsets.story.section_writers`).

Never a place, never a pronoun two people could take, never a name of another paragraph. A
name's sex is what its title or the census says of it, else what the pronouns taking it up
have said so far in the story (`kinds.Votes.sex`): a place NER took for a person has none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from loci.storage.databases.db import Connection
from loci.toolsets.story import address, kinds, names, section_writers
from loci.toolsets.story.census import census_sex
from loci.toolsets.story.mentions import Mention

#: Words that may stand between a subject and the verb of its aim ("Jo had at last
#: resolved", "she was determined"), at most BETWEEN_WORDS of them, on one line or across a
#: line break.
BETWEEN = re.compile(
    r"^(?:\s+(?:had|has|have|was|is|were|now|then|at|last|firmly|solemnly|secretly|"
    r"suddenly|finally|also|quietly|silently|privately|once|instantly|therefore|already))*\s+$"
)
BETWEEN_WORDS = 3
#: "the" right before a name: "The Harvilles had promised" is a family's thread.
THE_BEFORE = re.compile(r"\b[Tt]he[ \t]+\Z")
#: A title after "the", the last before an aim's verb: an epithet ("the Count", "the Captain").
THE_TITLE = re.compile(r"\b[Tt]he[ \t]+([A-Z][a-z]+)(?=(?:\s+[a-z]+)*\s+$)")
#: A relative pronoun right before a subject.
RELATIVE_BEFORE = re.compile(r"\b(?:which|whom)\s+\Z")
#: A pronoun that may be an aim's subject.
PRONOUN = re.compile(r"\b(I|[Hh]e|[Ss]he)\b")
PRONOUN_SEX = {"he": "m", "she": "f"}
#: How far before the verb (in characters) an epithet or a pronoun is looked for.
SUBJECT_REACH = 80
#: Marks of dialogue: double quotes, an opening single quote, or a straight one before a word.
DIALOGUE = re.compile(r"[\"\u201c\u201d\u2018]|(?<!\w)'(?=\w)")
#: A single quotation mark opening, and closing (a closing one is no apostrophe: nothing
#: follows it).
SINGLE_OPENING = re.compile(r"(?<!\w)['\u2018](?=\w)")
SINGLE_CLOSING = re.compile(r"(?<=[\w.,!?;:\u2014-])['\u2019](?!\w)")
NARRATOR = "the narrator"
NARRATORS_I = re.compile(r"\bI\b")
#: Narration saying "I" this often per thousand words is told in the first person (first-person
#: novels say it 5.7 to 21 times, third-person ones under 1).
FIRST_PERSON = 3


def subject(
    conn: Connection, session: int, text: str, verb: int, mentions: Sequence[Mention]
) -> str | None:
    """Whose aim the verb at `verb` of `text` sets (see the module's docstring), or None."""
    before = [m for m in mentions if m.end <= verb and m.end > m.start]
    if before and _just_before(text, before[-1].end, verb):
        name = before[-1]
        if name.label == "place" or _relative(text, name.start):
            return None
        family = THE_BEFORE.search(text, max(0, name.start - 4), name.start)
        return f"the {name.surface}" if family and name.surface.endswith("s") else name.surface
    reach = max(0, verb - SUBJECT_REACH)
    epithet = THE_TITLE.search(text, reach, verb)
    if epithet is not None and names.is_title(epithet.group(1)):
        return f"the {epithet.group(1)}" if _just_before(text, epithet.end(1), verb) else None
    pronoun = _last(PRONOUN.finditer(text, reach, verb))
    if pronoun is None or not _just_before(text, pronoun.end(), verb):
        return None
    if _relative(text, pronoun.start()):
        return None
    if pronoun.group(1) == "I":
        if _in_dialogue(text, pronoun.start()):
            return None
        return section_writers.writer(conn, session, text, pronoun.start()) or NARRATOR
    return _antecedent(conn, session, text, pronoun, before)


def _antecedent(
    conn: Connection, session: int, text: str, pronoun: re.Match[str], before: Sequence[Mention]
) -> str | None:
    """The one person of the pronoun's sex its paragraph names before it (none of another
    name who could be of that sex), if the pronoun is narration and no dialogue runs from the
    person's last mention to it."""
    paragraph = text.rfind("\n\n", 0, pronoun.start())
    start = 0 if paragraph < 0 else paragraph + 2
    sex = PRONOUN_SEX[pronoun.group(1).lower()]
    named = [m for m in before if m.start >= start and m.label not in ("place", "other")]
    fitting: dict[str, tuple[str | None, Mention]] = {}
    for mention in named:
        found = _sex(conn, session, mention.surface)
        if found in (sex, None):
            fitting[names.key(mention.surface)] = (found, mention)
    if len(fitting) != 1:
        return None
    found, last = next(iter(fitting.values()))
    if found != sex or _in_dialogue(text, pronoun.start()):
        return None
    if DIALOGUE.search(text, last.end, pronoun.start()):
        return None
    focus = None if _first_person(text) else _protagonist(conn, session, sex)
    return last.surface if focus in (None, names.key(last.surface)) else None


def _first_person(text: str) -> bool:
    """Whether `text` is told in the first person: its narration says "I" FIRST_PERSON times
    per thousand words or more."""
    said = sum(1 for m in NARRATORS_I.finditer(text) if not _in_dialogue(text, m.start()))
    return said * 1000 >= FIRST_PERSON * max(1, len(text.split()))


def _protagonist(conn: Connection, session: int, sex: str) -> str | None:
    """The name the story has taken up most by pronouns of `sex` so far (its key)."""
    column = "male" if sex == "m" else "female"
    row = conn.execute(
        f"SELECT key FROM story_names WHERE session = ? AND {column} > 0 "
        f"ORDER BY {column} DESC, id LIMIT 1",
        (session,),
    ).fetchone()
    return None if row is None else str(row[0])


def _sex(conn: Connection, session: int, surface: str) -> str | None:
    """A name's sex: its title's, the census's for its first word, else the pronouns'."""
    name = names.parse(surface)
    if name.sex:
        return name.sex
    said = census_sex(surface.split()[0].lower())
    if said:
        return said
    row = conn.execute(
        f"SELECT {kinds.VOTE_COLUMNS} FROM story_names WHERE session = ? AND key = ?",
        (session, names.key(surface)),
    ).fetchone()
    return None if row is None else kinds.Votes(*row).sex()


def _in_dialogue(text: str, at: int) -> bool:
    """Whether `at` stands inside a quotation of its paragraph: a double one
    (`address.in_quotation`), or a single one opened before it and not closed since (a speech
    of several paragraphs opens each and closes the last)."""
    left = text.rfind("\n\n", 0, at)
    start = 0 if left < 0 else left + 2
    if address.in_quotation(text[start:at]):
        return True
    opened = _last(SINGLE_OPENING.finditer(text, start, at))
    closed = _last(SINGLE_CLOSING.finditer(text, start, at))
    return opened is not None and (closed is None or closed.start() < opened.start())


def _relative(text: str, subject: int) -> bool:
    """Whether the subject at `subject` opens a relative clause, whose aim's object stands
    before it: "the dreadful secret which I had promised to reveal to her"."""
    return RELATIVE_BEFORE.search(text, max(0, subject - 12), subject) is not None


def _just_before(text: str, end: int, verb: int) -> bool:
    """Whether a subject ending at `end` stands right before the verb at `verb`."""
    between = text[end:verb]
    return (
        len(between.split()) <= BETWEEN_WORDS
        and "\n\n" not in between
        and BETWEEN.match(between) is not None
    )


def _last(found: Iterator[re.Match[str]]) -> re.Match[str] | None:
    last = None
    for last in found:  # noqa: B007 (the loop keeps the last)
        pass
    return last
