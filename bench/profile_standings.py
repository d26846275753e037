"""`python -m bench.profile_standings`: the team league of the benchmark on SQLite, `/standings` timed as a
service call, and a pyinstrument profile of one call (how bench/profiles/standings-*.txt were made)."""

from __future__ import annotations

import asyncio
import time

from pyinstrument import Profiler

from bench.databases import scratch_database
from bench.load import TimedEmulator
from bench.team import actor, seed_team_league
from bot.clock import ManualClock
from bot.services import Services


async def main() -> None:
    async with scratch_database("sqlite") as (db, _):
        emulator = TimedEmulator()
        await emulator.start()
        try:
            league = await seed_team_league(db, emulator)
            services = Services.build(db, ManualClock(league.now), default_timezone="America/New_York")
            member = actor(emulator, league.members[0])
            for _ in range(10):
                began = time.perf_counter()
                view = await services.standings.table(member, None, conference=None)
                print(f"standings {(time.perf_counter() - began) * 1000:.1f} ms ({view.final_matches} final)")
            profiler = Profiler(async_mode="enabled")
            with profiler:
                await services.standings.table(member, None, conference=None)
            print(profiler.output_text())
        finally:
            await emulator.stop()


if __name__ == "__main__":
    asyncio.run(main())
