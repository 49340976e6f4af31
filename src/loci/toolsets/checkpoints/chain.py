"""Checkpoints stored as changes to the one before them.

Successive checkpoints of a workflow differ by a little: each is compressed with the previous
checkpoint's document as its zstd dictionary (`codec.pack(base=...)`), so it takes the bytes of
what changed. A checkpoint still loads by its own id: its document is rebuilt from the whole
one its links start from (at most MAX_DEPTH links) and checked against the SHA-256 of the
document that was saved. Before a checkpoint is deleted (quotas, gc), every checkpoint stored
as changes to it is rewritten whole, so that none is ever left without its base.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from loci.errors import CheckpointCorruptedError, CheckpointStorageError, EncryptionKeyError
from loci.storage.databases.db import Connection
from loci.toolsets.checkpoints import codec, crypto
from loci.toolsets.checkpoints import store as sql
from loci.toolsets.checkpoints.blobs import Blobs

#: Most links from a checkpoint back to the whole one it is rebuilt from.
MAX_DEPTH = 3


@dataclass(frozen=True)
class Base:
    """The checkpoint a new one is stored as changes to, with its document."""

    row: sql.CheckpointRow
    document: bytes


class Chains:
    """Rebuilds documents from their links; keeps links whole when checkpoints are deleted."""

    def __init__(self, blobs: Blobs, keys: crypto.KeyStore, level: int, max_bytes: int) -> None:
        self._blobs = blobs
        self._keys = keys
        self._level = level
        self._max_bytes = max_bytes

    def document(self, conn: Connection, row: sql.CheckpointRow) -> bytes:
        """A checkpoint's document as it was saved, checked against its SHA-256."""
        links = [row]
        while links[-1].base_id is not None and len(links) <= MAX_DEPTH:
            base = sql.checkpoint(conn, links[-1].base_id)
            if base is None:
                raise CheckpointCorruptedError(
                    f"checkpoint {row.id} is stored as changes to {links[-1].base_id}, which "
                    "is gone",
                    checkpoint_id=row.id,
                )
            links.append(base)
        document: bytes | None = None
        for link in reversed(links):
            try:
                document = self._unpack(link, document)
            except CheckpointCorruptedError as exc:
                if link is row:
                    raise
                raise CheckpointCorruptedError(
                    f"checkpoint {row.id} is stored as changes to {link.id}, which cannot be "
                    f"read: {exc.message}",
                    checkpoint_id=row.id,
                ) from exc
        assert document is not None
        if row.stored_hash is not None and hashlib.sha256(document).hexdigest() != row.stored_hash:
            raise CheckpointCorruptedError(
                f"checkpoint {row.id}: the document rebuilt from its blobs fails its SHA-256 check",
                checkpoint_id=row.id,
            )
        return document

    def base_for(self, conn: Connection, session_id: str) -> Base | None:
        """The session's newest checkpoint to store a new one as changes to, if it can be read
        and its links are not already MAX_DEPTH long."""
        newest = sql.latest(conn, session_id)
        if newest is None or newest.depth >= MAX_DEPTH or newest.stored_hash is None:
            return None
        try:
            return Base(newest, self.document(conn, newest))
        except (CheckpointCorruptedError, CheckpointStorageError, EncryptionKeyError):
            return None  # the new checkpoint is stored whole: it must not depend on this one

    def make_dependents_whole(self, conn: Connection, going: list[str]) -> list[str]:
        """Rewrite whole each checkpoint stored as changes to one of `going` (inside the write
        transaction that deletes them); the digests of the blobs they no longer use."""
        replaced = []
        for row in sql.dependents(conn, going):
            document = self.document(conn, row)
            keys = self._keys.load(create=False) if row.encrypted else None
            blob = codec.pack(document, self._level, keys)
            digest = self._blobs.put(blob)
            sql.make_whole(conn, row.id, digest, len(blob), keys.current if keys else None)
            replaced.append(row.blob)
        return replaced

    def _unpack(self, row: sql.CheckpointRow, base: bytes | None) -> bytes:
        data = self._blobs.get(row.blob, row.id)
        keys = self._keys.load(create=False) if row.encrypted else None
        return codec.unpack_document(data, keys, row.id, self._max_bytes, base)
