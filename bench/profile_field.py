"""`python -m bench.profile_field`: the field league of the benchmark on SQLite, its command kinds timed as
service calls (`/field standings` computed afresh, reused and under a what-if, the autocomplete of tonight's machines, a
`/field score` entry) with the SQL statements each sent, and a pyinstrument profile of one of each
(`--profile`)."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable

from pyinstrument import Profiler
from sqlalchemy import event

from bench.databases import scratch_database
from bench.field import LEAGUE, FieldLeagueSize, _score, seed_field_league
from bench.load import TimedEmulator
from bench.team import actor
from bot.clock import ManualClock
from bot.services import Services


async def main(profile: bool) -> None:
    async with scratch_database("sqlite") as (db, _):
        emulator = TimedEmulator()
        await emulator.start()
        try:
            began = time.perf_counter()
            league = await seed_field_league(db, emulator, FieldLeagueSize())
            print(f"seeded in {time.perf_counter() - began:.1f} s")
            clock = ManualClock(league.now)
            shared = Services.build(db, clock, default_timezone="America/New_York")
            member = actor(emulator, league.players[0])
            entries = iter(
                (actor(emulator, name), machine, f"{_score(number, m, league.weeks_played + 1):,}")
                for m, machine in enumerate(league.machines)
                for number, name in enumerate(league.players)
            )

            async def fresh_standings() -> object:
                services = Services.build(db, clock, default_timezone="America/New_York")
                return await services.field_standings.table(member, LEAGUE)

            async def score() -> object:
                who, machine, text = next(entries)
                return await shared.field_nights.enter_scores(who, LEAGUE, machine_id=machine, entries=[(None, text)])

            async def what_if() -> object:  # computed afresh each time, never reused
                return await shared.league_standings.view(member, LEAGUE, conference=None, what_if="no dropped weeks")

            async def tonight_machines() -> object:
                return await shared.field_nights.machine_choices(member.guild_id, LEAGUE, tonight=True)

            kinds: list[tuple[str, Callable[[], Awaitable[object]]]] = [
                ("standings (computed)", fresh_standings),
                ("standings (reused)", lambda: shared.field_standings.table(member, LEAGUE)),
                ("standings what-if", what_if),
                ("autocomplete tonight", tonight_machines),
                ("score entry", score),
            ]
            statements: list[str] = []
            event.listen(db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
            for name, call in kinds:
                timings = []
                for _ in range(20):
                    statements.clear()
                    began = time.perf_counter()
                    await call()
                    timings.append((time.perf_counter() - began) * 1000)
                print(
                    f"{name}: median {statistics.median(timings):.1f} ms, max {max(timings):.1f} ms, "
                    f"{len(statements)} statements"
                )
            if profile:
                for name, call in kinds:
                    profiler = Profiler(async_mode="enabled", interval=0.0005)
                    with profiler:
                        await call()
                    print(f"=== {name}")
                    print(profiler.output_text(show_all=False))
        finally:
            await emulator.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.profile_field", description=__doc__)
    parser.add_argument("--profile", action="store_true", help="print a pyinstrument profile of each kind")
    asyncio.run(main(parser.parse_args().profile))
