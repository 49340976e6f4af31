"""Checkpoint payloads as rows of `checkpoint_blobs`: the blob store of the PostgreSQL engine,
where servers on several machines share no folder."""

from __future__ import annotations

from datetime import UTC, datetime

from loci.errors import CheckpointCorruptedError
from loci.storage.databases.db import Database
from loci.timeutil import format_time
from loci.toolsets.checkpoints.blobs import check_digest, digest_of


class TableBlobs:
    """Immutable blobs named by the SHA-256 of their bytes, in the database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def put(self, data: bytes) -> str:
        """Store `data` (a blob with the same bytes is kept) and return its digest."""
        digest = digest_of(data)
        with self._db.write() as conn:
            conn.execute(
                "INSERT INTO checkpoint_blobs (digest, data, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT (digest) DO NOTHING",
                (digest, data, format_time(datetime.now(UTC))),
            )
        return digest

    def get(self, digest: str, checkpoint_id: str) -> bytes:
        """The blob's bytes, after checking they still hash to `digest`."""
        check_digest(digest)
        with self._db.locked() as conn:
            row = conn.execute(
                "SELECT data FROM checkpoint_blobs WHERE digest = ?", (digest,)
            ).fetchone()
        if row is None:
            raise CheckpointCorruptedError(
                f"checkpoint {checkpoint_id}: its blob {digest} is missing",
                checkpoint_id=checkpoint_id,
            )
        data = bytes(row[0])
        if digest_of(data) != digest:
            raise CheckpointCorruptedError(
                f"checkpoint {checkpoint_id}: its blob {digest} fails its SHA-256 check "
                "(the row was changed or damaged)",
                checkpoint_id=checkpoint_id,
            )
        return data

    def delete(self, digest: str) -> int:
        """Remove a blob; returns the bytes freed (0 if it was already gone)."""
        with self._db.write() as conn:
            row = conn.execute(
                "DELETE FROM checkpoint_blobs WHERE digest = ? RETURNING length(data)", (digest,)
            ).fetchone()
        return 0 if row is None else int(row[0])

    def unreferenced(self, referenced: set[str], older_than: float) -> list[str]:
        """Blobs outside `referenced` stored before `older_than`."""
        cutoff = format_time(datetime.fromtimestamp(older_than, UTC))
        with self._db.locked() as conn:
            rows = conn.execute(
                "SELECT digest FROM checkpoint_blobs WHERE created_at < ?", (cutoff,)
            ).fetchall()
        return [str(row[0]) for row in rows if row[0] not in referenced]

    def remove_leftovers(self, older_than: float) -> tuple[int, int]:
        """Nothing to remove: a row is written whole or not at all."""
        return 0, 0
