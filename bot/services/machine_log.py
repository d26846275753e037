"""The machine-issue log (COMMON-MALF-1, TEAM-MACH-7/8): failures taken out of matches, adjustments reported
on match night and status changes, exportable as CSV for the venue's operator."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.refusals import InvalidInput
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import find_league, find_venue
from bot.services.permissions import require_commissioner
from bot.services.team.match_access import acting_in, load_context
from storage.db import Database
from storage.discipline import IssueKind, IssueSeverity, MachineIssue
from storage.models import Machine, MachineStatus, Venue

MAJOR_STATUSES = (MachineStatus.UNPLAYABLE, MachineStatus.OUT_OF_SERVICE)


async def record(
    session: AsyncSession,
    actor: Actor,
    machine: Machine,
    *,
    kind: IssueKind,
    severity: IssueSeverity,
    description: str,
    action_taken: str,
    at: datetime,
    match_id: int | None = None,
) -> MachineIssue:
    """Add a line to the log; a major or catastrophic failure is audited as `machine_major_failure`, an event
    the league is told about (TEAM-MACH-7)."""
    row = MachineIssue(
        league_id=machine.league_id, machine_id=machine.id or 0, match_id=match_id, kind=kind, severity=severity,
        description=description[:500], action_taken=action_taken[:200], reported_by=actor.user_id, reported_at=at,
    )  # fmt: skip
    session.add(row)
    await session.flush()
    major = severity in (IssueSeverity.MAJOR, IssueSeverity.CATASTROPHIC) and kind is IssueKind.FAILURE
    audit.created(session, actor, row, at=at, action="machine_major_failure" if major else "machine_issue")
    return row


def status_severity(status: MachineStatus) -> IssueSeverity:
    if status in MAJOR_STATUSES:
        return IssueSeverity.MAJOR
    return IssueSeverity.POSITIVE if status is MachineStatus.WORKING else IssueSeverity.MINOR


@dataclass(frozen=True)
class LogLine:
    issue: MachineIssue
    machine: str
    venue: str


@dataclass(frozen=True)
class MachineLog:
    zone: ZoneInfo  # the league's time zone, for reading the times
    lines: list[LogLine]


class MachineLogService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def adjustment(
        self, actor: Actor, league_name: str | None, match_id: int, *, machine_id: int, description: str
    ) -> MachineIssue:
        """TEAM-MACH-8: a captain reports a non-essential adjustment (tilt, balance, cleaning, settings) made on
        match night without both teams' consent. Recorded only; nothing about the match changes."""
        text = description.strip()
        if not text:
            raise InvalidInput("Say what was adjusted and when; the venue's operator will read it.")
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            await acting_in(session, actor, context)
            machine = await session.get(Machine, machine_id)
            if machine is None or machine.venue_id != context.match.venue_id:
                raise InvalidInput(f"Machine #{machine_id} is not at this match's venue; pick one from the list.")
            return await record(
                session, actor, machine, kind=IssueKind.ADJUSTMENT, severity=IssueSeverity.MINOR, description=text,
                action_taken="recorded (TEAM-MACH-8)", at=now, match_id=match_id,
            )  # fmt: skip

    async def log(self, actor: Actor, league_name: str | None, *, venue_name: str | None) -> MachineLog:
        """The log, newest first, for one venue or all (commissioners export it for venue operators)."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "read the machine-issue log")
            query = (
                select(MachineIssue, Machine, Venue)
                .join(Machine, col(Machine.id) == MachineIssue.machine_id)
                .join(Venue, col(Venue.id) == Machine.venue_id)
                .where(MachineIssue.league_id == league.id)
                .order_by(col(MachineIssue.reported_at).desc(), col(MachineIssue.id).desc())
            )
            if venue_name:
                venue = await find_venue(session, league, venue_name)
                query = query.where(Venue.id == venue.id)
            rows = (await session.exec(query)).all()
            lines = [LogLine(issue, machine.title, venue.name) for issue, machine, venue in rows]
            return MachineLog(ZoneInfo(league.timezone), lines)
