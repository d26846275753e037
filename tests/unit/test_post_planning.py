"""The post planner's edges (bot/rules/posts.py), one calendar at a time: when each kind every format posts falls
due, what it is about, when it goes stale, and which of them `due`, `upcoming` and `latest` pick at a given instant.
The minute-by-minute DST walk is in test_post_schedule.py; these are the quick checks of the same rules."""

from __future__ import annotations

import time as time_module
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.rules import posts as rules
from bot.rules.posts import Calendar, Event, PlannedPost, PostingSettings, Timing

NEW_YORK = ZoneInfo("America/New_York")
EVERY_CHANNEL = frozenset(rules.Channel)
MONDAY = date(2027, 3, 1)  # EST all month up to the 14th
NIGHTS = "test-nights"  # a format whose only own kind is a post after each closed night


def ny(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=NEW_YORK)


def shown(moment: datetime | None) -> str | None:
    """How people read a post's local time: the zone's name included (an instant in another zone reads otherwise)."""
    return None if moment is None else moment.strftime("%Y-%m-%d %H:%M %Z")


def settings(**overrides: object) -> PostingSettings:
    values: dict[str, object] = {"zone": NEW_YORK, "channels": EVERY_CHANNEL}
    values.update(overrides)
    return PostingSettings(**values)  # type: ignore[arg-type]


