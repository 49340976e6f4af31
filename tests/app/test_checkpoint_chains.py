"""Checkpoints stored as changes to the one before: exact, loadable by their own id, checked,
and never left without their base when cleanup deletes it."""

from __future__ import annotations

import sqlite3

import pytest

from loci.app import build_app
from loci.errors import CheckpointCorruptedError
from loci.settings import load_settings
from loci.toolsets.checkpoints.chain import MAX_DEPTH

pytestmark = pytest.mark.usefixtures("no_os_keychain")


def states(count: int) -> list[dict]:
    """Successive states of one task: a long log that grows, a plan that moves on."""
    log = [f"line {n}: test_{n} passed in {n * 7 % 13}.{n % 10}s" for n in range(400)]
    return [
        {"workflowId": "wf", "step": n, "log": [*log, f"step {n} done"], "plan": list(range(n))}
        for n in range(count)
    ]


def rows(home):
    with sqlite3.connect(home / "loci.db") as conn:
        found = conn.execute("SELECT id, base_id, depth FROM checkpoints ORDER BY seq").fetchall()
    conn.close()
    return found


def test_successive_checkpoints_store_their_changes_and_load_exactly(app):
    count = MAX_DEPTH + 1
    saved = [app.checkpoints.save(state, "s") for state in states(count)]
    assert saved[0].stored_bytes > 10 * max(s.stored_bytes for s in saved[1:])
    stored = rows(app.settings.home)
    assert [depth for _, _, depth in stored] == list(range(count))
    assert [base for _, base, _ in stored[1:]] == [s.checkpoint_id for s in saved[:-1]]
    for result, state in zip(saved, states(count), strict=True):
        assert app.checkpoints.load(checkpoint_id=result.checkpoint_id).context == state


def test_links_stop_at_the_most_a_load_rebuilds(app):
    for state in states(MAX_DEPTH + 3):
        app.checkpoints.save(state, "s")
    depths = [depth for _, _, depth in rows(app.settings.home)]
    assert max(depths) == MAX_DEPTH and depths[MAX_DEPTH + 1] == 0


def test_a_changed_delta_fails_its_checksum(app):
    saved = [app.checkpoints.save(state, "s") for state in states(3)]
    with app.db.write() as conn:  # the newest points at its base's base: rebuilds wrongly
        conn.execute(
            "UPDATE checkpoints SET base_id = ? WHERE id = ?",
            (saved[0].checkpoint_id, saved[2].checkpoint_id),
        )
    with pytest.raises(CheckpointCorruptedError):
        app.checkpoints.load(checkpoint_id=saved[2].checkpoint_id)
    assert app.checkpoints.load(checkpoint_id=saved[1].checkpoint_id).context == states(3)[1]


def test_cleanup_rewrites_whole_what_depended_on_a_deleted_checkpoint(home, embedder):
    app = build_app(load_settings(home=home, checkpoint_max_per_session=3), embedder=embedder)
    try:
        saved = [app.checkpoints.save(state, "s") for state in states(6)]
        kept = [i for i, _, _ in rows(home)]
        assert kept == [s.checkpoint_id for s in saved[3:]]
        assert rows(home)[0][1] is None  # the oldest kept one no longer has a base
        for result, state in zip(saved[3:], states(6)[3:], strict=True):
            assert app.checkpoints.load(checkpoint_id=result.checkpoint_id).context == state
        blobs = list((home / "checkpoints" / "blobs").glob("*/*.blob"))
        assert len(blobs) == 3  # no blob of a deleted or rewritten checkpoint is left
    finally:
        app.close()


def test_encrypted_checkpoints_are_stored_as_changes_too(home, embedder, tmp_path):
    settings = load_settings(
        home=home, encryption="enabled", encryption_key_file=tmp_path / "loci.key"
    )
    app = build_app(settings, embedder=embedder)
    try:
        saved = [app.checkpoints.save(state, "s") for state in states(3)]
        assert saved[2].stored_bytes * 10 < saved[0].stored_bytes
        assert app.checkpoints.load(checkpoint_id=saved[2].checkpoint_id).context == states(3)[2]
        app.checkpoint_maintenance.rotate_key()
        assert app.checkpoints.load(checkpoint_id=saved[2].checkpoint_id).context == states(3)[2]
    finally:
        app.close()


def test_a_blob_of_an_earlier_version_still_loads(app):
    """Before the shipped dictionary and links: plain zstd, no stored hash."""
    import json

    import zstandard

    saved = app.checkpoints.save({"goal": "older"}, "s")
    document = json.dumps({"goal": "older"}, separators=(",", ":")).encode()
    digest = app.checkpoints.blobs.put(zstandard.ZstdCompressor(level=3).compress(document))
    with app.db.write() as conn:
        conn.execute(
            "UPDATE checkpoints SET blob = ?, stored_hash = NULL WHERE id = ?",
            (digest, saved.checkpoint_id),
        )
    assert app.checkpoints.load(checkpoint_id=saved.checkpoint_id).context == {"goal": "older"}
    newer = app.checkpoints.save({"goal": "newer"}, "s")  # not stored as changes to it
    assert rows(app.settings.home)[-1][1] is None
    assert app.checkpoints.load(checkpoint_id=newer.checkpoint_id).context == {"goal": "newer"}
