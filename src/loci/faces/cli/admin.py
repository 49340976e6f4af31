"""Maintenance commands: reindex and doctor."""

from __future__ import annotations

import os
import sqlite3
from typing import Any

import click

from loci.errors import LociError
from loci.faces.cli.output import (
    CliState,
    emit_fields,
    emit_json,
    json_option,
    opened_app,
    progress_bar,
    run,
)
from loci.storage.memory_tables import sequence_documents as documents
from loci.wording import counted


def register(group: click.Group) -> None:
    """Add the maintenance commands to the `loci` group."""
    group.add_command(reindex)
    group.add_command(doctor)


@click.command()
@click.option("--force", is_flag=True, help="Re-embed every memory even if the model is unchanged.")
@json_option
@click.pass_obj
def reindex(state: CliState, force: bool, as_json: bool) -> None:
    """Rebuild the vector index, the keyword index and the sequences' keyword documents
    from SQLite; re-embed every memory if the model changed, and damaged vectors always."""

    def work() -> None:
        with opened_app(state) as app, progress_bar(as_json) as bar:
            task = bar.add_task("reindexing", total=None)
            report = app.transfer.reindex(
                force, lambda done, total: bar.update(task, completed=done, total=total)
            )
        if as_json:
            emit_json(report)
        else:
            click.echo(
                f"{counted(report['memories'], 'memory', 'memories')}, "
                f"{report['re_embedded']} re-embedded with "
                f"{report['model']}{_damaged(report['damaged_vectors'])}, "
                f"{report['indexed']} indexed, "
                f"{counted(report['passages_embedded'], 'long memory', 'long memories')} cut "
                f"into passages, {counted(report['sequences'], 'sequence')} rebuilt"
            )

    run(work)


def _damaged(vectors: int) -> str:
    return f" ({vectors} because their vectors were damaged)" if vectors else ""


@click.command()
@json_option
@click.pass_obj
def doctor(state: CliState, as_json: bool) -> None:
    """Check the data folder, database, model and index; say what is wrong."""

    def work() -> None:
        report = diagnose(state)
        if as_json:
            emit_json(report)
        else:
            emit_fields(report["checks"])
            for problem in report["problems"]:
                click.echo(f"PROBLEM: {problem}", err=True)
            click.echo(
                "all good"
                if not report["problems"]
                else counted(len(report["problems"]), "problem")
            )
        if report["problems"]:
            raise SystemExit(1)

    run(work)


def diagnose(state: CliState) -> dict[str, Any]:
    """Run every check; each failure adds a sentence to `problems`."""
    import loci

    settings = state.settings()
    checks: dict[str, Any] = {
        "loci": loci.__version__,
        "sqlite": sqlite3.sqlite_version,
        "data folder": str(settings.home),
        "database": settings.database_shown,
    }
    problems: list[str] = []
    if settings.home.exists() and not os.access(settings.home, os.W_OK):
        problems.append(f"the data folder {settings.home} is not writable")
    if settings.database_url is not None:
        _check_server(settings, checks, problems)
        if "unreachable" in checks.values():
            return {"checks": checks, "problems": problems}
    try:
        with opened_app(state) as app:
            _check_app(app, checks, problems)
    except LociError as exc:
        problems.append(exc.message)
    return {"checks": checks, "problems": problems}


def _check_app(app: Any, checks: dict[str, Any], problems: list[str]) -> None:
    checks["schema version"] = app.db.schema_version()
    checks["tables"] = ", ".join(f"{owner} {n}" for owner, n in app.db.schema_versions().items())
    # The file first: when it is damaged, the checks that read it would only fail on it.
    steps = (_check_memories, _check_toolsets) if _check_database(app, checks, problems) else ()
    for step in (*steps, _check_kernel):
        try:
            step(app, checks, problems)
        except LociError as exc:
            problems.append(exc.message)


def _check_server(settings: Any, checks: dict[str, Any], problems: list[str]) -> None:
    """The PostgreSQL server, pgvector, the role's rights and loci's tables."""
    from loci.storage.databases.postgres import require_driver
    from loci.store import schemas

    require_driver()
    from loci.storage.databases.postgres.readiness import readiness

    found = readiness(settings.database_url.get_secret_value(), schemas())
    checks.update(found.checks)
    problems += found.problems


