"""Memory commands: remember, recall, forget, stats, namespaces, export, import."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path
from typing import Any

import click

from loci.errors import InvalidInputError
from loci.faces.cli.output import (
    CliState,
    emit_fields,
    emit_json,
    json_option,
    opened_app,
    progress_bar,
    run,
    writable,
    written,
)
from loci.wording import counted

#: The most characters of a memory a table shows (`--json` gives it whole).
PREVIEW_CHARS = 300


def register(group: click.Group) -> None:
    """Add the memory commands to the `loci` group."""
    for command in (remember, recall, forget, stats, namespaces, export, import_):
        group.add_command(command)


@click.command()
@click.argument("content")
@click.option("-n", "--namespace", help="Namespace (default: the configured default).")
@click.option("-t", "--tag", "tags", multiple=True, help="A tag; repeat for more.")
@click.option("-i", "--importance", type=float, default=0.5, show_default=True, help="0 to 1.")
@click.option("-m", "--metadata", help="Metadata as a JSON object.")
@click.option("--when", "occurred_at", help="When it happened (ISO 8601), if not now.")
@click.option("--sequence", help="Append it to this sequence (a log, a session).")
@click.option("--actor", help="Who said or did it (with --sequence).")
@click.option("--valid-from", help="When it became true (ISO 8601), if not when it happened.")
@click.option("--valid-until", help="When it stopped being true (ISO 8601), if it has.")
@click.option(
    "--on-conflict",
    type=click.Choice(["flag", "supersede", "keep"]),
    default="flag",
    show_default=True,
    help="What to do with memories it likely contradicts.",
)
@json_option
@click.pass_obj
def remember(
    state: CliState,
    content: str,
    namespace: str | None,
    tags: tuple[str, ...],
    importance: float,
    metadata: str | None,
    occurred_at: str | None,
    sequence: str | None,
    actor: str | None,
    valid_from: str | None,
    valid_until: str | None,
    on_conflict: str,
    as_json: bool,
) -> None:
    """Store CONTENT as a memory; lists the memories it likely contradicts."""
    from loci.toolsets.memory.models import MemoryDraft, SequenceDraft

    def work() -> None:
        if actor is not None and sequence is None:
            raise click.UsageError("--actor needs --sequence")
        draft = MemoryDraft(
            content,
            namespace,
            list(tags),
            importance,
            _json_object(metadata),
            occurred_at=occurred_at,
            sequence=None if sequence is None else SequenceDraft(sequence, actor=actor),
            valid_from=valid_from,
            valid_until=valid_until,
        )
        with opened_app(state) as app:
            result = app.facts.remember(draft, on_conflict)
        if as_json:
            emit_json(result)
            return
        click.echo(f"remembered {result.id} in {result.namespace}")
        for conflict in result.conflicts:
            click.echo(f"  contradicts {conflict.id} ({conflict.outcome}): {conflict.reason}")

    run(work)


@click.command()
@click.argument("query")
@click.option("-l", "--limit", type=int, default=5, show_default=True, help="Most results.")
@click.option("-n", "--namespace", help="Search only this namespace.")
@click.option("-f", "--filters", help='Filters as JSON, e.g. \'{"tags": {"contains": "x"}}\'.')
@click.option(
    "--min-similarity",
    type=float,
    default=0.0,
    show_default=True,
    help="Leave out hits whose meaning is less alike than this (cosine, -1 to 1).",
)
@click.option("--alpha", "hybrid_alpha", type=float, help="1 = vector only, 0 = keyword only.")
@click.option("--explain", is_flag=True, help="Show each hit's ranking signals.")
@click.option("--as-of", help="Answer with what was true then (ISO 8601).")
@click.option("--history", "include_history", is_flag=True, help="Keep replaced memories.")
@json_option
@click.pass_obj
def recall(
    state: CliState,
    query: str,
    limit: int,
    namespace: str | None,
    filters: str | None,
    min_similarity: float,
    hybrid_alpha: float | None,
    explain: bool,
    as_of: str | None,
    include_history: bool,
    as_json: bool,
) -> None:
    """Find memories matching QUERY, best first (what is true now first, or --as-of then)."""

    def work() -> None:
        spec = _json_object(filters, "--filters") if filters else None
        with opened_app(state, existing=True) as app:
            result = app.memory.recall(
                query,
                limit,
                namespace,
                spec,
                min_similarity,
                hybrid_alpha,
                explain,
                as_of=as_of,
                include_history=include_history,
            )
        if as_json:
            emit_json(result)
            return
        from rich.console import Console
        from rich.table import Table

        table = Table(
            "sim",
            "namespace",
            "content",
            "id",
            title=f"{counted(result.total, 'memory', 'memories')} ({result.mode})",
        )
        if explain:
            table.add_column("signals")
        for hit in result.memories:
            shown = preview(hit.content)
            if hit.valid_until is not None:
                shown = f"(ended {hit.valid_until[:10]}) {shown}"
            row = [f"{hit.similarity:.2f}", hit.namespace, shown, hit.id[:8]]
            if hit.signals is not None:
                row.append(" ".join(f"{name} {value:.2f}" for name, value in hit.signals.items()))
            table.add_row(*row)
        Console().print(table)
        if any(preview(hit.content).endswith("…") for hit in result.memories):
            click.echo("(long memories shortened; --json gives them whole)", err=True)

    run(work)


@click.command()
@click.option("--id", "memory_id", help="Delete this memory.")
@click.option("-n", "--namespace", help="Delete memories of this namespace.")
@click.option("-f", "--filters", help="Delete memories matching these filters (JSON).")
@click.option("--dry-run", is_flag=True, help="Show what would be deleted; delete nothing.")
@click.option("-y", "--yes", is_flag=True, help="Delete many without asking first.")
@json_option
@click.pass_obj
def forget(
    state: CliState,
    memory_id: str | None,
    namespace: str | None,
    filters: str | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Delete a memory, or every memory of a namespace or matching filters.

    Deleting by namespace or filters asks first (how many would go) unless --yes is given.
    """

    def work() -> None:
        spec = _json_object(filters, "--filters") if filters else None
        with opened_app(state) as app:
            if memory_id is None and not dry_run and not yes:
                would = app.memory.forget(memory_id, spec, namespace, True).deleted
                if would and not click.confirm(
                    f"delete {counted(would, 'memory', 'memories')}?", default=False, err=True
                ):
                    click.echo("nothing deleted", err=True)
                    raise SystemExit(1)
            result = app.memory.forget(memory_id, spec, namespace, dry_run)
        if as_json:
            emit_json(result)
            return
        verb = "would delete" if dry_run else "deleted"
        click.echo(f"{verb} {counted(result.deleted, 'memory', 'memories')}")

    run(work)


