"""Which scheduled posts are due when (bot/rules/posts.py): a season week walked minute by minute through the US
DST changes in March and November, with a ticker that sends each due post it has not sent yet."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.rules import posts as rules
from bot.rules.posts import Calendar, Dispute, Event, PlannedPost, PostingSettings, Timing
from bot.rules.team import posts as team_posts  # noqa: F401  (registers the team format's kinds)

NEW_YORK = ZoneInfo("America/New_York")
EVERY_CHANNEL = frozenset(rules.Channel)
MINUTE = timedelta(minutes=1)


def settings(**overrides: object) -> PostingSettings:
    values: dict[str, object] = {"zone": NEW_YORK, "channels": EVERY_CHANNEL}
    values.update(overrides)
    return PostingSettings(**values)  # type: ignore[arg-type]


def ny(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=NEW_YORK)


def walk(
    calendar: Calendar, start: datetime, end: datetime, posting: PostingSettings
) -> list[tuple[PlannedPost, datetime]]:
    """Tick every minute from `start` to `end`; send what is due and not sent yet (the claim table's job)."""
    sent: dict[tuple[str, str], tuple[PlannedPost, datetime]] = {}
    now = start.astimezone(UTC)
    while now <= end:
        for post in rules.due("team", posting, calendar, now=now):
            sent.setdefault((post.kind, post.period), (post, now))
        now += MINUTE
    return list(sent.values())


def week_around(change: date, *, final: bool = True) -> Calendar:
    """Matches on the Saturday before a DST change, on the change's Sunday and on the Monday after (week 1)."""
    days = [change - timedelta(days=1), change, change + timedelta(days=1)]
    events = tuple(
        Event(ref=n, day=day, week=1, final_at=ny(day, 23) if final else None) for n, day in enumerate(days, start=1)
    )
    return Calendar(season=1, events=events)


@pytest.mark.parametrize(
    ("change", "offset_before", "offset_after"),
    [(date(2027, 3, 14), -5, -4), (date(2027, 11, 7), -4, -5)],
    ids=["march-spring-forward", "november-fall-back"],
)
def test_every_post_of_a_dst_week_fires_once_at_its_local_time(
    change: date, offset_before: int, offset_after: int
) -> None:
    """TEAM-ROSTER-7: the cutoff reminder is at 2 p.m. local on every match day, before and after the change;
    so is every other kind at its own local time, each exactly once."""
    calendar = week_around(change)
    start, end = ny(change - timedelta(days=3), 0), ny(change + timedelta(days=4), 0)
    sent = walk(calendar, start, end, settings())

    counts: dict[str, int] = {}
    for post, at in sent:
        counts[post.kind] = counts.get(post.kind, 0) + 1
        assert at == post.due_at, f"{post.kind} {post.period} went out at {at}, due {post.due_at}"
        kind = rules.REGISTRY[post.kind]
        if kind.default.at is not None and post.kind != "weekly_standings":
            assert post.local.time() == kind.default.at, (post.kind, post.local)
    assert counts == {"roster_cutoff": 3, "roll_call": 3, "match_night": 3, "weekly_standings": 1}

    cutoffs = sorted(post.due_at for post, _ in sent if post.kind == "roster_cutoff")
    assert [c.astimezone(NEW_YORK).strftime("%a %H:%M") for c in cutoffs] == ["Sat 14:00", "Sun 14:00", "Mon 14:00"]
    assert [c.hour for c in cutoffs] == [14 - offset_before, 14 - offset_after, 14 - offset_after]  # UTC hours
    roll_calls = {post.period: post.local for post, _ in sent if post.kind == "roll_call"}
    assert roll_calls["match-2"] == ny(change - timedelta(days=1), 12)  # the day before the change, at noon
    assert roll_calls["match-2"].utcoffset() == timedelta(hours=offset_before)
    standings = next(post for post, _ in sent if post.kind == "weekly_standings")
    assert standings.local == ny(change + timedelta(days=2), 12) and standings.period == "s1-week-1"


def test_missing_score_nudge_the_morning_after_a_match_that_is_not_final() -> None:
    change = date(2027, 3, 14)
    calendar = week_around(change, final=False)
    sent = walk(calendar, ny(change - timedelta(days=1), 0), ny(change + timedelta(days=3), 0), settings())
    nudges = sorted((post for post, _ in sent if post.kind == "missing_scores"), key=lambda p: p.due_at)
    assert [(p.local.strftime("%a %H:%M %Z"), p.refs) for p in nudges] == [
        ("Sun 09:00 EDT", (1,)),  # Saturday's match, the morning after: already summer time
        ("Mon 09:00 EDT", (2,)),
        ("Tue 09:00 EDT", (3,)),
    ]
    assert not [post for post, _ in sent if post.kind == "weekly_standings"]  # the week is not final


def test_a_time_in_the_spring_forward_gap_lands_an_hour_later_and_a_repeated_time_fires_once() -> None:
    """02:30 does not exist on 14 March 2027 in New York: the post goes at 03:30 EDT. 01:30 happens twice on
    7 November: the post goes at the first one (EDT), once."""
    posting = settings(timings={"roster_cutoff": Timing(at=time(2, 30))})
    spring = walk(week_around(date(2027, 3, 14)), ny(date(2027, 3, 13), 0), ny(date(2027, 3, 15), 0), posting)
    on_the_day = next(p for p, _ in spring if p.kind == "roster_cutoff" and p.period == "2027-03-14")
    assert on_the_day.local.strftime("%H:%M %Z") == "03:30 EDT"

    posting = settings(timings={"roster_cutoff": Timing(at=time(1, 30))})
    autumn = walk(week_around(date(2027, 11, 7)), ny(date(2027, 11, 6), 0), ny(date(2027, 11, 8), 0), posting)
    fired = [p for p, _ in autumn if p.kind == "roster_cutoff" and p.period == "2027-11-07"]
    assert len(fired) == 1 and fired[0].local.strftime("%H:%M %Z") == "01:30 EDT"


def test_a_post_missed_by_more_than_the_grace_is_skipped_and_one_within_it_is_sent() -> None:
    """After a restart: a post that fell due while the bot was down goes out if still within the grace."""
    calendar = week_around(date(2027, 3, 14))
    due_at = rules.local_moment(date(2027, 3, 14), time(14), NEW_YORK)
    within = rules.due("team", settings(), calendar, now=due_at + timedelta(minutes=119))
    assert ("roster_cutoff", "2027-03-14") in {(p.kind, p.period) for p in within}
    late = rules.due("team", settings(), calendar, now=due_at + timedelta(minutes=121))
    assert ("roster_cutoff", "2027-03-14") not in {(p.kind, p.period) for p in late}
    short_grace = settings(grace=timedelta(minutes=5))
    assert not [p for p in rules.due("team", short_grace, calendar, now=due_at + timedelta(minutes=6))]


def test_paused_leagues_post_nothing_and_posts_due_while_paused_stay_unsent() -> None:
    calendar = week_around(date(2027, 3, 14))
    due_at = rules.local_moment(date(2027, 3, 14), time(14), NEW_YORK)
    assert rules.due("team", settings(paused=True), calendar, now=due_at) == []
    resumed = settings(resumed_at=due_at + timedelta(minutes=10))
    assert rules.due("team", resumed, calendar, now=due_at + timedelta(minutes=15)) == []


def test_kinds_turned_off_or_without_a_channel_are_not_planned() -> None:
    calendar = week_around(date(2027, 3, 14))
    off = settings(timings={"roll_call": Timing(enabled=False, at=time(12), days=-1)})
    assert not [p for p in rules.plan("team", off, calendar) if p.kind == "roll_call"]
    no_scores_channel = settings(channels=frozenset({rules.Channel.ANNOUNCEMENTS}))
    kinds = {p.kind for p in rules.plan("team", no_scores_channel, week_around(date(2027, 3, 14), final=False))}
    assert "missing_scores" not in kinds and "roster_cutoff" in kinds


def test_short_handed_warning_only_for_a_side_with_fewer_than_four_coming() -> None:
    """TEAM-SHORT-1: three players play short; the captains hear it on match day."""
    day = date(2027, 3, 16)
    calendar = Calendar(1, (Event(1, day, 1, available=(4, 3)), Event(2, day, 1, available=(5, 4))))
    warnings = [p for p in rules.plan("team", settings(), calendar) if p.kind == "short_warning"]
    assert [(p.period, p.local) for p in warnings] == [("match-1", ny(day, 12))]


def test_dispute_report_reminded_at_12_hours_and_closed_at_24() -> None:
    """TEAM-DISP-1: the bot reminds at +12 h and flags the commissioner at +24 h."""
    raised = datetime(2027, 11, 6, 23, 30, tzinfo=NEW_YORK)  # the night before the clocks go back
    calendar = Calendar(1, disputes=(Dispute(7, 1, raised.astimezone(UTC)),))
    planned = {p.kind: p for p in rules.plan("team", settings(), calendar)}
    real_hours = raised.astimezone(UTC)  # aware arithmetic in one zone is wall-clock time; the window is real time
    assert planned["dispute_reminder"].due_at == real_hours + timedelta(hours=12)
    assert planned["dispute_closed"].due_at == real_hours + timedelta(hours=24)
    assert planned["dispute_closed"].local.strftime("%a %H:%M %Z") == "Sun 22:30 EST"  # 24 real hours
    assert rules.REGISTRY["dispute_closed"].channel is rules.Channel.COMMISSIONERS


def test_weekly_standings_wait_for_the_last_result_and_go_stale_when_the_next_week_is_due() -> None:
    """TEAM-STAND-1: the table after each week's last result; a late result moves the post, never loses it."""
    monday = date(2027, 3, 1)
    late_result = ny(monday + timedelta(days=3), 20)
    calendar = Calendar(
        1,
        (
            Event(1, monday, 1, final_at=ny(monday, 23)),
            Event(2, monday + timedelta(days=1), 1, final_at=late_result),
            Event(3, monday + timedelta(days=7), 2, final_at=ny(monday + timedelta(days=7), 23)),
        ),
    )
    posts = [p for p in rules.plan("team", settings(), calendar) if p.kind == "weekly_standings"]
    assert [(p.period, p.local) for p in posts] == [
        ("s1-week-1", late_result),
        ("s1-week-2", ny(monday + timedelta(days=8), 12)),
    ]
    assert posts[0].expires_at == posts[1].due_at
    month_of_grace = settings(grace=timedelta(days=30))
    due = rules.due("team", month_of_grace, calendar, now=posts[1].due_at)
    assert [p for p in due if p.kind == "weekly_standings"] == [posts[1]]  # week 1's table is superseded


def test_the_bracket_is_posted_when_drawn() -> None:
    drawn = datetime(2027, 4, 12, 21, 5, tzinfo=UTC)
    calendar = Calendar(2, bracket_at=drawn)
    [post] = [p for p in rules.plan("team", settings(), calendar) if p.kind == "bracket"]
    assert (post.period, post.due_at) == ("s2-bracket", drawn)


def test_a_format_adds_its_own_kinds_to_the_registry() -> None:
    """The ladder and field formats plug their posts in the same way (e.g. next week's groups)."""

    def groups(kind: rules.PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> list[PlannedPost]:
        return [
            PlannedPost(kind.name, f"night-{e.ref}", (at := rules.local_moment(e.day, timing.at or time(9), zone)), at)
            for e in calendar.events
            if e.final
        ]

    kind = rules.PostKind(
        "test_ladder_groups", "next week's groups", "groups", rules.Channel.ANNOUNCEMENTS, Timing(at=time(9)),
        frozenset({"test-ladder"}), groups,
    )  # fmt: skip
    rules.register(kind)
    try:
        calendar = Calendar(1, (Event(5, date(2027, 3, 2), 1, final_at=ny(date(2027, 3, 2), 23)),))
        planned = rules.plan("test-ladder", settings(), calendar)
        assert [p.period for p in planned if p.kind == kind.name] == ["night-5"]
        assert {p.kind for p in planned} == {kind.name, "weekly_standings"}  # a kind every format posts
        assert kind not in rules.kinds_for("team")
        with pytest.raises(ValueError, match="already registered"):
            rules.register(
                rules.PostKind("test_ladder_groups", "x", "x", rules.Channel.SCORES, Timing(), frozenset(), groups)
            )
    finally:
        del rules.REGISTRY[kind.name]
