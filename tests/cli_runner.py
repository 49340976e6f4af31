"""`loci` commands run in-process by click's runner: the real commands, App, SQLite and model,
without a process start per command (`tests/e2e` keeps real processes for what needs them)."""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

from click.testing import CliRunner

from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.faces.cli.main import commands
from loci.faces.cli.output import CliState


@cache
def shared_model() -> OnnxMiniLM:
    """The real model, loaded once per test process (the `embedder` fixture is this one)."""
    model = OnnxMiniLM()
    model.load()
    return model


def run_loci(
    home: Path, *args: str, answers: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    """`loci ARGS` on the data folder `home` (and the environment `env`), typing `answers` when
    it asks (standard input is never a terminal), with the exit code and both output streams a
    process would give. Commands share the loaded model unless `env` configures one."""
    environment = {"LOCI_HOME": str(home), **env}
    own_model = any(name.startswith("LOCI_EMBEDDING") for name in env)
    state = CliState(None, None, None if own_model else shared_model())
    result = CliRunner().invoke(commands(), list(args), input=answers, env=environment, obj=state)
    return subprocess.CompletedProcess(list(args), result.exit_code, result.stdout, result.stderr)
