"""`python -m bench.profile_commands [KIND …]`: a pyinstrument profile of the bot serving one team command kind
of the benchmark, one member at a time (the cost of one command, without queueing), with the bot in this
process so the profile sees discord.py, the cog, the service and the database driver. Kinds: the workloads'
names in `bench.team_load` (e.g. "/score", "Confirm button", "autocomplete (/lineup p1)"), in the order they
prepare each other: "board: Enter scores → form" before "board: form → echo" before "board: Confirm"."""

from __future__ import annotations

import asyncio
import sys
import time

from pyinstrument import Profiler

from bench.databases import scratch_database
from bench.load import TimedEmulator, measure
from bench.team import seed_team_league
from bench.team_load import team_workloads
from bot.clock import ManualClock
from tests.e2e.harness import running_bot

SAMPLES = 60


async def main(kinds: list[str]) -> None:
    async with scratch_database("sqlite") as (db, _):
        emulator = TimedEmulator()
        await emulator.start()
        try:
            league = await seed_team_league(db, emulator)
            async with running_bot(db, emulator, clock=ManualClock(league.now)):
                workloads = {w.kind: w for w in team_workloads(league, emulator)}
                for kind in kinds or ["/score"]:
                    workload = workloads[kind]
                    calls = await workload.calls(SAMPLES)
                    profiler = Profiler(async_mode="disabled", interval=0.0005)
                    began = time.perf_counter()
                    with profiler:
                        timed = await measure(emulator, kind, calls, concurrency=1)
                    took = time.perf_counter() - began
                    print(f"{kind}: {timed.count} in {took:.2f} s, reply p50 {timed.ms('reply', 50)} ms")
                    print(profiler.output_text(show_all=False))
        finally:
            await emulator.stop()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
