"""A context as blob bytes and back: JSON, zstd or primed PPMd, and AES-256-GCM when
encryption is on."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from loci.errors import CheckpointCorruptedError, InvalidInputError
from loci.toolsets.checkpoints import crypto, primed

if TYPE_CHECKING:
    import zstandard

ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,128}\Z")
#: Whole documents in this size range are coded by primed PPMd (`primed.py`): below it the
#: fixed cost of priming outweighs the bytes saved; above it zstd's long matches win.
PRIMED_RANGE = range(16 * 1024, 8 * 1024 * 1024)


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


def pack(
    document: bytes, level: int, keys: crypto.KeySet | None, base: bytes | None = None
) -> bytes:
    """Compress (then encrypt, when `keys` are given) a JSON document: with zstd as changes to
    `base` (the previous checkpoint's document) when one is given, else with the dictionary
    trained on agent states that ships with loci (priming PPMd for mid-sized documents)."""
    compressed = _compress(document, level, base)
    return compressed if keys is None else crypto.encrypt(compressed, keys)


def unpack_document(
    blob: bytes,
    keys: crypto.KeySet | None,
    checkpoint_id: str,
    max_bytes: int,
    base: bytes | None = None,
) -> bytes:
    """The JSON document a blob holds (decrypting first when `keys` are given; `base`: the
    document it was stored as changes to)."""
    import zstandard

    compressed = blob if keys is None else crypto.decrypt(blob, keys, checkpoint_id)
    if primed.is_primed(compressed):
        return primed.decompress(compressed, shipped_primer(), checkpoint_id, max_bytes)
    try:
        dictionary = _dictionary_of(compressed, base, checkpoint_id)
        decompressor = zstandard.ZstdDecompressor(dict_data=dictionary)
        document: bytes = decompressor.decompress(compressed, max_output_size=max_bytes)
    except zstandard.ZstdError as exc:
        raise CheckpointCorruptedError(
            f"checkpoint {checkpoint_id}: its blob does not decompress ({exc})",
            checkpoint_id=checkpoint_id,
        ) from None
    return document


def parse(document: bytes, checkpoint_id: str) -> dict[str, Any]:
    """The context a stored document holds."""
    try:
        value = json.loads(document)
    except ValueError as exc:
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


@cache
def shipped_dictionary() -> zstandard.ZstdCompressionDict:
    """The zstd dictionary trained on agent states (benchmarks/make_checkpoint_dictionary.py)."""
    import zstandard

    data = (
        resources.files("loci.toolsets.checkpoints")
        .joinpath("data/agent-states.zdict")
        .read_bytes()
    )
    return zstandard.ZstdCompressionDict(data)


@cache
def shipped_primer() -> primed.Primer:
    """The primer PPMd reads first: from the shipped dictionary, read once."""
    shipped = shipped_dictionary()
    return primed.Primer.of(shipped.as_bytes(), shipped.dict_id())


def _compress(document: bytes, level: int, base: bytes | None) -> bytes:
    import zstandard

    if base is None and len(document) in PRIMED_RANGE:
        coded = primed.compress(document, shipped_primer())
        if coded is not None:
            return coded
    dictionary = shipped_dictionary() if base is None else _raw(base)
    return zstandard.ZstdCompressor(level=level, dict_data=dictionary).compress(document)


def _raw(base: bytes) -> zstandard.ZstdCompressionDict:
    import zstandard

    return zstandard.ZstdCompressionDict(base, dict_type=zstandard.DICT_TYPE_RAWCONTENT)


def _dictionary_of(
    compressed: bytes, base: bytes | None, checkpoint_id: str
) -> zstandard.ZstdCompressionDict | None:
    """What a frame was compressed with: the previous document, the shipped dictionary, or
    nothing (blobs written before loci shipped one)."""
    import zstandard

    if base is not None:
        return _raw(base)
    wanted = zstandard.get_frame_parameters(compressed).dict_id
    if wanted == 0:
        return None
    shipped = shipped_dictionary()
    if wanted != shipped.dict_id():
        raise CheckpointCorruptedError(
            f"checkpoint {checkpoint_id} was compressed with zstd dictionary {wanted}, which "
            "this version of loci does not have",
            checkpoint_id=checkpoint_id,
        )
    return shipped


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
