"""Shards over processes (issue 17 item 6): two real bot processes on one PostgreSQL database, one with shard 0
and one with shard 1 of two (PINLEAGUE_SHARD_COUNT=2, PINLEAGUE_SHARD_IDS=0 and =1), a league in a guild on each
shard. Discord gives each guild's interactions to its shard's connection only, so each command is answered by one
process, the right one; each process sends the scheduled posts of its own shard's guilds (the claim's
`claimed_by` names the process), each once, including those that fell due before the processes started."""

from __future__ import annotations

import asyncio
import socket
from datetime import date, datetime, time, timedelta

import aiohttp
import pytest
from sqlmodel import col, select

from bench.bot_process import BotProcess
from bench.team import NEW_YORK, TeamLeague, TeamLeagueSize, actor, seed_team_league
from bot.clock import ManualClock
from bot.local.emulator import Emulator, Guild
from bot.local.emulator.guild import GUILD_CREATED_AT
from bot.local.emulator.records import REPLY_KINDS
from bot.rules.posts import Channel
from bot.services import Services
from storage.db import Database
from storage.posts import PostClaim

SHARDS = 2
TINY = TeamLeagueSize(teams=4, players=6, weeks_played=0, past_seasons=0, venues=2)  # two matches tonight
CHANNELS = ("announcements", "scores", "commissioners")
KINDS = {"roster_cutoff", "match_night", "roll_call", "short_warning"}  # due at 17:05 on match day, per league
SETTLE = 1.0  # seconds without a new message or claim once a guild's posts are out
DEADLINE = 20.0  # seconds for a process to start and post


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for each in sockets:
        each.bind(("127.0.0.1", 0))
    ports = [each.getsockname()[1] for each in sockets]
    for each in sockets:
        each.close()
    return ports


async def ready(port: int) -> tuple[int, str]:
    """GET /healthz until it answers 200 (the bot is ready a moment after its session is), or its last answer."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 5
    async with aiohttp.ClientSession() as http:
        while True:
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                answer = response.status, await response.text()
            if answer[0] == 200 or loop.time() > deadline:
                return answer
            await asyncio.sleep(0.05)


def shard_of(guild: Guild) -> int:
    return (guild.id >> 22) % SHARDS


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=NEW_YORK)


async def league_in(db: Database, emulator: Emulator, guild: Guild) -> TeamLeague:
    """A four-team league with two matches tonight; its posts due by 17:05 tonight (roll call from 18:00 the day
    before, as in test_two_process_posts)."""
    league = await seed_team_league(db, emulator, TINY, guild=guild)
    setup = Services.build(db, ManualClock(at(league.match_day, 9)), default_timezone="America/New_York")
    owner = actor(emulator, guild.owner.name, admin=True, guild=guild)
    channels = {Channel(name): guild.channel(name).id for name in CHANNELS}
    await setup.posts.set_channels(owner, None, channels, grace_minutes=24 * 60)
    await setup.posts.set_timing(owner, None, "roll_call", enabled=None, at="18:00", days=None, hours=None)
    return league


async def claims_of(db: Database, league: TeamLeague) -> list[PostClaim]:
    async with db.reading() as session:
        query = select(PostClaim).where(PostClaim.league_id == league.league_id).order_by(col(PostClaim.id))
        return list((await session.exec(query)).all())


def messages(emulator: Emulator, guild: Guild) -> list[int | None]:
    return [m.message_id for channel in CHANNELS for m in emulator.messages_in(channel, guild=guild)]


async def posted_and_settled(db: Database, emulator: Emulator, league: TeamLeague, guild: Guild) -> None:
    """Until the league's claims are all sent, one message each, and nothing more comes for SETTLE seconds."""
    loop = asyncio.get_running_loop()
    deadline, last, quiet_since = loop.time() + DEADLINE, None, loop.time()
    while loop.time() < deadline:
        rows = await claims_of(db, league)
        seen = (len(messages(emulator, guild)), len(rows), sum(row.message_id is not None for row in rows))
        if seen != last:
            last, quiet_since = seen, loop.time()
        elif seen[0] == seen[1] == seen[2] >= len(KINDS) and loop.time() - quiet_since >= SETTLE:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{guild.name}: posts not out after {DEADLINE}s: {last} (messages, claims, sent)")


async def assert_posted_once(db: Database, emulator: Emulator, league: TeamLeague, guild: Guild) -> None:
    rows = await claims_of(db, league)
    assert {row.kind for row in rows} == KINDS
    assert len({(row.kind, row.period) for row in rows}) == len(rows)
    sent = messages(emulator, guild)
    assert sorted(sent, key=str) == sorted((row.message_id for row in rows), key=str), "a post sent twice or lost"


async def answered_by_its_shard(emulator: Emulator, guild: Guild) -> None:
    """A command in `guild` reaches one gateway session, its shard's, and gets one reply."""
    result = await emulator.run("/league show", as_member="carol", guild=guild)
    record = emulator.interactions[result.interaction_id]
    assert [emulator.gateway.sessions[s].shard for s in record.delivered_to] == [(shard_of(guild), SHARDS)]
    replies = [o for o in record.outputs if o.kind in REPLY_KINDS]
    assert len(replies) == 1 and "Bench League" in replies[0].text(), [o.text() for o in replies]
    assert record.rejections == []


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
async def test_two_processes_with_a_shard_each_answer_and_post_for_their_own_guilds(db: Database) -> None:
    async with Emulator() as emulator:
        flippers = emulator.add_guild("Flipper Hall", seed=3, created_at=GUILD_CREATED_AT + timedelta(milliseconds=1))
        on_shard = {shard_of(guild): guild for guild in emulator.guilds}
        assert sorted(on_shard) == [0, 1] and on_shard[1] is flippers
        seeded = await asyncio.gather(*(league_in(db, emulator, on_shard[shard]) for shard in range(SHARDS)))
        leagues = dict(enumerate(seeded))
        # Both start after the posts fell due, as after a restart: each process's start-up catch-up sends them.
        now = at(leagues[0].match_day, 17, 5)
        emulator.quiet_window = 0.2  # long enough to see a second process's reply, if there were one
        url = db.url.render_as_string(hide_password=False)
        ports = free_ports(SHARDS)  # /healthz of each process
        processes = [
            BotProcess(emulator, url, now, shards=(SHARDS, (shard,)), metrics_port=ports[shard])
            for shard in range(SHARDS)
        ]
        try:
            await asyncio.gather(*(process.start(timeout=DEADLINE) for process in processes))
            await emulator.wait_until_ready(DEADLINE, sessions=SHARDS)  # each start waited for the first session
            assert sorted(session.shard for session in emulator.gateway.live_sessions) == [(0, SHARDS), (1, SHARDS)]
            assert [await ready(port) for port in ports] == [(200, "ready")] * SHARDS  # every shard connected
            await asyncio.gather(*(posted_and_settled(db, emulator, leagues[n], on_shard[n]) for n in range(SHARDS)))
            for shard, guild in on_shard.items():
                await assert_posted_once(db, emulator, leagues[shard], guild)
                senders = {row.claimed_by.rsplit(":", 1)[1] for row in await claims_of(db, leagues[shard])}
                assert senders == {str(processes[shard].pid)}, f"{guild.name}'s posts were not all sent by its shard"
                await answered_by_its_shard(emulator, guild)
        finally:
            await asyncio.gather(*(process.stop() for process in processes))
