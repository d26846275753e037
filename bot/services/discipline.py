"""Discipline: warnings, suspensions, lifting them, expulsion and a player's or team's history (TEAM-DISC-1..4).

`require_in_good_standing` is the one check every format calls before accepting a player into a roster,
lineup, group or score (COMMON-PLAYER-2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot import formats
from bot.clock import Clock
from bot.rules import discipline as rules
from bot.rules.discipline import DisciplineKind
from bot.rules.refusals import InvalidInput, NotFound, RuleViolation
from bot.rules.setup import parse_date
from bot.rules.team.scoring import Offence
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import current_season, find_league, find_team
from bot.services.permissions import require_commissioner
from bot.services.team.attendance_record import short_attendance_flags
from storage.db import Database
from storage.discipline import ConductIncident, DisciplineEntry, IncidentStatus
from storage.matches import GamePenalty, Match
from storage.models import League, Player, PlayerStatus
from storage.prepared import params_in, prepared


def sanction(entry: DisciplineEntry) -> rules.Sanction:
    return rules.Sanction(
        id=entry.id or 0, kind=entry.kind, season_id=entry.season_id, starts_on=entry.starts_on,
        ends_on=entry.ends_on, lifted=entry.lifted_at is not None, rule_id=entry.rule_id,
    )  # fmt: skip


async def player_sanctions(session: AsyncSession, player_ids: Sequence[int]) -> dict[int, list[rules.Sanction]]:
    query = prepared(
        "player sanctions",
        lambda: select(DisciplineEntry).where(col(DisciplineEntry.player_id).in_(params_in("players"))),
    )
    rows = (await session.exec(query, params={"players": list(player_ids)})).all()
    found: dict[int, list[rules.Sanction]] = {player_id: [] for player_id in player_ids}
    for row in rows:
        found[row.player_id or 0].append(sanction(row))
    return found


async def require_in_good_standing(
    session: AsyncSession, league: League, player_ids: Sequence[int], *, on: date, doing: str
) -> None:
    """COMMON-PLAYER-2: refuse when any of these players is suspended or expelled on `on`, naming the ruling.
    `doing` completes "… and cannot …" (e.g. "be in a lineup"). The ladder and field formats call this before
    placing a player in a group and before accepting their score."""
    wanted = [p for p in player_ids if p]
    if not wanted:
        return
    sanctions = await player_sanctions(session, wanted)
    if not any(sanctions.values()):
        return  # the usual case, in one query: nobody here was ever sanctioned
    season = await current_season(session, league)
    names = dict((await session.exec(select(Player.id, Player.display_name).where(col(Player.id).in_(wanted)))).all())
    for player_id in wanted:
        rules.require_in_good_standing(
            names.get(player_id, "That player"), sanctions[player_id], season_id=season.id or 0, on=on, doing=doing
        )


async def players_barred(session: AsyncSession, league: League, player_ids: Sequence[int], *, on: date) -> set[int]:
    """COMMON-PLAYER-2: which of these players are suspended or expelled on `on` (to leave them out of a deal)."""
    wanted = [p for p in player_ids if p]
    if not wanted:
        return set()
    season_id = (await current_season(session, league)).id or 0
    sanctions = await player_sanctions(session, wanted)
    return {p for p in wanted if rules.barring(sanctions[p], season_id=season_id, on=on) is not None}


async def record_automatic(
    session: AsyncSession,
    actor: Actor,
    league: League,
    player_id: int,
    *,
    kind: DisciplineKind,
    rule_id: str,
    reason: str,
    on: date,
    now: datetime,
    cause_id: int | None = None,
) -> DisciplineEntry:
    """COMMON-DISC-1: a format's penalty that reaches the ledger by itself (LADDER-PEN-6, FIELD-PEN-3/4/10), in
    the caller's transaction. A suspension runs to the end of the season, so `require_in_good_standing` refuses
    the player from then on (COMMON-PLAYER-2) until a commissioner lifts it."""
    season = await current_season(session, league)
    entry = DisciplineEntry(
        league_id=league.id or 0, season_id=season.id or 0, player_id=player_id, kind=kind, rule_id=rule_id,
        automatic=True, cause_id=cause_id, reason=reason[:500], starts_on=on, issued_by=actor.user_id, issued_at=now,
    )  # fmt: skip
    session.add(entry)
    await session.flush()
    audit.created(session, actor, entry, at=now, reason=entry.reason, action=f"auto_{kind.value}")
    player = await session.get(Player, player_id)
    if kind is DisciplineKind.SUSPENSION and player is not None:
        await _set_status(session, actor, player, PlayerStatus.SUSPENDED, now)
    return entry


@dataclass(frozen=True)
class Recorded:
    entry: DisciplineEntry
    subject: str
    automatic: DisciplineEntry | None = None  # TEAM-DISC-2: the suspension a second warning triggered
    flags: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class History:
    subject: str
    entries: list[DisciplineEntry]
    flags: list[tuple[str, str]]
    slam_tilts: int
    incidents: list[ConductIncident] = field(default_factory=list)


class DisciplineService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def warn(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        member_id: int | None,
        team_name: str | None,
        reason: str,
        rule_id: str | None = None,
        incident_id: int | None = None,
    ) -> Recorded:
        """TEAM-DISC-1 (a player's conduct) or TEAM-DISC-4 (a team that blatantly ignored written rules).
        A player's 2nd warning in a season suspends them to its end (TEAM-DISC-2)."""
        if (member_id is None) == (team_name is None):
            raise InvalidInput("Warn either a `member` or a `team`, not both and not neither.")
        text = _reason(reason)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "warn players or teams")
            if team_name is not None:
                _require_teams(league)
            ledger = formats.of(league).ledger
            season, today = await current_season(session, league), _today(league, now)
            player = await _player(session, league, member_id) if member_id is not None else None
            team = await find_team(session, league, team_name) if team_name is not None else None
            if incident_id is not None and player is None:
                raise InvalidInput("An incident is about a player; warn the `member` it names.")
            warning = DisciplineEntry(
                league_id=league.id or 0, season_id=season.id or 0, player_id=player.id if player else None,
                team_id=team.id if team else None, kind=DisciplineKind.WARNING,
                rule_id=rule_id or (ledger.warn_player if player else ledger.warn_team), reason=text,
                starts_on=today,
                issued_by=actor.user_id, issued_at=now,
            )  # fmt: skip
            await _record_outcome(session, actor, league, player, warning, incident_id, now)
            audit.created(session, actor, warning, at=now, reason=text, action="warn")
            if team is not None:
                history = await _entries(session, team_id=team.id)
                flags = tuple(rules.team_flags(sanction(e) for e in history))
                if flags:
                    audit.noted(session, actor, team, action="discipline_flag", detail=dict(flags), at=now)
                return Recorded(warning, team.name, flags=flags)
            assert player is not None
            history = await _entries(session, player_id=player.id)
            if not ledger.second_warning_suspends:
                return Recorded(warning, player.display_name)
            if not rules.second_warning_suspends([sanction(e) for e in history], season_id=season.id or 0):
                return Recorded(warning, player.display_name)
            automatic = DisciplineEntry(
                league_id=league.id or 0, season_id=season.id or 0, player_id=player.id,
                kind=DisciplineKind.SUSPENSION, rule_id="TEAM-DISC-2", automatic=True, cause_id=warning.id,
                reason=f"Second warning this season (warning #{warning.id}): suspended for the rest of the season.",
                starts_on=today, issued_by=actor.user_id, issued_at=now,
            )  # fmt: skip
            session.add(automatic)
            await session.flush()
            audit.created(session, actor, automatic, at=now, reason=automatic.reason, action="auto_suspend")
            await _set_status(session, actor, player, PlayerStatus.SUSPENDED, now)
            return Recorded(warning, player.display_name, automatic=automatic)

    async def suspend(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        member_id: int,
        reason: str,
        until: str | None,
        rule_id: str | None = None,
        incident_id: int | None = None,
    ) -> Recorded:
        """TEAM-DISC-1: suspend a player through `until` (YYYY-MM-DD, inclusive), or to the end of the season."""
        text = _reason(reason)
        last_day = parse_date(until, option="until") if until else None
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "suspend players")
            season, today = await current_season(session, league), _today(league, now)
            if last_day is not None and last_day < today:
                raise InvalidInput(f"`until` is the suspension's last day; {last_day.isoformat()} has already passed.")
            player = await _player(session, league, member_id)
            entry = DisciplineEntry(
                league_id=league.id or 0, season_id=season.id or 0, player_id=player.id,
                kind=DisciplineKind.SUSPENSION, rule_id=rule_id or formats.of(league).ledger.suspend, reason=text,
                starts_on=today,
                ends_on=last_day, issued_by=actor.user_id, issued_at=now,
            )  # fmt: skip
            await _record_outcome(session, actor, league, player, entry, incident_id, now)
            audit.created(session, actor, entry, at=now, reason=text, action="suspend")
            await _set_status(session, actor, player, PlayerStatus.SUSPENDED, now)
            history = [sanction(e) for e in await _entries(session, player_id=player.id)]
            flags = tuple(rules.expulsion_review(history))
            if flags:  # TEAM-DISC-2: a second suspension calls for an expulsion review
                audit.noted(session, actor, player, action="discipline_flag", detail=dict(flags), at=now)
            return Recorded(entry, player.display_name, flags=flags)

    async def expel(
        self, actor: Actor, league_name: str | None, *, member_id: int, reason: str, incident_id: int | None = None
    ) -> Recorded:
        """TEAM-DISC-2: expulsion is permanent."""
        text = _reason(reason)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "expel players")
            season = await current_season(session, league)
            player = await _player(session, league, member_id)
            if player.status is PlayerStatus.EXPELLED:
                raise RuleViolation(
                    formats.of(league).ledger.permanence,
                    f"{player.display_name} is already expelled; expulsion is permanent.",
                )
            entry = DisciplineEntry(
                league_id=league.id or 0, season_id=season.id or 0, player_id=player.id,
                kind=DisciplineKind.EXPULSION, rule_id=formats.of(league).ledger.expel, reason=text,
                starts_on=_today(league, now),
                issued_by=actor.user_id, issued_at=now,
            )  # fmt: skip
            await _record_outcome(session, actor, league, player, entry, incident_id, now)
            audit.created(session, actor, entry, at=now, reason=text, action="expel")
            await _set_status(session, actor, player, PlayerStatus.EXPELLED, now)
            return Recorded(entry, player.display_name)

    async def lift(self, actor: Actor, league_name: str | None, *, member_id: int, reason: str) -> Recorded:
        """Lift a player's suspensions that are still running; an expulsion cannot be lifted (TEAM-DISC-2)."""
        text = _reason(reason)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "lift suspensions")
            season, today = await current_season(session, league), _today(league, now)
            player = await _player(session, league, member_id)
            entries = await _entries(session, player_id=player.id)
            if any(e.kind is DisciplineKind.EXPULSION and e.lifted_at is None for e in entries):
                raise RuleViolation(
                    formats.of(league).ledger.permanence,
                    f"{player.display_name} is expelled, and expulsion is permanent.",
                )
            running = [
                e for e in entries if e.kind is DisciplineKind.SUSPENSION and sanction(e).bars_on(today, season.id or 0)
            ]
            if not running:
                raise NotFound(f"{player.display_name} has no suspension in force to lift.")
            for entry in running:
                before = audit.snapshot(entry)
                entry.lifted_by, entry.lifted_at, entry.lift_reason = actor.user_id, now, text
                session.add(entry)
                audit.updated(session, actor, entry, before=before, at=now, reason=text, action="lift")
            await _set_status(session, actor, player, PlayerStatus.ACTIVE, now)
            return Recorded(running[0], player.display_name)

    async def report_incident(
        self, actor: Actor, league_name: str | None, *, member_id: int, category: str, description: str
    ) -> ConductIncident:
        """TEAM-DISC-1: an official records a conduct incident; it stays under investigation until a warning,
        suspension or expulsion names it, or it is dismissed."""
        if category not in rules.INCIDENT_CATEGORIES:
            raise InvalidInput(f"An incident is one of: {', '.join(rules.INCIDENT_CATEGORIES)}.")
        text = _reason(description)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "record conduct incidents")
            player = await _player(session, league, member_id)
            incident = ConductIncident(
                league_id=league.id or 0, player_id=player.id or 0, category=category, description=text,
                reported_by=actor.user_id, reported_at=now,
            )  # fmt: skip
            session.add(incident)
            await session.flush()
            audit.created(session, actor, incident, at=now, action="incident_opened")
            return incident

    async def dismiss(self, actor: Actor, league_name: str | None, *, incident_id: int, reason: str) -> ConductIncident:
        """TEAM-DISC-1: close an investigation without a sanction."""
        text = _reason(reason)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "close conduct incidents")
            incident = await _investigating(session, league, incident_id)
            before = audit.snapshot(incident)
            incident.status, incident.closed_reason = IncidentStatus.DISMISSED, text
            session.add(incident)
            audit.updated(session, actor, incident, before=before, at=now, reason=text, action="incident_dismissed")
            return incident

    async def history(
        self, actor: Actor, league_name: str | None, *, member_id: int | None, team_name: str | None
    ) -> History:
        """COMMON-DISC-1: a player's or a team's ledger, with what it calls for (TEAM-DISC-2/3/4, TEAM-SCHED-4)."""
        if (member_id is None) == (team_name is None):
            raise InvalidInput("Show the history of either a `member` or a `team`.")
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "read discipline records")
            if team_name is not None:
                _require_teams(league)
                team = await find_team(session, league, team_name)
                entries = await _entries(session, team_id=team.id)
                season = await current_season(session, league)
                flags = rules.team_flags(sanction(e) for e in entries)
                flags += await short_attendance_flags(session, league, team, season.id or 0, self.clock.now())
                return History(team.name, entries, flags, 0)
            assert member_id is not None
            player = await _player(session, league, member_id, lock=False)
            entries = await _entries(session, player_id=player.id)
            season = await current_season(session, league)
            tilts = await slam_tilts(session, season.id or 0, player.id or 0)
            flag_at = formats.of(league).ledger.slam_tilt_flag(league.options)
            sanctions = [sanction(e) for e in entries]
            flags = rules.player_flags(sanctions, slam_tilts_this_season=tilts, slam_tilt_flag=flag_at)
            flags += rules.repeated_intentional_slams(sanctions, season_id=season.id or 0)
            incidents = (
                await session.exec(
                    select(ConductIncident)
                    .where(ConductIncident.player_id == player.id)
                    .order_by(col(ConductIncident.id))
                )
            ).all()
            return History(player.display_name, entries, flags, tilts, list(incidents))


