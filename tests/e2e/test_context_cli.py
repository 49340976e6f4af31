"""`loci context ...` as a person runs it: real processes on a real data folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import run_loci as loci
from tests.unit.test_context_service import GOOD, POOR

pytestmark = pytest.mark.e2e


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    """A data folder and a registered project folder."""
    home, folder = tmp_path / "home", tmp_path / "shopkeeper"
    folder.mkdir()
    assert loci(home, "context", "init", str(folder)).returncode == 0
    return home, folder


def test_check_update_show_and_history(project, tmp_path):
    home, folder = project
    poor, good = tmp_path / "poor.md", tmp_path / "good.md"
    poor.write_text(POOR, encoding="utf-8")
    good.write_text(GOOD, encoding="utf-8")

    checked = loci(home, "context", "check", str(folder), "mental_model", "--file", str(poor))
    assert checked.returncode == 1
    assert (
        "needs correction" in checked.stdout and 'Add a "## Architecture" section' in checked.stdout
    )
    assert "Check the corrected file again." in checked.stdout
    assert "update_context" not in checked.stdout  # the CLI names its own commands
    assert (
        loci(home, "context", "check", str(folder), "mental_model", "--file", str(good)).returncode
        == 0
    )

    refused = loci(home, "context", "update", str(folder), "mental_model", str(poor))
    assert refused.returncode == 1
    assert refused.stdout.startswith("not saved: the document needs correction (attempt 1 of 3)")
    assert "Run `loci context update` again" in refused.stdout
    assert "update_context" not in refused.stdout and "force=true" not in refused.stdout
    saved = loci(home, "context", "update", str(folder), "mental_model", str(good))
    assert saved.returncode == 0 and "Saved as version 1" in saved.stdout

    shown = loci(home, "context", "show", str(folder), "mental_model")
    assert shown.stdout.strip() == GOOD.strip()
    as_json = json.loads(
        loci(home, "context", "show", str(folder), "mental_model", "--json").stdout
    )
    assert as_json["version"] == 1 and not as_json["is_skeleton"]
    # The saved file itself validates (what an editor hook would run).
    assert loci(home, "context", "check", str(folder), "mental_model").returncode == 0

    history = loci(home, "context", "history", str(folder), "mental_model")
    assert history.stdout.startswith("v1  ")
    listed = loci(home, "context", "list")
    assert "shopkeeper-" in listed.stdout and "mental_model v1" in listed.stdout


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


def test_bad_names_and_unknown_projects_fail_cleanly(project):
    home, folder = project
    for path, words in [(folder / "missing", "not an existing folder"), (__file__, "a file")]:
        refused = loci(home, "context", "init", str(path))
        assert refused.returncode == 2 and words in refused.stderr, refused.stderr
    unknown = loci(home, "context", "show", "nope-1", "bugs")
    assert unknown.returncode == 3 and "loci context init PATH" in unknown.stderr
    traversal = loci(home, "context", "show", str(folder), "../../etc/passwd")
    assert traversal.returncode == 2 and "file_type" in traversal.stderr
    skeleton = loci(home, "context", "show", str(folder), "bugs")
    assert skeleton.returncode == 0 and "skeleton" in skeleton.stderr


def test_broken_user_templates_are_listed_with_their_line(project):
    home, _ = project
    (home / "templates").mkdir()
    (home / "templates" / "notes.toml").write_text('name = "notes"\nsections = [\n', "utf-8")
    listed = loci(home, "context", "templates")
    assert listed.returncode == 0
    assert "mental_model" in listed.stdout
    assert "notes.toml:" in listed.stderr
