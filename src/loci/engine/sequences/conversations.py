"""The importer's record of conversation messages, read back to recognise a message imported
again."""

from __future__ import annotations

from typing import Any

from loci.storage.databases.db import Connection
from loci.storage.databases.dialect import json_member

#: The items of a namespace's conversation sequences (bind the namespace).
_CONVERSATION_ITEMS = (
    "FROM sequences s JOIN sequence_items i ON i.sequence = s.id JOIN memories m ON m.seq = i.seq "
    "WHERE s.namespace = ? AND s.kind = 'conversation'"
)
#: ...of one conversation: its sequences are named after it, or `conversation/session`.
_OF_CONVERSATION = " AND (s.name = ? OR substr(s.name, 1, length(?) + 1) = ? || '/')"


def message_ids(conn: Connection, namespace: str, conversation: str | None = None) -> list[str]:
    """The message ids of a namespace's conversation messages (one conversation's, when
    given), as the importer recorded them."""
    message_id = json_member(conn, "m.metadata", "message_id")
    sql = f"SELECT {message_id} {_CONVERSATION_ITEMS} AND {message_id} IS NOT NULL"
    rows = _of_conversation(conn, sql, namespace, conversation)
    return [str(row[0]) for row in rows]


def message_keys(
    conn: Connection, namespace: str, conversation: str | None = None
) -> list[tuple[str, str, str | None]]:
    """(content hash, time, session id) of the conversation messages stored without a message
    id in a namespace (one conversation's, when given), to recognise them again."""
    session_id = json_member(conn, "m.metadata", "session_id")
    message_id = json_member(conn, "m.metadata", "message_id")
    sql = (
        f"SELECT m.content_hash, m.occurred_at, {session_id} "
        f"{_CONVERSATION_ITEMS} AND {message_id} IS NULL"
    )
    return [tuple(row) for row in _of_conversation(conn, sql, namespace, conversation)]


def _of_conversation(
    conn: Connection, sql: str, namespace: str, conversation: str | None
) -> list[Any]:
    if conversation is None:
        return conn.execute(sql, (namespace,)).fetchall()
    params = (namespace, conversation, conversation, conversation)
    return conn.execute(sql + _OF_CONVERSATION, params).fetchall()
