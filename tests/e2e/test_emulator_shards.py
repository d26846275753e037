"""The emulator's gateway shards as Discord's does (Gateway docs, "Sharding"): IDENTIFY with a shard outside
0..num_shards-1 is closed with 4010, GET /gateway/bot recommends a shard count, each guild's events and
interactions reach only the sessions of its shard ((guild_id >> 22) % num_shards), events without a guild (DMs)
only shard 0."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from bot.local.emulator import Emulator, EmulatorError, Guild, point_discord_at
from bot.local.emulator.gateway import Session
from bot.local.emulator.guild import GUILD_CREATED_AT
from bot.local.emulator.ids import SnowflakeFactory

SHARDS = 2


class ShardProbe(commands.AutoShardedBot):
    """One global command answering with the shard its interaction arrived on."""

    def __init__(self, shard_ids: list[int]) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            shard_count=SHARDS,
            shard_ids=shard_ids,
            guild_ready_timeout=0.05,  # the emulator sends every guild at once
        )

        @self.tree.command()
        async def where(interaction: discord.Interaction) -> None:
            """Which shard am I on?"""
            assert interaction.guild is not None
            await interaction.response.send_message(f"shard {interaction.guild.shard_id} of {interaction.guild.name}")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before each shard after the first (Discord's identify rate limit); the emulator
        has none."""


def shard_of(guild: Guild) -> int:
    return (guild.id >> 22) % SHARDS


@pytest.fixture
async def emulator() -> AsyncIterator[Emulator]:
    """Two guilds, one on each of two shards: ids created a millisecond apart."""
    async with Emulator() as emu:
        emu.add_guild("Flipper Hall", seed=3, created_at=GUILD_CREATED_AT + timedelta(milliseconds=1))
        assert sorted(shard_of(guild) for guild in emu.guilds) == [0, 1]
        previous = point_discord_at(emu.api_url, emu.gateway_url)
        yield emu
        point_discord_at(*previous)


@asynccontextmanager
async def probe_on(emu: Emulator, shard_ids: list[int]) -> AsyncIterator[ShardProbe]:
    bot = ShardProbe(shard_ids)
    runner = asyncio.create_task(bot.start(emu.token))
    try:
        await emu.wait_until_ready(timeout=5, sessions=len(shard_ids))
        await asyncio.wait_for(bot.wait_until_ready(), timeout=5)
        yield bot
    finally:
        await bot.close()
        await runner


async def identify(emu: Emulator, shard: Any) -> tuple[aiohttp.WSMessage, list[str]]:
    """IDENTIFY over a raw websocket; the frame that ended it (a close) and the events received before."""
    events: list[str] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(emu.gateway_url) as socket:
        assert json.loads((await socket.receive()).data)["op"] == 10  # HELLO
        await socket.send_json({"op": 2, "d": {"token": emu.token, "intents": 1, "properties": {}, "shard": shard}})
        while True:
            frame = await asyncio.wait_for(socket.receive(), timeout=2)
            if frame.type is not aiohttp.WSMsgType.TEXT:
                return frame, events
            events.append(json.loads(frame.data)["t"])
            if len(events) == 1 + sum(shard_of(guild) == shard[0] for guild in emu.guilds):
                return frame, events  # READY and the shard's GUILD_CREATEs: accepted


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], ["0", 2], [1, 2, 3]])
async def test_identify_with_an_invalid_shard_is_closed_with_4010(emulator: Emulator, shard: Any) -> None:
    frame, events = await identify(emulator, shard)
    assert (frame.type, frame.data, events) == (aiohttp.WSMsgType.CLOSE, 4010, [])
    assert emulator.gateway.live_sessions == []


async def test_identify_with_a_valid_shard_gets_that_shards_guilds(emulator: Emulator) -> None:
    frame, events = await identify(emulator, [1, 2])
    assert frame.type is aiohttp.WSMsgType.TEXT and events == ["READY", "GUILD_CREATE"]


async def gateway_bot(emu: Emulator) -> Any:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{emu.api_url}/gateway/bot", headers={"Authorization": f"Bot {emu.token}"}) as response,
    ):
        return await response.json()


async def test_gateway_bot_recommends_shards_and_reports_the_session_start_limit(emulator: Emulator) -> None:
    body = await gateway_bot(emulator)
    assert body["url"] == emulator.gateway_url and body["shards"] == 1  # one shard holds up to 1,000 guilds here
    assert set(body["session_start_limit"]) == {"total", "remaining", "reset_after", "max_concurrency"}


async def test_past_2500_guilds_sharding_is_required(emulator: Emulator) -> None:
    # Bare guilds, only counted: the gateway refuses before it would send any of them.
    first = emulator.guilds[-1].id >> 22
    emulator.guilds.extend(Guild(((first + n) << 22) | 1, f"Club {n}", 0, SnowflakeFactory(1)) for n in range(1, 2_500))
    assert len(emulator.guilds) == 2_501 and (await gateway_bot(emulator))["shards"] == 3
    frame, events = await identify(emulator, None)
    assert (frame.type, frame.data, events) == (aiohttp.WSMsgType.CLOSE, 4011, [])
    assert emulator.gateway.live_sessions == []


async def test_each_guild_reaches_only_its_shard(emulator: Emulator) -> None:
    first, second = emulator.guilds
    async with probe_on(emulator, [shard_of(first)]) as bot:
        assert [guild.id for guild in bot.guilds] == [first.id]
        result = await emulator.run("/where")
        assert result.content == f"shard {shard_of(first)} of {first.name}"
        with pytest.raises(EmulatorError, match=r"no bot is connected .* Flipper Hall's shard"):
            await emulator.run("/where", guild=second)

    async with probe_on(emulator, [0, 1]) as bot:
        assert sorted(guild.id for guild in bot.guilds) == sorted(guild.id for guild in emulator.guilds)
        for guild in emulator.guilds:
            result = await emulator.run("/where", guild=guild)
            assert result.content == f"shard {shard_of(guild)} of {guild.name}"
            [session_id] = emulator.interactions[result.interaction_id].delivered_to
            assert emulator.gateway.sessions[session_id].shard == (shard_of(guild), SHARDS)


async def test_a_guild_joined_later_arrives_on_its_shard(emulator: Emulator) -> None:
    async with probe_on(emulator, [0, 1]) as bot:
        late = emulator.add_guild("Tilt Club", seed=4, created_at=GUILD_CREATED_AT + timedelta(milliseconds=3))
        for _ in range(100):
            if bot.get_guild(late.id) is not None:
                break
            await asyncio.sleep(0.01)
        joined = bot.get_guild(late.id)
        assert joined is not None and joined.shard_id == shard_of(late) == 1
        assert (await emulator.run("/where", guild=late)).content == f"shard 1 of {late.name}"


def test_events_without_a_guild_go_to_shard_0_only() -> None:
    sessions = [Session(f"s{shard}", intents=1, shard=(shard, SHARDS), connection=None) for shard in range(SHARDS)]
    unsharded = Session("plain", intents=1, shard=None, connection=None)
    assert [s.id for s in [*sessions, unsharded] if s.covers(None, None)] == ["s0", "plain"]
    guild_id = (7 << 22) | 99  # shard 1 of 2
    assert [s.id for s in [*sessions, unsharded] if s.covers(guild_id, None)] == ["s1", "plain"]
