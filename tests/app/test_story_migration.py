"""A story written before the cast was kept as names (schema 14) keeps its cast on upgrade."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.settings import load_settings
from loci.storage.databases.schema import run_script
from loci.toolsets.story.lookup import character, entities_of
from tests.logic.test_schema import legacy_scripts

OLD_VERSION = 14


def old_store(path: Path) -> None:
    """A schema-14 store holding one story: two entities, three aliases, a relation and a
    passage naming both."""
    conn = sqlite3.connect(path)
    for script in legacy_scripts(OLD_VERSION):
        run_script(conn, script)
    conn.execute(f"PRAGMA user_version = {OLD_VERSION}")
    conn.execute(
        "INSERT INTO story_sessions (id, name, created_at, updated_at, settings, stream_chars, "
        "stream_tokens, interactions) VALUES (1, 'old', 't', 't', '{}', 60, 15, 1)"
    )
    text = "Mira Voss met Tobias Reed at the pier. Voss laughed."
    conn.execute(
        "INSERT INTO story_pieces (session, interaction, role, start, token_start, content) "
        "VALUES (1, 1, 'user', 0, 0, 'Write the pier.'), (1, 1, 'assistant', 17, 4, ?)",
        (text,),
    )
    for entity, name, mentions in ((10, "Mira Voss", 2), (11, "Tobias Reed", 1)):
        conn.execute(
            "INSERT INTO story_entities (id, session, name, parts, person, place, mentions, "
            "first_pos, last_pos, first_seen) VALUES (?, 1, ?, '{}', 3, 0, ?, 4, 9, ?)",
            (entity, name, mentions, text),
        )
    for key, alias, entity, count in (
        ("mira voss", "Mira Voss", 10, 1),
        ("voss", "Voss", 10, 1),
        ("tobias reed", "Tobias Reed", 11, 1),
    ):
        conn.execute(
            "INSERT INTO story_aliases (session, key, alias, entity, count) VALUES (1, ?, ?, ?, ?)",
            (key, alias, entity, count),
        )
    conn.execute(
        "INSERT INTO story_relations (session, a, b, kind, weight) "
        "VALUES (1, 10, 11, 'appears_with', 2)"
    )
    conn.execute(
        "INSERT INTO story_passages (session, start, end, token_pos, entities, embedding) "
        "VALUES (1, 0, 15, 0, '[]', zeroblob(1536)), (1, 17, 77, 4, '[10, 11]', zeroblob(1536))"
    )
    conn.commit()
    conn.close()


def test_an_old_story_keeps_its_cast_its_passages_and_which_text_was_a_prompt(
    home: Path, embedder: OnnxMiniLM
) -> None:
    home.mkdir(mode=0o700)
    old_store(home / "loci.db")
    app = build_app(load_settings(home=home), embedder=embedder)
    try:
        check(app)
    finally:
        app.close()


def check(app: App) -> None:
    with app.db.snapshot() as conn:
        named = dict(conn.execute("SELECT written, person FROM story_names").fetchall())
        passages = conn.execute(
            "SELECT entities, prompt FROM story_passages ORDER BY start"
        ).fetchall()
        met = conn.execute("SELECT paragraph FROM story_meetings").fetchall()
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert named["Voss"] == named["Mira Voss"] != named["Tobias Reed"]
    prompt, prose = passages
    assert prompt == ("[]", 1) and prose[1] == 0
    assert json.loads(prose[0]) == sorted([named["Mira Voss"], named["Tobias Reed"]])
    assert met == [(2,)]
    assert not {"story_entities", "story_aliases", "story_relations"} & tables
    assert [e.name for e in entities_of(app.story, "old")] == ["Mira Voss"]
    info = character(app.story, "old", "Voss")
    assert info.name == "Mira Voss" and {"Mira Voss", "Voss"} <= set(info.aliases)
    assert [r.name for r in info.relationships] == ["Tobias Reed"]
    assert (
        app.story.export("old", prompts="omit")
        == "Mira Voss met Tobias Reed at the pier. Voss laughed."
    )
    app.story.continue_story("old", "", "Mira Voss sailed at dawn, and Voss sang.")
    assert character(app.story, "old", "Mira Voss").mentions >= 3
