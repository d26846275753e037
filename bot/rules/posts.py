"""Which scheduled posts are due, and when, in the league's own time zone. Pure: no clock, no database.

A league's calendar (its match days, results and open disputes, as plain facts) and its posting settings go
in; planned posts come out, each with its kind, a period key that names it once and for all (the claim key
of `storage.posts.PostClaim`), the local time it is due and the UTC instant that is. Local times are
combined with the league's IANA zone, so a 14:00 reminder stays at 14:00 across the March and November
changes. A time inside the spring-forward gap (02:00–02:59 in New York) does not exist that day: it is read
on the old offset, i.e. it lands an hour later on the wall clock (PEP 495, fold=0); avoid 01:00–02:59.

Post kinds live in a registry a format adds to (`register`): the kinds every format posts (weekly standings, the
bracket) are below, each format's own in `bot.rules.<format>.posts`. A kind's
`plan` turns the calendar and its timing into planned posts; whether a post is sent is decided here, what it
says is the service's and renderer's business.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_GRACE = timedelta(hours=2)


class Channel(StrEnum):
    """Where a kind of post goes; each league names its three channels."""

    ANNOUNCEMENTS = "announcements"
    SCORES = "scores"
    COMMISSIONERS = "commissioners"


class Timing(BaseModel):
    """One kind's settings: on/off, the local time of day, and how many days (or hours) from its anchor."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = True
    at: time | None = None  # local time of day; None for kinds timed in hours from an event
    days: int = Field(default=0, ge=-14, le=14)  # days after the anchor day (negative: before)
    hours: int = Field(default=0, ge=0, le=168)  # hours after the anchor instant (dispute deadlines)


class RollCallAnswer(StrEnum):
    """A player's answer to a match's roll call."""

    IN = "in"
    OUT = "out"
    MAYBE = "maybe"


@dataclass(frozen=True)
class Event:
    """A match (team), a night (ladder, field): something on the calendar that posts hang on.

    `ref` is the event's id; `final_at` the time its result became final (None while it is not);
    `available` how many players of each side said they are coming (roll call), in side order.
    """

    ref: int
    day: date
    week: int
    kind: str = "regular"  # "regular" | "playoff" | a format's own
    final_at: datetime | None = None
    available: tuple[int, ...] = ()

    @property
    def final(self) -> bool:
        return self.final_at is not None


@dataclass(frozen=True)
class Dispute:
    """An open challenge (TEAM-DISP-1): the 24 h report window runs from `raised_at`."""

    ref: int
    event_ref: int
    raised_at: datetime


@dataclass(frozen=True)
class Calendar:
    """The facts posts are planned from. `season` keys the periods of per-season posts (weeks, brackets);
    `bracket_at` is when the post-season bracket was drawn, None before; `undated_since` is when the regular
    season ended while the post-season has no date yet (COMMON-SEASON-2), None otherwise."""

    season: int
    events: tuple[Event, ...] = ()
    disputes: tuple[Dispute, ...] = ()
    bracket_at: datetime | None = None
    undated_since: datetime | None = None


@dataclass(frozen=True)
class PostingSettings:
    """A league's posting settings as the rules see them (`storage.posts.LeaguePosting` holds them)."""

    zone: ZoneInfo
    timings: Mapping[str, Timing] = field(default_factory=dict)  # kind → overrides of the kind's default
    channels: frozenset[Channel] = frozenset()  # the channels the league has named
    grace: timedelta = DEFAULT_GRACE
    paused: bool = False
    resumed_at: datetime | None = None  # posts due while paused are not sent after resuming

    def timing(self, kind: PostKind) -> Timing:
        return self.timings.get(kind.name, kind.default)


@dataclass(frozen=True)
class PlannedPost:
    """One post: `period` names it once within (league, kind); `refs` are the events (or disputes) it is about."""

    kind: str
    period: str
    due_at: datetime  # UTC
    local: datetime  # the same instant in the league's zone, as people read it
    refs: tuple[int, ...] = ()
    expires_at: datetime | None = None  # after this it is stale even within the grace (e.g. superseded)


Planner = Callable[["PostKind", Timing, Calendar, ZoneInfo], Iterable[PlannedPost]]


@dataclass(frozen=True)
class PostKind:
    name: str
    title: str  # how people call it: "roll call"
    description: str
    channel: Channel
    default: Timing
    formats: frozenset[str] | None  # the formats that post it; EVERY_FORMAT: each registered format
    plan: Planner


EVERY_FORMAT = None


REGISTRY: dict[str, PostKind] = {}


def register(kind: PostKind) -> PostKind:
    """Add a kind of post (a format's module calls this at import); names are unique."""
    if kind.name in REGISTRY and REGISTRY[kind.name] != kind:
        raise ValueError(f"a post kind named {kind.name!r} is already registered")
    REGISTRY[kind.name] = kind
    return kind


def kinds_for(league_format: str) -> list[PostKind]:
    return [kind for kind in REGISTRY.values() if kind.formats is EVERY_FORMAT or league_format in kind.formats]


def local_moment(day: date, at: time, zone: ZoneInfo) -> datetime:
    """`at` on `day` in `zone`, as an aware UTC instant (see the module note on the spring-forward gap)."""
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


