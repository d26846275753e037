"""The team season's schedule (TEAM-SCHED-1, TEAM-ROSTER-9, TEAM-CFG-1): generating it, changing a match's date
or venue (TEAM-VENUE-2/3, TEAM-CFG-3), and reading it back.

`generate` gathers the teams' facts (submitted roster, match evening, home venue, conference), asks
`bot.rules.team.schedule` for the pairings and stores them as REGULAR matches. `season_matches` is how the
schedule, standings and playoffs read a season: its matches with their teams, venue and, from match day on,
the result `match_facts.result` computes from the stored facts. `reschedule` and `move` are commissioner records
of what both teams agreed (a new date) or HOME chose (a new venue): they set the match's state and leave the reason
in the audit log.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.refusals import Conflict, InvalidInput, NotFound, RuleViolation
from bot.rules.setup import parse_date
from bot.rules.team import schedule as rules
from bot.rules.team.model import Side
from bot.rules.team.scoring import MatchResult
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import current_season, find_league, find_team, find_venue, league_today
from bot.services.permissions import require_commissioner
from bot.services.seasons import SeasonStages
from bot.services.team import match_facts
from storage.db import Database
from storage.matches import Match, MatchConfirmation, MatchKind, MatchState
from storage.models import Conference, League, LeagueFormat, RosterEntry, Season, Team, Venue

MAX_WEEKS = 52
REASON_MAX = 200  # each of a change's reason and justification; the audit entry keeps both


@dataclass(frozen=True)
class ScheduledLine:
    """One match as people read it; `result` is None before match day."""

    match: Match
    home: Team
    away: Team
    venue: Venue | None
    result: MatchResult | None


@dataclass(frozen=True)
class TeamBalance:
    team: Team
    home: int
    away: int
    byes: int


@dataclass(frozen=True)
class GeneratedSeason:
    league: League
    season: Season
    weeks: int
    lines: list[ScheduledLine]
    balance: list[TeamBalance]


@dataclass(frozen=True)
class ScheduleView:
    league: League
    season: Season
    lines: list[ScheduledLine]
    weeks: int  # the season's highest week number, 0 without a schedule
    team: Team | None
    week: int | None  # the week shown, when one week is shown
    season_shown: str  # the season and where it stands: "Season 1 (active)" (COMMON-SEASON-1)


@dataclass(frozen=True)
class MatchChange:
    """A match after `/schedule reschedule` or `/schedule move`, with what it was before."""

    line: ScheduledLine
    date_before: date
    week_before: int
    venue_before: Venue | None
    reason: str  # as recorded in the audit entry


class ScheduleService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.stages = SeasonStages.of(db, clock)

    async def generate(self, actor: Actor, league_name: str | None, *, weeks: int, start: str) -> GeneratedSeason:
        """TEAM-SCHED-1: the regular season of the current season, `weeks` weeks from `start`."""
        if not 1 <= weeks <= MAX_WEEKS:
            raise InvalidInput(f"`weeks` must be between 1 and {MAX_WEEKS}, not {weeks}.")
        first_day = parse_date(start, option="start")
        async with self.db.writing() as session:
            league = await team_league(session, actor, league_name)
            require_commissioner(actor, league, "generate the schedule")
            today = league_today(league, self.clock.now())
            if first_day < today:
                raise InvalidInput(
                    f"`start` {first_day:%Y-%m-%d} is in the past; the earliest is today, {today:%a %Y-%m-%d}."
                )
            season = await current_season(session, league)
            await _refuse_existing_schedule(session, season)
            teams = await _teams(session, league)
            entries = await _submitted_entries(session, season)
            schedule_teams = await _schedule_teams(session, league, teams, entries)
            week_starts = [first_day + timedelta(weeks=n) for n in range(weeks)]
            generated = rules.generate_season(schedule_teams, week_starts)
            rules.check_schedule(generated.matches, {team.id or 0: team.name for team in teams})
            _check_rosters_in_force(generated.matches, teams, entries)
            matches = await self._store(session, actor, league, season, generated.matches)
            _set_week_one(session, actor, season, first_day, at=self.clock.now())
            venues = await _venues(session, league)
            by_id = {team.id: team for team in teams}
            lines = [
                ScheduledLine(m, by_id[m.home_team_id], by_id[m.away_team_id], venues.get(m.venue_id), None)
                for m in matches
            ]
            return GeneratedSeason(league, season, weeks, lines, _balance(generated, by_id))

    async def show(
        self, actor: Actor, league_name: str | None, *, team_name: str | None, week: int | None
    ) -> ScheduleView:
        """The season's matches: one team's, one week's, or by default the current week's."""
        async with self.db.reading() as session:
            league = await team_league(session, actor, league_name)
            season = await current_season(session, league)
            team = await find_team(session, league, team_name) if team_name else None
            now = self.clock.now()
            weeks = await _last_week(session, season)
            if week is not None and not 1 <= week <= weeks:
                known = f"weeks 1–{weeks}" if weeks else "no matches yet"
                raise NotFound(f"{season.name} has no week {week}: it has {known}.")
            if week is None and team is None and weeks:
                week = await _current_week(session, season, league_today(league, now)) or weeks
            lines = await season_matches(session, league, season, now=now, team=team, week=week)
            shown = await self.stages.shown(session, league, season, now)
            return ScheduleView(league, season, lines, weeks, team, week, shown.label)

    async def reschedule(
        self, actor: Actor, league_name: str | None, *, match_id: int, day: str, agreed: bool, reason: str
    ) -> MatchChange:
        """TEAM-VENUE-3: record a new date both captains agreed to (state RESCHEDULED, TEAM-CFG-3); the venue stays.

        Refuses a final match, a day in the past, and a day in a week where either team already plays
        (TEAM-SCHED-1)."""
        new_day = parse_date(day, option="date")
        why = _reason(reason, option="reason")
        async with self.db.writing() as session:
            league = await team_league(session, actor, league_name)
            require_commissioner(actor, league, "reschedule matches")
            match = await _league_match(session, league, match_id)
            if not agreed:
                raise RuleViolation(
                    "TEAM-VENUE-3",
                    "Rescheduling needs both captains' agreement. Once both captains agree to the new date, record it "
                    "with `agreed:True`; until then the match stays on "
                    f"{match.play_on:%a %Y-%m-%d}.",
                )
            now = self.clock.now()
            await _refuse_final(session, league, match, now, doing="rescheduled")
            today = league_today(league, now)
            if new_day < today:
                raise InvalidInput(
                    f"`date` {new_day:%a %Y-%m-%d} is in the past; the earliest is today, {today:%a %Y-%m-%d}."
                )
            if new_day == match.play_on:
                raise InvalidInput(f"Match #{match_id} is already on {new_day:%a %Y-%m-%d}; pick another date.")
            season = await _season_of(session, match)
            await lock_season(session, season)  # two changes at once must not both pass the week check
            teams = (match.home_team_id, match.away_team_id)
            week = await free_week(session, league, season, teams, new_day, apart_from=match.id)
            before = audit.snapshot(match)
            change_from = (match.play_on, match.week)
            match.play_on, match.week, match.state = new_day, week, MatchState.RESCHEDULED
            session.add(match)
            recorded = f"Both captains agreed (TEAM-VENUE-3). {why}"
            audit.updated(session, actor, match, before=before, at=now, reason=recorded, action="match_rescheduled")
            line = await _line(session, league, match)
            return MatchChange(line, change_from[0], change_from[1], line.venue, recorded)

    async def move(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        match_id: int,
        venue_name: str,
        reason: str,
        justification: str | None,
    ) -> MatchChange:
        """TEAM-VENUE-2: record the venue HOME chose (state MOVED, TEAM-CFG-3), with the reason (TEAM-VENUE-1).

        The venue must be a regular league venue unless `justification` says why none could host the match."""
        why = _reason(reason, option="reason")
        not_regular_because = _reason(justification, option="justification") if justification else None
        async with self.db.writing() as session:
            league = await team_league(session, actor, league_name)
            require_commissioner(actor, league, "move matches")
            match = await _league_match(session, league, match_id)
            now = self.clock.now()
            await _refuse_final(session, league, match, now, doing="moved")
            venue = await find_venue(session, league, venue_name)
            if venue.id == match.venue_id:
                raise InvalidInput(f"Match #{match_id} is already at {venue.name}; pick the venue it moves to.")
            regular = [] if venue.regular_league_venue else await _regular_venue_names(session, league)
            rules.check_move_venue(
                venue.name,
                regular=venue.regular_league_venue,
                justification=not_regular_because,
                regular_venues=regular,
            )
            venue_before = await session.get(Venue, match.venue_id) if match.venue_id is not None else None
            before = audit.snapshot(match)
            match.venue_id, match.state = venue.id, MatchState.MOVED
            session.add(match)
            recorded = why if not not_regular_because else f"{why} Not a regular league venue: {not_regular_because}"
            audit.updated(session, actor, match, before=before, at=now, reason=recorded, action="match_moved")
            line = await _line(session, league, match)
            return MatchChange(line, match.play_on, match.week, venue_before, recorded)

    async def _store(
        self,
        session: AsyncSession,
        actor: Actor,
        league: League,
        season: Season,
        scheduled: tuple[rules.ScheduledMatch, ...],
    ) -> list[Match]:
        now = self.clock.now()
        matches = []
        for planned in scheduled:
            match = Match(
                league_id=league.id or 0,
                season_id=season.id or 0,
                week=planned.week,
                play_on=planned.date,
                home_team_id=planned.home,
                away_team_id=planned.away,
                venue_id=planned.venue,
                kind=MatchKind.REGULAR,
            )
            session.add(match)
            matches.append(match)
        await session.flush()
        for match in matches:
            audit.created(session, actor, match, at=now)
        return matches


# --- reading a season ------------------------------------------------------------------------------------


async def season_matches(
    session: AsyncSession,
    league: League,
    season: Season,
    *,
    now: datetime,
    kinds: tuple[MatchKind, ...] = tuple(MatchKind),
    team: Team | None = None,
    week: int | None = None,
    to_store: list[dict[str, Any]] | None = None,
) -> list[ScheduledLine]:
    """The season's matches in play order, each with its result from match day on (`match_facts.result`).

    Teams and venues are loaded once, and the facts of every match whose day has come are read together
    (`match_facts.results`: stored final results, and one query per table for the rest). Results worth
    storing are added to `to_store` (see `match_facts.results`).
    """
    query = select(Match).where(Match.season_id == season.id, col(Match.kind).in_(kinds))
    if team is not None:
        query = query.where((Match.home_team_id == team.id) | (Match.away_team_id == team.id))
    if week is not None:
        query = query.where(Match.week == week)
    matches = (await session.exec(query.order_by(col(Match.week), col(Match.play_on), col(Match.id)))).all()
    teams = {t.id: t for t in await _teams(session, league)}
    venues = await _venues(session, league)
    today = league_today(league, now)
    due = [match for match in matches if match.play_on <= today]
    results = await match_facts.results(session, league, due, teams, now, to_store=to_store)
    return [
        ScheduledLine(
            match,
            teams[match.home_team_id],
            teams[match.away_team_id],
            venues.get(match.venue_id),
            results.get(match.id or 0),
        )
        for match in matches
    ]


async def team_league(session: AsyncSession, actor: Actor, league_name: str | None) -> League:
    league = await find_league(session, actor.guild_id, league_name)
    if league.format is not LeagueFormat.TEAM:
        raise InvalidInput(
            f"{league.name} is a {league.format.value} league; schedules and standings here are for team leagues."
        )
    return league


async def lock_season(session: AsyncSession, season: Season) -> None:
    """Serialises commands that check the season has no such matches yet and then add them: two commissioners
    at once would otherwise both pass the check on PostgreSQL (SQLite writers already queue)."""
    await session.exec(select(Season.id).where(Season.id == season.id).with_for_update())


async def week_one(session: AsyncSession, season: Season) -> date:
    """The first day of the season's week 1 (COMMON-SEASON-1): set by `/schedule generate`.

    A season generated before it was stored starts on the latest day its matches allow (its first week-1 match
    day)."""
    if season.starts_on is not None:
        return season.starts_on
    matches = (
        await session.exec(select(col(Match.play_on), col(Match.week)).where(Match.season_id == season.id))
    ).all()
    if not matches:
        raise NotFound(f"{season.name} has no schedule yet; a commissioner creates it with `/schedule generate`.")
    return min(day - timedelta(weeks=week - 1) for day, week in matches)


async def free_week(
    session: AsyncSession, league: League, season: Season, teams: tuple[int, int], day: date, *, apart_from: int | None
) -> int:
    """TEAM-SCHED-1: the league week of a match of `teams` on `day`, refusing a week where either already plays
    (any match of the season but `apart_from`, the match being changed)."""
    query = select(Match).where(
        Match.season_id == season.id,
        (col(Match.home_team_id).in_(teams)) | (col(Match.away_team_id).in_(teams)),
    )
    others = [
        rules.ScheduledMatch(m.week, m.play_on, m.home_team_id, m.away_team_id, m.venue_id or 0)
        for m in (await session.exec(query)).all()
        if m.id != apart_from
    ]
    names = {team.id or 0: team.name for team in await _teams(session, league)}
    return rules.week_for_match(day, teams, others, week_one=await week_one(session, season), team_names=names)


# --- changing a match ---------------------------------------------------------------------------------------


async def _league_match(session: AsyncSession, league: League, match_id: int) -> Match:
    match = await session.get(Match, match_id)
    if match is None or match.league_id != league.id:
        raise NotFound(f"{league.name} has no match #{match_id}. Pick one from the list as you type.")
    return match


async def _season_of(session: AsyncSession, match: Match) -> Season:
    season = await session.get(Season, match.season_id)
    assert season is not None  # the foreign key
    return season


async def _refuse_final(session: AsyncSession, league: League, match: Match, now: datetime, *, doing: str) -> None:
    """TEAM-CFG-3: `final` ends a match's states; moving and rescheduling are exits before it."""
    context = await match_facts.context_for(session, league, match)
    result = await match_facts.result(session, context, now)
    if result.final:
        raise RuleViolation(
            "TEAM-CFG-3",
            f"{context.label} on {match.play_on:%a %Y-%m-%d} is final "
            f"({result.points[Side.AWAY]}–{result.points[Side.HOME]}), so it cannot be {doing}. "
            "A final result is changed by a commissioner's ruling, not by moving the match.",
        )


