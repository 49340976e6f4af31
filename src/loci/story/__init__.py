"""The story toolset: a virtual infinite context for long writing sessions."""
