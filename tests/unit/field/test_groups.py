"""Field groups (bot/rules/field/groups.py): FIELD-GROUP-1/2/3, FIELD-ATT-1, FIELD-AMB-1/2/11, FIELD-TV-6."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.field.groups import (
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
from bot.rules.refusals import RuleViolation

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
