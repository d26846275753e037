"""Season schedule (bot/rules/team/schedule.py): TEAM-SCHED-1 and TEAM-CFG-1."""

from collections import Counter
from datetime import date, timedelta
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.refusals import RuleViolation
from bot.rules.team.schedule import (
    ScheduledMatch,
    ScheduleTeam,
    Season,
    check_move_venue,
    check_schedule,
    generate_season,
    league_week,
    week_for_match,
)

FIRST_MONDAY = date(2023, 1, 2)
TUESDAY, THURSDAY = 1, 3


def weeks(count: int) -> list[date]:
    return [FIRST_MONDAY + timedelta(weeks=w) for w in range(count)]


def teams(count: int, conference: str | None = None, first_id: int = 1, night: int = TUESDAY) -> list[ScheduleTeam]:
    return [ScheduleTeam(t, 100 + t, night, conference) for t in range(first_id, first_id + count)]


def pairs(season: Season) -> Counter[frozenset[int]]:
    return Counter(frozenset((m.home, m.away)) for m in season.matches)


def home_away_gaps(season: Season) -> dict[int, int]:
    home = Counter(m.home for m in season.matches)
    away = Counter(m.away for m in season.matches)
    return {team: home[team] - away[team] for team in home.keys() | away.keys()}


class TestRoundRobin:
    def test_even_count_meets_everyone_once_in_n_minus_one_weeks(self) -> None:
        """TEAM-SCHED-1: 6 teams, 5 weeks: every pair meets exactly once, 3 matches a week, no byes."""
        season = generate_season(teams(6), weeks(5))
        assert set(pairs(season).values()) == {1} and len(pairs(season)) == 15
        assert Counter(m.week for m in season.matches) == {w: 3 for w in range(1, 6)}
        assert season.byes == ()

    def test_odd_count_gives_one_bye_a_week(self) -> None:
        """TEAM-SCHED-1: 5 teams, 5 weeks: one bye a week, each team has exactly one, every pair meets once."""
        season = generate_season(teams(5), weeks(5))
        assert sorted(b.week for b in season.byes) == [1, 2, 3, 4, 5]
        assert sorted(b.team for b in season.byes) == [1, 2, 3, 4, 5]
        assert set(pairs(season).values()) == {1} and len(pairs(season)) == 10

    def test_round_robin_repeats_and_repeat_meetings_swap_venue(self) -> None:
        """TEAM-SCHED-1: 4 teams over 6 weeks play the round robin twice; a pair's second meeting is at the
        other team's bar, so every team is exactly 3 home, 3 away."""
        season = generate_season(teams(4), weeks(6))
        assert set(pairs(season).values()) == {2}
        for pair in pairs(season):
            hosts = [m.home for m in season.matches if {m.home, m.away} == pair]
            assert sorted(hosts) == sorted(pair)
        assert set(home_away_gaps(season).values()) == {0}

    def test_venue_is_the_home_teams_bar_on_its_match_night(self) -> None:
        """TEAM-SCHED-1: the venue is the HOME team's bar; the date is HOME's match night in that week."""
        league = [ScheduleTeam(1, 101, TUESDAY), ScheduleTeam(2, 102, THURSDAY)]
        season = generate_season(league, weeks(2))
        by_week = {m.week: m for m in season.matches}
        for match in season.matches:
            assert match.venue == 100 + match.home
        nights = {m.home: m.date for m in season.matches}
        assert nights[1].weekday() == TUESDAY and nights[2].weekday() == THURSDAY
        assert by_week[2].date - by_week[1].date in (timedelta(days=5), timedelta(days=9))

    def test_weeks_starting_midweek_put_the_match_on_home_s_night_within_the_week(self) -> None:
        """TEAM-SCHED-1: league weeks that start on a Wednesday: a Tuesday HOME team plays on the Tuesday six
        days later, the last day of that week."""
        wednesday = date(2023, 1, 4)
        season = generate_season(teams(2), [wednesday])
        assert [m.date for m in season.matches] == [date(2023, 1, 10)]

    def test_a_pair_meeting_twice_is_first_hosted_by_the_lower_numbered_team(self) -> None:
        """TEAM-SCHED-1: two teams over two weeks: team 1 hosts week 1 and team 2 the return in week 2."""
        season = generate_season(teams(2), weeks(2))
        assert [(m.week, m.home, m.away) for m in season.matches] == [(1, 1, 2), (2, 2, 1)]

    def test_skipped_weeks_use_no_week_number(self) -> None:
        """COMMON-SEASON-1 with TEAM-SCHED-1: week numbers follow the given week starts, gaps and all."""
        starts = [FIRST_MONDAY, FIRST_MONDAY + timedelta(weeks=2)]  # the week of Jan 9 is skipped
        season = generate_season(teams(2), starts)
        assert [(m.week, m.date) for m in season.matches] == [(1, date(2023, 1, 3)), (2, date(2023, 1, 17))]

    def test_schedule_is_deterministic(self) -> None:
        assert generate_season(teams(7), weeks(9)) == generate_season(teams(7), weeks(9))


