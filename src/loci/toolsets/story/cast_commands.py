"""`loci story character` and the writer's corrections of a story's cast."""

from __future__ import annotations

import sys

import click

from loci.errors import InvalidInputError, LociError
from loci.faces.cli.numbers import WholeNumber
from loci.faces.cli.output import CliState, emit_json, json_option, opened_app, run
from loci.toolsets.story.models import CastSuggestion, CastSuggestions, CharacterInfo
from loci.wording import counted

#: The other names `loci story characters` shows on an entity's line (the rest are counted;
#: `--json` gives them all).
ALIASES_LISTED = 5


def register(story: click.Group) -> None:
    """Add the cast commands to the `story` group."""
    for command in (
        character_command,
        *CORRECTIONS,
        suggestions_command,
        corrections_command,
        undo_command,
    ):
        story.add_command(command)


@click.command("character", short_help="What the story says about one character.")
@click.argument("session_id")
@click.argument("name")
@json_option
@click.pass_obj
def character_command(state: CliState, session_id: str, name: str, as_json: bool) -> None:
    """Print what the story says about NAME (any name of a character or place): what
    get_character_info gives."""
    from loci.toolsets.story.lookup import character

    def work() -> None:
        with opened_app(state, existing=True) as app:
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
    if info.warning:  # first, where it is seen: a merge of two people is done as asked
        lines.append(f"warning: {info.warning}")
    if others:
        lines.append(f"also: {', '.join(others)}")
    if info.first_mention.excerpt:
        lines.append(f"introduced: {info.first_mention.excerpt}")
    lines.extend(f"recent: {m.excerpt}" for m in info.recent_mentions)
    if info.relationships:
        met = ", ".join(f"{r.name} ({r.weight})" for r in info.relationships)
        lines.append(f"appears with: {met}")
    lines.extend(f"correction: {c}" for c in info.corrections)
    return "\n".join(lines)


def _correction(action: str, other: str, help_text: str, short: str) -> click.Command:
    """The command of one kind of correction: SESSION_ID NAME OTHER."""

    @click.command(action, help=help_text, short_help=short)
    @click.argument("session_id")
    @click.argument("name")
    @click.argument("other", metavar=other)
    @json_option
    @click.pass_obj
    def command(state: CliState, session_id: str, name: str, other: str, as_json: bool) -> None:
        from loci.toolsets.story.curation import correct

        def work() -> None:
            with opened_app(state, existing=True) as app:
                found = correct(app.story, session_id, action, name, other)
            emit_json(found) if as_json else click.echo(shown(found))

        run(work)

    return command


CORRECTIONS = (
    _correction(
        "rename",
        "NEW_NAME",
        "Show the character NAME as NEW_NAME (one of its names now): the one correction that "
        "takes a name the story never writes ('Nick Carraway').",
        "Show the character NAME as NEW_NAME.",
    ),
    _correction(
        "merge",
        "OTHER",
        'Make OTHER and NAME one entity ("Teddy" is Laurie), shown by NAME. Both are names '
        "as the story writes them.",
        "Make OTHER and NAME one entity.",
    ),
    _correction(
        "split",
        "OTHER",
        "Split the name OTHER off NAME: it is someone or something else; its own forms go "
        "with it ('Dick' and 'Dick Musgrove' with 'Richard').",
        "Split the name OTHER off NAME.",
    ),
    _correction(
        "alias",
        "OTHER",
        "Add OTHER as another name of NAME (an epithet such as 'the Captain' too): its "
        "mentions are counted in all of the text, what is already stored included.",
        "Add OTHER as another name of NAME.",
    ),
    _correction(
        "kind",
        "KIND",
        "Say what NAME is: KIND is character, place, or other (not a character).",
        "Say what NAME is: character, place or other.",
    ),
    _correction(
        "apart",
        "OTHER",
        "Say OTHER is not NAME: a suggestion to join them is declined, and not offered again.",
        "Keep OTHER apart from NAME.",
    ),
)


@click.command("corrections", short_help="List the corrections of the cast so far.")
@click.argument("session_id")
@json_option
@click.pass_obj
def corrections_command(state: CliState, session_id: str, as_json: bool) -> None:
    """List the corrections of the cast of SESSION_ID, numbered, oldest first: the writer's,
    and the merges loci accepted itself at import (said "by loci")."""
    from loci.toolsets.story.curation import listing

    def work() -> None:
        with opened_app(state, existing=True) as app:
            found = listing(app.story, session_id)
        if as_json:
            emit_json({"session_id": session_id, "corrections": found})
        else:
            click.echo("\n".join(found) or "no corrections")

    run(work)


@click.command("undo", short_help="Take back a correction of the cast.")
@click.argument("session_id")
@click.argument("number", type=WholeNumber(1), required=False)
@json_option
@click.pass_obj
def undo_command(state: CliState, session_id: str, number: int | None, as_json: bool) -> None:
    """Take back the last correction of the cast of SESSION_ID (or correction NUMBER, as
    `corrections` lists them), with the names it brought; the cast is worked out again."""
    from loci.toolsets.story.curation import undo

    def work() -> None:
        with opened_app(state, existing=True) as app:
            result = undo(app.story, session_id, number)
        if as_json:
            emit_json(result)
        else:
            click.echo(f"undone: {result.undone}")
            click.echo(f"{counted(len(result.corrections), 'correction')} left")

    run(work)


