"""Bad input to the memory commands, run in-process by click's runner: a message naming the
problem, the exit code of its kind, and nothing changed (`tests/e2e` runs real processes)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tests.unit.test_architecture import _commands


@pytest.fixture(scope="module")
def cli() -> click.Group:
    return _commands()


def loci(cli: click.Group, home: Path, *args: str) -> tuple[int, str, str]:
    """(exit code, standard output, standard error) of `loci --home HOME ARGS`."""
    result = CliRunner().invoke(cli, ["--home", str(home), *args])
    return result.exit_code, result.stdout, result.stderr


def test_bad_input_gets_a_message_and_an_exit_code_and_changes_nothing(
    cli: click.Group, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    assert loci(cli, home, "remember", "the one memory")[0] == 0
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
        exit_code, _, stderr = loci(cli, home, *args)
        assert exit_code == code, (args, stderr)
        assert words in stderr and "Traceback" not in stderr, (args, stderr)
    assert not (tmp_path / "missing").exists()
    assert json.loads(loci(cli, home, "stats", "--json")[1])["total_memories"] == 1
