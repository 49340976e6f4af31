"""Realistic agent states for checkpoint compression, built from public text on every machine.

A coding agent's working state holds repository text (files it read), test logs, git history,
its plan and findings. Here the repository is Python's standard library (its modules and
docstrings), the logs are pytest runs over the names of its tests, and the history is commits
whose messages are first lines of its docstrings. A session is 20 successive states of one
task: each step appends log lines and a commit, edits a file, adds a finding, moves the plan on.

The library's files are split in two by a hash of their names: `part="train"` states (the
zstd dictionary loci ships was trained on those, `make_checkpoint_dictionary.py`) never share a
file with `part="eval"` states (what `bench_checkpoints.py` measures).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sysconfig
from functools import cache
from pathlib import Path
from typing import Any

STDLIB = Path(sysconfig.get_paths()["stdlib"])
TARGET_BYTES = 99 * 1024
STEPS = 20


@cache
def sources(part: str) -> tuple[list[Path], list[str], list[str]]:
    """(module files, test names, docstring first lines) of one half of the library."""

    def mine(path: Path) -> bool:
        digest = hashlib.sha256(path.name.encode()).digest()[0]
        return (digest % 2 == 0) == (part == "train")

    modules = sorted(p for p in STDLIB.glob("*.py") if mine(p) and p.stat().st_size > 4000)
    tests = sorted(p for p in (STDLIB / "test").glob("test_*.py") if mine(p))
    names = [
        f"{test.name}::{name}"
        for test in tests[:200]
        for name in re.findall(r"def (test_\w+)", test.read_text("utf-8", errors="replace"))
    ]
    lines = [
        line.strip()
        for module in modules
        for line in re.findall(r'"""(.+?)\n', module.read_text("utf-8", errors="replace"))
        if 20 < len(line.strip()) < 100
    ]
    return modules, names, lines


def session(seed: int, part: str = "eval", steps: int = STEPS) -> list[dict[str, Any]]:
    """`steps` successive states of one agent's task."""
    rng = random.Random(seed)
    modules, tests, subjects = sources(part)
    files = {
        str(path.relative_to(STDLIB)): path.read_text("utf-8", errors="replace")
        for path in rng.sample(modules, 6)
    }
    state: dict[str, Any] = {
        "workflowId": f"wf-{seed}",
        "goal": f"Fix the failing tests around {rng.choice(subjects)!r} and ship the change.",
        "plan": [{"step": s, "status": "pending"} for s in rng.sample(subjects, 8)],
        "files": {},
        "test_log": [],
        "git_log": [],
        "findings": [],
        "step": 0,
    }
    for name, text in files.items():  # excerpts, so that the state starts near TARGET_BYTES
        start = rng.randrange(max(1, len(text) - 12000))
        state["files"][name] = text[start : start + 12000]
    states = []
    for step in range(steps):
        _advance(state, step, rng, files, tests, subjects)
        states.append(json.loads(json.dumps(state)))
    return states


def _advance(
    state: dict[str, Any],
    step: int,
    rng: random.Random,
    files: dict[str, str],
    tests: list[str],
    subjects: list[str],
) -> None:
    state["step"] = step
    for item in state["plan"][: step // 2 + 1]:
        item["status"] = "done" if item is not state["plan"][step // 2 % 8] else "in progress"
    name = rng.choice(list(files))
    text = files[name]
    start = rng.randrange(max(1, len(text) - 12000))
    state["files"][name] = text[start : start + 12000]  # the agent read another part of a file
    run = [
        f"[{step:02d}:{n:02d}] {test} {'PASSED' if rng.random() > 0.08 else 'FAILED'} "
        f"({rng.uniform(0.001, 2.5):.3f}s)"
        for n, test in enumerate(rng.sample(tests, 40))
    ]
    state["test_log"] = (state["test_log"] + run)[-160:]
    sha = hashlib.sha1(f"{step}{rng.random()}".encode()).hexdigest()
    changed = " | ".join(f"{n} ({rng.randint(1, 40)}+ {rng.randint(0, 20)}-)" for n in files)
    header = f"commit {sha}\nAuthor: Agent <agent@example.com>\nDate: 2026-11-{1 + step:02d}"
    state["git_log"].insert(0, f"{header}\n\n    {rng.choice(subjects)}\n\n {changed}")
    state["findings"].append(
        {"step": step, "note": f"{rng.choice(subjects)} {rng.choice(subjects).lower()}"}
    )
    size = len(json.dumps(state).encode())
    while size > TARGET_BYTES and len(state["test_log"]) > 40:
        state["test_log"] = state["test_log"][40:]
        size = len(json.dumps(state).encode())
