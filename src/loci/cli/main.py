"""`loci`: the entry point and the server / client-configuration commands."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

import click

from loci import __version__
from loci.cli.output import CliState, emit_json, json_option
from loci.errors import StorageUnavailableError

CLIENTS = ("claude", "claude-code", "cursor", "vscode")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="loci")
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="LOCI_CONFIG",
    help="TOML config file (also LOCI_CONFIG).",
)
@click.option(
    "--home",
    type=click.Path(file_okay=False, path_type=Path),
    help="Data folder (overrides LOCI_HOME).",
)
@click.pass_context
def cli(ctx: click.Context, config: Path | None, home: Path | None) -> None:
    """loci: local-first memory for LLM agents, over the Model Context Protocol.

    Run `loci serve` from your MCP client (see `loci config --help`), or use the commands
    below to work with the same memory from a terminal.
    """
    ctx.obj = CliState(config=config, home=home)


@cli.command()
@click.pass_obj
def serve(state: CliState) -> None:
    """Serve MCP over stdio (this is what MCP clients start)."""

    from loci.cli.launch import serve_stdio

    serve_stdio(state.config, state.home)


@cli.command()
@click.argument("client", type=click.Choice(CLIENTS))
@json_option
@click.pass_obj
def config(state: CliState, client: str, as_json: bool) -> None:
    """Print the configuration snippet that makes CLIENT start loci.

    CLIENT is one of: claude (Claude Desktop), claude-code, cursor, vscode. With --json: the
    command, its arguments and environment, where the snippet goes and the snippet itself.
    """
    command = shutil.which("loci") or sys.executable
    args = ["serve"] if command.endswith("loci") else ["-m", "loci", "serve"]
    env = {"LOCI_HOME": str(state.home.resolve())} if state.home else {}
    if state.config:
        env["LOCI_CONFIG"] = str(state.config.resolve())
    where, text = client_snippet(client, command, args, env)
    if as_json:
        fields = {"command": command, "args": args, "env": env}
        emit_json({"client": client, **fields, "where": where, "snippet": text})
        return
    click.echo(where, err=True)  # stdout stays pasteable: `loci config cursor > mcp.json`
    click.echo(text)


def client_snippet(
    client: str, command: str, args: list[str], env: dict[str, str]
) -> tuple[str, str]:
    """Where the snippet goes, and the text to paste there (JSON, or a shell command)."""
    server: dict[str, object] = {"command": command, "args": args}
    if env:
        server["env"] = env
    if client == "claude-code":
        env_flags = "".join(f" -e {key}={shlex.quote(value)}" for key, value in env.items())
        command_line = shlex.join([command, *args])
        return "# run in a shell", f"claude mcp add loci{env_flags} -- {command_line}"
    if client == "vscode":
        server = {"type": "stdio", **server}
        return "// .vscode/mcp.json", json.dumps({"servers": {"loci": server}}, indent=2)
    where = {
        "claude": "// claude_desktop_config.json (Settings > Developer > Edit Config)",
        "cursor": "// ~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
    }[client]
    return where, json.dumps({"mcpServers": {"loci": server}}, indent=2)


def commands() -> click.Group:
    """The `loci` group with every command family registered."""
    from loci.cli import (
        admin,
        checkpoints,
        context,
        conversations,
        lifecycle,
        memory,
        spatial,
        story,
    )

    families = (memory, spatial, admin, conversations, lifecycle, context, checkpoints, story)
    for family in families:
        family.register(cli)
    return cli


def main() -> None:
    """Console-script entry point."""
    try:
        commands()(prog_name="loci")
    except OSError as exc:
        # What click leaves: a write that failed outside a command's own handling, most
        # often standard output redirected to a full disk (a closed pipe click handles).
        where = f" ({exc.filename})" if exc.filename else ""
        sys.stderr.write(f"error ({StorageUnavailableError.code}): {exc.strerror or exc}{where}\n")
        sys.exit(StorageUnavailableError.exit_code)
