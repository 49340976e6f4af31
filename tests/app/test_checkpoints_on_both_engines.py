"""Checkpoints on both engines: payloads in blob files (SQLite) or in the database
(PostgreSQL), with the same round trips, quotas, garbage collection, damage checks,
encryption and concurrent servers."""

from __future__ import annotations

import threading
import time

import pytest

from loci.errors import CheckpointCorruptedError, EncryptionKeyError
from loci.settings import load_settings
from loci.storage.databases.db import Database
from loci.toolsets.checkpoints.blob_table import TableBlobs
from loci.toolsets.checkpoints.blobs import Blobs, BlobStore
from loci.toolsets.checkpoints.maintenance import CheckpointMaintenance
from loci.toolsets.checkpoints.service import CheckpointService
from loci.toolsets.checkpoints.wiring import checkpoint_limits

pytestmark = pytest.mark.usefixtures("no_os_keychain")

CONTEXT = {
    "goal": "Ship the cache layer — ünïcødé ✓ 漢字",
    "plan": [{"n": n, "done": n < 3} for n in range(10)],
    "numbers": [1, 2.5, -3, 10**18, None, True, False],
}


def blobs_of(db: Database, home) -> Blobs:
    """The blob store each engine uses."""
    if db.engine == "postgresql":
        return TableBlobs(db)
    return BlobStore(home / "checkpoints" / "blobs", root=home)


def service(db: Database, home, **settings) -> CheckpointService:
    limits = checkpoint_limits(load_settings(home=home, **settings))
    return CheckpointService(
        db, blobs_of(db, home), home, limits, settings.get("encryption_key_file")
    )


def test_contexts_round_trip_and_unchanged_ones_are_skipped(store, tmp_path):
    checkpoints = service(store, tmp_path)
    saved = checkpoints.save(CONTEXT, "s1")
    assert saved.status == "SAVED"
    assert checkpoints.load(checkpoint_id=saved.checkpoint_id).context == CONTEXT
    again = checkpoints.save(CONTEXT, "s1")
    assert (again.status, again.checkpoint_id) == ("SKIPPED_UNCHANGED", saved.checkpoint_id)
    changed = checkpoints.save({**CONTEXT, "goal": "next"}, "s1")
    assert checkpoints.load(session_id="s1").context["goal"] == "next"
    listed = checkpoints.list_checkpoints("s1")
    assert listed.total == 2
    assert [c["checkpointId"] for c in listed.checkpoints] == [
        changed.checkpoint_id,
        saved.checkpoint_id,
    ]
    assert checkpoints.list_sessions().total == 1


def test_the_session_quota_removes_the_oldest_and_gc_frees_their_blobs(store, tmp_path):
    checkpoints = service(store, tmp_path, checkpoint_max_per_session=2)
    ids = [checkpoints.save({"step": n, "pad": "x" * 200}, "s").checkpoint_id for n in range(4)]
    listed = [c["checkpointId"] for c in checkpoints.list_checkpoints("s").checkpoints]
    assert listed == ids[:1:-1]
    assert [checkpoints.load(checkpoint_id=i).context["step"] for i in ids[2:]] == [2, 3]
    maintenance = CheckpointMaintenance(store, checkpoints)
    assert maintenance.gc().removed_checkpoints == []  # the quota already held


def test_gc_removes_old_unreferenced_blobs_only(store, tmp_path):
    checkpoints = service(store, tmp_path)
    checkpoints.save({"goal": "kept"}, "s")
    blobs = checkpoints.blobs
    old, fresh = blobs.put(b"orphan old"), blobs.put(b"orphan new")
    keep_all = blobs.unreferenced(set(), older_than=0)
    assert keep_all == []  # nothing is older than the epoch
    stale = blobs.unreferenced({fresh}, older_than=time.time() + 60)
    assert old in stale and fresh not in stale
    result = CheckpointMaintenance(store, checkpoints).gc()  # nothing is an hour old yet
    assert result.removed_blobs == 0
    assert blobs.delete(old) == len(b"orphan old") and blobs.delete(old) == 0
    assert checkpoints.load(session_id="s").context == {"goal": "kept"}


def test_a_damaged_payload_fails_only_its_own_checkpoint(store, tmp_path):
    checkpoints = service(store, tmp_path)
    damaged = checkpoints.save({"goal": "a"}, "s1")
    sound = checkpoints.save({"goal": "b"}, "s2")
    with store.locked() as conn:
        digest = conn.execute(
            "SELECT blob FROM checkpoints WHERE id = ?", (damaged.checkpoint_id,)
        ).fetchone()[0]
    if store.engine == "postgresql":
        with store.write() as conn:
            conn.execute(
                "UPDATE checkpoint_blobs SET data = ? WHERE digest = ?", (b"garbage", digest)
            )
    else:
        (tmp_path / "checkpoints" / "blobs" / digest[:2] / f"{digest}.blob").write_bytes(b"x")
    with pytest.raises(CheckpointCorruptedError, match="SHA-256"):
        checkpoints.load(checkpoint_id=damaged.checkpoint_id)
    assert checkpoints.load(checkpoint_id=sound.checkpoint_id).context == {"goal": "b"}


def test_encrypted_payloads_are_unreadable_without_their_key(store, tmp_path):
    home = tmp_path / "home"
    key_file = tmp_path / "keys" / "loci.key"
    checkpoints = service(store, home, encryption="enabled", encryption_key_file=key_file)
    saved = checkpoints.save({"goal": "secret plans for the launch"}, "s")
    assert saved.encrypted
    with store.locked() as conn:
        digest = conn.execute("SELECT blob FROM checkpoints").fetchone()[0]
    assert b"secret" not in checkpoints.blobs.get(digest, saved.checkpoint_id)
    assert checkpoints.load(session_id="s").context["goal"].startswith("secret")
    other_key = tmp_path / "other" / "loci.key"
    stranger = service(store, home, encryption="enabled", encryption_key_file=other_key)
    stranger.save({"goal": "theirs"}, "t")  # makes the stranger's own key
    with pytest.raises(EncryptionKeyError):
        stranger.load(session_id="s")


def test_two_servers_saving_to_one_session_lose_nothing(open_store, tmp_path):
    servers = [service(open_store(), tmp_path) for _ in range(2)]

    def save_all(checkpoints: CheckpointService, writer: str) -> None:
        for n in range(10):
            checkpoints.save({"writer": writer, "n": n}, "shared")

    threads = [
        threading.Thread(target=save_all, args=(checkpoints, writer))
        for checkpoints, writer in zip(servers, "ab", strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    listing = servers[0].list_checkpoints("shared", limit=100)
    assert listing.total == 20
    seen = {
        (c["writer"], c["n"])
        for c in (
            servers[1].load(checkpoint_id=i["checkpointId"]).context for i in listing.checkpoints
        )
    }
    assert seen == {(w, n) for w in "ab" for n in range(10)}
