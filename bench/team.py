"""The team format's large league for benchmarks and robustness suites.

Setup goes through the services (league, venues, machines, teams, rosters, schedule), as commissioners and
captains would through Discord but without the round trips; the played weeks and past seasons are facts
written straight into storage in bulk (check-ins, lineups, scores, signatures), as match night records them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import delete, insert, update
from sqlmodel import col, select

from bot.clock import ManualClock
from bot.local.emulator import Emulator, Guild
from bot.rules.team.model import ScoreStatus, Side
from bot.services import Services
from bot.services.actor import Actor
from bot.services.players import Member
from storage.db import Database
from storage.matches import GameScore, Match, MatchConfirmation, MatchLineup, MatchVisit
from storage.models import League, Machine, RosterEntry, Season

NEW_YORK = ZoneInfo("America/New_York")
SETUP_DAY = datetime(2027, 2, 26, 12, 0, tzinfo=NEW_YORK)  # a Friday
SEASON_START = date(2027, 3, 1)  # a Monday; every team plays on Tuesdays
MACHINES = ["Godzilla", "Medieval Madness", "Attack from Mars", "Twilight Zone", "Foo Fighters", "Jaws"]
PLAYERS_PER_SIDE = 4
# Round by round, each side's games as indexes into its four players present (doubles, doubles, singles ×2).
ROUND_GAMES = [[[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0], [1], [2], [3]], [[0], [1], [2], [3]]]
FIRST_DECLARER = [Side.AWAY, Side.HOME, Side.AWAY, Side.HOME]  # TEAM-LINEUP-2: AWAY first in odd rounds


@dataclass(frozen=True)
class TeamLeagueSize:
    teams: int = 24
    players: int = 12
    weeks_played: int = 10
    past_seasons: int = 3
    venues: int = 6

    @property
    def weeks(self) -> int:
        return self.weeks_played + 2  # the match night in progress, and one week still to come


@dataclass
class TonightMatch:
    """A match being played tonight, with what a load generator needs to act in it."""

    match_id: int
    roster: dict[Side, list[str]]  # emulator member names, captain first
    players: dict[Side, list[int]]  # player ids of the four checked in, in lineup order
    machines: list[int]  # the home venue's machines

    def captain(self, side: Side) -> str:
        return self.roster[side][0]

    @property
    def home_captain(self) -> str:
        return self.captain(Side.HOME)

    @property
    def away_captain(self) -> str:
        return self.captain(Side.AWAY)


@dataclass
class TeamLeague:
    """The seeded league: where it is, who plays, and tonight's matches."""

    db: Database
    emulator: Emulator
    league_id: int
    season_id: int
    tonight: list[TonightMatch]
    members: list[str]  # every rostered member's emulator name
    captains: list[str]
    match_day: date
    final_matches: int
    rows_written: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def now(self) -> datetime:
        """The moment the bot's clock is held at: tonight, after every check-in, before the rounds end."""
        return datetime.combine(self.match_day, time(20, 5), tzinfo=NEW_YORK)

    async def reset_tonight(self, *, rounds_declared: int) -> None:
        """Clear tonight's lineups and scores, then declare the first `rounds_declared` rounds for both sides."""
        ids = [m.match_id for m in self.tonight]
        async with self.db.writing() as session:
            await session.exec(delete(GameScore).where(col(GameScore.match_id).in_(ids)))
            await session.exec(delete(MatchLineup).where(col(MatchLineup.match_id).in_(ids)))
            await session.exec(
                update(Match)
                .where(col(Match.id).in_(ids))
                .values(scoreboard_channel_id=None, scoreboard_message_id=None)
            )
            rows = [
                _lineup_row(m.match_id, r, side, m.players[side], m.machines, self.now - timedelta(minutes=5))
                for m in self.tonight
                for r in range(1, rounds_declared + 1)
                for side in Side
            ]
            if rows:
                await session.exec(insert(MatchLineup), params=rows)


def actor(emulator: Emulator, name: str, *, admin: bool = False, guild: Guild | None = None) -> Actor:
    guild = guild or emulator.guild
    member = guild.member(name)
    return Actor(
        guild_id=guild.id,
        user_id=member.id,
        display_name=member.name,
        role_ids=frozenset(member.role_ids),
        is_admin=admin,
        command="bench seed",
    )


