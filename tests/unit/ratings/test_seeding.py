"""Seeding by rating (LADDER-GROUP-2, FIELD-GROUP-2): rated players re-sorted into the places rated players hold."""

from __future__ import annotations

from bot.rules.ladder.groups import Skill, first_week_groups
from bot.rules.ratings.seeding import reordered_by_rating


def test_rated_players_take_the_rated_places_strongest_first_and_the_unrated_stay() -> None:
    order = ["a", "b", "c", "d", "e"]
    assert reordered_by_rating(order, {"b": 1.0, "d": 9.0, "e": 5.0}) == ["a", "d", "c", "e", "b"]
    assert reordered_by_rating(order, {}) == order


def test_ladder_week_one_by_rating_only_when_asked() -> None:
    """LADDER-GROUP-2: eight players with self-estimates the reverse of their ratings, sizes 2, 3, 3."""
    skills = [Skill(player, skill=player, commissioner_order=player, rating=-float(player)) for player in range(1, 9)]
    assert first_week_groups(skills) == [[8, 7], [6, 5, 4], [3, 2, 1]]
    assert first_week_groups(skills, by_rating=True) == [[1, 2], [3, 4, 5], [6, 7, 8]]


def test_players_carried_from_last_season_keep_their_seeds_and_only_newcomers_go_by_rating() -> None:
    """LADDER-GROUP-2: the returning players first in last season's order; the rated newcomers by rating."""
    skills = [
        Skill(1, skill=3, commissioner_order=0, seed=2, rating=50.0),
        Skill(2, skill=4, commissioner_order=1, seed=1),
        Skill(3, skill=9, commissioner_order=2, rating=1.0),
        Skill(4, skill=8, commissioner_order=3),  # unrated: keeps the second newcomer place its skill gives
        Skill(5, skill=7, commissioner_order=4, rating=9.0),
        Skill(6, skill=6, commissioner_order=5, rating=5.0),
        Skill(7, skill=5, commissioner_order=6, rating=2.0),
        Skill(8, skill=1, commissioner_order=7, rating=7.0),
    ]
    assert first_week_groups(skills, by_rating=True) == [[2, 1], [5, 4, 8], [6, 7, 3]]