async def _line(session: AsyncSession, league: League, match: Match) -> ScheduledLine:
    home, away = await session.get(Team, match.home_team_id), await session.get(Team, match.away_team_id)
    assert home is not None and away is not None  # the foreign keys
    venue = await session.get(Venue, match.venue_id) if match.venue_id is not None else None
    return ScheduledLine(match, home, away, venue, None)


async def _regular_venue_names(session: AsyncSession, league: League) -> list[str]:
    query = select(Venue.name).where(Venue.league_id == league.id, col(Venue.regular_league_venue).is_(True))
    return sorted((await session.exec(query)).all())


def _reason(text: str, *, option: str) -> str:
    cleaned = " ".join(text.split())
    if not cleaned:
        raise InvalidInput(f"`{option}` is empty; say in a few words why, for the league's record.")
    if len(cleaned) > REASON_MAX:
        raise InvalidInput(f"`{option}` has {len(cleaned)} characters; keep it within {REASON_MAX}.")
    return cleaned


def _set_week_one(session: AsyncSession, actor: Actor, season: Season, first_day: date, *, at: datetime) -> None:
    """COMMON-SEASON-1: week 1 starts on `first_day`; later weeks follow every 7 days."""
    before = audit.snapshot(season)
    season.starts_on = first_day
    session.add(season)
    audit.updated(session, actor, season, before=before, at=at)


