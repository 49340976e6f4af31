"""Receipts of keyed writes on both engines: a key is claimed in the write's own transaction,
a retry finds the first result, and two servers racing for one key leave one write."""

from __future__ import annotations

from datetime import timedelta

import pytest

from loci.errors import ConflictError
from loci.storage.databases.db import Database
from loci.storage.databases.receipts import Receipts, Request
from tests.engines import Opener


def servers(open_store: Opener, count: int = 2) -> list[tuple[Database, Receipts]]:
    """`count` servers of one store, each with its receipts hooked into its commits."""
    made = []
    for _ in range(count):
        receipts = Receipts(timedelta(hours=1))
        made.append((open_store(before_commit=(receipts.claim_pending,)), receipts))
    return made


def write_token(db: Database, name: str) -> None:
    with db.write() as conn:
        conn.execute(
            "INSERT INTO access_tokens VALUES (?, ?, ?, ?, ?, ?)", (name, name, None, 0, None, "t")
        )


def names(db: Database) -> list[str]:
    with db.locked() as conn:
        return [row[0] for row in conn.execute("SELECT name FROM access_tokens ORDER BY name")]


def test_a_keyed_write_keeps_its_result_for_a_retry_on_another_server(open_store):
    (db, receipts), (other_db, other_receipts) = servers(open_store)
    request = Request("k-1", "remember", "fingerprint")
    with receipts.claiming(db, request):
        write_token(db, "first")
        receipts.complete(db, '{"id": "first"}')
    found = other_receipts.find(other_db, request)
    assert found is not None and found.request == request and found.result == '{"id": "first"}'
    assert other_receipts.find(other_db, Request("k-2", "remember", "fingerprint")) is None


def test_the_write_that_commits_second_with_a_taken_key_is_rolled_back(open_store):
    (db, receipts), (other_db, other_receipts) = servers(open_store)
    request = Request("raced", "remember", "f")
    with receipts.claiming(db, request):
        with other_receipts.claiming(other_db, request):
            write_token(other_db, "theirs")
        with pytest.raises(ConflictError, match="another call"):
            write_token(db, "mine")
    assert names(db) == ["theirs"]


def test_a_failed_call_lets_its_key_go(open_store):
    ((db, receipts),) = servers(open_store, 1)
    request = Request("retry-me", "remember", "f")

    def fail_after_writing() -> None:
        with receipts.claiming(db, request):
            write_token(db, "half")
            raise RuntimeError("the call failed after its write")

    with pytest.raises(RuntimeError):
        fail_after_writing()
    assert receipts.find(db, request) is None


def test_expired_receipts_are_not_found(open_store):
    receipts = Receipts(timedelta(hours=-1))  # everything is already past its keeping time
    db = open_store(before_commit=(receipts.claim_pending,))
    request = Request("old", "remember", "f")
    with receipts.claiming(db, request):
        write_token(db, "x")
    assert receipts.find(db, request) is None


def test_each_tokens_keys_are_its_own(open_store):
    """Two tokens using the same key make two writes, and neither finds the other's receipt
    (nor learns which tool it was for)."""
    ((db, receipts),) = servers(open_store, 1)
    alice = Request("k", "remember", "f", holder="alice")
    bob = Request("k", "update_context", "g", holder="bob")
    owner = Request("k", "remember", "f")
    for request, name in ((alice, "a"), (bob, "b"), (owner, "o")):
        with receipts.claiming(db, request):
            write_token(db, name)
            receipts.complete(db, f'{{"by": "{name}"}}')
    assert names(db) == ["a", "b", "o"]
    for request, name in ((alice, "a"), (bob, "b"), (owner, "o")):
        found = receipts.find(db, request)
        assert found is not None and found.result == f'{{"by": "{name}"}}'
        assert found.request == request
    assert receipts.find(db, Request("k", "remember", "f", holder="carol")) is None
