"""What every toolset's tools share: the hints that say whether a tool writes, and the
paging argument."""

from __future__ import annotations

from typing import Annotated

from mcp.types import ToolAnnotations
from pydantic import Field

from loci.fields import MAX_COUNT

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)
ADDITIVE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True)

Offset = Annotated[int, Field(ge=0, le=MAX_COUNT, description="Skip this many (paging).")]
