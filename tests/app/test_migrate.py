"""`loci migrate`: a store holding every kind of record goes into a PostgreSQL database and
back with identical exports, verified table by table; the source is never written; an
interrupted copy resumed ends the same; a database that holds a store is never overwritten."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.database_url import masked
from loci.errors import ConflictError, StorageUnavailableError
from loci.settings import load_settings
from loci.toolsets.memory.conversations.messages import ChatMessage
from loci.toolsets.memory.models import MemoryDraft
from tests.cli_runner import run_loci

pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")

from loci.migration import ends, move

pytestmark = pytest.mark.usefixtures("no_os_keychain")
TOOLSETS = ["memory", "context", "checkpoints", "story"]
#: The id of a memory merged into the first one.
MERGED_ID = "00000000-0000-4000-8000-0000000000aa"


def on_folder(home: Path, embedder) -> App:
    return build_app(load_settings(home=home, toolsets=TOOLSETS), embedder=embedder)


def on_database(home: Path, url: str, embedder) -> App:
    settings = load_settings(home=home, toolsets=TOOLSETS, database_url=url)
    return build_app(settings, embedder=embedder)


def fill(app: App, project: Path) -> None:
    """Every kind of record: notes (a long one with passages), a conversation, a merged id,
    a context file with versions, checkpoints stored whole and as changes, a keyed write's
    receipt, a named token, a fact superseded and one flagged as a conflict."""
    app.memory.remember(MemoryDraft("The deploy window is Friday. " * 60, tags=["ops"]))
    for i in range(25):
        app.memory.remember(MemoryDraft(f"Kite note {i}", namespace="hobby", metadata={"i": i}))
    messages = [
        ChatMessage(speaker, text, f"2026-05-0{day}T10:00:00.000000Z", "s1", f"m{day}")
        for day, (speaker, text) in enumerate(
            [("Ann", "Shall we fly kites?"), ("Bo", "Yes, on Sunday."), ("Ann", "Great.")], 1
        )
    ]
    app.conversations.remember_conversation(messages, "chat", conversation_id="c1")
    with app.db.write() as conn:
        conn.execute("INSERT INTO memory_aliases (id, seq) VALUES (?, 1)", (MERGED_ID,))
    project.mkdir()
    made = app.context.init_project(str(project))
    for text in ("# Bugs\n\nnone", "# Bugs\n\n- one"):
        app.context.update_context(made.project_id, "bugs", text, force=True)
    for step in range(4):
        app.checkpoints.save({"goal": "ship", "step": step, "log": list(range(200))}, "s1")
    with app.receipts.claiming(app.db, _request()):
        app.memory.remember(MemoryDraft("keyed"))
    app.access.create("ann", ["memory"], namespaces=["hobby"])
    berlin = app.memory.remember(MemoryDraft("Dana lives in Berlin.", valid_from="2022-01-01"))
    app.facts.supersede(berlin.id, "Dana lives in Lisbon.", valid_from="2023-09-01")
    assert app.facts.remember(MemoryDraft("Dana lives in Porto.")).conflicts  # flagged
    for turn in range(8):  # a small window, so that reliefs archive chunks
        app.story.continue_story(
            "tale",
            "Go on.",
            f"Elizabeth walked to Netherfield in the rain, chapter {turn}.\n\n" * 30
            + "Mr. Darcy said nothing.",
            settings={"max_tokens": 1_000, "chunk_size": 200},
        )


def _request():
    from loci.storage.databases.receipts import Request

    return Request("k-1", "remember", "f")


def everything(app: App, project_id: str) -> tuple[object, ...]:
    """What a user reads back of the store."""
    memories = [m.model_dump() for m in app.transfer.iter_export(include_vectors=True)]
    sessions = app.checkpoints.list_checkpoints("s1", limit=100).checkpoints
    contexts = [app.checkpoints.load(checkpoint_id=c["checkpointId"]).context for c in sessions]
    history = app.context.history(project_id, "bugs").model_dump()
    tokens = [t.name for t in app.access.listing()]
    story = (
        app.story.export("tale"),
        app.story.stats("tale").model_dump(),
        [s.model_dump() for s in app.story.sessions().sessions],
    )
    return memories, sessions, contexts, history, tokens, story


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def copied(source, target) -> move.MigrationReport:
    with source as opened_source, target as opened_target:
        return move.migrate(opened_source, opened_target, lambda *_: None)


def test_a_store_goes_to_postgresql_and_back_unchanged(tmp_path, embedder, postgres_url):
    home, back = tmp_path / "home", tmp_path / "back"
    app = on_folder(home, embedder)
    fill(app, tmp_path / "project")
    project_id = app.context.list_projects().projects[0].project_id
    asked = [hit.id for hit in app.memory.recall("when do kites fly?", namespace="chat").memories]
    before = everything(app, project_id)  # after the recall: it records the accesses
    stats = before[-1][1]
    assert stats["archived_chunks"] and stats["passages"] and stats["characters"]
    app.close()
    untouched = digest(home / "loci.db")

    there = copied(ends.folder_source(home), ends.database_target(postgres_url))
    assert there.verified and there.blobs >= 1, there
    assert {c.table: c.target_rows for c in there.tables}["memories"] == 28 + 3 + 3
    assert digest(home / "loci.db") == untouched  # the source is only read
    remote = on_database(tmp_path / "server", postgres_url, embedder)
    assert everything(remote, project_id) == before
    found = remote.memory.recall("when do kites fly?", namespace="chat")
    assert [hit.id for hit in found.memories] == asked
    assert remote.memory.get(MERGED_ID).content.startswith("The deploy window")
    remote.memory.remember(MemoryDraft("written after the move"))  # keys go on after the copy's
    changed = everything(remote, project_id)
    remote.close()

    again = copied(ends.database_source(postgres_url), ends.folder_target(back))
    assert again.verified, again
    local = on_folder(back, embedder)
    assert everything(local, project_id) == changed
    local.close()


def test_an_interrupted_copy_resumed_ends_verified(tmp_path, embedder, postgres_url, monkeypatch):
    home = tmp_path / "home"
    app = on_folder(home, embedder)
    fill(app, tmp_path / "project")
    app.close()
    monkeypatch.setattr(move, "BATCH", 4)
    stopped = {"after": 3}

    def stop_in_memories(what: str, done: int, total: int) -> None:
        if what == "memories" and done < total:
            stopped["after"] -= 1
            if not stopped["after"]:
                raise KeyboardInterrupt

    with (
        pytest.raises(KeyboardInterrupt),
        ends.folder_source(home) as source,
        ends.database_target(postgres_url) as target,
    ):
        move.migrate(source, target, stop_in_memories)
    # Half a store is not served, nor touched, until the copy is finished.
    with pytest.raises(StorageUnavailableError, match="Run the same `loci migrate` again"):
        on_database(tmp_path / "server", postgres_url, embedder)
    doctor = run_loci(tmp_path / "server", "--database", postgres_url, "doctor")
    assert doctor.returncode == 1 and "unfinished copy" in doctor.stderr
    resumed = copied(ends.folder_source(home), ends.database_target(postgres_url))
    assert resumed.verified, resumed
    on_database(tmp_path / "server", postgres_url, embedder).close()  # whole: served again
    with pytest.raises(ConflictError, match="already holds a store"):
        copied(ends.folder_source(home), ends.database_target(postgres_url))


def test_a_database_holding_another_store_is_refused(tmp_path, embedder, postgres_url):
    remote = on_database(tmp_path / "server", postgres_url, embedder)
    remote.memory.remember(MemoryDraft("already here"))
    remote.close()
    app = on_folder(tmp_path / "home", embedder)
    app.memory.remember(MemoryDraft("to move"))
    app.close()
    with pytest.raises(ConflictError, match="already holds a store"):
        copied(ends.folder_source(tmp_path / "home"), ends.database_target(postgres_url))
    with sqlite3.connect(tmp_path / "home" / "loci.db") as conn:
        assert conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 1


def test_the_command_copies_verifies_and_says_so(tmp_path, embedder, postgres_url):
    import json

    from tests.cli_runner import run_loci

    home = tmp_path / "home"
    app = on_folder(home, embedder)
    app.memory.remember(MemoryDraft("to move"))
    app.close()
    both = run_loci(home, "migrate", "--to", postgres_url, "--from", postgres_url)
    assert both.returncode == 2 and "exactly one of --to URL and --from URL" in both.stderr
    moved = run_loci(home, "migrate", "--to", postgres_url, "--json")
    assert moved.returncode == 0, moved.stderr
    report = json.loads(moved.stdout)
    assert report["verified"] and report["target"] == masked(postgres_url)
    assert {t["table"]: t["target_rows"] for t in report["tables"]}["memories"] == 1
    again = run_loci(home, "migrate", "--to", postgres_url)
    assert again.returncode == ConflictError.exit_code and "already holds a store" in again.stderr
    nowhere = run_loci(tmp_path / "empty", "migrate", "--to", postgres_url)
    assert nowhere.returncode != 0 and "there is no store" in nowhere.stderr
