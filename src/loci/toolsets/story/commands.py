"""`loci story ...`: import a manuscript, and read a story session back; `loci eval story`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from loci.faces.cli.numbers import WholeNumber
from loci.faces.cli.output import (
    CliState,
    emit_json,
    holds_a_store,
    json_option,
    opened_app,
    output_option,
    progress_bar,
    run,
    save_text,
    writable,
    written,
)
from loci.wording import counted

if TYPE_CHECKING:
    from loci.app import App
    from loci.toolsets.story.lookup import EntityType


def register(group: click.Group) -> None:
    """Add the `story` group to the `loci` group, and `story` to `loci eval`."""
    from loci.toolsets.story import cast_commands as cast
    from loci.toolsets.story import reading_commands as reading
    from loci.toolsets.story.eval_commands import evaluate_story

    cast.register(story)
    reading.register(story)
    group.add_command(story)
    evaluate = group.commands.get("eval")
    if isinstance(evaluate, click.Group):
        evaluate.add_command(evaluate_story)


@click.group()
def story() -> None:
    """Story sessions: a virtual infinite context for long writing sessions, and its cast.

    A manuscript's path: `import` it, list its `characters`, read the `suggestions` and
    accept the right ones (`suggestions --accept N`), correct the rest yourself (`merge`,
    `alias`, `split`, `kind`, `rename`, `apart`; names as the story writes them), and `undo`
    what you regret. An empty list of suggestions means none the story's text bears out:
    the cast is yours to correct. `context` and `search` answer from the whole story;
    `export` gives it back as written."""


@story.command("import", short_help="Import a manuscript file into a session.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--session", "session_id", required=True, help="Session to stream it into.")
@click.option(
    "--tokens",
    type=WholeNumber(50, 20_000),
    default=400,
    show_default=True,
    help="Tokens per interaction.",
)
@click.option(
    "--keep-gutenberg",
    is_flag=True,
    help="Keep a Project Gutenberg book's licence, front and back matter, and a printed "
    "book's title page and preface (dropped by default).",
)
@click.option("--again", is_flag=True, help="Add the text even if the session holds it already.")
@click.option(
    "--keep-suggestions",
    is_flag=True,
    help="Accept none of the suggestions of the cast: leave even those loci is sure of "
    "(merges) to you.",
)
@json_option
@click.pass_obj
def import_command(
    state: CliState,
    file: Path,
    session_id: str,
    tokens: int,
    keep_gutenberg: bool,
    again: bool,
    keep_suggestions: bool,
    as_json: bool,
) -> None:
    """Stream the manuscript FILE into a session, through the same path as continue_story.

    The encoding is detected (UTF-8 or UTF-16, else what charset-normalizer finds; a file no
    encoding fits is refused, naming the byte); line ends become newlines. A Project
    Gutenberg book goes in without its licence, title pages, contents, advertisements and
    transcriber's notes; a printed book copied without the licence, without its title page
    and preface. The text goes in as interactions of whole paragraphs of about
    --tokens tokens, cut at blank lines (`story export` gives the text back); relief archives
    as it goes. A session that holds the text already is refused (--again adds it anyway); an
    import that was interrupted goes on where it stopped.

    Into a cast no one has corrected yet, loci then accepts the suggestions it is sure of
    (merges of two names the text shows are one person's), each a correction by loci that
    `story corrections` lists and `story undo` takes back; --keep-suggestions leaves them all
    to you.
    """
    from loci.errors import ConflictError, InvalidInputError
    from loci.toolsets.story import manuscript

    def work() -> None:
        whole = manuscript.read_text(file)
        text = manuscript.book(whole, keep_gutenberg)
        with opened_app(state) as app, app.db.claim(f"story-import:{session_id}") as held:
            app.story.session_name(session_id)
            if not held:  # two imports at once would each add the whole text
                raise ConflictError(
                    f"an import into {session_id!r} is running already: wait for it to end "
                    "(a stopped one goes on where it stopped when run again)",
                    session_id=session_id,
                )
            pieces = list(manuscript.interactions(text, app.story.counter, tokens))
            if not pieces:
                raise InvalidInputError(f"{file}: no text to import", field="file")
            done, rest = manuscript.remaining(app.story, session_id, pieces, again)
            with progress_bar(as_json) as bar:
                task = bar.add_task("reading, embedding, archiving", total=len(rest))
                result = manuscript.stream_into(
                    app.story,
                    session_id,
                    rest,
                    lambda finished, total: bar.update(task, completed=finished, total=total),
                    accept_sure=not keep_suggestions,
                )
        result.resumed_after = done
        result.left_out = len(whole.strip()) - len(text.strip())
        if as_json:
            emit_json(result)
            return
        resumed = f" (resumed after {counted(done, 'interaction')})" if done else ""
        click.echo(
            f"imported {counted(result.interactions, 'interaction')}{resumed}, "
            f"{result.added_tokens} tokens, into {session_id} in {result.seconds} s "
            f"(the story now has {result.story_tokens} tokens); "
            f"{counted(result.reliefs, 'relief')}, window {result.window_tokens} tokens"
        )
        if result.left_out:
            click.echo(
                f"left out {counted(result.left_out, 'character')} that are no story (a licence, "
                "title page, preface, contents or back matter; --keep-gutenberg keeps them)"
            )
        if result.earlier_mentions:
            click.echo(
                f"{counted(result.earlier_mentions, 'earlier mention')} of names first found "
                "later in the text counted"
            )
        _say_accepted(result.accepted, session_id)
        if keep_suggestions:
            click.echo(
                f"no suggestion accepted (--keep-suggestions): `loci story suggestions "
                f"{session_id}` lists them"
            )

    run(work)


def _say_accepted(accepted: list[str], session_id: str) -> None:
    """The suggestions loci accepted at import, and how to take one back."""
    if not accepted:
        return
    them = "it" if len(accepted) == 1 else "them"
    click.echo(
        f"accepted {counted(len(accepted), 'suggestion')} of the cast loci is sure of "
        f"(`loci story corrections {session_id}` lists {them}, `loci story undo {session_id} N` "
        f"takes one back; --keep-suggestions leaves {them} to you):"
    )
    for made in accepted:
        click.echo(f"  {made}")


@story.command("characters", short_help="List the cast: characters, places or every name.")
@click.argument("session_id")
@click.option("--places", is_flag=True, help="List places instead of characters.")
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="List every name of the cast, of any kind (character, place, household, other, "
    "unknown), confirmed or not, each with its kind.",
)
@click.option(
    "--limit",
    type=WholeNumber(1),
    default=30,
    show_default=True,
    help="Show at most this many; what is left out is counted on standard error.",
)
@json_option
@click.pass_obj
def characters_command(
    state: CliState, session_id: str, places: bool, every: bool, limit: int, as_json: bool
) -> None:
    """List the confirmed characters (or places) of a session, most mentioned first."""
    from loci.toolsets.story.cast_commands import cast_line
    from loci.toolsets.story.lookup import cast_page

    if places and every:
        raise click.UsageError("--places and --all cannot be used together")
    kind: EntityType | None = None if every else "place" if places else "character"

    def work() -> None:
        with opened_app(state, existing=True) as app:
            page = cast_page(app.story, session_id, kind, limit)
        if page.total > limit:
            click.echo(
                f"-- the first {limit} of {page.total} shown; --limit {page.total} shows them all",
                err=True,
            )
        found = page.entities
        if as_json:
            emit_json([e.model_dump(mode="json") for e in found])
            return
        if not found:
            click.echo("none yet" if every else "none confirmed yet")
        for entity in found:
            click.echo(cast_line(entity, every))

    run(work)


@story.command("threads")
@click.argument("session_id")
@json_option
@click.pass_obj
def threads_command(state: CliState, session_id: str, as_json: bool) -> None:
    """List a session's plot threads, active first."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            found = app.story.plot_threads(session_id)
        if as_json:
            emit_json(found)
            return
        for thread in [*found.active, *found.resolved]:
            click.echo(
                f"[{thread.status}] {thread.name} ({thread.source}, {counted(len(thread.events), 'event')})"
            )
        if not (found.active or found.resolved):
            click.echo("no plot threads yet")

    run(work)


@story.command("stats", short_help="Pressure, tokens and counts of a session.")
@click.argument("session_id", required=False)
@json_option
@click.pass_obj
def stats_command(state: CliState, session_id: str | None, as_json: bool) -> None:
    """Pressure, tokens and counts of SESSION_ID; without it, list the sessions."""

    from loci.toolsets.story.models import StorySessionList

    def work() -> None:
        new_folder = session_id is None and not holds_a_store(state)
        if new_folder:
            found: Any = StorySessionList(sessions=[])
        else:
            with opened_app(state, existing=session_id is not None) as app:
                found = app.story.stats(session_id) if session_id else app.story.sessions()
        if as_json:
            emit_json(found)
            return
        if session_id is None:
            if not found.sessions:
                where = f" (data folder {state.settings().home} holds no store)"
                click.echo("no story sessions yet" + (where if new_folder else ""))
            for s in found.sessions:
                click.echo(
                    f"{s.session_id}  {counted(s.interactions, 'interaction')}  {s.story_tokens} tokens"
                )
            return
        click.echo(
            f"{found.session_id}: window {found.window_tokens}/{found.max_tokens} tokens "
            f"(pressure {found.pressure:.2f}), story {found.story_tokens} tokens, "
            f"{counted(found.interactions, 'interaction')}, {counted(found.reliefs, 'relief')}, "
            f"{counted(found.archived_chunks, 'archived chunk')}, "
            f"{counted(found.characters, 'character')}, {counted(found.places, 'place')}"
        )

    run(work)


@story.command("export", short_help="Print or write the whole story as written.")
@click.argument("session_id")
@click.option(
    "--prompts",
    type=click.Choice(["mark", "omit"]),
    default="mark",
    show_default=True,
    help="The writer's prompts: marked as such (lines after '> '), or left out.",
)
@output_option
@json_option
@click.pass_obj
def export_command(
    state: CliState, session_id: str, prompts: str, output: Path | None, as_json: bool
) -> None:
    """Print the whole story of SESSION_ID as written (archive and window, in order), the
    writer's prompts marked (or left out). With --json: {"session_id", "text"}, or with -o a
    summary of what was written."""

    def work() -> None:
        if output is not None:
            writable(output)
        with opened_app(state, existing=True) as app:
            text = app.story.export(session_id, "omit" if prompts == "omit" else "mark")
        if output is None:
            with written(Path("-")):
                if as_json:
                    emit_json({"session_id": session_id, "text": text})
                else:
                    _echo_exactly(text)
            return
        save_text(output, text)
        if as_json:
            emit_json({"file": str(output), "characters": len(text)})
        else:
            click.echo(f"wrote {len(text)} characters to {output}")

    run(work)


def _echo_exactly(text: str) -> None:
    """`text` to standard output byte for byte (a pipe or a file gets the story as written);
    a terminal also gets a line end after a story that has none, so its prompt starts on a
    line of its own."""
    click.echo(text, nl=False)
    if not text.endswith("\n") and sys.stdout.isatty():
        click.echo()


def doctor(app: App, checks: dict[str, object], problems: list[str]) -> None:
    """`loci doctor`'s look at stories: how many sessions (when the toolset is on)."""
    del problems
    if "story" in app.settings.toolsets:
        checks["story sessions"] = len(app.story.sessions().sessions)
