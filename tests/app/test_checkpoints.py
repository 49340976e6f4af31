"""Checkpoints on a real data folder: round trips, skips, budgets, corruption, quotas, keys."""

import json
import os
import stat
import subprocess
import sys
import time

import keyring
import keyring.backends.fail
import pytest
from keyring.backend import KeyringBackend

from loci.app import build_app
from loci.errors import (
    CheckpointCorruptedError,
    CheckpointNotFoundError,
    ConfigurationError,
    EncryptionKeyError,
    InvalidInputError,
    SessionNotFoundError,
    StorageQuotaExceededError,
)
from loci.settings import load_settings
from loci.toolsets.checkpoints import primed

NESTED = {
    "workflowId": "wf-1",
    "goal": "Ship the cache layer — ünïcødé ✓ 漢字 🚀",
    "plan": {"steps": [{"n": n, "done": n < 3} for n in range(10)], "deep": {}},
    "numbers": [1, 2.5, -3, 10**18, None, True, False],
    "big": list(range(20_000)),
}
_deep = NESTED["plan"]["deep"]
for level in range(150):
    _deep["level"] = {"n": level}
    _deep = _deep["level"]


pytestmark = pytest.mark.usefixtures("no_os_keychain")


def make(home, embedder, **settings):
    return build_app(load_settings(home=home, **settings), embedder=embedder)


def blob_path(app, checkpoint_id):
    with app.db.locked() as conn:
        digest = conn.execute(
            "SELECT blob FROM checkpoints WHERE id = ?", (checkpoint_id,)
        ).fetchone()[0]
    return app.checkpoints.blobs.folder / digest[:2] / f"{digest}.blob"


def test_nested_json_round_trips_exactly(app):
    saved = app.checkpoints.save(NESTED)
    assert saved.status == "SAVED" and saved.compression_ratio > 3 and not saved.encrypted
    blob = blob_path(app, saved.checkpoint_id).read_bytes()
    assert blob.startswith((b"\x28\xb5\x2f\xfd", primed.MAGIC))  # zstd, or primed PPMd
    loaded = app.checkpoints.load(checkpoint_id=saved.checkpoint_id)
    assert loaded.context == NESTED
    assert json.dumps(loaded.context) == json.dumps(NESTED)  # key order too
    loaded.context["goal"] = "changed"
    assert app.checkpoints.load(session_id=saved.session_id).context["goal"] == NESTED["goal"]


def test_unchanged_contexts_are_skipped_unless_forced(app):
    first = app.checkpoints.save({"goal": "a", "plan": [1, 2]}, "s1")
    again = app.checkpoints.save({"goal": "a", "plan": [1, 2]}, "s1")
    assert (again.status, again.checkpoint_id) == ("SKIPPED_UNCHANGED", first.checkpoint_id)
    forced = app.checkpoints.save({"goal": "a", "plan": [1, 2]}, "s1", force=True)
    assert forced.status == "SAVED" and forced.checkpoint_id != first.checkpoint_id
    assert app.checkpoints.list_checkpoints("s1").total == 2


def test_session_ids_are_derived_from_the_workflow_or_taken_as_given(app):
    a = app.checkpoints.save({"workflowId": "wf", "goal": "x"})
    b = app.checkpoints.save({"goal": "x"}, metadata={"workflowId": "wf"})
    c = app.checkpoints.save({"workflowId": "other", "goal": "x"})
    assert a.session_id == b.session_id != c.session_id
    assert app.checkpoints.save({"goal": "y"}, "my-session_1").session_id == "my-session_1"
    workflows = {s.session_id: s.workflow_id for s in app.checkpoints.list_sessions().sessions}
    assert workflows[a.session_id] == "wf"


def test_over_budget_contexts_are_fitted_and_reported(home, embedder):
    app = make(home, embedder, checkpoint_token_budget=300)
    try:
        context = {
            "goal": "Keep this goal exactly.",
            "debug_log": "noise " * 500,
            "analysis": " ".join(f"Finding {n} is about the cache." for n in range(300)),
        }
        saved = app.checkpoints.save(context, "s")
        assert saved.budget.applied and saved.budget.dropped == ["debug_log"]
        assert [s.path for s in saved.budget.shortened] == ["analysis"]
        loaded = app.checkpoints.load(session_id="s")
        assert loaded.context["goal"] == context["goal"] and "debug_log" not in loaded.context
        assert loaded.budget is not None and loaded.budget.dropped == ["debug_log"]
        assert app.checkpoints.save(context, "s").status == "SKIPPED_UNCHANGED"
    finally:
        app.close()


