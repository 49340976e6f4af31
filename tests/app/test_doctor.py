"""`loci doctor` on real data folders: what it checks and the problems it names."""

import sys

import pytest

from loci.app import build_app
from loci.faces.cli.admin import diagnose
from loci.faces.cli.output import CliState
from loci.settings import load_settings
from tests.cli_runner import run_loci as loci

pytestmark = pytest.mark.usefixtures("no_os_keychain")


def test_a_fresh_folder_is_all_good(tmp_path):
    report = diagnose(CliState(config=None, home=tmp_path / "home"))
    assert report["problems"] == []
    checks = report["checks"]
    assert checks["model"] == "loads and embeds" and checks["integrity"] == "ok"
    assert checks["context projects"] == 0 and checks["checkpoint sessions"] == 0
    assert checks["story sessions"] == 0 and checks["named tokens"] == 0
    assert checks["vector kernel"] == "faiss"
    assert checks["tables"] == "memory 13, receipts 1, access 2, context 1, checkpoints 2, story 11"


def test_a_missing_faiss_is_named_unless_numpy_was_asked_for(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "faiss", None)  # makes `import faiss` fail
    report = diagnose(CliState(config=None, home=tmp_path / "home"))
    assert report["checks"]["vector kernel"] == "numpy"
    assert any("faiss-cpu cannot be loaded" in p for p in report["problems"])
    monkeypatch.setenv("LOCI_VECTOR_KERNEL", "numpy")
    report = diagnose(CliState(config=None, home=tmp_path / "home"))
    assert report["checks"]["vector kernel"] == "numpy" and report["problems"] == []


def test_broken_templates_and_missing_keys_are_named(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "templates").mkdir(parents=True)
    (home / "templates" / "notes.toml").write_text('name = "notes"\n[[sections]\n', "utf-8")
    monkeypatch.setenv("LOCI_ENCRYPTION", "enabled")
    problems = diagnose(CliState(config=None, home=home))["problems"]
    assert any("notes.toml:2" in p for p in problems)
    assert any("LOCI_ENCRYPTION_KEY_FILE" in p for p in problems)


def test_an_emptied_database_is_reported_by_doctor_and_stats(tmp_path, embedder):
    home = tmp_path / "home"
    app = build_app(load_settings(home=home), embedder=embedder)
    app.checkpoints.save({"goal": "ship"}, "s")
    app.context.init_project(str(tmp_path))
    app.close()
    (home / "loci.db").write_bytes(b"")
    doctor = loci(home, "doctor")
    assert doctor.returncode == 1, doctor.stderr
    assert "PROBLEM: the database holds no checkpoints" in doctor.stderr
    assert "PROBLEM: the database holds no context projects" in doctor.stderr
    stats = loci(home, "stats")
    assert stats.returncode == 0 and "WARNING: " in stats.stderr
    assert "emptied or replaced" in stats.stderr
