"""The formats the benchmark knows. Each seeds its large league and names its command kinds; the runner
does the rest. Issue 9's sizes: team 24 teams × 12 players, ten weeks played plus three past seasons;
ladder 24 players; field 60 players."""

from __future__ import annotations

import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from bench.field import LEAGUE as FIELD_LEAGUE
from bench.field import FieldLeague, FieldLeagueSize, field_workloads, seed_field_league
from bench.ladder import LEAGUE as LADDER_LEAGUE
from bench.ladder import LadderLeague, LadderLeagueSize, ladder_workloads, seed_ladder_league
from bench.load import Call, TimedEmulator, Workload
from bench.ratings import RatingUpdate, time_rating_update
from bench.team import TeamLeague, TeamLeagueSize, actor, seed_team_league
from bench.team_load import team_workloads
from bot.clock import ManualClock
from bot.services import Services
from storage.db import Database


@dataclass
class SeededLeague:
    summary: str  # what was seeded, for the report
    now: datetime  # where the bot's clock is held
    time_standings: Callable[[int], Awaitable[list[float]]]  # n service calls → milliseconds each
    workloads: Callable[[TimedEmulator], list[Workload]]
    mixed: Callable[[TimedEmulator, int], Awaitable[list[Call]]]  # the sustained run's commands
    mix: str  # how the sustained run mixes them, for the report
    rating_update: Callable[[int], Awaitable[RatingUpdate]] | None = None  # n games confirmed, each timed


@dataclass(frozen=True)
class BenchFormat:
    name: str
    seed: Callable[[Database, TimedEmulator], Awaitable[SeededLeague]]


async def seed_team(db: Database, emulator: TimedEmulator) -> SeededLeague:
    size = TeamLeagueSize()
    league = await seed_team_league(db, emulator, size)
    return SeededLeague(
        summary=(
            f"{size.teams} teams × {size.players} players, {size.weeks_played} weeks played "
            f"({league.final_matches} final matches) plus {size.past_seasons} past seasons; "
            f"{len(league.tonight)} matches tonight; {league.rows_written:,} fact rows"
        ),
        now=league.now,
        time_standings=lambda n: _time_team_standings(league, n),
        workloads=lambda emulator: team_workloads(league, emulator),
        mixed=lambda emulator, n: _team_mix(league, emulator, n),
        mix="one score entry in ten until tonight's games run out; else /standings, autocomplete, /noop in turn",
        rating_update=lambda n: time_rating_update(league, n),
    )


async def _time_team_standings(league: TeamLeague, n: int) -> list[float]:
    member = actor(league.emulator, league.members[0])
    timings = []
    for _ in range(n):
        # a new service each time: the season's results computed, not reused
        services = Services.build(league.db, ManualClock(league.now), default_timezone="America/New_York")
        began = time.perf_counter()
        await services.standings.table(member, None, conference=None)
        timings.append((time.perf_counter() - began) * 1000)
    return timings


async def _team_mix(league: TeamLeague, emulator: TimedEmulator, n: int) -> list[Call]:
    reads = ("/standings", "autocomplete (/lineup p1)", "no-op (/noop)")
    return await _mix(team_workloads(league, emulator), reads, "/score", n)


async def _mix(workloads: list[Workload], reads: tuple[str, ...], score: str, n: int) -> list[Call]:
    """One score entry in ten until tonight's run out; else the read kinds in turn."""
    kinds = {w.kind: w for w in workloads}
    read_calls = [c for trio in zip(*[await kinds[k].calls(n) for k in reads], strict=True) for c in trio]
    scores = await kinds[score].calls(10_000)  # last: it sets up tonight's state the others' preparation cleared
    mixed: list[Call] = []
    score_iter, read_iter = iter(scores), iter(read_calls)
    for i in itertools.count():
        nxt = next(score_iter, None) if i % 10 == 0 else None
        nxt = nxt or next(read_iter, None)
        if nxt is None or len(mixed) >= n:
            return mixed
        mixed.append(nxt)
    return mixed


async def seed_ladder(db: Database, emulator: TimedEmulator) -> SeededLeague:
    size = LadderLeagueSize()
    league = await seed_ladder_league(db, emulator, size)
    reads = ("/ladder standings", "autocomplete (/ladder games pick game)", "no-op (/noop)")
    return SeededLeague(
        summary=(
            f"{size.players} players, {size.weeks_played} weeks played through the services; tonight's night open "
            "with everyone checked in"
        ),
        now=league.now,
        time_standings=lambda n: _time_ladder_standings(league, emulator, n),
        workloads=lambda emulator: ladder_workloads(league, emulator),
        mixed=lambda emulator, n: _mix(ladder_workloads(league, emulator), reads, "/ladder score", n),
        mix="one score entry in ten until tonight's games run out; else /ladder standings, autocomplete, /noop in turn",
    )


async def _time_ladder_standings(league: LadderLeague, emulator: TimedEmulator, n: int) -> list[float]:
    member = actor(emulator, league.players[0])
    timings = []
    for _ in range(n):
        services = Services.build(league.db, ManualClock(league.now), default_timezone="America/New_York")
        began = time.perf_counter()
        await services.ladder_standings.standings(member, LADDER_LEAGUE)
        timings.append((time.perf_counter() - began) * 1000)
    return timings


async def seed_field(db: Database, emulator: TimedEmulator) -> SeededLeague:
    size = FieldLeagueSize()
    league = await seed_field_league(db, emulator, size)
    reads = ("/field standings", "autocomplete (/field score machine)", "no-op (/noop)")
    return SeededLeague(
        summary=(
            f"{size.players} players, {size.weeks_played} weeks played through the services; tonight's night open "
            f"with everyone checked in and in groups, on {len(league.machines)} machines"
        ),
        now=league.now,
        time_standings=lambda n: _time_field_standings(league, emulator, n),
        workloads=lambda emulator: field_workloads(league, emulator),
        mixed=lambda emulator, n: _mix(field_workloads(league, emulator), reads, "/field score", n),
        mix="one score entry in ten until tonight's scores run out; else /field standings, autocomplete, /noop in turn",
    )


async def _time_field_standings(league: FieldLeague, emulator: TimedEmulator, n: int) -> list[float]:
    member = actor(emulator, league.players[0])
    timings = []
    for _ in range(n):
        services = Services.build(league.db, ManualClock(league.now), default_timezone="America/New_York")
        began = time.perf_counter()
        await services.field_standings.table(member, FIELD_LEAGUE)
        timings.append((time.perf_counter() - began) * 1000)
    return timings


FORMATS = [BenchFormat("team", seed_team), BenchFormat("ladder", seed_ladder), BenchFormat("field", seed_field)]
