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
