"""Checkpoint upkeep for the CLI: garbage collection, key rotation, export."""

from __future__ import annotations

import time
from typing import Any

from loci.errors import (
    CheckpointCorruptedError,
    CheckpointNotFoundError,
    CheckpointStorageError,
    ConfigurationError,
    EncryptionKeyError,
)
from loci.storage.databases.db import Database
from loci.toolsets.checkpoints import codec, crypto
from loci.toolsets.checkpoints import store as sql
from loci.toolsets.checkpoints.models import GcResult, RotateResult
from loci.toolsets.checkpoints.quotas import over_quota
from loci.toolsets.checkpoints.service import CheckpointService

#: Files younger than this may belong to a save still in flight in another process.
GRACE_SECONDS = 3600
#: What keeps one checkpoint from being read, but not the others.
UNREADABLE = (CheckpointCorruptedError, CheckpointStorageError, EncryptionKeyError)


class CheckpointMaintenance:
    """Operations a person runs now and then, not an agent."""

    def __init__(self, db: Database, checkpoints: CheckpointService) -> None:
        self._db = db
        self._checkpoints = checkpoints

    def gc(self) -> GcResult:
        """Apply the quotas now, then delete blobs no checkpoint refers to and stale temp files."""
        blobs = self._checkpoints.blobs
        limits = self._checkpoints.limits
        with self._db.write() as conn:
            removed = over_quota(conn, limits.max_per_session, limits.max_total_bytes)
            going = [r.id for r in removed]
            replaced = self._checkpoints.chains.make_dependents_whole(conn, going)
            sql.delete(conn, going)
            referenced = sql.all_blobs(conn)
        freed, orphans = 0, 0
        for digest in ({r.blob for r in removed} | set(replaced)) - referenced:  # ours alone
            freed += blobs.delete(digest)
            orphans += 1
        cutoff = time.time() - GRACE_SECONDS
        for digest in blobs.unreferenced(referenced, cutoff):
            freed += blobs.delete(digest)
            orphans += 1
        temporary, temporary_bytes = blobs.remove_leftovers(cutoff)
        freed += temporary_bytes
        return GcResult(
            removed_checkpoints=[r.id for r in removed],
            removed_blobs=orphans,
            removed_temporary_files=temporary,
            freed_bytes=freed,
        )

    def rotate_key(self) -> RotateResult:
        """Re-encrypt every encrypted blob with a new key, then retire the old keys.

        The new key is stored (beside the old ones) before any blob changes, and the old keys
        are dropped only after every blob is re-encrypted, so an interruption loses nothing:
        running it again finishes the job. A checkpoint that cannot be read (its blob damaged
        or missing) is skipped and listed; the old keys are then kept, for the day it is
        restored from a backup.
        """
        with self._db.locked() as conn:
            rows = sql.encrypted_rows(conn)
        if not self._checkpoints.limits.encryption:
            raise ConfigurationError(
                "checkpoint encryption is off (LOCI_ENCRYPTION=disabled), so there is no key "
                "to rotate"
                + (
                    "; set LOCI_ENCRYPTION=enabled to rotate the key of the "
                    f"{len(rows)} checkpoint(s) encrypted earlier"
                    if rows
                    else ""
                ),
                encrypted_checkpoints=len(rows),
            )
        store = self._checkpoints.keys
        keys = crypto.new_key_set(store.load(create=not rows))
        store.save(keys)
        done, unreadable = 0, []
        for row in rows:
            if row.key_id == keys.current:
                continue
            try:
                self._reencrypt(row, keys)
            except UNREADABLE as exc:
                unreadable.append({"checkpointId": row.id, "error": exc.to_dict()})
                continue
            done += 1
        retired = [] if unreadable else sorted(k for k in keys.keys if k != keys.current)
        if not unreadable:
            store.save(crypto.KeySet(keys.current, {keys.current: keys.keys[keys.current]}))
        return RotateResult(
            new_key_id=keys.current,
            retired_key_ids=retired,
            reencrypted=done,
            unreadable=unreadable,
        )

    def _reencrypt(self, row: sql.CheckpointRow, keys: crypto.KeySet) -> None:
        blobs = self._checkpoints.blobs
        fresh = crypto.encrypt(crypto.decrypt(blobs.get(row.blob, row.id), keys, row.id), keys)
        digest = blobs.put(fresh)
        with self._db.write() as conn:
            sql.set_blob(conn, row.id, digest, keys.current, len(fresh))
            in_use = sql.blob_in_use(conn, row.blob)
        if not in_use:
            blobs.delete(row.blob)

    def export(self, session_id: str) -> dict[str, Any]:
        """Every checkpoint of a session, oldest first, contexts decrypted (JSON-ready).

        A checkpoint that cannot be read (its blob missing or damaged, its key gone) does not
        stop the others: it is listed under "unreadable" with its error, so that a backup
        holds all that can still be saved. One deleted meanwhile (a quota pruned it) is left
        out: the export is what the session holds when each checkpoint is read.
        """
        session_id = codec.valid_id(session_id, "sessionId")
        ids: list[str] = []
        offset: int | None = 0
        while offset is not None:
            page = self._checkpoints.list_checkpoints(session_id, limit=1000, offset=offset)
            ids += [item["checkpointId"] for item in page.checkpoints]
            offset = page.next_offset
        checkpoints: list[dict[str, Any]] = []
        unreadable: list[dict[str, Any]] = []
        for checkpoint_id in reversed(ids):
            try:
                loaded = self._checkpoints.load(checkpoint_id=checkpoint_id)
            except CheckpointNotFoundError:
                continue
            except UNREADABLE as exc:
                unreadable.append({"checkpointId": checkpoint_id, "error": exc.to_dict()})
                continue
            checkpoints.append(loaded.model_dump(mode="json"))
        return {"sessionId": session_id, "checkpoints": checkpoints, "unreadable": unreadable}
