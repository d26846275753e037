"""COMMON-SEASON-1/2: a season's stage, derived from the counts each format reports."""

from __future__ import annotations

import pytest

from bot.rules.refusals import RuleViolation
from bot.rules.seasons import PostSeason, SeasonProgress, SeasonStage, check_next_season, season_stage, stage_label

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
