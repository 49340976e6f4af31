"""Characters named in full once are listed, unless their names are two other people's."""

from __future__ import annotations

from loci.toolsets.story import full_names
from loci.toolsets.story.entity import Entity, Seen
from loci.toolsets.story.kinds import Kind


def entity(number: int, mentions: int, *aliases: str, kind: Kind = "character") -> Entity:
    return Entity(number, aliases[0], kind, mentions, Seen(0, ""), [], list(aliases))


def test_a_name_written_in_full_once_is_listed_and_a_title_or_a_place_is_not() -> None:
    # Northanger Abbey: "Charles Hodges will plague me to death" (once) is someone; "Captain
    # Hunt", "Holy Writ", "Magdalen Bridge" once may be anything, and a place is no character.
    hodges, hunt = entity(1, 1, "Charles Hodges"), entity(2, 1, "Captain Hunt")
    writ, bridge = entity(3, 1, "Holy Writ"), entity(4, 1, "Magdalen Bridge")
    town = entity(5, 1, "Sam Fletcher", kind="place")
    full_names.mark([hodges, hunt, writ, bridge, town])
    assert [e.in_full for e in (hodges, hunt, writ, bridge, town)] == [True] + [False] * 4
    assert hodges.confirmed(2) and not hunt.confirmed(2)
    assert not hodges.confirmed(3)  # a stricter `confirm_after` counts for it too, one fewer


def test_a_full_name_made_of_two_other_peoples_names_waits_for_a_second_mention() -> None:
    # Pride and Prejudice: "Lydia Wickham" once is Lydia married, or a mix-up of two people;
    # "Charlotte Davis" shares her given name only with someone the story names as rarely.
    lydia, wickham = entity(1, 60, "Lydia", "Miss Lydia Bennet"), entity(2, 40, "Mr. Wickham")
    married, davis = entity(3, 1, "Lydia Wickham"), entity(4, 1, "Charlotte Davis")
    rare = entity(5, 1, "Charlotte", "Mrs. Davis")
    full_names.mark([lydia, wickham, married, davis, rare])
    assert not married.in_full and davis.in_full
    assert not married.confirmed(2) and davis.confirmed(2)


def test_a_character_written_by_a_name_others_hold_too_is_shown_by_a_full_name() -> None:
    # Persuasion: the cast listed "Charles" (Charles Musgrove) beside Charles Hayter, and
    # Northanger Abbey "Thorpe" (John Thorpe) beside Isabella Thorpe.
    charles = entity(1, 121, "Charles", "Charles Musgrove", "Mr. Musgrove")
    hayter = entity(2, 40, "Charles Hayter")
    thorpe, isabella = entity(3, 105, "Thorpe", "John Thorpe"), entity(4, 191, "Isabella Thorpe")
    anne = entity(5, 300, "Anne", "Anne Elliot")  # no one else's "Anne": as written most
    place = entity(6, 9, "Charles", "Charles Street", kind="place")
    full_names.tell_apart([charles, hayter, thorpe, isabella, anne, place], chosen=())
    shown = [e.name for e in (charles, hayter, thorpe, isabella, anne, place)]
    assert shown == [
        "Charles Musgrove",
        "Charles Hayter",
        "John Thorpe",
        "Isabella Thorpe",
        "Anne",
        "Charles",
    ]
    # A name a correction of the writer's chose stays.
    kept = entity(1, 121, "Charles", "Charles Musgrove")
    full_names.tell_apart([kept, entity(2, 40, "Charles Hayter")], chosen={1})
    assert kept.name == "Charles"
