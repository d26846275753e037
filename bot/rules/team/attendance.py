"""Match-night attendance: check-in and out, the start window, short and forfeit classification.

Rules TEAM-SCHED-2..5 of shared/rules/CATALOG.md (NYC III.A, VI, VI.C). Times are local league time and
`now` is always a parameter: this module never reads a clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta, tzinfo
from enum import StrEnum

from bot.rules.refusals import RuleViolation
from bot.rules.team.model import PlayerId, RosterRole, Side
from bot.rules.team.options import TeamOptions

FULL_SIDE = 4  # players a team needs to play without penalty (NYC VI ¶1)
SHORT_SIDE = 3  # the fewest players that still play, at a penalty (TEAM-SHORT-1)


@dataclass(frozen=True)
class RosterEntry:
    """A rostered player as of the match date (TEAM-ROSTER-4: the status that day decides minimum play)."""

    player_id: PlayerId
    name: str
    role: RosterRole
    user_id: int | None = None  # the member's chat account, to ask them to act; the rules never read it


@dataclass(frozen=True)
class Visit:
    """One stay at the match: checked in at `arrived`, checked out at `left` (None while still there)."""

    side: Side
    player_id: PlayerId
    arrived: datetime
    left: datetime | None = None

    def present_at(self, moment: datetime) -> bool:
        return self.arrived <= moment and (self.left is None or moment < self.left)


def present_players(visits: Iterable[Visit], side: Side, moment: datetime) -> frozenset[PlayerId]:
    """Players of `side` checked in and not checked out at `moment`."""
    return frozenset(v.player_id for v in visits if v.side is side and v.present_at(moment))


def check_in(
    visits: Sequence[Visit], roster: Sequence[RosterEntry], side: Side, player_id: PlayerId, *, now: datetime
) -> tuple[Visit, ...]:
    """TEAM-SCHED-2: a rostered player checks in, time-stamped. Returns the visits with the new one added."""
    entry = _rostered(roster, player_id)
    if player_id in present_players(visits, side, now):
        raise RuleViolation("TEAM-SCHED-2", f"{entry.name} is already checked in.")
    return (*visits, Visit(side, player_id, now))


def check_out(
    visits: Sequence[Visit], roster: Sequence[RosterEntry], side: Side, player_id: PlayerId, *, now: datetime
) -> tuple[Visit, ...]:
    """TEAM-SCHED-2, TEAM-SCHED-5: a player leaves, time-stamped. Returns the visits with that stay closed."""
    entry = _rostered(roster, player_id)
    for i, visit in enumerate(visits):
        if visit.side is side and visit.player_id == player_id and visit.present_at(now):
            return (*visits[:i], replace(visit, left=now), *visits[i + 1 :])
    raise RuleViolation("TEAM-SCHED-2", f"{entry.name} is not checked in, so cannot check out.")


def _rostered(roster: Sequence[RosterEntry], player_id: PlayerId) -> RosterEntry:
    for entry in roster:
        if entry.player_id == player_id:
            return entry
    raise RuleViolation("TEAM-SCHED-2", f"Player #{player_id} is not on the roster, so cannot check in or out.")


class AttendanceStatus(StrEnum):
    """A team's standing when the start window closes (TEAM-SCHED-3)."""

    NORMAL = "normal"  # 4 or more players
    SHORT = "short"  # exactly 3: plays at a penalty (TEAM-SHORT-*)
    FORFEIT = "forfeit"  # fewer than 3 (TEAM-FORF-1)


class WindowState(StrEnum):
    BEFORE_START = "before_start"  # before the scheduled start time
    WAITING = "waiting"  # a team is short and the courtesy (or agreed extra) wait is still running
    EXTENSION_OFFERED = "extension_offered"  # courtesy wait over, a team short, captains not yet answered
    DECIDED = "decided"  # the match started, or the window closed and each team is classified


@dataclass(frozen=True)
class AttendanceCall:
    state: WindowState
    decided_at: datetime | None = None  # when both teams had 4, or when the window closed
    status: Mapping[Side, AttendanceStatus] = field(default_factory=dict)  # filled once DECIDED


def classify_attendance(
    visits: Sequence[Visit],
    *,
    match_day: date,
    zone: tzinfo | None,
    now: datetime,
    extension_agreed: bool | None,
    options: TeamOptions,
) -> AttendanceCall:
    """TEAM-SCHED-3: start the match as soon as both teams have 4 present, from the scheduled start on.

    A short team is not classified before the courtesy wait ends (20:15). Then the bot offers the extra wait
    (to 20:30), which needs both captains: `extension_agreed` is None until they have answered. When the
    window closes each team is NORMAL (4+ present), SHORT (3) or FORFEIT (fewer). The scheduled start is
    `options.match_start` on `match_day` in the league's `zone` (COMMON-AMB-1); `zone` is None only when
    every time given is a naive local time.
    """
    start = datetime.combine(match_day, options.match_start, tzinfo=zone)
    if now < start:
        return AttendanceCall(WindowState.BEFORE_START)
    courtesy_end = start + timedelta(minutes=options.start_wait_minutes)
    close = courtesy_end + timedelta(minutes=options.optional_extra_wait_minutes if extension_agreed else 0)
    full_at = _first_moment_both_full(visits, start, min(now, close))
    if full_at is not None:
        return AttendanceCall(WindowState.DECIDED, full_at, {side: AttendanceStatus.NORMAL for side in Side})
    if now < close:
        return AttendanceCall(WindowState.WAITING)
    if extension_agreed is None and options.optional_extra_wait_minutes > 0:
        return AttendanceCall(WindowState.EXTENSION_OFFERED)
    return AttendanceCall(
        WindowState.DECIDED, close, {side: _status(len(present_players(visits, side, close))) for side in Side}
    )


def window_settled_at(match_day: date, *, zone: tzinfo | None, options: TeamOptions) -> datetime:
    """The latest moment the start window can close (TEAM-SCHED-3): the scheduled start, the courtesy wait and
    the optional extra wait. From then on `classify_attendance` answers the same for any later `now`; only
    new visits or the captains' answer on the extension can change it."""
    start = datetime.combine(match_day, options.match_start, tzinfo=zone)
    return start + timedelta(minutes=options.start_wait_minutes + options.optional_extra_wait_minutes)


def _first_moment_both_full(visits: Sequence[Visit], start: datetime, end: datetime) -> datetime | None:
    """Counts only rise at arrivals, so the start time and each arrival up to `end` are the moments to test."""
    moments = sorted({start, *(v.arrived for v in visits if start < v.arrived <= end)})
    for moment in moments:
        if all(len(present_players(visits, side, moment)) >= FULL_SIDE for side in Side):
            return moment
    return None


def _status(present: int) -> AttendanceStatus:
    if present >= FULL_SIDE:
        return AttendanceStatus.NORMAL
    return AttendanceStatus.SHORT if present == SHORT_SIDE else AttendanceStatus.FORFEIT


def short_attendance_matches(season: Iterable[AttendanceStatus]) -> int:
    """TEAM-SCHED-4: how many of a team's matches this season it began with fewer than 4 players."""
    return sum(status is not AttendanceStatus.NORMAL for status in season)


def short_attendance_flag_due(season: Sequence[AttendanceStatus], options: TeamOptions) -> bool:
    """TEAM-SCHED-4: flag the commissioner when the latest match (last in `season`) was short or forfeited
    and brings the season's count to `short_attendance_flag` or beyond: "repeatedly" keeps flagging."""
    if not season or season[-1] is AttendanceStatus.NORMAL:
        return False
    return short_attendance_matches(season) >= options.short_attendance_flag
