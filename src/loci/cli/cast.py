"""`loci story character` and the writer's corrections of a story's cast."""

from __future__ import annotations

import click

from loci.cli.output import CliState, emit_json, json_option, opened_app, run
from loci.story.models import CharacterInfo
from loci.wording import counted


def register(story: click.Group) -> None:
    """Add the cast commands to the `story` group."""
    for command in (character_command, *CORRECTIONS):
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


def _correction(action: str, other: str, help_text: str) -> click.Command:
    """The command of one kind of correction: SESSION_ID NAME OTHER."""

    @click.command(action, help=help_text)
    @click.argument("session_id")
    @click.argument("name")
    @click.argument("other", metavar=other)
    @json_option
    @click.pass_obj
    def command(state: CliState, session_id: str, name: str, other: str, as_json: bool) -> None:
        from loci.story.curation import correct

        def work() -> None:
            with opened_app(state) as app:
                found = correct(app.story, session_id, action, name, other)
            emit_json(found) if as_json else click.echo(shown(found))

        run(work)

    return command


CORRECTIONS = (
    _correction(
        "rename", "NEW_NAME", "Show the character NAME as NEW_NAME (one of its names now)."
    ),
    _correction("merge", "OTHER", 'Make OTHER and NAME one entity ("Teddy" is Laurie).'),
    _correction(
        "split", "OTHER", "Split the name OTHER off NAME: it is someone or something else."
    ),
    _correction(
        "alias", "OTHER", "Add OTHER as another name of NAME (found in the text from now on)."
    ),
    _correction("kind", "KIND", "Say what NAME is: character, place, or other (not a character)."),
)
