"""`loci context ...` in-process through click's runner, on a real data folder (the editor
round trip runs as a real process in tests/e2e/test_context_cli.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.app.test_context_service import GOOD, POOR
from tests.cli_runner import run_loci as loci


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
