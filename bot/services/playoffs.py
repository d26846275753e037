"""Team playoffs (TEAM-PO-1..3): a bracket per conference seeded from the final standings, its first matches,
and who may play in them.

Seeds are not stored: the regular season is over and final when the bracket is seeded, so the standings, and
with them the seeds, are computed again from the same facts. The bracket's progress comes from the final
results of the PLAYOFF matches, each tagged with its bracket match id.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.refusals import Conflict, InvalidInput, RuleViolation
from bot.rules.team import playoffs as rules
from bot.rules.team.model import MatchOutcome, Side
from bot.rules.team.options import TeamOptions
from bot.rules.team.standings import MatchKind as StandingsKind
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import current_season
from bot.services.permissions import require_commissioner
from bot.services.schedule import ScheduledLine, league_today, lock_season, parse_date, season_matches, team_league
from bot.services.standings import ConferenceTable, SeasonResults, season_results
from storage.db import Database
from storage.matches import GameScore, Match, MatchKind
from storage.models import League, RosterEntry, Season, Team


@dataclass(frozen=True)
class ConferenceBracket:
    conference: str
    teams: dict[int, Team]
    playoff: rules.PlayoffBracket
    progress: rules.PlayoffProgress
    matches: dict[str, ScheduledLine]  # bracket match id → its stored match

    def seed_of(self, team_id: int) -> int:
        return self.playoff.seeds.index(team_id) + 1


@dataclass(frozen=True)
class PlayoffsView:
    league: League
    season: Season
    brackets: list[ConferenceBracket]
    created: list[Match]  # the matches this command scheduled


class PlayoffService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def seed(self, actor: Actor, league_name: str | None, *, start: str | None) -> PlayoffsView:
        """TEAM-PO-1: seed every conference from its final standings and schedule the first playoff matches
        in the week from `start` (default: the day after the last regular-season match)."""
        async with self.db.writing() as session:
            league = await team_league(session, actor, league_name)
            require_commissioner(actor, league, "seed the playoffs")
            season = await current_season(session, league)
            await lock_season(session, season)
            if await _has_playoffs(session, season):
                raise Conflict(f"{season.name}'s playoffs are already seeded; see them with `/playoffs show`.")
            now = self.clock.now()
            loaded = await season_results(session, league, season, now=now)
            _require_final_season(loaded)
            week_start = _first_playoff_day(start, loaded, league_today(league, now))
            created = _first_round(league, season, loaded, week_start)
            session.add_all(created)
            await session.flush()
            for match in created:
                audit.created(session, actor, match, at=now)
            return PlayoffsView(league, season, await _brackets(session, league, season, loaded, now), created)

    async def show(self, actor: Actor, league_name: str | None) -> PlayoffsView:
        async with self.db.reading() as session:
            league = await team_league(session, actor, league_name)
            season = await current_season(session, league)
            if not await _has_playoffs(session, season):
                return PlayoffsView(league, season, [], [])
            now = self.clock.now()
            loaded = await season_results(session, league, season, now=now)
            return PlayoffsView(league, season, await _brackets(session, league, season, loaded, now), [])


async def playoff_eligible_players(session: AsyncSession, season: Season, team: Team) -> frozenset[int]:
    """TEAM-PO-2/PO-3: the team's players a playoff lineup may name: on the roster in the last regular-season
    week, and with a score in a regular-season match game for this team (TEAM-AMB-15).

    Tie-breaker games record team scores only, so they cannot make a player eligible here.
    """
    end_query = select(func.max(Match.play_on)).where(Match.season_id == season.id, Match.kind == MatchKind.REGULAR)
    regular_season_end: date | None = (await session.exec(end_query)).first()
    if regular_season_end is None:
        return frozenset()
    entries = (
        await session.exec(
            select(RosterEntry).where(RosterEntry.season_id == season.id, RosterEntry.team_id == team.id)
        )
    ).all()
    spells = [
        rules.RosterSpell(e.player_id, e.team_id, e.starts_on, e.ends_on) for e in entries if e.starts_on is not None
    ]
    scores = (
        await session.exec(
            select(GameScore.player_id, GameScore.side, Match)
            .join(Match, col(Match.id) == GameScore.match_id)
            .where(Match.season_id == season.id, Match.kind != MatchKind.PLAYOFF)
        )
    ).all()
    games = [
        rules.GamePlayed(
            player, match.home_team_id if side is Side.HOME else match.away_team_id, StandingsKind(match.kind.value)
        )
        for player, side, match in scores
    ]
    return rules.playoff_eligible(team.id or 0, spells, games, regular_season_end=regular_season_end)


def _require_final_season(loaded: SeasonResults) -> None:
    """TEAM-PO-1: seeds come from the final standings, so every regular and tie-breaker match must be final."""
    if not loaded.regular_lines:
        raise RuleViolation(
            "TEAM-PO-1", "There is no regular season to seed from yet; start with `/schedule generate`."
        )
    open_lines = [line for line in loaded.lines if line.result is None or not line.result.final]
    if open_lines:
        first = open_lines[0]
        raise RuleViolation(
            "TEAM-PO-1",
            f"Playoffs are seeded from the final standings, and {len(open_lines)} season match(es) are not final yet, "
            f"the first in week {first.match.week}: {first.away.name} at {first.home.name} "
            f"({first.match.play_on:%a %Y-%m-%d}). Seed once every result is confirmed.",
        )


def _first_playoff_day(start: str | None, loaded: SeasonResults, today: date) -> date:
    last_day = max(line.match.play_on for line in loaded.lines)
    first_day = parse_date(start, option="start") if start else last_day + timedelta(days=1)
    if first_day <= last_day or first_day < today:
        raise InvalidInput(
            f"`start` must come after the regular season's last match ({last_day:%a %Y-%m-%d}) and not be in the past."
        )
    return first_day


def _first_round(league: League, season: Season, loaded: SeasonResults, week_start: date) -> list[Match]:
    """The matches every conference's bracket can play now, from the week after the season's last week."""
    options = TeamOptions.model_validate(league.options)
    week = max(line.match.week for line in loaded.lines) + 1
    matches = []
    for conference in loaded.conferences:
        table, playoff = _seeded(loaded, conference, options)
        for fixture in rules.playoff_progress(playoff, {}).ready:
            matches.append(_playoff_match(league, season, table.teams[fixture.home], fixture, week, week_start))
    return matches


def _seeded(
    loaded: SeasonResults, conference: str, options: TeamOptions
) -> tuple[ConferenceTable, rules.PlayoffBracket]:
    table = loaded.table(conference, options)
    return table, rules.seed_bracket(table.rows, options, {t: team.name for t, team in table.teams.items()})


def _playoff_match(
    league: League, season: Season, home: Team, fixture: rules.PlayoffFixture, first_week: int, week_start: date
) -> Match:
    """The higher seed is HOME, at its own venue, on its evening in the week of the fixture's round (TEAM-PO-1).

    Byes can make a later round ready at once (five teams: 2 v 3 in round 2), so the round sets the week."""
    round_start = week_start + timedelta(weeks=fixture.round - 1)
    return Match(
        league_id=league.id or 0,
        season_id=season.id or 0,
        week=first_week + fixture.round - 1,
        play_on=round_start + timedelta(days=((home.match_weekday or 0) - round_start.weekday()) % 7),
        home_team_id=fixture.home,
        away_team_id=fixture.away,
        venue_id=home.home_venue_id,
        kind=MatchKind.PLAYOFF,
        bracket_match=fixture.match_id,
    )


async def _has_playoffs(session: AsyncSession, season: Season) -> bool:
    query = select(Match.id).where(Match.season_id == season.id, Match.kind == MatchKind.PLAYOFF)
    return (await session.exec(query)).first() is not None


async def _brackets(
    session: AsyncSession, league: League, season: Season, loaded: SeasonResults, now: datetime
) -> list[ConferenceBracket]:
    """Each conference's bracket, seeded again from the final standings, with the playoff results so far."""
    options = TeamOptions.model_validate(league.options)
    playoff_lines = await season_matches(session, league, season, now=now, kinds=(MatchKind.PLAYOFF,))
    brackets = []
    for conference in loaded.conferences:
        table, playoff = _seeded(loaded, conference, options)
        mine = {
            line.match.bracket_match or "": line
            for line in playoff_lines
            if line.match.home_team_id in playoff.seeds and line.match.away_team_id in playoff.seeds
        }
        winners = {match_id: team for match_id, line in mine.items() if (team := _winner(line)) is not None}
        progress = rules.playoff_progress(playoff, winners)
        brackets.append(ConferenceBracket(conference, table.teams, playoff, progress, mine))
    return brackets


def _winner(line: ScheduledLine) -> int | None:
    result = line.result
    if result is None or not result.final or result.outcome is None:
        return None
    if result.outcome[Side.HOME] is MatchOutcome.WIN:
        return line.match.home_team_id
    if result.outcome[Side.AWAY] is MatchOutcome.WIN:
        return line.match.away_team_id
    return None
