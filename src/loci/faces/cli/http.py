"""`loci token show|rotate|create|list|revoke`: the bearer tokens HTTP clients present to
`loci serve --transport http`: the data folder's own (all access), and named ones."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

import click

from loci.faces.cli.output import CliState, emit_json, json_option, opened_app, run

if TYPE_CHECKING:
    from loci.access.tokens import TokenInfo


def register(group: click.Group) -> None:
    """Add the `token` commands to the `loci` group."""
    group.add_command(token)


@click.group()
def token() -> None:
    """The bearer tokens of the HTTP server: the data folder's own, which may do everything
    (kept in the data folder, readable by you only), and named ones for other people and
    agents, each limited to some toolsets or to reading (kept in the store as digests)."""


@token.command()
@json_option
@click.pass_obj
def show(state: CliState, as_json: bool) -> None:
    """Print the token (made now if there is none yet)."""
    from loci.faces.http.bearer import BearerToken

    def work() -> None:
        found = BearerToken(state.settings().home)
        _emit(found.value(), str(found.path), as_json)

    run(work)


@token.command()
@json_option
@click.pass_obj
def rotate(state: CliState, as_json: bool) -> None:
    """Replace the token: the old one stops working at once, also for a running server."""
    from loci.faces.http.bearer import BearerToken

    def work() -> None:
        found = BearerToken(state.settings().home)
        _emit(found.rotate(), str(found.path), as_json)

    run(work)


@token.command()
@click.argument("name")
@click.option(
    "--toolsets",
    help="Comma-separated toolsets the token may use (memory, context, checkpoints, story); "
    "default: all.",
)
@click.option("--read-only", is_flag=True, help="Only the tools that change nothing.")
@click.option(
    "--namespaces",
    help="Comma-separated namespaces of memories the token sees and writes; default: all.",
)
@json_option
@click.pass_obj
def create(
    state: CliState,
    name: str,
    toolsets: str | None,
    read_only: bool,
    namespaces: str | None,
    as_json: bool,
) -> None:
    """Make a token for NAME (a person or an agent). It is printed once: keep it now."""

    def work() -> None:
        with opened_app(state) as app:
            made, info = app.access.create(name, _listed(toolsets), read_only, _listed(namespaces))
        if as_json:
            emit_json({"token": made, **asdict(info)})
            return
        click.echo(f"# {_described(info)}; shown only now", err=True)
        click.echo(made)

    run(work)


@token.command(name="list")
@json_option
@click.pass_obj
def list_tokens(state: CliState, as_json: bool) -> None:
    """The named tokens and what each may do (never the tokens themselves)."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            found = app.access.listing()
        if as_json:
            emit_json({"tokens": [asdict(info) for info in found]})
            return
        if not found:
            click.echo("no named tokens (`loci token create NAME` makes one)")
        for info in found:
            click.echo(_described(info))

    run(work)


@token.command()
@click.argument("name")
@json_option
@click.pass_obj
def revoke(state: CliState, name: str, as_json: bool) -> None:
    """Delete the token NAME: refused from its next request on, by every server."""

    def work() -> None:
        with opened_app(state) as app:
            info = app.access.revoke(name)
        if as_json:
            emit_json({"revoked": asdict(info)})
            return
        click.echo(f"revoked {info.name}")

    run(work)


def _listed(option: str | None) -> list[str] | None:
    return None if option is None else [part.strip() for part in option.split(",")]


def _described(info: TokenInfo) -> str:
    toolsets = ", ".join(info.toolsets) if info.toolsets else "every toolset"
    mode = "read-only" if info.read_only else "read and write"
    spaces = f"namespaces {', '.join(info.namespaces)}" if info.namespaces else "every namespace"
    return f"{info.name}: {toolsets}, {mode}, {spaces}, made {info.created_at}"


def _emit(value: str, path: str, as_json: bool) -> None:
    if as_json:
        emit_json({"token": value, "path": path})
        return
    click.echo(f"# {path}", err=True)
    click.echo(value)
