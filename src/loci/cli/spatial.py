"""`loci journey`: paths through the memory space."""

from __future__ import annotations

import click

from loci.cli.output import CliState, emit_json, json_option, opened_app, run


def register(group: click.Group) -> None:
    """Add the spatial commands to the `loci` group."""
    group.add_command(journey)


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
