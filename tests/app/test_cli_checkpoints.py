"""`loci checkpoints`: list, show, export, gc and rotate-key, run in-process on real files."""

from __future__ import annotations

import json
import stat

import pytest

from tests.app.test_checkpoints import make
from tests.cli_runner import run_loci

pytestmark = pytest.mark.usefixtures("no_os_keychain")


def test_the_cli_lists_shows_exports_and_collects(tmp_path, embedder):
    home = tmp_path / "home"

    def loci(*args):
        return run_loci(home, "checkpoints", *args)

    app = make(home, embedder)
    saved = [app.checkpoints.save({"goal": "g", "n": n}, "cli").checkpoint_id for n in range(3)]
    newest = saved[-1]
    app.close()
    assert loci("list").stdout.startswith("cli  3 checkpoints")
    assert loci("list", "cli").stdout.splitlines()[0].startswith(newest)
    shown = loci("show", newest).stdout
    assert f"checkpoint  {newest}" in shown and "within budget" in shown and '"n": 2' in shown
    assert json.loads(loci("show", newest, "--json").stdout)["context"] == {"goal": "g", "n": 2}
    exported = tmp_path / "cli.json"
    assert loci("export", "cli", "-o", str(exported)).returncode == 0
    assert exported.read_text().count('"checkpointId"') == 3
    assert stat.S_IMODE(exported.stat().st_mode) == 0o600  # decrypted checkpoints
    summary = json.loads(loci("export", "cli", "-o", str(exported), "--json").stdout)
    assert summary == {"file": str(exported), "exported": 3, "unreadable": []}
    nowhere = loci("export", "cli", "-o", str(tmp_path / "missing" / "cli.json"))
    assert nowhere.returncode == 2 and "no folder" in nowhere.stderr
    # A blob lost from disk: the other checkpoints are still exported, the lost one named.
    next((home / "checkpoints" / "blobs").glob("*/*.blob")).unlink()
    partial = loci("export", "cli", "-o", str(exported))
    assert partial.returncode == 10
    assert "not exported: cp-" in partial.stderr
    assert "1 of 3 checkpoints of session cli could not be read" in partial.stderr
    document = json.loads(exported.read_text())
    assert len(document["checkpoints"]) == 2 and len(document["unreadable"]) == 1
    assert "removed 0 checkpoints" in loci("gc").stdout
    unencrypted = loci("rotate-key")
    assert unencrypted.returncode == 9 and "encryption is off" in unencrypted.stderr
    missing = loci("show", "cp-none")
    assert missing.returncode == 3 and "CHECKPOINT_NOT_FOUND" in missing.stderr


def test_an_export_whose_key_file_is_gone_says_the_key_is_unavailable(tmp_path, embedder):
    """Exit 11 (restore the key), not 10 (restore the blobs): the payloads are whole."""
    home, key_file = tmp_path / "home", tmp_path / "keys" / "loci.key"
    app = make(home, embedder, encryption="enabled", encryption_key_file=key_file)
    for n in range(2):
        app.checkpoints.save({"goal": "g", "n": n}, "sealed")
    app.close()
    env = {"LOCI_ENCRYPTION": "enabled", "LOCI_ENCRYPTION_KEY_FILE": str(key_file)}
    key_file.rename(tmp_path / "elsewhere.key")
    exported = run_loci(home, "checkpoints", "export", "sealed", "-o", str(tmp_path / "x"), **env)
    assert exported.returncode == 11, exported.stderr
    assert "ENCRYPTION_KEY_UNAVAILABLE" in exported.stderr
    assert "2 of 2 checkpoints of session sealed could not be read" in exported.stderr
