"""Where a name a text writes begins and ends: past an article, the stop words NER runs into
("But Ahab") and words of address ("Friend John"); up to its last capitalised word ("Jo
warmly" is Jo; "Scrooge Scrooge" is Scrooge said twice), before a possessive ("Dr. Seward's
Diary" is Dr. Seward's, unless a word for a place follows: "Lincoln's Inn"), before a word set
in capitals ("G. J. Utterson ALONE"), at a full stop that ends a sentence ("asked the Tin
Woodman. Nell"), and through "of" in a name made with it ("the Wicked Witch of the West", "the
Duke of Wellington", "the Ghost of Christmas Present", where NER saw "Ghost" alone), but not
after a person's own name ("Mr. Darcy of Pemberley" is Mr. Darcy)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from loci import sentences
from loci.toolsets.story import census, names, titles
from loci.toolsets.story.address import CALENDAR
from loci.toolsets.story.gazetteer import KIN_TITLES, title_before
from loci.toolsets.story.place_words import PLACE_HEADS

PRONOUNS = frozenset(
    [
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
        # Indefinite pronouns: "Nobody said anything" names no one.
        "nobody",
        "somebody",
        "anybody",
        "everybody",
        "someone",
        "anyone",
        "everyone",
        "none",
    ]
)
POSSESSIVE = re.compile(r"(?:['\u2019]s|['\u2019])$")
NAME_STOP = re.compile(r"[;:!?,\u2014\u2013()\"\u201c\u201d]|--|\s'|'\s|_")
#: A word NER may run into before a name: a stop word, with its contraction ("Where's"), or
#: the vocative "O" ("O Laurie"); the name may follow on the next line ("Marry\nGeorge").
STOP_WORD = re.compile(r"([A-Za-z]+)(?:['\u2019][a-z]+)?(?:[ \t]+\n?|\n)[ \t]*")
#: A given name and a family name: "Walter Ridley".
FULL_NAME = re.compile(r"([A-Z][a-z]+)(?:[ \t]+\n?|\n)[ \t]*[A-Z][a-z]+")
#: A contraction after a word: "I've", "You'll", "He'd", "Don't" (but "O'Hara" is a name).
CONTRACTION = re.compile(r"['\u2019](?:ve|ll|d|re|m|s|t)$", re.IGNORECASE)
LEADING_ARTICLE = re.compile(r"^(?:the|The|a|A|an|An)\s+")
ARTICLE_BEFORE = re.compile(r"\b(?:the|The)[ \t]+$")
#: "of" and a name after a name: the domain of one made with it ("the Ghost of Christmas
#: Present"), which NER seldom takes in.
OF_TAIL = re.compile(
    r"{gap}of{gap}(?:the{gap})?(?P<domain>[A-Z][\w'\u2019-]*(?:{gap}[A-Z][\w'\u2019-]*)*)".format(
        gap=r"(?:[ \t]+|[ \t]*\n[ \t]*)"  # across a line break, as prose is wrapped
    )
)
MAX_NAME_WORDS = 5
#: A stop word the census holds as a given name this often is a name ("May", "Will"); "So"
#: and "In", held a few times in a million, are not.
STOP_WORD_NAME_SHARE = 0.01
#: A capitalised word ending in "ly" and longer than this that is no given name is an adverb
#: opening a sentence ("Sorrowfully Dorothy", "Dimly Katia"), not a name's ("Emily", "Kelly").
ADVERB_LEAST = 4
#: Verbs that open a sentence asking something of the one named next ("Tell Lucy her father
#: is coming", "Ask Mr. Gray to wait"): no word of the name.
IMPERATIVES = frozenset(
    {"tell", "ask", "kiss", "let", "bid", "thank", "help", "send", "bring", "remind", "wish"}
    | {"hug", "beg", "forgive", "excuse", "fetch", "give", "inform", "order", "warn", "call"}
    | {"suppose", "marry", "leave"}  # "Suppose Lucy marries", "Leave Frederica to me"
)
#: Verbs of speech that open a sentence before the one speaking ("Said Anfisushka: ...").
SPOKEN_FIRST = frozenset({"said", "cried", "replied", "answered", "asked", "exclaimed"})
#: A possessive and a word for a place after a name: the place is named for them ("Lincoln's
#: Inn", "Lover's Lane", "Jackson's Island"), where NER stops at the name.
POSSESSIVE_PLACE = re.compile(r"['\u2019]s[ \t]+([A-Z][a-z]+)\b")
#: A possessive inside what NER took for one name: what follows is the name's, no name itself
#: ("Dr. Seward's Diary", a chapter's heading, is Dr. Seward's; "Marley's Ghost", Marley's).
POSSESSIVE_INSIDE = re.compile(r"['\u2019]s[ \t]+[A-Z]")
#: The surname after a given name's abbreviation and its full stop (". Pellow").
ABBREVIATED_SURNAME = re.compile(r"\.[ \t]+[A-Z][\w\u2019'-]+")
#: A chapter's number before its title, on its line or the next ("Chapter X. The Guardian of
#: the Gates"); never across a blank line, which no name spans.
CHAPTER = re.compile(r"(?:CHAPTER|Chapter|STAVE|Stave)[ \t]+(?:[IVXLC]+|\d+)\b\.?[ \t]*\n?[ \t]*")
#: A line break and a label opening the next line ("Subject:", "Cc:"): no name runs on into
#: it, as NER ran "To: Rebecca Ashworth" into "Subject" in a quoted email.
LABEL_LINE = re.compile(r"\n[ \t]*[A-Z][\w-]*[ \t]*:")
#: Words set in capitals before a name that is not ("I do ESTEEM Edward"): emphasis, no name's.
SHOUTED_BEFORE = re.compile(r"(?:[A-Z]{2,}[ \t]+\n?[ \t]*)+(?=[A-Z]?[a-z])")
#: Words of a style said in place of a name after "her", "his" or "your" ("Your Grace"), where
#: NER takes "Grace" for a woman's name; the style, whole, may be an alias ("Her Grace").
#: ("Ladyship" alone is the alias of "her Ladyship" and "your Ladyship": a name.)
STYLES = frozenset({"Grace", "Majesty", "Highness"})
STYLE_BEFORE = re.compile(r"\b(?:[Hh]er|[Hh]is|[Yy]our)[ \t]+\n?[ \t]*$")
#: Cries opening a line of dialogue as a name does ('"Oh, Heathcliff!"'), which spaCy lists
#: among no stop words: NER now and then takes one for a name, and every later one follows.
INTERJECTIONS = frozenset(
    {"oh", "ah", "aye", "ay", "eh", "ha", "hey", "alas", "nay", "yea", "pshaw", "pooh", "bah"}
    | {"hush", "hurrah", "hurray", "hooray", "huzza", "lo", "fie", "ahoy", "ugh", "humph"}
)
#: Lower-case words that may stand inside a name ("Lady Catherine de Bourgh").
PARTICLES = frozenset({"de", "du", "van", "von", "der", "la", "le", "di", "da"})


def is_name(surface: str) -> bool:
    """Whether `surface` can name someone: capitalised words, no pronoun, not a title alone."""
    words = surface.split()
    capitalised = [w for w in words if w[:1].isupper()]
    if not words or len(capitalised) > MAX_NAME_WORDS or any(ch.isdigit() for ch in surface):
        return False
    if not (surface[0].isupper() or _kin_titled(words)) or (surface.isupper() and len(surface) > 3):
        return False
    if all(names.is_title(w) or w.lower() in titles.ADDRESS_TITLES for w in words):
        return _surname_after_title(words)  # a title alone ("Captain", "Ladyship")
    if all(len(w.rstrip(".")) == 1 for w in words):
        return False  # an initial alone
    # "Shall I", "I. You": a pronoun is never a word of a name.
    return not any(w.rstrip(".").lower() in PRONOUNS for w in words) and not a_stop_word(surface)


def _kin_titled(words: Sequence[str]) -> bool:
    """Whether `words` are a kin title written in lower case and a name ("uncle Kimble",
    `gazetteer.KIN_BEFORE`)."""
    return len(words) > 1 and words[0] in KIN_TITLES and words[1][:1].isupper()


def _surname_after_title(words: Sequence[str]) -> bool:
    """Whether `words` are a plain title and a family name that is a title's word too ("Miss
    Abbot", "Mr. King"): after "Miss" or "Mr.", a word is a surname whatever else it is."""
    first, last = (w.rstrip(".").lower() for w in (words[0], words[-1]))
    return len(words) == 2 and first in titles.PLAIN and last not in titles.PLAIN | titles.RANKS


