"""The memory commands as a user runs them: real `loci` processes on a real data folder."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import run_loci as loci

pytestmark = pytest.mark.e2e


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


def test_bad_input_gets_a_message_and_an_exit_code_and_changes_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert loci(home, "remember", "the one memory").returncode == 0
    # Every case runs in-process in tests/unit/test_cli_bad_input.py; here, a real process's
    # exit codes and standard error for one of each kind.
    for args, code, words in [
        (["recall", "x", "-l", "1000"], 2, "limit"),
        (["export", str(tmp_path / "missing" / "out.json")], 2, "no folder"),
        (["namespaces", "delete", "nowhere"], 3, "nowhere"),
    ]:
        result = loci(home, *args)
        assert result.returncode == code, (args, result.stderr)
        assert words in result.stderr and "Traceback" not in result.stderr, (args, result.stderr)
    assert not (tmp_path / "missing").exists()
    assert json.loads(loci(home, "stats", "--json").stdout)["total_memories"] == 1


def test_an_import_with_failed_items_stores_the_others_and_exits_non_zero(tmp_path: Path) -> None:
    home = tmp_path / "home"
    mixed = tmp_path / "mixed.json"
    when = "2026-11-24T10:00:00+00:00"
    items = [
        {"id": f"00000000-0000-4000-8000-00000000000{n}", "content": content,
         "namespace": "default", "tags": [], "importance": 0.5, "metadata": {},
         "source": "user", "created_at": when, "updated_at": when, "last_accessed": when,
         "access_count": 0}
        for n, content in enumerate(["a good memory", "", "another good one"])
    ]  # fmt: skip
    mixed.write_text(json.dumps({"memories": items}), encoding="utf-8")
    result = loci(home, "import", str(mixed))
    assert result.returncode == 2, result.stderr
    assert "imported 2" in result.stdout and "1 failed" in result.stdout
    assert "item 1:" in result.stderr
    assert json.loads(loci(home, "stats", "--json").stdout)["total_memories"] == 2


def test_a_data_folder_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("a file where the data folder should be", encoding="utf-8")
    for home, command, code in [(taken, "stats", 6), (taken / "inside", "doctor", 1)]:
        result = loci(home, command)
        assert result.returncode == code, result.stderr
        assert "cannot create the data folder" in result.stderr, result.stderr
        assert "Traceback" not in result.stderr


@pytest.fixture
def exportable_home(tmp_path: Path, embedder) -> Path:
    """A data folder whose export with vectors (~250 KB) is more than a pipe holds."""
    from loci.app import build_app
    from loci.memory.models import MemoryDraft
    from loci.settings import load_settings

    home = tmp_path / "home"
    app = build_app(load_settings(home=home), embedder=embedder)
    app.memory.remember_batch([MemoryDraft(f"note {n} about the release") for n in range(50)])
    app.close()
    return home


def test_export_to_a_closed_pipe_or_a_full_disk_ends_cleanly(exportable_home: Path) -> None:
    command = [sys.executable, "-m", "loci", "export", "-", "--vectors"]
    environment = {**os.environ, "LOCI_HOME": str(exportable_home)}
    reader = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment
    )
    assert reader.stdout is not None and reader.stderr is not None
    assert reader.stdout.read(100).startswith(b'{"version"')
    reader.stdout.close()  # as `| head -c 100` does
    errors = reader.stderr.read().decode()
    assert reader.wait(timeout=120) == 1
    assert "Traceback" not in errors and "Exception ignored" not in errors, errors

    if not Path("/dev/full").exists():
        return
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            command, stdout=full, stderr=subprocess.PIPE, env=environment, timeout=120
        )
    assert result.returncode == 6, result.stderr
    assert b"cannot write standard output: No space left on device" in result.stderr
    with open("/dev/full", "wb") as full:  # any command's output
        stats = [sys.executable, "-m", "loci", "stats"]
        result = subprocess.run(stats, stdout=full, stderr=subprocess.PIPE, env=environment)
    assert result.returncode == 6 and b"Traceback" not in result.stderr, result.stderr
    assert b"No space left on device" in result.stderr
