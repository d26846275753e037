"""Team standings per conference (TEAM-STAND-1..3, TEAM-CFG-1) from the season's final results.

Results come from `match_facts.results` for each match on or before today (via `schedule.season_matches`):
stored final results where still valid, computed for the rest, which are then stored. Only final ones count.
Ranking, tie-breaks and the tie-breaker-match test are `bot.rules.team.standings`.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.refusals import Conflict, InvalidInput, NotFound
from bot.rules.team import standings as rules
from bot.rules.team.model import MatchOutcome, Side
from bot.rules.team.options import TeamOptions
from bot.services import audit
from bot.services.actor import Actor
from bot.services.league_options import options_on
from bot.services.lookup import current_season, find_league, find_season, find_team, find_venue, league_today
from bot.services.permissions import require_commissioner
from bot.services.reuse import ReusedPerLeague
from bot.services.team.schedule import ScheduledLine, lock_season, season_matches, team_league, week_one
from storage import results as stored_results
from storage.db import Database
from storage.matches import Match, MatchKind
from storage.models import Conference, League, Season, Team

log = logging.getLogger(__name__)

NO_CONFERENCE = "League"  # the table of teams without a conference
COUNTED_KINDS = (MatchKind.REGULAR, MatchKind.TIEBREAKER_MATCH)
SIDES = tuple(Side)


@dataclass(frozen=True)
class ConferenceTable:
    name: str
    rows: list[rules.StandingRow]
    teams: dict[int, Team]
    level_after_every_step: list[frozenset[int]]  # ties touching the playoff places (TEAM-STAND-2)
    # When each of those ties' tie-breaker match is played (TEAM-STAND-2), once the regular season has a last match
    tiebreaker_dates: dict[frozenset[int], date] = field(default_factory=dict)
    # Those ties whose match `/schedule tiebreaker` has already put on the schedule
    scheduled_tiebreakers: dict[frozenset[int], ScheduledLine] = field(default_factory=dict)


@dataclass(frozen=True)
class StandingsView:
    league: League
    season: Season
    tables: list[ConferenceTable]
    final_matches: int
    regular_matches: int

    @property
    def season_complete(self) -> bool:
        return self.regular_matches > 0 and self.final_matches == self.regular_matches


@dataclass(frozen=True)
class SeasonResults:
    """What standings and playoffs are computed from: the season's teams, by conference, and final results."""

    conferences: dict[str, list[Team]]
    results: list[rules.MatchResult]
    lines: list[ScheduledLine]

    def table(self, conference: str, options: TeamOptions, *, postseason_on: date | None = None) -> ConferenceTable:
        """`postseason_on`: the playoffs' first day, if set; a week with no match before it is a bye week."""
        teams = {team.id or 0: team for team in self.conferences[conference]}
        rows = rules.standings(teams, self.results)
        played = [row for row in rows if row.played]
        due = rules.ties_needing_tiebreaker_match(played, playoff_teams=options.playoff_teams)
        scheduled = {
            group: line
            for line in self.lines
            if line.match.kind is MatchKind.TIEBREAKER_MATCH
            and (group := frozenset({line.match.home_team_id, line.match.away_team_id})) in due
        }
        dates = self._tiebreaker_dates(due, rows, teams, postseason_on)
        return ConferenceTable(conference, rows, teams, due, dates, scheduled)

    def _tiebreaker_dates(
        self,
        due: list[frozenset[int]],
        rows: list[rules.StandingRow],
        teams: dict[int, Team],
        postseason_on: date | None,
    ) -> dict[frozenset[int], date]:
        """TEAM-STAND-2: with a bye week before the playoffs, the regular match night of the week after the regular
        season; without one, two nights after the later of the tied teams' last regular-season match."""
        end = self.regular_season_end
        if end is None:
            return {}
        dates = {}
        for group in due:
            tied = [row for row in rows if row.team in group]
            try:
                dates[group] = rules.tiebreaker_match_date(
                    tied, regular_season_end=end, match_night=match_night(teams, group, end),
                    bye_week_before_playoffs=bye_week_before_playoffs(postseason_on, end),
                )  # fmt: skip
            except ValueError:  # the tied teams have played no regular-season match yet
                continue
        return dates

    @property
    def regular_lines(self) -> list[ScheduledLine]:
        return [line for line in self.lines if line.match.kind is MatchKind.REGULAR]

    @property
    def regular_season_end(self) -> date | None:
        """The day of the regular season's last match; None before there is a schedule."""
        return max((line.match.play_on for line in self.regular_lines), default=None)

    @property
    def unfinished_regular_matches(self) -> int:
        return sum(1 for line in self.regular_lines if line.result is None or not line.result.final)


def bye_week_before_playoffs(postseason_on: date | None, regular_season_end: date) -> bool:
    """A week with no match before the playoffs' first day (`/season postseason`)."""
    return postseason_on is not None and postseason_on - regular_season_end > timedelta(days=7)


