"""The context-file service on a real data folder: projects, saves, history, attempts, safety."""

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from loci.app import build_app
from loci.errors import InvalidInputError, NotFoundError, StorageUnavailableError
from loci.settings import load_settings

GOOD = """# Mental Model

## Overview

Shopkeeper is an inventory service for small shops, used by their staff through a web app. It
is written in Go with a PostgreSQL database.

## Architecture

- A web front end talks to the Go API over JSON.
- The API keeps stock in PostgreSQL and sends events to a queue.

## Key Components

- `api/stock.go`: stock levels and reservations.
- `api/events.go`: the event publisher.

## Key Decisions

| Decision | Rationale |
| --- | --- |
| Cache stock levels in Redis for 30 seconds | The shop pages read stock on every view |
"""
POOR = "# Mental Model\n\n## Overview\n\nTODO\n"


def made(folder: Path) -> Path:
    """A project folder (a project is registered by a folder that exists)."""
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def project(app, tmp_path):
    return app.context.init_project(str(made(tmp_path / "shopkeeper"))).project_id


def files_in(app, project_id):
    folder = app.settings.home / "projects" / project_id
    return sorted(p.name for p in folder.iterdir())


def test_project_ids_are_stable_and_derived_from_the_path(app, tmp_path):
    path = made(tmp_path / "shopkeeper" / "sub").parent
    first = app.context.init_project(str(path))
    assert first.project_id.startswith("shopkeeper-")
    same = [str(path) + "/", str(path / "sub" / ".."), str(path)]
    assert {app.context.init_project(p).project_id for p in same} == {first.project_id}
    other = app.context.init_project(str(made(tmp_path / "other")))
    assert other.project_id != first.project_id
    assert (app.settings.home / "projects" / first.project_id).is_dir()
    assert [p.project_id for p in app.context.list_projects().projects] == [
        other.project_id,
        first.project_id,
    ]


def test_a_name_can_be_given_and_is_kept(app, tmp_path):
    info = app.context.init_project(str(made(tmp_path / "x")), name="Shop Keeper")
    assert app.context.init_project(str(tmp_path / "x")).name == "Shop Keeper"
    assert info.name == "Shop Keeper"


@pytest.mark.parametrize("path", ["relative/path", "", "  ", "/tmp/a\x00b", "/" + "a" * 5000])
def test_bad_project_paths_are_refused(app, path):
    with pytest.raises(InvalidInputError):
        app.context.init_project(path)
    assert app.context.list_projects().total == 0


def test_a_project_path_must_be_an_existing_folder(app, tmp_path):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    for path, words in [(a_file, "a file, not a folder"), (tmp_path / "no", "not an existing")]:
        with pytest.raises(InvalidInputError, match=words):
            app.context.init_project(str(path))
    assert app.context.list_projects().total == 0
    assert not (app.settings.home / "projects").exists()


@pytest.mark.parametrize(
    "bad",
    ["../etc", "/etc/passwd", "a/b", "..", "a\x00b", "x" * 65, "", "na me", "..\\x", "notes\n"],
)
def test_path_like_ids_and_file_types_are_refused(app, project, bad):
    before = sorted(p.name for p in app.settings.home.rglob("*"))
    with pytest.raises(InvalidInputError):
        app.context.get_context(bad, "mental_model")
    with pytest.raises(InvalidInputError):
        app.context.update_context(project, bad, GOOD)
    with pytest.raises(InvalidInputError):
        app.context.history(project, bad)
    assert sorted(p.name for p in app.settings.home.rglob("*")) == before


def test_unknown_project_and_file_type_are_not_found(app, project):
    with pytest.raises(NotFoundError, match="init_project"):
        app.context.get_context("nope-123", "mental_model")
    with pytest.raises(NotFoundError, match="mental_model"):
        app.context.get_context(project, "diary")


def test_new_file_returns_the_template_skeleton(app, project):
    found = app.context.get_context(project, "bugs")
    assert found.is_skeleton and not found.exists and found.version is None
    assert "## Open Bugs" in found.content and "| ID | Title | Severity | Status |" in found.content
    assert [s.name for s in found.template.sections][:2] == ["Open Bugs", "Details"]


def test_valid_update_writes_a_private_markdown_file(app, project):
    result = app.context.update_context(project, "mental_model", GOOD)
    assert (result.status, result.version, result.forced) == ("success", 1, False)
    path = app.settings.home / "projects" / project / "mental_model.md"
    assert result.path == str(path)
    assert path.read_text(encoding="utf-8") == GOOD
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    found = app.context.get_context(project, "mental_model")
    assert (found.content, found.version, found.exists, found.edited_outside) == (
        GOOD,
        1,
        True,
        False,
    )


