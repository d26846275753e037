"""The team format's scheduled posts: roster cutoff, roll call, short-handed warning, match night, missing scores
and the dispute window (TEAM-DISP-1). Pure, like `bot.rules.posts`, whose shared kinds (weekly standings,
bracket) the team format posts too."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

from bot.rules.posts import (
    Calendar,
    Channel,
    Event,
    PlannedPost,
    PostKind,
    Timing,
    local_moment,
    register,
)

SHORT_HANDED = 4  # a team with fewer players than this plays short (TEAM-SHORT-1) or forfeits (TEAM-FORF-1)

TEAM = frozenset({"team"})


def _post(kind: PostKind, period: str, day: date, timing: Timing, zone: ZoneInfo, refs: tuple[int, ...]) -> PlannedPost:
    when = day + timedelta(days=timing.days)
    due_at = local_moment(when, timing.at or time(12), zone)
    return PlannedPost(kind.name, period, due_at, due_at.astimezone(zone), refs)


def _by_day(events: Iterable[Event], kinds: tuple[str, ...] = ("regular", "playoff")) -> dict[date, list[Event]]:
    days: dict[date, list[Event]] = {}
    for event in events:
        if event.kind in kinds:
            days.setdefault(event.day, []).append(event)
    return dict(sorted(days.items()))


def _plan_cutoff(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """TEAM-ROSTER-7: on each match day, remind captains that changes for today are due by the cutoff."""
    for day, events in _by_day(calendar.events).items():
        yield _post(kind, day.isoformat(), day, timing, zone, tuple(e.ref for e in events))


def _plan_roll_call(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """One roll call per match, the day before by default: players answer in / out / maybe."""
    for event in calendar.events:
        if event.kind in ("regular", "playoff"):
            yield _post(kind, f"match-{event.ref}", event.day, timing, zone, (event.ref,))


def _plan_short_warning(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """Warn both captains of a match where a side has fewer than four players coming (TEAM-SHORT-1)."""
    for event in calendar.events:
        if event.kind in ("regular", "playoff") and event.available and min(event.available) < SHORT_HANDED:
            yield _post(kind, f"match-{event.ref}", event.day, timing, zone, (event.ref,))


def _plan_match_night(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """On each match day: tonight's matches, venues, machines in service and who is coming."""
    for day, events in _by_day(calendar.events).items():
        yield _post(kind, day.isoformat(), day, timing, zone, tuple(e.ref for e in events))


def _plan_missing_scores(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """The morning after a match day, for the matches not final by then (complete and confirmed)."""
    for day, events in _by_day(calendar.events).items():
        post = _post(kind, day.isoformat(), day, timing, zone, ())
        late = tuple(e.ref for e in events if e.final_at is None or e.final_at > post.due_at)
        if late:
            yield PlannedPost(post.kind, post.period, post.due_at, post.local, late)


def _plan_after_challenge(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """TEAM-DISP-1: `hours` after an open challenge was raised (+12 h reminder, +24 h window closed)."""
    for dispute in calendar.disputes:
        due_at = dispute.raised_at + timedelta(hours=timing.hours)
        yield PlannedPost(kind.name, f"challenge-{dispute.ref}", due_at, due_at.astimezone(zone), (dispute.ref,))


ROSTER_CUTOFF = register(
    PostKind(
        "roster_cutoff",
        "roster-cutoff reminder",
        "Captains: roster changes for today are due by the 4 p.m. cutoff (TEAM-ROSTER-7)",
        Channel.ANNOUNCEMENTS,
        Timing(at=time(14, 0)),
        TEAM,
        _plan_cutoff,
    )
)
ROLL_CALL = register(
    PostKind(
        "roll_call",
        "roll call",
        "The day before a match: players answer in / out / maybe",
        Channel.ANNOUNCEMENTS,
        Timing(at=time(12, 0), days=-1),
        TEAM,
        _plan_roll_call,
    )
)
SHORT_WARNING = register(
    PostKind(
        "short_warning",
        "short-handed warning",
        "Match day: both captains are told when a team has fewer than four players coming",
        Channel.ANNOUNCEMENTS,
        Timing(at=time(12, 0)),
        TEAM,
        _plan_short_warning,
    )
)
MATCH_NIGHT = register(
    PostKind(
        "match_night",
        "match-night reminder",
        "Match day: opponent, venue, machines in service and who is coming",
        Channel.ANNOUNCEMENTS,
        Timing(at=time(17, 0)),
        TEAM,
        _plan_match_night,
    )
)
MISSING_SCORES = register(
    PostKind(
        "missing_scores",
        "missing-score nudge",
        "The morning after: matches not yet complete and confirmed",
        Channel.SCORES,
        Timing(at=time(9, 0), days=1),
        TEAM,
        _plan_missing_scores,
    )
)
DISPUTE_REMINDER = register(
    PostKind(
        "dispute_reminder",
        "dispute report reminder",
        "TEAM-DISP-1: 12 h after a challenge, the full report is due within 24 h",
        Channel.SCORES,
        Timing(hours=12),
        TEAM,
        _plan_after_challenge,
    )
)
DISPUTE_CLOSED = register(
    PostKind(
        "dispute_closed",
        "dispute window closed",
        "TEAM-DISP-1: 24 h after a challenge, the commissioners are told the report window closed",
        Channel.COMMISSIONERS,
        Timing(hours=24),
        TEAM,
        _plan_after_challenge,
    )
)
