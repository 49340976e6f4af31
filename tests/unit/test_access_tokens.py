"""Named access tokens: made once, kept as digests, looked up by what a client presents,
refused when bad, and gone when revoked."""

from __future__ import annotations

import pytest

from loci.access.grant import Grant
from loci.app import App
from loci.errors import ConflictError, InvalidInputError, NotFoundError


def test_a_token_is_made_once_kept_as_a_digest_and_gives_its_grant(app: App) -> None:
    token, info = app.access.create("ana", ["story", "memory"], read_only=True)
    assert token.startswith("loci_") and len(token) > 40
    assert info.toolsets == ["memory", "story"] and info.read_only
    assert app.access.grant_of(token) == Grant("ana", frozenset({"memory", "story"}), True)
    everything, _ = app.access.create("bo")
    assert app.access.grant_of(everything) == Grant("bo", None, False)
    with app.db.locked() as conn:
        kept = repr(conn.execute("SELECT * FROM access_tokens").fetchall())
    assert token not in kept and everything not in kept
    assert [found.name for found in app.access.listing()] == ["ana", "bo"]


def test_what_a_grant_allows() -> None:
    reader = Grant("r", frozenset({"memory"}), read_only=True)
    assert reader.allows("memory", writes=False)
    assert not reader.allows("memory", writes=True)
    assert not reader.allows("context", writes=False)
    assert Grant("all").allows("story", writes=True)


@pytest.mark.parametrize("presented", ["", "loci_", "loci_" + "x" * 43, "Bearer x", "../etc"])
def test_tokens_that_are_not_named_ones_give_no_grant(app: App, presented: str) -> None:
    app.access.create("ana")
    assert app.access.grant_of(presented) is None


@pytest.mark.parametrize("name", ["", "../ana", "a b", "x" * 65, "-dash", "ana\n"])
def test_bad_names_are_refused_and_nothing_is_made(app: App, name: str) -> None:
    with pytest.raises(InvalidInputError, match="name"):
        app.access.create(name)
    assert app.access.listing() == []


@pytest.mark.parametrize("toolsets", [[], ["mem"], ["memory", "../x"]])
def test_unknown_toolsets_are_refused(app: App, toolsets: list[str]) -> None:
    with pytest.raises(InvalidInputError, match="toolsets"):
        app.access.create("ana", toolsets)
    assert app.access.listing() == []


def test_a_name_is_taken_once_and_a_revoked_token_is_refused(app: App, second_app: App) -> None:
    token, _ = app.access.create("ana")
    with pytest.raises(ConflictError, match="already a token named 'ana'"):
        app.access.create("ana", read_only=True)
    assert second_app.access.revoke("ana").name == "ana"
    assert app.access.grant_of(token) is None  # another server's revocation holds here
    with pytest.raises(NotFoundError, match="no token named 'ana'"):
        app.access.revoke("ana")
    fresh, _ = app.access.create("ana")  # the name is free again, with a new token
    assert fresh != token and app.access.grant_of(fresh) is not None


def test_a_token_may_be_limited_to_namespaces(app: App) -> None:
    token, info = app.access.create("ana", namespaces=["work", "home", "work"])
    assert info.namespaces == ["home", "work"]
    grant = app.access.grant_of(token)
    assert grant is not None and grant.namespaces == frozenset({"home", "work"}) and grant.limited
    assert not Grant("all").limited


@pytest.mark.parametrize("namespaces", [[], ["../etc"], ["a b"], ["x" * 129]])
def test_bad_namespaces_are_refused(app: App, namespaces: list[str]) -> None:
    with pytest.raises(InvalidInputError, match="namespaces"):
        app.access.create("ana", namespaces=namespaces)
    assert app.access.listing() == []
