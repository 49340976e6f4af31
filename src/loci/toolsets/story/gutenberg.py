"""A Project Gutenberg book without what is not the story.

Around the book, Project Gutenberg puts its header and licence between START and END lines (an
older file may have no START line, and ends "End of Project Gutenberg's <title>");
inside them, a printed book still has front matter (title page, dedication, preface, contents,
list of illustrations) and may have back matter (the publisher's advertisements, a list of the
author's works, transcriber's notes). The story is read from the first chapter heading that
prose follows (a table of contents lists headings with no prose between them) to the last
chapter's end: a "THE END" or "FINIS" line, else the first back-matter heading after the last
chapter heading. A book with no chapter headings is read from its first prose, or the title line
right before it, when a title page (a byline) or a preface comes before.
A printed book copied without the licence lines loses its front matter the same way, when it
has one (a byline or a preface heading before the first chapter).
"""

from __future__ import annotations

import re

START = re.compile(
    r"^\s*(?:\*\*\* ?START OF (?:THE|THIS) PROJECT GUTENBERG|\*END\*THE SMALL PRINT).*$",
    re.M | re.I,
)
END = re.compile(
    r"^\s*(?:\*\*\* ?END OF (?:THE|THIS) PROJECT GUTENBERG"
    r"|End of (?:the )?Project Gutenberg(?:['\u2019]s| e-?book| e-?text)).*$",
    re.M | re.I,
)
NUMBER = r"(?:\d+|[IVXLCDM]+|one|two|three|four|five|six|seven|eight|nine|ten|first|the first)"
#: A chapter heading on a line of its own ("CHAPTER I.", "Letter 1", "BOOK II", "IV.").
HEADING = re.compile(
    rf"^[ \t]*(?:\[Illustration:?[ \t]*)?(?:(?P<word>(?:chapter|letter|book|part|volume|stave|"
    rf"canto)[ \t]+{NUMBER}\b[^\n]*)|(?P<roman>[IVXLC]+\.?[ \t]*\]?)|(?P<digits>\d{1, 3}\.?)|"
    r"(?P<close>epilogue\.?|conclusion\.?))[ \t]*$",
    re.M | re.I,
)
#: A chapter's title under its number runs to this many lines at most ("Chapter VI" of *A Room
#: with a View*, whose title names its seven travellers).
TITLE_LINES_MOST = 6
#: A word a title capitalises, as prose does not: four letters or more ("in", "to", "the" and
#: "and" stay small in "Drive Out in Carriages to See a View").
TITLE_WORD = re.compile(r"(?<![\w'\u2019])[^\W\d_]{4,}")
#: An illustration's caption, as Project Gutenberg prints it.
CAPTION = re.compile(r"\[\s*Illustration\b", re.I)
THE_END = re.compile(r"^[ \t]*(?:\[Illustration:?\s*)?(?:THE\s+END|FINIS)\.?[ \t\]]*$", re.M | re.I)
#: Headings that open back matter, on a line of their own.
BACK_MATTER = re.compile(
    r"^[ \t]*(?:transcriber[\u2019']?s?[ \t]+notes?|advertisements?|footnotes|"
    r"(?:other[ \t]+)?(?:books|works|writings|stories|novels)[ \t]+(?:by|of)\b[^\n]*|"
    r"[^\n]{0,40}[\u2019']s[ \t]+(?:works|writings|books|novels)|by[ \t]+the[ \t]+same[ \t]+author"
    r")[ \t.:]*$",
    re.M | re.I,
)
#: A printed book's front matter, a paragraph of its own: a byline ("by", "BY GEORGE ELIOT",
#: "WRITTEN BY HIMSELF AND NOW SET FORTH BY"), or a heading of a preface, an introduction,
#: contents or a dedication.
FRONT_MATTER = re.compile(
    r"(?:\A|\n\n)[ \t]*(?:(?:written[ \t]+)?by(?:[ \t]+[^\n]{1,60})?"
    r"|(?P<part>(?:preface|introduction|foreword|contents|table[ \t]+of[ \t]+contents"
    r"|dedication)\b[^\n]{0,40}))[ \t.:]*(?=\n\n|\n?\Z)",
    re.I,
)
#: A paragraph: lines with no blank line between.
PARAGRAPH = re.compile(r"[^\n]+(?:\n[^\n]+)*")
#: Words a title leaves in lower case.
SMALL_WORDS = frozenset({"a", "an", "and", "by", "for", "in", "of", "on", "the", "to", "written"})
#: A table of contents lists this many headings of a kind at least, with no prose between one
#: and the next: a chapter of a few lines of verse between two headings is no contents.
CONTENTS_LEAST = 3
#: A paragraph of prose has this many words, most of them in lower case (a table of contents,
#: a title page or a caption has not).
PROSE_WORDS = 25


