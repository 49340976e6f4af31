"""Names answered to: a name called out in dialogue that one other character answers, in the
paragraph after, time and again. Moby-Dick's Peleg calls Queequeg "Quohog" ("I say, Quohog, or
whatever your name is, did you ever strike a fish?"), and each time the next paragraph opens on
Queequeg ("Without saying a word, Queequeg ... jumped upon the bulwarks"): a speaker's own name
for a character, a nickname or a mistake, which no list of names knows.

A name the narration writes often is a character of its own, unless another answers it in a
good share of its calls ("'What's the matter, Fagin?' ... 'Matter!' replied the Jew";
"'But you will not give me your advice, Miss Dashwood?' 'No,' answered Elinor"); and a name
called out beside its answerer in the same paragraph's narration says nothing of who answers
(the one calling, or someone else present, may be named there).

In a story told in the first person the answer is the narrator's ("'Handel, my dear
fellow,' ... 'Yes,' said I"): the narrator answers to a name of their own more often than to
any other ("Pip"), and a name seldom narrated that the narrator answers as often is theirs too
(Herbert's "Handel" for Pip).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence

from loci import sentences
from loci.toolsets.story import address, census, given_names, name_readings, names
from loci.toolsets.story.entity import Entity
from loci.toolsets.story.epithets import EVIDENCE_CHARS, QUOTED
from loci.toolsets.story.evidence import merge_suggestion
from loci.toolsets.story.mentions import SPEECH_VERBS
from loci.toolsets.story.models import CastSuggestion
from loci.toolsets.story.people import Person, shares_a_name

#: The fewest calls one character answers for the name to be suggested as theirs.
ANSWERED_LEAST = 3
#: The least share of a name's calls that one character answers.
ANSWERED_SHARE = 0.6
#: A name written in narration more than this share of its uses is a character of its own.
NARRATED_SHARE = 0.25
#: ... unless another character answers this share of its calls.
NARRATED_ANSWERED = 0.4
#: Narration, which a chapter's heading ("XXXV") is not.
TOLD = re.compile(r"[a-z]")
#: A name written after "the" in this share of its uses is an epithet ("the Jew").
EPITHET_SHARE = 0.5
#: The narrator speaking in a paragraph's narration: "said I", "I replied".
NARRATOR_SPEAKS = re.compile(rf"\b(?:{SPEECH_VERBS})\s+I\b|\bI\s+(?:{SPEECH_VERBS})\b")


def answered_suggestions(
    text: str, entities: Sequence[Entity], characters: Sequence[Entity]
) -> list[CastSuggestion]:
    """A merge of each name called out at least ANSWERED_LEAST times, seldom written in
    narration, with the one character the paragraph after its calls names first, most times
    (`_Calls._least`); or, where the narrator answers it, into the narrator's own name."""
    calls = _Calls.read(text, entities, characters)
    by_id = {e.id: e for e in entities}
    suggested = []
    for guest_id, starts in calls.starts.items():
        guest = by_id[guest_id]
        if len(starts) < ANSWERED_LEAST:
            continue
        if calls.narrated(guest) > NARRATED_SHARE:
            suggested.extend(calls.narrated_answered(guest, len(starts)))
            continue
        found = calls.answerer(guest, len(starts))
        if found is not None:
            host, reason, said = found
            # Into the name the story writes more: *Dorian Gray*'s "Uncle George" (10
            # mentions, all called out) takes in "Lord Fermor" (4), who answers it.
            main, other = (host, guest) if host.mentions >= guest.mentions else (guest, host)
            suggested.append(merge_suggestion(other, main, reason, said))
    return suggested


