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
    result = CliRunner().invoke(commands(), ["--home", str(home), *args])
    assert result.exit_code == 2
    assert "is not a valid number" in result.output
    assert "integer range" not in result.output
    assert not home.exists()  # refused before any store is opened


def test_help_calls_a_number_a_number() -> None:
    result = CliRunner().invoke(commands(), ["story", "suggestions", "--help"])
    assert "--limit NUMBER" in result.output and "INTEGER RANGE" not in result.output
