"""LeagueBot: the discord.py client, its cogs, and command syncing."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import importlib
import json
import logging
import pkgutil
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands
from sqlmodel import select

import cogs
from bot import channel_check, errors
from bot.clock import Clock
from bot.daily_backup import DailyBackup
from bot.interaction_claims import InteractionClaims
from bot.interactions import hold_interaction, report_done
from bot.jobs import PostScheduler
from bot.memory import collect_between_answers
from bot.metrics import Metrics, MetricsServer
from bot.rules import channel_access
from bot.scoreboard_publisher import ScoreboardPublisher
from bot.services import Services
from bot.settings import Settings
from storage.db import Database
from storage.models import BotState, remember

log = logging.getLogger(__name__)


def cog_modules() -> list[str]:
    """Every module of the cogs package and its format packages that defines an extension `setup`;
    private helpers (names starting with _) and a package's views and modals are not extensions."""
    modules = []
    for info in pkgutil.walk_packages(cogs.__path__, prefix="cogs."):
        leaf = info.name.rsplit(".", 1)[-1]
        if info.ispkg or leaf.startswith("_") or leaf in NOT_EXTENSIONS:
            continue
        modules.append(info.name)
    return sorted(modules)


NOT_EXTENSIONS = frozenset({"views", "modals"})


# The bot never joins voice channels: silence discord.py's start-up warnings about voice libraries.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


def _freeze_long_lived(stage: str) -> None:
    """Objects that live as long as the process, left to the collector, are walked again by every full collection,
    with every command waiting (the slowest replies). Frozen, a collection walks only what commands create. Two
    stages: at start-up the modules, models and commands (~140,000 objects; full collections took 35-70 ms), and
    at the first READY the guilds, channels and roles the gateway sent. Once per process, as a test session starts
    many bots: freezing each would keep every stopped bot's cycles for good."""
    if stage not in _frozen_stages:
        gc.collect()
        gc.freeze()
        _frozen_stages.add(stage)


_frozen_stages: set[str] = set()


class LeagueBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        db: Database,
        clock: Clock,
        *,
        force_sync: bool = False,
        guild_ready_timeout: float = 2.0,
        backups: DailyBackup | None = None,
        **client_options: Any,
    ) -> None:
        """`guild_ready_timeout`: how long discord.py waits after the last guild arrives before on_ready;
        the local emulator sends every guild at once, so local runs and tests pass a short one. `backups`: the
        daily backup, scheduled beside the posts (only `pinleague run` makes one: never of a local chat's database)."""
        super().__init__(
            **client_options,
            guild_ready_timeout=guild_ready_timeout,
            command_prefix=commands.when_mentioned,
            # Guilds only: channels, roles and permissions. Members arrive with each interaction, and no feature
            # reads messages, reactions or typing, whose events (one per board edit) would each be parsed for nothing.
            intents=discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            # Nothing reads messages back from discord.py's cache (boards are edited by id): 1,000 cached
            # messages, each with its embeds and components, are objects every full collection walks.
            max_messages=None,
        )
        self.settings = settings
        self.db = db
        self.clock = clock
        self.services = Services.build(db, clock, default_timezone=settings.default_timezone)
        self.claims = InteractionClaims(db, clock)  # `answer` handles each interaction once
        self.force_sync = force_sync
        self.posts = PostScheduler(self, self.services.posts)
        self.backups = backups
        self.metrics = Metrics(db)
        self.metrics.watch(self.posts.scheduler)
        self.metrics_server: MetricsServer | None = None  # serving while PINLEAGUE_METRICS_PORT is set
        self.scoreboards = ScoreboardPublisher()  # match scoreboards, edited after the command replies
        self._first_catch_up: asyncio.Task[None] | None = None
        self._collector: asyncio.Task[None] | None = None  # full garbage collections between answers
        self._notices: set[asyncio.Task[int]] = set()

    async def setup_hook(self) -> None:
        for name in cog_modules():
            # Imported once per process and set up on this bot: `load_extension` executes the module afresh on
            # every start (~0.4 s of CPU for ~100 commands), which a test session starting hundreds of bots
            # pays each time. Each cog instance still gets its own copies of the commands.
            await importlib.import_module(name).setup(self)
        errors.install(self.tree)
        await self.sync_commands()
        await self.posts.start()
        if self.backups is not None:
            self.backups.schedule(self.posts.scheduler)
        if self.settings.metrics_port is not None:
            self.metrics_server = MetricsServer(self)
            await self.metrics_server.start(self.settings.metrics_host, self.settings.metrics_port)
        self._first_catch_up = asyncio.create_task(self._catch_up_when_ready())
        _freeze_long_lived("start-up")
        self._collector = asyncio.create_task(collect_between_answers(), name="garbage collection")

    async def _catch_up_when_ready(self) -> None:
        """At start, once the gateway is up: tell the commissioners what the bot may not do in their channels, and
        send what fell due while the bot was down (within the grace)."""
        await self.wait_until_ready()
        try:
            await channel_check.tell_commissioners(self)
        except Exception:
            log.exception("checking the bot's channel permissions failed; the posts go out regardless")
        await self.posts.catch_up()

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: discord.app_commands.Command | discord.app_commands.ContextMenu
    ) -> None:
        """The commissioner notices a command caused go out at once, not at the next minute's tick (COMMON-NOTIFY-1)."""
        # discord.py dispatches this event from the command's task just before it ends; this runs first, so the
        # hold is taken while the interaction is still unfinished.
        release = hold_interaction()
        task = asyncio.create_task(self.posts.send_notices())
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)
        task.add_done_callback(lambda _: release())

    def report_interactions_done(self, on_done: Callable[[int], None]) -> None:
        """Call `on_done(interaction id)` once the bot has finished with each interaction it receives from now
        on: its reply, followups, scoreboards and notices sent (see `bot.interactions.report_done`). For a local
        emulator in the same process; call before `start`."""
        parsers = self._connection.parsers  # the dict discord.py's gateway looks event parsers up in
        parsers["INTERACTION_CREATE"] = report_done(parsers["INTERACTION_CREATE"], on_done)

    async def close(self) -> None:
        self.posts.shutdown()
        if self._first_catch_up is not None:
            # Awaited so that a catch-up cut short ends its database work before the runtime disposes the engine.
            self._first_catch_up.cancel()
            await asyncio.gather(self._first_catch_up, return_exceptions=True)
        for task in self._notices:
            task.cancel()
        if self._collector is not None:
            self._collector.cancel()
            await asyncio.gather(self._collector, return_exceptions=True)
        await self.scoreboards.close()  # while the connection to Discord is still open
        if self.metrics_server is not None:
            await self.metrics_server.close()
        await super().close()

    async def sync_commands(self) -> None:
        """Push commands to Discord only when they differ from what was last pushed (a hash in the database)."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands:{self.application_id}:{guild.id if guild else 'global'}"
        async with self.db.reading() as session:
            stored = (await session.exec(select(BotState.value).where(BotState.key == key))).first()
        if stored == digest and not self.force_sync:
            log.info("commands unchanged since the last sync; not syncing")
            return
        synced = await self.tree.sync(guild=guild)
        async with self.db.writing() as session:  # an upsert: processes starting together both sync
            await session.exec(remember(key, digest, sqlite=self.db.is_sqlite))
        log.info("synced %d commands %s", len(synced), f"to guild {guild.id}" if guild else "globally")

    def gateway_open(self) -> bool:
        return self.ws is not None and self.ws.open

    def _shards_text(self) -> str:
        return ""

    async def on_ready(self) -> None:
        _freeze_long_lived("ready")
        log.info("ready as %s in %d guilds%s", self.user, len(self.guilds), self._shards_text())
        if self.application_id is not None:
            log.info("to add it to another server: %s", channel_access.invite_link(self.application_id))


class ShardedLeagueBot(LeagueBot, commands.AutoShardedBot):
    """LeagueBot on the shards PINLEAGUE_SHARD_IDS names (default: all PINLEAGUE_SHARD_COUNT), one gateway
    connection each. Discord sends each guild's events, interactions included, to its shard's connection only."""

    def __init__(self, settings: Settings, *args: Any, **kwargs: Any) -> None:
        shard_ids = list(settings.shard_ids) if settings.shard_ids is not None else None
        super().__init__(settings, *args, shard_count=settings.shard_count, shard_ids=shard_ids, **kwargs)

    def gateway_open(self) -> bool:
        return bool(self.shards) and not any(shard.is_closed() for shard in self.shards.values())

    def _shards_text(self) -> str:
        return f" on shards {','.join(map(str, sorted(self.shards)))} of {self.shard_count}"


def bot_class(settings: Settings) -> type[LeagueBot]:
    """Sharded when PINLEAGUE_SHARD_COUNT is set; a plain client otherwise (one gateway connection)."""
    return ShardedLeagueBot if settings.sharded else LeagueBot
