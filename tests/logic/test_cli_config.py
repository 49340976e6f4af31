"""`loci config CLIENT` prints what each client needs to start loci, ready to paste."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from loci.faces.cli.main import cli

JSON_CLIENTS = {"claude": "mcpServers", "cursor": "mcpServers", "vscode": "servers"}


@pytest.mark.parametrize("client", sorted(JSON_CLIENTS))
def test_json_clients_get_pure_json_on_stdout(client: str, tmp_path: Path) -> None:
    home, config = tmp_path / "my data", tmp_path / "loci.toml"
    result = CliRunner().invoke(
        cli, ["--home", str(home), "--config", str(config), "config", client]
    )
    assert result.exit_code == 0, result.output
    server = json.loads(result.stdout)[JSON_CLIENTS[client]]["loci"]
    assert server["args"][-1] == "serve"
    assert server["env"] == {"LOCI_HOME": str(home.resolve()), "LOCI_CONFIG": str(config.resolve())}
    assert "json" in result.stderr  # where to paste it, kept off stdout
    if client == "vscode":
        assert server["type"] == "stdio"


def test_claude_code_gets_a_shell_command_that_survives_spaces(tmp_path: Path) -> None:
    home = tmp_path / "my data"
    result = CliRunner().invoke(cli, ["--home", str(home), "config", "claude-code"])
    assert result.exit_code == 0, result.output
    words = shlex.split(result.stdout)
    assert words[:4] == ["claude", "mcp", "add", "loci"]
    assert words[words.index("-e") + 1] == f"LOCI_HOME={home.resolve()}"
    assert words[words.index("--") + 1 :][-1] == "serve"


def test_without_options_no_environment_is_set() -> None:
    result = CliRunner().invoke(cli, ["config", "cursor"])
    assert "env" not in json.loads(result.stdout)["mcpServers"]["loci"]


def test_an_unknown_client_is_refused() -> None:
    result = CliRunner().invoke(cli, ["config", "emacs"])
    assert result.exit_code == 2 and "emacs" in result.output


@pytest.mark.parametrize("client", ["claude", "claude-code"])
def test_json_gives_the_parts_and_the_snippet(client: str, tmp_path: Path) -> None:
    home = tmp_path / "my data"
    result = CliRunner().invoke(cli, ["--home", str(home), "config", client, "--json"])
    assert result.exit_code == 0, result.output
    described = json.loads(result.stdout)
    assert described["client"] == client and described["args"][-1] == "serve"
    assert described["env"] == {"LOCI_HOME": str(home.resolve())}
    plain = CliRunner().invoke(cli, ["--home", str(home), "config", client])
    assert described["snippet"] == plain.stdout.rstrip("\n")
    assert described["where"] in plain.stderr
