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
