"""`loci checkpoints ...`: list, show, export, clean up and re-key workflow checkpoints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from loci.errors import CheckpointCorruptedError, EncryptionKeyError, LociError
from loci.faces.cli.numbers import WholeNumber
from loci.faces.cli.output import (
    CliState,
    emit_fields,
    emit_json,
    json_option,
    opened_app,
    output_option,
    run,
    save_text,
    writable,
    written,
)
from loci.wording import counted

if TYPE_CHECKING:
    from loci.app import App
    from loci.toolsets.checkpoints.models import BudgetInfo


def register(group: click.Group) -> None:
    """Add the `checkpoints` group to the `loci` group."""
    group.add_command(checkpoints)


@click.group()
def checkpoints() -> None:
    """Workflow checkpoints saved by agents (workflow_checkpoint_save)."""


@checkpoints.command("list")
@click.argument("session_id", required=False)
@click.option("--limit", type=WholeNumber(1, 1000), default=20, show_default=True)
@click.option("--offset", type=WholeNumber(0), default=0)
@json_option
@click.pass_obj
def list_command(
    state: CliState, session_id: str | None, limit: int, offset: int, as_json: bool
) -> None:
    """List sessions, or the checkpoints of SESSION_ID (newest first)."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            if session_id is None:
                sessions = app.checkpoints.list_sessions(limit, offset)
                if as_json:
                    emit_json(sessions)
                    return
                if not sessions.sessions:
                    click.echo("no checkpoint sessions yet")
                for s in sessions.sessions:
                    click.echo(
                        f"{s.session_id}  {counted(s.checkpoints, 'checkpoint')}  {s.stored_bytes} bytes  "
                        f"last saved {s.last_saved_at}"
                    )
                return
            found = app.checkpoints.list_checkpoints(session_id, limit, offset)
        if as_json:
            emit_json(found)
            return
        for c in found.checkpoints:
            mark = "  critical" if c["critical"] else ""
            name = c["metadata"].get("name")
            label = f"  {name}" if isinstance(name, str) else ""
            click.echo(
                f"{c['checkpointId']}  {c['createdAt']}  {c['sizeBytes']} bytes{mark}{label}"
            )

    run(work)


