"""Reading other apps' chat exports: one module per app (ChatGPT, Claude.ai, Claude Code,
Codex CLI, Gemini CLI), over the files of an export and the records they hold."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = [
    "chatgpt",
    "claude_ai",
    "claude_code",
    "codex",
    "detect",
    "documents",
    "files",
    "gemini",
    "records",
    "shaping",
]
