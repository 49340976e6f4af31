"""Export files written and read a memory per line: round trips, and damaged or cut files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loci.app import App, build_app
from loci.errors import InvalidInputError
from loci.memory.export_files import read_export, write_export
from loci.memory.models import MemoryDraft
from loci.memory.transfer import ImportOptions
from loci.settings import load_settings

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

    content = read_export(path)
    assert content.count == len(TEXTS)
    assert iter(content.memories) is content.memories  # streamed, not a list
    assert content.header["embedding_model"] == app.embedder.identity.name
    options = ImportOptions(recompute_vectors=False)
    assert other.transfer.import_content(content, options).imported == len(TEXTS)
    assert memories_of(other) == memories_of(app)


def test_an_empty_export_and_a_pretty_printed_one_are_read(app, other, tmp_path):
    empty = tmp_path / "empty.json"
    assert export_to(app, empty) == 0
    assert read_export(empty).count == 0
    app.memory.remember_batch([MemoryDraft(t) for t in TEXTS[:3]])
    pretty = tmp_path / "pretty.json"
    document = {**app.transfer.export_header(), "memories": memories_of(app)}
    pretty.write_text(json.dumps(document, indent=2), "utf-8")
    content = read_export(pretty)
    assert content.count == 3
    assert other.transfer.import_content(content, ImportOptions()).imported == 3


def test_a_file_cut_short_is_refused_before_anything_is_imported(app, tmp_path):
    app.memory.remember_batch([MemoryDraft(t) for t in TEXTS])
    path = tmp_path / "export.json"
    export_to(app, path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(InvalidInputError, match="cut short"):
        read_export(path)


def test_a_damaged_line_fails_alone(app, other, tmp_path):
    app.memory.remember_batch([MemoryDraft(t) for t in TEXTS])
    path = tmp_path / "export.json"
    export_to(app, path)
    lines = path.read_bytes().split(b"\n")
    lines[3] = b'{"id": "\xff\xfe not utf-8 or json,'  # the third memory, on line 4
    path.write_bytes(b"\n".join(lines))
    result = other.transfer.import_content(read_export(path), ImportOptions())
    assert result.imported == len(TEXTS) - 1 and result.failed == 1
    assert result.errors[0].index == 2 and "line 4" in result.errors[0].message
