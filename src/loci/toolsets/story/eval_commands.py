"""`loci eval story`: the needles, passages and cast of a story spec measured through a real
import (`loci.evaluation.story`), printed as a report or a table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from loci.faces.cli.output import CliState, emit_json, json_option, run


@click.command("story")
@click.argument(
    "specs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--table", "as_table", is_flag=True, help="One table, a column per novel.")
@json_option
@click.pass_obj
def evaluate_story(state: CliState, specs: tuple[Path, ...], as_table: bool, as_json: bool) -> None:
    """Plant the needles of each story SPEC in its novel, stream it through continue_story,
    and measure context, search and the cast against plain recall (see the README)."""
    from loci.evaluation.story import run_story

    def work() -> None:
        settings = state.settings()
        model = state.model(settings)
        reports: dict[str, dict[str, Any]] = {}
        for spec in specs:

            def progress(done: int, total: int, name: str = spec.stem) -> None:
                if not as_json and (done % 50 == 0 or done == total):
                    click.echo(f"{name}: [{done}/{total}] interactions", err=True)

            reports[spec.stem] = run_story(spec, settings, model, progress)
            if not (as_json or as_table):
                click.echo(render(reports[spec.stem]))
        if as_json:
            emit_json(reports if len(specs) > 1 else reports[specs[0].stem])
        elif as_table:
            click.echo(render_table(reports))

    run(work)


#: The figures of a report, with their targets.
FIGURES = (
    ("needle_in_context", ">= 0.95"),
    ("needle_in_search@5", ">= 0.90, >= baseline - 0.02"),
    ("passage@5", ">= 0.90"),
    ("character_recall", ">= 0.90"),
    ("cohesion", ">= 0.85"),
    ("cohesion_suggested", ">= 0.95 (suggestions accepted)"),
    ("cohesion_ceiling", "(forms the text writes)"),
    ("conflated", "<= 1"),
    ("spurious", "<= 3 of the top 30"),
    ("place_recall", ""),
)


def render(report: dict[str, Any]) -> str:
    """One report as a table, loci beside the baseline."""
    lines = [f"{'metric':22}{'loci':>8}{'baseline':>10}  target"]
    for name, target in FIGURES:
        baseline = report["baseline"].get(name, "")
        lines.append(f"{name:22}{_figure(report, name):>8}{baseline!s:>10}  {target}")
    for name in ("conflated_entities", "spurious_entities"):
        if report.get(name):
            lines.append(f"{name}: {', '.join(report[name])}")
    lines.append(_speed(report))
    return "\n".join(lines)


def render_table(reports: dict[str, dict[str, Any]]) -> str:
    """Several reports as one table: a row per figure, a column per novel."""
    width = max(12, *(len(name) + 2 for name in reports))
    lines = [f"{'metric':22}" + "".join(f"{n:>{width}}" for n in reports) + "  target"]
    for name, target in FIGURES:
        cells = []
        for report in reports.values():
            baseline = report["baseline"].get(name)
            cells.append(_figure(report, name) + ("" if baseline is None else f" ({baseline})"))
        lines.append(f"{name:22}" + "".join(f"{c:>{width}}" for c in cells) + f"  {target}")
    if any(report["baseline"] for report in reports.values()):
        lines.append("(in brackets: plain recall over the same chunks)")
    lines.extend(f"{name}: {_speed(report)}" for name, report in reports.items())
    return "\n".join(lines)


def _figure(report: dict[str, Any], name: str) -> str:
    """A figure of a report, or "-" where its spec gives nothing to measure it on (a spec
    without needles or places)."""
    value = report.get(name)
    return "-" if value is None else str(value)


def _speed(report: dict[str, Any]) -> str:
    return (
        f"{report['interactions']} interactions, {report['reliefs']} reliefs, "
        f"{report['story_tokens']} tokens in {report['seconds']} s "
        f"({report['tokens_per_second']} tokens/s)"
    )
