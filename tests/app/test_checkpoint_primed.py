"""Whole mid-sized checkpoints coded by PPMd primed with the shipped dictionary: smaller than
zstd with the same dictionary, exact, checked, and refused cleanly when damaged."""

from __future__ import annotations

import inspect
import json
import sqlite3
import struct

import pytest
import zstandard

from loci.app import build_app
from loci.errors import CheckpointCorruptedError
from loci.settings import load_settings
from loci.toolsets.checkpoints import codec, primed
from loci.toolsets.checkpoints.codec import shipped_dictionary

pytestmark = pytest.mark.usefixtures("no_os_keychain")


def agent_state() -> dict:
    """A coding agent's state: a file it read (a standard-library module), a test log, a plan."""
    source = inspect.getsource(json.decoder) + inspect.getsource(json.encoder)
    return {
        "workflowId": "wf-primed",
        "files": {"json/decoder.py+encoder.py": source},
        "test_log": [f"test_json.py::test_case_{n} {'PASSED' if n % 9 else 'FAILED'}" for n in range(200)],
        "plan": [{"step": "read the decoder", "status": "done"}, {"step": "fix", "status": "pending"}],
    }  # fmt: skip


def blob_of(app, checkpoint_id: str) -> bytes:
    return blob_file(app, checkpoint_id).read_bytes()


def blob_file(app, checkpoint_id: str):
    with sqlite3.connect(app.settings.home / "loci.db") as conn:
        digest = conn.execute(
            "SELECT blob FROM checkpoints WHERE id = ?", (checkpoint_id,)
        ).fetchone()[0]
    conn.close()
    return app.checkpoints.blobs.folder / digest[:2] / f"{digest}.blob"


def test_a_mid_sized_state_is_primed_smaller_than_zstd_and_loads_exactly(app):
    state = agent_state()
    document = codec.to_json(state)
    assert len(document) in codec.PRIMED_RANGE
    saved = app.checkpoints.save(state, "s")
    blob = blob_of(app, saved.checkpoint_id)
    assert primed.is_primed(blob)
    level = app.settings.checkpoint_zstd_level
    zstd = zstandard.ZstdCompressor(level=level, dict_data=shipped_dictionary()).compress(document)
    assert len(blob) < len(zstd)
    loaded = app.checkpoints.load(checkpoint_id=saved.checkpoint_id).context
    assert json.dumps(loaded) == json.dumps(state)


def test_small_states_stay_zstd(app):
    saved = app.checkpoints.save({"goal": "short"}, "s")
    assert blob_of(app, saved.checkpoint_id).startswith(b"\x28\xb5\x2f\xfd")


def test_encrypted_primed_states_round_trip(home, embedder, tmp_path):
    settings = load_settings(
        home=home, encryption="enabled", encryption_key_file=tmp_path / "loci.key"
    )
    app = build_app(settings, embedder=embedder)
    try:
        saved = app.checkpoints.save(agent_state(), "s")
        assert not primed.is_primed(blob_of(app, saved.checkpoint_id))  # ciphertext on disk
        assert saved.stored_bytes * 4 < saved.size_bytes
        assert app.checkpoints.load(checkpoint_id=saved.checkpoint_id).context == agent_state()
    finally:
        app.close()


def test_a_damaged_primed_blob_is_refused_not_returned(app):
    saved = app.checkpoints.save(agent_state(), "s")
    path = blob_file(app, saved.checkpoint_id)
    blob = bytearray(path.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    path.chmod(0o600)
    path.write_bytes(bytes(blob))
    with pytest.raises(CheckpointCorruptedError):
        app.checkpoints.load(checkpoint_id=saved.checkpoint_id)


def test_a_failed_round_trip_falls_back_to_zstd(app, monkeypatch):
    def broken(*args: object) -> bytes:
        raise CheckpointCorruptedError("simulated", checkpoint_id="new")

    monkeypatch.setattr(primed, "decompress", broken)
    saved = app.checkpoints.save(agent_state(), "s")
    assert blob_of(app, saved.checkpoint_id).startswith(b"\x28\xb5\x2f\xfd")
    monkeypatch.undo()
    assert app.checkpoints.load(checkpoint_id=saved.checkpoint_id).context == agent_state()


def header(order: int = primed.ORDER, memory: int = primed.MEMORY_MIB, dictionary=None, length=10):
    dictionary_id = shipped_dictionary().dict_id() if dictionary is None else dictionary
    return primed.MAGIC + struct.pack(">BBII", order, memory, dictionary_id, length)


@pytest.mark.parametrize(
    ("blob", "reason"),
    [
        (primed.MAGIC + b"\x0c", "cut short"),
        (header(dictionary=12345), "dictionary 12345"),
        (header(length=1 << 31), "over the"),
        (header(order=1), "is invalid"),
        (header(memory=0), "is invalid"),
    ],
)
def test_bad_headers_are_refused_with_the_reason(blob, reason):
    with pytest.raises(CheckpointCorruptedError, match=reason):
        primed.decompress(blob, codec.shipped_primer(), "c1", 1 << 20)
