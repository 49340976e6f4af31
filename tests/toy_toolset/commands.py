"""The toy toolset's command: `loci toy`."""

from __future__ import annotations

import click

from loci.faces.cli.output import CliState, opened_app
from tests.toy_toolset.wiring import board


def register(group: click.Group) -> None:
    """Add `loci toy`."""

    @group.command("toy")
    @click.pass_obj
    def toy(state: CliState) -> None:
        """Print the pinned notes."""
        with opened_app(state) as app:
            for note in board(app).pins():
                click.echo(note)
