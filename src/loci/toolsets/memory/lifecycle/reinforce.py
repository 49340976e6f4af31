"""`reinforce`: a memory that proved useful becomes more important.

Importance only ever changes when asked (`recall` never writes it). The change reaches the
in-memory filter mirror through the change log, as every update of a mirrored field does.
"""

from __future__ import annotations

from loci import fields
from loci.errors import InvalidInputError, NotFoundError
from loci.storage.databases.db import Database
from loci.storage.memory_tables import memories as sql
from loci.toolsets.memory.lifecycle.models import ReinforceResult
from loci.toolsets.memory.rows import row_to_memory


class ReinforceService:
    """Raises memories' importance."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def reinforce(
        self, memory_id: str, boost: float = 0.1, max_importance: float = 1.0
    ) -> ReinforceResult:
        """Add `boost` to the memory's importance, up to `max_importance` (an importance
        already above the cap is left as it is: reinforcing never lowers it)."""
        memory_id = fields.memory_id(memory_id)
        boost = fields.unit_float(boost, "boost")
        if boost == 0.0:
            raise InvalidInputError("boost must be above 0", field="boost")
        max_importance = fields.unit_float(max_importance, "max_importance")
        with self._db.write() as conn:
            row = sql.fetch_by_id(conn, memory_id)
            if row is None:
                raise NotFoundError(f"no memory with id {memory_id}", memory_id=memory_id)
            seq, memory = row_to_memory(row)
            before = memory.importance
            after = max(before, min(max_importance, before + boost))
            if after != before:
                sql.set_importance(conn, seq, after)
        return ReinforceResult(
            id=memory.id,
            content=memory.content,
            importance_before=before,
            importance_after=round(after, 6),
            access_count=memory.access_count,
        )
