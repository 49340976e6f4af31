"""`loci story ...`: import a manuscript, and read a story session back; `loci eval story`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from loci.cli.output import (
    CliState,
    counted,
    emit_json,
    json_option,
    opened_app,
    output_option,
    run,
    save_text,
    writable,
    written,
)


def register(group: click.Group) -> None:
    """Add the `story` group to the `loci` group, and `story` to `loci eval`."""
    group.add_command(story)
    evaluate = group.commands.get("eval")
    if isinstance(evaluate, click.Group):
        evaluate.add_command(evaluate_story)


@click.group()
def story() -> None:
    """Story sessions: a virtual infinite context for long writing sessions."""


@story.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--session", "session_id", required=True, help="Session to stream it into.")
@click.option(
    "--tokens",
    type=click.IntRange(50, 20_000),
    default=400,
    show_default=True,
    help="Tokens per interaction.",
)
@click.option(
    "--keep-gutenberg",
    is_flag=True,
    help="Keep a Project Gutenberg file's header and licence (dropped by default).",
)
@json_option
@click.pass_obj
def import_command(
    state: CliState,
    file: Path,
    session_id: str,
    tokens: int,
    keep_gutenberg: bool,
    as_json: bool,
) -> None:
    """Stream the manuscript FILE into a session, through the same path as continue_story.

    The encoding is detected (UTF-8, else what charset-normalizer finds; a file no encoding
    fits is refused, naming the byte); line ends become newlines. A Project Gutenberg book
    goes in without the header and licence around it. The text goes in as interactions of
    whole paragraphs of about --tokens tokens; relief archives as it goes.
    """
    from rich.progress import Progress

    from loci.story import manuscript

    def work() -> None:
        text = manuscript.read_text(file)
        if not keep_gutenberg:
            text = manuscript.without_gutenberg_licence(text)
        with opened_app(state) as app:
            app.story.session_name(session_id)
            pieces = list(manuscript.interactions(text, app.story.counter, tokens))
            with Progress(transient=True, disable=as_json) as bar:
                task = bar.add_task("reading, embedding, archiving", total=len(pieces))
                result = manuscript.stream_into(
                    app.story,
                    session_id,
                    pieces,
                    lambda done, total: bar.update(task, completed=done, total=total),
                )
        if as_json:
            emit_json(result)
            return
        click.echo(
            f"imported {counted(result.interactions, 'interaction')} "
            f"({result.story_tokens} tokens) into {session_id} in {result.seconds} s; "
            f"{counted(result.reliefs, 'relief')}, window {result.window_tokens} tokens"
        )

    run(work)


@story.command("context")
@click.argument("session_id")
@click.argument("current_input")
@click.option("--max-tokens", type=click.IntRange(100, 1_000_000), help="Budget.")
@json_option
@click.pass_obj
def context_command(
    state: CliState, session_id: str, current_input: str, max_tokens: int | None, as_json: bool
) -> None:
    """Print the context assembled for CURRENT_INPUT (what get_story_context returns)."""
    from loci.story.assembly import assemble

    def work() -> None:
        with opened_app(state) as app:
            found = assemble(app.story, session_id, current_input, max_tokens)
        if as_json:
            emit_json(found)
            return
        click.echo(found.text)
        click.echo(f"-- {found.tokens} of {found.max_tokens} tokens", err=True)
        for part in found.parts:
            click.echo(f"-- {part.kind}: {part.tokens} tokens, {part.reason}", err=True)

    run(work)


@story.command("characters")
@click.argument("session_id")
@click.option("--places", is_flag=True, help="List places instead of characters.")
@click.option("--limit", type=click.IntRange(1, 1000), default=30, show_default=True)
@json_option
@click.pass_obj
def characters_command(
    state: CliState, session_id: str, places: bool, limit: int, as_json: bool
) -> None:
    """List the confirmed characters (or places) of a session, most mentioned first."""
    from loci.story.lookup import entities_of

    def work() -> None:
        with opened_app(state) as app:
            found = entities_of(app.story, session_id, "place" if places else "character", limit)
        if as_json:
            emit_json([e.model_dump(mode="json") for e in found])
            return
        if not found:
            click.echo("none confirmed yet")
        for entity in found:
            also = [a for a in entity.aliases if a != entity.name]
            aliases = f" (also {', '.join(also[:5])})" if also else ""
            click.echo(f"{entity.name}{aliases}: {counted(entity.mentions, 'mention')}")

    run(work)


@story.command("threads")
@click.argument("session_id")
@json_option
@click.pass_obj
def threads_command(state: CliState, session_id: str, as_json: bool) -> None:
    """List a session's plot threads, active first."""

    def work() -> None:
        with opened_app(state) as app:
            found = app.story.plot_threads(session_id)
        if as_json:
            emit_json(found)
            return
        for thread in [*found.active, *found.resolved]:
            click.echo(
                f"[{thread.status}] {thread.name} ({thread.source}, {len(thread.events)} events)"
            )
        if not (found.active or found.resolved):
            click.echo("no plot threads yet")

    run(work)


