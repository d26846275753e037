"""Files people take out of the league: a team's or player's matches as a calendar, results for the IFPA.

Reads only; any member may ask. The file formats are `bot.exchange.calendar` and `bot.exchange.reports`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.exchange.calendar import CalendarEvent, icalendar_file
from bot.exchange.reports import (
    FIELD_STANDINGS_COLUMNS,
    LADDER_STANDINGS_COLUMNS,
    TEAM_STANDINGS_COLUMNS,
    Finisher,
    PlayoffFinish,
    csv_file,
    field_bands,
    field_standings_rows,
    ifpa_results_csv,
    ladder_bands,
    ladder_standings_rows,
    team_bands,
    team_standings_rows,
)
from bot.rules.refusals import InvalidInput, NotFound
from bot.rules.team.model import MatchOutcome, ScoreStatus, Side
from bot.rules.team.options import TeamOptions
from bot.services.actor import Actor
from bot.services.field.finals import FieldFinalsService
from bot.services.field.standings import FieldStandingsView
from bot.services.ladder.standings import LadderStandings
from bot.services.league_standings import AnyStandings
from bot.services.lookup import current_season, find_league, find_team
from bot.services.team.playoffs import ConferenceBracket, PlayoffService
from bot.services.team.schedule import ScheduledLine, season_matches
from bot.services.team.standings import StandingsView
from storage.db import Database
from storage.matches import GameScore, Match, MatchKind, MatchState
from storage.models import League, LeagueFormat, Player, RosterEntry, Season

MATCH_LENGTH = timedelta(hours=3)  # how long a calendar entry lasts: a match night from its start time


@dataclass(frozen=True)
class ExportFile:
    filename: str
    content: bytes
    items: int  # events or result lines in it


@dataclass(frozen=True)
class StandingsExport:
    files: list[ExportFile]
    waiting: str | None = None  # why no IFPA results file is attached yet


class ExportService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def calendar(
        self, actor: Actor, league_name: str | None, *, team_name: str | None, member_id: int | None
    ) -> ExportFile:
        """The season's matches as iCalendar: one team's, one player's teams', both, or the whole league's."""
        now = self.clock.now()
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            if league.format is not LeagueFormat.TEAM:
                raise InvalidInput(_no_calendar(league))
            season = await current_season(session, league)
            team = await find_team(session, league, team_name) if team_name else None
            lines = await season_matches(session, league, season, now=now, team=team)
            label = team.name if team else league.name
            if member_id is not None:
                player, teams = await _player_teams(session, league, season, member_id)
                lines = [line for line in lines if {line.home.id, line.away.id} & teams]
                label = f"{player.display_name} ({team.name})" if team else player.display_name
        events = [_event(league, line) for line in lines]
        content = icalendar_file(f"{league.name}: {label}", events, stamp=now)
        return ExportFile(f"{_slug(league.name)}-{_slug(label)}.ics", content, len(events))

    async def standings_files(self, actor: Actor, view: AnyStandings) -> StandingsExport:
        """`/standings export`: the table as CSV, and IFPA results where the format has them: per conference shown
        (team), from the final standings (ladder), from the finals and then the league table (field)."""
        if isinstance(view, LadderStandings):
            return await self._ladder_files(view)
        if isinstance(view, FieldStandingsView):
            return await self._field_files(actor, view)
        rows = team_standings_rows(view)
        table = ExportFile(
            f"{_slug(view.league.name)}-standings.csv", csv_file(TEAM_STANDINGS_COLUMNS, rows), len(rows)
        )
        return StandingsExport([table, *await self.ifpa_results(actor, view)])

    async def _ladder_files(self, view: LadderStandings) -> StandingsExport:
        rows = ladder_standings_rows(view)
        table = ExportFile(f"{_slug(view.league)}-standings.csv", csv_file(LADDER_STANDINGS_COLUMNS, rows), len(rows))
        if view.weeks_closed < view.regular_weeks:
            return StandingsExport(
                [table],
                f"IFPA results come with the final standings (LADDER-STAND-2), once all {view.regular_weeks} "
                f"regular weeks are closed ({view.weeks_closed} so far).",
            )
        return StandingsExport([table, await self._results_file(view.league, ladder_bands(view))])

    async def _field_files(self, actor: Actor, view: FieldStandingsView) -> StandingsExport:
        rows = field_standings_rows(view)
        table = ExportFile(
            f"{_slug(view.league.name)}-standings.csv", csv_file(FIELD_STANDINGS_COLUMNS, rows), len(rows)
        )
        try:
            finals = await FieldFinalsService(self.db, self.clock).show(actor, view.league.name)
        except NotFound:
            finals = None
        if finals is None or not finals.ifpa:
            waiting = "IFPA results come with the finals (FIELD-IFPA-1/2), once every bracket has its champion."
            return StandingsExport([table], waiting)
        return StandingsExport([table, await self._results_file(view.league.name, field_bands(finals.ifpa))])

    async def _results_file(self, league_name: str, bands: list[list[int]]) -> ExportFile:
        """An IFPA results file from bands of player ids, with each player's name and IFPA number."""
        ids = {player for band in bands for player in band}
        async with self.db.reading() as session:
            players = {p.id: p for p in (await session.exec(select(Player).where(col(Player.id).in_(ids)))).all()}
        finishers = [[Finisher(players[p].display_name, players[p].ifpa_number) for p in band] for band in bands]
        content = ifpa_results_csv(finishers)
        return ExportFile(f"{_slug(league_name)}-ifpa.csv", content, len(ids))

    async def ifpa_results(self, actor: Actor, view: StandingsView) -> list[ExportFile]:
        """One IFPA results file per conference shown in `view`: playoff finish, then the standings (FIELD-IFPA-1's
        order, applied to the team format); every player who played a game for a team takes its place."""
        playoffs = await PlayoffService(self.db, self.clock).show(actor, view.league.name)
        brackets = {bracket.conference: bracket for bracket in playoffs.brackets}
        async with self.db.reading() as session:
            played = await _players_who_played(session, view.season)
        files = []
        for table in view.tables:
            ranks = {row.team: row.rank for row in table.rows}
            placed: set[int] = set()
            bands = []
            bracket = brackets.get(table.name)
            for teams in team_bands(ranks, None if bracket is None else _finish(bracket)):
                band = {p.id or 0: p for team in teams for p in played.get(team, []) if p.id not in placed}
                placed.update(band)
                if band:
                    bands.append([Finisher(p.display_name, p.ifpa_number) for p in band.values()])
            content = ifpa_results_csv(bands)
            name = f"{_slug(view.league.name)}-{_slug(table.name)}-ifpa.csv"
            files.append(ExportFile(name, content, sum(len(band) for band in bands)))
        return files


