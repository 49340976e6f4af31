"""Plot threads: opened, advanced and resolved by the agent, or detected in the text.

Detection is deliberately modest: a sentence in which a named character vows, swears,
promises, resolves, decides, plans or sets out to do something opens a thread, named for its
person and aim ("Laurie's promise: send me all I want"), with the sentence as its evidence.
The agent's own threads are the reliable ones, and it can advance, resolve or reopen any.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from itertools import combinations
from typing import Literal

from loci import fields
from loci.errors import InvalidInputError, NotFoundError
from loci.storage.db import Connection
from loci.story import sentences
from loci.story.mentions import Mention
from loci.story.models import PlotThread, PlotThreads, ThreadConnection, ThreadEvent

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
AIM = re.compile(
    r"\b(" + "|".join(sorted(AIMS, key=len, reverse=True)) + r") to (\w[^.!?;:,\"\u201d]*)"
)
AIM_WORDS = 6


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
    """Open a detected thread for each sentence in which a named character sets an aim."""
    for match in AIM.finditer(text):
        who = [m for m in mentions if m.end <= match.start() and m.end > m.start]
        left, right = sentences.around(text, match.start(), match.end())
        who = [m for m in who if m.start >= left]
        if not who:
            continue
        person = who[-1].surface
        aim = " ".join(match.group(2).split()[:AIM_WORDS])
        title = f"{person}'s {AIMS[match.group(1)]}: {aim}"[:128]
        if _row(conn, session, title) is None:
            sentence = " ".join(text[left:right].split())
            _open(conn, session, title, "detected", sentence, [person], position)


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