class TestConferences:
    def test_teams_meet_within_their_conference_by_default(self) -> None:
        """TEAM-CFG-1 / TEAM-SCHED-1: East and West are scheduled separately, each with its own bye."""
        league = teams(3, "East") + teams(4, "West", first_id=10)
        season = generate_season(league, weeks(3))
        east = {1, 2, 3}
        assert all((m.home in east) == (m.away in east) for m in season.matches)
        assert all(b.team in east for b in season.byes) and len(season.byes) == 3

    def test_whole_league_when_not_intra_conference(self) -> None:
        """TEAM-SCHED-1: with conferences off, all 7 teams form one round robin."""
        league = teams(3, "East") + teams(4, "West", first_id=10)
        season = generate_season(league, weeks(7), intra_conference=False)
        assert len(pairs(season)) == 21

    def test_a_lone_team_cannot_be_scheduled(self) -> None:
        """TEAM-SCHED-1: a conference with one team has nobody to play."""
        with pytest.raises(RuleViolation, match="Conference West needs at least 2 teams") as refusal:
            generate_season(teams(3, "East") + teams(1, "West", first_id=10), weeks(3))
        assert refusal.value.rule_id == "TEAM-SCHED-1"


class TestCheckSchedule:
    def test_two_matches_in_a_week_are_refused(self) -> None:
        """TEAM-SCHED-1: reject schedules that give a team two matches in the same week."""
        matches = [
            ScheduledMatch(3, date(2023, 1, 17), 1, 2, 101),
            ScheduledMatch(3, date(2023, 1, 19), 3, 1, 103),
        ]
        with pytest.raises(RuleViolation, match="Aces has two matches in week 3") as refusal:
            check_schedule(matches, {1: "Aces", 2: "Bumpers", 3: "Drains"})
        assert refusal.value.rule_id == "TEAM-SCHED-1"

    def test_one_match_a_week_passes(self) -> None:
        """TEAM-SCHED-1: the same teams in different weeks are fine."""
        matches = [ScheduledMatch(3, date(2023, 1, 17), 1, 2, 101), ScheduledMatch(4, date(2023, 1, 24), 2, 1, 102)]
        check_schedule(matches, {1: "Aces", 2: "Bumpers"})


class TestMatchDayChange:
    """TEAM-SCHED-1 for a match given a new date (TEAM-VENUE-3): its week must be free for both teams."""

    NAMES: ClassVar = {1: "Aces", 2: "Bumpers", 3: "Cherries", 4: "Drains"}
    OTHERS: ClassVar = [
        ScheduledMatch(2, date(2023, 1, 10), 1, 3, 101),
        ScheduledMatch(2, date(2023, 1, 12), 4, 2, 104),
    ]

    def test_weeks_count_seven_days_from_the_first_day(self) -> None:
        assert [league_week(FIRST_MONDAY, FIRST_MONDAY + timedelta(days=d)) for d in (0, 6, 7, 13, 14)] == [
            1,
            1,
            2,
            2,
            3,
        ]

    def test_a_free_week_gives_its_number(self) -> None:
        assert week_for_match(date(2023, 1, 19), {1, 2}, self.OTHERS, week_one=FIRST_MONDAY, team_names=self.NAMES) == 3

    def test_a_week_where_either_team_plays_is_refused_naming_every_clash(self) -> None:
        with pytest.raises(RuleViolation) as refused:
            week_for_match(date(2023, 1, 15), {1, 2}, self.OTHERS, week_one=FIRST_MONDAY, team_names=self.NAMES)
        assert refused.value.rule_id == "TEAM-SCHED-1"
        assert refused.value.message.startswith(
            "Aces already plays Cherries on Tue 2023-01-10 and Bumpers already plays Drains on Thu 2023-01-12, "
            "in week 2 (Mon 01-09 to Sun 01-15)"
        )

    def test_a_day_before_week_one_is_refused(self) -> None:
        with pytest.raises(RuleViolation, match="before week 1 of the season, which starts Mon 2023-01-02"):
            week_for_match(date(2023, 1, 1), {1, 2}, [], week_one=FIRST_MONDAY, team_names=self.NAMES)


