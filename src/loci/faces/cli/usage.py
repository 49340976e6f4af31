"""Mistakes on the command line (an unknown option, a value that is no number), said in
loci's own form of an error: `error (invalid_input): message` and exit code 2, where click's
own would print "Usage: ..." and "Error: Invalid value ...", a form docs/cli.md does not
describe (a new user's trial found the two forms side by side)."""

from __future__ import annotations

from typing import IO, Any

import click
from click.exceptions import NoArgsIsHelpError

from loci.errors import InvalidInputError


class UsageMistake(click.ClickException):
    """A usage error as loci says every error, with click's hint to the command's help."""

    exit_code = InvalidInputError.exit_code

    def __init__(self, error: click.UsageError) -> None:
        super().__init__(error.format_message())
        self.ctx = error.ctx

    def show(self, file: IO[Any] | None = None) -> None:
        """Write the error and where help is to standard error."""
        said = self.format_message()
        # In lower case, as loci's own messages are ("no such option", "invalid value"), but
        # for a word in capitals ("NUMBER").
        said = said[:1].lower() + said[1:] if said[1:2].islower() else said
        lines = [f"error ({InvalidInputError.code}): {said}"]
        if self.ctx is not None and self.ctx.command.get_help_option(self.ctx) is not None:
            lines.append(f"Try '{self.ctx.command_path} --help' for help.")
        click.echo("\n".join(lines), file=file, err=file is None)


def said(error: click.UsageError) -> click.ClickException:
    """`error` as loci says it; a command given no arguments still shows its help."""
    return error if isinstance(error, NoArgsIsHelpError) else UsageMistake(error)
