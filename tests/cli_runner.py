"""`loci` commands run in-process by click's runner: the real commands, App, SQLite and model,
without a process start per command (`tests/e2e` keeps real processes for what needs them)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from click.testing import CliRunner

from loci.cli.main import commands


def run_loci(
    home: Path, *args: str, answers: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    """`loci ARGS` on the data folder `home` (and the environment `env`), typing `answers` when
    it asks (standard input is never a terminal), with the exit code and both output streams a
    process would give."""
    environment = {"LOCI_HOME": str(home), **env}
    result = CliRunner().invoke(commands(), list(args), input=answers, env=environment)
    return subprocess.CompletedProcess(list(args), result.exit_code, result.stdout, result.stderr)
