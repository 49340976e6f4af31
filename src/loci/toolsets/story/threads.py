"""Plot threads: opened, advanced and resolved by the agent, or detected in the text.

Detection is deliberately modest: a sentence in which a named character vows, swears,
promises, resolves, decides, plans or sets out to do something opens a thread, named for its
person and aim ("Laurie's promise: send me all I want"), with the sentence as its evidence.
Only a clear one: the person is the name right before the verb ("Jo resolved", "Mr. Davis had
solemnly vowed"), a title after "the", an epithet ("the Count decided"), or a pronoun whose
person the passage leaves in no doubt, the narrator's "I" too
(`loci.toolsets.story.aim_subjects`); never a place's or a name of another paragraph. The aim is a
phrase of two words or more ending on a word that carries meaning (never "get back to his
house by") and saying what its verb is done to ("peruse it" has lost its object to an
earlier sentence), and a sentence opens one thread at most, once (an import read again opens
none twice). A thread whose person the cast later finds is no character is not listed. The
agent's own threads are the first source, and it can advance, resolve or reopen any.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Literal

from loci import fields, sentences
from loci.errors import InvalidInputError, NotFoundError
from loci.storage.databases.db import Connection
from loci.toolsets.story import aim_subjects
from loci.toolsets.story.mentions import Mention
from loci.toolsets.story.models import PlotThread, PlotThreads, ThreadConnection, ThreadEvent

Action = Literal["open", "advance", "resolve", "reopen"]
ACTIONS = ("open", "advance", "resolve", "reopen")
MAX_NOTE_CHARS = 2_000
MAX_EVENTS = 50
#: What a person sets out to do, and what the thread is called for it.
AIMS = {
    "vowed": "vow",
    "swore": "oath",
    "promised": "promise",
    "resolved": "resolution",
    "determined": "resolution",
    "decided": "decision",
    "planned": "plan",
    "pledged": "pledge",
    "undertook": "undertaking",
    "set out": "quest",
    "made up her mind": "resolution",
    "made up his mind": "resolution",
    "made up my mind": "resolution",
}
#: An aim's verb and its words, on one line or across a line break (never a blank line),
#: up to a stop, a comma, a closing quote or a dash ("\u2014", or "--" in a plain text).
AIM = re.compile(
    r"\b("
    + "|".join(s.replace(" ", r"\s+") for s in sorted(AIMS, key=len, reverse=True))
    + r")\s+to\s+(\w(?:(?!--)[^.!?;:,\"\u201d\u2014\n]|\n(?!\s*\n))*)"
)
#: The most words of an aim a thread's name keeps, and the fewest it needs.
AIM_WORDS = 8
MIN_AIM_WORDS = 2
#: Words that start what a long aim may be cut before ("pinch the papered locks | with a
#: pair of hot tongs", "visit the spot | where my poor William had been murdered"), and
#: words it does not end on: they leave it hanging ("by", "had").
BREAKS = frozenset(
    (
        *("to", "of", "in", "on", "at", "by", "for", "with", "from", "into", "until", "till"),
        *("and", "or", "but", "as", "than", "that", "which", "who", "while", "when", "before"),
        *("after", "because", "if", "unless", "without", "upon", "onto", "though", "so"),
        *("where", "whether", "whom", "whose", "like"),
    )
)
HANGING = BREAKS | frozenset(
    (
        *("a", "an", "the", "his", "her", "their", "its", "my", "your", "our", "some", "any"),
        *("all", "this", "these", "those", "be", "been", "being"),
        *("had", "has", "have", "was", "were", "is", "would", "could", "should"),
    )
)
#: A long aim is cut at its first break after this many words; a name it would cut goes on
#: this many words at most past AIM_WORDS.
KEPT_BEFORE_BREAK = 3
NAME_RUN = 3
#: Words that stand for what another sentence names: an aim whose verb takes only these (and
#: the words of BREAKS) has lost its object ("peruse it", "obtain for me").
STAND_INS = frozenset(
    (
        *("it", "them", "him", "her", "me", "us", "you", "this", "that", "so", "one"),
        *("himself", "herself", "myself", "themselves", "itself", "yourself", "ourselves"),
    )
)


def update(
    conn: Connection,
    session: int,
    position: int,
    name: str,
    action: str,
    note: str = "",
    entities: list[str] | None = None,
) -> PlotThread:
    """Open, advance, resolve or reopen the thread `name` at story position `position`."""
    name = fields.name(name, "name")
    if action not in ACTIONS:
        raise InvalidInputError(
            f"action must be one of {', '.join(ACTIONS)}, got {fields.shown(action)}",
            field="action",
        )
    if len(note) > MAX_NOTE_CHARS:
        raise InvalidInputError(f"note is over {MAX_NOTE_CHARS} characters", field="note")
    row = _row(conn, session, name)
    if action == "open":
        if row is not None:
            raise InvalidInputError(
                f"a plot thread named {name!r} exists; advance or reopen it", field="name"
            )
        _open(conn, session, name, "agent", note, entities or [], position)
    elif row is None:
        raise NotFoundError(f"no plot thread named {name!r}; open it first", name=name)
    else:
        status = {"resolve": "resolved", "reopen": "active"}.get(action, str(row[1]))
        events = json.loads(str(row[5]))[-(MAX_EVENTS - 1) :]
        events.append([position, note or action])
        merged = sorted(set(json.loads(str(row[4]))) | set(entities or []))
        conn.execute(
            "UPDATE story_threads SET status = ?, events = ?, entities = ?, updated_pos = ? "
            "WHERE session = ? AND name = ?",
            (status, json.dumps(events), json.dumps(merged), position, session, name),
        )
    found = _row(conn, session, name)
    assert found is not None
    return _thread(found)


def detect(
    conn: Connection,
    session: int,
    text: str,
    position: int,
    mentions: Sequence[Mention],
) -> None:
    """Open a detected thread for each sentence in which a named character clearly sets an
    aim (see the module's docstring)."""
    for match in AIM.finditer(text):
        person = aim_subjects.subject(conn, session, text, match.start(), mentions)
        aim = _aim(match.group(2))
        if person is None or aim is None:
            continue
        left, right = sentences.around(text, match.start(), match.end())
        sentence = " ".join(text[left:right].split())
        kind = AIMS[" ".join(match.group(1).split())]
        title = f"{_possessive(person)} {kind}: {aim}"[:128]
        if _row(conn, session, title) is None and not _opened_by(conn, session, sentence):
            credited = [] if person == aim_subjects.NARRATOR else [person]
            _open(conn, session, title, "detected", sentence, credited, position)


def _possessive(person: str) -> str:
    """Whose the thread is: "Jo March's", "the Count's", and a family's "the Harvilles'"."""
    plural = person.startswith("the ") and person.endswith("s")
    return f"{person}'" if plural else f"{person}'s"


def _aim(phrase: str) -> str | None:
    """The aim's words as a thread's name keeps them (a long one cut where a clause or an
    adjunct begins), or None when too few remain."""
    words = [w.strip("[]_*()") for w in phrase.split()]
    words = [w for w in words if w]
    if len(words) > AIM_WORDS:
        cuts = [i for i in range(KEPT_BEFORE_BREAK, AIM_WORDS) if words[i].lower() in BREAKS]
        at = cuts[0] if cuts else AIM_WORDS
        # Never inside a name: on to its end ("... like Anthony | Trollope's mother").
        if words[at - 1][:1].isupper():
            while at < min(len(words), AIM_WORDS + NAME_RUN) and words[at][:1].isupper():
                at += 1
        words = words[:at]
    while words and words[-1].lower() in HANGING:
        words.pop()
    # "be" and one word is a judgement, no aim: "her insensibility she resolved to be false".
    meant = words[1:] if words[:1] == ["be"] else words
    said = [w for w in meant[1:] if w.lower().strip(",'\u2019") not in STAND_INS | BREAKS]
    return " ".join(words) if len(meant) >= MIN_AIM_WORDS and said else None


def _opened_by(conn: Connection, session: int, sentence: str) -> bool:
    """Whether a detected thread was opened by this sentence already."""
    row = conn.execute(
        "SELECT 1 FROM story_threads WHERE session = ? AND source = 'detected' "
        "AND description = ? LIMIT 1",
        (session, sentence),
    ).fetchone()
    return row is not None


def listing(conn: Connection, session: int, name: str) -> PlotThreads:
    """Active and resolved threads, and the connections between them (shared entities)."""
    rows = conn.execute(
        "SELECT name, status, source, description, entities, events, opened_pos, updated_pos "
        "FROM story_threads WHERE session = ? ORDER BY updated_pos DESC, id",
        (session,),
    ).fetchall()
    threads = [_thread(row) for row in rows]
    connections = [
        ThreadConnection(a=a.name, b=b.name, shared=sorted(set(a.entities) & set(b.entities)))
        for a, b in combinations(threads, 2)
        if set(a.entities) & set(b.entities)
    ]
    return PlotThreads(
        session_id=name,
        active=[t for t in threads if t.status == "active"],
        resolved=[t for t in threads if t.status == "resolved"],
        connections=connections[:100],
    )


def credited(listed: PlotThreads, is_person: Callable[[str], bool]) -> PlotThreads:
    """`listed` without the detected threads whose person is not one (the agent's stay)."""

    def kept(thread: PlotThread) -> bool:
        return thread.source == "agent" or all(is_person(name) for name in thread.entities)

    active = [t for t in listed.active if kept(t)]
    resolved = [t for t in listed.resolved if kept(t)]
    names = {t.name for t in (*active, *resolved)}
    connections = [c for c in listed.connections if c.a in names and c.b in names]
    return PlotThreads(
        session_id=listed.session_id, active=active, resolved=resolved, connections=connections
    )


def _open(
    conn: Connection,
    session: int,
    name: str,
    source: str,
    note: str,
    entities: list[str],
    position: int,
) -> None:
    conn.execute(
        "INSERT INTO story_threads (session, name, status, source, description, entities, "
        "events, opened_pos, updated_pos) VALUES (?, ?, 'active', ?, ?, ?, ?, ?, ?)",
        (
            session,
            name,
            source,
            note,
            json.dumps(sorted(set(entities))),
            json.dumps([[position, note or "opened"]]),
            position,
            position,
        ),
    )


def _row(conn: Connection, session: int, name: str) -> tuple[object, ...] | None:
    row: tuple[object, ...] | None = conn.execute(
        "SELECT name, status, source, description, entities, events, opened_pos, updated_pos "
        "FROM story_threads WHERE session = ? AND name = ?",
        (session, name),
    ).fetchone()
    return row


def _thread(row: tuple[object, ...]) -> PlotThread:
    name, status, source, description, entities, events, opened, updated = row
    return PlotThread(
        name=str(name),
        status="resolved" if status == "resolved" else "active",
        source="detected" if source == "detected" else "agent",
        description=str(description),
        entities=json.loads(str(entities)),
        events=[ThreadEvent(position=int(p), note=str(n)) for p, n in json.loads(str(events))],
        opened_at=int(str(opened)),
        updated_at=int(str(updated)),
    )
