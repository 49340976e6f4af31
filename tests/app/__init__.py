"""Tests through the App: real SQLite files (and PostgreSQL), the real model."""
