"""Export files written and read a memory per line: round trips, and damaged or cut files."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.errors import InvalidInputError
from loci.settings import load_settings
from loci.toolsets.memory import export_files
from loci.toolsets.memory.export_files import LIST_OPENS, read_export, write_export
from loci.toolsets.memory.models import MemoryDraft
from loci.toolsets.memory.transfer import ImportOptions

LIMIT = load_settings().import_max_bytes
TEXTS = [f"Note {n}: the build on Friday needs the café's wifi ✓" for n in range(7)]


def export_to(app: App, path: Path, vectors: bool = True) -> int:
    with path.open("w", encoding="utf-8") as out:
        return write_export(
            out, app.transfer.export_header(), app.transfer.iter_export(None, vectors)
        )


def memories_of(app: App) -> list[dict]:
    return [m.model_dump() for m in app.transfer.iter_export(None, include_vectors=True)]


@pytest.fixture
def other(tmp_path, embedder):
    built = build_app(load_settings(home=tmp_path / "other"), embedder=embedder)
    yield built
    built.close()


def test_an_export_file_is_one_json_document_read_a_memory_at_a_time(app, other, tmp_path):
    app.memory.remember_batch(
        [MemoryDraft(t, tags=["ops"], metadata={"n": i}) for i, t in enumerate(TEXTS)]
    )
    path = tmp_path / "export.json"
    assert export_to(app, path) == len(TEXTS)
    written = json.loads(path.read_text("utf-8"))["memories"]
    assert len(written) == len(TEXTS)
    # float32's shortest decimals (at most 9 digits), not a double's 17: about half the size.
    numbers = path.read_text("utf-8").split('"vector":[')[1].split("]")[0].split(",")
    assert len(numbers) == 384 and max(len(n.lstrip("-")) for n in numbers) <= 15

    content = read_export(path, LIMIT)
    assert content.count == len(TEXTS)
    assert iter(content.memories) is content.memories  # streamed, not a list
    assert content.header["embedding_model"] == app.embedder.identity.name
    options = ImportOptions(recompute_vectors=False)
    assert other.transfer.import_content(content, options).imported == len(TEXTS)
    assert memories_of(other) == memories_of(app)


def test_an_empty_export_and_a_pretty_printed_one_are_read(app, other, tmp_path):
    empty = tmp_path / "empty.json"
    assert export_to(app, empty) == 0
    assert read_export(empty, LIMIT).count == 0
    app.memory.remember_batch([MemoryDraft(t) for t in TEXTS[:3]])
    pretty = tmp_path / "pretty.json"
    document = {**app.transfer.export_header(), "memories": memories_of(app)}
    pretty.write_text(json.dumps(document, indent=2), "utf-8")
    content = read_export(pretty, LIMIT)
    assert content.count == 3
    assert other.transfer.import_content(content, ImportOptions()).imported == 3


def test_a_file_cut_short_is_refused_before_anything_is_imported(app, tmp_path):
    app.memory.remember_batch([MemoryDraft(t) for t in TEXTS])
    path = tmp_path / "export.json"
    export_to(app, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidInputError, match="cut short"):
        read_export(path, LIMIT)


def test_a_damaged_line_fails_alone(app, other, tmp_path):
    app.memory.remember_batch([MemoryDraft(t) for t in TEXTS])
    path = tmp_path / "export.json"
    export_to(app, path)
    lines = path.read_bytes().split(b"\n")
    lines[3] = b'{"id": "\xff\xfe not utf-8 or json,'  # the third memory, on line 4
    path.write_bytes(b"\n".join(lines))
    result = other.transfer.import_content(read_export(path, LIMIT), ImportOptions())
    assert result.imported == len(TEXTS) - 1 and result.failed == 1
    assert result.errors[0].index == 2 and "line 4" in result.errors[0].message


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
def test_an_endless_device_is_refused_at_its_first_bytes():
    with pytest.raises(InvalidInputError, match="does not start as a JSON object"):
        read_export(Path("/dev/zero"), LIMIT)


def test_a_file_over_the_limit_is_refused(app, tmp_path):
    app.memory.remember_batch([MemoryDraft(t) for t in TEXTS])
    path = tmp_path / "export.json"
    export_to(app, path)
    with pytest.raises(InvalidInputError, match="LOCI_IMPORT_MAX_BYTES") as refused:
        read_export(path, path.stat().st_size - 1)
    assert refused.value.details["limit"] == path.stat().st_size - 1
    assert read_export(path, path.stat().st_size).count == len(TEXTS)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_pipe_that_never_ends_stops_at_the_limit(tmp_path):
    pipe = tmp_path / "endless"
    os.mkfifo(pipe)
    header = ('{"version": 1' + LIST_OPENS + "\n").encode()
    line = b'{"content": "again"},\n'

    def write_forever() -> None:
        try:
            with open(pipe, "wb") as out:
                out.write(header)
                while True:
                    out.write(line * 1000)
        except BrokenPipeError:
            pass  # the reader stopped: what the test wants

    writer = threading.Thread(target=write_forever, daemon=True)
    writer.start()
    with pytest.raises(InvalidInputError, match="LOCI_IMPORT_MAX_BYTES"):
        read_export(pipe, 1024 * 1024)
    writer.join(timeout=30)
    assert not writer.is_alive()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_an_export_through_a_pipe_is_read_once_and_its_copy_removed(app, tmp_path, monkeypatch):
    for text in TEXTS:
        app.memory.remember(MemoryDraft(text))
    exported = tmp_path / "export.json"
    export_to(app, exported)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    spool = tmp_path / "spool"
    spool.mkdir()
    monkeypatch.setattr(export_files.tempfile, "tempdir", str(spool))

    def write_once() -> None:
        with open(pipe, "wb") as out:
            out.write(exported.read_bytes())

    writer = threading.Thread(target=write_once, daemon=True)
    writer.start()
    content = read_export(pipe, LIMIT)
    writer.join(timeout=30)
    assert not writer.is_alive()
    assert content.count == len(TEXTS)
    assert [copy.stat().st_mode & 0o777 for copy in spool.iterdir()] == [0o600]
    assert [memory["content"] for memory in content.memories] == TEXTS
    assert list(spool.iterdir()) == []  # the private copy is gone once read


def test_an_overlong_line_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(export_files, "LINE_MAX", 4096)
    path = tmp_path / "long.json"
    path.write_text('{"version": 1' + LIST_OPENS + "\n" + "x" * 5000 + "\n]}\n", "utf-8")
    with pytest.raises(InvalidInputError, match=r"line 2 .* longer than 4,096 bytes"):
        read_export(path, LIMIT)


def test_a_large_document_read_whole_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(export_files, "WHOLE_MAX", 4096)
    path = tmp_path / "pretty.json"
    path.write_text(json.dumps({"memories": [{"content": "x" * 5000}]}, indent=2), "utf-8")
    with pytest.raises(InvalidInputError, match="loci export"):
        read_export(path, LIMIT)
