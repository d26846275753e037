"""`python -m bench`: seed large leagues, drive the real bot (its own process) through the emulator, and write
bench/RESULTS.md. `--quick` for a short run while developing; `--db sqlite` or `--db postgresql` for one.

Per database: start-up time to READY, per command kind p50/p95/p99 latency at 1 and 50 concurrent members
(acknowledgement and reply, with the no-op baseline), sustained interactions per second, peak RSS of the
bot, the standings of the seeded league timed as a service call, the standings scaling curve, and (SQLite)
the crash cycles. Formats plug in through `bench.formats.FORMATS`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path

from bench.bot_process import ROOT, BotProcess
from bench.crash import CrashCycle, crash_cycle
from bench.databases import scratch_database
from bench.formats import FORMATS, BenchFormat
from bench.load import Latencies, TimedEmulator, measure, selected
from bench.standings_curve import CurvePoint, standings_curve
from storage.db import Database

RESULTS = Path(__file__).with_name("RESULTS.md")
ACK_DEADLINE = 3.0
NOOP = "no-op (/noop)"  # every run's baseline
RATED_GAMES = 48  # tonight's games confirmed one by one, the ratings read after each


@dataclass(frozen=True)
class Plan:
    samples_single: int
    samples_concurrent: int
    samples_paced: int
    concurrency: int
    think_seconds: float  # paced members' mean pause: 50 members every ~2 s is ten times a busy night's peak
    sustained_seconds: float
    curve: tuple[int, ...]
    crash_cycles: int
    restarts: int
    bad_input_examples: int  # in all, spread over every command
    kinds: tuple[str, ...] = ()  # only these command kinds (and the no-op beside them); nothing else is run

    @classmethod
    def full(cls) -> Plan:
        return cls(150, 500, 300, 50, 2.0, 60.0, (10, 100, 1_000, 10_000), 20, 3, 10_000)

    @classmethod
    def quick(cls) -> Plan:
        return cls(20, 100, 60, 50, 2.0, 5.0, (10, 100), 2, 1, 0)


@dataclass
class FormatRun:
    name: str
    seed_seconds: float
    seed_summary: str
    startups: list[float] = field(default_factory=list)
    service_standings_ms: list[float] = field(default_factory=list)
    latencies: list[Latencies] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    sustained: Latencies | None = None
    peak_rss_mb: float = 0.0
    rating_update: str = ""


@dataclass
class DatabaseRun:
    database: str
    version: str
    formats: list[FormatRun] = field(default_factory=list)
    curve: list[CurvePoint] = field(default_factory=list)
    crashes: list[CrashCycle] = field(default_factory=list)


async def run_format(fmt: BenchFormat, db: Database, plan: Plan, *, guild_seed: int) -> FormatRun:
    # A guild of its own: the bot syncs its commands to each new emulator (the last sync is stored per guild).
    async with _emulator(guild_seed) as emulator:
        began = time.perf_counter()
        seeded = await fmt.seed(db, emulator)
        result = FormatRun(fmt.name, time.perf_counter() - began, seeded.summary)
        result.service_standings_ms = await seeded.time_standings(20)
        if seeded.rating_update is not None:
            result.rating_update = (await seeded.rating_update(RATED_GAMES)).summary()
        bot = BotProcess(emulator, str(db.url.render_as_string(hide_password=False)), seeded.now, noop=True)
        try:
            for _ in range(0 if plan.kinds else plan.restarts):
                await bot.start()
                result.startups.append(bot.started_in or 0.0)
                await bot.stop()
            await bot.start()
            workloads = selected(seeded.workloads(emulator), (*plan.kinds, NOOP) if plan.kinds else ())
            rounds = (
                (1, plan.samples_single, None),
                (plan.concurrency, plan.samples_concurrent, None),
                (plan.concurrency, plan.samples_paced, plan.think_seconds),
            )
            pauses = random.Random(9)
            for concurrency, samples, think in rounds:
                for workload in workloads:  # in order: a kind may act on what the one before it did
                    result.notes[workload.kind] = workload.note
                    n = min(samples, workload.limit or samples)
                    users = min(concurrency, workload.max_concurrency or concurrency)
                    calls = await workload.calls(n)
                    result.latencies.append(
                        await measure(emulator, workload.kind, calls, concurrency=users, think=think, rng=pauses)
                    )
                    logging.info("%s %s ×%d (think %s): %d done", fmt.name, workload.kind, users, think, len(calls))
            result.peak_rss_mb = bot.peak_rss_mb()
            if plan.kinds:
                return result
            result.notes["mix"] = seeded.mix
            result.sustained = await measure(
                emulator, "sustained mix", await seeded.mixed(emulator, 200_000),
                concurrency=plan.concurrency, for_seconds=plan.sustained_seconds,
            )  # fmt: skip
            result.peak_rss_mb = bot.peak_rss_mb()
        finally:
            await bot.stop()
        return result


async def run_database(kind: str, plan: Plan, formats: list[BenchFormat]) -> DatabaseRun:
    async with scratch_database(kind) as (db, version):
        result = DatabaseRun(kind, version)
        for guild_seed, fmt in enumerate(formats, start=2):
            result.formats.append(await run_format(fmt, db, plan, guild_seed=guild_seed))
    if plan.kinds:
        return result
    async with scratch_database(kind) as (db, _):
        result.curve = await standings_curve(db, plan.curve)
    if kind == "sqlite":
        result.crashes = await crash_cycles(plan.crash_cycles)
    return result


async def crash_cycles(cycles: int) -> list[CrashCycle]:
    from bench.team import TeamLeagueSize, seed_team_league

    async with scratch_database("sqlite") as (db, _), _emulator() as emulator:
        league = await seed_team_league(
            db, emulator, TeamLeagueSize(teams=8, players=6, weeks_played=2, past_seasons=0)
        )
        bot = BotProcess(emulator, str(db.url), league.now)
        rng = random.Random(20)
        found = []
        for _ in range(cycles):
            try:
                found.append(await crash_cycle(league, bot, str(db.url.database), rng))
            finally:
                await bot.kill()
        return found


@asynccontextmanager
async def _emulator(guild_seed: int = 2) -> AsyncIterator[TimedEmulator]:
    emulator = TimedEmulator(guild_seed=guild_seed)
    await emulator.start()
    try:
        yield emulator
    finally:
        await emulator.stop()


async def run_bad_input(examples: int) -> str:
    """The CI bad-input suite with `examples` spread over every command (tests/robustness/test_bad_input.py)."""
    from tests.robustness.test_bad_input import command_paths

    per_command = -(-examples // len(command_paths()))
    began = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/robustness/test_bad_input.py",
        cwd=ROOT, env={**os.environ, "PINLEAGUE_BAD_INPUT_EXAMPLES": str(per_command)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await process.communicate()
    summary = output.decode(errors="replace").strip().splitlines()[-1]
    return (
        f"## Bad input (SQLite)\n\n{per_command} hypothesis examples for each of the {len(command_paths())} commands "
        f"({per_command * len(command_paths()):,} in all) in {time.perf_counter() - began:.0f} s: `{summary}`.\n"
    )


# --- the report ------------------------------------------------------------------------------------------


def machine() -> list[str]:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor() or "?",
    )
    memory = next(
        line.split(":", 1)[1].strip()
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal")
    )
    versions = ", ".join(
        f"{name} {metadata.version(name)}" for name in ("discord.py", "SQLAlchemy", "aiosqlite", "asyncpg", "sqlmodel")
    )
    import sqlite3

    return [
        f"- CPUs (`nproc`): {os.cpu_count()} · {cpu}",
        f"- RAM: {memory}",
        f"- Python {platform.python_version()} on {platform.platform()}",
        f"- {versions}, SQLite {sqlite3.sqlite_version}",
    ]  # fmt: skip


def report(runs: list[DatabaseRun], plan: Plan, *, began: datetime, load: tuple[list[float], list[float]]) -> str:
    lines = [
        "# Benchmark results",
        "",
        f"Written by `python -m bench` on {began:%Y-%m-%d %H:%M} UTC "
        f"({'full' if plan == Plan.full() else 'quick'} run). "
        "Latencies are server-side as Discord would see them: from the emulator dispatching the interaction to the "
        "bot's first callback (**ack**) and to the reply the member reads (**reply**; a deferred command replies in a "
        "followup). The bot runs in its own process; the emulator and the simulated members in another. "
        "**Members**: `1` is one member at a time (a command's own cost); `50 back to back` is 50 members each "
        "sending their next command the moment they are answered (the bot saturated: latency is mostly waiting "
        "behind the other 49); `50 paced ~2 s` is 50 members each pausing a random time, 2 s on average, "
        "between their reply and their next command (about 25 interactions/s offered: ten times the peak of a "
        "busy league night, see `bench/NOTES.md`). **Host took**: the share of this virtual machine's core time "
        "the host spent on other machines during the row (Linux's steal time); the latencies of a row with more than "
        "a percent or two include those waits. "
        "Targets, gaps, profiles and before/after figures: `bench/NOTES.md`.",
        "",
        "## Machine",
        *machine(),
        f"- Load average (1, 5, 15 min) at the start: {', '.join(f'{x:.2f}' for x in load[0])}; at the end: "
        f"{', '.join(f'{x:.2f}' for x in load[1])}. Anything well above 0 means other work shared the two cores.",
        "",
    ]
    for run in runs:
        lines += [f"## {run.database} ({run.version})", ""]
        for fmt in run.formats:
            lines += _format_section(fmt, plan)
        if not run.curve:  # a run of some kinds only
            continue
        lines += [
            "### Standings scaling (service call, not reused from memory)",
            "",
            "Cold: the first call with no stored results (every match scored from its facts, then stored). "
            "Stored: the median of the 5 calls after it, reading the stored final results.",
            "",
            "| final matches | stored (ms) | ms per 1,000 matches | cold (ms) | cold ms per 1,000 matches |",
            "|---:|---:|---:|---:|---:|",
        ]
        lines += [
            f"| {p.matches:,} | {p.ms:.1f} | {p.ms / p.matches * 1000:.1f} | {p.cold_ms:.1f} "
            f"| {p.cold_ms / p.matches * 1000:.1f} |"
            for p in run.curve
        ]
        lines.append("")
        if run.crashes:
            ok = sum(c.integrity == "ok" for c in run.crashes)
            lines += [
                f"### Crashes: kill -9 mid-burst, {len(run.crashes)} times",
                "",
                f"Integrity check `ok` after {ok} of {len(run.crashes)} kills; "
                f"{sum(c.acknowledged for c in run.crashes)} acknowledged score entries "
                f"(of {sum(c.dispatched for c in run.crashes)} sent), every one found as "
                "echoed after the restart.",
                "",
            ]
    return "\n".join(lines) + "\n"


def _format_section(fmt: FormatRun, plan: Plan) -> list[str]:
    noop = {(lat.concurrency, lat.think): lat for lat in fmt.latencies if lat.kind.startswith("no-op")}
    lines = [
        f"### {fmt.name} format: {fmt.seed_summary}",
        "",
        f"Seeded in {fmt.seed_seconds:.1f} s. Start-up to READY (spawn → identified, commands synced): "
        + (", ".join(f"{s:.2f} s" for s in fmt.startups) or "not measured")
        + f". Peak RSS of the bot: **{fmt.peak_rss_mb:.0f} MiB**. The seeded league's standings as a "
        "service call, not reused from memory: median "
        f"**{statistics.median(fmt.service_standings_ms):.1f} ms**, max {max(fmt.service_standings_ms):.1f} ms; "
        f"the first call (team: computes and stores the final results the later calls read) "
        f"{fmt.service_standings_ms[0]:.1f} ms."
        + (f" Service call, {fmt.rating_update}." if fmt.rating_update else ""),
        "",
        "| command | members | n | ack p50 / p95 / p99 (ms) | reply p50 / p95 / p99 (ms) "
        "| reply p99 ÷ no-op | refused | errors | host took |",
        "|---|---:|---:|---|---|---:|---:|---:|---:|",
    ]
    order = list(dict.fromkeys(lat.kind for lat in fmt.latencies))
    for lat in sorted(fmt.latencies, key=lambda lat: (order.index(lat.kind), lat.concurrency, lat.think or 0)):
        base = noop.get((lat.concurrency, lat.think))
        ratio = lat.percentile("reply", 99) / base.percentile("reply", 99) if base and base.reply else float("nan")
        ack = " / ".join(lat.ms("ack", q) for q in (50, 95, 99))
        reply = " / ".join(lat.ms("reply", q) for q in (50, 95, 99))
        lines.append(
            f"| {lat.kind} | {_members(lat)} | {lat.count} | {ack} | {reply} | {ratio:.1f} "
            f"| {lat.refused} | {len(lat.errors)} | {_share(lat.stolen)} |"
        )
    notes = [f"- {kind}: {note}" for kind, note in fmt.notes.items() if note and kind != "mix"]
    for lat in [*fmt.latencies, *([fmt.sustained] if fmt.sustained else [])]:
        for error in sorted(set(lat.errors))[:3]:
            notes.append(f"- error in {lat.kind} ×{lat.concurrency}: {error[:300]}")
        for refusal in sorted(set(lat.refusals))[:3]:
            notes.append(f"- refused in {lat.kind} ×{lat.concurrency}: {refusal[:300]}")
    lines += ["", *notes, ""] if notes else [""]
    if fmt.sustained:
        s = fmt.sustained
        lines += [
            f"Sustained, {s.concurrency} members back to back for {plan.sustained_seconds:.0f} s "
            f"(mix: {fmt.notes.get('mix', '')}): **{s.count / s.wall:.0f} interactions/s**, "
            f"ack p99 {s.ms('ack', 99)} ms, max {max(s.ack, default=0) * 1000:.0f} ms "
            f"({sum(a > ACK_DEADLINE for a in s.ack)} over 3 s), reply p99 {s.ms('reply', 99)} ms, "
            f"errors {len(s.errors)}. Reply p50 / p99 by command: "
            + "; ".join(
                f"{command} {_ms(sorted(times), 50)} / {_ms(sorted(times), 99)} ms (n {len(times)})"
                for command, times in sorted(s.reply_by_command.items())
            )
            + ".",
            "",
        ]
    return lines


def _members(lat: Latencies) -> str:
    if lat.think is None:
        return f"{lat.concurrency} back to back" if lat.concurrency > 1 else "1"
    return f"{lat.concurrency} paced ~{lat.think:g} s"


def _share(stolen: float | None) -> str:
    return "—" if stolen is None else f"{stolen:.1%}"


def _ms(values: list[float], q: float) -> str:
    return f"{values[min(len(values) - 1, round(q / 100 * (len(values) - 1)))] * 1000:.0f}"


async def main_async(args: argparse.Namespace) -> int:
    plan = Plan.quick() if args.quick else Plan.full()
    if args.kind:
        plan = replace(plan, kinds=tuple(args.kind), bad_input_examples=0)
    began = datetime.now(UTC)
    load_before = list(os.getloadavg())
    formats = [f for f in FORMATS if not args.format or f.name in args.format]
    databases = [args.db] if args.db else ["sqlite", "postgresql"]
    runs = [await run_database(kind, plan, formats) for kind in databases]
    bad_input = await run_bad_input(plan.bad_input_examples) if plan.bad_input_examples else ""
    text = report(runs, plan, began=began, load=(load_before, list(os.getloadavg()))) + bad_input
    out = Path(args.out) if args.out else RESULTS
    out.write_text(text)
    print(text)
    print(f"written to {out} in {(datetime.now(UTC) - began) / timedelta(seconds=1):.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small samples and sizes, for development")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], help="one database (default: both)")
    parser.add_argument("--format", action="append", help="only this format (repeatable)")
    parser.add_argument(
        "--kind", action="append",
        help="only this command kind, e.g. '/player profile' or 'board: Confirm' (repeatable), with the kinds it needs "
        "(a Confirm needs the scores entered): beside the no-op and the seeded league's service figures; no "
        "restarts, sustained mix, curve, crashes or bad input",
    )  # fmt: skip
    parser.add_argument("--out", help=f"where to write the results (default {RESULTS})")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    logging.getLogger("discord").setLevel(logging.WARNING)
    tempfile.tempdir = tempfile.gettempdir()
    return asyncio.run(main_async(args))
