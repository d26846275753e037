"""The team format's exports: the season's matches as a calendar, the standings as CSV and one IFPA results file
per conference (`bot.services.exports` holds the file types)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.exchange.calendar import CalendarEvent, icalendar_file
from bot.exchange.files import ExportFile, StandingsExport
from bot.exchange.reports import (
    TEAM_STANDINGS_COLUMNS,
    Finisher,
    PlayoffFinish,
    csv_file,
    ifpa_results_csv,
    team_bands,
    team_standings_rows,
)
from bot.rules.refusals import NotFound
from bot.rules.team.model import MatchOutcome, ScoreStatus, Side
from bot.services.actor import Actor
from bot.services.exports import slug
from bot.services.lookup import current_season, find_team
from bot.services.team.match_facts import match_options
from bot.services.team.playoffs import ConferenceBracket, PlayoffService
from bot.services.team.schedule import ScheduledLine, season_matches
from bot.services.team.standings import StandingsView
from storage.db import Database
from storage.matches import GameScore, Match, MatchKind, MatchState
from storage.models import League, Player, RosterEntry, Season

MATCH_LENGTH = timedelta(hours=3)  # how long a calendar entry lasts: a match night from its start time


async def calendar_file(
    session: AsyncSession, league: League, *, now: datetime, team_name: str | None, member_id: int | None
) -> ExportFile:
    """The season's matches as iCalendar: one team's, one player's teams', both, or the whole league's."""
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
    return ExportFile(f"{slug(league.name)}-{slug(label)}.ics", content, len(events))


async def standings_files(db: Database, clock: Clock, actor: Actor, view: StandingsView) -> StandingsExport:
    """The conference tables as CSV, and IFPA results per conference shown."""
    rows = team_standings_rows(view)
    table = ExportFile(f"{slug(view.league.name)}-standings.csv", csv_file(TEAM_STANDINGS_COLUMNS, rows), len(rows))
    return StandingsExport([table, *await ifpa_results(db, clock, actor, view)])


async def ifpa_results(db: Database, clock: Clock, actor: Actor, view: StandingsView) -> list[ExportFile]:
    """One IFPA results file per conference shown in `view`: playoff finish, then the standings (FIELD-IFPA-1's
    order, applied to the team format); every player who played a game for a team takes its place."""
    playoffs = await PlayoffService(db, clock).show(actor, view.league.name, season_number=view.season.number)
    brackets = {bracket.conference: bracket for bracket in playoffs.brackets}
    async with db.reading() as session:
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
        name = f"{slug(view.league.name)}-{slug(table.name)}-ifpa.csv"
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
    starts = datetime.combine(match.play_on, match_options(league, match).match_start, tzinfo=zone)
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
