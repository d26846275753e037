"""The ladder and field formats' scheduled posts (bot/rules/ladder/posts.py, bot/rules/field/posts.py and the
shared kinds): next week's groups and a night's results after a closed night, the weekly standings and the field
finals bracket, walked minute by minute across the US DST changes in America/New_York."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.rules import posts as rules
from bot.rules.field.posts import NIGHT_RESULTS
from bot.rules.ladder.posts import NEXT_GROUPS
from bot.rules.posts import Calendar, Event, PostingSettings, Timing

NEW_YORK = ZoneInfo("America/New_York")
MINUTE = timedelta(minutes=1)


def settings(**overrides: object) -> PostingSettings:
    values: dict[str, object] = {"zone": NEW_YORK, "channels": frozenset(rules.Channel)}
    values.update(overrides)
    return PostingSettings(**values)  # type: ignore[arg-type]


def ny(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=NEW_YORK)


def walk(league_format: str, calendar: Calendar, start: datetime, end: datetime) -> dict[tuple[str, str], datetime]:
    """Tick every minute; the first tick each (kind, period) is due at is when it is sent (the claim's job)."""
    sent: dict[tuple[str, str], datetime] = {}
    now = start.astimezone(UTC)
    while now <= end:
        for post in rules.due(league_format, settings(), calendar, now=now):
            sent.setdefault((post.kind, post.period), now)
        now += MINUTE
    return sent


def weekly_nights(first: date, weeks: int, *, closed: int) -> Calendar:
    """One night a week from `first`; the first `closed` of them closed at 10:30 p.m. local."""
    events = tuple(
        Event(ref=100 + week, day=first + timedelta(weeks=week - 1), week=week, final_at=None)
        for week in range(1, weeks + 1)
    )
    closed_events = tuple(
        Event(e.ref, e.day, e.week, final_at=ny(e.day, 22, 30)) if e.week <= closed else e for e in events
    )
    return Calendar(season=3, events=closed_events)


def test_each_format_plans_its_own_kinds() -> None:
    ladder = {kind.name for kind in rules.kinds_for("ladder")}
    field = {kind.name for kind in rules.kinds_for("field")}
    team = {kind.name for kind in rules.kinds_for("team")}
    assert ladder == {"next_groups", "weekly_standings", "bracket", "postseason_date"}
    assert field == {"night_results", "weekly_standings", "bracket", "postseason_date"}
    assert "next_groups" not in team and "night_results" not in team
    assert {"weekly_standings", "bracket", "postseason_date"} <= team


@pytest.mark.parametrize(
    ("first", "utc_hours"),
    [(date(2027, 3, 10), (17, 16)), (date(2027, 11, 3), (16, 17))],  # Wednesdays around 14 March / 7 November
    ids=["march-spring-forward", "november-fall-back"],
)
def test_next_groups_go_out_at_noon_local_the_day_after_each_closed_night_across_dst(
    first: date, utc_hours: tuple[int, int]
) -> None:
    """LADDER-GROUP-3: next week's groups the day after a night is closed, at 12:00 New York time before and after
    the clocks change; each once, never a minute early; the still-open third night has none."""
    calendar = weekly_nights(first, 3, closed=2)
    sent = walk("ladder", calendar, ny(first, 0), ny(first + timedelta(days=20), 0))
    groups = {period: at for (kind, period), at in sent.items() if kind == "next_groups"}
    assert groups == {"night-101": ny(first + timedelta(days=1), 12), "night-102": ny(first + timedelta(days=8), 12)}
    assert [groups[p].astimezone(UTC).hour for p in ("night-101", "night-102")] == list(utc_hours)
    standings = {period: at for (kind, period), at in sent.items() if kind == "weekly_standings"}
    assert standings == {"s3-week-1": ny(first + timedelta(days=1), 12), "s3-week-2": ny(first + timedelta(days=8), 12)}


def test_a_night_closed_after_the_post_time_posts_when_it_is_closed() -> None:
    """LADDER-GROUP-3: a night closed the next afternoon gets its groups post at the close, not at noon."""
    night = Event(ref=7, day=date(2027, 3, 13), week=1, final_at=ny(date(2027, 3, 14), 15, 5))
    [post] = list(NEXT_GROUPS.plan(NEXT_GROUPS, Timing(at=time(12), days=1), Calendar(1, (night,)), NEW_YORK))
    assert post.due_at == ny(date(2027, 3, 14), 15, 5) and post.refs == (7,)


def test_a_nights_post_goes_stale_when_the_next_night_begins() -> None:
    """Once next week's night is on the calendar and its day has begun, last week's groups post is not sent late."""
    calendar = weekly_nights(date(2027, 3, 10), 2, closed=1)
    posts = {p.period: p for p in NEXT_GROUPS.plan(NEXT_GROUPS, Timing(at=time(12), days=1), calendar, NEW_YORK)}
    assert posts["night-101"].expires_at == ny(date(2027, 3, 17), 0)
    late = settings(grace=timedelta(days=14))
    assert rules.due("ladder", late, calendar, now=ny(date(2027, 3, 16), 23))
    assert not [p for p in rules.due("ladder", late, calendar, now=ny(date(2027, 3, 17), 1)) if p.kind == "next_groups"]


@pytest.mark.parametrize("first", [date(2027, 3, 9), date(2027, 11, 2)], ids=["march", "november"])
def test_field_night_results_the_morning_after_in_the_scores_channel(first: date) -> None:
    """FIELD-SCORE-2: a closed night's results at 10:00 local the morning after, once; the week's standings at noon."""
    calendar = weekly_nights(first - timedelta(weeks=1), 2, closed=2)
    sent = walk("field", calendar, ny(first - timedelta(weeks=1), 0), ny(first + timedelta(days=3), 0))
    assert sent[("night_results", "night-101")] == ny(first - timedelta(days=6), 10)
    assert sent[("night_results", "night-102")] == ny(first + timedelta(days=1), 10)
    assert sent[("weekly_standings", "s3-week-2")] == ny(first + timedelta(days=1), 12)
    assert NIGHT_RESULTS.channel is rules.Channel.SCORES
    only_announcements = settings(channels=frozenset({rules.Channel.ANNOUNCEMENTS}))
    assert not [p for p in rules.plan("field", only_announcements, calendar) if p.kind == "night_results"]


def test_the_field_finals_bracket_is_posted_when_seeded() -> None:
    """FIELD-FIN-3: the finals bracket goes out the moment the finals are seeded (LADDER-PO-1: a ladder's
    playoff places when its last regular night is closed, the same kind); no bracket before that."""
    seeded = ny(date(2027, 8, 3), 19, 45)
    calendar = Calendar(season=2, events=(), bracket_at=seeded)
    [post] = rules.due("field", settings(), calendar, now=seeded)
    assert (post.kind, post.period, post.due_at) == ("bracket", "s2-bracket", seeded)
    assert [p.period for p in rules.plan("ladder", settings(), calendar)] == ["s2-bracket"]
    assert not rules.plan("field", settings(), Calendar(season=2))


def test_an_open_night_plans_nothing() -> None:
    calendar = weekly_nights(date(2027, 3, 10), 1, closed=0)
    assert rules.plan("ladder", settings(), calendar) == [] and rules.plan("field", settings(), calendar) == []