@click.command()
@click.option("-n", "--namespace", help="Figures for one namespace.")
@json_option
@click.pass_obj
def stats(state: CliState, namespace: str | None, as_json: bool) -> None:
    """Show counts, namespaces, tags and the model of the memory store."""

    def work() -> None:
        with opened_app(state) as app:
            result = app.catalog.stats(namespace)
        if as_json:
            emit_json(result)
            return
        emit_fields(result.model_dump(exclude={"warnings"}))
        for warning in result.warnings:
            click.echo(f"WARNING: {warning}", err=True)

    run(work)


@click.command()
@click.argument("action", type=click.Choice(["list", "create", "delete", "rename"]), default="list")
@click.argument("name", required=False)
@click.argument("new_name", required=False)
@json_option
@click.pass_obj
def namespaces(
    state: CliState, action: str, name: str | None, new_name: str | None, as_json: bool
) -> None:
    """List namespaces, or create / delete / rename one (NAME, NEW_NAME)."""

    def work() -> None:
        with opened_app(state) as app:
            result = app.catalog.namespaces(action, name, new_name)  # type: ignore[arg-type]
        if as_json:
            emit_json(result)
        elif result.namespaces is not None:
            for info in result.namespaces:
                click.echo(f"{info.name:30} {info.count:8} created {info.created}")
        else:
            click.echo(result.message)

    run(work)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, writable=True, path_type=Path))
@click.option("-n", "--namespace", help="Export only this namespace.")
@click.option("--vectors", is_flag=True, help="Include embedding vectors (much larger).")
@json_option
@click.pass_obj
def export(
    state: CliState, file: Path, namespace: str | None, vectors: bool, as_json: bool
) -> None:
    """Write memories to FILE as JSON (`-` for standard output; the export is the output,
    so --json changes nothing there)."""
    from loci.storage.files import replacing_text
    from loci.toolsets.memory.export_files import write_export

    def work() -> None:
        to_file = str(file) != "-"
        if to_file:
            writable(file)
        with opened_app(state, existing=True) as app:
            header = app.transfer.export_header()
            # Closed before the app is: it reads in a transaction of the app's connection.
            memories = app.transfer.iter_export(namespace, vectors)
            stream = (
                replacing_text(file) if to_file else click.open_file("-", "w", encoding="utf-8")
            )
            with closing(memories), written(file), stream as out:
                count = write_export(out, header, memories)
        if to_file and as_json:
            emit_json({"exported": count, "file": str(file)})
        elif to_file:
            click.echo(f"exported {counted(count, 'memory', 'memories')} to {file}", err=True)

    run(work)


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-n", "--namespace", "namespace_override", help="Put every memory in this namespace.")
@click.option(
    "--keep-duplicates", is_flag=True, help="Import memories whose content is stored already."
)
@click.option(
    "--use-vectors", is_flag=True, help="Use the file's vectors instead of embedding again."
)
@json_option
@click.pass_obj
def import_(
    state: CliState,
    file: Path,
    namespace_override: str | None,
    keep_duplicates: bool,
    use_vectors: bool,
    as_json: bool,
) -> None:
    """Import memories from FILE (written by `loci export` or `export_memories`)."""
    from loci.toolsets.memory.export_files import read_export
    from loci.toolsets.memory.transfer import ImportOptions

    def work() -> None:
        content = read_export(file, state.settings().import_max_bytes)
        options = ImportOptions(namespace_override, not keep_duplicates, not use_vectors)
        with opened_app(state) as app, progress_bar(as_json) as bar:
            task = bar.add_task("importing", total=content.count)
            result = app.transfer.import_content(
                content, options, lambda done, total: bar.update(task, completed=done, total=total)
            )
        if as_json:
            emit_json(result)
        else:
            click.echo(
                f"imported {result.imported}, skipped {result.skipped_duplicates} duplicates, "
                f"{result.failed} failed"
            )
            for error in result.errors[:20]:
                click.echo(f"  item {error.index}: {error.message}", err=True)
        if result.failed:  # the others are stored; a script must still see that some were not
            raise SystemExit(InvalidInputError.exit_code)

    run(work)


def preview(content: str) -> str:
    """A memory's text for a table row: on one line, cut at PREVIEW_CHARS."""
    flat = " ".join(content.split())
    return flat if len(flat) <= PREVIEW_CHARS else flat[: PREVIEW_CHARS - 1] + "…"


def _json_object(text: str | None, option: str = "--metadata") -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{option} is not valid JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise InvalidInputError(f"{option} must be a JSON object")
    return value