def licensed_part(text: str) -> str:
    """The text between Project Gutenberg's START (or the text's start) and END lines
    (unchanged without an END line)."""
    if not is_gutenberg(text):
        return text
    start, end = START.search(text), END.search(text)
    assert end is not None
    return text[start.end() if start else 0 : end.start()].strip("\n")


def is_gutenberg(text: str) -> bool:
    """Whether `text` carries Project Gutenberg's END line, after its START line if it has
    one."""
    start, end = START.search(text), END.search(text)
    return end is not None and (start is None or start.end() <= end.start())


def story_part(text: str) -> str:
    """A Gutenberg book's story: no licence, no front matter, no back matter. Any other text
    without a printed book's front matter (`_without_front_matter`), else unchanged."""
    if not is_gutenberg(text):
        return _without_front_matter(text)
    book = licensed_part(text)
    headings = list(HEADING.finditer(book))
    first = _first_story_heading(book, headings)
    if first is None:
        return _without_front_matter(book)
    start = book.rfind("\n\n", 0, first.start()) + 1
    opening = book.rfind("[", max(0, start - 400), start)
    if first.group().rstrip().endswith("]") and opening > book.rfind("]", 0, start):
        start = book.rfind("\n\n", 0, opening) + 1  # a heading inside an illustration
    kind = first.lastgroup
    last = [h for h in headings if h.lastgroup in (kind, "close")][-1]
    return book[start : _back_matter(book, last.end())].strip("\n")


def _without_front_matter(text: str) -> str:
    """`text` from its first chapter heading followed by prose, when what comes before holds
    a printed book's front matter (a preface, contents or dedication heading; or a byline,
    "by George Eliot", and no prose: a title page), each a paragraph of its own: a book
    copied without Project Gutenberg's lines. A book with no chapter headings is read from its
    first prose (`_opening`). A writer's own untitled opening before "Chapter 1" stays."""
    first = _first_story_heading(text, list(HEADING.finditer(text)))
    start = _opening(text) if first is None else text.rfind("\n\n", 0, first.start()) + 1
    found = [m for m in FRONT_MATTER.finditer(text[:start]) if _titled(m.group())]
    headed = any(m.group("part") for m in found)
    if not (headed or (found and not _has_prose(text[:start]))):
        return text
    return text[start:].lstrip("\n")


def _opening(text: str) -> int:
    """Where a book with no chapter headings opens: its first paragraph of prose, or the line
    of a title right before it ("Blue Wednesday", *Daddy-Long-Legs*' first part, after its
    title page and dedication); 0 for a text that opens with prose."""
    paragraphs = list(PARAGRAPH.finditer(text))
    for number, paragraph in enumerate(paragraphs):
        if _has_prose(paragraph.group()):
            line = paragraphs[number - 1] if number else None
            if line is not None and line.group().strip() and "\n" not in line.group().strip():
                return line.start()
            return paragraph.start()
    return 0


def _titled(line: str) -> bool:
    """Whether `line` is written as a title is, every word capitalised but small ones ("by",
    "of"): "Introduction over, they sat down" opens a writer's scene, no book's preface."""
    words = [w for w in re.findall(r"[^\W\d_][\w'\u2019-]*", line) if w.lower() not in SMALL_WORDS]
    return all(w[0].isupper() for w in words)


def _first_story_heading(book: str, headings: list[re.Match[str]]) -> re.Match[str] | None:
    """The first chapter heading followed by prose, not a line of a table of contents (whose
    last line a preface may follow)."""
    contents = _contents(book, headings)
    for number, heading in enumerate(headings):
        stop = headings[number + 1].start() if number + 1 < len(headings) else len(book)
        listed = heading.start() in contents or _listed(book, heading, headings)
        if heading.lastgroup != "close" and not listed and _has_prose(book[heading.end() : stop]):
            return heading
    return None


def _contents(book: str, headings: list[re.Match[str]]) -> set[int]:
    """Where the headings a table of contents lists in paragraphs of their own start: a run of
    CONTENTS_LEAST headings of a kind or more, no prose between one and the next, each
    numbered as a later heading of its kind is (the chapter it lists). *Tom Sawyer*'s list,
    "CHAPTER I. Y-o-u-u Tom—Aunt Polly Decides Upon her Duty" to "CHAPTER XXXV. ...", is
    followed by its illustrations' captions and its preface: prose after the last line, which
    made it the story's first heading. Chapters each book of a novel numbers anew have prose
    between them, no run."""
    found: set[int] = set()
    by_kind: dict[str, list[re.Match[str]]] = {}
    for heading in headings:
        by_kind.setdefault(_kind(heading), []).append(heading)
    for kind in by_kind.values():
        numbers = [_number(heading) for heading in kind]
        run = [0]
        for index in range(1, len(kind) + 1):
            if index < len(kind) and not _has_prose(
                book[kind[index - 1].end() : kind[index].start()]
            ):
                run.append(index)
                continue
            if len(run) >= CONTENTS_LEAST:
                found |= {kind[i].start() for i in run if numbers[i] in numbers[i + 1 :]}
            run = [index]
    return found


