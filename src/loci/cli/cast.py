"""`loci story character` and the writer's corrections of a story's cast."""

from __future__ import annotations

import click

from loci.cli.output import CliState, counted, emit_json, json_option, opened_app, run
from loci.story.models import CharacterInfo


def register(story: click.Group) -> None:
    """Add the cast commands to the `story` group."""
    for command in (character_command, rename, merge, split, alias, kind):
        story.add_command(command)


@click.command("character")
@click.argument("session_id")
@click.argument("name")
@json_option
@click.pass_obj
def character_command(state: CliState, session_id: str, name: str, as_json: bool) -> None:
    """Print what the story says about NAME (any name of a character or place): what
    get_character_info gives."""
    from loci.story.lookup import character

    def work() -> None:
        with opened_app(state) as app:
            found = character(app.story, session_id, name)
        emit_json(found) if as_json else click.echo(shown(found))

    run(work)


def shown(info: CharacterInfo) -> str:
    """A character's info as lines of text."""
    others = [a for a in info.aliases if a != info.name]
    lines = [
        f"{info.name} ({info.kind}, {counted(info.mentions, 'mention')}"
        + ("" if info.confirmed else ", not yet confirmed")
        + ")",
    ]
    if others:
        lines.append(f"also: {', '.join(others)}")
    lines.append(f"first: {info.first_mention.excerpt}")
    lines.extend(f"recent: {m.excerpt}" for m in info.recent_mentions)
    if info.relationships:
        met = ", ".join(f"{r.name} ({r.weight})" for r in info.relationships)
        lines.append(f"appears with: {met}")
    lines.extend(f"correction: {c}" for c in info.corrections)
    return "\n".join(lines)


def _corrected(
    state: CliState, session_id: str, action: str, name: str, other: str, as_json: bool
) -> None:
    from loci.story.curation import correct

    def work() -> None:
        with opened_app(state) as app:
            found = correct(app.story, session_id, action, name, other)
        emit_json(found) if as_json else click.echo(shown(found))

    run(work)


@click.command("rename")
@click.argument("session_id")
@click.argument("name")
@click.argument("new_name")
@json_option
@click.pass_obj
def rename(state: CliState, session_id: str, name: str, new_name: str, as_json: bool) -> None:
    """Show the character NAME as NEW_NAME (which becomes one of its names)."""
    _corrected(state, session_id, "rename", name, new_name, as_json)


@click.command("merge")
@click.argument("session_id")
@click.argument("name")
@click.argument("other")
@json_option
@click.pass_obj
def merge(state: CliState, session_id: str, name: str, other: str, as_json: bool) -> None:
    """Make OTHER and NAME one entity ("Teddy" is Laurie)."""
    _corrected(state, session_id, "merge", name, other, as_json)


@click.command("split")
@click.argument("session_id")
@click.argument("name")
@click.argument("other")
@json_option
@click.pass_obj
def split(state: CliState, session_id: str, name: str, other: str, as_json: bool) -> None:
    """Split the name OTHER off the entity NAME: it is someone (or something) else."""
    _corrected(state, session_id, "split", name, other, as_json)


@click.command("alias")
@click.argument("session_id")
@click.argument("name")
@click.argument("other")
@json_option
@click.pass_obj
def alias(state: CliState, session_id: str, name: str, other: str, as_json: bool) -> None:
    """Add OTHER as another name of NAME (found in the story's text from now on)."""
    _corrected(state, session_id, "alias", name, other, as_json)


@click.command("kind")
@click.argument("session_id")
@click.argument("name")
@click.argument("kind_name", metavar="KIND", type=click.Choice(["character", "place", "other"]))
@json_option
@click.pass_obj
def kind(state: CliState, session_id: str, name: str, kind_name: str, as_json: bool) -> None:
    """Say what NAME is: a character, a place, or other (not a character)."""
    _corrected(state, session_id, "kind", name, kind_name, as_json)
