"""COMMON-SEASON-1/2: a season's stage, derived from the counts each format reports, and the reminder of a
post-season without a date."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.rules import posts
from bot.rules.refusals import RuleViolation
from bot.rules.seasons import (
    PostSeason,
    SeasonProgress,
    SeasonStage,
    check_next_season,
    postseason_undated,
    season_stage,
    stage_label,
)

PLAYOFFS_AHEAD = PostSeason("playoffs", begun=False, complete=False)


@pytest.mark.parametrize(
    ("progress", "stage", "label"),
    [
        (SeasonProgress(regular=0, begun=0, final=0, postseason=PLAYOFFS_AHEAD), SeasonStage.PLANNED, "planned"),
        (SeasonProgress(regular=15, begun=0, final=0, postseason=PLAYOFFS_AHEAD), SeasonStage.PLANNED, "planned"),
        (SeasonProgress(regular=15, begun=1, final=0, postseason=PLAYOFFS_AHEAD), SeasonStage.ACTIVE, "active"),
        (SeasonProgress(regular=15, begun=15, final=14, postseason=PLAYOFFS_AHEAD), SeasonStage.ACTIVE, "active"),
        (
            SeasonProgress(regular=15, begun=15, final=15, postseason=PLAYOFFS_AHEAD),
            SeasonStage.REGULAR_COMPLETE,
            "regular season complete",
        ),
        (
            SeasonProgress(regular=8, begun=8, final=8, postseason=PostSeason("finals", begun=True, complete=False)),
            SeasonStage.POSTSEASON,
            "finals",
        ),
        (
            SeasonProgress(regular=8, begun=8, final=8, postseason=PostSeason("finals", begun=True, complete=True)),
            SeasonStage.COMPLETE,
            "complete",
        ),
        (SeasonProgress(regular=10, begun=10, final=10, postseason=None), SeasonStage.COMPLETE, "complete"),
        (SeasonProgress(regular=10, begun=3, final=2, postseason=None), SeasonStage.ACTIVE, "active"),
    ],
)
def test_stage_follows_what_happened(progress: SeasonProgress, stage: SeasonStage, label: str) -> None:
    """COMMON-SEASON-1/2: planned, the regular season, its end, the post-season, complete."""
    assert season_stage(progress) is stage
    assert stage_label(stage, progress) == label


def test_an_unscheduled_team_season_with_results_is_active_not_complete() -> None:
    """COMMON-SEASON-1: no schedule yet (regular 0) never reads as complete, whatever else is counted."""
    assert season_stage(SeasonProgress(regular=0, begun=1, final=1, postseason=None)) is SeasonStage.ACTIVE


def test_the_next_season_waits_for_a_complete_one_unless_overridden() -> None:
    """COMMON-SEASON-1: `/season new` refuses while the season is under way, names the override, and lets it pass."""
    with pytest.raises(RuleViolation) as refused:
        check_next_season(SeasonStage.POSTSEASON, shown="Season 1 (playoffs)", override=False)
    assert refused.value.rule_id == "COMMON-SEASON-1"
    assert "Season 1 (playoffs) is not complete yet" in refused.value.message
    assert "override:true" in refused.value.message
    check_next_season(SeasonStage.POSTSEASON, shown="Season 1 (playoffs)", override=True)
    check_next_season(SeasonStage.COMPLETE, shown="Season 1 (playoffs)", override=False)


def test_the_post_season_is_undated_once_the_regular_season_is_over() -> None:
    """COMMON-SEASON-2: a reminder is due once the regular season is final, until a date is set or the
    post-season has begun (team playoffs seeded, field finals taking entries)."""
    over = SeasonProgress(regular=8, begun=8, final=8, postseason=PostSeason("finals", begun=False, complete=False))
    assert postseason_undated(over, None)
    assert not postseason_undated(over, date(2027, 6, 8))
    assert not postseason_undated(replace(over, final=7), None)
    assert not postseason_undated(replace(over, postseason=PostSeason("finals", begun=True, complete=False)), None)
    assert postseason_undated(SeasonProgress(regular=10, begun=10, final=10, postseason=None), None)  # ladder


CHICAGO = ZoneInfo("America/Chicago")


def test_the_reminder_is_planned_at_noon_league_time_or_at_once_when_the_season_ends_later() -> None:
    """COMMON-SEASON-2: one reminder per season to the commissioners' channel, at `at` on the day the regular
    season ended (local time), or the moment it ended if that is later; none while the date is set."""
    settings = posts.PostingSettings(zone=CHICAGO, channels=frozenset({posts.Channel.COMMISSIONERS}))
    morning = datetime(2027, 6, 1, 9, 30, tzinfo=CHICAGO)
    planned = [p for p in posts.plan("field", settings, posts.Calendar(1, undated_since=morning))]
    assert [(p.kind, p.period, p.local.replace(tzinfo=None)) for p in planned] == [
        ("postseason_date", "s1-postseason-date", datetime(2027, 6, 1, 12, 0))
    ]
    evening = datetime(2027, 6, 1, 22, 15, tzinfo=CHICAGO)
    [late] = posts.plan("ladder", settings, posts.Calendar(2, undated_since=evening))
    assert (late.period, late.due_at) == ("s2-postseason-date", evening.astimezone(UTC))
    assert posts.plan("team", settings, posts.Calendar(1)) == []
