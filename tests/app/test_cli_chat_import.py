"""`loci import-chats` as a person runs it: a summary, a dry run's listing, JSON, the logs of
a coding agent found where it keeps them, and clear errors with their exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.cli_runner import run_loci

CHATS = Path(__file__).resolve().parent.parent / "fixtures" / "chats"


def test_a_dry_run_lists_then_an_import_sums_up(tmp_path: Path) -> None:
    home = tmp_path / "home"
    dry = run_loci(home, "import-chats", str(CHATS / "chatgpt"), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    lines = dry.stdout.splitlines()
    assert lines[0] == "2024-03-12  Trip to Lisbon: 8 messages, 8 new -> chatgpt"
    assert "would store 10 messages in chatgpt (0 stored before), from 2024-03-12" in dry.stdout
    assert "skipped " in dry.stdout and "(Broken): cannot be read" in dry.stdout
    done = run_loci(home, "import-chats", str(CHATS / "chatgpt"))
    assert done.returncode == 0, done.stderr
    assert "stored 10 messages in chatgpt (0 stored before)" in done.stdout
    assert "Trip to Lisbon" not in done.stdout  # the listing is for dry runs and --json
    # Off a terminal, the progress is lines on standard error, the last with what was counted.
    said = [line for line in done.stderr.splitlines() if line.startswith("reading: ")]
    assert said and said[-1].startswith("reading: 100% (") and " bytes), " in said[-1]
    assert "message" in said[-1]
    again = run_loci(home, "import-chats", str(CHATS / "chatgpt"), "--json")
    report = json.loads(again.stdout)
    assert (report["stored"], report["already_stored"]) == (0, 10)
    assert report["listed"][0]["title"] == "Trip to Lisbon"


def test_a_coding_agents_logs_are_found_where_it_keeps_them(tmp_path: Path) -> None:
    fake_home = tmp_path / "person"
    shutil.copytree(CHATS / "claude-code", fake_home / ".claude" / "projects")
    done = run_loci(
        tmp_path / "home",
        "import-chats",
        "--format",
        "claude-code",
        "-n",
        "work",
        HOME=str(fake_home),
    )
    assert done.returncode == 0, done.stderr
    assert "stored 6 messages in work (4 stored before)" in done.stdout
    assert "note: " in done.stdout and "last line is cut short" in done.stdout


def test_errors_are_clear_and_store_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    missing = run_loci(home, "import-chats")
    assert missing.returncode == 2 and "give the export's PATH" in missing.stderr
    notes = tmp_path / "notes.json"
    notes.write_text('{"title": "not a chat"}')
    refused = run_loci(home, "import-chats", str(notes))
    assert refused.returncode != 0
    assert "holds no chat export loci reads" in refused.stderr
    large = run_loci(home, "import-chats", str(CHATS / "chatgpt"), LOCI_IMPORT_MAX_BYTES="2000")
    assert large.returncode != 0 and "LOCI_IMPORT_MAX_BYTES" in large.stderr
    listed = run_loci(home, "stats", "--json")
    assert json.loads(listed.stdout)["total_memories"] == 0
