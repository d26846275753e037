"""A roster's strength at a glance (bot/rules/team/strength.py): its IFPA-limit figures (TEAM-ROSTER-5) beside
the mean rating of its rated players."""

import pytest

from bot.rules.ratings.engine import Rating
from bot.rules.team.options import TeamOptions
from bot.rules.team.strength import IfpaFigure, RosterStrength, roster_strength


def test_team_roster_5_figures_count_players_at_or_inside_each_threshold_beside_the_mean_rating():
    ranks = [3, 150, 151, 500, 501, None]
    settled, newcomer, veteran = Rating(30.0, 2.0, 20), Rating(25.0, 8.0, 1), Rating(20.0, 5.0, 10)
    ratings = [settled, newcomer, None, veteran, None, None]
    options = TeamOptions(ifpa_top500_max=3, ifpa_top150_max=1)
    assert roster_strength(ranks, ratings, options) == RosterStrength(
        ifpa=(IfpaFigure(500, 4, 3), IfpaFigure(150, 2, 1)),
        rated=3,
        provisional=1,
        unrated=3,
        mean_rating=pytest.approx((24.0 + 1.0 + 5.0) / 3),
        mean_skill=pytest.approx(25.0),
    )


def test_a_roster_nobody_has_rated_shows_no_mean():
    strength = roster_strength([None, 900], [None, None], TeamOptions())
    assert strength == RosterStrength(
        ifpa=(IfpaFigure(500, 0, 2), IfpaFigure(150, 0, 1)),
        rated=0,
        provisional=0,
        unrated=2,
        mean_rating=None,
        mean_skill=None,
    )