# --- facts for generating ----------------------------------------------------------------------------------


async def _refuse_existing_schedule(session: AsyncSession, season: Season) -> None:
    await lock_season(session, season)
    query = select(Match.id).where(Match.season_id == season.id, Match.kind == MatchKind.REGULAR)
    if (await session.exec(query)).first() is not None:
        raise Conflict(
            f"{season.name} already has its regular-season schedule; see it with `/schedule show`. "
            "A season is generated once."
        )


async def _teams(session: AsyncSession, league: League) -> list[Team]:
    return list((await session.exec(select(Team).where(Team.league_id == league.id).order_by(col(Team.id)))).all())


async def _venues(session: AsyncSession, league: League) -> dict[int | None, Venue]:
    return {v.id: v for v in (await session.exec(select(Venue).where(Venue.league_id == league.id))).all()}


async def _submitted_entries(session: AsyncSession, season: Season) -> list[RosterEntry]:
    """Roster entries put in force by `/roster submit` or a later change; a roster still being formed has none."""
    query = select(RosterEntry).where(RosterEntry.season_id == season.id, col(RosterEntry.starts_on).is_not(None))
    return list((await session.exec(query)).all())


async def _schedule_teams(
    session: AsyncSession, league: League, teams: list[Team], entries: list[RosterEntry]
) -> list[rules.ScheduleTeam]:
    """Every team of the league as the generator needs it, refusing the teams that cannot be scheduled yet."""
    if len(teams) < 2:
        raise RuleViolation(
            "TEAM-SCHED-1", f"{league.name} needs at least 2 teams for a schedule; add them with `/team create`."
        )
    submitted = {entry.team_id for entry in entries}
    _refuse_teams(
        [t for t in teams if t.id not in submitted],
        "TEAM-ROSTER-9",
        "{teams} {has} no submitted roster, so cannot be put on the schedule. "
        "Their captains finish them with `/roster add` and `/roster submit`; then generate again.",
    )
    _refuse_teams(
        [t for t in teams if t.match_weekday is None],
        "TEAM-CFG-1",
        "{teams} {has} no match evening; a team plays on its evening, so the schedule needs one for every team.",
    )
    _refuse_teams(
        [t for t in teams if t.home_venue_id is None],
        "TEAM-SCHED-1",
        "{teams} {has} no home venue; every match is played at the HOME team's bar, so each team needs one.",
    )
    conferences = {
        c.id: c.name for c in (await session.exec(select(Conference).where(Conference.league_id == league.id))).all()
    }
    return [
        rules.ScheduleTeam(
            team=team.id or 0,
            home_venue=team.home_venue_id or 0,
            match_night=team.match_weekday or 0,
            conference=conferences.get(team.conference_id),
        )
        for team in teams
    ]


