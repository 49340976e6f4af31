"""The story's rows: sessions, the stream's pieces, archived chunks, passages and reliefs."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from loci.errors import NotFoundError
from loci.fields import shown
from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import among
from loci.timeutil import now
from loci.toolsets.story.models import StorySettings
from loci.toolsets.story.session_names import sessions_like

#: Between two pieces of the stream (a user's input, the assistant's response).
SEPARATOR = "\n\n"
#: The role of a piece that is the writer's prompt, not story text.
PROMPT = "user"
#: How a prompt is shown among the story's text ("mark"), if at all ("omit").
PROMPT_MARK = "> Writer's prompt: "
PromptsShown = Literal["mark", "omit"]


@dataclass
class Session:
    """A story session's row."""

    id: int
    name: str
    settings: StorySettings
    stream_chars: int
    stream_tokens: int
    window_start: int
    window_tokens: int
    interactions: int
    created_at: str
    updated_at: str


@dataclass(frozen=True)
class Passage:
    """A passage of the stream: [start, end) in it, its position in tokens, and the names
    (rows of the cast) it mentions."""

    id: int
    start: int
    end: int
    token_pos: int
    names: list[int]
    prompt: bool = False


@dataclass(frozen=True)
class Chunk:
    """An archived chunk of the stream."""

    id: int
    start: int
    end: int
    tokens: int
    content: str


_SESSION = (
    "SELECT id, name, settings, stream_chars, stream_tokens, window_start, window_tokens, "
    "interactions, created_at, updated_at FROM story_sessions"
)


def session(conn: Connection, name: str) -> Session:
    """The session named `name`; NotFoundError when there is none."""
    row = conn.execute(f"{_SESSION} WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise NotFoundError(
            f"no story session {shown(name)}{sessions_like(conn, name)}; continue_story (or "
            "loci story import) starts one",
            session_id=name,
        )
    return _session(row)


def sessions(conn: Connection) -> list[Session]:
    """Every session, most recently updated first."""
    return [_session(row) for row in conn.execute(f"{_SESSION} ORDER BY updated_at DESC, id")]


def session_key(conn: Connection, name: str) -> int:
    """The row id of the session named `name` (-1 when there is none yet)."""
    row = conn.execute("SELECT id FROM story_sessions WHERE name = ?", (name,)).fetchone()
    return -1 if row is None else int(row[0])


def session_or_new(conn: Connection, name: str, settings: StorySettings) -> Session:
    """The session named `name`, made with `settings` if it does not exist yet."""
    stamp = now()
    conn.execute(
        "INSERT INTO story_sessions (name, created_at, updated_at, settings) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (name) DO NOTHING",
        (name, stamp, stamp, settings.model_dump_json()),
    )
    return session(conn, name)


def save_session(conn: Connection, found: Session) -> None:
    """Write the session's counters back."""
    conn.execute(
        "UPDATE story_sessions SET stream_chars = ?, stream_tokens = ?, window_start = ?, "
        "window_tokens = ?, interactions = ?, updated_at = ?, settings = ? WHERE id = ?",
        (
            found.stream_chars,
            found.stream_tokens,
            found.window_start,
            found.window_tokens,
            found.interactions,
            now(),
            found.settings.model_dump_json(),
            found.id,
        ),
    )


def add_piece(conn: Connection, found: Session, role: str, content: str, tokens: int) -> int:
    """Append `content` to the stream (after a separator unless it is the first piece);
    returns its stream offset and advances the session's counters."""
    start = found.stream_chars + (len(SEPARATOR) if found.stream_chars else 0)
    conn.execute(
        "INSERT INTO story_pieces (session, interaction, role, start, token_start, content) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (found.id, found.interactions, role, start, found.stream_tokens, content),
    )
    found.stream_chars = start + len(content)
    found.stream_tokens += tokens
    return start


def tail(conn: Connection, session_id: int, chars: int) -> str:
    """The last `chars` characters of the session's stream ("" before any)."""
    row = conn.execute(
        "SELECT stream_chars FROM story_sessions WHERE id = ?", (session_id,)
    ).fetchone()
    return "" if row is None else stream(conn, session_id, max(0, int(row[0]) - chars))


#: An end past any stream (for "to the end").
NO_END = 2**62