async def slam_tilts(session: AsyncSession, season_id: int, player_id: int) -> int:
    """TEAM-PEN-5 / TEAM-DISC-3: a player's slam tilts in the season's matches."""
    query = (
        select(func.count())
        .select_from(GamePenalty)
        .join(Match, col(Match.id) == GamePenalty.match_id)
        .where(
            Match.season_id == season_id, GamePenalty.player_id == player_id, GamePenalty.offence == Offence.SLAM_TILT
        )
    )
    return (await session.exec(query)).one()


async def _record_outcome(
    session: AsyncSession,
    actor: Actor,
    league: League,
    player: Player | None,
    entry: DisciplineEntry,
    incident_id: int | None,
    now: datetime,
) -> None:
    """Store a ledger entry; when it decides an incident under investigation, link it and close the incident."""
    incident = None
    if incident_id is not None:
        incident = await _investigating(session, league, incident_id)
        if player is None or incident.player_id != player.id:
            raise InvalidInput(f"Incident #{incident_id} is about another player.")
        entry.incident_id = incident_id
    session.add(entry)
    await session.flush()
    if incident is not None:
        before = audit.snapshot(incident)
        incident.status, incident.closed_reason = IncidentStatus.DECIDED, f"{entry.kind.value} #{entry.id}"
        session.add(incident)
        audit.updated(session, actor, incident, before=before, at=now, action="incident_decided")


