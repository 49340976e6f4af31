"""`loci context ...` as a person runs it: real processes on a real data folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.app.test_context_service import GOOD
from tests.e2e.conftest import run_loci as loci

pytestmark = pytest.mark.e2e


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    """A data folder and a registered project folder."""
    home, folder = tmp_path / "home", tmp_path / "shopkeeper"
    folder.mkdir()
    assert loci(home, "context", "init", str(folder)).returncode == 0
    return home, folder


def test_edit_saves_what_the_editor_wrote(project, tmp_path):
    home, folder = project
    source = tmp_path / "good.md"
    source.write_text(GOOD, encoding="utf-8")
    editor = tmp_path / "editor.py"
    # click.edit tells a save by the file's mtime: move it on, as a person's save would, so a
    # write within the same clock tick as the file's creation still counts.
    editor.write_text(
        "import os, shutil, sys, time\n"
        f"shutil.copyfile({str(source)!r}, sys.argv[1])\n"
        "later = time.time() + 5\nos.utime(sys.argv[1], (later, later))\n",
        encoding="utf-8",
    )
    edited = loci(
        home, "context", "edit", str(folder), "mental_model", "--json",
        EDITOR=f"{sys.executable} {editor}",
    )  # fmt: skip
    assert edited.returncode == 0, edited.stderr
    outcome = json.loads(edited.stdout)
    assert (outcome["status"], outcome["version"]) == ("success", 1)
    shown = loci(home, "context", "show", str(folder), "mental_model")
    assert shown.stdout.strip() == GOOD.strip()
