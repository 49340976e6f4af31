"""Store a conversation history as memories: one per message, with who said it and when."""

from __future__ import annotations

import re
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from loci import fields
from loci.engine.sequences import conversations
from loci.errors import InvalidInputError
from loci.storage.databases.db import Database
from loci.storage.indexes.derived import Progress
from loci.toolsets.memory.conversations.messages import ChatMessage
from loci.toolsets.memory.conversations.models import ConversationImportResult
from loci.toolsets.memory.models import MemoryDraft, SequenceDraft
from loci.toolsets.memory.service import MemoryService
from loci.toolsets.memory.validation import content_hash

SOURCE = "conversation"
CONVERSATION_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,127}\Z")


class ConversationService:
    """Turns chat messages into memories through the ordinary memory service."""

    def __init__(self, memory: MemoryService, db: Database) -> None:
        self._memory = memory
        self._db = db

    def remember_conversation(
        self,
        messages: Sequence[ChatMessage],
        namespace: str,
        conversation_id: str | None = None,
        progress: Progress | None = None,
    ) -> ConversationImportResult:
        """Store every message not already stored in `namespace`.

        `conversation_id` names the conversation (a new id by default); each of its sessions
        is a sequence, in which recall finds the messages around a match. A message is already stored when its
        message_id is; without one, when a message with the same speaker, text, timestamp and
        session is (as many times as it is stored: "ok" said twice in one second is kept
        twice). Message ids are only unique within a conversation (chat exports number their
        messages from 1), so with an id given only that conversation's are checked; with none,
        the whole namespace's.
        """
        namespace = fields.namespace(namespace)
        conversation = conversation_id or uuid.uuid4().hex
        if not CONVERSATION_ID.match(conversation):
            raise InvalidInputError(
                f"conversation_id must be 1-128 letters, digits, '_', '.', ':' or '-', "
                f"got {fields.shown(conversation)}",
                field="conversation_id",
            )
        unnamed = any(message.message_id is None for message in messages)
        stored = self._stored_messages(namespace, conversation_id, unnamed)
        fresh = [message for message in messages if not stored.take(message)]
        drafts = [draft(message, namespace, conversation) for message in fresh]
        ids = self._memory.remember_all(drafts, progress) if drafts else []
        return ConversationImportResult(
            namespace=namespace,
            stored=len(ids),
            skipped_existing=len(messages) - len(fresh),
            sessions=len({m.session_id for m in messages if m.session_id is not None}),
            ids=ids,
            conversation_id=conversation,
        )

    def _stored_messages(
        self, namespace: str, conversation: str | None, unnamed: bool
    ) -> StoredMessages:
        """What is stored already; messages without ids are read only if some are `unnamed`."""
        with self._db.locked() as conn:
            return StoredMessages(
                set(conversations.message_ids(conn, namespace, conversation)),
                Counter(
                    conversations.message_keys(conn, namespace, conversation) if unnamed else ()
                ),
            )


@dataclass
class StoredMessages:
    """The messages a namespace (or conversation) holds already: their message ids, and the
    others by (content hash, timestamp, session id), counted."""

    ids: set[str]
    unnamed: Counter[tuple[str, str, str | None]]

    def take(self, message: ChatMessage) -> bool:
        """Whether `message` is stored already; an unnamed match is used up by it."""
        if message.message_id is not None:
            return message.message_id in self.ids
        key = (content_hash(memory_text(message)), message.timestamp, message.session_id)
        if self.unnamed[key] <= 0:
            return False
        self.unnamed[key] -= 1
        return True


def memory_text(message: ChatMessage) -> str:
    """The content of a message's memory."""
    return f"{message.speaker}: {message.text}"


def draft(
    message: ChatMessage,
    namespace: str,
    conversation: str,
    extra: Mapping[str, str | int] | None = None,
) -> MemoryDraft:
    """The memory of one message: `Speaker: text`, the next item of its session's sequence
    (named `conversation/session`, or after the conversation without a session), with the
    message's time; the rest as metadata (with `extra`), for filters and to recognise it
    again."""
    metadata: dict[str, str | int] = {
        **(extra or {}),
        "conversation": conversation,
        "speaker": message.speaker,
        "timestamp": message.timestamp,
    }
    if message.session_id is not None:
        metadata["session_id"] = message.session_id
    if message.message_id is not None:
        metadata["message_id"] = message.message_id
    return MemoryDraft(
        content=memory_text(message),
        namespace=namespace,
        metadata=metadata,
        source=SOURCE,
        occurred_at=message.timestamp,
        valid_from=message.valid_from,
        valid_until=message.valid_until,
        sequence=SequenceDraft(
            name=sequence_name(conversation, message.session_id),
            kind="conversation",
            actor=message.speaker,
        ),
    )


def sequence_name(conversation: str, session_id: str | None) -> str:
    """The sequence of a conversation's session."""
    return conversation if session_id is None else f"{conversation}/{session_id}"