async def seed_team_league(
    db: Database, emulator: Emulator, size: TeamLeagueSize = TeamLeagueSize(), *, guild: Guild | None = None
) -> TeamLeague:
    """24 teams × 12 players by default, ten weeks played plus three past seasons; tonight is week 11. In the
    emulator's guild unless another is named."""
    guild = guild or emulator.guild
    clock = ManualClock(SETUP_DAY)
    services = Services.build(db, clock, default_timezone="America/New_York")
    owner = actor(emulator, guild.owner.name, admin=True, guild=guild)
    league = await services.leagues.create(
        owner,
        name="Bench League",
        league_format="team",
        timezone="America/New_York",
        commissioner_role_id=guild.role("Commissioner").id,
    )
    venues = [f"Venue {v + 1}" for v in range(size.venues)]
    for venue in venues:
        await services.venues.add_venue(owner, None, name=venue, address=None)
        for model in MACHINES:
            await services.venues.add_machine(
                owner, None, venue_name=venue, model=model, variant=None, max_players=4, balls=3
            )
    members: list[str] = []
    captains: list[str] = []
    for t in range(size.teams):
        team = f"Team {t + 1:02d}"
        conference = "East" if t % 2 == 0 else "West"
        await services.teams.create(
            owner, None, name=team, home_venue=venues[t % size.venues], evening=1, conference=conference
        )
        for p in range(size.players):
            name = f"t{t + 1:02d}p{p + 1:02d}"
            member = emulator.add_member(name, guild=guild)
            members.append(name)
            role = "captain" if p == 0 else ("starter" if p < 8 else "reserve")
            if p == 0:
                captains.append(name)
            await services.rosters.add(
                owner, None, team_name=team, member=Member(member.id, name, False),
                role=role, effective=None, ifpa_rank=None, adult=True,
            )  # fmt: skip
        await services.rosters.submit(owner, None, team_name=team, effective=SETUP_DAY.date())
    await services.schedule.generate(owner, None, weeks=size.weeks, start=SEASON_START.isoformat())
    return await _play(db, emulator, guild, league, size, members, captains)


async def _play(
    db: Database,
    emulator: Emulator,
    guild: Guild,
    league: League,
    size: TeamLeagueSize,
    members: list[str],
    captains: list[str],
) -> TeamLeague:
    async with db.writing() as session:
        season = (await session.exec(select(Season).where(Season.league_id == league.id))).one()
        matches = list((await session.exec(select(Match).where(Match.season_id == season.id))).all())
        # This league's only: another guild's league may share the database.
        of_league = select(RosterEntry).where(RosterEntry.league_id == league.id).order_by(col(RosterEntry.id))
        entries = list((await session.exec(of_league)).all())
        machines: dict[int | None, list[int]] = {}
        league_machines = select(Machine).where(Machine.league_id == league.id).order_by(col(Machine.id))
        for machine in (await session.exec(league_machines)).all():
            machines.setdefault(machine.venue_id, []).append(machine.id or 0)
        players: dict[int, list[int]] = {}
        for entry in entries:
            players.setdefault(entry.team_id, []).append(entry.player_id)
        played = [m for m in matches if m.week <= size.weeks_played]
        rows = FactRows()
        for match in played:
            rows.played(match, players, machines.get(match.venue_id, []))
        # Past seasons: the same teams and rosters, the same pairings a year (or two, three) earlier.
        season.number, season.name = size.past_seasons + 1, f"Season {size.past_seasons + 1}"
        session.add(season)
        await session.flush()
        for back in range(1, size.past_seasons + 1):
            past = Season(
                league_id=league.id or 0,
                number=size.past_seasons + 1 - back,
                name=f"Season {size.past_seasons + 1 - back}",
            )
            session.add(past)
            await session.flush()
            shift = timedelta(weeks=52 * back)
            for entry in entries:
                session.add(
                    RosterEntry(
                        league_id=entry.league_id,
                        season_id=past.id or 0,
                        team_id=entry.team_id,
                        player_id=entry.player_id,
                        role=entry.role,
                        starts_on=(entry.starts_on or SETUP_DAY.date()) - shift,
                    )
                )
            for match in played:
                copy = Match(
                    league_id=match.league_id,
                    season_id=past.id or 0,
                    week=match.week,
                    play_on=match.play_on - shift,
                    home_team_id=match.home_team_id,
                    away_team_id=match.away_team_id,
                    venue_id=match.venue_id,
                )
                session.add(copy)
                await session.flush()
                rows.played(copy, players, machines.get(copy.venue_id, []))
        await rows.insert(session)
        tonight_matches = [m for m in matches if m.week == size.weeks_played + 1]
        match_day = tonight_matches[0].play_on
        tonight = []
        name_of = {guild.member(name).id: name for name in members}
        discord_of = await _discord_ids(session, [p for ids in players.values() for p in ids])
        arrive = datetime.combine(match_day, time(19, 45), tzinfo=NEW_YORK)
        for match in tonight_matches:
            present = {
                Side.HOME: players[match.home_team_id][:PLAYERS_PER_SIDE],
                Side.AWAY: players[match.away_team_id][:PLAYERS_PER_SIDE],
            }
            for side, ids in present.items():
                for player in ids:
                    session.add(MatchVisit(match_id=match.id or 0, side=side, player_id=player, arrived_at=arrive))
            tonight.append(
                TonightMatch(
                    match_id=match.id or 0,
                    roster={
                        side: [name_of[discord_of[p]] for p in players[team]]
                        for side, team in ((Side.HOME, match.home_team_id), (Side.AWAY, match.away_team_id))
                    },
                    players=present,
                    machines=machines.get(match.venue_id, []),
                )
            )
    return TeamLeague(
        db, emulator, league.id or 0, season.id or 0, tonight, members, captains, match_day, len(played), rows.count
    )


