"""The data folder is the user's alone: every folder loci makes is 0700 and every file 0600,
and no folder inside it may be a symbolic link that would carry loci's files elsewhere."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.errors import CheckpointStorageError, StorageUnavailableError
from loci.faces.mcp.tool_listing import ToolListing
from loci.settings import load_settings
from loci.storage.files import private_folder, replacing_text


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder outside the data folder, where nothing of loci's may land."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def test_every_missing_level_is_made_private(tmp_path: Path) -> None:
    deepest = private_folder(tmp_path / "a" / "b" / "c")
    for folder in (tmp_path / "a", tmp_path / "a" / "b", deepest):
        assert mode(folder) == 0o700, folder


def test_a_new_data_folder_and_its_database_are_private(tmp_path: Path, embedder) -> None:
    home = tmp_path / "parent" / "loci"
    app = build_app(load_settings(home=home), embedder=embedder)
    app.close()
    assert (mode(tmp_path / "parent"), mode(home)) == (0o700, 0o700)
    assert mode(home / "loci.db") == 0o600


def test_checkpoint_folders_and_blobs_are_private(app: App) -> None:
    app.checkpoints.save({"goal": "x"}, "s")
    checkpoints = app.settings.home / "checkpoints"
    blob = next((checkpoints / "blobs").glob("*/*.blob"))
    for folder in (checkpoints, checkpoints / "blobs", blob.parent):
        assert mode(folder) == 0o700, folder
    assert mode(blob) == 0o600


def test_project_folders_are_private(app: App, tmp_path: Path) -> None:
    project = app.context.init_project(str(tmp_path)).project_id
    projects = app.settings.home / "projects"
    assert (mode(projects), mode(projects / project)) == (0o700, 0o700)


def test_the_tool_listing_is_private(tmp_path: Path) -> None:
    home = tmp_path / "new-home"
    listing = ToolListing(load_settings(home=home))
    listing.save([])
    assert (mode(home), mode(home / "cache"), mode(listing.path)) == (0o700, 0o700, 0o600)


def test_a_replaced_file_is_private_and_whole(tmp_path: Path) -> None:
    target = tmp_path / "export.json"
    target.write_text("old")
    target.chmod(0o644)

    def interrupted_write() -> None:
        with replacing_text(target) as out:
            out.write("half")
            raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError):
        interrupted_write()
    assert target.read_text() == "old"
    with replacing_text(target) as out:
        out.write("new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓" and mode(target) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["export.json"]  # no temporary left


def test_a_symlinked_projects_folder_is_refused(app: App, tmp_path: Path, outside: Path) -> None:
    (app.settings.home / "projects").symlink_to(outside, target_is_directory=True)
    with pytest.raises(StorageUnavailableError, match="symbolic link"):
        app.context.init_project(str(tmp_path))
    assert list(outside.iterdir()) == []
    assert app.context.list_projects().projects == []


def test_a_symlinked_project_folder_is_refused_on_update(
    app: App, tmp_path: Path, outside: Path
) -> None:
    project = app.context.init_project(str(tmp_path)).project_id
    folder = app.settings.home / "projects" / project
    folder.rmdir()
    folder.symlink_to(outside, target_is_directory=True)
    with pytest.raises(StorageUnavailableError, match="symbolic link"):
        app.context.update_context(project, "mental_model", "# anything", force=True)
    assert list(outside.iterdir()) == []
    assert app.context.history(project, "mental_model").versions == []


@pytest.mark.parametrize("linked", ["checkpoints", "checkpoints/blobs"])
def test_symlinked_checkpoint_folders_are_refused(app: App, outside: Path, linked: str) -> None:
    link = app.settings.home / linked
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside, target_is_directory=True)
    with pytest.raises(CheckpointStorageError, match="symbolic link"):
        app.checkpoints.save({"goal": "x"}, "s")
    assert list(outside.iterdir()) == []
    assert app.checkpoints.list_sessions().total == 0


def test_a_blob_folder_linked_after_saving_is_not_read(app: App, outside: Path) -> None:
    saved = app.checkpoints.save({"goal": "x"}, "s")
    blobs = app.settings.home / "checkpoints" / "blobs"
    blobs.rename(outside / "blobs")
    blobs.symlink_to(outside / "blobs", target_is_directory=True)
    with pytest.raises(CheckpointStorageError, match="symbolic link"):
        app.checkpoints.load(checkpoint_id=saved.checkpoint_id)


def test_a_symlinked_cache_folder_is_not_written(tmp_path: Path, outside: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "cache").symlink_to(outside, target_is_directory=True)
    ToolListing(load_settings(home=home)).save([])  # logged, not raised: only a speed-up
    assert list(outside.iterdir()) == []


def test_the_data_folder_itself_may_be_a_link(tmp_path: Path, outside: Path, embedder) -> None:
    home = tmp_path / "home"
    home.symlink_to(outside, target_is_directory=True)
    app = build_app(load_settings(home=home), embedder=embedder)
    try:
        assert app.checkpoints.save({"goal": "x"}, "s").status == "SAVED"
    finally:
        app.close()
    assert (outside / "checkpoints" / "blobs").is_dir()