async def _player_teams(
    session: AsyncSession, league: League, season: Season, member_id: int
) -> tuple[Player, set[int]]:
    query = select(Player).where(Player.league_id == league.id, Player.discord_user_id == member_id)
    player = (await session.exec(query)).first()
    if player is None:
        raise NotFound(f"<@{member_id}> is not a player in {league.name}.")
    entries = select(RosterEntry.team_id).where(RosterEntry.season_id == season.id, RosterEntry.player_id == player.id)
    return player, set((await session.exec(entries)).all())


async def _players_who_played(session: AsyncSession, season: Season) -> dict[int, list[Player]]:
    """Team id → the players with at least one score that counts (not VOID) for it this season."""
    query = (
        select(GameScore.player_id, GameScore.side, Match.home_team_id, Match.away_team_id)
        .join(Match, Match.id == GameScore.match_id)  # type: ignore[arg-type]
        .where(Match.season_id == season.id, GameScore.status != ScoreStatus.VOID)
        .distinct()
    )
    rows = (await session.exec(query)).all()
    ids = {player_id for player_id, *_ in rows}
    players = {p.id: p for p in (await session.exec(select(Player).where(col(Player.id).in_(ids)))).all()}
    teams: dict[int, dict[int, Player]] = {}
    for player_id, side, home, away in rows:
        teams.setdefault(home if side is Side.HOME else away, {})[player_id] = players[player_id]
    return {team: list(members.values()) for team, members in teams.items()}


def _finish(bracket: ConferenceBracket) -> PlayoffFinish:
    """Who was knocked out in which round of a conference's bracket, from its final playoff matches."""
    rounds = {match.id: match.round for match in bracket.playoff.bracket.matches}
    lost: dict[int, int] = {}
    for match_id, line in bracket.matches.items():
        result = line.result
        if result is None or not result.final or result.outcome is None:
            continue
        for side, team in ((Side.HOME, line.match.home_team_id), (Side.AWAY, line.match.away_team_id)):
            if result.outcome[side] is MatchOutcome.LOSS:
                lost[team] = rounds.get(match_id, 0)
    return PlayoffFinish(bracket.playoff.seeds, bracket.progress.champion, lost)


def _event(league: League, line: ScheduledLine) -> CalendarEvent:
    match = line.match
    zone = ZoneInfo(league.timezone)
    starts = datetime.combine(match.play_on, TeamOptions.model_validate(league.options).match_start, tzinfo=zone)
    kind = {MatchKind.PLAYOFF: " (playoffs)", MatchKind.TIEBREAKER_MATCH: " (tie-breaker match)"}.get(match.kind, "")
    notes = [f"Week {match.week} of {league.name}"]
    if match.state is not MatchState.SCHEDULED:
        notes.append(f"{match.state.value} by the commissioners")
    venue = line.venue
    location = None if venue is None else ", ".join(part for part in (venue.name, venue.address) if part)
    return CalendarEvent(
        uid=f"pinleague-league{league.id}-match{match.id}@pinleague",
        starts=starts,
        ends=starts + MATCH_LENGTH,
        summary=f"{line.home.name} v {line.away.name}{kind}",
        location=location,
        description="; ".join(notes),
    )


def _no_calendar(league: League) -> str:
    """Ladder and field leagues store a night only when it is opened, so there are no dates ahead to export."""
    opened_by = {LeagueFormat.LADDER: "/ladder night open", LeagueFormat.FIELD: "/field night open"}[league.format]
    return (
        f"{league.name} is a {league.format.value} league: a league night gets its date only when a commissioner "
        f"opens it (`{opened_by}`), so there is no schedule ahead to put in a calendar. `/schedule ics` exports "
        "team leagues' matches."
    )


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.casefold()).strip("-") or "league"