def match_night(teams: Mapping[int, Team], group: frozenset[int], regular_season_end: date) -> int:
    """The tied teams' regular match night (the first team's, by id, that has one), else the last match's."""
    nights = [night for team in sorted(group) if (night := teams[team].match_weekday) is not None]
    return nights[0] if nights else regular_season_end.weekday()


@dataclass(frozen=True)
class ScheduledTiebreaker:
    """A tie-breaker match `/schedule tiebreaker` stored, and how its date and HOME side were decided."""

    line: ScheduledLine
    toss_winner: Team
    tossed_by_bot: bool
    bye_week: bool


class StandingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        # league id → (season id, version, season results): recomputed only once something may have changed
        self._reused: ReusedPerLeague[SeasonResults] = ReusedPerLeague(db)

    async def table(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        conference: str | None,
        season: int | None = None,
        what_if: Mapping[str, Any] | None = None,
    ) -> StandingsView:
        """TEAM-STAND-1: each conference's table, or only the named one; `season`: an earlier season's number.
        `what_if`: options to draw the table under instead (the playoff line, TEAM-AMB-14; matches keep the
        results of their day), never stored."""
        now = self.clock.now()
        to_store: list[dict[str, Any]] = []
        async with self.db.reading() as session:
            league = await team_league(session, actor, league_name)
            chosen = await find_season(session, league, season)
            loaded = await self._season_results(session, league, chosen, now, to_store)
            names = _pick_conferences(league, list(loaded.conferences), conference)
            today = options_on(league, league_today(league, now))  # no query: the season's matches are read once
            options = TeamOptions.model_validate({**today, **(what_if or {})})
            regular = loaded.regular_lines
            view = StandingsView(
                league,
                chosen,
                [loaded.table(name, options, postseason_on=chosen.postseason_on) for name in names],
                final_matches=sum(1 for line in regular if line.result is not None and line.result.final),
                regular_matches=len(regular),
            )
        # After the read's connection is back in the pool: a write holding it would wait for a connection
        # while the calls queued behind this one hold the rest (50 members at once used up the pool).
        if to_store:
            await self._store(to_store)
        return view

    async def _season_results(
        self, session: AsyncSession, league: League, season: Season, now: datetime, to_store: list[dict[str, Any]]
    ) -> SeasonResults:
        """`season_results`, reused (`bot/services/reuse.py`) for the same season and minute: results depend on
        the time (attendance windows, match days). Computed results worth storing are added to `to_store`."""
        return await self._reused.get(
            session,
            league.id or 0,
            season.id,
            lambda: season_results(session, league, season, now=now, to_store=to_store),
            growing=(now.replace(second=0, microsecond=0),),
        )

    async def reused_results(
        self, session: AsyncSession, league: League, season: Season, now: datetime
    ) -> SeasonResults:
        """The season's results as `table` computes them, reused within the same minute; results worth storing
        are left for `table` to store (they are derived data)."""
        return await self._season_results(session, league, season, now, [])

    async def _store(self, rows: list[dict[str, Any]]) -> None:
        """Keeps the final results this call had to compute, so the next computation reads them instead. They
        are derived data: a failure only means computing them again next time."""
        try:
            async with self.db.writing(derived=True) as session:
                await session.exec(stored_results.upsert(sqlite=self.db.is_sqlite), params=rows)
        except Exception:
            log.exception("storing %d final match results failed; standings compute them again", len(rows))

    async def schedule_tiebreaker(
        self, actor: Actor, league_name: str | None, *, team_a: str, team_b: str, venue_name: str, toss: str | None
    ) -> ScheduledTiebreaker:
        """TEAM-STAND-2, TEAM-AMB-19: a commissioner schedules the tie-breaker match between two teams level after
        step 5 at the playoff line, at a neutral venue. `toss`: which of the two won the coin toss and is HOME
        ("team_a" or "team_b"); left out, the bot tosses the coin. The toss is kept in the audit entry."""
        if toss not in (None, "team_a", "team_b"):
            raise InvalidInput("`toss`: pick team_a or team_b, the team that won the coin toss, from the list.")
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await team_league(session, actor, league_name)
            require_commissioner(actor, league, "schedule a tie-breaker match")
            season = await current_season(session, league)
            await lock_season(session, season)  # two commissioners at once schedule it once
            pair = (await find_team(session, league, team_a), await find_team(session, league, team_b))
            venue = await find_venue(session, league, venue_name)
            loaded = await season_results(session, league, season, now=now)
            end = loaded.regular_season_end
            if end is None:
                raise NotFound(f"{season.name} has no schedule yet; it is created with `/schedule generate`.")
            await _refuse_second_tiebreaker(session, season, pair)
            tables = loaded.conferences.values()
            table = next((table for table in tables if any(team.id == pair[0].id for team in table)), [])
            teams = {team.id or 0: team for team in table}
            options = TeamOptions.model_validate(options_on(league, league_today(league, now)))
            tossed_by_bot = toss is None
            winner = random.choice(pair) if toss is None else pair[0] if toss == "team_a" else pair[1]
            ids = (pair[0].id or 0, pair[1].id or 0)
            bye = bye_week_before_playoffs(season.postseason_on, end)
            plan = rules.plan_tiebreaker_match(
                [row for row in rules.standings(teams, loaded.results) if row.played],
                ids,
                names={team.id or 0: team.name for team in pair},
                playoff_teams=options.playoff_teams,
                unfinished_regular_matches=loaded.unfinished_regular_matches,
                regular_season_end=end,
                match_night=match_night({team.id or 0: team for team in pair}, frozenset(ids), end),
                bye_week_before_playoffs=bye,
                venue_name=venue.name,
                venue_home_of=[team.id or 0 for team in pair if team.home_venue_id == venue.id],
                toss_winner=winner.id or 0,
            )
            match = Match(
                league_id=league.id or 0,
                season_id=season.id or 0,
                week=(plan.play_on - await week_one(session, season)).days // 7 + 1,
                play_on=plan.play_on,
                home_team_id=plan.home,
                away_team_id=plan.away,
                venue_id=venue.id,
                kind=MatchKind.TIEBREAKER_MATCH,
            )
            session.add(match)
            await session.flush()
            how = "the bot tossed the coin" if tossed_by_bot else "the commissioner recorded the toss"
            audit.created(session, actor, match, at=now, reason=f"Coin toss won by {winner.name}, HOME ({how}).")
            home, away = (pair[0], pair[1]) if plan.home == ids[0] else (pair[1], pair[0])
            line = ScheduledLine(match, home, away, venue, None)
        return ScheduledTiebreaker(line, winner, tossed_by_bot, bye)

    async def conference_names(self, guild_id: int, league_name: str | None) -> list[str]:
        async with self.db.reading() as session:
            try:
                league = await find_league(session, guild_id, league_name)
            except (NotFound, InvalidInput):
                return []
            return list((await session.exec(select(Conference.name).where(Conference.league_id == league.id))).all())


