"""Stored memory rows (`memories.columns`) as models: JSON columns parsed, damage named."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import from_json

from loci.errors import StorageUnavailableError
from loci.toolsets.memory.models import Memory, MemoryHit, NamespaceInfo

_M = TypeVar("_M", bound=BaseModel)


def row_to_memory(row: Sequence[Any]) -> tuple[int, Memory]:
    """A `memories.columns` row as (seq, Memory)."""
    return int(row[0]), _validated(Memory, row_fields(row))


def row_to_hit(
    row: Sequence[Any],
    similarity: float,
    score: float,
    seen: str | None,
    signals: Mapping[str, float] | None = None,
) -> MemoryHit:
    """A `memories.columns` row as a search hit; `seen` is the access being recorded for it, if any;
    `signals`, each ranking signal's value when asked to explain."""
    fields = row_fields(row)
    if seen is not None:
        fields["last_accessed"] = seen
        fields["access_count"] += 1
    # Clipped the NaN-safe way: NaN fails every comparison and becomes 0.
    fields["similarity"] = similarity if 0.0 <= similarity <= 1.0 else float(similarity > 1.0)
    fields["score"] = score
    if signals is not None:
        fields["signals"] = dict(signals)
    return _validated(MemoryHit, fields)


def _validated(model: type[_M], fields: dict[str, Any]) -> _M:
    # pydantic-core's validation runs in Rust, faster than model_construct's Python loop
    # over the fields, and a damaged row gets an error that names it.
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"]))
        raise StorageUnavailableError(
            f"memory {fields['id']} is damaged: {where}: {first['msg']}; forget it "
            "(`loci forget ID`) or restore a backup",
            memory_id=fields["id"],
        ) from exc


def row_fields(row: Sequence[Any]) -> dict[str, Any]:
    """A `memories.columns` row as Memory's fields."""
    return {
        "id": row[1],
        "content": row[2],
        "namespace": row[3],
        "tags": _loads(row[4], row[1], "tags"),
        "importance": row[5],
        "source": row[6],
        "metadata": _loads(row[7], row[1], "metadata"),
        "created_at": row[8],
        "updated_at": row[9],
        "last_accessed": row[10],
        "access_count": row[11],
        "occurred_at": row[12],
        "sequence": None if row[13] is None else _loads(row[13], row[1], "sequence"),
        **validity_fields(row),
    }


def validity_fields(row: Sequence[Any]) -> dict[str, Any]:
    """A `memories.columns` row's validity as Memory's fields (`valid_from` derived when it
    was not given: when it happened, else when it was stored)."""
    stored = {} if row[14] is None else _loads(row[14], row[1], "validity")
    return {
        "valid_from": stored.get("from") or row[12] or row[8],
        "valid_until": stored.get("until"),
        "superseded_by": stored.get("by"),
        "supersedes": stored.get("supersedes") or [],
        "disputed_with": stored.get("disputed") or [],
    }


def _loads(text: str, memory_id: str, column: str) -> Any:
    # Most memories carry no tags or no metadata: their empty forms skip the JSON parser.
    if text == "[]":
        return []
    if text == "{}":
        return {}
    try:
        # pydantic-core's parser is 3-7x faster than json's, but refuses a little that json
        # reads (lone surrogates): json.loads then decides.
        return from_json(text)
    except ValueError:
        pass
    try:
        return json.loads(text)
    except ValueError as exc:
        # loci writes these columns with json.dumps: only a damaged file holds anything else.
        raise StorageUnavailableError(
            f"memory {memory_id} is damaged: its {column} are not JSON ({exc}); forget it "
            "(`loci forget ID`) or restore a backup",
            memory_id=memory_id,
        ) from exc


def row_to_namespace(row: Sequence[Any]) -> NamespaceInfo:
    """A `memories.list_namespaces` row (name, created, count) as a model."""
    return NamespaceInfo(name=row[0], created=row[1], count=row[2])
