"""A coding agent's tool call as one line of the conversation: "ran: pytest -q"."""

from __future__ import annotations

import contextlib
import json

from loci.toolsets.memory.conversations.exports.shaping import trimmed

#: What the call did, by the tool's name (Claude Code's, Codex's and Gemini CLI's names), and
#: the argument that says it best.
VERBS = {
    "bash": ("ran", ("command", "cmd")),
    "shell": ("ran", ("command", "cmd")),
    "run_shell_command": ("ran", ("command",)),
    "read": ("read", ("file_path", "path", "absolute_path")),
    "read_file": ("read", ("file_path", "path", "absolute_path")),
    "edit": ("edited", ("file_path", "path")),
    "multiedit": ("edited", ("file_path", "path")),
    "replace": ("edited", ("file_path", "path")),
    "write": ("wrote", ("file_path", "path")),
    "write_file": ("wrote", ("file_path", "path")),
    "grep": ("searched for", ("pattern", "query")),
    "search_file_content": ("searched for", ("pattern",)),
    "glob": ("looked for files", ("pattern",)),
    "webfetch": ("fetched", ("url",)),
    "web_fetch": ("fetched", ("url", "prompt")),
    "websearch": ("searched the web for", ("query",)),
    "web_search": ("searched the web for", ("query",)),
    "google_web_search": ("searched the web for", ("query",)),
}
#: Characters of a call's arguments kept.
ARGUMENT_CHARS = 200


def tool_line(name: str, arguments: object) -> str:
    """`name` called with `arguments` (a dict, or JSON text of one) as one short line."""
    if isinstance(arguments, str):
        with contextlib.suppress(json.JSONDecodeError):
            arguments = json.loads(arguments)
    verb, keys = VERBS.get(name.lower(), (f"used {name or 'a tool'}", ()))
    if isinstance(arguments, dict):
        for key in keys:
            value = arguments.get(key)
            if isinstance(value, list):
                value = " ".join(str(v) for v in value)
            if isinstance(value, str) and value.strip():
                return f"{verb}: {trimmed(value, ARGUMENT_CHARS)}"
        shown = json.dumps(arguments, ensure_ascii=False) if arguments else ""
    else:
        shown = "" if arguments is None else str(arguments)
    return f"{verb}: {trimmed(shown, ARGUMENT_CHARS)}" if shown else verb
