"""Workflow checkpoints: save, load, list, pin keys as critical.

A save classifies the context, fits it into the token budget, compresses it (and encrypts it
when encryption is on), writes the blob atomically under its SHA-256, then records the
checkpoint in one write transaction, which is also where the unchanged check and the quotas
run: two processes saving at once each get their own checkpoint, or one sees the other's
identical save and skips. Quota policy: past `max_per_session` checkpoints in a session, or
past `max_total_bytes` in all, the oldest checkpoints that are neither marked critical nor a
session's newest are removed; if that cannot make room, the save fails with
STORAGE_QUOTA_EXCEEDED and nothing changes.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from loci.errors import (
    CheckpointNotFoundError,
    InvalidInputError,
    SessionNotFoundError,
)
from loci.fields import MAX_COUNT
from loci.storage.databases.db import Database
from loci.timeutil import now
from loci.toolsets.checkpoints import codec, crypto
from loci.toolsets.checkpoints import store as sql
from loci.toolsets.checkpoints.blobs import Blobs, digest_of
from loci.toolsets.checkpoints.budget import BudgetReport, fit
from loci.toolsets.checkpoints.chain import Base, Chains
from loci.toolsets.checkpoints.classify import Tier, classify, has_path, marks_of, priorities
from loci.toolsets.checkpoints.models import (
    BudgetInfo,
    CheckpointList,
    CheckpointSummary,
    LoadResult,
    MarkCriticalResult,
    SaveResult,
    SessionInfo,
    SessionList,
)
from loci.toolsets.checkpoints.quotas import make_room

MAX_METADATA_BYTES = 64 * 1024
MAX_PAGE = 1000


class _BaseGoneError(Exception):
    """The checkpoint a new one was stored as changes to was deleted before it was recorded."""


@dataclass(frozen=True)
class _Draft:
    """A checkpoint ready to be stored."""

    document: bytes
    digest: str
    session_id: str
    workflow: str | None
    metadata: dict[str, Any]
    force: bool
    keys: crypto.KeySet | None
    report: BudgetReport


@dataclass(frozen=True)
class CheckpointLimits:
    """The checkpoint settings (from Settings)."""

    token_budget: int = 50_000
    max_context_bytes: int = 10 * 1024 * 1024
    max_per_session: int = 1000
    max_total_bytes: int = 1024 * 1024 * 1024
    zstd_level: int = 17
    encryption: bool = False


class CheckpointService:
    """Checkpoints of workflow sessions: rows in the database, payloads in a blob store."""

    def __init__(
        self,
        db: Database,
        blobs: Blobs,
        home: Path,
        limits: CheckpointLimits,
        key_file: Path | None,
    ) -> None:
        """Checkpoints kept in `db`, their payloads in `blobs`; the encryption keys live in the
        data folder `home` (or `key_file`)."""
        self._db = db
        self.limits = limits
        self.blobs = blobs
        self.keys = crypto.KeyStore(key_file, home)
        self.chains = Chains(self.blobs, self.keys, limits.zstd_level, limits.max_context_bytes * 2)

    def save(
        self,
        context: Any,
        session_id: str | None = None,
        metadata: Any = None,
        force: bool = False,
    ) -> SaveResult:
        """Store a context as the session's newest checkpoint (see the module docstring)."""
        context, metadata, document = self._checked(context, metadata)
        workflow: str | None = None
        if session_id is None:
            session_id, workflow = codec.derive_session_id(context, metadata)
        session_id = codec.valid_id(session_id, "sessionId")
        # "Unchanged" means the same JSON document, byte for byte: hashing the document we
        # already have is cheap, where a key-order-blind hash would walk it again.
        digest = hashlib.sha256(document).hexdigest()
        with self._db.locked() as conn:
            pins = sql.pins(conn, session_id)
            newest = sql.latest(conn, session_id)
        if newest is not None and newest.context_hash == digest and not force:
            return self._skipped(newest)
        classified = classify(context, marks_of(pins, metadata))
        stored, report = fit(context, classified, self.limits.token_budget, len(document))
        if stored is not context:
            document = codec.to_json(stored)
        keys = self.keys.load(create=True) if self.limits.encryption else None
        draft = _Draft(document, digest, session_id, workflow, metadata, force, keys, report)
        with self._db.locked() as conn:
            base = self.chains.base_for(conn, session_id)
        try:
            saved = self._store(draft, base)
        except _BaseGoneError:  # another process's cleanup deleted it meanwhile: store this whole
            saved = self._store(draft, None)
        if isinstance(saved, sql.CheckpointRow):  # an identical save won the race
            return self._skipped(saved)
        tiers = {tier.value: 0 for tier in Tier}
        for item in classified.values():
            tiers[item.tier.value] += 1
        row, cleaned_up = saved
        return SaveResult(
            checkpoint_id=row.id,
            session_id=session_id,
            status="SAVED",
            size_bytes=len(document),
            stored_bytes=row.stored_bytes,
            compression_ratio=round(len(document) / max(row.stored_bytes, 1), 2),
            encrypted=row.encrypted,
            tiers=tiers,
            budget=_budget(report),
            cleaned_up=cleaned_up,
        )

    def _store(
        self, draft: _Draft, base: Base | None
    ) -> tuple[sql.CheckpointRow, list[str]] | sql.CheckpointRow:
        """Write the blob and record the checkpoint: (its row, the ids cleaned up), or the
        identical checkpoint that another save recorded first."""
        level = self.limits.zstd_level
        blob = codec.pack(draft.document, level, draft.keys, base.document if base else None)
        row = sql.CheckpointRow(
            id=f"cp-{uuid.uuid4().hex}",
            session_id=draft.session_id,
            seq=0,
            created_at=now(),
            context_hash=draft.digest,
            size_bytes=len(draft.document),
            stored_bytes=len(blob),
            blob=digest_of(blob),
            encrypted=draft.keys is not None,
            key_id=draft.keys.current if draft.keys else None,
            critical=bool(draft.metadata.get("critical") is True),
            metadata_json=json.dumps(draft.metadata, ensure_ascii=False),
            report_json=json.dumps(asdict(draft.report), ensure_ascii=False),
            base_id=base.row.id if base else None,
            depth=base.row.depth + 1 if base else 0,
            stored_hash=hashlib.sha256(draft.document).hexdigest(),
        )
        try:
            outcome = self._record(row, blob, draft.workflow, draft.force)
        except BaseException:
            self._forget_blobs([row.blob])  # refused (over quota, say): leave nothing behind
            raise
        if isinstance(outcome, sql.CheckpointRow):
            return outcome
        return row, outcome

    def load(self, checkpoint_id: str | None = None, session_id: str | None = None) -> LoadResult:
        """A checkpoint by id, or a session's newest; its context exactly as stored."""
        row = self._row(checkpoint_id, session_id)
        with self._db.locked() as conn:
            context = codec.parse(self.chains.document(conn, row), row.id)
        report = json.loads(row.report_json) if row.report_json != "{}" else None
        return LoadResult(
            checkpoint_id=row.id,
            session_id=row.session_id,
            created_at=row.created_at,
            context=context,
            metadata=json.loads(row.metadata_json),
            size_bytes=row.size_bytes,
            encrypted=row.encrypted,
            budget=None if report is None else _budget(BudgetReport(**report)),
        )

    def pinned(self, session_id: str) -> list[str]:
        """The keys pinned CRITICAL for a session's saves (`mark_critical`)."""
        session_id = codec.valid_id(session_id, "sessionId")
        with self._db.locked() as conn:
            return list(sql.pins(conn, session_id))

    def list_checkpoints(self, session_id: str, limit: int = 20, offset: int = 0) -> CheckpointList:
        """A session's checkpoints, newest first."""
        session_id = codec.valid_id(session_id, "sessionId")
        limit, offset = _page(limit, offset)
        with self._db.snapshot() as conn:
            if not sql.session_exists(conn, session_id):
                raise SessionNotFoundError(
                    f"no checkpoint session {session_id}", session_id=session_id
                )
            rows = sql.page(conn, session_id, limit, offset)
            total = sql.count(conn, session_id)
        # One parse for every row's metadata: most of the cost of a long listing.
        metadata = json.loads("[" + ",".join(row[5] for row in rows) + "]")
        items: list[CheckpointSummary] = [
            {
                "checkpointId": row[0],
                "sessionId": session_id,
                "createdAt": row[1],
                "sizeBytes": row[2],
                "storedBytes": row[3],
                "critical": row[4] == 1,
                "metadata": meta,
            }
            for row, meta in zip(rows, metadata, strict=True)
        ]
        following = offset + len(items)
        return CheckpointList.model_construct(
            session_id=session_id,
            checkpoints=items,
            total=total,
            next_offset=following if following < total else None,
        )

    def list_sessions(self, limit: int = 50, offset: int = 0) -> SessionList:
        """Sessions with their checkpoint counts, most recently saved first."""
        limit, offset = _page(limit, offset)
        with self._db.snapshot() as conn:
            rows = sql.sessions(conn, limit, offset)
            total = sql.count_sessions(conn)
        following = offset + len(rows)
        return SessionList(
            sessions=[_session(row) for row in rows],
            total=total,
            next_offset=following if following < total else None,
        )

    def mark_critical(self, session_id: str, context_key: str) -> MarkCriticalResult:
        """Pin a key (dotted for nested keys) as CRITICAL for the session's later saves."""
        session_id = codec.valid_id(session_id, "sessionId")
        if not isinstance(context_key, str) or not 1 <= len(context_key) <= 512:
            raise InvalidInputError("contextKey must be 1-512 characters", field="contextKey")
        with self._db.locked() as conn:
            found = sql.session(conn, session_id)
        if found is None:
            raise SessionNotFoundError(f"no checkpoint session {session_id}", session_id=session_id)
        context = self.load(session_id=session_id).context
        if not has_path(context, context_key):
            return MarkCriticalResult(
                status="KEY_NOT_FOUND",
                message=f"the session's newest checkpoint has no key {context_key!r}",
                pinned_keys=found.pins,
            )
        with self._db.write() as conn:
            current = sql.session(conn, session_id)
            pins = list(dict.fromkeys([*(current.pins if current else []), context_key]))
            sql.set_pins(conn, session_id, pins)
        return MarkCriticalResult(
            status="SUCCESS",
            message=f"{context_key!r} is CRITICAL in every later save of {session_id}",
            pinned_keys=pins,
        )

    # -- helpers -------------------------------------------------------------------------------

    def _checked(self, context: Any, metadata: Any) -> tuple[dict[str, Any], dict[str, Any], bytes]:
        """The context and metadata, checked, and the context's JSON."""
        if not isinstance(context, dict):
            raise InvalidInputError("context must be a JSON object", field="context")
        document = codec.to_json(context)
        size = len(document)
        if size > self.limits.max_context_bytes:
            raise InvalidInputError(
                f"context is {size} bytes; the limit is {self.limits.max_context_bytes} "
                "(LOCI_CHECKPOINT_MAX_CONTEXT_BYTES)",
                field="context",
                size=size,
            )
        metadata = {} if metadata is None else metadata
        if not isinstance(metadata, dict):
            raise InvalidInputError("metadata must be a JSON object", field="metadata")
        if len(codec.to_json(metadata)) > MAX_METADATA_BYTES:
            raise InvalidInputError(
                f"metadata is over {MAX_METADATA_BYTES} bytes", field="metadata"
            )
        priorities(metadata)  # refuse bad marks before anything is written
        return context, metadata, document

    def _record(
        self, row: sql.CheckpointRow, blob: bytes, workflow: str | None, force: bool
    ) -> list[str] | sql.CheckpointRow:
        """Insert the checkpoint and keep its payload `blob` under the quotas; the ids cleaned
        up, or the twin that won. The payload is kept in the transaction that records it (a
        row commits with the checkpoint and its idempotency receipt; a file is written before
        the commit and forgotten if the record rolls back)."""
        removed: list[sql.CheckpointRow] = []
        with self._db.write() as conn:
            newest = sql.latest(conn, row.session_id)
            if newest is not None and newest.context_hash == row.context_hash and not force:
                return newest
            limits = self.limits
            removed = make_room(conn, row, limits.max_per_session, limits.max_total_bytes)
            going = [r.id for r in removed]
            if row.base_id is not None and (
                row.base_id in going or not sql.checkpoint(conn, row.base_id)
            ):
                raise _BaseGoneError
            replaced = self.chains.make_dependents_whole(conn, going)
            sql.delete(conn, going)
            sql.ensure_session(conn, row.session_id, workflow, row.created_at)
            seq = sql.next_seq(conn, row.session_id)
            self.blobs.put(blob)
            sql.insert(conn, sql.CheckpointRow(**{**asdict(row), "seq": seq}))
        self._forget_blobs([r.blob for r in removed] + replaced)
        return [r.id for r in removed]

    def _forget_blobs(self, digests: list[str]) -> None:
        """Delete blob files nothing refers to any more."""
        for digest in dict.fromkeys(digests):
            with self._db.locked() as conn:
                in_use = sql.blob_in_use(conn, digest)
            if not in_use:
                self.blobs.delete(digest)

    def _row(self, checkpoint_id: str | None, session_id: str | None) -> sql.CheckpointRow:
        if checkpoint_id is None and session_id is None:
            raise InvalidInputError("give checkpointId or sessionId", field="checkpointId")
        with self._db.locked() as conn:
            if checkpoint_id is not None:
                checkpoint_id = codec.valid_id(checkpoint_id, "checkpointId")
                row = sql.checkpoint(conn, checkpoint_id)
                if row is None:
                    raise CheckpointNotFoundError(
                        f"no checkpoint {checkpoint_id}", checkpoint_id=checkpoint_id
                    )
                return row
            session_id = codec.valid_id(session_id, "sessionId")
            row = sql.latest(conn, session_id)
        if row is None:
            raise SessionNotFoundError(f"no checkpoint session {session_id}", session_id=session_id)
        return row

    def _skipped(self, newest: sql.CheckpointRow) -> SaveResult:
        report = json.loads(newest.report_json)
        return SaveResult(
            checkpoint_id=newest.id,
            session_id=newest.session_id,
            status="SKIPPED_UNCHANGED",
            size_bytes=newest.size_bytes,
            stored_bytes=newest.stored_bytes,
            compression_ratio=round(newest.size_bytes / max(newest.stored_bytes, 1), 2),
            encrypted=newest.encrypted,
            tiers={},
            budget=_budget(BudgetReport(**report)),
            cleaned_up=[],
        )


def _page(limit: int, offset: int) -> tuple[int, int]:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
        raise InvalidInputError(f"limit must be 1-{MAX_PAGE}", field="limit")
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= MAX_COUNT:
        raise InvalidInputError(f"offset must be 0-{MAX_COUNT}", field="offset")
    return limit, offset


def _budget(report: BudgetReport) -> BudgetInfo:
    return BudgetInfo.model_validate(asdict(report))


def _session(row: sql.SessionRow) -> SessionInfo:
    return SessionInfo(
        session_id=row.id,
        workflow_id=row.workflow_id,
        created_at=row.created_at,
        last_saved_at=row.last_saved_at,
        checkpoints=row.checkpoints,
        stored_bytes=row.stored_bytes,
        pinned_keys=row.pins,
    )
