"""What `loci migrate` copies covers every column of the tables it copies: a column a later
migration adds is carried too (the pairs of names a story tells apart, `parted`, were
dropped)."""

from __future__ import annotations

from pathlib import Path

from loci.app import build_app
from loci.migration.tables import TABLES
from loci.settings import load_settings


def test_every_column_of_a_copied_table_is_copied(tmp_path: Path, embedder) -> None:
    settings = load_settings(home=tmp_path, toolsets=["memory", "context", "checkpoints", "story"])
    app = build_app(settings, embedder=embedder)
    with app.db.snapshot() as conn:
        left_out = {
            table.name: sorted(
                {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table.name})")}
                - set(table.columns)
                - {column for column, _ in table.fixed}
            )
            for table in TABLES
        }
    app.close()
    assert {name: columns for name, columns in left_out.items() if columns} == {}
