"""Groups, week-1 grouping and weekly movement (bot/rules/ladder/groups.py): LADDER-GROUP-*,
LADDER-AMB-11/12/13."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.ladder.groups import (
    Finisher,
    NightPresence,
    Skill,
    check_groups,
    deal,
    first_week_groups,
    group_sizes,
    next_week_groups,
    regroup,
)
from bot.rules.ladder.options import LadderOptions
from bot.rules.refusals import InvalidInput
from tests.unit.ladder.helpers import refused

OPTIONS = LadderOptions()
P, U, A = NightPresence.PRESENT, NightPresence.PREMAKEUP, NightPresence.ABSENT

TV16 = {
    8: (2, 3, 3),
    9: (3, 3, 3),
    10: (3, 3, 4),
    11: (3, 4, 4),
    12: (3, 3, 3, 3),
    13: (3, 3, 3, 4),
    14: (3, 3, 4, 4),
    15: (3,) * 5,
    16: (4,) * 4,
    17: (3, 3, 3, 4, 4),
    18: (3,) * 6,
    19: (3,) * 5 + (4,),
    20: (4,) * 5,
    21: (3, 3, 3, 4, 4, 4),
    22: (3, 3, 4, 4, 4, 4),
    23: (3,) + (4,) * 5,
    24: (4,) * 6,
}


@pytest.mark.parametrize(("players", "sizes"), TV16.items())
def test_tv16_group_table(players, sizes):
    """LADDER-TV-16 / LADDER-GROUP-1: the sheet's sizes for 8-24 players, each summing to n."""
    assert group_sizes(players) == sizes
    assert sum(sizes) == players


def test_amb11_outside_the_table():
    """LADDER-AMB-11: small leagues as listed, n > 24 by ceil(n/4) groups with threes on top (n = 26 → 7)."""
    assert [group_sizes(n) for n in (3, 4, 5, 6, 7)] == [(3,), (2, 2), (2, 3), (3, 3), (3, 4)]
    assert group_sizes(26) == (3, 3, 4, 4, 4, 4, 4)
    assert group_sizes(25) == (3, 3, 3, 4, 4, 4, 4)
    with refused("LADDER-AMB-11", "at least 3"):
        group_sizes(2)


@given(st.integers(min_value=3, max_value=200))
def test_sizes_always_three_or_four_and_sum_to_n(players):
    """LADDER-GROUP-1 / LADDER-AMB-11: groups of 2-4 (2 only in small leagues) that hold everyone."""
    sizes = group_sizes(players)
    assert sum(sizes) == players
    assert all(3 <= s <= 4 for s in sizes) or players < 9


def test_week_one_groups_by_skill_from_the_top():
    """LADDER-GROUP-2 / LADDER-REG-2: best skill first, ties in commissioner order, dealt G1, G2, G3."""
    skills = [
        Skill(player, skill, order)
        for order, (player, skill) in enumerate(
            [(1, 3), (2, 9), (3, 5), (4, 9), (5, 1), (6, 7), (7, 2), (8, 6), (9, 4), (10, 8)]
        )
    ]
    assert first_week_groups(skills) == [[2, 4, 10], [6, 8, 3], [9, 1, 7, 5]]


def test_week_one_of_a_later_season_deals_returning_players_by_last_seasons_finish():
    """LADDER-GROUP-2 after `/season new`: players carried over come first in last season's finishing order
    (seed 1 = its winner), whatever their skill; newcomers follow by skill (the commissioner may swap them)."""
    skills = [
        Skill(1, 10, 0, seed=3),
        Skill(2, 2, 1, seed=1),
        Skill(3, 9, 2),  # a newcomer
        Skill(4, 5, 3, seed=2),
        Skill(5, 4, 4),  # a newcomer
        Skill(6, 1, 5, seed=4),
    ]
    assert first_week_groups(skills) == [[2, 4, 1], [6, 3, 5]]


def finishing(*groups: str, presence: dict[str, NightPresence] | None = None, points: dict[str, int] | None = None):
    """Groups as strings of player letters in finishing order; players are their letters' ordinals."""
    presence, points = presence or {}, points or {}
    return [
        [Finisher(ord(c), presence.get(c, P), points.get(c, 10 - i)) for i, c in enumerate(group)] for group in groups
    ]


def letters(groups) -> list[str]:
    return ["".join(sorted(chr(p) for p in g)) for g in groups]


def test_tv17_sheet_movement_example():
    """LADDER-TV-17 / LADDER-GROUP-3: B, C, F / A, D, G / E, H, I; B stays in G1, I stays at the bottom."""
    assert letters(next_week_groups(finishing("BCA", "FDE", "GHI"), OPTIONS)) == ["BCF", "ADG", "EHI"]


def test_double_swap_into_a_four_player_group():
    """LADDER-GROUP-4 / LADDER-AMB-12: below a group of 4, its 2nd also swaps with the upper 2nd-from-bottom
    when going up has ≥ 10 week game points and going down ≤ 10."""
    groups = finishing("ABC", "DEFG", points={"E": 10, "B": 10})
    assert letters(next_week_groups(groups, OPTIONS)) == ["ADE", "BCFG"]


def test_double_swap_needs_both_thresholds():
    """LADDER-GROUP-4: 2nd below with 9 points, or 2nd-from-bottom above with 11 → only the single swap."""
    low = finishing("ABC", "DEFG", points={"E": 9, "B": 10})
    assert letters(next_week_groups(low, OPTIONS)) == ["ABD", "CEFG"]
    high = finishing("ABC", "DEFG", points={"E": 12, "B": 11})
    assert letters(next_week_groups(high, OPTIONS)) == ["ABD", "CEFG"]


