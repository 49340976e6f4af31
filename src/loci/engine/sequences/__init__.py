"""Ordered groups of memories: their members and positions, and their keyword documents."""