def test_invalid_update_writes_nothing_and_guides(app, project):
    result = app.context.update_context(project, "mental_model", POOR)
    assert result.status == "correction_needed"
    assert result.version is None and result.path is None and result.attempt == 1
    assert {e.type for e in result.validation_errors} >= {"missing_section", "placeholder"}
    assert result.correction_guidance is not None
    assert 0 <= result.confidence < 1
    assert files_in(app, project) == []
    assert app.context.history(project, "mental_model").total == 0


def test_history_keeps_every_version_and_old_ones_can_be_read(app, project):
    app.context.update_context(project, "mental_model", GOOD)
    second = GOOD.replace("30 seconds", "60 seconds")
    assert app.context.update_context(project, "mental_model", second).version == 2
    assert app.context.update_context(project, "mental_model", second).message.startswith(
        "Unchanged"
    )
    history = app.context.history(project, "mental_model")
    assert [v.version for v in history.versions] == [2, 1]
    assert app.context.get_context(project, "mental_model", version=1).content == GOOD
    assert app.context.get_context(project, "mental_model").content == second
    with pytest.raises(NotFoundError, match="no version 3"):
        app.context.get_context(project, "mental_model", version=3)
    with pytest.raises(InvalidInputError):
        app.context.get_context(project, "mental_model", version=0)


def test_attempts_are_counted_until_max_then_force_saves(app, project):
    statuses = [app.context.update_context(project, "mental_model", POOR).status for _ in range(3)]
    assert statuses == ["correction_needed", "correction_needed", "max_attempts_reached"]
    forced = app.context.update_context(project, "mental_model", POOR, force=True)
    assert (forced.status, forced.forced, forced.version) == ("success", True, 1)
    assert app.context.history(project, "mental_model").versions[0].forced
    # A save resets the count.
    assert app.context.update_context(project, "mental_model", POOR).attempt == 1


def test_best_attempt_is_reported(app, project):
    app.context.update_context(project, "mental_model", GOOD.replace("## Key Components", "## X"))
    worse = app.context.update_context(project, "mental_model", POOR)
    assert worse.best_attempt is not None and worse.best_attempt.attempt == 1
    assert worse.best_attempt.confidence > worse.confidence


def test_oversized_empty_nul_and_unencodable_content_and_bad_versions_are_refused(
    home, embedder, tmp_path
):
    app = build_app(load_settings(home=home, context_max_bytes=2048), embedder=embedder)
    try:
        project = app.context.init_project(str(made(tmp_path / "p"))).project_id
        for bad in [GOOD + "x" * 2048, "   ", "# A\x00", GOOD + "\ud800"]:
            for force in (False, True):  # a lone surrogate once got as far as the file write
                with pytest.raises(InvalidInputError):
                    app.context.update_context(project, "mental_model", bad, force=force)
        for version in (0, 2**63, True):
            with pytest.raises(InvalidInputError):
                app.context.get_context(project, "mental_model", version)
        assert app.context.history(project, "mental_model").total == 0
    finally:
        app.close()


def test_saved_files_are_found_by_recall_and_replaced_on_update(app, project):
    app.context.update_context(project, "mental_model", GOOD)
    namespace = f"project:{project}"
    hits = app.memory.recall("what did we decide about caching", namespace=namespace, limit=3)
    assert "Redis" in hits.memories[0].content
    assert hits.memories[0].metadata["file_type"] == "mental_model"
    count = app.catalog.stats(namespace).total_memories
    app.context.update_context(project, "mental_model", GOOD.replace("Redis", "Memcached"))
    assert app.catalog.stats(namespace).total_memories == count
    texts = [m.content for m in app.memory.recall("caching stock", namespace=namespace).memories]
    assert any("Memcached" in t for t in texts) and not any("Redis" in t for t in texts)


def test_editing_the_file_by_hand_is_noticed(app, project):
    result = app.context.update_context(project, "mental_model", GOOD)
    with open(result.path, "a", encoding="utf-8") as out:
        out.write("\nA note added in an editor.\n")
    assert app.context.get_context(project, "mental_model").edited_outside


