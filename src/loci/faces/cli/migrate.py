"""`loci migrate --to URL | --from URL`: move a data folder's store into a PostgreSQL database,
or a database's store into a data folder."""

from __future__ import annotations

from dataclasses import asdict

import click

from loci.errors import ConflictError
from loci.faces.cli.output import CliState, emit_json, json_option, progress_bar, run


def register(group: click.Group) -> None:
    """Add `migrate` to the `loci` group."""
    group.add_command(migrate)


@click.command()
@click.option(
    "--to", "to_url", metavar="URL", help="Copy the data folder's store into this database."
)
@click.option(
    "--from", "from_url", metavar="URL", help="Copy this database's store into the data folder."
)
@json_option
@click.pass_obj
def migrate(state: CliState, to_url: str | None, from_url: str | None, as_json: bool) -> None:
    """Copy a whole store between the data folder (SQLite) and a PostgreSQL database.

    Memories with their vectors (not embedded again), sequences, merged ids, context files
    with every version, checkpoints with their payloads, story sessions with their archive and
    cast, receipts and named tokens. The target must be empty; the source is only read. Run it
    again to resume after an interruption. Every table is verified at the end (rows and
    content digests).
    """
    from rich.progress import TaskID

    from loci.migration import ends
    from loci.migration.move import migrate as copy_store

    if (to_url is None) == (from_url is None):
        raise click.UsageError("give exactly one of --to URL and --from URL")

    def work() -> None:
        home = state.settings().home
        with progress_bar(as_json) as bar:
            tasks: dict[str, TaskID] = {}

            def progress(what: str, done: int, total: int) -> None:
                if what not in tasks:
                    tasks[what] = bar.add_task(what, total=total)
                bar.update(tasks[what], completed=done, total=total)

            if to_url is not None:
                opened = ends.folder_source(home), ends.database_target(to_url)
            else:
                opened = ends.database_source(str(from_url)), ends.folder_target(home)
            with opened[0] as source, opened[1] as target:
                report = copy_store(source, target, progress)
        if as_json:
            emit_json({**asdict(report), "verified": report.verified})
        else:
            for check in report.tables:
                mark = "ok" if check.same else "DIFFERS"
                click.echo(
                    f"{check.table:<20} {check.source_rows:>9} -> {check.target_rows:<9} {mark}"
                )
            click.echo(f"checkpoint payloads  {report.blobs}")
            click.echo(
                f"{report.source} -> {report.target}: "
                + ("verified" if report.verified else "NOT verified")
            )
        if not report.verified:
            raise SystemExit(ConflictError.exit_code)

    run(work)
