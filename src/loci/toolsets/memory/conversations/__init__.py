"""Conversation histories stored as memories, one message per memory."""

#: What other parts of loci may import from here (the rest is this package's own).
__all__ = ["chat_imports", "exports", "importer", "messages", "models"]
