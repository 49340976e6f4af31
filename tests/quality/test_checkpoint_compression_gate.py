"""Compression of realistic agent states the shipped dictionary never saw (issue 31, item 18):
one checkpoint at least 5x, a session of 20 successive checkpoints at least 10x."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "checkpoint_corpus.py"


def corpus() -> ModuleType:
    spec = importlib.util.spec_from_file_location("checkpoint_corpus", CORPUS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_realistic_checkpoints_compress_5x_alone_and_10x_as_a_session(app):
    raw = stored = first_raw = first_stored = 0
    for seed in (0, 1):
        for step, state in enumerate(corpus().session(seed)):
            saved = app.checkpoints.save(state, f"gate-{seed}")
            raw, stored = raw + saved.size_bytes, stored + saved.stored_bytes
            if step == 0:
                first_raw += saved.size_bytes
                first_stored += saved.stored_bytes
        last = app.checkpoints.load(checkpoint_id=saved.checkpoint_id).context
        assert json.dumps(last) == json.dumps(state)
    assert first_raw / first_stored >= 5.0
    assert raw / stored >= 10.0
