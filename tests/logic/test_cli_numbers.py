"""Numbers on the command line are refused in words a user reads, before anything is opened."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from loci.faces.cli.main import commands


@pytest.mark.parametrize(
    "args",
    [
        ["story", "suggestions", "tale", "--accept", "abc"],
        ["story", "undo", "tale", "two"],
        ["story", "search", "tale", "storm", "--limit", "many"],
    ],
)
def test_a_number_that_is_no_number_is_refused_as_such(args: list[str], tmp_path: Path) -> None:
    # A helper's trial read click's "'abc' is not a valid integer range" as loci's wording.
    home = tmp_path / "home"
    result = CliRunner().invoke(commands(), ["--home", str(home), *args], prog_name="loci")
    assert result.exit_code == 2
    assert "is not a valid number" in result.output
    assert "integer range" not in result.output
    # In loci's form of an error (docs/cli.md), where click's own began "Usage:".
    assert result.output.startswith("error (invalid_input): invalid value for ")
    assert "Try 'loci story " in result.output
    assert not home.exists()  # refused before any store is opened


def test_help_calls_a_number_a_number() -> None:
    result = CliRunner().invoke(commands(), ["story", "suggestions", "--help"])
    assert "--limit NUMBER" in result.output and "INTEGER RANGE" not in result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--bogus"], "no such option '--bogus'.\nTry 'loci --help' for help."),
        (["nosuch"], "no such command 'nosuch'."),
        (["story", "undo", "tale", "--number", "2"], "Try 'loci story undo --help' for help."),
        (["story", "characters", "tale", "--home", "x"], "goes before the command"),
    ],
)
def test_every_mistake_of_usage_is_said_as_loci_says_errors(args: list[str], said: str) -> None:
    result = CliRunner().invoke(commands(), args, prog_name="loci")
    assert result.exit_code == 2
    assert result.output.startswith("error (invalid_input): ") and said in result.output
    assert "Usage:" not in result.output


def test_a_group_given_no_command_still_shows_its_help() -> None:
    result = CliRunner().invoke(commands(), ["story"], prog_name="loci")
    assert "Usage: loci story [OPTIONS] COMMAND" in result.output and "error (" not in result.output
