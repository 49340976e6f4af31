"""Bad input to the memory commands, run in-process by click's runner: a message naming the
problem, the exit code of its kind, and nothing changed (`tests/e2e` runs real processes)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_runner import run_loci as loci


def test_bad_input_gets_a_message_and_an_exit_code_and_changes_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert loci(home, "remember", "the one memory").returncode == 0
    not_json = tmp_path / "notes.txt"
    not_json.write_text("plain words, not JSON", encoding="utf-8")
    for args, code, words in [
        (["recall", "x", "-l", "1000"], 2, "limit"),
        (["recall", "x", "-f", '{"created_at": {"gt": "0001-01-01T00:00:00+01:00"}}'], 2, "ISO"),
        (["recall", "x", "-f", '{"source": "\udcff"}'], 2, "not valid Unicode"),  # byte 0xff
        (["remember", "x", "-i", "2"], 2, "importance"),
        (["remember", "x", "-m", "[1, 2]"], 2, "metadata"),
        (["export", str(tmp_path / "missing" / "out.json")], 2, "no folder"),
        (["import", str(not_json)], 2, "JSON"),
        (["import", "/dev/zero"], 2, "not a loci export"),
        (["forget"], 2, "memory"),
        (["namespaces", "delete", "nowhere"], 3, "nowhere"),
    ]:
        result = loci(home, *args)
        assert result.returncode == code, (args, result.stderr)
        assert words in result.stderr and "Traceback" not in result.stderr, (args, result.stderr)
    assert not (tmp_path / "missing").exists()
    assert json.loads(loci(home, "stats", "--json").stdout)["total_memories"] == 1


def test_an_option_of_loci_itself_after_the_command_says_where_it_goes(tmp_path: Path) -> None:
    # A tester wrote `loci story import book.txt --session s --home DIR` and was told only
    # that the command has no such option.
    elsewhere = tmp_path / "elsewhere"
    result = loci(tmp_path / "home", "stats", "--home", str(elsewhere))
    assert result.returncode == 2
    assert "--home is an option of loci itself" in result.stderr
    assert f"loci --home {elsewhere} stats" in result.stderr
    assert not elsewhere.exists()
    # Its value after "--", or the option written first, is no misplaced option.
    assert loci(tmp_path / "home", "--home", str(elsewhere), "stats").returncode == 0
    assert "itself" not in loci(tmp_path / "home", "remember", "--", "--home").stderr