def test_pinned_keys_are_never_cut(home, embedder):
    app = make(home, embedder, checkpoint_token_budget=200)
    try:
        notes = " ".join(f"Note {n} matters later." for n in range(200))
        app.checkpoints.save({"goal": "g", "notes": notes}, "s")
        assert app.checkpoints.mark_critical("s", "notes").status == "SUCCESS"
        assert app.checkpoints.mark_critical("s", "nope.deeper").status == "KEY_NOT_FOUND"
        whole = {"goal": "g2", "notes": notes, "workflowId": "wf", "findings": ["a", "b"]}
        saved = app.checkpoints.save(whole, "s")
        assert saved.budget.critical_over_budget and saved.budget.over_budget
        assert saved.budget.dropped == [] and saved.budget.shortened == []
        loaded = app.checkpoints.load(session_id="s")
        assert loaded.context == whole and loaded.budget.critical_over_budget
        assert app.checkpoints.list_sessions().sessions[0].pinned_keys == ["notes"]
    finally:
        app.close()


def test_a_corrupted_blob_fails_only_its_own_checkpoint(app):
    good = app.checkpoints.save({"goal": "good"}, "a")
    bad = app.checkpoints.save({"goal": "bad"}, "b")
    path = blob_path(app, bad.checkpoint_id)
    path.write_bytes(path.read_bytes()[:-3] + b"xyz")
    with pytest.raises(CheckpointCorruptedError, match="SHA-256"):
        app.checkpoints.load(checkpoint_id=bad.checkpoint_id)
    assert app.checkpoints.load(checkpoint_id=good.checkpoint_id).context == {"goal": "good"}
    path.unlink()
    with pytest.raises(CheckpointCorruptedError, match="missing"):
        app.checkpoints.load(session_id="b")


def test_an_export_keeps_every_checkpoint_it_can_read_and_names_the_others(app):
    ids = [app.checkpoints.save({"goal": f"g{n}"}, f"s{n % 2}").checkpoint_id for n in range(4)]
    damaged = blob_path(app, ids[1])
    damaged.write_bytes(damaged.read_bytes()[:-3] + b"xyz")
    exported = app.checkpoint_maintenance.export("s1")
    unreadable = {item["checkpointId"]: item["error"] for item in exported["unreadable"]}
    # ids[3] is stored as changes to ids[1]: it cannot be rebuilt either, and says why.
    assert exported["checkpoints"] == [] and list(unreadable) == [ids[1], ids[3]]
    assert {error["type"] for error in unreadable.values()} == {"CHECKPOINT_CORRUPTED"}
    assert "SHA-256" in unreadable[ids[1]]["message"]
    assert f"stored as changes to {ids[1]}" in unreadable[ids[3]]["message"]
    blob_path(app, ids[2]).unlink()
    other = app.checkpoint_maintenance.export("s0")
    assert [c["context"]["goal"] for c in other["checkpoints"]] == ["g0"]
    assert "missing" in other["unreadable"][0]["error"]["message"]
    assert app.checkpoint_maintenance.export("s0")["checkpoints"] == other["checkpoints"]


def test_files_are_private(app):
    saved = app.checkpoints.save({"goal": "x"}, "s")
    path = blob_path(app, saved.checkpoint_id)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(app.settings.home.stat().st_mode) == 0o700


@pytest.mark.parametrize(
    "bad", ["../x", "a/b", "", "x" * 129, "a\x00b", "/etc/passwd", "a b", "session\n"]
)
def test_path_like_ids_are_refused(app, bad):
    with pytest.raises(InvalidInputError):
        app.checkpoints.save({"goal": "x"}, bad)
    with pytest.raises(InvalidInputError):
        app.checkpoints.load(checkpoint_id=bad)
    with pytest.raises(InvalidInputError):
        app.checkpoints.list_checkpoints(bad)
    assert app.checkpoints.list_sessions().total == 0


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def test_bad_contexts_are_refused_and_nothing_is_stored(home, embedder):
    app = make(home, embedder, checkpoint_max_context_bytes=2048)
    try:
        for context, metadata in [
            ({"big": "x" * 3000}, None),
            (["not", "an", "object"], None),
            ({"nan": float("nan")}, None),
            ({"goal": "x"}, "not an object"),
            ({"goal": "x"}, {"priorities": {"goal": "SOMETIMES"}}),
            ({"goal": "x", "deep": nested(5000)}, None),  # past Python's recursion limit
            ({"goal": "x"}, {"deep": nested(5000)}),
        ]:
            with pytest.raises(InvalidInputError):
                app.checkpoints.save(context, "s", metadata)
        assert app.checkpoints.list_sessions().total == 0
        assert not list(app.checkpoints.blobs.digests())
    finally:
        app.close()


