"""`python -m bench.profile_commands [--format NAME] [KIND …]`: a pyinstrument profile of the bot serving
command kinds of the benchmark, one member at a time (the cost of one command, without queueing), with the bot
in this process so the profile sees discord.py, the cog, the service and the database driver. Kinds: the
workloads' names of the format (team by default: `bench.team_load`, e.g. "/score", "Confirm button",
"autocomplete (/lineup p1)"; ladder and field: `bench.ladder`, `bench.field`), in the order they prepare each
other: "board: Enter scores → form" before "board: form → echo" before "board: Confirm". `--statements`: instead
of a profile, the SQL statements each command sends (a count that does not depend on the machine's load), with the
most frequent ones; `--plain`: the commands timed without the profiler's overhead (reply p50, CPU per command)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from collections import Counter
from typing import Any

from pyinstrument import Profiler
from sqlalchemy import event

from bench.databases import scratch_database
from bench.formats import FORMATS
from bench.load import TimedEmulator, measure
from bot.clock import ManualClock
from tests.e2e.harness import running_bot

SAMPLES = 60


async def main(format_name: str, kinds: list[str], *, statements: bool, plain: bool = False) -> None:
    fmt = next(f for f in FORMATS if f.name == format_name)
    async with scratch_database("sqlite") as (db, _):
        emulator = TimedEmulator()
        await emulator.start()
        try:
            seeded = await fmt.seed(db, emulator)
            async with running_bot(db, emulator, clock=ManualClock(seeded.now)):
                workloads = {w.kind: w for w in seeded.workloads(emulator)}
                for kind in kinds or ["/score"]:
                    workload = workloads[kind]
                    calls = await workload.calls(SAMPLES)
                    if statements:
                        await _count_statements(db.engine.sync_engine, emulator, kind, calls)
                        continue
                    profiler = Profiler(async_mode="disabled", interval=0.0005)
                    began, cpu_began = time.perf_counter(), time.process_time()
                    with contextlib.nullcontext() if plain else profiler:
                        timed = await measure(emulator, kind, calls, concurrency=1)
                    took, cpu = time.perf_counter() - began, time.process_time() - cpu_began
                    print(
                        f"{kind}: {timed.count} in {took:.2f} s, reply p50 {timed.ms('reply', 50)} ms, "
                        f"CPU {cpu * 1000 / timed.count:.1f} ms per command"
                    )
                    if not plain:
                        print(profiler.output_text(show_all=False))
        finally:
            await emulator.stop()


async def _count_statements(engine: Any, emulator: TimedEmulator, kind: str, calls: Any) -> None:
    sent: Counter[str] = Counter()

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent[" ".join(statement.split())[:110]] += 1

    event.listen(engine, "before_cursor_execute", count)
    try:
        timed = await measure(emulator, kind, calls, concurrency=1)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    print(f"{kind}: {sum(sent.values()) / timed.count:.1f} statements per command ({timed.count} commands)")
    for statement, times in sent.most_common(12):
        print(f"  {times / timed.count:5.1f}  {statement}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.profile_commands", description=__doc__)
    parser.add_argument("--format", default="team", choices=[f.name for f in FORMATS])
    parser.add_argument("--statements", action="store_true", help="count SQL statements instead of profiling")
    parser.add_argument("--plain", action="store_true", help="time the commands without profiling them")
    parser.add_argument("kinds", nargs="*")
    args = parser.parse_args()
    asyncio.run(main(args.format, args.kinds, statements=args.statements, plain=args.plain))
