"""A toy fifth toolset, added the way a real one is: this folder, and one line in the
registry (`tests/mcp/test_toy_toolset.py` adds that line for the test's length)."""

from loci.toolsets.toolset import Toolset

TOOLSET = Toolset(
    name="toy",
    summary="notes on a pinboard: shows what a toolset plugs into",
    build="tests.toy_toolset.wiring:build",
    schema="tests.toy_toolset.schema:TOY_SCHEMA",
    mcp=("tests.toy_toolset.tools",),
    commands=("tests.toy_toolset.commands",),
    pages=("tests.toy_toolset.pages",),
    orphans="tests.toy_toolset.board:orphaned_files",
)