@click.command("suggestions", short_help="List or accept the corrections loci suggests.")
@click.argument("session_id")
@click.option("--limit", type=WholeNumber(1, 50), default=10, show_default=True)
@click.option(
    "--accept",
    "accepted",
    type=WholeNumber(1),
    multiple=True,
    help="Apply suggestion NUMBER (repeatable), as listed.",
)
@click.option("--accept-all", is_flag=True, help="Apply every suggestion listed, in order.")
@click.option(
    "--decline",
    "declined",
    type=WholeNumber(1),
    multiple=True,
    help="Decline suggestion NUMBER (repeatable): it is not offered again.",
)
@json_option
@click.pass_obj
def suggestions_command(
    state: CliState,
    session_id: str,
    limit: int,
    accepted: tuple[int, ...],
    accept_all: bool,
    declined: tuple[int, ...],
    as_json: bool,
) -> None:
    """List corrections of the cast of SESSION_ID a careful reader would suggest, best
    first, each with the mentions it would set right, why, and a sentence of evidence; with
    --accept N (or --accept-all) apply them, with --decline N say they are wrong. `story
    undo` takes one back."""
    from loci.toolsets.story.curation import accept
    from loci.toolsets.story.suggestions import suggest

    def work() -> None:
        with opened_app(state, existing=True) as app:
            found = suggest(app.story, session_id, limit)
            if set(accepted) & set(declined) or (accept_all and declined):
                raise InvalidInputError(
                    "a suggestion is accepted or declined, not both", field="decline"
                )
            _refuse_unlisted(found, set(accepted) | set(declined))
            chosen = [s for s in found.suggestions if accept_all or s.number in set(accepted)]
            done = accept(app.story, session_id, chosen)
            no = [s for s in found.suggestions if s.number in set(declined)]
            said_no = accept(app.story, session_id, no, declining=True)
        refused = done.refused | said_no.refused
        if as_json:
            emit_json(
                {
                    **found.model_dump(),
                    "applied": [a.model_dump() for a in done.applied],
                    "declined": [s.number for s in no if s.number not in refused],
                    "refused": [{"number": n, **e.to_dict()} for n, e in refused.items()],
                }
            )
        else:
            _list_suggestions(found.suggestions, chosen, no, refused)
            for number, warning in sorted((done.warnings | said_no.warnings).items()):
                click.echo(f"warning ({number}): {warning}")
            made = len(done.applied) + len(said_no.applied)
            _say_what_is_left(session_id, found, [*chosen, *no], made)
        if refused:
            asked = len(chosen) + len(no)
            others = "; the others were" if len(refused) < asked else ""
            click.echo(
                f"error: {len(refused)} of {counted(asked, 'suggestion')} not applied (said "
                f"above){others}",
                err=True,
            )
            sys.exit(next(iter(refused.values())).exit_code)

    run(work)


def _refuse_unlisted(found: CastSuggestions, numbers: set[int]) -> None:
    unknown = sorted(numbers - {s.number for s in found.suggestions})
    if unknown:
        raise InvalidInputError(
            f"no suggestion {', '.join(map(str, unknown))}: "
            f"{counted(len(found.suggestions), 'suggestion')} now (they are numbered "
            "anew once one is applied: list them again)",
            field="accept",
        )


def _list_suggestions(
    listed: list[CastSuggestion],
    chosen: list[CastSuggestion],
    declined: list[CastSuggestion],
    refused: dict[int, LociError],
) -> None:
    for s in listed:
        done = s.number not in refused
        mark = "applied " if s in chosen and done else "declined " if s in declined and done else ""
        click.echo(f"{s.number}. {mark}{s.action} {s.name!r} {s.other!r}: {s.reason}")
        click.echo(f"   {counted(s.mentions, 'mention')}; evidence: {s.evidence}")
        if s.number in refused:
            error = refused[s.number]
            click.echo(f"   not applied: error ({error.code}): {error.message}")


def _say_what_is_left(
    session_id: str, found: CastSuggestions, chosen: list[CastSuggestion], applied: int
) -> None:
    if not found.suggestions:
        click.echo("no suggestions")
    elif chosen and len(chosen) < len(found.suggestions):
        click.echo(f"(the others are numbered anew: `loci story suggestions {session_id}`)")
    made = len(found.corrections) + applied
    if made:
        click.echo(
            f"{counted(made, 'correction')} made so far: "
            f"`loci story corrections {session_id}` lists them"
        )


def cast_line(entity: CharacterInfo, with_kind: bool) -> str:
    """An entity's line in `loci story characters`: its name (with its kind), names, mentions."""
    also = [a for a in entity.aliases if a != entity.name]
    more = f" and {len(also) - ALIASES_LISTED} more" if len(also) > ALIASES_LISTED else ""
    aliases = f" (also {', '.join(also[:ALIASES_LISTED])}{more})" if also else ""
    kind = entity.kind if entity.confirmed else f"{entity.kind}, not yet confirmed"
    shown = f"{entity.name} [{kind}]" if with_kind else entity.name
    return f"{shown}{aliases}: {counted(entity.mentions, 'mention')}"