async def _investigating(session: AsyncSession, league: League, incident_id: int) -> ConductIncident:
    incident = await session.get(ConductIncident, incident_id)
    if incident is None or incident.league_id != league.id:
        raise NotFound(f"{league.name} has no incident #{incident_id}.")
    if incident.status is not IncidentStatus.INVESTIGATING:
        raise InvalidInput(f"Incident #{incident_id} is already {incident.status.value}.")
    return incident


async def _entries(
    session: AsyncSession, *, player_id: int | None = None, team_id: int | None = None
) -> list[DisciplineEntry]:
    query = select(DisciplineEntry).order_by(col(DisciplineEntry.id))
    query = (
        query.where(DisciplineEntry.player_id == player_id)
        if player_id
        else query.where(DisciplineEntry.team_id == team_id)
    )
    return list((await session.exec(query)).all())


async def _player(session: AsyncSession, league: League, member_id: int | None, *, lock: bool = True) -> Player:
    """The player; writers lock the row (PostgreSQL) so two warnings given at the same moment are counted one
    after the other (TEAM-DISC-2)."""
    query = select(Player).where(Player.league_id == league.id, Player.discord_user_id == member_id)
    player = (await session.exec(query.with_for_update() if lock else query)).first()
    if player is None:
        raise NotFound(f"<@{member_id}> is not a player in {league.name}.")
    return player


async def _set_status(session: AsyncSession, actor: Actor, player: Player, status: PlayerStatus, now: datetime) -> None:
    """Keep the player's status in step with the ledger, which stays the authority (it knows when a suspension ends)."""
    if player.status in (status, PlayerStatus.EXPELLED):  # expulsion is permanent (TEAM-DISC-2)
        return
    before = audit.snapshot(player)
    player.status = status
    session.add(player)
    audit.updated(session, actor, player, before=before, at=now)


def _require_teams(league: League) -> None:
    """COMMON-DISC-1: a team is a subject only where there are teams."""
    if not formats.of(league).teams:
        raise RuleViolation(
            "COMMON-DISC-1",
            f"{league.name} is a {league.format.value} league and has no teams: name a `member` instead.",
        )


def _today(league: League, now: datetime) -> date:
    return now.astimezone(ZoneInfo(league.timezone)).date()


def _reason(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise InvalidInput("Give a reason; it goes in the player's record and the audit trail.")
    return text[:500]
