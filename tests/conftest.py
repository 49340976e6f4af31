"""Shared fixtures: a real App on a temporary folder, with the real model loaded once."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.embedding.onnx_minilm import OnnxMiniLM
from loci.settings import load_settings

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def embedder() -> OnnxMiniLM:
    """The default ONNX model, loaded once per test session."""
    model = OnnxMiniLM()
    model.load()
    return model


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty data folder."""
    return tmp_path / "loci-home"


@pytest.fixture
def app(home: Path, embedder: OnnxMiniLM) -> Iterator[App]:
    """A real App (SQLite file, real model) on an empty data folder."""
    built = build_app(load_settings(home=home), embedder=embedder)
    yield built
    built.close()


@pytest.fixture
def second_app(home: Path, embedder: OnnxMiniLM, app: App) -> Iterator[App]:
    """Another App on the same data folder, as a second process would have."""
    built = build_app(load_settings(home=home), embedder=embedder)
    yield built
    built.close()


def damage_table(database: Path, table: str) -> None:
    """Overwrite the start of `table`'s first page in a closed database file, as a failing
    disk or a sync tool copying a live file might."""
    with sqlite3.connect(database) as conn:
        page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,))
        number = page.fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(database, "r+b") as file:
        file.seek((number - 1) * size)
        file.write(b"\xff" * 64)
