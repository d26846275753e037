"""The team format's scheduled posts (bot/rules/team/posts.py): which matches each post is about, and when."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from bot.rules.posts import Calendar, Dispute, Event, PlannedPost, PostKind, Timing
from bot.rules.team import posts as team_posts

NY = ZoneInfo("America/New_York")
TUE, THU = date(2027, 3, 9), date(2027, 3, 11)  # EST: UTC-5
EVENTS = (
    Event(1, TUE, 1, final_at=datetime(2027, 3, 10, 3, 0, tzinfo=UTC), available=(6, 5)),
    Event(2, TUE, 1, final_at=datetime(2027, 3, 10, 14, 0, tzinfo=UTC), available=(4, 4)),  # final at 9 a.m. sharp
    Event(3, THU, 1, kind="playoff", available=(5, 3)),
    Event(4, THU, 1, kind="night"),  # another format's event: no team post hangs on it
)
CALENDAR = Calendar(season=1, events=EVENTS, disputes=(Dispute(7, 3, datetime(2027, 3, 12, 1, 30, tzinfo=UTC)),))


def planned(kind: PostKind, timing: Timing | None = None) -> list[tuple[str, datetime, tuple[int, ...]]]:
    posts: list[PlannedPost] = list(kind.plan(kind, timing or kind.default, CALENDAR, NY))
    assert all(p.local == p.due_at.astimezone(NY) and p.kind == kind.name for p in posts)
    return [(p.period, p.due_at, p.refs) for p in posts]


def utc(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


def test_team_roster_7_the_cutoff_reminder_is_about_each_match_day_and_defaults_to_noon() -> None:
    """TEAM-ROSTER-7: one reminder a match day naming that day's matches, regular and playoff."""
    assert planned(team_posts.ROSTER_CUTOFF) == [
        ("2027-03-09", utc(TUE, 19), (1, 2)),
        ("2027-03-11", utc(THU, 19), (3,)),
    ]
    assert [due for _, due, _ in planned(team_posts.ROSTER_CUTOFF, Timing())] == [utc(TUE, 17), utc(THU, 17)]


def test_a_roll_call_for_every_match_and_a_short_handed_warning_for_a_side_under_four() -> None:
    """TEAM-SHORT-1: the playoff match with three coming on one side is warned about."""
    the_day_before = date(2027, 3, 8), date(2027, 3, 10)
    assert planned(team_posts.ROLL_CALL) == [
        ("match-1", utc(the_day_before[0], 17), (1,)),
        ("match-2", utc(the_day_before[0], 17), (2,)),
        ("match-3", utc(the_day_before[1], 17), (3,)),
    ]
    assert planned(team_posts.SHORT_WARNING) == [("match-3", utc(THU, 17), (3,))]


def test_the_match_night_reminder_is_at_five_in_the_leagues_zone() -> None:
    assert planned(team_posts.MATCH_NIGHT) == [("2027-03-09", utc(TUE, 22), (1, 2)), ("2027-03-11", utc(THU, 22), (3,))]


def test_missing_scores_name_the_matches_not_final_by_nine_the_next_morning() -> None:
    """Final at 9 a.m. sharp is in time; a playoff match with no result is late."""
    assert planned(team_posts.MISSING_SCORES) == [("2027-03-11", utc(date(2027, 3, 12), 14), (3,))]


def test_team_disp_1_the_reminder_and_the_closed_window_follow_the_challenge_by_12_and_24_hours() -> None:
    assert planned(team_posts.DISPUTE_REMINDER) == [("challenge-7", datetime(2027, 3, 12, 13, 30, tzinfo=UTC), (7,))]
    assert planned(team_posts.DISPUTE_CLOSED) == [("challenge-7", datetime(2027, 3, 13, 1, 30, tzinfo=UTC), (7,))]
