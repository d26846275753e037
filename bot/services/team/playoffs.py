"""Team playoffs (TEAM-PO-1..5): a bracket per conference seeded from the final standings, its first matches,
the later rounds at neutral venues, and who may play in them.

Seeds are not stored: the regular season is over and final when the bracket is seeded, so the standings, and
with them the seeds, are computed again from the same facts. The bracket's progress comes from the final
results of the PLAYOFF matches (`match_facts.result`), each tagged with its bracket match id. Once a round is
over, `next_round` ranks the neutral venues for each match of the next one (TEAM-PO-4) and schedules the match
at the venue the commissioner picks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.refusals import Conflict, InvalidInput, NotFound, Refusal, RuleViolation
from bot.rules.setup import parse_date
from bot.rules.team import playoffs as rules
from bot.rules.team.model import MatchOutcome, Side
from bot.rules.team.options import TeamOptions
from bot.rules.team.standings import MatchKind as StandingsKind
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import current_season, find_season, find_venue, league_today
from bot.services.permissions import require_commissioner
from bot.services.team.schedule import (
    ScheduledLine,
    free_week,
    lock_season,
    season_matches,
    team_league,
    week_one,
)
from bot.services.team.standings import ConferenceTable, SeasonResults, season_results
from storage.db import Database
from storage.matches import GameScore, Match, MatchKind, MatchLineup
from storage.models import League, Machine, RosterEntry, Season, Team, Venue


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


@dataclass(frozen=True)
class WaitingMatch:
    """A playoff match whose teams are known and whose round before is over, not scheduled yet: it waits for the
    commissioner's choice of a neutral venue (TEAM-PO-4)."""

    conference: str
    fixture: rules.PlayoffFixture
    home: Team  # the higher seed (TEAM-PO-1)
    away: Team
    seeds: tuple[int, int]  # HOME's seed, AWAY's seed
    sides: tuple[rules.PlayoffSide, rules.PlayoffSide]  # as the venue rules see HOME and AWAY
    ranking: list[rules.VenueRanking]
    earliest: date  # the day after the round before ended, or today if later

    @property
    def key(self) -> str:
        """What `fixture:` takes: bracket match ids repeat across conferences."""
        return f"{self.conference} {self.fixture.match_id}"

    @property
    def label(self) -> str:
        return f"{self.key}: ({self.seeds[0]}) {self.home.name} v ({self.seeds[1]}) {self.away.name}"


@dataclass(frozen=True)
class NextRoundView:
    league: League
    season: Season
    waiting: list[WaitingMatch]  # the matches shown, each with its venue ranking
    created: ScheduledLine | None  # the match this command scheduled, at the chosen venue
    chosen: rules.VenueRanking | None  # the chosen venue's place in the ranking


@dataclass(frozen=True)
class _VenueBook:
    """The league's venues and machines as the neutral-venue rules need them (TEAM-PO-4/5)."""

    candidates: list[rules.CandidateVenue]  # regular league venues (TEAM-AMB-24)
    venues: dict[int, rules.CandidateVenue]  # every venue of the league, with the machines there now
    history: list[rules.MachineSpell]
    families: dict[int, str]  # machine id → model family (TEAM-AMB-17)
    season_start: date
    today: date


