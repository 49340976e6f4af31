"""On chats nobody tuned the contradiction rules for (the LoCoMo dev conversations, each turn
remembered as "Speaker: text" in its conversation's namespace), almost nothing is flagged:
small talk, events and plans are no facts that change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loci.app import App
from loci.toolsets.memory.models import MemoryDraft

LOCOMO = Path(__file__).resolve().parents[2].parent / "shared/eval/locomo/locomo_dev.json"
#: Flags allowed on the 2,760 turns (none today).
MOST_FLAGS = 5


@pytest.mark.skipif(not LOCOMO.exists(), reason="needs ../shared/eval/locomo (public eval data)")
def test_few_flags_on_chats(app: App) -> None:
    flags = 0
    for sample in json.loads(LOCOMO.read_text(encoding="utf-8")):
        conversation = sample["conversation"]
        sessions = sorted(k for k in conversation if k.startswith("session_") and "date" not in k)
        for session in sessions:
            for turn in conversation[session]:
                if turn.get("text"):
                    draft = MemoryDraft(f"{turn['speaker']}: {turn['text']}", sample["sample_id"])
                    flags += len(app.facts.remember(draft, "keep").conflicts)
    assert flags <= MOST_FLAGS
