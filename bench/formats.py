"""The formats the benchmark knows. Each seeds its large league and names its command kinds; the runner
does the rest. Ladder and field plug in here with an entry like TEAM's."""

from __future__ import annotations

import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from bench.load import Call, TimedEmulator, Workload
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
    kinds = {w.kind: w for w in team_workloads(league, emulator)}
    reads = [await kinds[k].calls(n) for k in ("/standings", "autocomplete (/lineup p1)", "no-op (/noop)")]
    scores = await kinds["/score"].calls(10_000)  # last: it declares the rounds the others' preparation cleared
    read_calls = [c for trio in zip(*reads, strict=True) for c in trio]
    mixed: list[Call] = []
    score_iter, read_iter = iter(scores), iter(read_calls)
    for i in itertools.count():
        nxt = next(score_iter, None) if i % 10 == 0 else None
        nxt = nxt or next(read_iter, None)
        if nxt is None or len(mixed) >= n:
            return mixed
        mixed.append(nxt)
    return mixed


FORMATS = [BenchFormat("team", seed_team)]