class PlayoffService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def seed(self, actor: Actor, league_name: str | None, *, start: str | None) -> PlayoffsView:
        """TEAM-PO-1: seed every conference from its final standings and schedule the first playoff matches
        in the week from `start` (default: the post-season's date if one is set, COMMON-SEASON-2, else the day
        after the last regular-season match), which becomes the post-season's date."""
        async with self.db.writing() as session:
            league = await team_league(session, actor, league_name)
            require_commissioner(actor, league, "seed the playoffs")
            season = await current_season(session, league)
            await lock_season(session, season)
            if await has_playoffs(session, season):
                raise Conflict(f"{season.name}'s playoffs are already seeded; see them with `/playoffs show`.")
            now = self.clock.now()
            loaded = await season_results(session, league, season, now=now)
            _require_final_season(loaded)
            dated = season.postseason_on.isoformat() if season.postseason_on else None
            week_start = _first_playoff_day(start or dated, loaded, league_today(league, now))
            if season.postseason_on != week_start:
                before = audit.snapshot(season)
                season.postseason_on = week_start
                session.add(season)
                audit.updated(session, actor, season, before=before, at=now, reason="post-season date")
            created = _first_round(league, season, loaded, week_start)
            session.add_all(created)
            await session.flush()
            for match in created:
                audit.created(session, actor, match, at=now)
            return PlayoffsView(league, season, await season_brackets(session, league, season, loaded, now), created)

    async def show(self, actor: Actor, league_name: str | None, *, season_number: int | None = None) -> PlayoffsView:
        """The season's brackets (an earlier season's by `season_number`)."""
        async with self.db.reading() as session:
            league = await team_league(session, actor, league_name)
            season = await find_season(session, league, season_number)
            if not await has_playoffs(session, season):
                return PlayoffsView(league, season, [], [])
            now = self.clock.now()
            loaded = await season_results(session, league, season, now=now)
            return PlayoffsView(league, season, await season_brackets(session, league, season, loaded, now), [])

    async def next_round(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        fixture: str | None,
        venue: str | None,
        start: str | None,
    ) -> NextRoundView:
        """TEAM-PO-4: once a round is over, rank the neutral venues for each match of the next one; with `venue`,
        schedule that match there, HOME (the higher seed) on its evening in the week from `start` (default: the
        day after the round before ended)."""
        first_day = parse_date(start, option="start") if start else None
        async with self.db.writing() if venue else self.db.reading() as session:
            league = await team_league(session, actor, league_name)
            require_commissioner(actor, league, "schedule the next playoff round")
            season = await current_season(session, league)
            if venue:
                await lock_season(session, season)  # two commissioners must not schedule the same match twice
            now = self.clock.now()
            waiting, book = await _waiting_matches(session, league, season, now)
            if fixture:
                waiting = [_pick(waiting, fixture)]
            if not venue:
                return NextRoundView(league, season, waiting, None, None)
            if len(waiting) > 1:
                raise InvalidInput(
                    f"{len(waiting)} playoff matches wait for a venue ({', '.join(w.key for w in waiting)}); "
                    "pick one with `fixture:`."
                )
            chosen = waiting[0]
            place = await find_venue(session, league, venue)
            if all(ranked.venue.venue != place.id for ranked in chosen.ranking):  # the commissioner adds one
                options = TeamOptions.model_validate(league.options)
                candidates = [*book.candidates, book.venues[place.id or 0]]
                chosen = replace(chosen, ranking=rules.rank_neutral_venues(candidates, *chosen.sides, options))
            day = first_day or chosen.earliest
            if day < chosen.earliest:
                raise InvalidInput(
                    f"`start` {day:%a %Y-%m-%d} is too early: the earliest is {chosen.earliest:%a %Y-%m-%d}, after "
                    "the round before ended and not in the past."
                )
            play_on = day + timedelta(days=((chosen.home.match_weekday or 0) - day.weekday()) % 7)
            teams = (chosen.home.id or 0, chosen.away.id or 0)
            week = await free_week(session, league, season, teams, play_on, apart_from=None)
            match = Match(
                league_id=league.id or 0,
                season_id=season.id or 0,
                week=week,
                play_on=play_on,
                home_team_id=teams[0],
                away_team_id=teams[1],
                venue_id=place.id,
                kind=MatchKind.PLAYOFF,
                bracket_match=chosen.fixture.match_id,
            )
            session.add(match)
            await session.flush()
            ranked = next(r for r in chosen.ranking if r.venue.venue == place.id)
            why = f"Neutral venue (TEAM-PO-4): {place.name}, rank {ranked.rank} of {len(chosen.ranking)}"
            audit.created(session, actor, match, at=now, reason=why)
            line = ScheduledLine(match, chosen.home, chosen.away, place, None)
            return NextRoundView(league, season, [chosen], line, ranked)

    async def waiting(self, actor: Actor, league_name: str | None) -> list[WaitingMatch]:
        """For autocomplete: the matches `next_round` would rank, with their rankings."""
        async with self.db.reading() as session:
            league = await team_league(session, actor, league_name)
            require_commissioner(actor, league, "schedule the next playoff round")
            waiting, _ = await _waiting_matches(
                session, league, await current_season(session, league), self.clock.now()
            )
            return waiting


