"""The memory commands in-process: remember, recall, export, import, forget and doctor on a real
data folder, and long memories shown short in the table and whole in JSON."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from loci.engine.embedding import onnx_minilm
from tests.cli_runner import run_loci as loci
from tests.cli_runner import shared_model


def test_remember_recall_export_import_forget(tmp_path: Path) -> None:
    home, other = tmp_path / "home", tmp_path / "other"
    stored = loci(home, "remember", "The deploy key lives in the team vault", "-t", "ops",
                  "-i", "0.9", "-m", '{"project": "alpha"}', "--json")  # fmt: skip
    assert stored.returncode == 0, stored.stderr
    memory_id = json.loads(stored.stdout)["id"]
    assert loci(home, "remember", "Lunch is at noon on Fridays", "-n", "life").returncode == 0

    found = loci(home, "recall", "where is the deploy key?", "-l", "1", "--json")
    assert json.loads(found.stdout)["memories"][0]["id"] == memory_id
    filtered = loci(home, "recall", "key", "-f", '{"metadata.project": "beta"}', "--json")
    assert json.loads(filtered.stdout)["memories"] == []

    exported = tmp_path / "memories.json"
    done = loci(home, "export", str(exported), "--vectors")
    assert done.returncode == 0 and "exported 2 memories" in done.stderr
    summary = loci(home, "export", str(tmp_path / "again.json"), "--json")
    assert json.loads(summary.stdout) == {"exported": 2, "file": str(tmp_path / "again.json")}
    assert stat.S_IMODE(exported.stat().st_mode) == 0o600
    imported = loci(other, "import", str(exported), "--json")
    assert json.loads(imported.stdout)["imported"] == 2, imported.stderr
    assert json.loads(loci(other, "stats", "--json").stdout)["namespaces"] == {
        "default": 1,
        "life": 1,
    }

    preview = json.loads(loci(other, "forget", "-n", "life", "--dry-run", "--json").stdout)
    assert preview["dry_run"] and preview["deleted"] == 1  # would delete
    assert json.loads(loci(other, "stats", "--json").stdout)["total_memories"] == 2
    declined = loci(other, "forget", "-n", "life", answers="n\n")
    assert declined.returncode == 1 and "delete 1 memory?" in declined.stderr
    assert "nothing deleted" in declined.stderr
    no_answer = loci(other, "forget", "-n", "life")  # a script without --yes: nothing goes
    assert no_answer.returncode != 0
    assert json.loads(loci(other, "stats", "--json").stdout)["total_memories"] == 2
    gone = loci(other, "forget", "-n", "life", "--json", answers="y\n")
    assert json.loads(gone.stdout)["deleted"] == 1, gone.stderr
    assert json.loads(loci(other, "stats", "--json").stdout)["total_memories"] == 1

    doctor = loci(other, "doctor")
    assert doctor.returncode == 0 and doctor.stdout.endswith("all good\n"), doctor.stderr
    checks = doctor.stdout.splitlines()[:-1]
    assert ["memories", "1"] in [line.split() for line in checks]
    # One column for every value, however long the longest check's name.
    assert len({len(line) - len(line.split("  ", 1)[1].lstrip()) for line in checks}) == 1


def test_a_long_memory_is_shortened_in_the_table_and_whole_in_json(tmp_path: Path) -> None:
    home = tmp_path / "home"
    long = "The kite festival notes. " + "More lines about string and wind.\n" * 1800  # ~60 KB
    assert loci(home, "remember", long).returncode == 0
    table = loci(home, "recall", "kite festival")
    assert table.returncode == 0 and len(table.stdout.splitlines()) < 40, table.stdout[:500]
    assert "--json gives them whole" in table.stderr
    whole = json.loads(loci(home, "recall", "kite festival", "--json").stdout)
    assert whole["memories"][0]["content"] == long


def test_commands_run_in_process_use_the_model_they_are_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared_model()  # loaded before the commands run
    loads: list[object] = []
    load = onnx_minilm._load_session

    def counted(*args: object) -> object:
        loads.append(args)
        return load(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(onnx_minilm, "_load_session", counted)
    assert loci(tmp_path, "remember", "Kites fly best in March").returncode == 0
    found = loci(tmp_path, "recall", "when do kites fly", "--json")
    assert json.loads(found.stdout)["memories"][0]["content"] == "Kites fly best in March"
    assert loads == []
    # A command told to configure its own model (here, its threads) loads it.
    assert loci(tmp_path, "recall", "kites", LOCI_EMBEDDING_THREADS="1").returncode == 0
    assert len(loads) == 1
