"""The MCP tools of facts that change: supersede, invalidate, dismiss a conflict, history."""

from typing import Annotated, Any

from mcp.types import ToolAnnotations
from pydantic import Field

from loci.faces.mcp.arguments import ADDITIVE, READ_ONLY
from loci.faces.mcp.idempotency import IdempotencyKey, keyed
from loci.faces.mcp.provider import AppProvider
from loci.faces.mcp.strict import byte_limited_text
from loci.settings import Settings
from loci.toolsets.memory.models import (
    DismissResult,
    HistoryResult,
    InvalidateResult,
    SupersedeResult,
)
from loci.toolsets.memory.tools import MemoryId, ValidFrom, ValidUntil

#: Changes a memory's validity in place; doing it again changes nothing more.
SETTLES = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True)


def register(server: Any, provider: AppProvider, settings: Settings) -> None:
    """Add the tools of facts that change to `server`."""
    Content = Annotated[  # noqa: N806
        str,
        byte_limited_text(settings.max_content_bytes),
        Field(description="The new version of the fact, stored in the old one's namespace."),
    ]

    def supersede(
        old_id: Annotated[MemoryId, Field(description="The memory that stopped being true.")],
        content: Content | None = None,
        new_id: Annotated[
            MemoryId | None, Field(description="A stored memory that replaces it.")
        ] = None,
        valid_from: ValidFrom | None = None,
        idempotency_key: IdempotencyKey | None = None,
    ) -> SupersedeResult:
        """Replace a memory that is no longer true by a new one (`content`) or by one already
        stored (`new_id`), without deleting it: the old memory ends when the new one became
        true (`valid_from`, default its own), the two are linked, and `recall` ranks the old
        one below the new one (`as_of` still finds it). Settles any conflict between them."""
        return keyed(
            provider,
            "supersede",
            idempotency_key,
            {"old_id": old_id, "content": content, "new_id": new_id, "valid_from": valid_from},
            SupersedeResult,
            lambda app: app.facts.supersede(old_id, content, new_id, valid_from),
        )

    def invalidate(memory_id: MemoryId, valid_until: ValidUntil | None = None) -> InvalidateResult:
        """Say a memory stopped being true at `valid_until` (default now), with nothing in its
        place; it is kept (`forget` deletes) and `recall` ranks it below what is true."""
        return provider.call(lambda app: app.facts.invalidate(memory_id, valid_until))

    def dismiss_conflict(first_id: MemoryId, second_id: MemoryId) -> DismissResult:
        """Say two memories flagged as contradicting each other do not: the flag goes and the
        pair is never flagged again."""
        return provider.call(lambda app: app.facts.dismiss_conflict(first_id, second_id))

    def memory_history(memory_id: MemoryId) -> HistoryResult:
        """A memory's versions in order, the first first: each one replaced by the next, with
        when each was true."""
        return provider.call(lambda app: app.facts.history(memory_id))

    server.add_tool(supersede, title="Supersede", annotations=ADDITIVE, structured_output=True)
    server.add_tool(invalidate, title="Invalidate", annotations=SETTLES, structured_output=True)
    server.add_tool(
        dismiss_conflict, title="Dismiss a conflict", annotations=SETTLES, structured_output=True
    )
    server.add_tool(
        memory_history, title="A memory's history", annotations=READ_ONLY, structured_output=True
    )
