"""Conversation commands: `loci import-chat` and `loci eval locomo`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from loci.faces.cli.numbers import WholeNumber
from loci.faces.cli.output import CliState, emit_json, json_option, opened_app, progress_bar, run
from loci.wording import counted


def register(group: click.Group) -> None:
    """Add the conversation commands to the `loci` group."""
    group.add_command(import_chat)
    group.add_command(evaluate)


@click.command("import-chat")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-n", "--namespace", required=True, help="Namespace to store the messages in.")
@click.option("--conversation-id", help="Name of the conversation (default: a new id).")
@json_option
@click.pass_obj
def import_chat(
    state: CliState, file: Path, namespace: str, conversation_id: str | None, as_json: bool
) -> None:
    """Store each message of a chat history FILE (JSON or JSONL) as a memory.

    Each message needs `speaker` (or `role`), `text` (or `content`) and `timestamp` (ISO 8601
    or Unix seconds); `session_id` and `message_id` are optional. Messages already in the
    namespace are skipped (the same message_id, or without one the same speaker, text,
    timestamp and session), so importing a grown history again adds only the new messages.
    A malformed file stores nothing.
    """
    from loci.toolsets.memory.conversations.messages import read_chat_file

    def work() -> None:
        messages = read_chat_file(file)
        with opened_app(state) as app, progress_bar(as_json) as bar:
            task = bar.add_task("embedding and storing", total=len(messages))
            result = app.conversations.remember_conversation(
                messages,
                namespace,
                conversation_id,
                lambda done, total: bar.update(task, completed=done, total=total),
            )
        if as_json:
            emit_json(result)
            return
        click.echo(
            f"stored {counted(result.stored, 'message')} in {result.namespace} "
            f"({result.skipped_existing} already there, {counted(result.sessions, 'session')})"
        )

    run(work)


@click.group("eval")
def evaluate() -> None:
    """Measure retrieval quality on public data sets."""


@evaluate.command("locomo")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--k", "ks", type=WholeNumber(1, 100), multiple=True, help="Cut-offs (default 5 and 10)."
)
@click.option(
    "--conversation", "conversations", multiple=True, help="Only this sample id; repeat for more."
)
@click.option(
    "--store",
    type=click.Choice(["turns", "notes", "mixed"]),
    default="turns",
    show_default=True,
    help="As a conversation, every turn as a note, or odd sessions as notes.",
)
@json_option
@click.pass_obj
def locomo(
    state: CliState,
    path: Path,
    ks: tuple[int, ...],
    conversations: tuple[str, ...],
    store: str,
    as_json: bool,
) -> None:
    """Turn- and session-level recall@k on a LoCoMo file, for the default ranking and its parts.

    Each conversation goes into a fresh temporary store; every question is asked through
    recall, as the default ranking, keyword only (alpha 0) and vector only (alpha 1). The
    last line gives the questions answered in odd sessions alone: in `--store mixed` those
    are notes, to compare with the same questions in `--store notes`.
    """
    from loci.evaluation.runner import EvalOptions, run_locomo

    def work() -> None:
        settings = state.settings()
        options = EvalOptions(
            ks=tuple(sorted(set(ks))) or (5, 10),
            conversations=conversations or None,
            store=store,
        )

        def progress(sample_id: str, number: int, total: int) -> None:
            if not as_json:
                click.echo(f"[{number}/{total}] {sample_id}", err=True)

        report = run_locomo(path, settings, state.model(settings), options, progress)
        emit_json(report) if as_json else click.echo(render(report, options.ks))

    run(work)


def render(report: dict[str, Any], ks: tuple[int, ...]) -> str:
    """The report as a table: one row per mode, overall and per category."""
    columns = [f"recall@{k}" for k in ks]
    modes = {"default": report, **report["baselines"]}
    categories = sorted(report["per_category"], key=int)
    sessions = ["session_recall@5", "session_recall@5_of_turns"]
    header = ["mode", *columns, *sessions, *(f"cat {c} r@{ks[-1]}" for c in categories)]
    rows = [header]
    for name, figures in modes.items():
        cells = [f"{figures[c]:.3f}" for c in [*columns, *sessions]]
        cells += [f"{figures['per_category'][c][columns[-1]]:.3f}" for c in categories]
        rows.append([name, *cells])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in rows
    ]
    counts = ", ".join(f"cat {c}: {report['per_category'][c]['n']}" for c in categories)
    odd = report["odd_sessions"]["default"]
    lines.append(
        f"stored as {report['store']}; questions answered in odd sessions alone: "
        + ", ".join(f"{c} {odd[c]:.3f}" for c in columns)
    )
    lines.append(
        f"{report['questions']} questions ({counts}); {report['skipped']} skipped; "
        f"{report['seconds']} s"
    )
    return "\n".join(lines)
