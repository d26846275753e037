"""A season's life (COMMON-SEASON-1/2), derived from what happened rather than stored: planned until its first
match or night, then the regular season, then the post-season (playoffs or finals), then complete. Each format
counts its own facts (`bot.formats.StandingsReaders.progress`); this module only reads the counts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from bot.rules.refusals import RuleViolation


class SeasonStage(StrEnum):
    PLANNED = "planned"
    ACTIVE = "active"
    REGULAR_COMPLETE = "regular season complete"
    POSTSEASON = "post-season"
    COMPLETE = "complete"


@dataclass(frozen=True)
class PostSeason:
    """The playoffs or finals as the format records them: `name` as people say it ("playoffs", "finals")."""

    name: str
    begun: bool  # seeded, or entries being taken
    complete: bool  # every bracket has its champion


@dataclass(frozen=True)
class SeasonProgress:
    """Plain counts of a season's regular-season events (team matches, ladder or field nights)."""

    regular: int  # how many the regular season has (0 until a team schedule is generated)
    begun: int  # opened, or with a result of any kind
    final: int  # final (a match's result final, a night closed)
    postseason: PostSeason | None  # None where the bot records no post-season play (the ladder's playoffs)


@dataclass(frozen=True)
class Carried:
    """What a format took over into a new season (`{"roster places": 36}`) and what to do next."""

    counts: dict[str, int]
    next_step: str


def season_stage(progress: SeasonProgress) -> SeasonStage:
    if progress.begun == 0 and progress.final == 0:
        return SeasonStage.PLANNED
    if not regular_season_over(progress):
        return SeasonStage.ACTIVE
    post = progress.postseason
    if post is None or post.complete:
        return SeasonStage.COMPLETE
    return SeasonStage.POSTSEASON if post.begun else SeasonStage.REGULAR_COMPLETE


def regular_season_over(progress: SeasonProgress) -> bool:
    return progress.regular > 0 and progress.final >= progress.regular


def postseason_undated(progress: SeasonProgress, postseason_on: date | None) -> bool:
    """COMMON-SEASON-2: the regular season is over, yet the post-season has no date and has not begun."""
    begun = progress.postseason is not None and progress.postseason.begun
    return regular_season_over(progress) and postseason_on is None and not begun


def stage_label(stage: SeasonStage, progress: SeasonProgress) -> str:
    """How a season's stage reads after its name: "active", "playoffs", "complete"…"""
    if stage is SeasonStage.POSTSEASON and progress.postseason is not None:
        return progress.postseason.name
    return stage.value


def check_next_season(stage: SeasonStage, *, shown: str, override: bool) -> None:
    """COMMON-SEASON-1: the next season starts from a complete one, unless the commissioner says otherwise."""
    if stage is SeasonStage.COMPLETE or override:
        return
    raise RuleViolation(
        "COMMON-SEASON-1",
        f"{shown} is not complete yet, so nothing was started. Finish it first, or run `/season new override:true` "
        "to start the next season anyway.",
    )