class _Calls:
    """The names called out in a text, where, and who answers each call."""

    def __init__(self, text: str, characters: Sequence[Entity]) -> None:
        self.text = text
        self.paragraphs = _paragraphs(text)
        self.ends = [end for _, end in self.paragraphs]
        self.finder = _Finder(characters)
        self.starts: dict[int, list[int]] = {}
        self.answers: dict[int, Counter[int]] = {}
        #: The calls of each name whose paragraph after has narration: a reply in bare
        #: quotation marks, or a chapter's end, tells nothing of who answers.
        self.told: Counter[int] = Counter()
        self.said: dict[tuple[int, int], str] = {}
        #: How often the narrator answers each name's calls, and the first call answered.
        self.by_narrator: Counter[int] = Counter()
        self.narrator_said: dict[int, str] = {}
        self.people = {e.id: Person.of_names(e.id, e.aliases) for e in characters}
        #: The families the story writes of as sisters ("the Miss Bennets").
        self.sisters = name_readings.sisters_written(text, self.people.values())

    @classmethod
    def read(cls, text: str, entities: Sequence[Entity], characters: Sequence[Entity]) -> _Calls:
        """The calls of `text` of the names of `entities` (places aside), and their answers."""
        calls = cls(text, characters)
        owner = {names.key(a): e for e in entities if e.kind != "place" for a in e.aliases}
        for start, end in sorted(set(address.called(text, within=True))):
            guest = owner.get(names.key(text[start:end]))
            if guest is not None:
                calls.starts.setdefault(guest.id, []).append(start)
                calls._answered(guest, start)
        return calls

    def _answered(self, guest: Entity, start: int) -> None:
        at = bisect.bisect_right(self.ends, start)
        if at + 1 < len(self.paragraphs):
            self.told[guest.id] += bool(TOLD.search(self._narration(at + 1)))
            # The narrator calling ('"William," said I') is not the narrator answering.
            calling, after = (self._narration(at + k) for k in (0, 1))
            if NARRATOR_SPEAKS.search(after) and not NARRATOR_SPEAKS.search(calling):
                self.by_narrator[guest.id] += 1
                said = f"{_sentence(self.text, start, guest)} {self._narrator_says(at + 1)}"
                self.narrator_said.setdefault(guest.id, said)
        found = _answer(self.text, self.paragraphs, at, self.finder, guest)
        if found is not None:
            self.answers.setdefault(guest.id, Counter())[found[0].id] += 1
            said = f"{_sentence(self.text, start, guest)} {found[1]}"
            self.said.setdefault((guest.id, found[0].id), said)

    def _narrator_says(self, at: int) -> str:
        """The sentence of paragraph `at` where the narrator speaks."""
        left, right = self.paragraphs[at]
        found = sentences.split(self.text[left:right])
        said = next((s for s in found if NARRATOR_SPEAKS.search(s)), found[0])
        return sentences.clipped(" ".join(said.split()), EVIDENCE_CHARS // 2)

    def _narration(self, at: int) -> str:
        left, right = self.paragraphs[at]
        return QUOTED.sub(" ", self.text[left:right])

    def answerer(self, guest: Entity, calls: int) -> tuple[Entity, str, str] | None:
        """The character who answers most of the guest's `calls`, with the reason and a
        sentence of evidence, if one does often enough."""
        answers = self.answers.get(guest.id, Counter())
        if answers:
            host_id, count = answers.most_common(1)[0]
            host = self.finder.by_id[host_id]
            refused = self.courtesy(guest, host) or self.shared_epithet(host, guest)
            if count >= self._least(guest, answers) and not refused:
                reason = (
                    f"{guest.name!r} is called out {calls} times, and {count} times the "
                    f"paragraph after opens on {host.name!r}, who answers to it"
                )
                return host, reason, self.said[(guest.id, host_id)]
        return self._narrators(guest, calls)

    def narrated_answered(self, guest: Entity, calls: int) -> list[CastSuggestion]:
        """A merge of a name the narration writes often and another character answers to,
        in the paragraph after, in NARRATED_ANSWERED of its calls that paragraph tells of (and
        most of its answered ones): *Sense and Sensibility*'s "Miss Dashwood", answered by
        Elinor 8 times of 18; *Washington Square*'s "Lavinia", by Mrs. Penniman 3 times of 8,
        each of the 3 whose reply is not in bare quotation marks;
        *Oliver Twist*'s "Fagin", by "the Jew" 26 times of 47 (an epithet, written after
        "the" in most of its uses, goes into the name; a name answering, into the more
        mentioned of the two)."""
        answers = self.answers.get(guest.id, Counter())
        if not answers:
            return []
        host_id, count = answers.most_common(1)[0]
        host = self.finder.by_id[host_id]
        if count < self._least(guest, answers) or _given_apart(guest, host):
            return []
        if self.courtesy(guest, host) or self.shared_epithet(host, guest):
            return []
        said = self.said[(guest.id, host_id)]
        if written_after_the(self.text, host):
            reason = (
                f"{guest.name!r} is called out {calls} times, and {count} times the paragraph "
                f"after opens on 'the {host.name}', who answers to it"
            )
            return [merge_suggestion(host, guest, reason, said)]
        reason = (
            f"{guest.name!r} is called out {calls} times, and {count} times the paragraph "
            f"after opens on {host.name!r}, who answers to it"
        )
        main, other = (host, guest) if host.mentions >= guest.mentions else (guest, host)
        return [merge_suggestion(other, main, reason, said)]

    def shared_epithet(self, host: Entity, guest: Entity) -> bool:
        """Whether the host is an epithet other characters' names carry the word of: *A
        Christmas Carol*'s "the Ghost" answers "Jacob" in Marley's scenes, but the Ghost of
        Christmas Past and the Ghost of Christmas Present are "the Ghost" in theirs."""
        if not written_after_the(self.text, host):
            return False
        person = self.people[host.id]
        return any(
            shares_a_name(person, other)
            for number, other in self.people.items()
            if number not in (host.id, guest.id)
        )

    def courtesy(self, guest: Entity, host: Entity) -> bool:
        """Whether the guest is "Miss" and a family of sisters, the eldest's name ("Miss
        Bennet", of "the Miss Bennets"), and the host a younger sister the story calls "Miss"
        and her given name ("Miss Elizabeth"), or the other way round: who is called so where
        her sister is away answers by courtesy. *Pride and Prejudice*'s Lady Catherine calls
        Elizabeth "Miss Bennet", and she answers; the narration keeps the name for Jane."""
        guest_person = self.people.get(guest.id) or Person.of_names(guest.id, guest.aliases)
        return name_readings.eldest_and_younger(guest_person, self.people[host.id], self.sisters)

    def _least(self, guest: Entity, answers: Counter[int]) -> float:
        """The fewest calls one character must answer for the guest's name to be theirs:
        ANSWERED_SHARE of those a character answers by name, and NARRATED_ANSWERED of those
        whose paragraph after has narration. A reply taken up by a pronoun ("he laughed")
        or in bare quotation marks tells nothing of who answers: *Dorian Gray*'s "Harry",
        called out 108 times, is answered by name 40 times, 32 of them by Lord Henry."""
        return max(
            ANSWERED_LEAST,
            ANSWERED_SHARE * answers.total(),
            NARRATED_ANSWERED * self.told[guest.id],
        )

    def _narrators(self, guest: Entity, calls: int) -> tuple[Entity, str, str] | None:
        """The narrator's name, when the narrator answers the guest's calls as often as their
        own name's (and at least ANSWERED_LEAST times)."""
        ranked = [(n, i) for i, n in self.by_narrator.most_common() if i in self.finder.by_id]
        if not ranked or ranked[0][1] == guest.id or ranked[0][0] < ANSWERED_LEAST:
            return None
        count, narrator = self.by_narrator[guest.id], self.finder.by_id[ranked[0][1]]
        own = ranked[0][0] / len(self.starts[narrator.id])
        if count < ANSWERED_LEAST or count < own * calls:
            return None
        reason = (
            f"{guest.name!r} is called out {calls} times, and {count} times the narrator "
            f"answers in the paragraph after, as to {narrator.name!r}, the narrator's own name"
        )
        return narrator, reason, self.narrator_said[guest.id]

    def narrated(self, guest: Entity) -> float:
        """The share of the guest's names' uses that stand outside quotation marks."""
        return _narrated(self.text, self.paragraphs, guest)


class _Finder:
    """The characters' names as one pattern, to find the first of them a text writes."""

    def __init__(self, characters: Sequence[Entity]) -> None:
        self.owner = {a: e for e in characters for a in e.aliases}
        self.by_id = {e.id: e for e in characters}
        alternatives = "|".join(map(re.escape, sorted(self.owner, key=len, reverse=True)))
        self.pattern = re.compile(rf"(?<![\w.])(?:{alternatives})(?!\w)") if self.owner else None

    def named(self, text: str) -> list[Entity]:
        """The characters `text` names, in order."""
        if self.pattern is None:
            return []
        return [self.owner[m.group()] for m in self.pattern.finditer(text)]


def _answer(
    text: str,
    paragraphs: Sequence[tuple[int, int]],
    at: int,
    finder: _Finder,
    guest: Entity,
) -> tuple[Entity, str] | None:
    """The character named first in the narration of the paragraph after paragraph `at`, and
    its sentence; None when there is none, when it is the guest, or when the calling
    paragraph's narration names them too."""
    if at + 1 >= len(paragraphs):
        return None
    left, right = paragraphs[at + 1]
    following = text[left:right]
    named = finder.named(QUOTED.sub(" ", following))
    if not named or named[0].id == guest.id:
        return None
    calling = text[paragraphs[at][0] : paragraphs[at][1]]
    if named[0].id in {e.id for e in finder.named(QUOTED.sub(" ", calling))}:
        return None
    held = (s for s in sentences.split(following) if named[0].id in _ids(finder, s))
    first = next(held, following)  # a name read across a quotation taken out: its paragraph
    return named[0], sentences.clipped(first, EVIDENCE_CHARS // 2, keep=named[0].aliases)


def _ids(finder: _Finder, text: str) -> set[int]:
    return {e.id for e in finder.named(text)}


def _narrated(text: str, paragraphs: Sequence[tuple[int, int]], guest: Entity) -> float:
    """The share of the guest's names' uses that stand outside quotation marks (`paragraphs`:
    the spans of the text's paragraphs)."""
    pattern = re.compile(rf"(?<![\w.])(?:{'|'.join(map(re.escape, guest.aliases))})(?!\w)")
    inside = outside = 0
    for left, right in paragraphs:
        paragraph = text[left:right]
        uses = len(pattern.findall(paragraph))
        if uses:
            narrated = len(pattern.findall(QUOTED.sub(" ", paragraph)))
            outside += narrated
            inside += uses - narrated
    return outside / (inside + outside) if inside + outside else 1.0


def _given_apart(a: Entity, b: Entity) -> bool:
    """Whether the two go by given names that are no one name: *Persuasion*'s Elizabeth, whose
    "Miss Elliot" is called out where her sister Anne answers, is no Anne."""
    mine, theirs = _given(a), _given(b)
    return bool(mine and theirs) and not any(
        given_names.same_given(x, y) for x in mine for y in theirs
    )


def _given(entity: Entity) -> set[str]:
    """The given names of the entity's names, and its single words the census holds as given
    names far more than as surnames."""
    found: set[str] = set()
    for alias in entity.aliases:
        name = names.parse(alias)
        found |= name.given | {w for w in name.bare if census.given_not_surname(w)}
    return found


def written_after_the(text: str, entity: Entity) -> bool:
    """Whether the story writes the entity's names after "the" in at least EPITHET_SHARE of
    their uses ("the Jew", "the Dodger")."""
    names_of = "|".join(map(re.escape, entity.aliases))
    uses = len(re.findall(rf"(?<![\w.])(?:{names_of})(?!\w)", text))
    after_the = len(re.findall(rf"\b[Tt]he\s+(?:{names_of})(?!\w)", text))
    return uses > 0 and after_the >= EPITHET_SHARE * uses


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """The spans of the paragraphs of `text` (split at blank lines)."""
    spans, start = [], 0
    for match in re.finditer(r"\n\s*\n", text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


def _sentence(text: str, at: int, called: Entity) -> str:
    left, right = sentences.around(text, at, at + 1)
    return sentences.clipped(text[left:right], EVIDENCE_CHARS // 2, keep=called.aliases)
