"""The ladder and field formats' own scheduled posts, planned from their league nights. Pure, like `bot.rules.posts`.

A night is an `Event` (`ref` its id, `final_at` when it was closed). Both posts hang on a closed night: they go
out at `at`, `days` after the night's date, or as soon as the night is closed if that is later (a night closed
late still gets its post, within the grace). The weekly standings and the finals bracket are the shared kinds of
`bot.rules.posts`, whose `formats` include ladder and field (for a ladder, the "bracket" is its playoff places).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.rules.posts import Calendar, Channel, Event, PlannedPost, PostKind, Timing, local_moment, register

LADDER = frozenset({"ladder"})
FIELD = frozenset({"field"})


def _after_each_closed_night(
    kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo
) -> Iterable[PlannedPost]:
    """One post per closed night, period `night-<id>`; stale once the next night's day begins (its own groups and
    results take over)."""
    nights = sorted((e for e in calendar.events if e.kind == "regular"), key=lambda e: (e.day, e.ref))
    for index, night in enumerate(nights):
        if night.final_at is None:
            continue
        due_at = max(local_moment(night.day + timedelta(days=timing.days), timing.at or time(12), zone), night.final_at)
        following = _next_day_start(nights[index + 1 :], night, zone)
        yield PlannedPost(kind.name, f"night-{night.ref}", due_at, due_at.astimezone(zone), (night.ref,), following)


def _next_day_start(later: list[Event], night: Event, zone: ZoneInfo) -> datetime | None:
    after = [e.day for e in later if e.day > night.day]
    return local_moment(min(after), time(0), zone) if after else None


NEXT_GROUPS = register(
    PostKind(
        "next_groups",
        "next week's groups",
        "The day after a night is closed: next week's groups (LADDER-GROUP-3) and game 1's play order (LADDER-ORDER-1)",
        Channel.ANNOUNCEMENTS,
        Timing(at=time(12, 0), days=1),
        LADDER,
        _after_each_closed_night,
    )
)
NIGHT_RESULTS = register(
    PostKind(
        "night_results",
        "night results",
        "The morning after a night is closed: points per machine (FIELD-SCORE-2) and the night's totals",
        Channel.SCORES,
        Timing(at=time(10, 0), days=1),
        FIELD,
        _after_each_closed_night,
    )
)