@story.command("stats")
@click.argument("session_id", required=False)
@json_option
@click.pass_obj
def stats_command(state: CliState, session_id: str | None, as_json: bool) -> None:
    """Pressure, tokens and counts of SESSION_ID; without it, list the sessions."""

    def work() -> None:
        with opened_app(state) as app:
            found: Any = app.story.stats(session_id) if session_id else app.story.sessions()
        if as_json:
            emit_json(found)
            return
        if session_id is None:
            if not found.sessions:
                click.echo("no story sessions yet")
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


@story.command("export")
@click.argument("session_id")
@output_option
@json_option
@click.pass_obj
def export_command(state: CliState, session_id: str, output: Path | None, as_json: bool) -> None:
    """Print the whole story of SESSION_ID as written (archive and window, in order). With
    --json: {"session_id", "text"}, or with -o a summary of what was written."""

    def work() -> None:
        if output is not None:
            writable(output)
        with opened_app(state) as app:
            text = app.story.export(session_id)
        if output is None:
            with written(Path("-")):
                emit_json({"session_id": session_id, "text": text}) if as_json else click.echo(text)
            return
        save_text(output, text)
        if as_json:
            emit_json({"file": str(output), "characters": len(text)})
        else:
            click.echo(f"wrote {len(text)} characters to {output}")

    run(work)


@click.command("story")
@click.argument("spec", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option
@click.pass_obj
def evaluate_story(state: CliState, spec: Path, as_json: bool) -> None:
    """Plant the needles of a story SPEC in its novel, stream it through continue_story, and
    measure context, search and entities against plain recall (see the README)."""
    from loci.evaluation.story import run_story

    def work() -> None:
        settings = state.settings()

        def progress(done: int, total: int) -> None:
            if not as_json and (done % 50 == 0 or done == total):
                click.echo(f"[{done}/{total}] interactions", err=True)

        report = run_story(spec, settings, state.model(settings), progress)
        emit_json(report) if as_json else click.echo(render(report))

    run(work)


def render(report: dict[str, Any]) -> str:
    """The report as a table, loci beside the baseline."""
    rows = [
        ("needle_in_context", "≥ 0.95"),
        ("needle_in_search@5", "≥ 0.90"),
        ("character_recall", "≥ 0.90"),
        ("alias_accuracy", "≥ 0.85"),
        ("spurious_characters", "≤ 3 of 30"),
        ("place_recall", ""),
    ]
    lines = [f"{'metric':22}{'loci':>8}{'baseline':>10}  target"]
    for name, target in rows:
        baseline = report["baseline"].get(name, "")
        lines.append(f"{name:22}{report[name]!s:>8}{baseline!s:>10}  {target}")
    lines.append(
        f"{report['interactions']} interactions, {report['reliefs']} reliefs, "
        f"{report['story_tokens']} tokens in {report['seconds']} s "
        f"({report['tokens_per_second']} tokens/s)"
    )
    return "\n".join(lines)
