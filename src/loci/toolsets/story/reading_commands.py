"""`loci story context` and `loci story search`: what an agent is given of a story, from a
terminal (the tools `get_story_context` and `search_story_memory`)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, cast

import click

from loci.faces.cli.numbers import WholeNumber
from loci.faces.cli.output import CliState, emit_json, json_option, opened_app, run

if TYPE_CHECKING:
    from loci.toolsets.story.lookup import EntityType


def register(group: click.Group) -> None:
    """Add `context` and `search` to the `story` group."""
    group.add_command(context_command)
    group.add_command(search_command)


@click.command("context", short_help="Print the context assembled for the next turn.")
@click.argument("session_id")
@click.argument("current_input")
@click.option("--max-tokens", type=WholeNumber(100, 1_000_000), help="Budget.")
@json_option
@click.pass_obj
def context_command(
    state: CliState, session_id: str, current_input: str, max_tokens: int | None, as_json: bool
) -> None:
    """Print the context assembled for CURRENT_INPUT (what get_story_context returns)."""
    from loci.toolsets.story.assembly import assemble

    def work() -> None:
        with opened_app(state, existing=True) as app:
            found = assemble(app.story, session_id, current_input, max_tokens)
        if as_json:
            emit_json(found)
            return
        click.echo(found.text)
        click.echo(f"-- {found.tokens} of {found.max_tokens} tokens", err=True)
        for part in found.parts:
            click.echo(f"-- {part.kind}: {part.tokens} tokens, {part.reason}", err=True)

    run(work)


@click.command("search", short_help="Search the whole story for passages.")
@click.argument("session_id")
@click.argument("query")
@click.option(
    "--kind",
    "entity_type",
    type=click.Choice(["character", "place"]),
    help="Only passages naming a character (or a place).",
)
@click.option("--limit", type=WholeNumber(1, 50), default=5, show_default=True)
@click.option("--chunk", "include_chunk", is_flag=True, help="Also print each hit's whole chunk.")
@json_option
@click.pass_obj
def search_command(
    state: CliState,
    session_id: str,
    query: str,
    entity_type: str | None,
    limit: int,
    include_chunk: bool,
    as_json: bool,
) -> None:
    """Search the whole story for passages that answer QUERY, best first (what
    search_story_memory returns): each hit's passage, where it stands and who is named."""
    from loci.toolsets.story.lookup import search

    def work() -> None:
        with opened_app(state, existing=True) as app:
            kind = cast("EntityType | None", entity_type)  # click.Choice says it is one
            found = search(app.story, session_id, query, kind, limit, include_chunk)
        if as_json:
            emit_json(found)
            return
        if not found.hits:
            click.echo("no passages found")
        for number, hit in enumerate(found.hits, 1):
            named = f"; {', '.join(hit.entities)}" if hit.entities else ""
            where = "prompt" if hit.prompt else hit.where
            click.echo(f"{number}. [{where}, token {hit.position}, score {hit.score:.3f}{named}]")
            click.echo(textwrap.indent(hit.passage, "   "))
            if hit.chunk is not None:
                click.echo(hit.chunk)

    run(work)
