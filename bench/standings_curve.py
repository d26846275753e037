"""How standings time grows with the number of final matches in a season: 24 teams, then 10, 100, 1,000,
10,000 played matches written straight into storage, timed as a service call (no Discord in between).

At each size, with no stored results: one cold call (every match scored from its facts, the final results
then stored), and then the median of 5 calls that read the stored results. Each call has a new service, so
nothing is reused from memory."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import select

from bench.load import TimedEmulator
from bench.team import SEASON_START, FactRows, TeamLeagueSize, actor, seed_team_league
from bot.clock import ManualClock
from bot.services import Services
from storage.db import Database
from storage.matches import Match
from storage.models import Machine, RosterEntry
from storage.results import MatchFinalResult

TEAMS = 24


@dataclass(frozen=True)
class CurvePoint:
    matches: int
    ms: float  # median of 5, from stored final results
    cold_ms: float  # the first call: every result computed from the facts, then stored


async def standings_curve(db: Database, sizes: tuple[int, ...]) -> list[CurvePoint]:
    emulator = TimedEmulator()
    await emulator.start()
    try:
        league = await seed_team_league(
            db, emulator, TeamLeagueSize(teams=TEAMS, players=6, weeks_played=0, past_seasons=0)
        )
        async with db.reading() as session:
            teams = sorted({e.team_id for e in (await session.exec(select(RosterEntry))).all()})
            players: dict[int, list[int]] = {}
            for entry in (await session.exec(select(RosterEntry).order_by(RosterEntry.id))).all():  # type: ignore[arg-type]
                players.setdefault(entry.team_id, []).append(entry.player_id)
            venue = (await session.exec(select(Machine))).first()
        member = actor(emulator, league.members[0])
        points, played = [], 0
        for size in sizes:
            await _play(db, league.league_id, league.season_id, teams, players, venue, played, size)
            played = size
            async with db.writing() as session:
                await session.exec(sa.delete(MatchFinalResult))
            timings = []
            for _ in range(6):
                # a new service each time: the season's results read or computed, not reused from memory
                services = Services.build(db, ManualClock(league.now), default_timezone="America/New_York")
                began = time.perf_counter()
                await services.standings.table(member, None, conference=None)
                timings.append((time.perf_counter() - began) * 1000)
            points.append(CurvePoint(size, statistics.median(timings[1:]), timings[0]))
        return points
    finally:
        await emulator.stop()


async def _play(
    db: Database, league_id: int, season_id: int, teams: list[int], players: dict[int, list[int]],
    machine: Machine | None, start: int, end: int,
) -> None:  # fmt: skip
    """Matches `start`..`end` of an endless round of pairings, each a full match signed by both captains."""
    pairs = [(a, b) for a in teams for b in teams if a < b]
    machines = [machine.id or 0] if machine else []
    async with db.writing() as session:
        rows = FactRows()
        for n in range(start, end):
            home, away = pairs[n % len(pairs)]
            match = Match(
                league_id=league_id, season_id=season_id, week=1 + n // (TEAMS // 2),
                play_on=SEASON_START - timedelta(days=1 + n % 300), home_team_id=home, away_team_id=away,
                venue_id=machine.venue_id if machine else None,
            )  # fmt: skip
            session.add(match)
            await session.flush()
            rows.played(match, players, machines)
            if len(rows.tables[next(iter(rows.tables))]) > 20_000:
                await rows.insert(session)
                rows = FactRows()
        await rows.insert(session)
