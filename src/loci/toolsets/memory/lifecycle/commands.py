"""`loci reinforce`, `decay`, `consolidate` and `extract`: keeping memories healthy."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import click

from loci.faces.cli.output import CliState, emit_json, json_option, opened_app, run
from loci.toolsets.memory.lifecycle.cues import TYPES


def register(group: click.Group) -> None:
    """Add the lifecycle commands to the `loci` group, and `extract` to `loci eval`."""
    group.add_command(reinforce)
    group.add_command(decay)
    group.add_command(consolidate)
    group.add_command(extract)
    evaluate = group.commands.get("eval")
    if isinstance(evaluate, click.Group):
        evaluate.add_command(evaluate_extract)


@click.command()
@click.argument("memory_id")
@click.option(
    "--boost", type=click.FloatRange(0.0, 1.0, min_open=True), default=0.1, show_default=True
)
@click.option(
    "--max", "max_importance", type=click.FloatRange(0.0, 1.0), default=1.0, show_default=True
)
@json_option
@click.pass_obj
def reinforce(
    state: CliState, memory_id: str, boost: float, max_importance: float, as_json: bool
) -> None:
    """Raise MEMORY_ID's importance by --boost, up to --max (never lowers it)."""

    def work() -> None:
        with opened_app(state) as app:
            found = app.reinforcement.reinforce(memory_id, boost, max_importance)
        if as_json:
            emit_json(found)
            return
        click.echo(
            f"importance {found.importance_before} -> {found.importance_after}: {found.content[:80]}"
        )

    run(work)


@click.command()
@click.option(
    "--strategy",
    type=click.Choice(["time", "access", "combined"]),
    default="combined",
    show_default=True,
    help="What starts the idle clock (see `loci decay --help`).",
)
@click.option(
    "--rate",
    "decay_rate",
    type=click.FloatRange(0.0, 1.0),
    default=0.1,
    show_default=True,
    help="Share of importance lost per idle month.",
)
@click.option(
    "--floor",
    "min_importance",
    type=click.FloatRange(0.0, 1.0),
    default=0.05,
    show_default=True,
    help="Importance never decays below this.",
)
@click.option("--namespace", "-n", help="Only this namespace.")
@click.option("--dry-run", is_flag=True, help="Show what would change; change nothing.")
@json_option
@click.pass_obj
def decay(
    state: CliState,
    strategy: str,
    decay_rate: float,
    min_importance: float,
    namespace: str | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Lower the importance of idle memories.

    time: idle since created; access: idle since last used; combined: idle since last used,
    slower for memories used often. Time already decayed is never counted again."""

    def work() -> None:
        with opened_app(state) as app:
            done = app.decay.decay(strategy, decay_rate, min_importance, namespace, dry_run)
        if as_json:
            emit_json(done)
            return
        verb = "would lower" if dry_run else "lowered"
        click.echo(f"{verb} {done.affected} memories, {done.unchanged} unchanged")
        for item in done.decay_applied[:20]:
            click.echo(
                f"  {item.importance_before:.3f} -> {item.importance_after:.3f}  "
                f"({item.reason})  {item.content[:60]}"
            )

    run(work)


@click.command()
@click.option(
    "--threshold",
    "similarity_threshold",
    type=click.FloatRange(0.5, 1.0),
    default=0.9,
    show_default=True,
    help="How alike two memories must be.",
)
@click.option(
    "--strategy",
    type=click.Choice(["merge", "keep_newest", "keep_oldest"]),
    default="merge",
    show_default=True,
)
@click.option("--namespace", "-n", help="Only this namespace.")
@click.option("--dry-run", is_flag=True, help="Show the groups; change nothing.")
@json_option
@click.pass_obj
def consolidate(
    state: CliState,
    similarity_threshold: float,
    strategy: str,
    namespace: str | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Merge near-duplicate memories (the merged ids keep resolving)."""

    def work() -> None:
        with opened_app(state) as app:
            done = app.consolidation.consolidate(similarity_threshold, namespace, strategy, dry_run)
        if as_json:
            emit_json(done)
            return
        verb = "would merge" if dry_run else "merged"
        click.echo(
            f"{verb} {done.memories_affected} memories in {done.groups_found} groups; "
            f"{done.memories_after} memories after"
        )
        for group in done.consolidated[:20]:
            click.echo(f"  {group.similarity:.3f}  {group.kept.content[:70]}")
            for folded in group.merged_from:
                click.echo(f"         <- {folded.content[:66]}")
        for reason in done.skipped:
            click.echo(f"  skipped {reason}", err=True)

    run(work)


@click.command()
@click.argument("source", type=click.File("r", encoding="utf-8"), default="-")
@click.option("--namespace", "-n", default="default", show_default=True)
@click.option("--min-importance", type=click.FloatRange(0.0, 1.0), default=0.3, show_default=True)
@click.option(
    "--type",
    "types",
    type=click.Choice(["fact", "decision", "preference", "insight"]),
    multiple=True,
    help="Only these types (repeatable; default all).",
)
@json_option
@click.pass_obj
def extract(
    state: CliState,
    source: TextIO,
    namespace: str,
    min_importance: float,
    types: tuple[str, ...],
    as_json: bool,
) -> None:
    """Store the memorable sentences of a text file (or standard input): facts, decisions,
    preferences, insights. Lines may start with a speaker ("Ana: ...")."""

    def work() -> None:
        text = source.read()
        with opened_app(state) as app:
            done = app.extraction.extract(text, namespace, min_importance, types or TYPES)
        if as_json:
            emit_json(done)
            return
        click.echo(f"stored {done.total_extracted}, skipped {done.skipped}")
        for item in done.extracted:
            click.echo(f"  {item.type:<10} {item.importance:.2f}  {item.content[:80]}")

    run(work)


@click.command("extract")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option
@click.pass_obj
def evaluate_extract(state: CliState, path: Path, as_json: bool) -> None:
    """Precision, recall and F1 of extract on a LoCoMo file: each session through extract, an
    item counting for its turn, the turns cited for the session's observations as gold;
    beside the baseline that keeps every turn."""
    from loci.evaluation.extract_quality import run_extract

    def work() -> None:
        settings = state.settings()

        def progress(sample_id: str, number: int, total: int) -> None:
            if not as_json:
                click.echo(f"[{number}/{total}] {sample_id}", err=True)

        report = run_extract(path, settings, state.model(settings), progress)
        if as_json:
            emit_json(report)
            return
        base = report["baseline_every_turn"]
        click.echo(f"{'':14}{'precision':>10}{'recall':>8}{'f1':>7}")
        click.echo(f"{'extract':14}{report['precision']:>10}{report['recall']:>8}{report['f1']:>7}")
        click.echo(f"{'every turn':14}{base['precision']:>10}{base['recall']:>8}{base['f1']:>7}")
        click.echo(
            f"{report['turns_kept']} turns kept of {report['turns_cited']} cited; "
            f"items {report['items_per_type']}; {report['seconds']} s"
        )

    run(work)
