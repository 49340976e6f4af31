"""Conversation histories stored as memories, one message per memory."""