@checkpoints.command("show")
@click.argument("checkpoint_id")
@json_option
@click.pass_obj
def show(state: CliState, checkpoint_id: str, as_json: bool) -> None:
    """Print a checkpoint: its figures, then its context (indented JSON); --json gives it all
    (context, metadata, what the budget changed) as one JSON document."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            loaded = app.checkpoints.load(checkpoint_id=checkpoint_id)
        if as_json:
            emit_json(loaded)
            return
        emit_fields(
            {
                "checkpoint": loaded.checkpoint_id,
                "session": loaded.session_id,
                "saved": loaded.created_at,
                "size": f"{loaded.size_bytes} bytes" + (", encrypted" if loaded.encrypted else ""),
                "budget": _budget_line(loaded.budget),
                "metadata": json.dumps(loaded.metadata, ensure_ascii=False),
            }
        )
        click.echo(json.dumps(loaded.context, ensure_ascii=False, indent=2))

    run(work)


@checkpoints.command("export")
@click.argument("session_id")
@output_option
@json_option
@click.pass_obj
def export(state: CliState, session_id: str, output: Path | None, as_json: bool) -> None:
    """Export every checkpoint of SESSION_ID, oldest first, as JSON (decrypted).

    Checkpoints that cannot be read (a blob missing or damaged, a key gone) are listed under
    "unreadable" and named on standard error; the others are written, and the command then
    exits with code 10. With -o and --json, a summary is printed as JSON (without -o the
    export itself is the output).
    """

    def work() -> None:
        if output is not None:
            writable(output)
        with opened_app(state, existing=True) as app:
            data = app.checkpoint_maintenance.export(session_id)
        text = json.dumps(data, ensure_ascii=False, indent=2)
        if output is None:
            with written(Path("-")):
                click.echo(text)
        else:
            save_text(output, text + "\n")
            written_count = len(data["checkpoints"])
            if as_json:
                unreadable = [item["checkpointId"] for item in data["unreadable"]]
                summary = {"file": str(output), "exported": written_count}
                emit_json({**summary, "unreadable": unreadable})
            else:
                click.echo(f"wrote {counted(written_count, 'checkpoint')} to {output}")
        _report_unreadable(data)

    run(work)


def _budget_line(budget: BudgetInfo | None) -> str:
    """What the token budget did to a checkpoint, in a line."""
    if budget is None or not (budget.applied or budget.over_budget):
        return "within budget"
    if budget.critical_over_budget:
        return f"saved whole: its CRITICAL part alone exceeds {budget.budget_tokens} tokens"
    parts = [f"dropped {', '.join(budget.dropped)}"] if budget.dropped else []
    parts += [
        f"shortened {s.path} ({s.tokens_before} -> {s.tokens_after} tokens)"
        for s in budget.shortened
    ]
    return "; ".join(parts) or "fitted"


def _report_unreadable(data: dict[str, Any]) -> None:
    """Name each checkpoint left out, then fail: a backup missing some must not pass silently."""
    unreadable = data["unreadable"]
    if not unreadable:
        return
    for item in unreadable:
        error = item["error"]
        click.echo(
            f"not exported: {item['checkpointId']} ({error['type']}): {error['message']}", err=True
        )
    exported = len(data["checkpoints"])
    raise _unreadable_error(
        unreadable,
        f"{len(unreadable)} of {len(unreadable) + exported} checkpoints of session "
        f'{data["sessionId"]} could not be read (listed under "unreadable"); the other '
        f"{exported} were exported",
    )


def _unreadable_error(unreadable: list[dict[str, Any]], message: str) -> LociError:
    """The error that sums up checkpoints that could not be read: the key being unavailable
    when that is why for each of them (exit 11: restore the key, not the blobs), else their
    damage (exit 10)."""
    ids = [item["checkpointId"] for item in unreadable]
    if all(item["error"]["type"] == EncryptionKeyError.code for item in unreadable):
        return EncryptionKeyError(message, unreadable=ids)
    return CheckpointCorruptedError(message, unreadable=ids)


@checkpoints.command("gc")
@json_option
@click.pass_obj
def gc(state: CliState, as_json: bool) -> None:
    """Apply the quotas now and delete unreferenced blobs and stale temporary files.

    Quota policy: past LOCI_CHECKPOINT_MAX_PER_SESSION checkpoints in a session, or past
    LOCI_CHECKPOINT_MAX_TOTAL_BYTES in all, the oldest checkpoints that are neither critical
    nor a session's newest are removed. Files younger than an hour are left alone (a save in
    another process may still be writing them).
    """

    def work() -> None:
        with opened_app(state) as app:
            result = app.checkpoint_maintenance.gc()
        if as_json:
            emit_json(result)
            return
        click.echo(
            f"removed {counted(len(result.removed_checkpoints), 'checkpoint')}, "
            f"{counted(result.removed_blobs, 'unreferenced blob')} and "
            f"{counted(result.removed_temporary_files, 'temporary file')}; "
            f"freed {result.freed_bytes} bytes"
        )

    run(work)


@checkpoints.command("rotate-key")
@json_option
@click.pass_obj
def rotate_key(state: CliState, as_json: bool) -> None:
    """Make a new encryption key, re-encrypt every encrypted checkpoint with it, retire the old.

    Safe to interrupt: run it again to finish.
    """

    def work() -> None:
        with opened_app(state) as app:
            result = app.checkpoint_maintenance.rotate_key()
        if as_json:
            emit_json(result)
        else:
            click.echo(
                f"re-encrypted {counted(result.reencrypted, 'checkpoint')} with key "
                f"{result.new_key_id}; "
                f"retired {', '.join(result.retired_key_ids) or 'no keys'}"
            )
        if result.unreadable:
            _fail_rotation(result.unreadable)

    run(work)


def _fail_rotation(unreadable: list[dict[str, Any]]) -> None:
    """Name each checkpoint the rotation could not re-encrypt, then fail."""
    for item in unreadable:
        error = item["error"]
        click.echo(
            f"not re-encrypted: {item['checkpointId']} ({error['type']}): {error['message']}",
            err=True,
        )
    raise _unreadable_error(
        unreadable,
        f"{counted(len(unreadable), 'checkpoint')} could not be read (named above), so the "
        "old keys were kept for them; fix what each error names (a blob or a key to restore "
        "from a backup) and run rotate-key again",
    )


def doctor(app: App, checks: dict[str, object], problems: list[str]) -> None:
    """`loci doctor`'s look at checkpoints: the sessions and, when on, the encryption key."""
    checks["checkpoint sessions"] = app.checkpoints.list_sessions(limit=1).total
    if app.settings.encryption == "enabled":
        try:
            keys = app.checkpoints.keys.peek()
            checks["encryption key"] = keys.current if keys else "made on the first save"
        except LociError as exc:
            problems.append(f"checkpoint encryption: {exc.message}")
