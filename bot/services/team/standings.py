"""Team standings per conference (TEAM-STAND-1..3, TEAM-CFG-1) from the season's final results.

Results come from `match_facts.results` for each match on or before today (via `schedule.season_matches`):
stored final results where still valid, computed for the rest, which are then stored. Only final ones count.
Ranking, tie-breaks and the tie-breaker-match test are `bot.rules.team.standings`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.refusals import InvalidInput, NotFound
from bot.rules.team import standings as rules
from bot.rules.team.model import MatchOutcome, Side
from bot.rules.team.options import TeamOptions
from bot.services.actor import Actor
from bot.services.league_options import options_on
from bot.services.lookup import find_league, find_season, league_today
from bot.services.reuse import ReusedPerLeague
from bot.services.team.schedule import ScheduledLine, season_matches, team_league
from storage import results as stored_results
from storage.db import Database
from storage.matches import MatchKind
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
        return ConferenceTable(conference, rows, teams, due, self._tiebreaker_dates(due, rows, teams, postseason_on))

    def _tiebreaker_dates(
        self,
        due: list[frozenset[int]],
        rows: list[rules.StandingRow],
        teams: dict[int, Team],
        postseason_on: date | None,
    ) -> dict[frozenset[int], date]:
        """TEAM-STAND-2: with a bye week before the playoffs, the regular match night of the week after the regular
        season; without one, two nights after the later of the tied teams' last regular-season match."""
        ends = [line.match.play_on for line in self.regular_lines]
        if not ends:
            return {}
        end = max(ends)
        bye = postseason_on is not None and postseason_on - end > timedelta(days=7)
        dates = {}
        for group in due:
            tied = [row for row in rows if row.team in group]
            nights = [night for t in sorted(group) if (night := teams[t].match_weekday) is not None]
            try:
                dates[group] = rules.tiebreaker_match_date(
                    tied, regular_season_end=end, match_night=nights[0] if nights else end.weekday(),
                    bye_week_before_playoffs=bye,
                )  # fmt: skip
            except ValueError:  # the tied teams have played no regular-season match yet
                continue
        return dates

    @property
    def regular_lines(self) -> list[ScheduledLine]:
        return [line for line in self.lines if line.match.kind is MatchKind.REGULAR]


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


def _pick_conferences(league: League, names: Sequence[str], wanted: str | None) -> list[str]:
    if wanted is None or not wanted.strip():
        return list(names)
    key = wanted.strip().casefold()
    for name in names:
        if name.casefold() == key:
            return [name]
    known = ", ".join(names) if names else "none yet"
    raise NotFound(f"{league.name} has no conference named {wanted.strip()!r}. Conferences: {known}.")
