"""loci's layers: each part of `src/loci` imports only from lower layers.

`docs/architecture.md`'s map is this table rendered (`python -m tests.layers` prints it; a
test checks the doc holds it). A part is a package or module named by its dotted path under
`loci`; a module belongs to the longest part its path starts with, except a toolset's faces
(its MCP tools and prompts, command-line commands and web pages: modules named `tools`,
`prompts`, `commands`, `pages` or ending in `_commands`, `_page` or `_pages`) and its
`wiring` (how the composition root builds its services) sit above the faces they plug into
and the root that builds them. A toolset's `__init__` is its declaration, read by the
registry (`loci.toolsets`) below everything that names toolsets. A toolset added beside the
four loci ships sits where theirs do, with no line here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "loci"

#: (layer, part, what it is), lowest first.
LAYERS: tuple[tuple[int, str, str], ...] = (
    (0, "__init__", "the version"),
    (0, "errors", "loci's error types, each with a code and a structured payload"),
    (0, "timeutil", "time stamps"),
    (0, "heap", "top-k selection"),
    (0, "wording", "counted nouns in messages"),
    (1, "fields", "limits and shapes of the fields every face checks"),
    (1, "database_url", "telling a PostgreSQL URL from a path, and masking its password"),
    (1, "token_count", "counting text in model tokens (BPE)"),
    (1, "sentences", "the one sentence splitter"),
    (1, "engine.embedding", "the Embedder Protocol and the bundled ONNX model"),
    (1, "storage.files", "files a person may open: written atomically, private to the user"),
    (2, "storage.databases", "the Database Protocol, the schema runner, SQLite and PostgreSQL"),
    (3, "storage.memory_tables", "the memory tables and every statement on them"),
    (4, "storage.indexes", "the indexes derived from them: vectors, keywords, passages, facets"),
    (5, "toolsets", "the registry: each toolset's declaration (name, tables, faces)"),
    (5, "engine.sequences", "ordered groups of memories (conversations, stories)"),
    (6, "engine.search", "the engine: model and synced indexes; the search; filters; ranking"),
    (6, "settings", "configuration from flags, environment and loci.toml"),
    (7, "access", "HTTP access tokens and their grants"),
    (7, "toolsets.memory", "the memory toolset's services"),
    (8, "toolsets.context", "the context toolset's services"),
    (8, "toolsets.checkpoints", "the checkpoints toolset's services"),
    (8, "toolsets.story", "the story toolset's services"),
    (8, "toolsets.*", "any other toolset's services (a new toolset's folder)"),
    (9, "store", "opening a store's database: every owner's tables, the hooks of its writes"),
    (10, "app", "the composition root: builds every service from the settings"),
    (11, "migration", "loci migrate: copying a store between engines"),
    (11, "evaluation", "quality measured on public data sets"),
    (11, "faces.mcp", "the MCP server: grants, scoping, errors, the toolsets' registration"),
    (12, "faces.web", "the web view's frame: sessions, login, security, templates"),
    (13, "faces.http", "the HTTP server: MCP over streamable HTTP, tokens, the web view"),
    (14, "faces.cli", "the loci command"),
    (15, "cli", "the command line's former import path (entry points made before the move)"),
    (15, "toolsets.*.faces", "each toolset's MCP tools and prompts, commands, pages, wiring"),
    (16, "__main__", "python -m loci"),
)

#: Folders that group parts; their `__init__` only says what they hold, so imports nothing.
GROUPS = ("engine", "faces", "storage")

FACE_MODULE = re.compile(
    r"^(tools|prompts|resources|commands|pages|wiring|\w+_tools|\w+_commands|\w+_page|\w+_pages)$"
)


def module_of(path: Path) -> str:
    """The dotted name under `loci` of the module at `path`."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def part_of(module: str, *, package: bool = False) -> str:
    """The part `module` belongs to (`package`: it is a package's `__init__`)."""
    names = module.split(".")
    if module in GROUPS:
        return module
    if names[0] == "toolsets":
        if len(names) == 1 or names[1] == "toolset" or (len(names) == 2 and package):
            return "toolsets"
        if FACE_MODULE.match(names[-1]):
            return f"toolsets.{names[1]}.faces"
    known = {part for _, part, _ in LAYERS}
    if names[0] == "toolsets" and ".".join(names[:2]) not in known:
        return "toolsets.*"  # a toolset added beside the four: its folder is all it needs
    for end in range(len(names), 0, -1):
        if ".".join(names[:end]) in known:
            return ".".join(names[:end])
    raise KeyError(f"{module} has no layer")


def layer_of(part: str) -> int:
    """The layer of `part`."""
    if part in GROUPS:
        return -1
    key = "toolsets.*.faces" if part.endswith(".faces") else part
    return next(layer for layer, name, _ in LAYERS if name == key)


def imports(path: Path) -> set[str]:
    """The modules of loci that the module at `path` imports (packages as their `__init__`)."""
    return {module for module, _ in reaches(path)}


def reaches(path: Path) -> Iterator[tuple[str, str | None]]:
    """Each (module, name) the module at `path` imports from loci: `name` is what it takes from
    a package's `__init__`, None where it imports a module itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "loci":
            base = node.module.split(".")[1:]
            for alias in node.names:
                child = SRC.joinpath(*base, alias.name)
                if child.with_suffix(".py").exists() or child.is_dir():
                    yield ".".join([*base, alias.name]), None
                else:
                    yield ".".join(base) or "__init__", alias.name
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("loci."):
                    yield a.name.removeprefix("loci."), None


def exported(package: str) -> tuple[str, ...]:
    """The `__all__` of `package` (a dotted name under `loci`; "" for loci itself), read
    without importing it; () when it has none."""
    init = SRC.joinpath(*filter(None, package.split(".")), "__init__.py")
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            value = ast.literal_eval(node.value)  # type: ignore[union-attr]
            return tuple(value)
    return ()


def is_package(module: str) -> bool:
    """Whether `module` is a package (its `__init__`)."""
    return SRC.joinpath(*module.split(".")).is_dir()


def rendered() -> str:
    """The map of the layers, as `docs/architecture.md` shows it."""
    lines = ["| layer | part | what it is |", "|---:|---|---|"]
    lines += [f"| {layer} | `{part}` | {what} |" for layer, part, what in LAYERS]
    return "\n".join(lines)


if __name__ == "__main__":
    print(rendered())
