"""Field groups (bot/rules/field/groups.py): FIELD-GROUP-1/2/3, FIELD-ATT-1, FIELD-AMB-1/2/11, FIELD-TV-6."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.field.groups import (
    Placement,
    PlayMode,
    deal_groups,
    group_sizes,
    join_group,
    past_pairings,
    place_guest,
    place_late_arrival,
    repeat_pairings,
    small_field_warning,
    suggested_orders,
)
from bot.rules.field.options import FieldOptions
from bot.rules.refusals import InvalidInput, RuleViolation

LPL = FieldOptions()


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (5, [3, 2]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
        (14, [4, 4, 3, 3]),
        (15, [4, 4, 4, 3]),
        (17, [4, 4, 3, 3, 3]),
        (21, [4, 4, 4, 3, 3, 3]),
    ],
)
def test_tv6_group_sizes_field_group_1(players, sizes):
    """FIELD-TV-6 / FIELD-GROUP-1 (5 → [3, 2] by FIELD-AMB-1)."""
    assert group_sizes(players, LPL) == sizes


def test_tiny_fields_are_one_group_with_a_warning_field_amb_1():
    """FIELD-AMB-1: n = 1 or 2 → one group of n, with a warning."""
    assert group_sizes(2, LPL) == [2] and group_sizes(1, LPL) == [1] and group_sizes(0, LPL) == []
    assert "three players" in (small_field_warning(2) or "")
    assert small_field_warning(3) is None


def test_five_can_be_configured_field_amb_1():
    assert group_sizes(5, FieldOptions(sizes_for_five=(4, 1))) == [4, 1]


@given(st.integers(min_value=3, max_value=80))
def test_group_sizes_use_as_many_fours_as_possible_field_group_1(n):
    sizes = group_sizes(n, LPL)
    assert sum(sizes) == n
    if n != 5:
        assert set(sizes) <= {3, 4}
        fours = sizes.count(4)
        assert not any((n - 4 * f) > 0 and (n - 4 * f) % 3 == 0 for f in range(fours + 1, n // 4 + 1))


def test_snake_deal_spans_the_abilities_field_group_2():
    """FIELD-GROUP-2 / FIELD-AMB-2: players sorted by season total, dealt snake-style."""
    groups = deal_groups([f"P{i}" for i in range(1, 9)], LPL)
    assert groups == [("P1", "P4", "P5", "P8"), ("P2", "P3", "P6", "P7")]


def test_swaps_avoid_repeat_opponents_field_amb_2():
    """FIELD-AMB-2: swaps between groups within an ability band lower repeat pairings from earlier weeks."""
    ranked = [f"P{i}" for i in range(1, 9)]
    week1 = deal_groups(ranked, LPL)
    met = past_pairings([week1])
    week2 = deal_groups(ranked, LPL, met)
    assert repeat_pairings(week2, met) < repeat_pairings(week1, met)
    assert sorted(p for g in week2 for p in g) == sorted(ranked)
    assert [len(g) for g in week2] == [4, 4]


def test_a_fifth_player_is_refused_field_att_1():
    """FIELD-ATT-1: "Group is full (4)"."""
    with pytest.raises(RuleViolation) as refused:
        join_group(("A", "B", "C", "D"), "E", LPL)
    assert refused.value.rule_id == "FIELD-ATT-1" and "Group is full (4)" in refused.value.message


def test_late_arrival_joins_an_open_group_field_att_1():
    placement = place_late_arrival([("A", "B", "C", "D"), ("E", "F", "G")], "H", LPL)
    assert placement.mode is PlayMode.GROUP and placement.group_index == 1
    assert placement.groups[1] == ("E", "F", "G", "H")


def test_late_arrival_plays_single_player_games_when_all_groups_are_full_field_att_1():
    placement = place_late_arrival([("A", "B", "C", "D")], "H", LPL)
    assert placement.mode is PlayMode.SINGLE_PLAYER and placement.group_index is None


def test_late_member_displaces_a_guest_field_amb_11():
    """FIELD-AMB-11: a late member can displace a guest into single-player play."""
    placement = place_late_arrival([("A", "B", "C", "G")], "H", LPL, guests={"G"})
    assert placement.groups == (("A", "B", "C", "H"),) and placement.displaced_guest == "G"


def test_guests_only_join_groups_with_room_field_amb_11():
    assert place_guest([("A", "B", "C")], "G", LPL).groups == (("A", "B", "C", "G"),)
    assert place_guest([("A", "B", "C", "D")], "G", LPL).mode is PlayMode.SINGLE_PLAYER


def test_suggested_orders_rotate_positions_field_group_3():
    """FIELD-GROUP-3: each player plays each position about equally often over five machines."""
    orders = suggested_orders(("A", "B", "C", "D"), ["m1", "m2", "m3", "m4", "m5"])
    assert orders["m1"] == ("A", "B", "C", "D") and orders["m2"] == ("B", "C", "D", "A")
    firsts = [order[0] for order in orders.values()]
    assert sorted(set(firsts)) == ["A", "B", "C", "D"]


def test_groups_of_two_and_one_field_group_1():
    """FIELD-GROUP-1 with groups of at most 2: 3 players are a pair and a single, not three singles."""
    options = FieldOptions(max_group=2, sizes_for_five=(2, 2, 1))
    assert group_sizes(3, options) == [2, 1]


def test_no_grouping_is_refused_by_name_field_group_1():
    with pytest.raises(InvalidInput) as refused:
        group_sizes(7, FieldOptions(max_group=5))
    assert refused.value.message == "No grouping of 7 players into groups of 5 and 4."


@pytest.mark.parametrize(
    ("players", "warning"),
    [
        (0, None),
        (1, "Only 1 checked in: the rules are designed for three players or more (FIELD-AMB-1)."),
        (2, "Only 2 checked in: the rules are designed for three players or more (FIELD-AMB-1)."),
        (3, None),
    ],
)
def test_small_field_warning_field_amb_1(players, warning):
    assert small_field_warning(players) == warning


def test_the_snake_deal_fills_each_group_to_its_size_field_group_2():
    """FIELD-GROUP-2: 7 players, best first: 1 2 | 4 3 | 5 6 | 7 → (1, 4, 5, 7) and (2, 3, 6)."""
    assert deal_groups([1, 2, 3, 4, 5, 6, 7], LPL) == [(1, 4, 5, 7), (2, 3, 6)]


def test_swaps_go_on_while_they_lower_repeat_pairings_field_amb_2():
    """FIELD-AMB-2: a swap can make a further swap worth it; the deal stops only when none helps."""
    met = {
        frozenset("EB"): 1,
        frozenset("HF"): 2,
        frozenset("AH"): 1,
        frozenset("CA"): 2,
        frozenset("DB"): 1,
        frozenset("AD"): 2,
        frozenset("CF"): 2,
    }
    dealt = deal_groups(list("ABCDEFGH"), LPL, met)
    assert dealt == [("B", "C", "E", "H"), ("A", "D", "F", "G")]
    assert repeat_pairings(dealt, met) == 3


def test_a_late_arrival_joins_the_smallest_open_group_field_att_1():
    groups = [("A", "B", "C"), ("D", "E"), ("F", "G")]
    assert place_late_arrival(groups, "L", LPL) == Placement(
        (("A", "B", "C"), ("D", "E", "L"), ("F", "G")), PlayMode.GROUP, 1
    )


def test_a_guest_makes_room_or_the_member_plays_alone_field_amb_11():
    """FIELD-ATT-1 / FIELD-AMB-11: every group full: a guest leaves the group for the late member; with no
    guest to move, the member plays single-player games and the groups stay as they are."""
    full = [("A", "B", "C", "D"), ("E", "G1", "F", "H")]
    assert place_late_arrival(full, "L", LPL, guests={"G1"}) == Placement(
        (("A", "B", "C", "D"), ("E", "L", "F", "H")), PlayMode.GROUP, 1, displaced_guest="G1"
    )
    assert place_late_arrival(full, "L", LPL) == Placement(tuple(full), PlayMode.SINGLE_PLAYER, None)


def test_an_empty_group_has_no_orders_field_group_3():
    assert suggested_orders((), [1, 2]) == {}