def _check_database(app: Any, checks: dict[str, Any], problems: list[str]) -> bool:
    """The file's structure, then what loci keeps in it; False if the file is damaged."""
    if app.db.engine == "postgresql":
        return _check_postgres_contents(app, checks, problems)
    from loci.storage.databases import health  # numpy: not for every CLI start

    with app.db.locked() as conn:
        structure = health.structure_problems(conn)
        checks["integrity"] = "ok" if not structure else "damaged"
        if structure:
            problems.append(
                f"the database file is damaged ({'; '.join(structure)}); the Troubleshooting "
                "section of loci's README says how to restore a backup"
            )
            return False
        unreadable = health.damaged_json(conn)
        vectors = health.damaged_vectors(conn, app.embedder.identity.dimensions)
    with app.db.write() as conn:
        keywords_match = health.keyword_index_matches(conn)
    if unreadable:
        problems.append(
            f"damaged tags or metadata (not JSON) in "
            f"{counted(len(unreadable), 'memory', 'memories')}, such as "
            f"{', '.join(unreadable[:3])}; forget them (`loci forget ID`) or restore a backup"
        )
    if vectors:
        damaged = counted(len(vectors), "memory", "memories")
        problems.append(f"damaged vectors in {damaged}; run `loci reindex`")
    if not keywords_match:
        problems.append("the keyword index does not match the memories; run `loci reindex`")
    problems += app.catalog.warnings()
    return True


def _check_postgres_contents(app: Any, checks: dict[str, Any], problems: list[str]) -> bool:
    """What loci keeps in a PostgreSQL database (the server checks its own structure)."""
    from loci.storage.databases import health
    from loci.storage.indexes.keywords.postgres_memories import keyword_index_matches

    with app.db.locked() as conn:
        vectors = health.damaged_vectors(conn, app.embedder.identity.dimensions)
        keywords_match = keyword_index_matches(conn)
    checks["integrity"] = "kept by the server"
    if vectors:
        damaged = counted(len(vectors), "memory", "memories")
        problems.append(f"damaged vectors in {damaged}; run `loci reindex`")
    if not keywords_match:
        problems.append("the keyword index does not match the memories; run `loci reindex`")
    problems += app.catalog.warnings()
    return True


def _check_memories(app: Any, checks: dict[str, Any], problems: list[str]) -> None:
    """Counts, the embedding model, the vector index and the sequences."""
    stats = app.catalog.stats()
    checks["memories"] = stats.total_memories
    checks["namespaces"] = len(stats.namespaces)
    checks["stored model"] = stats.embedding_model
    checks["configured model"] = app.embedder.identity.describe()
    try:
        app.embedder.load()
        app.embedder.embed(["loci doctor"])
        checks["model"] = "loads and embeds"
    except LociError as exc:
        problems.append(f"the embedding model does not work: {exc.message}")
    if stats.total_memories and stats.embedding_model != app.embedder.identity.name:
        problems.append(
            f"stored vectors come from {stats.embedding_model}; run `loci reindex` to re-embed"
        )
    checks["indexed vectors"] = app.memory.indexed_count()
    if checks["indexed vectors"] != stats.total_memories:
        problems.append("the vector index does not match the database; run `loci reindex`")
    with app.db.locked() as conn:
        if app.db.engine == "postgresql":
            from loci.storage.indexes.keywords.postgres_memories import sequence_health

            checks["sequences"], out_of_step = sequence_health(conn)
        else:
            checks["sequences"], out_of_step = documents.health(conn)
    problems += [f"{problem}; run `loci reindex`" for problem in out_of_step]


def _check_kernel(app: Any, checks: dict[str, Any], problems: list[str]) -> None:
    """Which loops large vector searches run in; numpy's only when asked for."""
    from loci.storage.indexes.vectors.scan_kernels import (
        load_kernel,  # numpy: not for every CLI start
    )

    try:
        kernel = load_kernel(app.settings.vector_kernel)
    except LociError as exc:
        problems.append(exc.message)
        return
    checks["vector kernel"] = kernel.name
    if app.settings.vector_kernel == "auto" and kernel.name != "faiss":
        problems.append(
            "faiss-cpu cannot be loaded, so searches over 20k+ memories run numpy's slower "
            "loops; reinstall loci-mcp (or set LOCI_VECTOR_KERNEL=numpy to accept them)"
        )


def _check_toolsets(app: Any, checks: dict[str, Any], problems: list[str]) -> None:
    """Each toolset's own look (its `doctor`), then the named HTTP tokens."""
    from loci import toolsets as registry

    for toolset in registry.TOOLSETS:
        toolset.doctor_check(app, checks, problems)
    checks["named tokens"] = len(app.access.listing())
