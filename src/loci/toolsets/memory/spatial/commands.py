"""`loci journey`, `wander`, `regions` and `visualize`: the memory space."""

from __future__ import annotations

from pathlib import Path

import click

from loci.faces.cli.numbers import WholeNumber
from loci.faces.cli.output import CliState, emit_json, json_option, opened_app, run, save_text


def register(group: click.Group) -> None:
    """Add the spatial commands to the `loci` group."""
    group.add_command(journey)
    group.add_command(wander)
    group.add_command(regions)
    group.add_command(visualize)


@click.command()
@click.argument("start_id")
@click.argument("end_id")
@click.option("--steps", type=WholeNumber(1, 20), default=5, show_default=True)
@json_option
@click.pass_obj
def journey(state: CliState, start_id: str, end_id: str, steps: int, as_json: bool) -> None:
    """The memories on the path from START_ID to END_ID (gaps where nothing is near)."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
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
@click.option("--seed", help="Start near this text.")
@click.option("--seed-id", help="Start from this memory.")
@click.option("--steps", type=WholeNumber(1, 20), default=5, show_default=True)
@click.option(
    "--randomness",
    type=click.FloatRange(0.0, 1.0),
    default=0.3,
    show_default=True,
    help="Chance that a step jumps to a random memory.",
)
@click.option("--random-seed", type=WholeNumber(0), help="Repeat an earlier walk.")
@click.option("--namespace", "-n", help="Only this namespace.")
@json_option
@click.pass_obj
def wander(
    state: CliState,
    seed: str | None,
    seed_id: str | None,
    steps: int,
    randomness: float,
    random_seed: int | None,
    namespace: str | None,
    as_json: bool,
) -> None:
    """A random walk through memories: nearest unvisited neighbours, and random jumps."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            walk = app.wanderer.wander(seed, seed_id, steps, randomness, random_seed, namespace)
        if as_json:
            emit_json(walk)
            return
        for step in walk.journey:
            region = "-" if step.cluster is None else str(step.cluster)
            click.echo(
                f"{step.step:>3}  {step.jump_type:<8} r{region:<3} {step.memory.content[:90]}"
            )
        click.echo(
            f"{walk.unique_clusters_visited} regions, distance {walk.total_distance_traveled}, "
            f"seed {walk.random_seed}"
        )

    run(work)


@click.command()
@click.option("--namespace", "-n", help="Only this namespace.")
@click.option("--min-cluster-size", type=WholeNumber(2, 10_000), default=3, show_default=True)
@click.option("--num-clusters", type=WholeNumber(1, 200), help="Exactly this many (k-means).")
@click.option("--parent", metavar="PATH", help="The regions within this one (a path: 2, 2.0).")
@json_option
@click.pass_obj
def regions(
    state: CliState,
    namespace: str | None,
    min_cluster_size: int,
    num_clusters: int | None,
    parent: str | None,
    as_json: bool,
) -> None:
    """The subjects memories fall into, with labels, sizes and central memories; with
    --parent, the regions within one of them (its PATH, the first column)."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            found = app.regions.regions(namespace, min_cluster_size, num_clusters, parent)
        if as_json:
            emit_json(found)
            return
        quality = "-" if found.clustering_quality is None else found.clustering_quality
        click.echo(
            f"{found.total_memories} memories, {len(found.clusters)} regions, "
            f"{found.outliers.count} outliers, silhouette {quality}"
        )
        for region in found.clusters:
            click.echo(f"{region.path:>7}  {region.size:>5}  {region.label}")
            click.echo(f"            {region.centroid_memory.content[:90]}")

    run(work)


@click.command()
@click.option(
    "--format",
    "form",
    type=click.Choice(["json", "mermaid", "svg"]),
    default="svg",
    show_default=True,
)
@click.option("--namespace", "-n", help="Only this namespace.")
@click.option("--edges/--no-edges", default=False, help="Join mutual nearest neighbours.")
@click.option("--max", "max_memories", type=WholeNumber(1, 500), default=100, show_default=True)
@click.option("--highlight", multiple=True, help="A memory id to ring and name (repeatable).")
@click.option("--parent", metavar="PATH", help="Only this region, by the regions within it.")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the map to this file (private to you) instead of printing it.",
)
@json_option
@click.pass_obj
def visualize(
    state: CliState,
    form: str,
    namespace: str | None,
    edges: bool,
    max_memories: int,
    highlight: tuple[str, ...],
    parent: str | None,
    output: Path | None,
    as_json: bool,
) -> None:
    """A map of memories coloured by region: an SVG to open in a browser, Mermaid, or JSON."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            drawn = app.maps.visualize(
                form, namespace, edges, max_memories, list(highlight), parent
            )
        if as_json or form == "json":  # --json: the whole result, the drawing inside it
            text = drawn.model_dump_json(indent=2, exclude_none=True) + "\n"
        else:
            text = (drawn.svg if form == "svg" else drawn.mermaid) or ""
        if output is None:
            click.echo(text, nl=False)
            return
        save_text(output, text)
        click.echo(
            f"{drawn.node_count} of {drawn.total_memories} memories drawn to {output}", err=True
        )

    run(work)
