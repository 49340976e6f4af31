"""`loci`: the entry point and the server / client-configuration commands."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import click

from loci import __version__
from loci.errors import StorageUnavailableError
from loci.faces.cli import usage
from loci.faces.cli.clients import CLIENTS, http_snippet, stdio_snippet
from loci.faces.cli.output import CliState, emit_json, json_option, run

#: The options of `loci` itself, which go before the command.
GLOBAL_OPTIONS = ("--config", "--home", "--database")


class _Loci(click.Group):
    """The `loci` group: an option of its own written after the command is named so, with
    the command as it should be (click would say only that the command has no such option);
    every mistake of usage is said as loci says its errors (`usage`)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        at = _misplaced(args)
        if at is not None:
            width = 1 if "=" in args[at] else 2
            moved = [*args[at : at + width], *args[:at], *args[at + width :]]
            name = args[at].split("=", 1)[0]
            raise click.UsageError(
                f"{name} is an option of loci itself and goes before the command: "
                f"loci {shlex.join(moved)}",
                ctx,
            )
        return super().parse_args(ctx, args)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            raise usage.said(error) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as error:  # a command's own, or its options' and arguments'
            raise usage.said(error) from None


def _misplaced(args: list[str]) -> int | None:
    """Where in `args` the first option of `loci` itself written after the command is."""
    at = 0
    while at < len(args) and args[at].startswith("-"):
        at += 2 if args[at] in GLOBAL_OPTIONS else 1
    for index in range(at + 1, len(args)):
        if args[index] == "--":
            return None
        if args[index].split("=", 1)[0] in GLOBAL_OPTIONS:
            return index
    return None


@click.group(cls=_Loci, context_settings={"help_option_names": ["-h", "--help"]})
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
@click.option(
    "--database",
    metavar="URL",
    help="PostgreSQL database shared by several servers (overrides LOCI_DATABASE_URL).",
)
@click.pass_context
def cli(ctx: click.Context, config: Path | None, home: Path | None, database: str | None) -> None:
    """loci: local-first memory for LLM agents, over the Model Context Protocol.

    Run `loci serve` from your MCP client (see `loci config --help`), or use the commands
    below to work with the same memory from a terminal.
    """
    shared = ctx.obj.embedder if isinstance(ctx.obj, CliState) else None
    ctx.obj = CliState(config=config, home=home, embedder=shared, database=database)


@cli.command()
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio: one client that starts loci; http: one server for many clients.",
)
@click.option("--host", help="Address to bind with --transport http (LOCI_HTTP_HOST).")
@click.option("--port", type=int, help="Port with --transport http (LOCI_HTTP_PORT).")
@click.pass_obj
def serve(state: CliState, transport: str, host: str | None, port: int | None) -> None:
    """Serve MCP: over stdio (what MCP clients start), or over streamable HTTP at
    http://HOST:PORT/mcp with a bearer token (`loci token show`) and /healthz."""
    from loci.faces.cli.launch import serve_over_http, serve_stdio

    if transport == "stdio":
        if host is not None or port is not None:
            raise click.UsageError("--host and --port go with --transport http")
        serve_stdio(state.config, state.home, state.database)
        return
    serve_over_http(state.config, state.home, host, port, state.database)


@cli.command()
@click.option("--port", type=int, help="Port to serve on (LOCI_HTTP_PORT).")
@click.option("--no-browser", is_flag=True, help="Print the address; do not open a browser.")
@click.pass_obj
def ui(state: CliState, port: int | None, no_browser: bool) -> None:
    """Open the web view in the default browser: search, browse, edit, forget, export and
    import memories; their map, region within region; stories and their cast; context files
    and their changes; checkpoints. It is served on this machine's loopback address by the
    HTTP server (which also serves MCP at /mcp) until Ctrl-C; the browser is let in by a
    one-time link, so the token never appears in the address bar."""
    from loci.faces.cli.launch import serve_over_http
    from loci.faces.cli.view_link import opener

    serve_over_http(
        state.config, state.home, "127.0.0.1", port, state.database, opener(not no_browser)
    )


@cli.command()
@click.argument("client", type=click.Choice(CLIENTS))
@click.option("--http", "over_http", is_flag=True, help="Reach `loci serve --transport http`.")
@json_option
@click.pass_obj
def config(state: CliState, client: str, over_http: bool, as_json: bool) -> None:
    """Print the configuration snippet that makes CLIENT start loci (or, with --http, reach
    the HTTP server at the configured host and port with its token).

    CLIENT is one of: claude (Claude Desktop), claude-code, cursor, vscode. With --json: the
    command, its arguments and environment (or the URL and headers), where the snippet goes
    and the snippet itself.
    """
    if over_http:
        run(lambda: _http_config(state, client, as_json))
        return
    command = shutil.which("loci") or sys.executable
    args = ["serve"] if command.endswith("loci") else ["-m", "loci", "serve"]
    env = {"LOCI_HOME": str(state.home.resolve())} if state.home else {}
    if state.config:
        env["LOCI_CONFIG"] = str(state.config.resolve())
    where, text = stdio_snippet(client, command, args, env)
    if as_json:
        fields = {"command": command, "args": args, "env": env}
        emit_json({"client": client, **fields, "where": where, "snippet": text})
        return
    click.echo(where, err=True)  # stdout stays pasteable: `loci config cursor > mcp.json`
    click.echo(text)


def _http_config(state: CliState, client: str, as_json: bool) -> None:
    from loci.faces.http.app import MCP_PATH
    from loci.faces.http.bearer import BearerToken

    settings = state.settings()
    host = settings.http_host
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{settings.http_port}{MCP_PATH}"
    token = BearerToken(settings.home).value() if settings.http_auth == "token" else None
    try:
        where, text = http_snippet(client, url, token)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        emit_json(
            {"client": client, "url": url, "headers": headers, "where": where, "snippet": text}
        )
        return
    click.echo(where, err=True)
    click.echo(text)


def commands() -> click.Group:
    """The `loci` group with every command family registered."""
    from loci import toolsets as registry
    from loci.faces.cli import admin, http, migrate

    for family in (admin, http, migrate):
        family.register(cli)
    for toolset in registry.TOOLSETS:
        for module in toolset.command_modules():
            module.register(cli)
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
