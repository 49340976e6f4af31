"""Guards: import direction, a light server import, and help on every CLI command."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from loci.cli.main import commands

SRC = Path(__file__).resolve().parents[2] / "src" / "loci"
#: Every package and top-level module, by layer: each imports only from lower layers.
LAYERS = {
    "__main__": 12,
    "cli": 11,
    "http": 10,
    "web": 9,
    "mcp": 8,
    "migration": 8,
    "evaluation": 8,
    "app": 7,
    "contextdocs": 6,
    "checkpoints": 6,
    "conversations": 6,
    "story": 6,
    "spatial": 6,
    "lifecycle": 6,
    "memory": 5,
    "search": 4,
    "sequences": 3,
    "access": 3,
    "storage": 2,
    "embedding": 1,
    "settings": 2,
    "fields": 1,
    "database_url": 1,
    "tokens": 1,
    "errors": 0,
    "timeutil": 0,
    "heap": 0,
    "wording": 0,
    "__init__": 0,
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "loci":
            # `from loci import x`: a package or module, else a name of loci/__init__.py
            found.update(
                a.name if (SRC / a.name).exists() or (SRC / f"{a.name}.py").exists() else "__init__"
                for a in node.names
            )
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("loci."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("loci."))
    return found


def test_imports_flow_one_way():
    for path in SRC.rglob("*.py"):
        part = path.relative_to(SRC).parts[0].removesuffix(".py")
        assert part in LAYERS, f"{part} has no layer in this guard"
        for target in _imports(path) - {part}:
            assert LAYERS[target] < LAYERS[part], f"{path.relative_to(SRC)} imports loci.{target}"


MEMORY_WRITES = re.compile(
    r"(INSERT (OR \w+ )?INTO|UPDATE|DELETE FROM) "
    r"(memories|memory_tags|memory_aliases|vector_log|passages|namespaces)\b"
)


def test_only_storage_writes_the_memory_tables():
    for path in SRC.rglob("*.py"):
        if path.relative_to(SRC).parts[0] != "storage":
            found = MEMORY_WRITES.search(path.read_text(encoding="utf-8"))
            assert found is None, f"{path.relative_to(SRC)}: {found.group(0) if found else ''}"


def test_server_module_imports_nothing_heavy():
    code = (
        "import sys; import loci.cli.main, loci.mcp.server; from loci.settings import Settings; "
        "loci.mcp.server.build_server(Settings()).build_toolsets(); "
        "heavy = [m for m in ('numpy', 'onnxruntime', 'tokenizers', 'loci.app', 'loci.storage.sqlite') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_modules_stay_small():
    for path in SRC.rglob("*.py"):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 400, f"{path.relative_to(SRC)} has {lines} lines"


@pytest.mark.parametrize(
    "name",
    [
        "serve",
        "config",
        "remember",
        "recall",
        "forget",
        "stats",
        "namespaces",
        "export",
        "import",
        "reindex",
        "doctor",
        "import-chat",
        "eval locomo",
        "context init",
        "context list",
        "context show",
        "context check",
        "context edit",
        "context update",
        "context history",
        "context templates",
        "checkpoints list",
        "checkpoints show",
        "checkpoints export",
        "checkpoints gc",
        "checkpoints rotate-key",
    ],
)
def test_every_command_has_help(name):
    cli = commands()
    assert name.split()[0] in cli.commands
    result = CliRunner().invoke(cli, [*name.split(), "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output and len(result.output) > 80
