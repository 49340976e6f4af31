"""`loci context ...`: projects' context files for people and editors."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from loci.faces.cli.numbers import WholeNumber
from loci.faces.cli.output import CliState, emit_json, json_option, opened_app, run

if TYPE_CHECKING:
    from loci.app import App
    from loci.toolsets.context.models import CorrectionGuidance, UpdateResult, ValidationIssue

T = TypeVar("T")

PROJECT_HELP = "PROJECT is a project id or the project's path (see `loci context list`)."


def register(group: click.Group) -> None:
    """Add the `context` group to the `loci` group."""
    group.add_command(context)


@click.group()
def context() -> None:
    """Project context files (mental_model, session_summary, bugs, features), checked against
    templates."""


@context.command("init")
@click.argument("path", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--name", help="Display name (default: the folder's name).")
@json_option
@click.pass_obj
def init(state: CliState, path: Path, name: str | None, as_json: bool) -> None:
    """Register the project at PATH (default: this folder) and print its id."""

    def work() -> None:
        with opened_app(state) as app:
            info = app.context.init_project(str(path.expanduser().absolute()), name)
        if as_json:
            emit_json(info)
        else:
            click.echo(f"{info.project_id}  {info.name}  {info.path}")

    run(work)


@context.command("list")
@json_option
@click.pass_obj
def list_projects(state: CliState, as_json: bool) -> None:
    """List registered projects and their files."""
    found = run(lambda: _with_app(state, lambda app: app.context.list_projects()))
    if as_json:
        emit_json(found)
        return
    if not found.projects:
        click.echo("no projects yet: run `loci context init PATH`")
    for project in found.projects:
        files = ", ".join(f"{f.file_type} v{f.version}" for f in project.files) or "no files"
        click.echo(f"{project.project_id}  {project.name}  {project.path}  ({files})")


@context.command("show", epilog=PROJECT_HELP)
@click.argument("project")
@click.argument("file_type")
@click.option("--version", type=WholeNumber(1), help="An earlier version (default: newest).")
@json_option
@click.pass_obj
def show(state: CliState, project: str, file_type: str, version: int | None, as_json: bool) -> None:
    """Print a context file (or the template skeleton if nothing is saved yet)."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            found = app.context.get_context(app.context.resolve(_path(project)), file_type, version)
        if as_json:
            emit_json(found)
            return
        click.echo(found.content.rstrip("\n"))
        if found.is_skeleton:
            click.echo("\n(nothing saved yet: this is the template's skeleton)", err=True)
        elif found.edited_outside:
            click.echo(f"\n(note: {found.path} was edited outside loci)", err=True)

    run(work)


@context.command("check", epilog=PROJECT_HELP)
@click.argument("project")
@click.argument("file_type")
@click.option(
    "--file",
    "source",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    help="The Markdown file to check ('-' for stdin; default: the project's saved file).",
)
@json_option
@click.pass_obj
def check(
    state: CliState, project: str, file_type: str, source: Path | None, as_json: bool
) -> None:
    """Validate a context file against its template and print how to fix it.

    Exits 0 when the document is valid and 1 when it is not, so editors and hooks can use it.
    """

    def work() -> None:
        with opened_app(state, existing=True) as app:
            project_id = app.context.resolve(_path(project))
            target = source or Path(app.context.get_context(project_id, file_type).path)
            result = app.context.check(file_type, _read(target))
        if as_json:
            emit_json(result)
        else:
            click.echo(f"{target}: {'valid' if result.valid else 'needs correction'}")
            click.echo(f"confidence {result.confidence:.2f}")
            _print_issues(result.validation_errors)
            if result.correction_guidance is not None:
                _print_guidance(result.correction_guidance, "Check the corrected file again.")
        sys.exit(0 if result.valid else 1)

    run(work)


@context.command("edit", epilog=PROJECT_HELP)
@click.argument("project")
@click.argument("file_type")
@click.option("--force", is_flag=True, help="Save even if the document is invalid (recorded).")
@json_option
@click.pass_obj
def edit(state: CliState, project: str, file_type: str, force: bool, as_json: bool) -> None:
    """Edit a context file in $EDITOR; it is saved when it passes its template.

    When it does not, the guidance is printed and the editor opens again on your text. With
    --json, the guidance goes to standard error and the last outcome is printed as JSON.
    """

    def work() -> None:
        with opened_app(state) as app:
            project_id = app.context.resolve(_path(project))
            text = app.context.get_context(project_id, file_type).content
            while True:
                edited = click.edit(text, extension=".md", require_save=True)
                if edited is None:
                    reason = "the editor was closed without saving"
                    _report(
                        {"status": "not_saved", "reason": reason}, f"not saved: {reason}", as_json
                    )
                    return
                text = edited
                result = app.context.update_context(project_id, file_type, text, force)
                if result.status == "success":
                    _report(result, f"{result.message} {result.path}", as_json)
                    return
                _print_issues(result.validation_errors, err=as_json)
                if result.correction_guidance is not None:
                    again = "Answer yes below, correct the document and save it."
                    _print_guidance(result.correction_guidance, again, err=as_json)
                if not click.confirm("Edit again?", default=True, err=as_json):
                    hint = "not saved (run again with --force to save it as it is)"
                    _report(result, hint, as_json)
                    sys.exit(1)

    run(work)


