"""Editing a memory in place: its text, tags and importance change, its id and history stay.

A new text is embedded again (and its passages, for a long one) before the write; the write
checks that the memory still says what the editor read, so that two people editing at once
do not silently overwrite each other.
"""

from __future__ import annotations

from loci import fields
from loci.engine.search.engine import MemoryEngine, vector_bytes
from loci.errors import ConflictError, NotFoundError
from loci.storage.databases.db import Database
from loci.storage.memory_tables import memories as sql
from loci.storage.memory_tables import passages, upkeep
from loci.timeutil import now
from loci.toolsets.memory.models import Memory
from loci.toolsets.memory.rows import row_to_memory
from loci.toolsets.memory.validation import content_hash


class MemoryEditor:
    """Edits memories' text, tags and importance."""

    def __init__(self, db: Database, engine: MemoryEngine) -> None:
        self._db = db
        self._engine = engine

    def edit(
        self,
        memory_id: str,
        content: str | None = None,
        tags: list[str] | None = None,
        importance: float | None = None,
        read_at: str | None = None,
    ) -> Memory:
        """The memory with the fields given changed (those left None stay). `read_at` is the
        `updated_at` the editor saw: when the memory has changed since, nothing is written and
        a conflict is raised."""
        memory_id = fields.memory_id(memory_id)
        limit = self._engine.limits.max_content_bytes
        new_text = None if content is None else fields.content(content, limit)
        new_tags = None if tags is None else fields.tags(tags)
        new_importance = None if importance is None else fields.importance(importance)
        seq, current = self._current(memory_id)
        text = current.content if new_text is None else new_text
        edited = upkeep.EditedText(
            content=text,
            content_hash=content_hash(text),
            tags=current.tags if new_tags is None else new_tags,
            importance=current.importance if new_importance is None else new_importance,
        )
        rewritten = text != current.content
        vector = vector_bytes(self._engine.embed([text])[0]) if rewritten else None
        parts = self._engine.passages_of([text])[0] if rewritten else None
        with self._db.write() as conn:
            self._engine.check_model(conn)
            row = sql.fetch_by_id(conn, memory_id)
            if row is None:
                raise NotFoundError(f"no memory with id {memory_id}", memory_id=memory_id)
            stored = row_to_memory(row)[1]
            if stored.updated_at != (read_at or current.updated_at):
                raise ConflictError(
                    f"memory {memory_id} changed since it was read (updated {stored.updated_at});"
                    " read it again and redo the edit",
                    memory_id=memory_id,
                )
            upkeep.rewrite(conn, seq, edited, now())
            if vector is not None and parts is not None:
                upkeep.set_embeddings(conn, [(seq, vector)])
                passages.replace(conn, seq, parts)
            changed = sql.fetch_by_id(conn, memory_id)
        self._engine.wrote()
        assert changed is not None  # written in this transaction
        return row_to_memory(changed)[1]

    def _current(self, memory_id: str) -> tuple[int, Memory]:
        with self._db.locked() as conn:
            row = sql.fetch_by_id(conn, memory_id)
        if row is None:
            raise NotFoundError(f"no memory with id {memory_id}", memory_id=memory_id)
        return row_to_memory(row)
