"""A ChatGPT data export of any size, made from the shapes of tests/fixtures/chats/chatgpt:
conversations with a hidden system root, the profile node, regenerated answers and edited
prompts (branches), thoughts, images, code and its output, and the metadata each node of a real
export carries. Message texts are sentences of the dev novels (numbered past the first round,
so that every text is distinct), user turns short, answers a paragraph or a few.

    python benchmarks/chat_exports.py OUT.zip [--megabytes 100]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "eval"
#: Newer exports split conversations over files of about this size.
SPLIT_BYTES = 25_000_000
START = 1_640_995_200.0  # 2022-01-01


class Texts:
    """Distinct texts cut from the dev novels."""

    def __init__(self, rng: random.Random) -> None:
        sentences: list[str] = []
        for path in sorted((SHARED / "novels").glob("*.txt")):
            text = path.read_bytes().decode("cp1252", errors="replace").replace("\r\n", " ")
            sentences += [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) > 4]
        self._sentences = sentences
        self._rng = rng
        self._next = 0

    def take(self, count: int) -> str:
        picked = []
        for _ in range(count):
            round_, index = divmod(self._next, len(self._sentences))
            self._next += 1
            sentence = self._sentences[index]
            picked.append(sentence if round_ == 0 else f"{sentence} ({round_})")
        return " ".join(picked)


def _node(
    node_id: str,
    parent: str | None,
    role: str | None,
    content: dict[str, object] | None,
    moment: float,
    hidden: bool = False,
    recipient: str = "all",
) -> dict[str, object]:
    message = None
    if role is not None:
        metadata: dict[str, object] = {
            "citations": [],
            "content_references": [],
            "message_type": None,
            "model_slug": "gpt-4o",
            "default_model_slug": "gpt-4o",
            "request_id": uuid.uuid4().hex[:16],
            "timestamp_": "absolute",
            "finish_details": {"type": "stop", "stop_tokens": [200002]},
            "is_complete": True,
            "parent_id": parent,
        }
        if hidden:
            metadata["is_visually_hidden_from_conversation"] = True
        message = {
            "id": node_id,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": moment,
            "update_time": None,
            "content": content,
            "status": "finished_successfully",
            "end_turn": role == "assistant",
            "weight": 1.0,
            "metadata": metadata,
            "recipient": recipient,
            "channel": None,
        }
    return {"id": node_id, "message": message, "parent": parent, "children": []}


def conversation(texts: Texts, rng: random.Random, moment: float) -> dict[str, object]:
    """One conversation of 3-30 exchanges, with the odd branch, thought, image and code run."""
    mapping: dict[str, dict[str, object]] = {}

    def add(parent: str | None, role: str | None, content: object, **kw: object) -> str:
        node_id = str(uuid.uuid4())
        mapping[node_id] = _node(node_id, parent, role, content, moment, **kw)  # type: ignore[arg-type]
        if parent is not None:
            mapping[parent]["children"].append(node_id)  # type: ignore[attr-defined]
        return node_id

    text = lambda n: {"content_type": "text", "parts": [texts.take(n)]}  # noqa: E731
    last = add(None, None, None)
    last = add(last, "system", {"content_type": "text", "parts": [""]}, hidden=True)
    if rng.random() < 0.3:
        profile = {
            "content_type": "user_editable_context",
            "user_profile": "I teach.",
            "user_instructions": "",
        }
        last = add(last, "user", profile, hidden=True)
    for _ in range(rng.randint(3, 30)):
        moment += rng.uniform(20, 600)
        if rng.random() < 0.1:
            add(last, "user", text(1))  # an edited prompt: the first draft stays as a branch
        if rng.random() < 0.08:
            parts = [
                {
                    "content_type": "image_asset_pointer",
                    "asset_pointer": "file-service://file-x",
                    "size_bytes": 90000,
                    "width": 800,
                    "height": 600,
                },
                texts.take(1),
            ]
            last = add(last, "user", {"content_type": "multimodal_text", "parts": parts})
        else:
            last = add(last, "user", text(rng.randint(1, 3)))
        if rng.random() < 0.15:
            last = add(
                last,
                "assistant",
                {
                    "content_type": "thoughts",
                    "thoughts": [{"summary": "Thinking", "content": texts.take(2)}],
                },
            )
        if rng.random() < 0.05:
            last = add(
                last,
                "assistant",
                {"content_type": "code", "language": "python", "text": "print(sum(range(10)))"},
                recipient="python",
            )
            last = add(last, "tool", {"content_type": "execution_output", "text": "45"})
        if rng.random() < 0.1:
            add(last, "assistant", text(rng.randint(3, 10)))  # a regenerated answer: a branch
        last = add(last, "assistant", text(rng.randint(3, 14)))
    conversation_id = str(uuid.uuid4())
    return {
        "title": texts.take(1)[:60],
        "create_time": min(m["message"]["create_time"] for m in mapping.values() if m["message"]),  # type: ignore[index]
        "update_time": moment,
        "mapping": mapping,
        "moderation_results": [],
        "current_node": last,
        "plugin_ids": None,
        "conversation_id": conversation_id,
        "conversation_template_id": None,
        "gizmo_id": None,
        "is_archived": False,
        "safe_urls": [],
        "default_model_slug": "gpt-4o",
        "id": conversation_id,
    }


def conversations(seed: int = 7) -> Iterator[str]:
    """Conversations as JSON text, one after another, a day or two apart."""
    rng = random.Random(seed)
    texts = Texts(rng)
    moment = START
    while True:
        moment += rng.uniform(3_600, 150_000)
        yield json.dumps(conversation(texts, rng, moment), ensure_ascii=False)


def write_export(out: Path, megabytes: float) -> int:
    """A zip as ChatGPT gives it: `conversations-000.json`, ... holding `megabytes` MB of
    conversations, and `user.json`; written a conversation at a time. Returns the JSON bytes."""
    target = int(megabytes * 1_000_000)
    written = 0
    made = conversations()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("user.json", json.dumps({"id": "user-1", "email": "a@example.com"}))
        number = 0
        while written < target:
            with archive.open(f"conversations-{number:03d}.json", "w") as part:
                size = 0
                part.write(b"[")
                while size < SPLIT_BYTES and written + size < target:
                    data = (", " if size else "").encode() + next(made).encode()
                    part.write(data)
                    size += len(data)
                part.write(b"]")
            written += size + 2
            number += 1
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--megabytes", type=float, default=100)
    args = parser.parse_args()
    print(f"wrote {write_export(args.out, args.megabytes):,} bytes of conversations to {args.out}")