def in_calendar_order(kind: rules.PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> list[PlannedPost]:
    """A format's kind that plans one post per event at `at` on its day, in the order the calendar lists them."""
    return [
        PlannedPost(
            kind.name,
            f"event-{e.ref}",
            (at := rules.local_moment(e.day, timing.at or time(9), zone)),
            at.astimezone(zone),
        )
        for e in calendar.events
    ]


@pytest.fixture(autouse=True)
def night_kinds() -> Iterator[None]:
    kinds = [
        rules.PostKind(
            "test_night_results", "night results", "after each night", rules.Channel.SCORES,
            Timing(at=time(10), days=1), frozenset({NIGHTS}), rules.plan_after_each_closed_night,
        ),
        rules.PostKind(
            "test_event_reminder", "reminder", "each event", rules.Channel.SCORES, Timing(at=time(9)),
            frozenset({"test-events"}), in_calendar_order,
        ),
    ]  # fmt: skip
    for kind in kinds:
        rules.register(kind)
    yield
    for kind in kinds:
        del rules.REGISTRY[kind.name]


def of_kind(posts: list[PlannedPost], kind: str) -> list[PlannedPost]:
    return [post for post in posts if post.kind == kind]


# --- weekly standings (TEAM-STAND-1) --------------------------------------------------------------------------


def three_weeks(**week_two: object) -> Calendar:
    """Weeks 1–3 on Mondays and Tuesdays, results final at 23:00; a playoff match (never final) sits in week 2."""
    events: list[Event] = []
    for week in (1, 2, 3):
        monday = MONDAY + timedelta(weeks=week - 1)
        for offset in (0, 1):
            day = monday + timedelta(days=offset)
            events.append(Event(10 * week + offset, day, week, final_at=ny(day, 23)))
    events.append(Event(99, MONDAY + timedelta(days=9), 2, kind="playoff"))
    if week_two:
        events = [Event(**{**e.__dict__, **week_two}) if e.ref == 21 else e for e in events]  # type: ignore[arg-type]
    return Calendar(4, tuple(events))


def test_weekly_standings_the_day_after_each_weeks_last_match_each_stale_once_the_next_is_due() -> None:
    """TEAM-STAND-1: the default is noon the day after the week's last match; a playoff match is not part of it."""
    posts = of_kind(rules.plan("team", settings(), three_weeks()), "weekly_standings")
    assert [(p.period, shown(p.local), p.refs) for p in posts] == [
        ("s4-week-1", "2027-03-03 12:00 EST", (10, 11)),
        ("s4-week-2", "2027-03-10 12:00 EST", (20, 21)),
        ("s4-week-3", "2027-03-17 12:00 EDT", (30, 31)),
    ]
    assert [p.due_at for p in posts] == [ny(MONDAY + timedelta(days=d), 12) for d in (2, 9, 16)]
    assert [p.expires_at for p in posts] == [posts[1].due_at, posts[2].due_at, None]
    assert {p.kind for p in posts} == {"weekly_standings"}


@pytest.mark.parametrize(
    ("timing", "expected"),
    [
        (Timing(at=time(9, 30), days=2), "2027-03-11 09:30 EST"),
        (Timing(days=1), "2027-03-10 12:00 EST"),  # no time of day: noon
        (Timing(at=time(8)), "2027-03-09 23:00 EST"),  # that morning was before the last result: when it is final
    ],
)
def test_weekly_standings_follow_the_leagues_timing(timing: Timing, expected: str) -> None:
    """TEAM-STAND-1: the league's time and day offset, never before the week's last result is final."""
    posts = of_kind(
        rules.plan("team", settings(timings={"weekly_standings": timing}), three_weeks()), "weekly_standings"
    )
    assert shown(posts[1].local) == expected


def test_a_week_with_a_result_still_open_waits_and_the_other_weeks_still_post() -> None:
    """TEAM-STAND-1: week 2 has no table until its last match is final; weeks 1 and 3 are not held up."""
    posts = of_kind(rules.plan("team", settings(), three_weeks(final_at=None)), "weekly_standings")
    assert [p.period for p in posts] == ["s4-week-1", "s4-week-3"]
    assert posts[0].expires_at == posts[1].due_at


def test_a_late_result_moves_the_weeks_table_to_when_it_became_final() -> None:
    """TEAM-STAND-1: week 2's Tuesday result came in on Thursday evening."""
    late = ny(MONDAY + timedelta(days=10), 20, 15)
    posts = of_kind(rules.plan("team", settings(), three_weeks(final_at=late)), "weekly_standings")
    assert [shown(p.local) for p in posts] == ["2027-03-03 12:00 EST", "2027-03-11 20:15 EST", "2027-03-17 12:00 EDT"]
    assert posts[0].expires_at == late


# --- the bracket and the post-season date reminder (COMMON-SEASON-2) ---------------------------------------------


def test_the_bracket_post_is_due_the_moment_it_is_drawn_and_not_before() -> None:
    drawn = datetime(2027, 4, 13, 1, 5, tzinfo=UTC)
    [post] = of_kind(rules.plan("team", settings(), Calendar(2, bracket_at=drawn)), "bracket")
    assert (post.kind, post.period, post.due_at, shown(post.local), post.refs) == (
        "bracket", "s2-bracket", drawn, "2027-04-12 21:05 EDT", (),
    )  # fmt: skip
    assert of_kind(rules.plan("team", settings(), Calendar(2)), "bracket") == []


@pytest.mark.parametrize(
    ("ended_at", "timing", "expected"),
    [
        (ny(MONDAY, 9), None, "2027-03-01 12:00 EST"),  # the default: noon that day
        (ny(MONDAY, 15, 40), None, "2027-03-01 15:40 EST"),  # ended after noon: at once
        (ny(MONDAY, 22), None, "2027-03-01 22:00 EST"),  # 03:00 UTC the next day; the league's day counts
        (ny(MONDAY, 9), Timing(at=time(10), days=2), "2027-03-03 10:00 EST"),
        (ny(MONDAY, 9), Timing(days=1), "2027-03-02 12:00 EST"),
    ],
)
def test_the_post_season_date_reminder_goes_to_the_officials_the_day_the_season_ends(
    ended_at: datetime, timing: Timing | None, expected: str
) -> None:
    """COMMON-SEASON-2: the regular season is over and the post-season has no date yet."""
    posting = settings(timings={"postseason_date": timing} if timing else {})
    [post] = of_kind(rules.plan("team", posting, Calendar(3, undated_since=ended_at)), "postseason_date")
    assert (post.period, shown(post.local)) == ("s3-postseason-date", expected)
    assert post.due_at == post.local
    assert rules.REGISTRY[post.kind].channel is rules.Channel.COMMISSIONERS
    assert of_kind(rules.plan("team", posting, Calendar(3)), "postseason_date") == []


# --- a post after each closed night (the ladder and field formats) ---------------------------------------------


def test_each_closed_night_gets_its_post_stale_once_the_next_nights_day_begins() -> None:
    """Nights listed out of order; two on the 8th; the 15th's is still open, the 22nd's closed; a playoff night
    has no such post."""
    events = (
        Event(6, MONDAY + timedelta(days=21), 4, final_at=ny(MONDAY + timedelta(days=21), 23)),
        Event(4, MONDAY + timedelta(days=14), 3),  # left open (a tie awaits its playoff)
        Event(3, MONDAY + timedelta(days=7), 2, final_at=ny(MONDAY + timedelta(days=7), 23)),
        Event(2, MONDAY + timedelta(days=7), 2, final_at=ny(MONDAY + timedelta(days=10), 18)),  # closed late
        Event(1, MONDAY, 1, final_at=ny(MONDAY, 23)),
        Event(5, MONDAY + timedelta(days=21), 4, kind="playoff", final_at=ny(MONDAY + timedelta(days=21), 23)),
    )
    posts = of_kind(rules.plan(NIGHTS, settings(), Calendar(1, events)), "test_night_results")
    assert [(p.period, shown(p.local), p.refs, p.expires_at) for p in posts] == [
        ("night-1", "2027-03-02 10:00 EST", (1,), ny(MONDAY + timedelta(days=7), 0)),
        ("night-3", "2027-03-09 10:00 EST", (3,), ny(MONDAY + timedelta(days=14), 0)),
        ("night-2", "2027-03-11 18:00 EST", (2,), ny(MONDAY + timedelta(days=14), 0)),
        ("night-6", "2027-03-23 10:00 EDT", (6,), None),
    ]
    assert [p.due_at for p in posts] == [p.local for p in posts]


@pytest.mark.parametrize(
    ("timing", "expected"),
    [
        (Timing(at=time(7, 45), days=2), "2027-03-03 07:45 EST"),
        (Timing(days=1), "2027-03-02 12:00 EST"),  # no time of day: noon
        (Timing(at=time(20)), "2027-03-01 23:00 EST"),  # before it was closed: when it is
    ],
)
def test_a_nights_post_follows_the_leagues_timing(timing: Timing, expected: str) -> None:
    calendar = Calendar(1, (Event(1, MONDAY, 1, final_at=ny(MONDAY, 23)),))
    [post] = of_kind(
        rules.plan(NIGHTS, settings(timings={"test_night_results": timing}), calendar), "test_night_results"
    )
    assert (post.kind, shown(post.local), post.expires_at) == ("test_night_results", expected, None)


# --- which kinds, and in what order ------------------------------------------------------------------------------


def test_a_formats_own_kinds_are_planned_for_it_alone_beside_those_of_every_format() -> None:
    calendar = Calendar(1, (Event(1, MONDAY, 1, final_at=ny(MONDAY, 23)),), bracket_at=ny(MONDAY, 21))
    assert {p.kind for p in rules.plan(NIGHTS, settings(), calendar)} == {
        "test_night_results", "weekly_standings", "bracket",
    }  # fmt: skip
    assert {k.name for k in rules.kinds_for("test-events")} >= {"test_event_reminder", "bracket"}
    assert "test_night_results" not in {k.name for k in rules.kinds_for("test-events")}


def test_posts_come_in_due_order_then_by_kind() -> None:
    """Events listed out of order; a reminder and the bracket at the same minute go by kind name."""
    events = (Event(2, MONDAY + timedelta(days=2), 1), Event(1, MONDAY, 1))
    calendar = Calendar(1, events, bracket_at=ny(MONDAY + timedelta(days=2), 9))
    assert [(p.kind, p.period) for p in rules.plan("test-events", settings(), calendar)] == [
        ("test_event_reminder", "event-1"),
        ("bracket", "s1-bracket"),
        ("test_event_reminder", "event-2"),
    ]


def test_a_kind_turned_off_or_whose_channel_is_not_named_is_not_planned() -> None:
    calendar = Calendar(1, (Event(1, MONDAY, 1),), bracket_at=ny(MONDAY, 21))
    off = settings(timings={"test_event_reminder": Timing(enabled=False, at=time(9))})
    assert [p.kind for p in rules.plan("test-events", off, calendar)] == ["bracket"]
    no_scores = settings(channels=frozenset({rules.Channel.ANNOUNCEMENTS}))
    assert [p.kind for p in rules.plan("test-events", no_scores, calendar)] == ["bracket"]
    moved = settings(timings={"test_event_reminder": Timing(at=time(18))})
    assert [shown(p.local) for p in rules.plan("test-events", moved, calendar)] == [
        "2027-03-01 18:00 EST", "2027-03-01 21:00 EST",
    ]  # fmt: skip


# --- due, upcoming, latest ---------------------------------------------------------------------------------------


def one_reminder() -> tuple[Calendar, datetime]:
    return Calendar(1, (Event(1, MONDAY, 1),)), ny(MONDAY, 9)


@pytest.mark.parametrize(
    ("after", "posting", "sent"),
    [
        (timedelta(0), settings(), True),  # on the minute
        (-timedelta(seconds=1), settings(), False),  # not yet
        (timedelta(hours=2), settings(), True),  # the last instant of the grace
        (timedelta(hours=2, seconds=1), settings(), False),
        (timedelta(minutes=10), settings(grace=timedelta(minutes=10)), True),
        (timedelta(minutes=11), settings(grace=timedelta(minutes=10)), False),
        (timedelta(minutes=5), settings(resumed_at=ny(MONDAY, 8)), True),  # fell due after resuming
        (timedelta(minutes=5), settings(resumed_at=ny(MONDAY, 9)), False),  # due the minute it resumed
        (timedelta(minutes=5), settings(resumed_at=ny(MONDAY, 9, 2)), False),  # fell due while paused
        (timedelta(0), settings(paused=True), False),
    ],
)
def test_a_post_is_sent_from_its_due_time_to_the_end_of_the_grace_unless_paused_then(
    after: timedelta, posting: PostingSettings, sent: bool
) -> None:
    calendar, due_at = one_reminder()
    assert [p.period for p in rules.due("test-events", posting, calendar, now=due_at + after)] == (
        ["event-1"] if sent else []
    )


@pytest.mark.parametrize(
    ("now", "periods"),
    [
        (ny(MONDAY + timedelta(days=16), 11, 59), ["s4-week-2"]),  # week 2's table, late, still due
        (ny(MONDAY + timedelta(days=16), 12), ["s4-week-3"]),  # week 3's is due: week 2's has expired
    ],
)
def test_a_superseded_post_is_not_sent_even_within_the_grace(now: datetime, periods: list[str]) -> None:
    """TEAM-STAND-1: week 2's table was held up by a result final only an hour before week 3's is due."""
    calendar = three_weeks(final_at=ny(MONDAY + timedelta(days=16), 11))
    posting = settings(grace=timedelta(days=30))
    assert [p.period for p in of_kind(rules.due("team", posting, calendar, now=now), "weekly_standings")] == periods


def test_upcoming_lists_the_posts_after_now_up_to_the_horizon() -> None:
    events = tuple(Event(n, MONDAY + timedelta(days=n), 1) for n in range(4))
    calendar = Calendar(1, events)
    now = ny(MONDAY + timedelta(days=1), 9)  # event 1's reminder is due right now: not upcoming
    found = rules.upcoming("test-events", settings(), calendar, now=now, horizon=timedelta(days=2))
    assert [p.period for p in found] == ["event-2", "event-3"]  # event 3's at the horizon's last instant
    off = settings(timings={"test_event_reminder": Timing(enabled=False)})
    assert rules.upcoming("test-events", off, calendar, now=now, horizon=timedelta(days=2)) == []


@pytest.mark.parametrize(
    ("now", "period"),
    [
        (ny(MONDAY, 8), "event-1"),  # the next one due
        (ny(MONDAY + timedelta(days=7), 9), "event-2"),  # event 3 is due right now: no longer ahead
        (ny(MONDAY + timedelta(days=4), 12), "event-3"),
        (ny(MONDAY + timedelta(days=30), 0), "event-2"),  # all past: the last one
    ],
)
def test_the_preview_shows_the_next_post_of_a_kind_else_its_last(now: datetime, period: str) -> None:
    """Events listed out of order; the preview ignores the kind being turned off, not its time of day."""
    events = (Event(2, MONDAY + timedelta(days=14), 1), Event(1, MONDAY, 1), Event(3, MONDAY + timedelta(days=7), 1))
    posting = settings(timings={"test_event_reminder": Timing(enabled=False, at=time(9))}, channels=frozenset())
    post = rules.latest("test-events", posting, Calendar(1, events), "test_event_reminder", now=now)
    assert post is not None and post.period == period
    moved = settings(timings={"test_event_reminder": Timing(at=time(21))})
    later = rules.latest("test-events", moved, Calendar(1, events), "test_event_reminder", now=ny(MONDAY, 10))
    assert later is not None and shown(later.local) == "2027-03-01 21:00 EST"


def test_the_preview_of_a_kind_with_nothing_planned_is_empty() -> None:
    assert rules.latest("team", settings(), Calendar(1), "bracket", now=ny(MONDAY, 9)) is None


def test_due_times_are_utc_instants_whatever_the_hosts_own_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The claim table stores due times in UTC: a bot hosted in Berlin plans the same instants, read as UTC."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time_module.tzset()
    try:
        due_at = rules.local_moment(MONDAY, time(14), NEW_YORK)
        assert (due_at.utcoffset(), due_at.strftime("%H:%M")) == (timedelta(0), "19:00")
    finally:
        monkeypatch.undo()
        time_module.tzset()
