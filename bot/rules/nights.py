"""A ladder or field season's nights on the calendar (COMMON-SEASON-1): the dates from the first night, one a week on
its weekday, skipped dates using up no week number; and the night-day posts planned from them. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

from bot.rules.posts import Calendar, PlannedPost, PostKind, Timing, local_moment
from bot.rules.refusals import InvalidInput, RuleViolation

RULE = "COMMON-SEASON-1"
MAX_NIGHTS = 52
SKIP_REASON_MAX = 200  # `storage.nights.PlannedNight.skipped_because`
PLANNED = "planned"  # `bot.rules.posts.Event.kind` of a scheduled night, opened or not


def night_dates(first: date, nights: int, skips: Iterable[date], *, today: date) -> list[date]:
    """The season's night dates: `first`, then every 7 days, passing over each skipped date. A skip must be one
    of those weekly dates within the season; the first night must be today or later."""
    if not 1 <= nights <= MAX_NIGHTS:
        raise InvalidInput(f"`nights` must be between 1 and {MAX_NIGHTS}, not {nights}: how many nights the season has")
    if first < today:
        raise InvalidInput(
            f"`first` {first.isoformat()} is in the past (today is {today.isoformat()} in the league's zone): "
            "give the date of the first night to come."
        )
    skipped = sorted(set(skips))
    weekday = f"{first:%A}s"
    for day in skipped:
        if day == first:
            raise RuleViolation(
                RULE, f"`skip` {day.isoformat()} is the first night: give the first night played as `first`."
            )
        if day.weekday() != first.weekday():
            raise RuleViolation(RULE, f"`skip` {day.isoformat()} is a {day:%A}; the nights are on {weekday}.")
    dates: list[date] = []
    day = first
    while len(dates) < nights:
        if day not in skipped:
            dates.append(day)
        day += timedelta(days=7)
    outside = [d for d in skipped if d < first or d > dates[-1]]
    if outside:
        raise RuleViolation(
            RULE,
            f"`skip` {', '.join(d.isoformat() for d in outside)} is outside the season "
            f"({first.isoformat()} to {dates[-1].isoformat()}): skip only dates between the first and last night.",
        )
    return dates


def parse_start(text: str) -> time:
    """A night's local start time, on a 24-hour clock: "19:15"."""
    try:
        return time.fromisoformat(text.strip()).replace(second=0, microsecond=0)
    except ValueError:
        raise InvalidInput(
            f"`start` {text.strip()!r} is not a time: write it as HH:MM on a 24-hour clock, e.g. 19:15."
        ) from None


def plan_each_night_day(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """A night-day post (reminder) for each scheduled night, at `at` `days` from its date in the league's zone;
    period: the night's date, so opening the night changes nothing."""
    for event in calendar.events:
        if event.kind == PLANNED:
            due_at = local_moment(event.day + timedelta(days=timing.days), timing.at or time(12), zone)
            yield PlannedPost(kind.name, event.day.isoformat(), due_at, due_at.astimezone(zone), (event.ref,))
