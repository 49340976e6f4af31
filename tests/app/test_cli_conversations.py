"""A chat history through `loci import-chat`, in-process on a real data folder."""

from __future__ import annotations

import json

from tests.app.test_conversations import CHAT
from tests.cli_runner import run_loci as loci


def test_import_chat_command(tmp_path):
    chat = tmp_path / "chat.jsonl"
    chat.write_text("\n".join(json.dumps(m) for m in CHAT), encoding="utf-8")
    done = loci(tmp_path / "home", "import-chat", str(chat), "--namespace", "chat", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stored"] == 6
    again = loci(tmp_path / "home", "import-chat", str(chat), "--namespace", "chat")
    assert "stored 0 messages in chat (6 already there, 2 sessions)" in again.stdout
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps([CHAT[0], {"speaker": "x"}]), encoding="utf-8")
    failed = loci(tmp_path / "home", "import-chat", str(broken), "--namespace", "other")
    assert failed.returncode == 2 and "message 1: text is missing" in failed.stderr
    listed = loci(tmp_path / "home", "stats", "--json")
    assert json.loads(listed.stdout)["total_memories"] == 6