def test_double_swap_only_between_two_fours_with_option():
    """LADDER-AMB-12: `double_swap=both_groups_4` needs four players above too."""
    groups = finishing("ABC", "DEFG", points={"E": 10, "B": 10})
    assert letters(next_week_groups(groups, LadderOptions(double_swap="both_groups_4"))) == ["ABD", "CEFG"]
    fours = finishing("ABCH", "DEFG", points={"E": 10, "C": 10})
    assert letters(next_week_groups(fours, LadderOptions(double_swap="both_groups_4"))) == ["ABDE", "CFGH"]


def test_three_player_group_turns_over_completely():
    """LADDER-AMB-12 note: a 3-group between a group above and a 4-group below sends 2nd and 3rd down and
    its winner up."""
    groups = finishing("XYZ", "ABC", "DEFG", points={"E": 11, "B": 9})
    assert letters(next_week_groups(groups, OPTIONS)) == ["AXY", "DEZ", "BCFG"]


def test_absent_without_premakeups_stays_and_others_move():
    """LADDER-GROUP-5 / LADDER-AMB-13: the absentee is skipped; the winner and loser come from the others."""
    groups = finishing("ABC", "DEF", presence={"F": A, "C": A})
    assert letters(next_week_groups(groups, OPTIONS)) == ["ACD", "BEF"]


def test_premakeup_winner_moves_up_but_never_down():
    """LADDER-GROUP-6 / LADDER-AMB-13: a winning premakeup user moves up; a losing one stays, and the
    lowest-finishing present player moves down instead."""
    wins = finishing("ABC", "DEF", presence={"D": U})
    assert letters(next_week_groups(wins, OPTIONS)) == ["ABD", "CEF"]
    loses = finishing("ABC", "DEF", presence={"C": U, "E": U})
    assert letters(next_week_groups(loses, OPTIONS)) == ["ACD", "BEF"]


def test_a_boundary_without_movers_does_not_swap():
    """LADDER-AMB-13: if no one in a group can move, that boundary does not swap."""
    groups = finishing("AB", "CDE", presence={"A": A, "B": A})
    assert letters(next_week_groups(groups, OPTIONS)) == ["AB", "CDE"]


@given(st.integers(min_value=3, max_value=40), st.randoms(use_true_random=False))
def test_movement_keeps_the_size_vector(players, random):
    """LADDER-GROUP-7 / LADDER-GROUP-8: movement is swaps only, so every group keeps its size."""
    groups = deal(list(range(players)))
    finishes = []
    for group in groups:
        order = list(group)
        random.shuffle(order)
        finishes.append([Finisher(p, random.choice(list(NightPresence)), random.randint(0, 20)) for p in order])
    moved = next_week_groups(finishes, OPTIONS)
    check_groups(moved, group_sizes(players))
    assert sorted(p for g in moved for p in g) == list(range(players))


def test_group_check_refuses_a_broken_size_vector_and_mixed_divisions():
    """LADDER-GROUP-8: "Group sizes must stay 3,3,4"; from week 6, one division per group."""
    with refused("LADDER-GROUP-8", "Group sizes must stay 3,3,4"):
        check_groups([[1, 2, 3, 4], [5, 6, 7], [8, 9, 10]], (3, 3, 4))
    with refused("LADDER-GROUP-8", "Group 1 mixes"):
        check_groups([[1, 2], [3, 4]], (2, 2), {1: "A", 2: "B", 3: "A", 4: "B"})
    with pytest.raises(InvalidInput):
        check_groups([[1, 2], [2, 4]], (2, 2))
    check_groups([[1, 2], [3, 4]], (2, 2), {1: "A", 2: "A", 3: "B", 4: "B"})


def test_drops_and_joins_recompute_sizes():
    """LADDER-GROUP-7 / LADDER-ATT-6: a dropped player leaves; the ladder is re-dealt in order for the new
    count, a newcomer at the bottom; an unchanged roster keeps its groups."""
    groups = [[1, 2, 3], [4, 5, 6], [7, 8, 9, 10]]
    assert regroup(groups, list(range(1, 11))) == groups
    assert regroup(groups, [p for p in range(1, 11) if p != 5]) == [[1, 2, 3], [4, 6, 7], [8, 9, 10]]
    assert regroup(groups, list(range(1, 12))) == [[1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_a_boundary_without_movers_leaves_the_boundaries_below_swapping():
    """LADDER-AMB-13: G1 all absent does not swap with G2, yet G2 and G3 still swap."""
    groups = finishing("ABC", "DEF", "GHI", presence={"A": A, "B": A, "C": A})
    assert letters(next_week_groups(groups, OPTIONS)) == ["ABC", "DEG", "FHI"]


def test_a_double_swap_with_only_two_present_below_and_nobody_moving_twice():
    """LADDER-GROUP-4 / LADDER-AMB-12/13: G2 of four has only D and E present; both go up (E with ≥ 10 points,
    B going down with ≤ 10). With D and E gone, G2 has no one left to send down to G3, so that boundary waits."""
    groups = finishing("ABC", "DEFG", "HIJ", points={"E": 10, "B": 10}, presence={"F": A, "G": A})
    assert letters(next_week_groups(groups, OPTIONS)) == ["ADE", "BCFG", "HIJ"]


def test_a_player_in_two_groups_is_refused_saying_so():
    """LADDER-GROUP-8: the refusal names the fault."""
    with pytest.raises(InvalidInput) as info:
        check_groups([[1, 2], [2, 4]], (2, 2))
    assert info.value.message == "A player can be in only one group (LADDER-GROUP-8)."
