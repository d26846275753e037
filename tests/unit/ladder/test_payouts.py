"""Dues, weekly pot, payouts and prizes in integer cents (bot/rules/ladder/payouts.py): LADDER-PAY-*,
LADDER-AMB-20/23/34, COMMON-MONEY-1."""

from fractions import Fraction

from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.payouts import (
    GroupLine,
    consolation_prizes,
    dues_owed,
    group_candidate,
    no_show_forfeit,
    payout_ties,
    season_prizes,
    weekly_payouts,
    weekly_pot,
)

OPTIONS = LadderOptions()


def g(player: int, tlp: int, tns: float = 1.0, present: bool = True) -> GroupLine:
    return GroupLine(player, tlp, Fraction(tns).limit_denominator(100), present)


def test_dues_and_pot():
    """LADDER-PAY-1 / LADDER-AMB-20: $6.00 per active player a week; half the collected dues is the pot."""
    assert dues_owed(13, OPTIONS) == 7_800
    assert weekly_pot(7_200, OPTIONS) == (3_600, 3_600)
    assert weekly_pot(601, OPTIONS) == (300, 301)  # cents never split


def test_small_league_top_two_winners_75_25():
    """LADDER-PAY-2 / LADDER-NORM-4: < 18 players, group winners ranked by week TLP, ties by TNS."""
    groups = [[g(1, 20), g(2, 10)], [g(3, 22), g(4, 5)], [g(5, 20, tns=3.0), g(6, 1)]]
    assert weekly_payouts(groups, league_size=13, pot_cents=3_900, options=OPTIONS) == {3: 2_925, 5: 975}


def test_large_league_top_three_65_25_10():
    """LADDER-PAY-2: from 18 players the top three group winners take 65 / 25 / 10; odd cents go to 1st."""
    groups = [[g(p, 30 - p)] for p in range(1, 7)]
    paid = weekly_payouts(groups, league_size=18, pot_cents=5_401, options=OPTIONS)
    assert paid == {1: 3_511, 2: 1_350, 3: 540}
    assert sum(paid.values()) == 5_401


def test_absent_winner_forfeits_to_the_next_present_player():
    """LADDER-PAY-3: a premakeup winner forfeits; the group's next highest week-TLP present player stands."""
    finish = [g(1, 22, present=False), g(2, 15), g(3, 17)]
    candidate = group_candidate(finish)
    assert candidate is not None and candidate.player == 3
    assert group_candidate([g(1, 20, present=False)]) is None


def test_single_group_winner_takes_all():
    """LADDER-AMB-20: with only one group its winner takes 100%."""
    assert weekly_payouts([[g(1, 10), g(2, 8), g(3, 5)]], 3, 900, OPTIONS) == {1: 900}


def test_third_no_show_forfeits_all_money_paid():
    """LADDER-PAY-4 / LADDER-TV-22 (b) / COMMON-MONEY-1: $36 paid over weeks 1-6 is forfeited."""
    assert no_show_forfeit(3_600) == 3_600


def test_season_prizes_and_consolations():
    """LADDER-PAY-5 / LADDER-AMB-23 / LADDER-AMB-34: the commissioner's prize table down each division's
    finishing order; consolation = 20% of A's 2nd place, 50% of B's."""
    awards = season_prizes({"A": [10_000, 6_000, 3_000], "B": [5_000, 3_000]}, {"A": [4, 2, 9], "B": [7, 1, 3]})
    assert awards == {4: 10_000, 2: 6_000, 9: 3_000, 7: 5_000, 1: 3_000}
    assert consolation_prizes({"A": 6_000, "B": 3_000}, OPTIONS) == {"A": 1_200, "B": 1_500}


def test_candidates_level_on_tlp_and_tns_share_their_places_and_are_flagged():
    """LADDER-PAY-2 / LADDER-NORM-4: 2nd and 3rd level on both → 25 % + 10 % shared; a tie below the paid
    places changes nothing and is not flagged."""
    groups = [[g(1, 30)], [g(2, 20, tns=2.0)], [g(3, 20, tns=2.0)], [g(4, 10)], [g(5, 10)]]
    assert weekly_payouts(groups, league_size=18, pot_cents=1_001, options=OPTIONS) == {1: 651, 2: 175, 3: 175}
    assert payout_ties(groups, league_size=18, options=OPTIONS) == [[2, 3]]
    below = [[g(1, 30)], [g(2, 20)], [g(3, 15)], [g(4, 10)], [g(5, 10)]]  # 4 and 5 level in 4th and 5th
    assert weekly_payouts(below, league_size=18, pot_cents=1_001, options=OPTIONS) == {1: 651, 2: 250, 3: 100}
    assert payout_ties(below, league_size=18, options=OPTIONS) == []


def test_two_groups_split_75_25():
    """LADDER-PAY-2 / LADDER-AMB-20: only a single group's winner takes all; two groups' winners split 75/25."""
    groups = [[g(1, 20), g(2, 10)], [g(3, 15), g(4, 5)]]
    assert weekly_payouts(groups, league_size=4, pot_cents=1_200, options=OPTIONS) == {1: 900, 3: 300}
    assert payout_ties(groups, league_size=4, options=OPTIONS) == []


def test_a_tie_for_the_last_paid_place_shares_it_with_the_first_unpaid_one():
    """LADDER-PAY-2 / COMMON-AMB-2: below 18 players, 2nd and 3rd level on week TLP and TNS share the 25 %;
    the odd cent goes to the first of them in finishing order, and the tie is flagged."""
    groups = [[g(1, 30)], [g(2, 20, tns=2.0)], [g(3, 20, tns=2.0)]]
    assert weekly_payouts(groups, league_size=12, pot_cents=1_004, options=OPTIONS) == {1: 753, 2: 126, 3: 125}
    assert payout_ties(groups, league_size=12, options=OPTIONS) == [[2, 3]]


def test_a_place_without_a_candidate_goes_to_the_first_place():
    """LADDER-PAY-2 / LADDER-PAY-3: from 18 players three places are paid; with only two candidates (a group
    whose players were all absent), the 3rd place's 10 % goes to 1st, so the pot is paid in full."""
    groups = [[g(1, 30)], [g(2, 20)], [g(3, 25, present=False), g(4, 5, present=False)]]
    assert weekly_payouts(groups, league_size=18, pot_cents=1_000, options=OPTIONS) == {1: 750, 2: 250}


def test_a_first_no_show_season_without_payments_forfeits_nothing():
    """LADDER-PAY-4: nothing paid this season, nothing to forfeit."""
    assert no_show_forfeit(0) == 0


def test_consolations_are_whole_cents_rounded_down():
    """LADDER-AMB-23 / COMMON-MONEY-1: 20 % of $60.01 is 1,200 cents (1,200.2 rounded down), 50 % of $30.01
    is 1,500."""
    assert consolation_prizes({"A": 6_001, "B": 3_001}, OPTIONS) == {"A": 1_200, "B": 1_500}


def test_a_division_without_a_finishing_order_pays_nothing_yet():
    """LADDER-PAY-5 / LADDER-AMB-23: before the split there is no division B order; its prizes wait."""
    assert season_prizes({"A": [10_000, 6_000], "B": [5_000]}, {"A": [4, 2]}) == {4: 10_000, 2: 6_000}