def a_stop_word(surface: str) -> bool:
    """Whether `surface` is one word spaCy lists as a stop word, or a cry, and no given name
    the census holds often ("There", "This", "Oh", "So"; "May" and "Will" are names), with any
    contraction ("I've")."""
    from spacy.lang.en.stop_words import STOP_WORDS

    word = CONTRACTION.sub("", surface.strip(".,'\u2019")).lower()
    common = word in STOP_WORDS or word in INTERJECTIONS
    return " " not in word and common and census.given_share(word) < STOP_WORD_NAME_SHARE


def name_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where the name NER (or a pattern) found at [start, end) is written: without an article,
    a possessive (unless a word for a place follows it: "Lincoln's Inn"), or the lower-case
    words NER ran on into ("Jo warmly"), and with a title written before it; None when what is
    left names no one."""
    article = LEADING_ARTICLE.match(text, start, end)
    if article:
        start = article.end()
    end = _with_of_tail(text, start, end)
    label = LABEL_LINE.search(text, start, min(len(text), end + 2))
    end = end if label is None else min(end, label.start())
    start = _past_stop_words(text, start, end)
    end = start + _name_length(text[start:end])
    end = _before_possessive(text, start, end)
    possessive = POSSESSIVE.search(text, start, end)
    place = POSSESSIVE_PLACE.match(text, possessive.start() if possessive else end)
    if place and place.group(1).lower() in PLACE_HEADS:
        end = place.end()
    elif possessive:
        end = possessive.start()
    start = title_before(text, start)
    end = _past_abbreviation(text, start, end)
    surface = " ".join(text[start:end].split())
    if end <= start or "\n\n" in text[start:end] or not is_name(surface):
        return None
    return None if styled(text, start, surface) else (start, end)  # "Your Grace"


def _before_possessive(text: str, start: int, end: int) -> int:
    """Where the name in [start, end) ends before a possessive inside it, unless a word for a
    place follows it ("Lincoln's Inn Fields" is a place's name, whole)."""
    inside = POSSESSIVE_INSIDE.search(text, start, end)
    if inside is None:
        return end
    place = POSSESSIVE_PLACE.match(text, inside.start())
    return end if place and place.group(1).lower() in PLACE_HEADS else inside.start()


def styled(text: str, start: int, surface: str) -> bool:
    """Whether the name `surface` at `start` is the word of a style said in place of a name
    ("Your Grace"): no one's name, though NER takes "Grace" for a woman's."""
    return surface in STYLES and STYLE_BEFORE.search(text, max(0, start - 8), start) is not None


def _past_abbreviation(text: str, start: int, end: int) -> int:
    """`end`, on past the full stop and the surname after a given name written abbreviated,
    where NER stops ("Chas. Pellow", of which it tags "Chas")."""
    if text[start:end].lower() not in sentences.GIVEN_ABBREVIATIONS:
        return end
    surname = ABBREVIATED_SURNAME.match(text, end)
    return end if surname is None else surname.end()


def through_of(text: str, start: int, end: int) -> int:
    """The end of the name at [start, end), taken on through "of" and a name when "the" comes
    before it and its head takes "of" ("the Ghost of Christmas Present", where NER or the
    known names saw "Ghost"; "the Mr. Darcy of Pemberley" stays Mr. Darcy)."""
    tail_end = _with_of_tail(text, start, end)
    if tail_end == end:
        return end
    return start + max(end - start, _name_length(text[start:tail_end]))


def _with_of_tail(text: str, start: int, end: int) -> int:
    """`end`, past "of" and the capitalised words after it, when "the" comes before `start`
    and those words are no person's ("the Journal of Tom Hollis" is Tom's journal)."""
    if not ARTICLE_BEFORE.search(text, max(0, start - 8), start):
        return end
    tail = OF_TAIL.match(text, end)
    if tail is None or census.is_given_name(tail.group("domain").split()[0]):
        return end
    return tail.end()


def _past_stop_words(text: str, start: int, end: int) -> int:
    """`start`, past the capitalised stop words NER ran into at a sentence's start ("But
    Ahab", "Where's Laurie"), as spaCy lists them, past a vocative "O", words of address,
    an adverb ("Sorrowfully Dorothy"), a chapter's number ("Chapter X. The Guardian") and
    words set in capitals ("ESTEEM Edward")."""
    heading = CHAPTER.match(text, start, end)
    if heading and heading.end() < end:
        start = heading.end()
    shouted = SHOUTED_BEFORE.match(text, start, end)
    if shouted and shouted.end() < end:
        start = shouted.end()
    word = STOP_WORD.match(text, start, end)
    while word and word.end() < end and _before_a_name(word.group(1), _opening(text, start)):
        start = word.end()
        word = STOP_WORD.match(text, start, end)
    if word and _opening(text, start) and _before_a_full_name(word.group(1), text, word.end(), end):
        start = word.end()
    return start


def _before_a_full_name(word: str, text: str, start: int, end: int) -> bool:
    """Whether `word`, opening a sentence, is no word of the full name after it: it is no
    given name, title, nickname's word or common family name, and a given name and a family
    name follow ("Sold Walter Ridley's bottom field", where NER runs the sentence's verb into
    the name; "Long John Silver" and "Nguyen Thi Lan", family name first, stay whole)."""
    lowered = word.lower()
    if census.is_given_name(word) or names.is_title(word) or lowered in names.NICKNAME_WORDS:
        return False
    if census.is_common_surname(word):
        return False
    full = FULL_NAME.match(text, start, end)
    return full is not None and census.is_given_name(full.group(1))


def _opening(text: str, start: int) -> bool:
    """Whether a word at `start` opens a sentence, a line of dialogue or the text."""
    before = text[max(0, start - 4) : start].rstrip(" \t\"\u201c\u2018('")
    return not before or before[-1] in ".!?:;\n\u201d"


def _before_a_name(word: str, opening: bool) -> bool:
    """A capitalised word that starts no name when one follows it: a stop word, the vocative
    "O", or a word of address ("Friend John", "Dear Jo"), but not one that makes a nickname
    ("Old Thunder"); and, `opening` a sentence, an adverb ("Sorrowfully Dorothy", but "the
    Cowardly Lion"), a verb asking something of the one named ("Tell Lucy") or a verb of
    speech ("Said Anfisushka")."""
    from spacy.lang.en.stop_words import STOP_WORDS

    lowered = word.lower()
    if lowered in names.NICKNAME_WORDS:
        return False
    # An adverb or a participle: "Sorrowfully Dorothy", "Leaving Joseph", "Arrested
    # Lawrence?" (not "Browning", nor "Mildred").
    adverb = (
        opening
        and lowered.endswith(("ly", "ing", "ed"))
        and len(lowered) > ADVERB_LEAST
        and not census.is_given_name(word)
        and not census.is_common_surname(word)
    )
    imperative = opening and lowered in IMPERATIVES | SPOKEN_FIRST
    # Inside a sentence a capitalised stop word the census gives as a name is one ("The
    # carter, Will Dacre, arrived"), but a month ("in May Jo went").
    named = not opening and census.is_given_name(word) and lowered not in CALENDAR
    return (
        (lowered in STOP_WORDS and not named)
        or word == "O"
        or lowered in names.ADDRESS_WORDS
        or adverb
        or imperative
    )


def _name_length(span: str) -> int:
    """The length of the name `span` starts with: its words up to the last capitalised one
    (surname particles may stand between: "Lady Catherine de Bourgh", and "of" with "the" in
    a name made with it: "Queen of the Field Mice"), never past a stop ("Mr. Darcy;--but")."""
    stop = NAME_STOP.search(span)
    span = span if stop is None else span[: stop.start()]
    length = 0
    joined, previous = False, ""  # whether "of" has joined the name; the word before
    words = list(re.finditer(r"\S+", span))
    for at, word in enumerate(words):
        token = word.group().strip("_*,;:!?\"'\u201c\u201d\u2018\u2019()[]")
        # A letter alone is an initial there, no "M." (Monsieur) that starts a name: "Miss M."
        bare = token.rstrip(".")
        titled = bool(length) and len(bare) > 1 and bare.lower() in titles.HONORIFICS
        if (
            titled
            and not _styles(words[:at])
            and (_names_next(words, at) or census.is_given_name(previous))
        ):
            # A title starts another name ("Meg Mr. Brooke"), or is a family name after a
            # given name, as often another's ("Miss Mary King"), but ends an epithet: "the
            # Monkey King"; after a style it is one more ("Dowager Viscountess Dalrymple").
            break
        if length and _shouted(token) and not _shouted(span[:length]):
            break  # a word set in capitals after a name: "G. J. Utterson ALONE"
        if length and token == previous:
            break  # one name said twice running: "called Scrooge Scrooge"
        if token[:1].isupper():
            length = word.start() + len(word.group().rstrip('_*,;:!?"\u201c\u201d()[]'))
            if token.endswith(".") and not sentences.is_abbreviation(token.rstrip(".")):
                return length - 1  # a full stop ends the sentence: "the Tin Woodman. Nell"
        elif token == "of" and length and not joined and names.takes_of(span[:length]):
            joined = True
        elif not (token.lower() in PARTICLES or (token == "the" and previous == "of")):
            break
        previous = token
    return length


def _styles(words: Sequence[re.Match[str]]) -> bool:
    """Whether `words` are titles of style or rank alone ("Dowager", "the Right Honourable"),
    no plain "Mr." or "Miss" (after which a title's word is a family name: "Miss King")."""
    held = [w.group().strip("_*,;:").rstrip(".").lower() for w in words]
    return all(names.is_title(w) and w not in titles.PLAIN for w in held)


def _names_next(words: Sequence[re.Match[str]], at: int) -> bool:
    """Whether a capitalised word follows the word at `at`, ending no sentence or clause."""
    word = words[at].group().rstrip("\"'\u201d\u2019)")
    ends = word[-1:] in ",;:!?" or (word.endswith(".") and not _abbreviated(word))
    if at + 1 >= len(words) or ends:
        return False
    return words[at + 1].group().lstrip("_*\"'\u201c\u2018(")[:1].isupper()


def _abbreviated(word: str) -> bool:
    return sentences.is_abbreviation(word.strip("_*\"'\u201c\u2018(").rstrip("."))


def _shouted(words: str) -> bool:
    """Whether `words` hold a word of two letters or more set all in capitals."""
    return any(len(w) > 1 and w.isupper() for w in re.findall(r"[^\W\d_]+", words))