@pytest.mark.parametrize(("limit", "offset"), [(0, 0), (1001, 0), (20, -1), (20, 2**63), (True, 0)])
def test_out_of_range_pages_are_refused(app, limit, offset):
    app.checkpoints.save({"goal": "x"}, "s")
    with pytest.raises(InvalidInputError):
        app.checkpoints.list_checkpoints("s", limit, offset)
    with pytest.raises(InvalidInputError):
        app.checkpoints.list_sessions(limit, offset)


def test_unknown_ids_are_not_found(app):
    with pytest.raises(CheckpointNotFoundError):
        app.checkpoints.load(checkpoint_id="cp-nope")
    with pytest.raises(SessionNotFoundError):
        app.checkpoints.load(session_id="nope")
    with pytest.raises(SessionNotFoundError):
        app.checkpoints.list_checkpoints("nope")
    with pytest.raises(SessionNotFoundError):
        app.checkpoints.mark_critical("nope", "goal")


def test_per_session_quota_removes_the_oldest_non_critical(home, embedder):
    app = make(home, embedder, checkpoint_max_per_session=3)
    try:
        kept = app.checkpoints.save({"step": 0}, "s", {"critical": True})
        ids = [app.checkpoints.save({"step": n}, "s").checkpoint_id for n in range(1, 4)]
        fourth = app.checkpoints.save({"step": 4}, "s")
        assert fourth.cleaned_up == [ids[1]]
        listed = [c["checkpointId"] for c in app.checkpoints.list_checkpoints("s").checkpoints]
        assert listed == [fourth.checkpoint_id, ids[2], kept.checkpoint_id]
        with pytest.raises(CheckpointNotFoundError):
            app.checkpoints.load(checkpoint_id=ids[0])
    finally:
        app.close()


def test_quota_that_cannot_be_met_refuses_the_save(home, embedder):
    app = make(home, embedder, checkpoint_max_per_session=2)
    try:
        for n in range(2):
            app.checkpoints.save({"step": n}, "s", {"critical": True})
        blobs = set(app.checkpoints.blobs.digests())
        with pytest.raises(StorageQuotaExceededError) as raised:
            app.checkpoints.save({"step": 9}, "s")
        assert raised.value.details["status"] == 413
        assert app.checkpoints.list_checkpoints("s").total == 2
        assert set(app.checkpoints.blobs.digests()) == blobs  # nothing left behind
    finally:
        app.close()


def test_total_size_quota_cleans_up_across_sessions(home, embedder):
    app = make(home, embedder, checkpoint_max_total_bytes=3000)
    try:
        noise = [os.urandom(1200).hex() for _ in range(3)]  # about 1250 bytes each compressed
        old = app.checkpoints.save({"data": noise[0]}, "a")
        app.checkpoints.save({"data": noise[1]}, "a")
        third = app.checkpoints.save({"data": noise[2]}, "b")
        assert third.cleaned_up == [old.checkpoint_id]
        with pytest.raises(StorageQuotaExceededError):
            app.checkpoints.save({"data": os.urandom(2000).hex()}, "c")
    finally:
        app.close()


def test_encryption_with_a_key_file(home, embedder, tmp_path):
    key_file = tmp_path / "keys" / "loci.key"
    app = make(home, embedder, encryption="enabled", encryption_key_file=key_file)
    try:
        saved = app.checkpoints.save({"goal": "secret plans for the launch"}, "s")
        assert saved.encrypted
        assert b"secret" not in blob_path(app, saved.checkpoint_id).read_bytes()
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert app.checkpoints.load(session_id="s").context["goal"].startswith("secret")
    finally:
        app.close()
    key_file.write_text(
        key_file.read_text().replace(json.loads(key_file.read_text())["current"], "0" * 16)
    )
    other = make(home, embedder, encryption="enabled", encryption_key_file=key_file)
    try:
        with pytest.raises(EncryptionKeyError, match="does not hold"):
            other.checkpoints.load(session_id="s")
        exported = other.checkpoint_maintenance.export("s")
        assert exported["checkpoints"] == []
        assert exported["unreadable"][0]["error"]["type"] == "ENCRYPTION_KEY_UNAVAILABLE"
    finally:
        other.close()