async def season_results(
    session: AsyncSession,
    league: League,
    season: Season,
    *,
    now: datetime,
    to_store: list[dict[str, Any]] | None = None,
) -> SeasonResults:
    """The season's teams by conference (TEAM-CFG-1) and its final regular and tie-breaker match results.

    The teams are those on the season's schedule, or every team of the league before there is one. Computed
    results worth storing are added to `to_store` (see `match_facts.results`).
    """
    lines = await season_matches(session, league, season, now=now, kinds=COUNTED_KINDS, to_store=to_store)
    teams = list((await session.exec(select(Team).where(Team.league_id == league.id).order_by(col(Team.name)))).all())
    scheduled = {line.home.id for line in lines} | {line.away.id for line in lines}
    if scheduled:
        teams = [team for team in teams if team.id in scheduled]
    conference_names = {
        c.id: c.name for c in (await session.exec(select(Conference).where(Conference.league_id == league.id))).all()
    }
    conferences: dict[str, list[Team]] = {}
    for team in teams:
        conferences.setdefault(conference_names.get(team.conference_id, NO_CONFERENCE), []).append(team)
    results = [result for line in lines if (result := _final_result(line)) is not None]
    return SeasonResults(dict(sorted(conferences.items())), results, lines)


def _final_result(line: ScheduledLine) -> rules.MatchResult | None:
    """The standings rules' view of a final match; None while it is not final."""
    result = line.result
    if result is None or not result.final or result.outcome is None:
        return None
    # Not a loop over `Side`: iterating an enum costs more than the rest of this, once per match of the season.
    winner = next((side for side in SIDES if result.outcome[side] is MatchOutcome.WIN), None)
    match = line.match
    return rules.MatchResult(
        match_id=match.id or 0,
        date=match.play_on,
        home=match.home_team_id,
        away=match.away_team_id,
        home_points=result.points[Side.HOME],
        away_points=result.points[Side.AWAY],
        winner=winner,
        kind=rules.MatchKind(match.kind.value),
    )


async def _refuse_second_tiebreaker(session: AsyncSession, season: Season, pair: tuple[Team, Team]) -> None:
    ids = [team.id for team in pair]
    query = select(Match).where(
        Match.season_id == season.id,
        Match.kind == MatchKind.TIEBREAKER_MATCH,
        col(Match.home_team_id).in_(ids),
        col(Match.away_team_id).in_(ids),
    )
    if (scheduled := (await session.exec(query)).first()) is not None:
        raise Conflict(
            f"{pair[0].name} and {pair[1].name} already have their tie-breaker match: match #{scheduled.id} on "
            f"{scheduled.play_on:%a %Y-%m-%d}. See it with `/schedule show`."
        )


def _pick_conferences(league: League, names: Sequence[str], wanted: str | None) -> list[str]:
    if wanted is None or not wanted.strip():
        return list(names)
    key = wanted.strip().casefold()
    for name in names:
        if name.casefold() == key:
            return [name]
    known = ", ".join(names) if names else "none yet"
    raise NotFound(f"{league.name} has no conference named {wanted.strip()!r}. Conferences: {known}.")
