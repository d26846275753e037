"""Start the real LeagueBot against the local emulator, and look at what reached the database."""

from __future__ import annotations

import asyncio
import functools
import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy import Table, func
from sqlmodel import SQLModel, col, select

from bot.client import LeagueBot
from bot.clock import ManualClock
from bot.daily_backup import DailyBackup
from bot.discord_endpoints import point_discord_at
from bot.local.emulator import Emulator, InteractionResult
from bot.settings import load_settings
from storage.db import Database
from storage.models import AuditEntry

# The smallest league a test needs: a team league with its commissioner role, created by the server owner.
CREATE_TEAM_LEAGUE = '/league create name:"Tuesday Night" format:team commissioner_role:@Commissioner'


@functools.cache
def league_tables() -> tuple[Table, ...]:
    """Every table of league data, dependencies first; `bot_state` is the bot's own bookkeeping (e.g. interaction
    claims). Kept: `sorted_tables` sorts the metadata anew, about 5 ms, each time it is read."""
    return tuple(table for table in SQLModel.metadata.sorted_tables if table.name != "bot_state")


@dataclass
class RunningBot:
    emulator: Emulator
    bot: LeagueBot
    db: Database

    async def run(self, line: str, *, as_member: str, channel: str = "general") -> InteractionResult:
        return await self.emulator.run(line, as_member=as_member, channel=channel)

    async def scoreboards_published(self) -> None:
        """Until every living scoreboard handed to the publisher so far has been sent (it publishes after
        the reply, so a reply arrives before its match's scoreboard)."""
        await self.bot.scoreboards.flush()

    async def row_counts(self) -> dict[str, int]:
        """Rows per table of league data (`bot_state` is the bot's own bookkeeping, e.g. interaction claims)."""
        counts = {}
        async with self.db.reading() as session:
            for table in league_tables():
                counts[table.name] = (await session.exec(select(func.count()).select_from(table))).one()
        return counts

    async def digest(self) -> str:
        """Every row of league data, hashed: what a read must leave as it found it."""
        hashed = hashlib.sha256()
        async with self.db.engine.connect() as connection:
            for table in league_tables():
                rows = await connection.execute(sa.select(table).order_by(*table.primary_key.columns))
                for row in rows.all():
                    hashed.update(repr(tuple(row)).encode())
        return hashed.hexdigest()

    async def audit(self) -> list[AuditEntry]:
        async with self.db.reading() as session:
            return list((await session.exec(select(AuditEntry).order_by(col(AuditEntry.id)))).all())


@asynccontextmanager
async def running_bot(
    db: Database,
    emulator: Emulator | None = None,
    *,
    sync: bool = True,
    clock: ManualClock | None = None,
    backups: DailyBackup | None = None,
    **overrides: object,
) -> AsyncIterator[RunningBot]:
    """The bot connected to an emulator (a new one unless given) and ready for commands; `clock` is the time the
    bot starts at (default: now); `backups` its daily backup (default none); `overrides` change its settings (e.g.
    `metrics_port=0`)."""
    emulator = emulator or Emulator(guild_name="Pinball Club")
    owns_emulator = not emulator.started
    if owns_emulator:
        await emulator.start()
    point_discord_at(emulator.api_url, emulator.gateway_url)
    settings = load_settings(dev_guild_id=emulator.guild.id, discord_token="unused", **overrides)
    bot = LeagueBot(settings, db, clock or ManualClock(), force_sync=sync, guild_ready_timeout=0.05, backups=backups)
    bot.report_interactions_done(emulator.interaction_done)
    task = asyncio.create_task(bot.start(emulator.token))
    try:
        await emulator.wait_until_ready(timeout=15)
        await asyncio.wait_for(bot.wait_until_ready(), timeout=15)
        assert bot.ws is not None and bot.ws.session_id is not None
        emulator.reports_done_from(bot.ws.session_id)
        yield RunningBot(emulator, bot, db)
    finally:
        await bot.close()
        await asyncio.gather(task, return_exceptions=True)
        if owns_emulator:
            await emulator.stop()
