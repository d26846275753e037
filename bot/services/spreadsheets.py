"""Rosters and machine lists from a commissioner's spreadsheet (CSV), from the CLI or `/league import`.

All or nothing: every row is checked (the CSV itself by `bot.exchange.onramp`, then against the league), every
problem is reported with its line, and only a file without problems is written, in one audited transaction.
Rosters land as a team's first roster being put together (TEAM-ROSTER-9): `/roster submit` then checks and
dates it as a whole, exactly as for rosters typed in from Discord.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot import formats
from bot.clock import Clock
from bot.exchange import onramp
from bot.exchange.problems import ImportReport
from bot.rules import setup as setup_rules
from bot.rules.refusals import InvalidInput
from bot.rules.team.options import TeamOptions
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import current_season, find_league
from bot.services.permissions import require_commissioner
from storage.db import Database
from storage.models import (
    League,
    Machine,
    MachineStatus,
    Player,
    PlayerStatus,
    RosterEntry,
    Team,
    Venue,
)

KINDS = ("rosters", "machines")


class _RollBack(Exception):
    """Leaves the import's transaction without writing: a dry run, or a file with problems."""


class SpreadsheetService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def import_csv(
        self, actor: Actor, league_name: str | None, *, kind: str, content: bytes, file: str, dry_run: bool
    ) -> ImportReport:
        if kind not in KINDS:
            raise InvalidInput(f"`kind` {kind!r} is not one of {', '.join(KINDS)}.")
        report = ImportReport(dry_run=dry_run)
        try:
            async with self.db.writing() as session:
                league = await find_league(session, actor.guild_id, league_name)
                require_commissioner(actor, league, f"import {kind}")
                report.league_name = league.name
                if kind == "rosters":
                    rows = onramp.read_rosters(content, file, report)
                    await self._rosters(session, actor, league, rows, report, file=file)
                else:
                    await self._machines(session, actor, league, onramp.read_machines(content, file, report), report)
                if dry_run or not report.ok:
                    raise _RollBack
        except _RollBack:
            pass
        return report

    async def _rosters(
        self,
        session: AsyncSession,
        actor: Actor,
        league: League,
        rows: list[onramp.RosterRow],
        report: ImportReport,
        *,
        file: str,
    ) -> None:
        if not formats.of(league).teams:
            raise InvalidInput(f"{league.name} is a {league.format.value} league; rosters belong to team leagues.")
        season = await current_season(session, league)
        options = TeamOptions.model_validate(league.options)
        teams = {t.name_key: t for t in (await session.exec(select(Team).where(Team.league_id == league.id))).all()}
        players = {
            p.discord_user_id: p
            for p in (await session.exec(select(Player).where(Player.league_id == league.id))).all()
        }
        entries = (await session.exec(select(RosterEntry).where(RosterEntry.season_id == season.id))).all()
        submitted = {entry.team_id for entry in entries if entry.starts_on is not None}
        forming: dict[int, set[int]] = defaultdict(set)  # team → discord ids on its roster being put together
        by_player_id = {p.id: p for p in players.values()}
        for entry in entries:
            if entry.starts_on is None:
                forming[entry.team_id].add(by_player_id[entry.player_id].discord_user_id)
        ifpa_holder = {p.ifpa_number: p.discord_user_id for p in players.values() if p.ifpa_number is not None}
        for row in rows:
            team = teams.get(row.team.casefold())
            if team is None:
                report.add(file, row.line, f"{league.name} has no team named {row.team!r}; create it with /team create")
                continue
            player = players.get(row.discord_id)
            problem = _roster_problem(row, team, player, options, submitted, forming[team.id or 0], ifpa_holder)
            if problem:
                report.add(file, row.line, problem)
                continue
            forming[team.id or 0].add(row.discord_id)
            if row.ifpa_number is not None:
                ifpa_holder[row.ifpa_number] = row.discord_id
        if not report.ok or not rows:
            return
        now = self.clock.now()
        added = Counter[str]()
        for row in rows:
            team = teams[row.team.casefold()]
            player = players.get(row.discord_id)
            if player is None:
                player = Player(league_id=league.id or 0, discord_user_id=row.discord_id, display_name=row.name,
                                status=PlayerStatus.ACTIVE, registered_at=now)  # fmt: skip
                before = None
                added["player"] += 1
            else:
                before = audit.snapshot(player)
            player.ifpa_number = row.ifpa_number if row.ifpa_number is not None else player.ifpa_number
            player.ifpa_rank = row.ifpa_rank if row.ifpa_rank is not None else player.ifpa_rank
            if row.adult and player.adult_attested_at is None:
                player.adult_attested_at = now
            session.add(player)
            await session.flush()
            if before is None:
                audit.created(session, actor, player, at=now)
            elif before != audit.snapshot(player):
                audit.updated(session, actor, player, before=before, at=now)
            players[row.discord_id] = player
            entry = RosterEntry(league_id=league.id or 0, season_id=season.id or 0, team_id=team.id or 0,
                                player_id=player.id or 0, role=row.role, ifpa_rank=player.ifpa_rank)  # fmt: skip
            session.add(entry)
            await session.flush()
            audit.created(session, actor, entry, at=now)
            added["roster_entry"] += 1
        report.counts = {table: added[table] for table in ("player", "roster_entry")}

    async def _machines(
        self, session: AsyncSession, actor: Actor, league: League, rows: list[onramp.MachineRow], report: ImportReport
    ) -> None:
        if not report.ok or not rows:
            return
        venues = {v.name_key: v for v in (await session.exec(select(Venue).where(Venue.league_id == league.id))).all()}
        now = self.clock.now()
        added = Counter[str]()
        for row in rows:
            venue = venues.get(row.venue.casefold())
            if venue is None:
                venue = Venue(league_id=league.id or 0, name=row.venue, name_key=row.venue.casefold(),
                              address=row.address)  # fmt: skip
                session.add(venue)
                await session.flush()
                audit.created(session, actor, venue, at=now)
                venues[venue.name_key] = venue
                added["venue"] += 1
            machine = Machine(league_id=league.id or 0, venue_id=venue.id or 0, model_name=row.model,
                              variant=row.variant, family=setup_rules.model_family(row.model), max_players=row.players,
                              balls_per_game=row.balls, status=MachineStatus.WORKING, status_changed_at=now,
                              installed_at=now)  # fmt: skip
            session.add(machine)
            await session.flush()
            audit.created(session, actor, machine, at=now)
            added["machine"] += 1
        report.counts = {table: added[table] for table in ("venue", "machine")}


def _roster_problem(
    row: onramp.RosterRow,
    team: Team,
    player: Player | None,
    options: TeamOptions,
    submitted: set[int],
    forming: set[int],
    ifpa_holder: dict[int, int],
) -> str | None:
    if team.id in submitted:
        return (f"{team.name}'s first roster was already submitted (TEAM-ROSTER-9); add players with /roster add, "
                "which dates the change")  # fmt: skip
    if player is not None and player.status in (PlayerStatus.SUSPENDED, PlayerStatus.EXPELLED):
        return f"{player.display_name} is {player.status.value} and cannot join a roster (COMMON-PLAYER-2)"
    if row.discord_id in forming:
        return f"{row.name} is already on {team.name}'s roster"
    if row.ifpa_number is not None and ifpa_holder.get(row.ifpa_number, row.discord_id) != row.discord_id:
        return f"IFPA #{row.ifpa_number} already belongs to another player (COMMON-PLAYER-1); check the number"
    if len(forming) + 1 > options.roster_max:
        return f"{team.name}'s roster would have more than {options.roster_max} players (TEAM-ROSTER-1)"
    return None
