"""Shared CLI plumbing: building the App from options, printing results, mapping errors."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from loci.errors import InvalidInputError, LociError, NotFoundError
from loci.settings import Settings, load_settings

if TYPE_CHECKING:
    from rich.progress import Progress

    from loci.app import App
    from loci.engine.embedding import Embedder

T = TypeVar("T")


@dataclass
class CliState:
    """Options given before the command: `loci --config F --home D <command>`; `embedder`
    replaces the configured model when a caller running commands in-process shares one."""

    config: Path | None
    home: Path | None
    embedder: Embedder | None = None
    database: str | None = None

    def settings(self) -> Settings:
        """Settings from the options, environment and config file."""
        overrides: dict[str, Any] = {"home": self.home} if self.home else {}
        if self.database:
            overrides["database_url"] = self.database
        return load_settings(self.config, **overrides)

    def model(self, settings: Settings) -> Embedder:
        """The shared embedder, or the one `settings` name (loaded lazily)."""
        from loci.app import make_embedder

        return self.embedder or make_embedder(settings)


@contextmanager
def opened_app(state: CliState, *, existing: bool = False) -> Iterator[App]:
    """The App for one command, closed afterwards (a command searches once at most: it
    builds no mirror or codes that pay off over many searches, see `build_app`). A command on
    what is `existing` (it reads, or corrects what is stored) refuses a data folder with no
    store instead of creating one there."""
    from loci.app import build_app

    settings = state.settings()
    if existing:
        refuse_missing_store(settings)
    app = build_app(settings, state.embedder, long_lived=False)
    try:
        yield app
    except NotFoundError as exc:
        # What is missing may be in another data folder (`--home` forgotten): say which was read.
        if settings.database_url is None:
            exc.message = f"{exc.message} (data folder {settings.home})"
        raise
    finally:
        app.close()


def holds_a_store(state: CliState) -> bool:
    """Whether the data folder holds a store (a database server always does): an overview of
    a new folder answers that nothing is there without making a store there."""
    settings = state.settings()
    return settings.database_url is not None or settings.database_path.exists()


def refuse_missing_store(settings: Settings) -> None:
    """Refuse a data folder that holds no store: a command on what is stored would otherwise
    leave an empty store behind at a mistyped `--home` and answer as if nothing was there."""
    if settings.database_url is None and not settings.database_path.exists():
        raise NotFoundError(
            f"no loci store in data folder {settings.home}: nothing has been stored there yet"
            " (is --home or LOCI_HOME right?)",
            home=str(settings.home),
        )


def run(work: Callable[[], T]) -> T:
    """Run a command body; loci errors become a message on stderr and the error's exit code."""
    try:
        return work()
    except LociError as exc:
        click.echo(f"error ({exc.code}): {exc.message}", err=True)
        sys.exit(exc.exit_code)


def writable(path: Path) -> Path:
    """`path` if a file can be written there; a missing folder is refused before any work
    (an atomic write would name its temporary file instead)."""
    folder = path.parent
    if not folder.is_dir():
        raise InvalidInputError(f"cannot write {path}: no folder {folder}", path=str(path))
    if not os.access(folder, os.W_OK):
        raise InvalidInputError(f"cannot write {path}: {folder} is not writable", path=str(path))
    return path


def written(path: Path) -> AbstractContextManager[None]:
    """Report a failed write of `path` (`-`: standard output), a full disk say, as a storage
    error (a reader that closed standard output early, `| head`, is left to click, which
    exits quietly)."""
    from loci.storage.files import storage_errors  # the stores: not for every CLI start

    return storage_errors(Path("standard output") if str(path) == "-" else path, "write")


def save_text(path: Path, text: str) -> None:
    """Write `text` to `path` atomically (0600), a failed write reported as a storage error."""
    from loci.storage.files import replacing_text  # the stores: not for every CLI start

    with written(path), replacing_text(path) as out:
        out.write(text)


def emit_json(value: Any) -> None:
    """Print a pydantic model or plain value as indented JSON."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def emit_fields(fields: Mapping[str, Any]) -> None:
    """Print name / value lines, the values in one column; a mapping's items as `key count`."""
    width = max(map(len, fields), default=0)
    for name, value in fields.items():
        click.echo(f"{name:{width}}  {_field_text(value)}")


def _field_text(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {item}" for key, item in value.items()) or "none"
    return "none" if value is None else str(value)


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
output_option = click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write to this file (default: standard output).",
)


def progress_bar(as_json: bool) -> Progress:
    """A progress bar for long work, on standard error: standard output holds only the summary
    (or the JSON), which a script reads. Off a terminal, a line at each tenth of the work
    instead (a log holds no bar); with --json, nothing."""
    from rich.console import Console
    from rich.progress import Progress

    from loci.faces.cli.progress_lines import ProgressLines

    console = Console(stderr=True)
    if not as_json and not console.is_terminal:
        return ProgressLines()
    return Progress(console=console, transient=True, disable=as_json)
