"""Use cases: each method checks permissions, owns one transaction, asks the rules, stores facts."""

from __future__ import annotations

from dataclasses import dataclass

from bot.clock import Clock
from bot.services.audit_log import AuditLogService
from bot.services.discipline import DisciplineService
from bot.services.disputes import DisputeService
from bot.services.highscores import HighScoreService
from bot.services.leagues import LeagueService
from bot.services.machine_log import MachineLogService
from bot.services.match_night import MatchNightService
from bot.services.match_rulings import MatchRulingService
from bot.services.overrides import OverrideService
from bot.services.players import PlayerService
from bot.services.playoffs import PlayoffService
from bot.services.rosters import RosterService
from bot.services.schedule import ScheduleService
from bot.services.standings import StandingsService
from bot.services.teams import TeamService
from bot.services.tiebreaks import TiebreakService
from bot.services.venues import VenueService
from storage.db import Database


@dataclass(frozen=True)
class Services:
    leagues: LeagueService
    venues: VenueService
    teams: TeamService
    players: PlayerService
    rosters: RosterService
    schedule: ScheduleService
    standings: StandingsService
    playoffs: PlayoffService
    match_night: MatchNightService
    match_rulings: MatchRulingService
    highscores: HighScoreService
    tiebreaks: TiebreakService
    discipline: DisciplineService
    disputes: DisputeService
    overrides: OverrideService
    audit_log: AuditLogService
    machine_log: MachineLogService

    @classmethod
    def build(cls, db: Database, clock: Clock, *, default_timezone: str) -> Services:
        return cls(
            leagues=LeagueService(db, clock, default_timezone=default_timezone),
            venues=VenueService(db, clock),
            teams=TeamService(db, clock),
            players=PlayerService(db, clock),
            rosters=RosterService(db, clock),
            schedule=ScheduleService(db, clock),
            standings=StandingsService(db, clock),
            playoffs=PlayoffService(db, clock),
            match_night=MatchNightService(db, clock),
            match_rulings=MatchRulingService(db, clock),
            highscores=HighScoreService(db, clock),
            tiebreaks=TiebreakService(db, clock),
            discipline=DisciplineService(db, clock),
            disputes=DisputeService(db, clock),
            overrides=OverrideService(db, clock),
            audit_log=AuditLogService(db, clock),
            machine_log=MachineLogService(db, clock),
        )