def test_encryption_without_any_key_source_refuses_to_save(home, embedder, tmp_path):
    app = make(home, embedder, encryption="enabled")
    try:
        with pytest.raises(EncryptionKeyError, match="LOCI_ENCRYPTION_KEY_FILE"):
            app.checkpoints.save({"goal": "x"}, "s")
        assert app.checkpoints.list_sessions().total == 0
    finally:
        app.close()
    inside = make(home, embedder, encryption="enabled", encryption_key_file=home / "k.key")
    try:
        with pytest.raises(EncryptionKeyError, match="outside the data folder"):
            inside.checkpoints.save({"goal": "x"}, "s")
    finally:
        inside.close()


@pytest.mark.parametrize(
    ("where", "words"),
    [("a-file/loci.key", "cannot write the key file"), ("a-folder", "is a folder")],
)
def test_an_unusable_key_file_is_named_and_nothing_is_saved(home, embedder, tmp_path, where, words):
    (tmp_path / "a-file").write_text("not a folder")
    (tmp_path / "a-folder").mkdir()
    app = make(home, embedder, encryption="enabled", encryption_key_file=tmp_path / where)
    try:
        with pytest.raises(EncryptionKeyError, match=words):
            app.checkpoints.save({"goal": "x"}, "s")
        assert app.checkpoints.list_sessions().total == 0
    finally:
        app.close()


def test_a_tampered_encrypted_blob_fails_authentication(home, embedder, tmp_path):
    app = make(home, embedder, encryption="enabled", encryption_key_file=tmp_path / "k.key")
    try:
        saved = app.checkpoints.save({"goal": "x"}, "s")
        path = blob_path(app, saved.checkpoint_id)
        data = bytearray(path.read_bytes())
        data[-1] ^= 0xFF
        digest = app.checkpoints.blobs.put(bytes(data))  # a well-formed blob with a bad tag
        with app.db.write() as conn:
            conn.execute(
                "UPDATE checkpoints SET blob = ? WHERE id = ?", (digest, saved.checkpoint_id)
            )
        with pytest.raises(CheckpointCorruptedError, match="authentication"):
            app.checkpoints.load(checkpoint_id=saved.checkpoint_id)
    finally:
        app.close()


class MemoryKeyring(KeyringBackend):
    """An OS keychain stand-in (the one true outside boundary here)."""

    priority = 1

    def __init__(self):
        super().__init__()
        self.entries = {}

    def get_password(self, service, username):
        return self.entries.get((service, username))

    def set_password(self, service, username, password):
        self.entries[(service, username)] = password

    def delete_password(self, service, username):
        self.entries.pop((service, username), None)


def test_the_os_keychain_is_preferred_and_rotation_reencrypts(home, embedder, tmp_path):
    chain = MemoryKeyring()
    keyring.set_keyring(chain)
    key_file = tmp_path / "unused.key"
    app = make(home, embedder, encryption="enabled", encryption_key_file=key_file)
    try:
        ids = [app.checkpoints.save({"goal": f"g{n}"}, "s").checkpoint_id for n in range(3)]
        assert ("loci", "checkpoint-keys") in chain.entries and not key_file.exists()
        before = json.loads(chain.entries[("loci", "checkpoint-keys")])["current"]
        result = app.checkpoint_maintenance.rotate_key()
        assert result.reencrypted == 3 and result.retired_key_ids == [before]
        stored = json.loads(chain.entries[("loci", "checkpoint-keys")])
        assert list(stored["keys"]) == [result.new_key_id]
        assert [app.checkpoints.load(checkpoint_id=i).context["goal"] for i in ids] == [
            "g0",
            "g1",
            "g2",
        ]
    finally:
        app.close()


def test_rotation_skips_a_damaged_blob_lists_it_and_keeps_the_old_key(home, embedder, tmp_path):
    key_file = tmp_path / "loci.key"
    app = make(home, embedder, encryption="enabled", encryption_key_file=key_file)
    try:
        ids = [app.checkpoints.save({"goal": f"g{n}"}, f"s{n}").checkpoint_id for n in range(3)]
        old = json.loads(key_file.read_text())["current"]
        damaged = blob_path(app, ids[1])
        damaged.write_bytes(damaged.read_bytes()[:-2] + b"zz")
        result = app.checkpoint_maintenance.rotate_key()
        assert result.reencrypted == 2 and result.retired_key_ids == []
        assert [item["checkpointId"] for item in result.unreadable] == [ids[1]]
        assert result.unreadable[0]["error"]["type"] == "CHECKPOINT_CORRUPTED"
        stored = json.loads(key_file.read_text())
        assert stored["current"] == result.new_key_id and old in stored["keys"]
        assert app.checkpoints.load(checkpoint_id=ids[2]).context == {"goal": "g2"}
    finally:
        app.close()


