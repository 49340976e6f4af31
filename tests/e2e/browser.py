"""Debian's chromium driven by Playwright (pointed at the system browser: nothing is
downloaded), for the web view's tests."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("LOCI_TEST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
#: Without the background-networking flags chromium keeps calling Google's hosts, which a
#: closed network refuses; as root it needs --no-sandbox.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Longest a page or an element is waited for (ms): bounded waits, never sleeps.
WAIT_MS = 30_000


def need_chromium() -> None:
    """Skip (with the reason) where the system browser or Playwright is missing; `.ci/run`
    installs both."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (apt install chromium; .ci/run does)")
    pytest.importorskip("playwright.sync_api", reason="pip install playwright (a dev extra)")


@contextmanager
def chromium() -> Iterator[object]:
    """A headless chromium, closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def screenshots_folder(tmp_path: Path) -> Path:
    """Where the tests save their screenshots: `LOCI_SCREENSHOTS` (the README's are
    refreshed with `LOCI_SCREENSHOTS=docs/screenshots`), else the test's own folder."""
    chosen = os.environ.get("LOCI_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
