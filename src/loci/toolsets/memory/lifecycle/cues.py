"""What makes a sentence of a conversation worth remembering, read from its words.

A memorable sentence tells something about the speaker's life: it speaks in the first person
and carries specifics (names, times, numbers, things done, things owned). Questions, reactions
to the other speaker ("I'm so happy for you"), greetings and uncertain recall ("I don't
remember") are not memories. Context counts too: a line that answers a question, and a long
line, tend to carry news. Scores are importances in [0, 1].
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Memory types, and the cues that make a sentence one (checked in this order; `fact` is the
#: rest).
TYPES = ("decision", "preference", "insight", "fact")
_TYPE_CUES = {
    "decision": re.compile(
        r"\b(?:decided|decide|chose|going to|gonna|plan(?:ning)? to|will|'ll|agreed to|"
        r"settled on|let's|we should|committed to)\b",
        re.IGNORECASE,
    ),
    "preference": re.compile(
        r"\b(?:prefer|prefers|favou?rite|love|loves|enjoy|enjoys|hate|hates|can't stand|"
        r"(?:i|we) (?:really |also )?like)\b",
        re.IGNORECASE,
    ),
    "insight": re.compile(
        r"\b(?:realized|realised|learned|learnt|turns out|key insight|lesson|noticed|"
        r"figured out|discovered|understand now)\b",
        re.IGNORECASE,
    ),
}
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|my|me|mine|myself|we|we're|we've|we'd|we'll|our|ours|us|"
    r"ourselves)\b",
    re.IGNORECASE,
)
_SECOND_PERSON = re.compile(
    r"\b(?:you|you're|you've|you'd|you'll|your|yours|yourself)\b", re.IGNORECASE
)
#: Openings that carry no information ("Wow, Ana! That's great...").
_PHATIC = re.compile(
    r"^(?:hey|hi|hello|thanks|thank you|wow|haha|lol|congrats|congratulations|good luck|"
    r"take care|bye|see you|sounds|that's|that sounds|glad|so glad|awesome|great|cool|nice|"
    r"yeah|yes|sure|totally|absolutely|aw+|oh)\b[\s,!.]*",
    re.IGNORECASE,
)
#: Feelings about the other speaker, not news about oneself.
_ABOUT_THEM = re.compile(
    r"\bi(?:'m| am)? (?:so |really |just )?(?:happy|glad|proud|impressed|excited) "
    r"(?:for|of|to hear|that you)|\bi (?:really )?(?:admire|appreciate|love) "
    r"(?:you|your|that you|how you)|\bi (?:hope|bet|know|think) (?:you|your)|"
    r"\bi can(?:'t|not) wait (?:to see|for you)",
    re.IGNORECASE,
)
#: Uncertain or failed recall: "I don't remember" is not a memory.
_UNCERTAIN = re.compile(
    r"\b(?:i|we) (?:don't|do not|can't|cannot|couldn't) (?:remember|recall|know|tell|say)|"
    r"\b(?:i'm|i am|we're|we are) not sure\b|\bno idea\b|\bnot certain\b",
    re.IGNORECASE,
)
_TIME = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago|"
    r"(?:last|next|this) (?:week|weekend|month|year|night|time|summer|winter|spring|fall|"
    r"autumn|morning)|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|"
    r"february|march|april|may|june|july|august|september|october|november|december|\d+)\b",
    re.IGNORECASE,
)
_DONE = re.compile(
    r"\b(?:went|got|had|did|made|took|saw|met|bought|found|started|finished|joined|visited|"
    r"moved|won|lost|began|learned|decided|tried|became|gave|left|came|read|wrote|built|ran|"
    r"signed|adopted|painted|\w+ed)\b",
    re.IGNORECASE,
)
_OWNED = re.compile(r"\b(?:my|our) (?!own\b|best\b|way\b)[a-z]+", re.IGNORECASE)
_NAME = re.compile(r"\b[A-Z][a-z]+\b")
_WORD = re.compile(r"[A-Za-z']+")

#: Fewest words of a memorable sentence (after its opening pleasantries).
MIN_WORDS = 4
#: A line this long (in words) usually carries news.
LONG_LINE = 35
#: What an answer to a question, a long line and a line's length add to its sentences' scores.
ANSWER_BONUS, LONG_BONUS, LENGTH_BONUS = 0.3, 0.1, 0.2
#: What a stated decision, preference or insight adds.
CUE_BONUS = 0.1
#: The least importance of a decision, preference or insight stated in the first person in at
#: least STATED_WORDS words (shorter ones are mostly reactions: "I love that!").
STATED_FLOOR, STATED_WORDS = 0.35, 8
#: Subtracted from the sum of the cues, so that 0.3 (extract's default min_importance) is where
#: a sentence starts to be worth keeping.
OFFSET = 0.3


@dataclass(frozen=True)
class Reading:
    """What a sentence is: its memory type and importance, or why it is not a memory."""

    type: str
    importance: float
    reason: str | None = None  # set when it is not a memory at all


@dataclass(frozen=True)
class LineContext:
    """Where a sentence stands: its line's length and whether that line answers a question."""

    words: int
    answers_question: bool
    speakers: frozenset[str] = frozenset()


def read_sentence(sentence: str, context: LineContext) -> Reading:
    """The memory type and importance of `sentence`, or why it is not a memory."""
    if sentence.rstrip().endswith("?"):
        return Reading("fact", 0.0, "a question")
    if _UNCERTAIN.search(sentence):
        return Reading("fact", 0.0, "uncertain or negated recall")
    body = _without_pleasantries(sentence)
    words = _WORD.findall(body)
    if len(words) < MIN_WORDS:
        return Reading("fact", 0.0, "too short to say anything")
    if _ABOUT_THEM.search(body):
        return Reading("fact", 0.0, "a reaction to the other speaker")
    kind = next((name for name, cue in _TYPE_CUES.items() if cue.search(body)), "fact")
    importance = _content_score(body, words, context) + _context_score(context) - OFFSET
    if kind != "fact" and _FIRST_PERSON.search(body) and len(words) >= STATED_WORDS:
        importance = max(importance, STATED_FLOOR)  # said outright: what extract is for
    return Reading(kind, round(min(1.0, max(0.0, importance)), 3))


def _without_pleasantries(sentence: str) -> str:
    body = sentence
    for _ in range(3):  # "Wow, great, thanks! ..."
        body = _PHATIC.sub("", body)
    return body


def _content_score(body: str, words: list[str], context: LineContext) -> float:
    mine = len(_FIRST_PERSON.findall(body))
    theirs = len(_SECOND_PERSON.findall(body))
    names = [n for n in _NAME.findall(body)[1:] if n not in context.speakers]
    score = 0.3 if mine else 0.0
    score -= 0.15 if theirs > mine else 0.0
    score += 0.15 if names else 0.0
    score += 0.15 if _TIME.search(body) else 0.0
    score += 0.1 if _DONE.search(body) else 0.0
    score += 0.1 if _OWNED.search(body) else 0.0
    score += CUE_BONUS if any(cue.search(body) for cue in _TYPE_CUES.values()) else 0.0
    return score + 0.2 * min(len(words), 20) / 20


def _context_score(context: LineContext) -> float:
    return (
        ANSWER_BONUS * context.answers_question
        + LONG_BONUS * (context.words >= LONG_LINE)
        + LENGTH_BONUS * min(context.words, 40) / 40
    )