async def neutral_venue_exclusions(
    session: AsyncSession, league: League, match: Match, *, today: date
) -> tuple[rules.ExcludedMachine, ...]:
    """TEAM-PO-5: the machines a playoff match at a neutral venue leaves out of play: models found at only one
    team's home this season. A match at either team's home excludes nothing."""
    home, away = await session.get(Team, match.home_team_id), await session.get(Team, match.away_team_id)
    assert home is not None and away is not None  # the foreign keys
    if match.kind is not MatchKind.PLAYOFF or match.venue_id in (home.home_venue_id, away.home_venue_id, None):
        return ()
    season = await session.get(Season, match.season_id)
    assert season is not None
    book = await _venue_book(session, league, season, today)
    first, second = (_home_side(team, book) for team in (home, away))
    return rules.excluded_machines(book.venues[match.venue_id or 0].machines, first, second)


@dataclass(frozen=True)
class EligibilityFacts:
    """What TEAM-PO-2/3 read about one team's season: its roster spells, who played for it in the regular
    season, and the regular season's last match date (None before any regular match)."""

    team: int
    spells: list[rules.RosterSpell]
    games: list[rules.GamePlayed]
    regular_season_end: date | None


async def eligibility_facts(session: AsyncSession, season: Season, team: Team) -> EligibilityFacts:
    end_query = select(func.max(Match.play_on)).where(Match.season_id == season.id, Match.kind == MatchKind.REGULAR)
    regular_season_end: date | None = (await session.exec(end_query)).first()
    if regular_season_end is None:
        return EligibilityFacts(team.id or 0, [], [], None)
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
    return EligibilityFacts(team.id or 0, spells, games, regular_season_end)


async def playoff_eligible_players(session: AsyncSession, season: Season, team: Team) -> frozenset[int]:
    """TEAM-PO-2/PO-3: the team's players a playoff lineup may name: on the roster in the last regular-season
    week, and with a score in a regular-season match game for this team (TEAM-AMB-15).

    Tie-breaker games record team scores only, so they cannot make a player eligible here.
    """
    facts = await eligibility_facts(session, season, team)
    if facts.regular_season_end is None:
        return frozenset()
    return rules.playoff_eligible(facts.team, facts.spells, facts.games, regular_season_end=facts.regular_season_end)


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


async def has_playoffs(session: AsyncSession, season: Season) -> bool:
    query = select(Match.id).where(Match.season_id == season.id, Match.kind == MatchKind.PLAYOFF)
    return (await session.exec(query)).first() is not None


async def bracket_view(session: AsyncSession, league: League, season: Season, now: datetime) -> PlayoffsView:
    """The season's brackets with the playoff results so far, for the scheduled bracket post."""
    loaded = await season_results(session, league, season, now=now)
    return PlayoffsView(league, season, await season_brackets(session, league, season, loaded, now), [])