@context.command("update", epilog=PROJECT_HELP)
@click.argument("project")
@click.argument("file_type")
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--force", is_flag=True, help="Save even if the document is invalid (recorded).")
@json_option
@click.pass_obj
def update(
    state: CliState, project: str, file_type: str, source: Path, force: bool, as_json: bool
) -> None:
    """Save the Markdown file SOURCE ('-' for stdin) as the new version, if it passes its
    template; otherwise print the guidance and exit 1 (nothing is saved)."""

    def work() -> None:
        with opened_app(state) as app:
            project_id = app.context.resolve(_path(project))
            result = app.context.update_context(project_id, file_type, _read(source), force)
        if as_json:
            emit_json(result)
        elif result.status == "success":
            click.echo(f"{result.message} {result.path}")
        else:
            click.echo(_not_saved(result))
            _print_issues(result.validation_errors)
            if result.correction_guidance is not None:
                again = "Run `loci context update` again with the whole corrected file."
                _print_guidance(result.correction_guidance, again)
        sys.exit(0 if result.status == "success" else 1)

    run(work)


def _report(outcome: object, line: str, as_json: bool) -> None:
    """An outcome of `edit`: as JSON with --json, else its line of text."""
    if as_json:
        emit_json(outcome)
    else:
        click.echo(line)


def _not_saved(result: UpdateResult) -> str:
    """Why an update saved nothing, in the CLI's words (the service's speak to agents)."""
    if result.status == "max_attempts_reached":
        return (
            f"not saved: still invalid after {result.attempt} attempts; fix it with the "
            "guidance below, or run again with --force to save it as it is (recorded)"
        )
    return (
        f"not saved: the document needs correction (attempt {result.attempt} of "
        f"{result.max_attempts})"
    )


@context.command("history", epilog=PROJECT_HELP)
@click.argument("project")
@click.argument("file_type")
@click.option("--limit", type=WholeNumber(1, 1000), default=50, show_default=True)
@json_option
@click.pass_obj
def history(state: CliState, project: str, file_type: str, limit: int, as_json: bool) -> None:
    """List the saved versions of a context file, newest first."""

    def work() -> None:
        with opened_app(state, existing=True) as app:
            found = app.context.history(app.context.resolve(_path(project)), file_type, limit)
        if as_json:
            emit_json(found)
            return
        if not found.versions:
            click.echo("no versions saved yet")
        for item in found.versions:
            forced = "  (forced)" if item.forced else ""
            click.echo(f"v{item.version}  {item.saved_at}  {item.size_bytes} bytes{forced}")

    run(work)


@context.command("templates")
@json_option
@click.pass_obj
def templates(state: CliState, as_json: bool) -> None:
    """List the templates, and any broken template files in the data folder."""
    found = run(lambda: _with_app(state, lambda app: app.context.templates.listing()))
    if as_json:
        emit_json(found)
        return
    for template in found.templates:
        sections = ", ".join(s.name for s in template.sections)
        click.echo(f"{template.name}  ({template.source})  {sections}")
    for problem in found.problems:
        where = f"{problem.path}:{problem.line}" if problem.line else problem.path
        click.echo(f"broken template {where}: {problem.message}", err=True)


def _with_app(state: CliState, work: Callable[[App], T]) -> T:
    with opened_app(state) as app:
        return work(app)


def _path(project: str) -> str:
    """Paths given on the command line may be relative to the current folder."""
    if project in (".", "..") or os.sep in project or project.startswith("~"):
        return str(Path(project).expanduser().absolute())
    return project


def _read(path: Path) -> str:
    from loci.errors import InvalidInputError, NotFoundError

    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise NotFoundError(f"{path} does not exist (nothing saved yet?)", path=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"cannot read {path}: {exc}", path=str(path)) from None


def _print_issues(issues: list[ValidationIssue], err: bool = False) -> None:
    for issue in issues:
        where = f"line {issue.line}: " if issue.line else ""
        click.echo(f"  {issue.severity}: {where}{issue.message}", err=err)


def _print_guidance(guidance: CorrectionGuidance, again: str, err: bool = False) -> None:
    """The guidance, its last step (`RESEND`, for agents) said as `again` in CLI terms."""
    from loci.toolsets.context.guidance import RESEND

    click.echo(f"\n{guidance.primary_issue}\n", err=err)
    for step in guidance.step_by_step_fix:
        number, _, text = step.partition(". ")
        click.echo(f"  {number}. {again}" if text == RESEND else f"  {step}", err=err)
    click.echo("\nexample fix:\n", err=err)
    click.echo(guidance.example_fix, err=err)


def doctor(app: App, checks: dict[str, object], problems: list[str]) -> None:
    """`loci doctor`'s look at context files: the projects, and templates that do not load."""
    checks["context projects"] = app.context.list_projects().total
    for problem in app.context.templates.listing().problems:
        where = f"{problem.path}:{problem.line}" if problem.line else problem.path
        problems.append(f"the template {where} is broken: {problem.message}")
