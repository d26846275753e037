"""The real bot in a process of its own, connected to an emulator in the parent: what the benchmarks time
and measure (start-up, memory) and what the crash suite kills.

    python -m bench.bot_process --db URL --api URL --gateway URL --token T [--guild ID] --now ISO [--noop]

Without --guild, commands are global (every guild of the emulator has them). The shards come from
PINLEAGUE_SHARD_COUNT and PINLEAGUE_SHARD_IDS, as for `pinleague run`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.client import LeagueBot, ShardedLeagueBot
from bot.clock import ManualClock
from bot.discord_endpoints import point_discord_at
from bot.memory import limit_malloc_arenas
from bot.settings import load_settings
from storage.db import Database

if TYPE_CHECKING:  # the bot's process never loads the emulator: its memory is the bot's alone
    from bot.local.emulator import Emulator

ROOT = Path(__file__).resolve().parent.parent


class BenchBot(LeagueBot):
    """LeagueBot plus, when asked, the /noop baseline command."""

    def __init__(self, *args: object, noop: bool, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.noop = noop

    async def setup_hook(self) -> None:
        if self.noop:
            await self.load_extension("bench.noop")
        await super().setup_hook()


class ShardedBenchBot(BenchBot, ShardedLeagueBot):
    """BenchBot on the shards PINLEAGUE_SHARD_IDS names."""


async def _serve(args: argparse.Namespace) -> None:
    point_discord_at(args.api, args.gateway)
    db = Database(args.db)
    settings = load_settings(dev_guild_id=args.guild, discord_token="unused", database_url=args.db)
    clock = ManualClock(datetime.fromisoformat(args.now))
    bot_class = ShardedBenchBot if settings.sharded else BenchBot
    bot = bot_class(settings, db, clock, noop=args.noop, guild_ready_timeout=0.05)
    try:
        async with bot:
            await bot.start(args.token)
    finally:
        await db.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot_process")
    for option in ("--db", "--api", "--gateway", "--token", "--now"):
        parser.add_argument(option, required=True)
    parser.add_argument("--guild", type=int)
    parser.add_argument("--noop", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    limit_malloc_arenas()  # as `pinleague run` does
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))
    return 0


class BotProcess:
    """Start, kill -9 and measure a bot process from the parent, which runs the emulator."""

    def __init__(
        self,
        emulator: Emulator,
        db_url: str,
        now: datetime,
        *,
        noop: bool = False,
        shards: tuple[int, tuple[int, ...]] | None = None,
        metrics_port: int | None = None,
    ) -> None:
        """`shards`: (PINLEAGUE_SHARD_COUNT, PINLEAGUE_SHARD_IDS) for the process; its commands are then global.
        `metrics_port`: PINLEAGUE_METRICS_PORT (/metrics and /healthz on 127.0.0.1)."""
        self.emulator = emulator
        self.db_url = db_url
        self.now = now
        self.noop = noop
        self.shards = shards
        self.metrics_port = metrics_port
        self.process: asyncio.subprocess.Process | None = None
        self.started_in: float | None = None  # seconds from spawn to READY (identified, commands synced)

    async def start(self, *, timeout: float = 60.0) -> None:  # noqa: ASYNC109
        command = [
            sys.executable, "-m", "bench.bot_process", "--db", self.db_url, "--api", self.emulator.api_url,
            "--gateway", self.emulator.gateway_url, "--token", self.emulator.token, "--now", self.now.isoformat(),
        ]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        if self.shards is None:
            command += ["--guild", str(self.emulator.guild.id)]
            env.pop("PINLEAGUE_SHARD_COUNT", None)
            env.pop("PINLEAGUE_SHARD_IDS", None)
        else:
            count, ids = self.shards
            env |= {"PINLEAGUE_SHARD_COUNT": str(count), "PINLEAGUE_SHARD_IDS": ",".join(map(str, ids))}
        if self.metrics_port is not None:
            env["PINLEAGUE_METRICS_PORT"] = str(self.metrics_port)
        if self.noop:
            command.append("--noop")
        sessions = len(self.emulator.gateway.live_sessions) + (len(self.shards[1]) if self.shards else 1)  # one a shard
        began = time.perf_counter()
        self.process = await asyncio.create_subprocess_exec(*command, cwd=ROOT, env=env)
        await self.emulator.wait_until_ready(timeout, sessions=sessions)
        self.started_in = time.perf_counter() - began

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def peak_rss_mb(self) -> float:
        """The process's high-water resident set (VmHWM), in MiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmHWM in /proc status")

    async def kill(self) -> None:
        """kill -9: no cleanup, no goodbye, as a power cut or the OOM killer would."""
        live = len(self.emulator.gateway.live_sessions)
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()
        await self._gone(live)

    async def stop(self) -> None:
        live = len(self.emulator.gateway.live_sessions)
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        await self._gone(live)

    async def _gone(self, live_before: int) -> None:
        """Until the emulator has noticed the connection drop."""
        for _ in range(200):
            if len(self.emulator.gateway.live_sessions) < live_before:
                return
            await asyncio.sleep(0.01)


if __name__ == "__main__":
    raise SystemExit(main())
