"""`loci supersede`, `invalidate`, `history`, `conflicts`, `dismiss-conflict`, and
`loci eval facts`."""

from __future__ import annotations

from pathlib import Path

import click

from loci.faces.cli.output import CliState, emit_json, json_option, opened_app, run


def register(group: click.Group) -> None:
    """Add the commands of facts that change to `loci`, and `facts` to `loci eval`."""
    for command in (supersede, invalidate, history, conflicts, dismiss_conflict):
        group.add_command(command)
    evaluate = group.commands.get("eval")
    if isinstance(evaluate, click.Group):
        evaluate.add_command(evaluate_facts)


@click.command()
@click.argument("old_id")
@click.option("--content", help="The new version, stored in the old one's namespace.")
@click.option("--new-id", help="A stored memory that replaces it.")
@click.option("--valid-from", help="When the new version became true (ISO 8601).")
@json_option
@click.pass_obj
def supersede(
    state: CliState,
    old_id: str,
    content: str | None,
    new_id: str | None,
    valid_from: str | None,
    as_json: bool,
) -> None:
    """Replace OLD_ID, no longer true, by --content or --new-id (nothing is deleted)."""

    def work() -> None:
        with opened_app(state) as app:
            result = app.facts.supersede(old_id, content, new_id, valid_from)
        if as_json:
            emit_json(result)
            return
        click.echo(f"{result.old_id} ended {result.valid_until}, replaced by {result.new_id}")

    run(work)


@click.command()
@click.argument("memory_id")
@click.option("--valid-until", help="When it stopped being true (ISO 8601; default now).")
@json_option
@click.pass_obj
def invalidate(state: CliState, memory_id: str, valid_until: str | None, as_json: bool) -> None:
    """Say MEMORY_ID stopped being true, with nothing in its place (it is kept)."""

    def work() -> None:
        with opened_app(state) as app:
            result = app.facts.invalidate(memory_id, valid_until)
        emit_json(result) if as_json else click.echo(f"{result.id} ended {result.valid_until}")

    run(work)


@click.command()
@click.argument("memory_id")
@json_option
@click.pass_obj
def history(state: CliState, memory_id: str, as_json: bool) -> None:
    """Show MEMORY_ID's versions, the first first, each with when it was true."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            result = app.facts.history(memory_id)
        if as_json:
            emit_json(result)
            return
        for memory in result.chain:
            until = memory.valid_until[:10] if memory.valid_until else "now"
            start = (memory.valid_from or memory.created_at)[:10]
            mark = "*" if memory.id == result.id else " "
            click.echo(f"{mark} {start} .. {until:<10}  {memory.id}  {memory.content[:80]}")

    run(work)


@click.command()
@click.option("-n", "--namespace", help="Only this namespace's.")
@json_option
@click.pass_obj
def conflicts(state: CliState, namespace: str | None, as_json: bool) -> None:
    """List memories flagged as contradicting each other, not yet settled."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            result = app.facts.open_conflicts(namespace)
        if as_json:
            emit_json(result)
            return
        if not result.conflicts:
            click.echo("no open conflicts")
        for pair in result.conflicts:
            click.echo(f"{pair.reason}\n  older {pair.older.id}  {pair.older.content[:80]}")
            click.echo(f"  newer {pair.newer.id}  {pair.newer.content[:80]}")
        if result.conflicts:
            click.echo(
                "settle one with `loci supersede OLDER --new-id NEWER` or "
                "`loci dismiss-conflict OLDER NEWER`",
                err=True,
            )

    run(work)


@click.command("dismiss-conflict")
@click.argument("first_id")
@click.argument("second_id")
@json_option
@click.pass_obj
def dismiss_conflict(state: CliState, first_id: str, second_id: str, as_json: bool) -> None:
    """Say FIRST_ID and SECOND_ID do not contradict each other (never flagged again)."""

    def work() -> None:
        with opened_app(state) as app:
            result = app.facts.dismiss_conflict(first_id, second_id)
        if as_json:
            emit_json(result)
        elif result.was_flagged:
            click.echo("dismissed: the pair is not flagged again")
        else:
            click.echo("the pair was not flagged; it will not be", err=True)

    run(work)


@click.command("facts")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option
@click.pass_obj
def evaluate_facts(state: CliState, path: Path, as_json: bool) -> None:
    """now@1, as_of@1 and conflict precision and recall on a set of fact scenarios (see
    docs/memory.md), with on_conflict flag and supersede, per group of scenario ids."""
    from loci.evaluation.facts import run_facts

    def work() -> None:
        settings = state.settings()

        def progress(name: str, number: int, total: int) -> None:
            if not as_json:
                click.echo(f"[{number}/{total}] {name}", err=True)

        report = run_facts(path, settings, state.model(settings), progress)
        if as_json:
            emit_json(report)
            return
        click.echo(f"{'':22}{'now@1':>7}{'as_of@1':>9}{'conf P':>8}{'conf R':>8}{'wrong':>7}")
        for mode in ("flag", "supersede"):
            rows = {"all": report[mode]["all"], **report[mode]["groups"]}
            for name, row in rows.items():
                wrong = row.get("wrongly_closed", "")
                click.echo(
                    f"{mode + ' ' + name:22}{row['now@1']!s:>7}{row['as_of@1']!s:>9}"
                    f"{row['conflict_precision']!s:>8}{row['conflict_recall']!s:>8}{wrong!s:>7}"
                )

    run(work)
