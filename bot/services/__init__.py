"""Use cases: each method checks permissions, owns one transaction, asks the rules, stores facts."""

from __future__ import annotations

from dataclasses import dataclass

from bot.clock import Clock
from bot.services.audit_log import AuditLogService
from bot.services.discipline import DisciplineService
from bot.services.exports import ExportService
from bot.services.field.board import FieldBoardService
from bot.services.field.corrections import FieldCorrectionService
from bot.services.field.finals import FieldFinalsService
from bot.services.field.malfunctions import FieldMalfunctionService
from bot.services.field.nights import FieldNightService
from bot.services.field.options import FieldConfigService
from bot.services.field.precedents import FieldRulingService
from bot.services.field.standings import FieldStandingsService
from bot.services.help import HelpService
from bot.services.ladder.board import LadderBoardService
from bot.services.ladder.nights import LadderNightService
from bot.services.ladder.options import LadderOptionService
from bot.services.ladder.play import LadderPlayService
from bot.services.ladder.players import LadderPlayerService
from bot.services.ladder.premakeups import LadderPremakeupService
from bot.services.ladder.rulings import LadderRulingService
from bot.services.ladder.standings import LadderStandingsService
from bot.services.league_schedule import LeagueScheduleService
from bot.services.league_standings import LeagueStandingsService
from bot.services.leagues import LeagueService
from bot.services.machine_log import MachineLogService
from bot.services.night_roll_calls import NightRollCallService
from bot.services.nights import NightScheduleService
from bot.services.players import PlayerService
from bot.services.posts import PostService
from bot.services.ratings import RatingService
from bot.services.seasons import SeasonService
from bot.services.spreadsheets import SpreadsheetService
from bot.services.team.disputes import DisputeService
from bot.services.team.highscores import HighScoreService
from bot.services.team.match_night import MatchNightService
from bot.services.team.match_rulings import MatchRulingService
from bot.services.team.overrides import OverrideService
from bot.services.team.playoffs import PlayoffService
from bot.services.team.rosters import RosterService
from bot.services.team.schedule import ScheduleService
from bot.services.team.scouting import ScoutService
from bot.services.team.standings import StandingsService
from bot.services.team.teams import TeamService
from bot.services.team.tiebreaks import TiebreakService
from bot.services.venues import VenueService
from storage.db import Database


@dataclass(frozen=True)
class Services:
    leagues: LeagueService
    seasons: SeasonService  # /season new, and the seasons `season:` options offer
    venues: VenueService
    teams: TeamService
    players: PlayerService
    rosters: RosterService
    schedule: ScheduleService
    night_schedule: NightScheduleService  # /schedule nights: ladder and field seasons' dates
    league_schedule: LeagueScheduleService  # /schedule show, whichever format the league plays
    standings: StandingsService
    playoffs: PlayoffService
    match_night: MatchNightService
    match_rulings: MatchRulingService
    highscores: HighScoreService
    tiebreaks: TiebreakService
    scouting: ScoutService  # /match scout: the other team's machine picks and records
    posts: PostService
    night_roll_calls: NightRollCallService  # the In / Maybe / Out of a ladder or field night's day post
    field_nights: FieldNightService
    field_boards: FieldBoardService
    field_standings: FieldStandingsService
    field_finals: FieldFinalsService
    field_config: FieldConfigService
    field_corrections: FieldCorrectionService
    field_malfunctions: FieldMalfunctionService
    field_rulings: FieldRulingService  # /field ruling: precedents of situations the rules do not cover
    spreadsheets: SpreadsheetService
    exports: ExportService
    ladder_players: LadderPlayerService
    ladder_nights: LadderNightService
    ladder_play: LadderPlayService
    ladder_boards: LadderBoardService
    ladder_premakeups: LadderPremakeupService
    ladder_standings: LadderStandingsService
    ladder_options: LadderOptionService
    ladder_rulings: LadderRulingService
    discipline: DisciplineService
    disputes: DisputeService
    overrides: OverrideService
    audit_log: AuditLogService
    machine_log: MachineLogService
    league_standings: LeagueStandingsService  # /standings, whichever format the league plays
    help: HelpService  # /help: what a member can do, and what is due for them now
    ratings: RatingService  # /ratings, /player profile, /machine stats: every format's games, rated

    @classmethod
    def build(cls, db: Database, clock: Clock, *, default_timezone: str) -> Services:
        ratings = RatingService(db)  # one cache of the server's ratings, shared by the formats that use them
        field_nights = FieldNightService(db, clock, ratings)
        posts = PostService(db, clock)
        return cls(
            leagues=LeagueService(db, clock, default_timezone=default_timezone),
            seasons=SeasonService(db, clock),
            venues=VenueService(db, clock),
            teams=TeamService(db, clock),
            players=PlayerService(db, clock),
            rosters=RosterService(db, clock, ratings),
            schedule=ScheduleService(db, clock),
            night_schedule=NightScheduleService(db, clock),
            league_schedule=LeagueScheduleService(db, clock),
            standings=StandingsService(db, clock),
            playoffs=PlayoffService(db, clock),
            match_night=MatchNightService(db, clock),
            match_rulings=MatchRulingService(db, clock),
            highscores=HighScoreService(db, clock),
            tiebreaks=TiebreakService(db, clock),
            scouting=ScoutService(db, clock),
            posts=posts,
            night_roll_calls=NightRollCallService(db, clock, posts),
            field_nights=field_nights,
            field_boards=FieldBoardService(db, clock, field_nights),
            field_standings=FieldStandingsService(db, clock),
            field_finals=FieldFinalsService(db, clock),
            field_config=FieldConfigService(db, clock),
            field_corrections=FieldCorrectionService(db, clock),
            field_malfunctions=FieldMalfunctionService(db, clock),
            field_rulings=FieldRulingService(db, clock),
            spreadsheets=SpreadsheetService(db, clock),
            exports=ExportService(db, clock),
            ladder_players=LadderPlayerService(db, clock),
            ladder_nights=LadderNightService(db, clock, ratings),
            ladder_play=LadderPlayService(db, clock),
            ladder_boards=LadderBoardService(db, clock),
            ladder_premakeups=LadderPremakeupService(db, clock),
            ladder_standings=LadderStandingsService(db, clock),
            ladder_options=LadderOptionService(db, clock),
            ladder_rulings=LadderRulingService(db, clock),
            discipline=DisciplineService(db, clock),
            disputes=DisputeService(db, clock),
            overrides=OverrideService(db, clock),
            audit_log=AuditLogService(db, clock),
            machine_log=MachineLogService(db, clock),
            league_standings=LeagueStandingsService(db, clock),
            help=HelpService(db, clock),
            ratings=ratings,
        )