def stream(conn: Connection, session_id: int, start: int = 0, end: int | None = None) -> str:
    """Characters [start, end) of the session's stream."""
    rows = conn.execute(
        "SELECT start, content FROM story_pieces WHERE session = ? AND start >= coalesce("
        "(SELECT max(start) FROM story_pieces WHERE session = ? AND start <= ?), 0) "
        "AND start < ? ORDER BY start",
        (session_id, session_id, start, NO_END if end is None else end),
    ).fetchall()
    if not rows:
        return ""
    first = rows[0][0]
    joined = SEPARATOR.join(content for _, content in rows)
    stop = None if end is None else end - first
    return joined[max(0, start - first) : stop]


def rendered(
    conn: Connection,
    session_id: int,
    span: tuple[int, int | None] = (0, None),
    prompts: PromptsShown = "mark",
) -> str:
    """Characters [start, end) of the stream as a reader sees them: the writer's prompts
    marked as such (each line after "> ", the first saying whose it is), or left out."""
    start, end = span
    rows = conn.execute(
        "SELECT start, role, content FROM story_pieces WHERE session = ? AND start >= coalesce("
        "(SELECT max(start) FROM story_pieces WHERE session = ? AND start <= ?), 0) "
        "AND start < ? ORDER BY start",
        (session_id, session_id, start, NO_END if end is None else end),
    ).fetchall()
    parts: list[str] = []
    for piece_start, role, content in rows:
        left = max(0, start - piece_start)
        right = len(content) if end is None else min(len(content), end - piece_start)
        text = content[left:right]
        if role == PROMPT:
            if prompts == "omit" or not text.strip():
                continue
            text = marked_prompt(text)
        parts.append(text)
    return SEPARATOR.join(p for p in parts if p)


@dataclass(frozen=True)
class StoredPiece:
    """A piece of the story as stored: its text, where it starts, and its tokens."""

    content: str
    token_start: int
    tokens: int


def story_pieces(conn: Connection, found: Session) -> Iterator[StoredPiece]:
    """The story's own pieces (not the writer's prompts), in order."""
    rows = conn.execute(
        "SELECT role, token_start, content FROM story_pieces WHERE session = ? ORDER BY start",
        (found.id,),
    ).fetchall()
    ends = [int(row[1]) for row in rows[1:]] + [found.stream_tokens]
    for (role, token_start, content), end in zip(rows, ends, strict=True):
        if role != PROMPT:
            yield StoredPiece(str(content), int(token_start), end - int(token_start))


def marked_prompt(text: str) -> str:
    """A prompt of the writer's, marked so that no reader takes it for the story."""
    lines = text.strip("\n").split("\n")
    return "\n".join([PROMPT_MARK + lines[0], *(f"> {line}" for line in lines[1:])])


def add_chunk(
    conn: Connection,
    session_id: int,
    relief: int,
    span: tuple[int, int],
    tokens: int,
    content: str,
) -> int:
    """Archive the stream's characters `span` as a chunk; returns its id."""
    row = conn.execute(
        'INSERT INTO story_chunks (session, relief, start, "end", tokens, content, archived_at) '
        "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (session_id, relief, span[0], span[1], tokens, content, now()),
    ).fetchone()
    return int(row[0])


def chunks(conn: Connection, session_id: int, ids: Sequence[int] | None = None) -> list[Chunk]:
    """The session's archived chunks in story order (only `ids` when given)."""
    wanted, listed = ("TRUE", None) if ids is None else among(conn, "id", ids)
    rows = conn.execute(
        'SELECT id, start, "end", tokens, content FROM story_chunks WHERE session = ? AND '
        f"{wanted} ORDER BY start",
        (session_id,) if ids is None else (session_id, listed),
    )
    return [Chunk(*row) for row in rows]


def chunk_starts(conn: Connection, session_id: int) -> list[tuple[int, int]]:
    """(start, id) of the session's archived chunks, in story order."""
    rows = conn.execute(
        "SELECT start, id FROM story_chunks WHERE session = ? ORDER BY start", (session_id,)
    )
    return [(start, chunk_id) for start, chunk_id in rows]


def chunk_at(conn: Connection, session_id: int, offset: int) -> Chunk | None:
    """The archived chunk holding stream offset `offset`, if any."""
    row = conn.execute(
        'SELECT id, start, "end", tokens, content FROM story_chunks WHERE session = ? AND '
        'start <= ? AND "end" > ? ORDER BY start DESC LIMIT 1',
        (session_id, offset, offset),
    ).fetchone()
    return None if row is None else Chunk(*row)


