"""The optional idempotency key of the write tools: a retried write answers with its first
result and changes nothing (see `storage/receipts.py` for how the key commits with the write).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from pydantic import BaseModel, Field
from pydantic_core import to_jsonable_python

from loci.errors import ConflictError

if TYPE_CHECKING:
    from loci.app import App
    from loci.faces.mcp.provider import AppProvider
    from loci.storage.databases.receipts import Receipt, Request

R = TypeVar("R", bound=BaseModel)

IdempotencyKey = Annotated[
    str,
    Field(
        min_length=1,
        max_length=200,
        pattern=r"^[\x21-\x7e]+$",
        description="Optional: a key unique to this write (a UUID, say). Calling again with the "
        "same key and arguments answers with the first call's result and writes nothing: "
        "safe to retry when an answer was lost.",
    ),
]


def keyed(
    provider: AppProvider,
    tool: str,
    key: str | None,
    arguments: Mapping[str, Any],
    result_type: type[R],
    work: Callable[[App], R],
) -> R:
    """Run a write tool's `work`, once per idempotency `key` (every time without one)."""
    if key is None:
        return provider.call(work)
    # Imported here: the tool modules load before the store (see `provider`).
    from loci.storage.databases.receipts import Request

    holder = provider.caller.name if provider.caller is not None else None
    request = Request(key, tool, fingerprint(arguments), holder)

    def once(app: App) -> R:
        found = app.receipts.find(app.db, request)
        if found is not None:
            return replayed(found, request, result_type)
        try:
            with app.receipts.claiming(app.db, request):
                result = work(app)
                app.receipts.complete(app.db, result.model_dump_json())
        except ConflictError:
            # Another call took the key between the look-up and this commit: answer as it did.
            found = app.receipts.find(app.db, request)
            if found is None:
                raise
            return replayed(found, request, result_type)
        return result

    return provider.call(once)


def fingerprint(arguments: Mapping[str, Any]) -> str:
    """A digest of the arguments that tells a retry from another write under the same key."""
    canonical = json.dumps(to_jsonable_python(dict(arguments)), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def replayed(found: Receipt, request: Request, result_type: type[R]) -> R:
    """The first call's result for a retry of it; a conflict for anything else."""
    first = found.request
    if first.tool != request.tool or first.fingerprint != request.fingerprint:
        raise ConflictError(
            f"idempotency key {request.key!r} was already used for another write "
            f"({first.tool} with other arguments); use a new key for a new write",
            field="idempotency_key",
            tool=first.tool,
        )
    if found.result is None:
        raise ConflictError(
            f"the write with idempotency key {request.key!r} was applied, but its answer is not "
            "kept (the first call is still running, or its server stopped before answering); "
            "it was not applied again",
            field="idempotency_key",
            applied=True,
        )
    return result_type.model_validate_json(found.result)