def plan(league_format: str, settings: PostingSettings, calendar: Calendar) -> list[PlannedPost]:
    """Every post of the enabled kinds whose channel the league has named, in due order."""
    posts: list[PlannedPost] = []
    for kind in kinds_for(league_format):
        timing = settings.timing(kind)
        if timing.enabled and kind.channel in settings.channels:
            posts.extend(kind.plan(kind, timing, calendar, settings.zone))
    return sorted(posts, key=lambda post: (post.due_at, post.kind, post.period))


def due(league_format: str, settings: PostingSettings, calendar: Calendar, *, now: datetime) -> list[PlannedPost]:
    """The posts to send at `now`: due already, no older than the grace, not expired, none while paused,
    none that fell due while the league was paused. Whether one was sent already is the claim table's say."""
    if settings.paused:
        return []
    since = now - settings.grace
    resumed = settings.resumed_at
    return [
        post
        for post in plan(league_format, settings, calendar)
        if since <= post.due_at <= now
        and (resumed is None or post.due_at > resumed)
        and (post.expires_at is None or now < post.expires_at)
    ]


def upcoming(
    league_format: str, settings: PostingSettings, calendar: Calendar, *, now: datetime, horizon: timedelta
) -> list[PlannedPost]:
    """The posts due after `now` and within `horizon`, for `/posts upcoming`."""
    return [post for post in plan(league_format, settings, calendar) if now < post.due_at <= now + horizon]


def latest(
    league_format: str, settings: PostingSettings, calendar: Calendar, kind: str, *, now: datetime
) -> PlannedPost | None:
    """The post of `kind` a preview shows: the next one due, else the last one (settings' on/off ignored)."""
    chosen = REGISTRY[kind]
    posts = sorted(chosen.plan(chosen, settings.timing(chosen), calendar, settings.zone), key=lambda p: p.due_at)
    ahead = [post for post in posts if post.due_at > now]
    if ahead:
        return ahead[0]
    return posts[-1] if posts else None


def plan_after_each_closed_night(
    kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo
) -> Iterable[PlannedPost]:
    """The ladder and field formats' night posts: one per closed night (an `Event` whose `final_at` is when it
    was closed), period `night-<id>`, at `at` `days` after the night's date or as soon as it is closed if that is
    later (a night closed late still gets its post, within the grace); stale once the next night's day begins
    (its own groups and results take over)."""
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


# --- the kinds every format posts ---------------------------------------------------------------------------


def _plan_weekly_standings(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """TEAM-STAND-1: after each regular week's last result: at `at` the day after its last match day, or when
    its last result becomes final if that is later. A week's post is stale once the next week's is due."""
    weeks: dict[int, list[Event]] = {}
    for event in calendar.events:
        if event.kind == "regular":
            weeks.setdefault(event.week, []).append(event)
    planned: list[PlannedPost] = []
    for week, events in sorted(weeks.items()):
        if not all(event.final for event in events):
            continue
        last_day = max(event.day for event in events)
        earliest = local_moment(last_day + timedelta(days=timing.days), timing.at or time(12), zone)
        due_at = max([earliest, *(event.final_at for event in events if event.final_at is not None)])
        refs = tuple(event.ref for event in events)
        planned.append(PlannedPost(kind.name, f"s{calendar.season}-week-{week}", due_at, due_at.astimezone(zone), refs))
    for post, following in itertools.pairwise(planned):
        yield PlannedPost(post.kind, post.period, post.due_at, post.local, post.refs, expires_at=following.due_at)
    if planned:
        yield planned[-1]


def _plan_bracket(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """The post-season bracket as soon as it is drawn (the message is then edited as results arrive)."""
    if calendar.bracket_at is not None:
        due_at = calendar.bracket_at
        yield PlannedPost(kind.name, f"s{calendar.season}-bracket", due_at, due_at.astimezone(zone))


def _plan_postseason_date(kind: PostKind, timing: Timing, calendar: Calendar, zone: ZoneInfo) -> Iterable[PlannedPost]:
    """COMMON-SEASON-2: once the regular season has ended without a post-season date, the officials are reminded
    at `at` that day (or at once if it ended later); setting the date takes the reminder off the plan."""
    since = calendar.undated_since
    if since is not None:
        day = since.astimezone(zone).date() + timedelta(days=timing.days)
        due_at = max(local_moment(day, timing.at or time(12), zone), since)
        yield PlannedPost(kind.name, f"s{calendar.season}-postseason-date", due_at, due_at.astimezone(zone))


WEEKLY_STANDINGS = register(
    PostKind(
        "weekly_standings",
        "weekly standings",
        "After the week's last result: the table and the standings race as images",
        Channel.ANNOUNCEMENTS,
        Timing(at=time(12, 0), days=1),
        EVERY_FORMAT,  # a ladder or field week is its one night
        _plan_weekly_standings,
    )
)
BRACKET = register(
    PostKind(
        "bracket",
        "playoff bracket",
        "When the playoffs are drawn, the bracket as an image, updated as results arrive",
        Channel.ANNOUNCEMENTS,
        Timing(),
        EVERY_FORMAT,  # ladder: the playoff places; field: the finals, once seeded
        _plan_bracket,
    )
)
POSTSEASON_DATE = register(
    PostKind(
        "postseason_date",
        "post-season date reminder",
        "When the regular season ends and the playoffs or finals have no date yet, a reminder to set one",
        Channel.COMMISSIONERS,
        Timing(at=time(12, 0)),
        EVERY_FORMAT,
        _plan_postseason_date,
    )
)