def add_passage(
    conn: Connection,
    session_id: int,
    span: tuple[int, int],
    token_pos: int,
    names: Sequence[int],
    vector: bytes,
    prompt: bool = False,
) -> int:
    """Store a passage with its vector and the names it mentions (or that it is part of the
    writer's prompt); returns its id (its words are indexed by `passage_keywords`)."""
    row = conn.execute(
        'INSERT INTO story_passages (session, start, "end", token_pos, entities, embedding, '
        "prompt) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            session_id,
            span[0],
            span[1],
            token_pos,
            json.dumps(sorted(set(names))),
            vector,
            int(prompt),
        ),
    ).fetchone()
    return int(row[0])


def passages_after(conn: Connection, session_id: int, after_id: int) -> list[tuple[Passage, bytes]]:
    """The session's passages with an id above `after_id`, with their vectors, in id order."""
    rows = conn.execute(
        'SELECT id, start, "end", token_pos, entities, embedding, prompt FROM story_passages '
        "WHERE session = ? AND id > ? ORDER BY id",
        (session_id, after_id),
    )
    return [(Passage(r[0], r[1], r[2], r[3], json.loads(r[4]), bool(r[6])), r[5]) for r in rows]


def add_relief(conn: Connection, found: Session, before: int, chunks_made: int) -> int:
    """Record a relief as it starts; returns its number in the session."""
    row = conn.execute(
        "INSERT INTO story_reliefs (session, at, interaction, tokens_before, tokens_after, "
        "chunks, seconds) VALUES (?, ?, ?, ?, ?, ?, 0) RETURNING id",
        (found.id, now(), found.interactions, before, before, chunks_made),
    ).fetchone()
    return int(row[0])


def finish_relief(conn: Connection, relief: int, after: int, seconds: float) -> None:
    """Record where a relief left the window, and how long it took."""
    conn.execute(
        "UPDATE story_reliefs SET tokens_after = ?, seconds = ? WHERE id = ?",
        (after, seconds, relief),
    )


def reliefs(
    conn: Connection, session_id: int, limit: int
) -> list[tuple[str, int, int, int, int, float]]:
    """The latest reliefs (at, interaction, before, after, chunks, seconds), newest first."""
    return conn.execute(
        "SELECT at, interaction, tokens_before, tokens_after, chunks, seconds FROM story_reliefs "
        "WHERE session = ? ORDER BY id DESC LIMIT ?",
        (session_id, limit),
    ).fetchall()


def thread_counts(conn: Connection, session_id: int) -> dict[str, int]:
    """How many plot threads the session has, by status."""
    rows = conn.execute(
        "SELECT status, count(*) FROM story_threads WHERE session = ? GROUP BY status",
        (session_id,),
    )
    return dict(rows)


def counts(conn: Connection, session_id: int) -> dict[str, int]:
    """How many chunks (and their tokens), passages and reliefs the session has."""
    chunk_count, chunk_tokens = conn.execute(
        "SELECT count(*), coalesce(sum(tokens), 0) FROM story_chunks WHERE session = ?",
        (session_id,),
    ).fetchone()
    (passage_count,) = conn.execute(
        "SELECT count(*) FROM story_passages WHERE session = ?", (session_id,)
    ).fetchone()
    (relief_count,) = conn.execute(
        "SELECT count(*) FROM story_reliefs WHERE session = ?", (session_id,)
    ).fetchone()
    return {
        "chunks": chunk_count,
        "chunk_tokens": chunk_tokens,
        "passages": passage_count,
        "reliefs": relief_count,
    }


def _session(row: tuple[object, ...]) -> Session:
    (
        sid,
        name,
        settings,
        chars,
        tokens,
        window_start,
        window_tokens,
        interactions,
        created,
        updated,
    ) = row
    return Session(
        id=int(str(sid)),
        name=str(name),
        settings=StorySettings.model_validate_json(str(settings)),
        stream_chars=int(str(chars)),
        stream_tokens=int(str(tokens)),
        window_start=int(str(window_start)),
        window_tokens=int(str(window_tokens)),
        interactions=int(str(interactions)),
        created_at=str(created),
        updated_at=str(updated),
    )
