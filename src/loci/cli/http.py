"""`loci token show|rotate`: the bearer token HTTP clients present to `loci serve --transport http`."""

from __future__ import annotations

import click

from loci.cli.output import CliState, emit_json, json_option, run


def register(group: click.Group) -> None:
    """Add the `token` commands to the `loci` group."""
    group.add_command(token)


@click.group()
def token() -> None:
    """The bearer token of the HTTP server (kept in the data folder, readable by you only)."""


@token.command()
@json_option
@click.pass_obj
def show(state: CliState, as_json: bool) -> None:
    """Print the token (made now if there is none yet)."""
    from loci.http.token import BearerToken

    def work() -> None:
        found = BearerToken(state.settings().home)
        _emit(found.value(), str(found.path), as_json)

    run(work)


@token.command()
@json_option
@click.pass_obj
def rotate(state: CliState, as_json: bool) -> None:
    """Replace the token: the old one stops working at once, also for a running server."""
    from loci.http.token import BearerToken

    def work() -> None:
        found = BearerToken(state.settings().home)
        _emit(found.rotate(), str(found.path), as_json)

    run(work)


def _emit(value: str, path: str, as_json: bool) -> None:
    if as_json:
        emit_json({"token": value, "path": path})
        return
    click.echo(f"# {path}", err=True)
    click.echo(value)