async def _discord_ids(session: Any, player_ids: Sequence[int]) -> dict[int, int]:
    from storage.models import Player

    rows = (await session.exec(select(Player.id, Player.discord_user_id).where(col(Player.id).in_(player_ids)))).all()
    return {player_id: discord_id for player_id, discord_id in rows}


def _lineup_row(
    match_id: int, round_index: int, side: Side, present: list[int], machines: list[int], at: datetime
) -> dict[str, Any]:
    first = FIRST_DECLARER[round_index - 1] is side
    games = [
        {
            "players": [present[i] for i in game],
            "machine": machines[(g + round_index) % len(machines)] if first and machines else None,
        }
        for g, game in enumerate(ROUND_GAMES[round_index - 1])
    ]
    return {
        "match_id": match_id,
        "round_index": round_index,
        "side": side,
        "declared_at": at,
        "games": games,
        "by_official": False,
    }


class FactRows:
    """Rows of played matches, gathered in memory and inserted in one statement per table."""

    def __init__(self) -> None:
        self.tables: dict[Any, list[dict[str, Any]]] = {
            MatchVisit: [],
            MatchLineup: [],
            GameScore: [],
            MatchConfirmation: [],
        }

    @property
    def count(self) -> int:
        return sum(len(rows) for rows in self.tables.values())

    def played(self, match: Match, players: dict[int, list[int]], machines: list[int]) -> None:
        """A full match, every game won by the home side except the singles of round 4; both captains signed."""
        at = datetime.combine(match.play_on, time(19, 50), tzinfo=NEW_YORK)
        match_id = match.id or 0
        for side, team in ((Side.HOME, match.home_team_id), (Side.AWAY, match.away_team_id)):
            present = players[team][:PLAYERS_PER_SIDE]
            for player in present:
                self.tables[MatchVisit].append(
                    {"match_id": match_id, "side": side, "player_id": player, "arrived_at": at, "left_at": None}
                )
            for r, games in enumerate(ROUND_GAMES, start=1):
                self.tables[MatchLineup].append(_lineup_row(match_id, r, side, present, machines, at))
                for number, game in enumerate(games, start=1):
                    wins = (side is Side.HOME) != (r == 4)
                    for i in game:
                        self.tables[GameScore].append(
                            {"match_id": match_id, "round_index": r, "game_number": number, "side": side,
                             "player_id": present[i], "score": 1_000_000 * (2 if wins else 1) + 1_000 * i,
                             "status": ScoreStatus.NORMAL, "entered_by": 1, "entered_for": side, "entered_at": at,
                             "confirmed_by": 1, "confirmed_at": at}
                        )  # fmt: skip
            self.tables[MatchConfirmation].append(
                {"match_id": match_id, "side": side, "confirmed_by": 1, "confirmed_at": at}
            )

    async def insert(self, session: Any) -> None:
        for table, rows in self.tables.items():
            for start in range(0, len(rows), 2_000):
                await session.exec(insert(table), params=rows[start : start + 2_000])
