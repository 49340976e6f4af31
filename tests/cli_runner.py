"""`loci` commands run in-process by click's runner: the real commands, App, SQLite and model,
without a process start per command (`tests/e2e` keeps real processes for what needs them)."""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

import click
from click.testing import CliRunner


@cache
def commands() -> click.Group:
    """The `loci` group with every command registered, as `loci.cli.main.main` registers them."""
    from loci.cli import admin, checkpoints, context, conversations, memory
    from loci.cli.main import cli

    for family in (memory, admin, conversations, context, checkpoints):
        family.register(cli)
    return cli


def run_loci(
    home: Path, *args: str, answers: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    """`loci ARGS` on the data folder `home` (and the environment `env`), typing `answers` when
    it asks (standard input is never a terminal), with the exit code and both output streams a
    process would give."""
    environment = {"LOCI_HOME": str(home), **env}
    result = CliRunner().invoke(commands(), list(args), input=answers, env=environment)
    return subprocess.CompletedProcess(list(args), result.exit_code, result.stdout, result.stderr)
