"""A roster's strength at a glance (the `use_ratings` option): its IFPA-limit figures (TEAM-ROSTER-5) beside
the mean rating of its players from games played, so a commissioner sees both measures of a team side by side.
Pure: ranks and ratings in, figures out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from bot.rules.ratings.engine import Rating
from bot.rules.team.options import TeamOptions
from bot.rules.team.roster import IFPA_TOP150, IFPA_TOP500


@dataclass(frozen=True)
class IfpaFigure:
    threshold: int
    inside: int  # rostered players ranked at or inside the threshold
    allowed: int


@dataclass(frozen=True)
class RosterStrength:
    ifpa: tuple[IfpaFigure, ...]
    rated: int
    provisional: int  # of the rated, those with too few games to be sure
    unrated: int
    mean_rating: float | None  # the conservative rating, mu - 3 sigma, as /ratings sorts by
    mean_skill: float | None  # mu


def roster_strength(
    ranks: Sequence[int | None], ratings: Sequence[Rating | None], options: TeamOptions
) -> RosterStrength:
    """One entry per rostered player in each sequence: their IFPA rank and their rating (None: not rated)."""
    limits = ((IFPA_TOP500, options.ifpa_top500_max), (IFPA_TOP150, options.ifpa_top150_max))
    figures = tuple(
        IfpaFigure(threshold, sum(rank is not None and rank <= threshold for rank in ranks), allowed)
        for threshold, allowed in limits
    )
    rated = [rating for rating in ratings if rating is not None]
    return RosterStrength(
        ifpa=figures,
        rated=len(rated),
        provisional=sum(rating.provisional for rating in rated),
        unrated=len(ratings) - len(rated),
        mean_rating=fmean(r.conservative for r in rated) if rated else None,
        mean_skill=fmean(r.mu for r in rated) if rated else None,
    )