def test_rotation_with_encryption_off_says_so(home, embedder, tmp_path):
    key_file = tmp_path / "loci.key"
    app = make(home, embedder, encryption="enabled", encryption_key_file=key_file)
    app.checkpoints.save({"goal": "secret"}, "s")
    app.close()
    plain = make(home, embedder)
    try:
        with pytest.raises(ConfigurationError, match="encryption is off") as refused:
            plain.checkpoint_maintenance.rotate_key()
        assert "the 1 checkpoint(s) encrypted earlier" in refused.value.message
        assert "keychain" not in refused.value.message
    finally:
        plain.close()


def test_a_missing_key_file_is_named_as_missing(home, embedder, tmp_path):
    key_file = tmp_path / "loci.key"
    app = make(home, embedder, encryption="enabled", encryption_key_file=key_file)
    app.checkpoints.save({"goal": "secret"}, "s")
    app.close()
    key_file.unlink()
    again = make(home, embedder, encryption="enabled", encryption_key_file=key_file)
    try:
        with pytest.raises(EncryptionKeyError, match="key is missing") as missing:
            again.checkpoints.load(session_id="s")
        assert str(key_file) in missing.value.message
        with pytest.raises(EncryptionKeyError, match="key is missing"):
            again.checkpoint_maintenance.rotate_key()
        assert not key_file.exists()  # no new key made over the lost one
    finally:
        again.close()


def test_gc_applies_lowered_quotas(home, embedder):
    app = make(home, embedder)
    ids = [app.checkpoints.save({"step": n}, "s").checkpoint_id for n in range(5)]
    app.close()
    smaller = make(home, embedder, checkpoint_max_per_session=2)
    try:
        result = smaller.checkpoint_maintenance.gc()
        # ids[3] was stored as changes to ids[2]: rewritten whole first, its delta blob freed.
        assert result.removed_checkpoints == ids[:3] and result.removed_blobs == 4
        listed = [c["checkpointId"] for c in smaller.checkpoints.list_checkpoints("s").checkpoints]
        assert listed == ids[:2:-1]
        loaded = [smaller.checkpoints.load(checkpoint_id=i).context for i in ids[3:]]
        assert loaded == [{"step": 3}, {"step": 4}]
    finally:
        smaller.close()


def test_gc_removes_old_unreferenced_blobs_only(app):
    app.checkpoints.save({"goal": "kept"}, "s")
    blobs = app.checkpoints.blobs
    old, fresh = blobs.put(b"orphan old"), blobs.put(b"orphan new")
    stale = time.time() - 7200
    os.utime(blobs.folder / old[:2] / f"{old}.blob", (stale, stale))
    result = app.checkpoint_maintenance.gc()
    assert result.removed_blobs == 1
    remaining = set(blobs.digests())
    assert fresh in remaining and old not in remaining
    assert app.checkpoints.load(session_id="s").context == {"goal": "kept"}


SAVER = """
import sys
from loci.app import build_app
from loci.settings import load_settings
app = build_app(load_settings())
for n in range(int(sys.argv[2])):
    app.checkpoints.save({"writer": sys.argv[1], "n": n}, "shared")
app.checkpoints.save({"same": "for both"}, "twin")
app.close()
"""


def test_two_processes_saving_to_one_session_lose_nothing(app, home):
    env = {**os.environ, "LOCI_HOME": str(home)}
    runs = [
        subprocess.Popen([sys.executable, "-c", SAVER, name, "15"], env=env, stderr=subprocess.PIPE)
        for name in ("a", "b")
    ]
    errors = [process.communicate(timeout=120)[1].decode() for process in runs]
    assert [process.returncode for process in runs] == [0, 0], errors
    listing = app.checkpoints.list_checkpoints("shared", limit=100)
    assert listing.total == 30
    seen = {
        (c["writer"], c["n"])
        for c in (
            app.checkpoints.load(checkpoint_id=i["checkpointId"]).context
            for i in listing.checkpoints
        )
    }
    assert seen == {(w, n) for w in "ab" for n in range(15)}
    assert app.checkpoints.list_checkpoints("twin").total == 1  # the identical save was skipped
