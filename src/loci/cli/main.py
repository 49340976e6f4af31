"""Former path of `loci.faces.cli.main`."""

from loci.faces.cli.main import cli, commands, main

__all__ = ["cli", "commands", "main"]
