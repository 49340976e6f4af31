"""Shared fixtures: a real App on a temporary folder, with the real model loaded once."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import keyring.backends.fail
import numpy as np
import numpy.typing as npt
import pytest

from loci.app import App, build_app
from loci.engine.embedding.onnx_minilm import OnnxMiniLM
from loci.settings import load_settings
from tests.cli_runner import shared_model
from tests.engines import open_store, store  # noqa: F401  (fixtures)
from tests.postgres import embedded_server, fresh_database
from tests.prose import NOVEL

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


def pytest_configure(config: pytest.Config) -> None:
    """OpenMP threads sleep when idle, as loci makes them when it loads faiss: test modules
    import faiss and scikit-learn themselves, and spinning threads of two test workers would
    take each other's cores."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


@pytest.fixture
def no_os_keychain(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test machine's keychain (if any) stays out of it unless a test installs its own
    (modules that save checkpoints use it: `pytest.mark.usefixtures("no_os_keychain")`)."""
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    yield
    keyring.set_keyring(previous)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The admin URL of a real PostgreSQL server, started once per test process."""
    with embedded_server() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """The URL of a new, empty database (with pgvector) on the test server."""
    with fresh_database(postgres_server) as url:
        yield url


@pytest.fixture(scope="session")
def embedder() -> OnnxMiniLM:
    """The default ONNX model, loaded once per test process (in-process commands share it)."""
    return shared_model()


#: Questions about the dev novel, for searches judged on real embeddings.
NOVEL_QUESTIONS = [
    "Who is going to marry Mr. Bingley?",
    "What did Elizabeth think of Mr. Darcy at the ball?",
    "Where does Mr. Collins live?",
    "Why was Lydia in trouble?",
    "What did Mrs. Bennet want for her daughters?",
    "Who wrote the letter?",
    "How rich is Mr. Darcy?",
    "a walk in the garden at Pemberley",
    "dinner with the officers",
    "the carriage arrived late",
]


@pytest.fixture(scope="session")
def novel_embeddings(
    embedder: OnnxMiniLM, tmp_path_factory: pytest.TempPathFactory
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """(1,500 sentences of the dev novel, 30 queries: questions and other sentences of the
    book), embedded once per test run by the real model: the first test worker to need them
    leaves them in the run's temporary folder for the others."""
    if not NOVEL.exists():
        pytest.skip("../shared/eval is not beside the repository")
    # Under pytest-xdist each worker has a folder of its own inside the run's.
    run_folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run_folder = run_folder.parent
    saved = run_folder / "novel-embeddings.npz"
    if saved.exists():
        with np.load(saved) as arrays:
            return arrays["sentences"], arrays["queries"]
    text = NOVEL.read_bytes().decode("cp1252", errors="replace").replace("\r\n", " ")
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if 5 <= len(s.split()) <= 14]
    embedded = embedder.embed(sentences[:1500])
    queries = embedder.embed(NOVEL_QUESTIONS + sentences[1500:1520])
    partial = saved.with_name(f"{saved.name}.{os.getpid()}.npz")
    np.savez(partial, sentences=embedded, queries=queries)
    partial.replace(saved)  # whole or absent for a worker that looks at the same moment
    return embedded, queries


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (the MCP SDK's and uvicorn's loop)."""
    return "asyncio"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that connects runs on each engine its module lists in `ENGINES` (SQLite only
    where it lists none)."""
    if "engine" in metafunc.fixturenames:
        engines = getattr(metafunc.module, "ENGINES", ("sqlite",))
        if metafunc.definition.get_closest_marker("sqlite_only"):
            engines = ("sqlite",)
        metafunc.parametrize("engine", engines)


@pytest.fixture
def engine_settings(engine: str, request: pytest.FixtureRequest) -> dict[str, Any]:
    """The settings that put the store on `engine` (a fresh PostgreSQL database for each
    test)."""
    if engine == "sqlite":
        return {}
    return {"database_url": request.getfixturevalue("postgres_url")}


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty data folder."""
    return tmp_path / "loci-home"


@pytest.fixture
def app(home: Path, embedder: OnnxMiniLM, engine_settings: dict[str, Any]) -> Iterator[App]:
    """A real App (real model) on an empty data folder: its store on SQLite, or on each
    engine the test module lists in `ENGINES`."""
    built = build_app(load_settings(home=home, **engine_settings), embedder=embedder)
    yield built
    built.close()


@pytest.fixture
def second_app(embedder: OnnxMiniLM, app: App) -> Iterator[App]:
    """Another App on the same store, as a second process (or server) would have."""
    built = build_app(app.settings, embedder=embedder)
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
