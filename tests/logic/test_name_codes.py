"""Name codes: the small integers the in-memory mirrors keep instead of namespace names."""

from __future__ import annotations

from loci.storage.indexes.name_codes import NameCodes


def test_codes_are_given_in_order_of_first_sight_and_kept() -> None:
    codes = NameCodes()
    assert [codes.code(n) for n in ("work", "home", "work", "chat")] == [0, 1, 0, 2]
    assert list(codes.names) == ["work", "home", "chat"] and len(codes) == 3


def test_a_filter_becomes_a_table_by_code_and_unknown_names_match_nothing() -> None:
    codes = NameCodes()
    for name in ("work", "home", "chat"):
        codes.code(name)
    assert codes.known({"chat", "nowhere"}).tolist() == [2]
    assert codes.admitted({"home", "nowhere"}).tolist() == [False, True, False, False]
    assert NameCodes().admitted({"home"}).tolist() == [False]


def test_many_names_get_the_codes_one_by_one_would_give() -> None:
    codes = NameCodes()
    codes.code("home")
    assert codes.codes(["work", "home", "work", "chat"]).tolist() == [1, 0, 1, 2]
    assert list(codes.names) == ["home", "work", "chat"]
    assert codes.codes([]).tolist() == []
