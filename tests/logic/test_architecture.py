"""Guards: import direction, a light server import, and help on every CLI command."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from loci.faces.cli.main import commands
from tests.layers import (
    SRC,
    exported,
    imports,
    is_package,
    layer_of,
    module_of,
    part_of,
    reaches,
    rendered,
)


def test_imports_flow_one_way():
    for path in SRC.rglob("*.py"):
        module = module_of(path)
        part = part_of(module, package=path.name == "__init__.py")
        for target in imports(path):
            other = part_of(target, package=is_package(target))
            if other != part:
                assert layer_of(other) < layer_of(part), f"{module} imports loci.{target}"


def test_a_new_toolsets_folder_needs_no_line_in_the_layers():
    # A fifth toolset's service may use the engine, as the four loci ships do.
    assert part_of("toolsets.hello.service") == "toolsets.*"
    assert part_of("toolsets.hello", package=True) == "toolsets"  # its declaration
    assert part_of("toolsets.hello.tools") == "toolsets.hello.faces"
    assert layer_of("engine.search") < layer_of("toolsets.*") == layer_of("toolsets.story")


def test_the_architecture_doc_shows_the_layers():
    doc = (SRC.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert rendered() in doc, "docs/architecture.md: paste `python -m tests.layers` into it"


MEMORY_WRITES = re.compile(
    r"(INSERT (OR \w+ )?INTO|UPDATE|DELETE FROM) "
    r"(memories|memory_tags|memory_aliases|memory_validity|memory_conflicts|vector_log|passages|namespaces)\b"
)


def test_only_the_memory_tables_module_writes_them():
    for path in SRC.rglob("*.py"):
        if path.relative_to(SRC).parts[:2] != ("storage", "memory_tables"):
            found = MEMORY_WRITES.search(path.read_text(encoding="utf-8"))
            assert found is None, f"{path.relative_to(SRC)}: {found.group(0) if found else ''}"


#: Reaching through the engine for the parts it holds: a service is given the database it
#: writes in and asks the engine in words ("wrote", "catch_up", "index"); only the search
#: pipeline reads the indexes that answer a search.
ENGINE_REACHES = re.compile(r"\b_?engine\.(?:_?db|_?sync|_?indexes)\b|\b_?engine\._\w+")


def test_no_one_reaches_through_the_engine_for_its_parts():
    allowed = {("engine", "search", "engine.py"), ("engine", "search", "pipeline.py")}
    for path in SRC.rglob("*.py"):
        if path.relative_to(SRC).parts not in allowed:
            found = ENGINE_REACHES.search(path.read_text(encoding="utf-8"))
            assert found is None, f"{path.relative_to(SRC)}: {found.group(0) if found else ''}"


def test_server_module_imports_nothing_heavy():
    code = (
        "import sys; import loci.faces.cli.main, loci.faces.mcp.server; from loci.settings import Settings; "
        "loci.faces.mcp.server.build_server(Settings()).build_toolsets(); "
        "heavy = [m for m in ('numpy', 'onnxruntime', 'tokenizers', 'loci.app', "
        "'loci.storage.databases.sqlite') "
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


def test_every_toolset_declaration_names_parts_that_exist() -> None:
    from loci import toolsets
    from loci.storage.databases.schema import Schema
    from loci.toolsets.toolset import resolved

    assert tuple(toolset.name for toolset in toolsets.TOOLSETS) == toolsets.NAMES
    for toolset in toolsets.TOOLSETS:
        assert toolset.tables() is None or isinstance(toolset.tables(), Schema)
        assert all(callable(module.register) for module in toolset.mcp_modules())
        assert all(callable(module.register) for module in toolset.command_modules())
        assert all(callable(module.routes) for module in toolset.page_modules())
        for where in (toolset.orphans, toolset.doctor, *(w for _, w in toolset.completions)):
            assert where is None or callable(resolved(where)), f"{toolset.name}: {where}"


def test_the_command_lines_former_import_path_still_runs_it() -> None:
    from loci.cli import launch, main
    from loci.faces.cli import launch as launched
    from loci.faces.cli import main as moved

    assert launch.main is launched.main and main.commands is moved.commands
    out = subprocess.run(
        [sys.executable, "-m", "loci.cli", "--help"], capture_output=True, text=True, check=True
    )
    assert "Usage:" in out.stdout


def public_violations() -> list[str]:
    """Each import that reaches into another part past what that part's packages export."""
    found = []
    for path in SRC.rglob("*.py"):
        module = module_of(path)
        part = part_of(module, package=path.name == "__init__.py")
        for target, name in reaches(path):
            other = part_of(target, package=is_package(target))
            if other == part:
                continue
            private = name is not None and name.startswith("_") and not name.startswith("__")
            if name is not None and (private or is_package(target)):
                if private or name not in exported(target):
                    found.append(f"{module} takes {name} from loci.{target}")
            elif target != other:
                holder, _, leaf = target.rpartition(".")
                if leaf.startswith("_") or leaf not in exported(holder):
                    found.append(f"{module} imports loci.{target}")
    return found


def test_parts_reach_each_other_only_through_what_they_export():
    """A package's `__all__` is the list of its modules (and names) other parts may import;
    everything else, and every `_` name, is its own."""
    assert public_violations() == []


def test_the_story_commands_are_listed_with_whole_descriptions() -> None:
    # A newcomer read "Add OTHER as another name of NAME (an epithet such as 'the..." and the
    # group's help named no way from an import to a corrected cast.
    result = CliRunner().invoke(commands(), ["story", "--help"], terminal_width=80)
    listed = result.output.split("Commands:")[1]
    assert "..." not in listed
    assert "suggestions --accept N" in " ".join(result.output.split())
