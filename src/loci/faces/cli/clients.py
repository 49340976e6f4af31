"""What to paste into an MCP client's configuration: to start `loci serve` (stdio), or to reach
a running `loci serve --transport http`."""

from __future__ import annotations

import json
import shlex

CLIENTS = ("claude", "claude-code", "cursor", "vscode")


def stdio_snippet(
    client: str, command: str, args: list[str], env: dict[str, str]
) -> tuple[str, str]:
    """Where the snippet goes, and the text to paste there (JSON, or a shell command)."""
    server: dict[str, object] = {"command": command, "args": args}
    if env:
        server["env"] = env
    if client == "claude-code":
        env_flags = "".join(f" -e {key}={shlex.quote(value)}" for key, value in env.items())
        command_line = shlex.join([command, *args])
        return "# run in a shell", f"claude mcp add loci{env_flags} -- {command_line}"
    if client == "vscode":
        server = {"type": "stdio", **server}
        return "// .vscode/mcp.json", json.dumps({"servers": {"loci": server}}, indent=2)
    where = {
        "claude": "// claude_desktop_config.json (Settings > Developer > Edit Config)",
        "cursor": "// ~/.cursor/mcp.json (or .cursor/mcp.json in a project)",
    }[client]
    return where, json.dumps({"mcpServers": {"loci": server}}, indent=2)


def http_snippet(client: str, url: str, token: str | None) -> tuple[str, str]:
    """`stdio_snippet` for a server reached over HTTP (`token`: None when it needs none).
    Claude Desktop's configuration file takes local commands only: it is refused."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if client == "claude-code":
        flags = "".join(f" --header {shlex.quote(f'{k}: {v}')}" for k, v in headers.items())
        return "# run in a shell", f"claude mcp add --transport http loci {url}{flags}"
    server: dict[str, object] = {"url": url, **({"headers": headers} if headers else {})}
    if client == "vscode":
        server = {"type": "http", **server}
        return "// .vscode/mcp.json", json.dumps({"servers": {"loci": server}}, indent=2)
    if client == "cursor":
        where = "// ~/.cursor/mcp.json (or .cursor/mcp.json in a project)"
        return where, json.dumps({"mcpServers": {"loci": server}}, indent=2)
    raise ValueError(
        "Claude Desktop's configuration file starts local servers only; use `loci config "
        "claude` (stdio), or add the URL as a custom connector in its settings"
    )
