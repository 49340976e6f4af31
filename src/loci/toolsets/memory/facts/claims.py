"""What a short statement claims: whose fact, which kind of fact, which value.

Contradictions are judged on these claims (`contradictions`): two statements contradict when
they claim the same kind of fact of the same subject with different values, or the same habit
with its yes and no turned around. The reading is a set of patterns over the words, not a
parser: spaCy's parse costs about as much as the write's embedding, and the write must stay
within 1.5x of it (`benchmarks/bench_memory.py`); what a pattern misses is no conflict, which
is the safe side (a missed flag leaves both memories, ranked as before).

A claim is not made by a statement that hedges it: a plan ("will move", "thinking about"),
a temporary state ("in Rome for two weeks", "visiting"), or an addition to a fact that may
hold many values ("also works at").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from loci import sentences
from loci.toolsets.memory.facts.claim_patterns import (
    ADDITIVE,
    ADDRESS,
    AGE,
    CHANGE,
    CHILD_WORDS,
    COUNT,
    COUNT_WORDS,
    DIETS,
    EMAIL,
    EMPLOYER,
    FAVORITE,
    FIRST_PERSON,
    HABIT,
    HOME,
    JOB_NOUNS,
    LEADING,
    LIKING,
    LINKS,
    NEGATION,
    NOT_NAMES,
    NOT_ROLES,
    NUMBERED,
    OWNED_IS,
    PHONE,
    PLAN,
    POSSESSIVE,
    PREFERS,
    PRONOUNS,
    QUIT,
    RELATIONSHIP,
    RELATIONSHIP_STATE,
    RELATIVES,
    ROLE,
    SPEAKER,
    STOP,
    STUDENT,
    SUBJECT_NAME,
    TEMPORARY,
    THING_CHANGED,
    THING_STATES,
    TIME_WORDS,
    TOPIC,
    USER,
    VEHICLE,
    VERSION,
    WAY,
)

#: The subject of a statement that names none, or speaks in the first person.
ME = "@me"


@dataclass(frozen=True)
class Claim:
    """One fact a statement states: `kind` of `subject` is `value`."""

    subject: str
    kind: str
    value: str
    #: The words the claim was read from, for the reason shown to the writer.
    words: str


class _Add(Protocol):
    """How the readers below record a claim (`who` defaults to the sentence's subject)."""

    def __call__(self, kind: str, value: str, words: str, who: str = ...) -> None: ...


#: Texts whose claims are kept: each write reads the claims of its namespace's nearest
#: memories, which are mostly the ones the writes before it read.
CACHED_TEXTS = 4096


@lru_cache(maxsize=CACHED_TEXTS)
def claims(text: str) -> tuple[Claim, ...]:
    """The claims of `text`, sentence by sentence (none from a hedged sentence); a sentence
    that starts with "he", "she" or "they" is about the last subject named before it."""
    found: list[Claim] = []
    named: str | None = None
    for sentence in sentences.split(text, lines=True):
        for clause in sentence.split(";"):
            said, subject = _sentence_claims(clause.strip(), named)
            found += said
            named = subject if not subject.startswith("@") else named
    return tuple(found)


def hedged(sentence: str) -> bool:
    """Whether `sentence` states a plan or a temporary state, not a fact that holds."""
    return PLAN.search(sentence) is not None or TEMPORARY.search(sentence) is not None


def _sentence_claims(sentence: str, named: str | None) -> tuple[list[Claim], str]:
    """The claims of one clause, and its subject (`named`: the last subject named before)."""
    if not sentence or hedged(sentence):
        return [], "@none"
    speaker = SPEAKER.match(sentence)
    body = LEADING.sub("", sentence[speaker.end() :] if speaker else sentence)
    for pattern, person in USER:
        body = pattern.sub(person, body)
    subject, owner, owned = _subject(body)
    if subject == "@someone" and named is not None:
        subject = owner = named  # "Kai moved; he lives in Leipzig now"
    if speaker is not None:  # "Ana: I moved to Oslo" is Ana's fact
        me = speaker["name"].lower()
        subject = me if subject == ME else subject.replace("my ", f"{me}'s ")
        owner = me if owner == ME else owner
    topic = _topic(body)
    additive = ADDITIVE.search(body) is not None
    negated = NEGATION.search(body) is not None
    found: list[Claim] = []

    def add(kind: str, value: str, words: str, who: str = subject) -> None:
        value = _value(value)
        if value:
            found.append(Claim(who, kind, value, words.strip()))

    if owned is not None:
        _owned_claims(body, owner, owned, add)
    relation = owned.split()[-1].lower() if owned is not None and _is_person(owned) else ""
    _person_claims(body, subject, additive, negated, add, relation)
    _thing_claims(body, topic or subject, add)
    return _unique(found), subject


def _owned_claims(body: str, owner: str, owned: str, add: _Add) -> None:
    """ "Leo's girlfriend is Sara", "My new manager is Luis", "Grace's phone number is"."""
    last = owned.split()[-1].lower()
    if last in RELATIONSHIP:
        add("relationship", RELATIONSHIP[last], body, owner)
    if match := OWNED_IS.match(body):
        noun = _content_words(match["noun"])
        if noun in JOB_NOUNS:  # "Wendy's job is head of marketing": her role
            add("role", match["v"], match[0], owner)
        elif noun:
            add(f"attribute:{noun}", match["v"], match[0], owner)


def _person_claims(
    body: str, subject: str, additive: bool, negated: bool, add: _Add, relation: str
) -> None:
    """What a statement says of a person; `relation`: the word that names them ("wife" in
    "Bruno's wife is vegan"), which says nothing of their own relationship."""
    lowered = body.lower()
    if negated:
        # "doesn't live in Munich anymore" says where Kai is not: no value to compare.
        _habit_claims(body, negated, add)
        return
    for pattern in HOME:
        match = pattern.search(body)
        if match and not _names_a_time_or_number(match["v"]):
            # "Lisbon has been home": the place is not whose home it is.
            who = ME if match["v"].lower() == subject else subject
            add("home", match["v"], match[0], who)
            break
    if not additive:
        for pattern in EMPLOYER:
            if (match := pattern.search(body)) and not _is_place_verb(match[0]):
                add("employer", match["v"], match[0])
                break
    role = ROLE.search(body)
    if role and role["v"].lower().split()[-1] not in NOT_ROLES | set(DIETS):
        add("role", role["v"], role[0])
    elif match := STUDENT.search(body):
        add("role", "student", match[0])
    words = set(re.findall(r"[a-zé]+", lowered)) - {relation}
    if diet := [DIETS[w] for w in DIETS if w in words]:
        add("diet", diet[-1], body)
    for pattern in RELATIONSHIP_STATE:
        if state := pattern.search(body):
            said = state["v"].lower()
            add("relationship", "single" if said in ("broke up", "split up") else said, state[0])
            break
    if match := COUNT.search(body):
        thing = match["thing"].lower()
        thing = "child" if thing in CHILD_WORDS else thing.rstrip("s")
        add(f"count:{thing}", _number(match["v"]), match[0])
    if match := AGE.search(body):
        add("age", match["v"], match[0])
    for pattern, kind in ((PHONE, "phone"), (EMAIL, "email"), (ADDRESS, "address")):
        if (match := pattern.search(body)) and (kind != "email" or "email" in lowered):
            add(kind, match["v"], match[0])
    if match := FAVORITE.search(body):
        add(f"favorite:{match['thing'].lower()}", match["v"], match[0])
    _habit_claims(body, negated, add)


def _habit_claims(body: str, negated: bool, add: _Add) -> None:
    """How someone gets somewhere, what they drive, and habits kept or given up."""
    if match := WAY.search(body):
        means = (match["means"] or _lemma(match["verb"].lower())).strip()
        add(f"way:{match['place'].lower().removeprefix('the ')}", means, match[0])
    elif match := VEHICLE.search(body):
        add("vehicle", match["v"], match[0])
    elif match := PREFERS.search(body):
        add(f"habit:like:{match['b'].lower()}", "no", match[0])
    elif match := HABIT.search(body):
        verb = _lemma(match["verb"].lower())
        verb = LIKING.get(verb, verb)
        what = (match["obj"] or "").lower()
        what = "" if what in LINKS else what
        add(f"habit:{verb}:{what}", "no" if negated else "yes", match[0])
    elif match := QUIT.search(body):  # "quit coffee": whatever was done with it, done no more
        add(f"habit:*:{match['obj'].lower()}", "no", match[0])


def _thing_claims(body: str, topic: str, add: _Add) -> None:
    for version in VERSION.finditer(body):
        thing = version["thing"].lower()
        # A capital at the start of a sentence says nothing: "Task 5 is done" numbers a task.
        named = version.start() > 0 or "." in version["v"]
        if named and thing not in TIME_WORDS and thing not in NUMBERED:
            add(f"version:{thing}", version["v"], version[0], topic)
    for pattern in (*THING_CHANGED, THING_STATES):
        if match := pattern.search(body):
            thing = _content_words(match["thing"])
            if thing in PRONOUNS:
                continue  # "pushed me to take the plunge" says nothing of a thing
            verb = match["verb"].lower()
            relation = "change" if verb in CHANGE else _lemma(verb)
            # A quantity or a time has one value at a time; a value in words ("written in
            # Swift") may be one of several, and is contradicted only by a change to another.
            kind = "value" if _names_a_time_or_number(match["v"]) else "text"
            if thing:
                add(f"{kind}:{relation}", match["v"], match[0], thing)
                break


def _subject(body: str) -> tuple[str, str, str | None]:
    """Whose fact, whose is the noun it starts with, and that noun: a name ("Dana"), a
    relative ("Kai's sister": the sister's facts, Kai's noun), or the first person ("my
    dentist"; "lives in Lisbon" names no one, and is taken as the first person's)."""
    if match := POSSESSIVE.match(body):
        owned = match["owned"]
        return (f"my {owned.split()[-1].lower()}" if _is_person(owned) else ME), ME, owned
    match = SUBJECT_NAME.match(body)
    if match and match["name"].split()[0] not in NOT_NAMES:
        name, owned = match["name"].lower(), match["owned"]
        if owned is not None and _is_person(owned):
            return f"{name}'s {owned.split()[-1].lower()}", name, owned
        return name, name, owned
    if FIRST_PERSON.match(body) or not re.match(r"^(he|she|they|it)\b", body, re.I):
        return ME, ME, None
    return "@someone", "@someone", None


def _topic(body: str) -> str | None:
    """The thing a statement is about ("the billing service", "our database")."""
    match = TOPIC.match(body)
    return _content_words(match["topic"]) if match else None


def _content_words(phrase: str) -> str:
    words = [w for w in re.findall(r"[\w'-]+", phrase.lower()) if w not in STOP]
    return " ".join(w.removesuffix("'s") for w in words)


def _value(value: str) -> str:
    value = re.split(
        r"\s+(?:since|after|in (?:january|february|march|april|may|june|july|august|september|"
        r"october|november|december)|last|this|over|starting|from|as of|every|when|because|"
        r"and now|so)\b",
        value.strip(),
        flags=re.I,
    )[0]
    words = [w for w in re.findall(r"[\w@.+:'-]+", value.lower()) if w not in STOP]
    return " ".join(words).strip(" .")


def _number(word: str) -> str:
    lowered = word.lower()
    return str(COUNT_WORDS.index(lowered) + 1) if lowered in COUNT_WORDS else lowered


def _lemma(verb: str) -> str:
    for end in ("ing", "s"):
        if verb.endswith(end) and len(verb) > len(end) + 2:
            stem = verb[: -len(end)]
            return stem + "e" if end == "ing" and stem.endswith(("k", "v", "c")) else stem
    return verb


def _names_a_time_or_number(value: str) -> bool:
    words = {word.removesuffix("s") for word in re.findall(r"[a-z]+", value.lower())}
    return bool(re.search(r"\d", value)) or bool(words & TIME_WORDS)


def _is_place_verb(words: str) -> bool:
    return bool(re.match(r"(?i)\b(lives?|moved|based)\b", words))


def _is_person(noun: str) -> bool:
    """Whether a possessed noun names a person ("Kai's sister", "Bruno's wife")."""
    last = noun.split()[-1].lower()
    return last in RELATIVES or last in RELATIONSHIP


def _unique(found: list[Claim]) -> list[Claim]:
    seen: set[tuple[str, str]] = set()
    kept = []
    for claim in found:
        if (claim.subject, claim.kind) not in seen:
            seen.add((claim.subject, claim.kind))
            kept.append(claim)
    return kept