conference_sizes = st.lists(st.integers(min_value=2, max_value=9), min_size=1, max_size=3)


class TestProperties:
    @given(conference_sizes, st.integers(min_value=1, max_value=30), st.booleans())
    def test_one_match_a_week_and_home_away_within_one(self, sizes: list[int], count: int, intra: bool) -> None:
        """TEAM-SCHED-1: at most one match per team per week, never against itself, and every team's home and
        away counts differ by at most 1, for any number of teams and weeks."""
        league = [t for i, size in enumerate(sizes) for t in teams(size, f"C{i}", first_id=100 * i + 1)]
        season = generate_season(league, weeks(count), intra_conference=intra)
        check_schedule(season.matches, {t.team: str(t.team) for t in league})
        assert all(m.home != m.away for m in season.matches)
        assert all(abs(gap) <= 1 for gap in home_away_gaps(season).values())
        appearances = Counter((m.week, t) for m in season.matches for t in (m.home, m.away))
        appearances.update((b.week, b.team) for b in season.byes)
        assert appearances == {(w, t.team): 1 for w in range(1, count + 1) for t in league}

    @given(st.integers(min_value=2, max_value=12))
    def test_a_full_cycle_is_a_round_robin(self, size: int) -> None:
        """TEAM-SCHED-1 (circle method): one cycle has every pair meet exactly once."""
        cycle = size - 1 if size % 2 == 0 else size
        season = generate_season(teams(size), weeks(cycle))
        assert len(pairs(season)) == size * (size - 1) // 2 and set(pairs(season).values()) == {1}


def test_team_sched_1_week_one_counts_and_the_day_before_it_is_refused_by_rule() -> None:
    names = {1: "Aces", 2: "Bumpers"}
    assert week_for_match(FIRST_MONDAY, {1, 2}, [], week_one=FIRST_MONDAY, team_names=names) == 1
    assert week_for_match(FIRST_MONDAY + timedelta(days=6), {1, 2}, [], week_one=FIRST_MONDAY, team_names=names) == 1
    with pytest.raises(RuleViolation) as refused:
        week_for_match(date(2023, 1, 1), {1, 2}, [], week_one=FIRST_MONDAY, team_names=names)
    assert (refused.value.rule_id, refused.value.message) == (
        "TEAM-SCHED-1",
        "Sun 2023-01-01 is before week 1 of the season, which starts Mon 2023-01-02.",
    )


def test_team_sched_1_a_league_of_one_team_cannot_be_scheduled() -> None:
    with pytest.raises(RuleViolation) as refused:
        generate_season(teams(1), weeks(4), intra_conference=False)
    assert (refused.value.rule_id, refused.value.message) == (
        "TEAM-SCHED-1",
        "The league needs at least 2 teams to make a schedule.",
    )


class TestMoveVenue:
    """TEAM-VENUE-2: HOME moves the match to a regular league venue, or to another with a recorded justification."""

    REGULARS = ("Ace Arcade", "Bumper Bar")

    def test_a_regular_league_venue_needs_no_justification(self) -> None:
        check_move_venue("Bumper Bar", regular=True, justification=None, regular_venues=self.REGULARS)

    def test_another_venue_with_a_justification_is_allowed(self) -> None:
        check_move_venue(
            "Tilt Tavern", regular=False, justification="both regular venues are closed", regular_venues=self.REGULARS
        )

    def test_another_venue_without_a_justification_is_refused_naming_the_regular_ones(self) -> None:
        with pytest.raises(RuleViolation) as refused:
            check_move_venue("Tilt Tavern", regular=False, justification=None, regular_venues=self.REGULARS)
        assert refused.value.rule_id == "TEAM-VENUE-2"
        assert refused.value.message == (
            "Tilt Tavern is not a regular league venue. HOME chooses a regular league venue (Ace Arcade, Bumper "
            "Bar) unless none can host the match; if so, say why with `justification:`."
        )

    def test_a_league_without_regular_venues_says_none_yet(self) -> None:
        with pytest.raises(RuleViolation) as refused:
            check_move_venue("Tilt Tavern", regular=False, justification=None, regular_venues=())
        assert "regular league venue (none yet) unless" in refused.value.message