def test_concurrent_updates_from_two_apps_lose_nothing(app, project, home, embedder):
    other = build_app(load_settings(home=home), embedder=embedder)
    documents = [GOOD.replace("30 seconds", f"{n} seconds") for n in range(1, 7)]
    errors = []

    def save(which, docs):
        try:
            for doc in docs:
                assert (
                    which.context.update_context(project, "mental_model", doc).status == "success"
                )
        except Exception as exc:  # noqa: BLE001 (reported below, so the assertion names it)
            errors.append(exc)

    threads = [
        threading.Thread(target=save, args=(app, documents[:3])),
        threading.Thread(target=save, args=(other, documents[3:])),
    ]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert errors == []
        history = app.context.history(project, "mental_model")
        assert [v.version for v in history.versions] == [6, 5, 4, 3, 2, 1]
        latest = app.context.get_context(project, "mental_model")
        assert latest.content in documents and not latest.edited_outside
        saved = {app.context.get_context(project, "mental_model", n).content for n in range(1, 7)}
        assert saved == set(documents)
    finally:
        other.close()


def test_two_processes_saving_at_once_lose_nothing(app, project, home, tmp_path):
    sources = []
    for n in range(2):
        source = tmp_path / f"doc{n}.md"
        source.write_text(GOOD.replace("30 seconds", f"{n + 90} seconds"), encoding="utf-8")
        sources.append(source)
    env = {**os.environ, "LOCI_HOME": str(home)}
    command = [sys.executable, "-m", "loci", "context", "update", project, "mental_model"]
    runs = [subprocess.Popen([*command, str(s)], env=env, stdout=subprocess.PIPE) for s in sources]
    outputs = [process.communicate(timeout=120)[0].decode() for process in runs]
    assert [process.returncode for process in runs] == [0, 0], outputs
    history = app.context.history(project, "mental_model")
    assert sorted(v.version for v in history.versions) == [1, 2]
    latest = app.context.get_context(project, "mental_model")
    assert not latest.edited_outside


def test_user_templates_override_and_broken_ones_are_reported(app, project):
    folder = app.settings.home / "templates"
    folder.mkdir()
    (folder / "adr.toml").write_text(
        'name = "adr"\ntitle = "Decision Record"\n\n[[sections]]\nname = "Context"\n'
        'format = "freeform"\nmin_length = 10\npurpose = "Why a decision was needed."\n'
        'example = "The shop pages were slow under load."\n',
        encoding="utf-8",
    )
    (folder / "broken.toml").write_text('name = "broken"\n[[sections]\n', encoding="utf-8")
    (folder / "wrong.toml").write_text(
        'name = "wrong"\n\n[[sections]]\nname = "A"\nformat = "poem"\npurpose = "p"\nexample = "e"\n',
        encoding="utf-8",
    )
    listing = app.context.templates.listing()
    assert "adr" in [t.name for t in listing.templates]
    assert {"mental_model", "bugs"} <= {t.name for t in listing.templates}
    problems = {os.path.basename(p.path): p for p in listing.problems}
    assert problems["broken.toml"].line == 2
    assert problems["wrong.toml"].line == 5 and "format" in problems["wrong.toml"].message
    adr = "# Decision Record\n\n## Context\n\nThe shop pages were slow under load at noon.\n"
    assert app.context.update_context(project, "adr", adr).status == "success"


def test_unchanged_sections_keep_their_vectors_on_update(app, project, monkeypatch):
    app.context.update_context(project, "mental_model", GOOD)
    embedded = []
    real = app.engine.embed
    monkeypatch.setattr(app.engine, "embed", lambda texts: embedded.extend(texts) or real(texts))
    result = app.context.update_context(project, "mental_model", GOOD.replace("30 s", "45 s"))
    assert result.status == "success" and result.indexed_memories > 1
    assert len(embedded) == 1 and "45 seconds" in embedded[0]
    hits = app.memory.recall("event publisher module", namespace=f"project:{project}", limit=1)
    assert "events.go" in hits.memories[0].content


def test_a_context_file_that_cannot_be_written_saves_nothing(app, project):
    target = app.settings.home / "projects" / project / "mental_model.md"
    (target / "in-the-way").mkdir(parents=True)  # a folder where the file goes: rename fails
    with pytest.raises(StorageUnavailableError, match="nothing was saved"):
        app.context.update_context(project, "mental_model", GOOD)
    assert app.context.history(project, "mental_model").total == 0
    assert app.catalog.stats().total_memories == 0  # its sections were not indexed either
    (target / "in-the-way").rmdir()
    target.rmdir()
    assert app.context.update_context(project, "mental_model", GOOD).version == 1


def test_a_project_whose_folder_cannot_be_made_is_not_registered(app, tmp_path):
    (app.settings.home / "projects").write_text("a file where the projects folder goes")
    with pytest.raises(StorageUnavailableError, match="cannot create the project folder"):
        app.context.init_project(str(made(tmp_path / "shopkeeper")))
    assert app.context.list_projects().total == 0
