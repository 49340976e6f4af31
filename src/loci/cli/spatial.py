"""`loci journey` and `loci reinforce`: paths through the memory space, and importance."""

from __future__ import annotations

import click

from loci.cli.output import CliState, emit_json, json_option, opened_app, run


def register(group: click.Group) -> None:
    """Add the spatial commands to the `loci` group."""
    group.add_command(journey)
    group.add_command(reinforce)


@click.command()
@click.argument("start_id")
@click.argument("end_id")
@click.option("--steps", type=click.IntRange(1, 20), default=5, show_default=True)
@json_option
@click.pass_obj
def journey(state: CliState, start_id: str, end_id: str, steps: int, as_json: bool) -> None:
    """The memories on the path from START_ID to END_ID (gaps where nothing is near)."""

    def work() -> None:
        with opened_app(state) as app:
            found = app.journeys.journey(start_id, end_id, steps)
        if as_json:
            emit_json(found)
            return
        click.echo(f"start  {found.start.content[:100]}")
        for step in found.path:
            memory = step.nearest_memory
            line = (
                "(gap: nothing near)"
                if memory is None
                else f"{memory.similarity:.2f}  {memory.content[:100]}"
            )
            click.echo(f"{step.step:>5}  {line}")
        click.echo(f"end    {found.end.content[:100]}")
        click.echo(f"total distance {found.total_distance}, density {found.path_density}")

    run(work)


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
