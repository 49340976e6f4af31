"""A plain install (no extras) has no PostgreSQL driver: loci runs on SQLite without it.

The driver is hidden from the processes below by a `sitecustomize` module that marks psycopg
as not importable, as it is in a venv made by `pip install .` (which `.ci/run` also tries).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve().parent

HIDE_DRIVER = """import sys
sys.modules.update(dict.fromkeys(("psycopg", "psycopg_pool", "psycopg_binary"), None))
"""

#: Modules that need the driver: the PostgreSQL engine itself (reached only with a URL).
ENGINE = "loci.storage.databases.postgres."
NEED_NO_DRIVER = {
    "loci.storage.memory_tables.postgres_keyword_tables",
    "loci.storage.memory_tables.postgres",
}


def is_postgres(module: str) -> bool:
    """Whether `module` is PostgreSQL's: the engine, or a seam's PostgreSQL version (named
    `postgres*` beside the seam's other versions)."""
    return module.startswith(ENGINE) or module.rsplit(".", 1)[-1].startswith("postgres")


SWEEP = """
import importlib, pkgutil, sys
import loci
failed = []
for found in pkgutil.walk_packages(loci.__path__, "loci."):
    try:
        importlib.import_module(found.name)
    except ImportError as exc:
        failed.append(found.name)
print("\\n".join(failed))
"""


def without_driver(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`python ARGS` with psycopg hidden, from a folder that is not the clone."""
    hider = tmp_path / "hide-driver"
    hider.mkdir(exist_ok=True)
    (hider / "sitecustomize.py").write_text(HIDE_DRIVER, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(hider)}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        timeout=600,
        check=False,
    )


def test_the_newcomers_path_runs_without_the_driver(tmp_path: Path) -> None:
    done = without_driver(tmp_path, str(HERE / "plain_install.py"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "plain install:" in done.stdout


def test_only_the_engine_needs_the_driver(tmp_path: Path) -> None:
    done = without_driver(tmp_path, "-c", SWEEP)
    assert done.returncode == 0, done.stderr
    failed = set(done.stdout.split())
    assert failed, "the driver was not hidden"
    outside = {name for name in failed if not is_postgres(name)}
    assert not outside, f"these need psycopg though they are not the engine: {sorted(outside)}"
    assert not failed & NEED_NO_DRIVER