def _refuse_teams(teams: list[Team], rule_id: str, message: str) -> None:
    if teams:
        names = ", ".join(team.name for team in teams)
        raise RuleViolation(rule_id, message.format(teams=names, has="has" if len(teams) == 1 else "have"))


def _check_rosters_in_force(
    matches: tuple[rules.ScheduledMatch, ...], teams: list[Team], entries: list[RosterEntry]
) -> None:
    """TEAM-ROSTER-9: a team's submitted roster must be in force by its first match."""
    first_match: dict[int, date] = {}
    for match in matches:
        for team_id in (match.home, match.away):
            first_match.setdefault(team_id, match.date)
    in_force_from: dict[int, date] = {}
    for entry in entries:
        if entry.starts_on is not None:
            in_force_from[entry.team_id] = min(entry.starts_on, in_force_from.get(entry.team_id, entry.starts_on))
    late = []
    for team in teams:
        first, in_force = first_match.get(team.id or 0), in_force_from[team.id or 0]
        if first is not None and first < in_force:
            late.append(f"{team.name} (roster from {in_force:%a %Y-%m-%d}, first match {first:%a %Y-%m-%d})")
    if late:
        raise RuleViolation(
            "TEAM-ROSTER-9",
            f"Some rosters are not in force by the team's first match: {', '.join(late)}. "
            "Start the season on or after those dates.",
        )


