"""`loci token show|rotate|create|list|revoke` and `loci config CLIENT --http`: the tokens and
the snippets that reach `loci serve --transport http`."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from loci.errors import ConfigurationError
from loci.faces.http.app import check_exposure, is_loopback
from loci.settings import load_settings
from tests.cli_runner import run_loci


def test_token_show_makes_a_private_token_once_and_rotate_replaces_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shown = run_loci(home, "token", "show")
    assert shown.returncode == 0 and shown.stdout.strip().startswith("loci_")
    assert (home / "http-token").stat().st_mode & 0o777 == 0o600
    assert run_loci(home, "token", "show").stdout == shown.stdout
    rotated = run_loci(home, "token", "rotate", "--json")
    value = json.loads(rotated.stdout)
    assert value["token"] != shown.stdout.strip() and value["path"] == str(home / "http-token")
    assert run_loci(home, "token", "show").stdout.strip() == value["token"]


def test_named_tokens_are_made_listed_and_revoked(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = run_loci(home, "token", "create", "ana", "--toolsets", "memory", "--namespaces", "a,b")
    assert made.returncode == 0 and made.stdout.strip().startswith("loci_")
    assert "shown only now" in made.stderr and "namespaces a, b" in made.stderr
    listed = json.loads(run_loci(home, "token", "list", "--json").stdout)["tokens"]
    assert [(t["name"], t["toolsets"], t["namespaces"], t["read_only"]) for t in listed] == [
        ("ana", ["memory"], ["a", "b"], False)
    ]
    assert made.stdout.strip() not in run_loci(home, "token", "list").stdout
    assert run_loci(home, "token", "revoke", "ana").stdout.strip() == "revoked ana"
    assert "no named tokens" in run_loci(home, "token", "list").stdout


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["create", "../ana"], 2, "a token's name is"),
        (["create", "ana", "--toolsets", "memory,mem"], 2, "toolsets must be some of"),
        (["create", "ana", "--namespaces", "a b"], 2, "namespaces must be"),
        (["revoke", "nobody"], 3, "no token named 'nobody'"),
    ],
)
def test_bad_token_commands_say_why_and_change_nothing(
    tmp_path: Path, args: list[str], code: int, message: str
) -> None:
    home = tmp_path / "home"
    refused = run_loci(home, "token", *args)
    assert refused.returncode == code and message in refused.stderr
    assert "no named tokens" in run_loci(home, "token", "list").stdout


def test_a_damaged_token_file_is_reported(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    (home / "http-token").write_text("not a token")
    shown = run_loci(home, "token", "show")
    assert shown.returncode != 0 and "loci token rotate" in shown.stderr


@pytest.mark.parametrize(("client", "key"), [("cursor", "mcpServers"), ("vscode", "servers")])
def test_json_clients_get_the_url_and_the_authorization_header(
    client: str, key: str, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    done = run_loci(home, "config", client, "--http", LOCI_HTTP_PORT="9100")
    assert done.returncode == 0, done.stderr
    server = json.loads(done.stdout)[key]["loci"]
    token = run_loci(home, "token", "show").stdout.strip()
    assert server["url"] == "http://127.0.0.1:9100/mcp"
    assert server["headers"] == {"Authorization": f"Bearer {token}"}
    if client == "vscode":
        assert server["type"] == "http"


def test_claude_code_gets_the_http_command(tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = run_loci(home, "config", "claude-code", "--http")
    words = shlex.split(done.stdout)
    token = run_loci(home, "token", "show").stdout.strip()
    assert words[:6] == ["claude", "mcp", "add", "--transport", "http", "loci"]
    assert words[6] == "http://127.0.0.1:8765/mcp"
    assert words[7:] == ["--header", f"Authorization: Bearer {token}"]


def test_without_auth_no_header_is_given(tmp_path: Path) -> None:
    done = run_loci(
        tmp_path / "home", "config", "cursor", "--http", "--json", LOCI_HTTP_AUTH="none"
    )
    assert json.loads(done.stdout)["headers"] == {}
    assert not (tmp_path / "home" / "http-token").exists()


def test_claude_desktop_over_http_is_refused_with_the_way_out(tmp_path: Path) -> None:
    done = run_loci(tmp_path / "home", "config", "claude", "--http")
    assert done.returncode == 2 and "connector" in done.stderr


def test_host_and_port_go_with_the_http_transport_only(tmp_path: Path) -> None:
    done = run_loci(tmp_path / "home", "serve", "--port", "9000")
    assert done.returncode == 2 and "--transport http" in done.stderr


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("localhost", True), ("::1", True), ("[::1]", True),
     ("0.0.0.0", False), ("192.168.1.4", False), ("example.org", False)],
)  # fmt: skip
def test_loopback_addresses(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_no_token_is_allowed_on_loopback_only(tmp_path: Path) -> None:
    check_exposure(load_settings(home=tmp_path, http_auth="none"))
    with pytest.raises(ConfigurationError, match="loopback"):
        check_exposure(load_settings(home=tmp_path, http_auth="none", http_host="0.0.0.0"))
    check_exposure(load_settings(home=tmp_path, http_host="0.0.0.0"))  # with the token: allowed
