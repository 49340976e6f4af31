"""`loci import-chats`: bring the history of other chat apps into loci."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from loci.faces.cli.output import CliState, emit_json, json_option, opened_app, run
from loci.toolsets.memory.conversations.exports.records import APPS
from loci.toolsets.memory.conversations.models import ChatImportReport, ImportedConversation
from loci.wording import counted

if TYPE_CHECKING:
    from loci.toolsets.memory.conversations.chat_imports import ImportProgress

FORMATS = tuple(APPS)
#: Where the coding agents keep their logs, for `--format` without a PATH.
DEFAULT_PLACES = {
    "claude-code": "~/.claude/projects",
    "codex": "~/.codex/sessions",
    "gemini": "~/.gemini/tmp",
}


def register(group: click.Group) -> None:
    """Add `import-chats` to the `loci` group."""
    group.add_command(import_chats)


@click.command("import-chats")
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option(
    "--format",
    "format_name",
    type=click.Choice(FORMATS),
    help="The app that wrote it (default: told from the content).",
)
@click.option("-n", "--namespace", help="Namespace for every conversation (default: the app's).")
@click.option("--all-branches", is_flag=True, help="Also keep edited and regenerated branches.")
@click.option("--dry-run", is_flag=True, help="Show what would be stored; store nothing.")
@json_option
@click.pass_obj
def import_chats(
    state: CliState,
    path: Path | None,
    format_name: str | None,
    namespace: str | None,
    all_branches: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Import the conversations of ChatGPT, Claude.ai, Claude Code, Codex CLI or Gemini CLI.

    PATH is the export as downloaded (a zip, read in place), a folder, or one file; for
    Claude Code, Codex and Gemini CLI it may be left out with --format to read their logs
    where they keep them (~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp). Each
    conversation becomes a sequence of memories, one per message, with the message's time,
    in a namespace named after the app (or -n). Importing again stores only what is new.
    """
    from loci.toolsets.memory.conversations.chat_imports import ChatImportOptions

    source = _source(path, format_name)
    options = ChatImportOptions(format_name, namespace, all_branches, dry_run)

    def work() -> None:
        with opened_app(state) as app:
            report = _with_progress(
                lambda progress: app.chat_imports.import_path(source, options, progress),
                as_json,
            )
        emit_json(report) if as_json else click.echo(render(report))

    run(work)


def _source(path: Path | None, format_name: str | None) -> Path:
    if path is not None:
        return path
    if format_name in DEFAULT_PLACES:
        return Path(DEFAULT_PLACES[format_name]).expanduser()
    raise click.UsageError(
        "give the export's PATH (or --format claude-code, codex or gemini to read their logs "
        "where they keep them)"
    )


def _with_progress(
    work: Callable[[Callable[[ImportProgress], None]], ChatImportReport], as_json: bool
) -> ChatImportReport:
    """`work` run under a progress bar (bytes read, rate, time left, what is counted)."""
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
        TransferSpeedColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[counts]}"),
    )
    from rich.console import Console

    from loci.faces.cli.progress_lines import ProgressLines

    # On standard error: standard output holds only the summary (or the JSON). Off a
    # terminal, a line at each tenth of the bytes instead of a bar, which a log would fill.
    console = Console(stderr=True)
    bar = (
        ProgressLines()
        if not as_json and not console.is_terminal
        else Progress(*columns, console=console, transient=True, disable=as_json)
    )
    with bar:
        task = bar.add_task("reading", total=None, counts="", unit="bytes")

        def update(step: ImportProgress) -> None:
            counts = (
                f"{counted(step.conversations, 'conversation')}, "
                f"{counted(step.messages, 'message')}"
            )
            bar.update(task, completed=step.bytes_done, total=step.bytes_total, counts=counts)

        return work(update)


def render(report: ChatImportReport) -> str:
    """The report as a person reads it."""
    lines = [_listed(c) for c in report.listed] if report.dry_run else []
    if report.dry_run and report.conversations > len(report.listed):
        lines.append(f"... and {report.conversations - len(report.listed)} more")
    apps = ", ".join(f"{name} ({counted(n, 'file')})" for name, n in report.formats.items())
    verb = "would store" if report.dry_run else "stored"
    where = f" in {', '.join(report.namespaces)}" if report.namespaces else ""
    span = (
        f", from {report.first[:10]} to {report.last[:10]}" if report.first and report.last else ""
    )
    lines += [
        f"read {apps}: {counted(report.conversations, 'conversation')} "
        f"({report.conversations_new} new, {report.conversations_continued} continued, "
        f"{report.conversations_unchanged} unchanged), {counted(report.messages, 'message')}",
        f"{verb} {counted(report.stored, 'message')}{where} "
        f"({report.already_stored} stored before){span}",
    ]
    if report.left_out:
        lines.append(
            "left out: " + "; ".join(f"{why}: {count}" for why, count in report.left_out.items())
        )
    lines += [f"skipped {part.where}: {part.reason}" for part in report.skipped]
    lines += [f"note: {notice}" for notice in report.notices]
    if report.ignored_files:
        names = [name.replace(":", "/").rsplit("/", 1)[-1] for name in report.ignored_files]
        shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
        lines.append(f"{counted(len(names), 'other file')} held no chats ({shown})")
    return "\n".join(lines)


def _listed(conversation: ImportedConversation) -> str:
    title = conversation.title or (f'"{conversation.opening}"' if conversation.opening else "")
    branch = f" [branch {conversation.branch}]" if conversation.branch > 1 else ""
    when = (conversation.first or "")[:10]
    return (
        f"{when}  {title or '(untitled)'}{branch}: {counted(conversation.messages, 'message')}, "
        f"{conversation.new} new -> {conversation.namespace}"
    )
