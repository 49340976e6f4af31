"""The memory commands as a user runs them: real `loci` processes on a real data folder."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from tests.e2e.conftest import run_loci as loci

pytestmark = pytest.mark.e2e


def stored(home: Path) -> int:
    with closing(sqlite3.connect(home / "loci.db")) as conn:
        return int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])


def test_bad_input_gets_a_message_and_an_exit_code_and_changes_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert loci(home, "remember", "the one memory").returncode == 0
    # Every case runs in-process in tests/app/test_cli_bad_input.py; here, a real process's
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
    assert stored(home) == 1


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
    assert stored(home) == 2


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
    from loci.settings import load_settings
    from loci.toolsets.memory.models import MemoryDraft

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
