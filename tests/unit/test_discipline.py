"""Discipline rules (bot/rules/discipline.py): COMMON-DISC-1, COMMON-PLAYER-2, TEAM-DISC-1..4, TEAM-TV-19."""

from datetime import date, timedelta

import pytest

from bot.rules.discipline import (
    DisciplineKind,
    Sanction,
    barring,
    player_flags,
    require_in_good_standing,
    second_warning_suspends,
    team_flags,
)
from bot.rules.refusals import RuleViolation

SEASON_1, SEASON_2 = 1, 2
WEEK_1 = date(2027, 3, 1)


def week(n: int) -> date:
    return WEEK_1 + timedelta(weeks=n - 1)


def warning(id: int, on: date, season: int = SEASON_1) -> Sanction:
    return Sanction(id, DisciplineKind.WARNING, season, on)


def suspension(
    id: int, on: date, *, ends: date | None = None, season: int = SEASON_1, lifted: bool = False
) -> Sanction:
    return Sanction(id, DisciplineKind.SUSPENSION, season, on, ends, lifted)


class TestTeamTV19:
    def test_second_warning_in_a_season_suspends_to_its_end(self) -> None:
        """TEAM-TV-19 / TEAM-DISC-2: warned in week 3 and week 8 → suspended from week 9 to the end of the season,
        playoffs included; the next season the player is eligible again."""
        first = [warning(1, week(3))]
        assert not second_warning_suspends(first, season_id=SEASON_1)
        both = [*first, warning(2, week(8))]
        assert second_warning_suspends(both, season_id=SEASON_1)
        ledger = [*both, suspension(3, week(8))]
        assert barring(ledger, season_id=SEASON_1, on=week(9)) == ledger[2]
        assert barring(ledger, season_id=SEASON_1, on=week(20)) == ledger[2]  # playoffs: the same season
        assert barring(ledger, season_id=SEASON_2, on=week(60)) is None

    def test_suspended_again_next_season_flags_an_expulsion_review(self) -> None:
        """TEAM-TV-19 / TEAM-DISC-2: a player with 2 suspensions in their history is flagged for expulsion review."""
        ledger = [suspension(3, week(8)), suspension(9, week(58), season=SEASON_2)]
        flags = player_flags(ledger, slam_tilts_this_season=0, slam_tilt_flag=2)
        assert [rule for rule, _ in flags] == ["TEAM-DISC-2"]
        assert player_flags(ledger[:1], slam_tilts_this_season=0, slam_tilt_flag=2) == []

    def test_warnings_of_another_season_do_not_add_up(self) -> None:
        """TEAM-DISC-2: two warnings in different seasons are not a 2nd warning in one season."""
        ledger = [warning(1, week(3)), warning(2, week(55), season=SEASON_2)]
        assert not second_warning_suspends(ledger, season_id=SEASON_2)


class TestGoodStanding:
    def test_suspension_with_an_end_date(self) -> None:
        """COMMON-PLAYER-2: refused until the suspension ends, with the ruling's id; allowed the day after."""
        ledger = [suspension(7, week(2), ends=week(4))]
        with pytest.raises(RuleViolation) as refused:
            require_in_good_standing("Zoe", ledger, season_id=SEASON_1, on=week(4), doing="play in a lineup")
        assert refused.value.rule_id == "COMMON-PLAYER-2"
        assert "Zoe is suspended through 2027-03-22 (ruling #7) and cannot play in a lineup" in refused.value.message
        require_in_good_standing("Zoe", ledger, season_id=SEASON_1, on=week(4) + timedelta(days=1), doing="x")
        require_in_good_standing("Zoe", ledger, season_id=SEASON_1, on=week(1), doing="x")  # not started yet

    def test_lifted_suspension_no_longer_bars(self) -> None:
        """COMMON-PLAYER-2: a lifted suspension is kept in the ledger but bars nobody."""
        require_in_good_standing(
            "Zoe", [suspension(7, week(2), lifted=True)], season_id=SEASON_1, on=week(3), doing="x"
        )

    def test_expulsion_is_forever_and_named_first(self) -> None:
        """COMMON-PLAYER-2 / TEAM-DISC-2: expelled forever, even seasons later; the expulsion is the ruling named."""
        ledger = [suspension(4, week(2)), Sanction(5, DisciplineKind.EXPULSION, SEASON_1, week(3))]
        with pytest.raises(RuleViolation) as refused:
            require_in_good_standing("Zoe", ledger, season_id=SEASON_2, on=week(80), doing="join a roster")
        assert "Zoe is expelled (ruling #5) and cannot join a roster" in refused.value.message

    def test_warnings_alone_never_bar(self) -> None:
        """TEAM-DISC-1 / COMMON-DISC-1: a warning is recorded; only suspensions and expulsions bar a player."""
        assert barring([warning(1, week(1))], season_id=SEASON_1, on=week(2)) is None


class TestFlags:
    def test_repeated_slam_tilts(self) -> None:
        """TEAM-DISC-3: flagged once a player reaches `slam_tilt_flag` slam tilts in a season."""
        assert player_flags([], slam_tilts_this_season=1, slam_tilt_flag=2) == []
        assert [rule for rule, _ in player_flags([], slam_tilts_this_season=2, slam_tilt_flag=2)] == ["TEAM-DISC-3"]

    def test_second_team_warning_is_grounds_for_discipline(self) -> None:
        """TEAM-DISC-4: a team's first warning is recorded; a later one is flagged."""
        assert team_flags([warning(1, week(2))]) == []
        assert [rule for rule, _ in team_flags([warning(1, week(2)), warning(2, week(6))])] == ["TEAM-DISC-4"]