def _number(heading: re.Match[str]) -> str:
    """A heading's number as written ("XXXV" of "CHAPTER XXXV. A New Order of Things")."""
    words = re.findall(r"[^\W_]+", heading.group().upper())
    if heading.group("word"):
        return words[1] if len(words) > 1 else ""
    return next((w for w in words if w != "ILLUSTRATION"), "")


def _listed(book: str, heading: re.Match[str], headings: list[re.Match[str]]) -> bool:
    """Whether `heading` is a line of a table of contents: its paragraph holds another heading
    of its kind ("CHAPTER XXVI. Dr. Seward's Diary" above "CHAPTER XXVII. Mina Harker's
    Journal"), as no chapter's own heading does ("BOOK I" over "CHAPTER I" is one)."""
    left = book.rfind("\n\n", 0, heading.start())
    right = book.find("\n\n", heading.end())
    right = len(book) if right < 0 else right
    return any(
        other is not heading and left < other.start() < right and _kind(other) == _kind(heading)
        for other in headings
    )


def _kind(heading: re.Match[str]) -> str:
    """A heading's kind: its word ("chapter", "letter"), or how it is numbered."""
    word = heading.group("word")
    return word.split()[0].lower() if word else str(heading.lastgroup)


def _has_prose(text: str) -> bool:
    """Whether `text` holds a paragraph of prose."""
    for paragraph in text.split("\n\n"):
        words = paragraph.split()
        lower = sum(1 for w in words if w[:1].islower())
        if len(words) >= PROSE_WORDS and lower * 2 > len(words):
            return True
    return False


def _back_matter(book: str, after: int) -> int:
    """Where the story ends: at a "THE END" line, or at the first back-matter heading after
    the last chapter heading (the book's end when there is neither)."""
    ending = THE_END.search(book, after)
    if ending is not None:
        return book.rfind("\n\n", 0, ending.start()) + 1 or ending.start()
    back = BACK_MATTER.search(book, after)
    return len(book) if back is None else back.start()


def bracketed(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] stands inside square brackets within its paragraph, as an
    editor's words in a printed book do ("[Copyright 1894 by George Allen.]", "[The
    Illustrations, designed by ...]", a note), not the story's. An illustration's caption
    quotes the story ("[Illustration: Out came Meg ...]"): its names count."""
    opened = text.rfind("[", 0, start)
    if opened < 0 or text.rfind("]", opened, start) >= 0 or "\n\n" in text[opened:start]:
        return False
    if CAPTION.match(text, opened):
        return False
    closed = text.find("]", end)
    return closed >= 0 and "\n\n" not in text[end:closed]


def in_heading(text: str, at: int) -> bool:
    """Whether `at` is on a chapter heading's line ("CHAPTER XXIII. Anne Comes to Grief in an
    Affair of Honor", or a table of contents' line), or in a title set on the lines under the
    chapter's number ("Chapter XIII" and "How Miss Bartlett's Boiler Was So Tiresome"): a
    title capitalises every word, so capitals there say nothing of names."""
    line = text.rfind("\n", 0, at) + 1
    heading = HEADING.match(text, line)
    if heading is None or heading.lastgroup != "word" or heading.end() < at:
        return _under_a_number(text, line)
    return heading.group("word")[0].isupper()  # not a wrapped line of prose: "letter one day"


def listed(text: str, end: int) -> bool:
    """Whether a name ending at `end` is set off as one of a list, a comma or a semicolon
    after it: in a heading ("The Reverend Arthur Beebe, the Reverend Cuthbert Eager, ..."), a
    name, where one the title's capitals run on into ("Miss Lucy Honeychurch Drive Out in
    Carriages") is none."""
    return text[end : end + 1] in (",", ";")


def _under_a_number(text: str, line: int) -> bool:
    """Whether the line at `line` is one of TITLE_LINES_MOST lines right under a chapter's
    number (no blank line between), whose words of four letters or more, two at least, are
    all capitalised, as no lines of prose are."""
    start = line
    for _ in range(TITLE_LINES_MOST):
        if start == 0:
            return False
        above = text.rfind("\n", 0, start - 1) + 1
        if not text[above : start - 1].strip():
            return False  # a blank line: prose, or a title of its own paragraph
        heading = HEADING.match(text, above)
        if heading is not None and heading.end() == start - 1 and heading.lastgroup != "close":
            blank = text.find("\n\n", start)
            title = text[start : len(text) if blank < 0 else blank]
            words = TITLE_WORD.findall(title)
            return len(words) > 1 and all(word[0].isupper() for word in words)
        start = above
    return False
