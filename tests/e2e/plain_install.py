"""The path of a plain install (`pip install .`, no extras): what a newcomer runs first.

`loci doctor` on a new data folder, then over stdio MCP a `remember` and a `recall` that
finds it, then a small `loci story import`; and a database URL refused with a message that
names the extra to install. Uses only loci's own dependencies (no pytest), so that `.ci/run`
can run it with the interpreter of a venv made by a plain install::

    .venv-plain/bin/python tests/e2e/plain_install.py

`test_plain_install.py` runs the same steps with the PostgreSQL driver hidden.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import anyio

from mcp import Client, StdioServerParameters

STORY = """Chapter One

Mara Quill kept the lighthouse at Gull Point, and every evening she climbed the ninety steps
with a can of oil and a book she never finished.

Her brother Tobin rowed out from the harbour on Sundays with bread, newspapers and news of
the mainland, which Mara pretended not to want.
"""


def loci(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m loci ARGS` on the data folder `home`."""
    environment = {**own_environment(), "LOCI_HOME": str(home), **env}
    return subprocess.run(
        [sys.executable, "-m", "loci", *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )


def own_environment() -> dict[str, str]:
    """This process's environment without a database URL: the steps run on SQLite."""
    return {name: value for name, value in os.environ.items() if name != "LOCI_DATABASE_URL"}


def check(done: subprocess.CompletedProcess[str], what: str, code: int = 0) -> None:
    """Stop with what the command printed when it did not exit with `code`."""
    if done.returncode != code:
        raise SystemExit(
            f"{what}: exit {done.returncode}, expected {code}\n{done.stdout}\n{done.stderr}"
        )


async def remember_and_recall(home: Path) -> None:
    """A memory stored over stdio MCP is found again by a question about it."""
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "loci", "serve"],
        env={**own_environment(), "LOCI_HOME": str(home)},
    )
    async with Client(server, read_timeout_seconds=300) as client:
        stored = await client.call_tool(
            "remember", {"content": "The lighthouse keeper feeds the cats on Tuesdays."}
        )
        if stored.is_error or not stored.structured_content:
            raise SystemExit(f"remember failed: {stored.content}")
        memory_id = stored.structured_content["id"]
        found = await client.call_tool("recall", {"query": "who feeds the cats?"})
        if found.is_error or not found.structured_content:
            raise SystemExit(f"recall failed: {found.content}")
        ids = [hit["id"] for hit in found.structured_content["memories"]]
        if memory_id not in ids:
            raise SystemExit(f"recall did not find the memory {memory_id}: {ids}")


def run() -> None:
    """Every step; raises SystemExit with the failing step's output."""
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        check(loci(home, "doctor"), "loci doctor")
        anyio.run(remember_and_recall, home)
        book = Path(folder) / "lighthouse.txt"
        book.write_text(STORY, encoding="utf-8")
        imported = loci(home, "story", "import", str(book), "--session", "gull-point")
        check(imported, "loci story import")
        exported = loci(home, "story", "export", "gull-point")
        check(exported, "loci story export")
        if "Mara Quill kept the lighthouse" not in exported.stdout:
            raise SystemExit(f"the imported story is not in the session:\n{exported.stdout}")
        url = "postgresql://loci@127.0.0.1:9/loci"
        refused = loci(home, "stats", LOCI_DATABASE_URL=url)
        check(refused, "loci stats with a database URL and no driver", code=9)
        if '".[postgres]"' not in refused.stderr:
            raise SystemExit(f"the refusal does not name the extra:\n{refused.stderr}")


if __name__ == "__main__":
    run()
    print("plain install: doctor, remember, recall, story import and the driver's refusal ok")