def _balance(season: rules.Season, teams: dict[int | None, Team]) -> list[TeamBalance]:
    home = Counter(m.home for m in season.matches)
    away = Counter(m.away for m in season.matches)
    byes = Counter(b.team for b in season.byes)
    return [
        TeamBalance(team, home[team_id or 0], away[team_id or 0], byes[team_id or 0]) for team_id, team in teams.items()
    ]


async def _last_week(session: AsyncSession, season: Season) -> int:
    query = select(Match.week).where(Match.season_id == season.id).order_by(col(Match.week).desc())
    return (await session.exec(query)).first() or 0


async def _current_week(session: AsyncSession, season: Season, today: date) -> int | None:
    """The first week with a match today or later."""
    query = select(Match.week).where(Match.season_id == season.id, Match.play_on >= today).order_by(col(Match.week))
    return (await session.exec(query)).first()


async def last_played(session: AsyncSession, league: League, today: date) -> date | None:
    """The team format's registration hook (`bot.formats.LastPlayed`): the latest match day before today, or a
    later one with a match signed already (TEAM-MATCH-4), of any season; matches still to play do not count."""
    of_league = (Match.season_id == Season.id, Season.league_id == league.id)
    signed = sa.exists().where(col(MatchConfirmation.match_id) == col(Match.id))
    query = select(func.max(Match.play_on)).where(*of_league).where(sa.or_(col(Match.play_on) < today, signed))
    return (await session.exec(query)).one()
