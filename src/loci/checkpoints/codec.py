"""A context as blob bytes and back: JSON, zstd, and AES-256-GCM when encryption is on."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from loci.checkpoints import crypto
from loci.errors import CheckpointCorruptedError, InvalidInputError

ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,128}\Z")


def valid_id(value: object, field: str) -> str:
    """A session or checkpoint id: 1-128 letters, digits, '-' or '_'."""
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        shown = repr(value)[:80]
        raise InvalidInputError(
            f"{field} must be 1-128 letters, digits, '-' or '_', got {shown}", field=field
        )
    return value


def to_json(value: Any) -> bytes:
    """Compact UTF-8 JSON, keys in the caller's order (a load gives back the same order)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode(
            "utf-8"
        )
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"context must be plain JSON: {exc}", field="context") from None
    except RecursionError:  # nested about 1,000 deep (the MCP SDK stops near 250)
        raise InvalidInputError("context nests too deep to store", field="context") from None


def context_hash(value: Any) -> str:
    """Identity of a context's content, whatever the order of its keys."""
    canonical = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def pack(document: bytes, level: int, keys: crypto.KeySet | None) -> bytes:
    """zstd-compress (then encrypt, when `keys` are given) a JSON document."""
    import zstandard

    compressed = zstandard.ZstdCompressor(level=level).compress(document)
    return compressed if keys is None else crypto.encrypt(compressed, keys)


def unpack(
    blob: bytes, keys: crypto.KeySet | None, checkpoint_id: str, max_bytes: int
) -> dict[str, Any]:
    """The context a blob holds (decrypting first when `keys` are given)."""
    import zstandard

    compressed = blob if keys is None else crypto.decrypt(blob, keys, checkpoint_id)
    try:
        document = zstandard.ZstdDecompressor().decompress(compressed, max_output_size=max_bytes)
        value = json.loads(document)
    except (zstandard.ZstdError, ValueError) as exc:
        raise CheckpointCorruptedError(
            f"checkpoint {checkpoint_id}: its blob does not decompress to JSON ({exc})",
            checkpoint_id=checkpoint_id,
        ) from None
    if not isinstance(value, dict):
        raise CheckpointCorruptedError(
            f"checkpoint {checkpoint_id}: its blob does not hold a JSON object",
            checkpoint_id=checkpoint_id,
        )
    return value


def derive_session_id(context: dict[str, Any], metadata: dict[str, Any]) -> tuple[str, str]:
    """(session id, workflow id): hash(workflowId + initialContextHash), as the spec says.

    The workflow id comes from the context or the metadata (`workflowId` / `workflow_id`,
    default "workflow"); the initial context is the context's `initialContext` (or
    `initial_context`) if it carries one, else the whole context of this first save. Later
    saves should pass the returned sessionId.
    """
    workflow_keys = ("workflowId", "workflow_id")
    workflow = next(
        (
            str(source[key])
            for source in (context, metadata)
            for key in workflow_keys
            if isinstance(source.get(key), str | int) and str(source[key])
        ),
        "workflow",
    )
    whole = {k: v for k, v in context.items() if k not in workflow_keys}
    initial = context.get("initialContext", context.get("initial_context", whole))
    digest = hashlib.sha256(f"{workflow}\x00{context_hash(initial)}".encode()).hexdigest()
    return f"s-{digest[:32]}", workflow
