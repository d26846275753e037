"""`python -m bench.profile_standings`: the team league of the benchmark on SQLite, `/standings` timed as a
service call, and a pyinstrument profile of one call (how bench/profiles/standings-*.txt were made).

Every call has a new service, so nothing is reused from memory: the first computes every result from the facts
and stores the final ones (cold), the later ones read those stored results. `--cold` profiles a cold call
(stored results deleted first) instead of one reading them."""

from __future__ import annotations

import asyncio
import sys
import time

import sqlalchemy as sa
from pyinstrument import Profiler

from bench.databases import scratch_database
from bench.load import TimedEmulator
from bench.team import actor, seed_team_league
from bot.clock import ManualClock
from bot.services import Services
from storage.results import MatchFinalResult


async def main() -> None:
    async with scratch_database("sqlite") as (db, _):
        emulator = TimedEmulator()
        await emulator.start()
        try:
            league = await seed_team_league(db, emulator)
            member = actor(emulator, league.members[0])

            def fresh() -> Services:
                return Services.build(db, ManualClock(league.now), default_timezone="America/New_York")

            for call in range(11):
                began = time.perf_counter()
                view = await fresh().standings.table(member, None, conference=None)
                how = "cold: computed and stored" if call == 0 else "from stored results"
                print(f"standings {(time.perf_counter() - began) * 1000:.1f} ms ({view.final_matches} final, {how})")
            if "--cold" in sys.argv:
                async with db.writing() as session:
                    await session.exec(sa.delete(MatchFinalResult))
            services = fresh()
            profiler = Profiler(async_mode="enabled")
            with profiler:
                await services.standings.table(member, None, conference=None)
            print(profiler.output_text())
        finally:
            await emulator.stop()


if __name__ == "__main__":
    asyncio.run(main())