async def season_brackets(
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


# --- later rounds at neutral venues (TEAM-PO-4, TEAM-PO-5) ---------------------------------------------------


async def _waiting_matches(
    session: AsyncSession, league: League, season: Season, now: datetime
) -> tuple[list[WaitingMatch], _VenueBook]:
    """Every playoff match ready to be scheduled, with its neutral venues ranked; refuses when there is none."""
    if not await has_playoffs(session, season):
        raise RuleViolation(
            "TEAM-PO-1", f"{season.name}'s playoffs are not seeded yet; seed them with `/playoffs seed` first."
        )
    loaded = await season_results(session, league, season, now=now)
    brackets = await season_brackets(session, league, season, loaded, now)
    book = await _venue_book(session, league, season, league_today(league, now))
    options = TeamOptions.model_validate(league.options)
    played = await _families_played(
        session, [line.match.id or 0 for b in brackets for line in b.matches.values()], book
    )
    waiting = []
    for bracket in brackets:
        round_of = {m.id: m.round for m in bracket.playoff.bracket.matches}
        for fixture in bracket.progress.ready:
            if fixture.match_id in bracket.matches or not rules.round_finished(bracket.progress, fixture.round - 1):
                continue
            home, away = bracket.teams[fixture.home], bracket.teams[fixture.away]
            sides = (_side(bracket, home, book, played), _side(bracket, away, book, played))
            ended = [line.match.play_on for m, line in bracket.matches.items() if round_of[m] == fixture.round - 1]
            earliest = max([book.today, *(day + timedelta(days=1) for day in ended)])
            waiting.append(
                WaitingMatch(
                    bracket.conference,
                    fixture,
                    home,
                    away,
                    (bracket.seed_of(fixture.home), bracket.seed_of(fixture.away)),
                    sides,
                    rules.rank_neutral_venues(book.candidates, *sides, options),
                    earliest,
                )
            )
    if not waiting:
        raise _nothing_waiting(brackets)
    return waiting, book


def _nothing_waiting(brackets: list[ConferenceBracket]) -> Refusal:
    if all(bracket.progress.champion is not None for bracket in brackets):
        champions = "; ".join(
            f"{b.conference}: {b.teams[b.progress.champion].name}" for b in brackets if b.progress.champion is not None
        )
        return Conflict(f"The playoffs are over ({champions}); see the brackets with `/playoffs show`.")
    still_open = [
        f"{bracket.conference} {match_id}, {line.away.name} at {line.home.name} ({line.match.play_on:%a %m-%d})"
        for bracket in brackets
        for match_id, line in bracket.matches.items()
        if _winner(line) is None
    ]
    return RuleViolation(
        "TEAM-PO-4",
        "The next round's venues are chosen once every match of a round is final. Still to finish: "
        f"{'; '.join(still_open) or 'none'}.",
    )


def _pick(waiting: list[WaitingMatch], text: str) -> WaitingMatch:
    typed = " ".join(text.split()).casefold()
    hits = [w for w in waiting if typed in (w.key.casefold(), w.fixture.match_id.casefold())]
    listing = ", ".join(w.key for w in waiting)
    if not hits:
        raise NotFound(f"No playoff match {text.strip()!r} is waiting for a venue. Waiting: {listing}.")
    if len(hits) > 1:
        raise InvalidInput(f"{text.strip()!r} is in several conferences; add the conference, e.g. `{hits[0].key}`.")
    return hits[0]


async def _venue_book(session: AsyncSession, league: League, season: Season, today: date) -> _VenueBook:
    zone = ZoneInfo(league.timezone)
    venues = (await session.exec(select(Venue).where(Venue.league_id == league.id).order_by(col(Venue.name)))).all()
    machines = (await session.exec(select(Machine).where(Machine.league_id == league.id))).all()
    history = [
        rules.MachineSpell(
            m.venue_id,
            m.family,
            m.installed_at.astimezone(zone).date(),
            m.removed_at.astimezone(zone).date() if m.removed_at else None,
        )
        for m in machines
    ]
    here = {
        venue.id or 0: rules.CandidateVenue(
            venue.id or 0,
            venue.name,
            tuple(
                rules.VenueMachine(m.id or 0, m.title, m.family)
                for m in sorted(machines, key=lambda m: m.title)
                if m.venue_id == venue.id and m.removed_at is None
            ),
        )
        for venue in venues
    }
    return _VenueBook(
        candidates=[here[venue.id or 0] for venue in venues if venue.regular_league_venue],
        venues=here,
        history=history,
        families={m.id or 0: m.family for m in machines},
        season_start=await week_one(session, season),
        today=today,
    )


async def _families_played(session: AsyncSession, match_ids: list[int], book: _VenueBook) -> dict[int, set[str]]:
    """Match id → the model families its games were played on (TEAM-AMB-17), from the declared lineups."""
    query = select(MatchLineup).where(col(MatchLineup.match_id).in_(match_ids))
    played: dict[int, set[str]] = {}
    for lineup in (await session.exec(query)).all():
        machines = {game.get("machine") for game in lineup.games}
        played.setdefault(lineup.match_id, set()).update(book.families[m] for m in machines if m in book.families)
    return played


def _home_side(team: Team, book: _VenueBook) -> rules.PlayoffSide:
    home = team.home_venue_id or 0
    families = rules.home_families(book.history, home, season_start=book.season_start, season_end=book.today)
    return rules.PlayoffSide(team.id or 0, team.name, home, families)


def _side(bracket: ConferenceBracket, team: Team, book: _VenueBook, played: dict[int, set[str]]) -> rules.PlayoffSide:
    """TEAM-PO-4: a team's home models this season, and where and on what it played in these playoffs."""
    mine = [line.match for line in bracket.matches.values() if team.id in (line.home.id, line.away.id)]
    return replace(
        _home_side(team, book),
        playoff_venues=frozenset(m.venue_id for m in mine if m.venue_id is not None),
        playoff_families=frozenset(f for m in mine for f in played.get(m.id or 0, set())),
    )
