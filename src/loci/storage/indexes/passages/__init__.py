"""Passages of long memories: the in-process index and PostgreSQL's."""
