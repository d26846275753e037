"""The bot checks its own permissions in the league's channels, computed by discord.py from the roles and channel
overwrites the emulator sends: `/posts channels` lists what is missing per channel, and at start the commissioners
are told once (COMMON-NOTIFY-1), not again on a reconnect or a restart."""

from __future__ import annotations

import asyncio
import logging

import discord
import pytest

from bot.local.emulator import Emulator, Output
from bot.local.emulator.guild import Permission
from storage.db import Database
from tests.e2e.harness import RunningBot, running_bot

CHANNELS = "/posts channels announcements:#announcements scores:#scores commissioners:#commissioners"


async def create_league(league: RunningBot) -> None:
    line = '/league create name:"NYC" format:team commissioner_role:@Commissioner'
    created = await league.run(line, as_member="owner")
    assert "NYC" in created.text(), created.text()


def told(emulator: Emulator) -> list[Output]:
    return [m for m in emulator.messages_in("commissioners") if "missing permissions" in m.text()]


async def started_up(league: RunningBot) -> None:
    """Until the bot's start-up work (the permission check, then the first catch-up) is done."""
    task = league.bot._first_catch_up
    assert task is not None
    await asyncio.wait_for(asyncio.shield(task), timeout=5)


async def test_a_read_only_channel_named_gets_the_missing_permission_in_the_reply(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as league:
        emulator = league.emulator
        await create_league(league)
        emulator.set_channel_permissions("scores", emulator.role("@everyone"), deny=Permission.SEND_MESSAGES)
        before = await league.row_counts()

        reply = await league.run(CHANNELS, as_member="alice")

        scores = emulator.channel("scores")
        assert reply.ephemeral, reply.text()
        assert (
            f"<#{scores.id}>: the bot cannot Send Messages — give it that permission there, or its posts won't go out"
            in reply.text()
        ), reply.text()
        assert "announcements" not in reply.text().split("⚠️")[1].split("Fix them")[0], reply.text()
        assert "`/posts channels` again" in reply.text()
        assert (await league.row_counts())["league_posting"] == before["league_posting"] + 1  # saved all the same

        # The bot's own role allowed back in the channel outranks the @everyone deny, as on Discord.
        emulator.set_channel_permissions("scores", emulator.role("PinLeague"), allow=Permission.SEND_MESSAGES)
        again = await league.run(CHANNELS, as_member="alice")
        assert "The bot may post in every channel named" in again.text(), again.text()


async def test_a_hidden_channel_names_view_channel_only(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as league:
        emulator = league.emulator
        await create_league(league)
        bot_member = emulator.guild.bot_member
        emulator.set_channel_permissions("announcements", bot_member, deny=Permission.VIEW_CHANNEL)

        reply = await league.run(CHANNELS, as_member="alice")

        announcements = emulator.channel("announcements")
        assert f"<#{announcements.id}>: the bot cannot View Channel — give it that permission there" in reply.text()
        assert "Attach Files" not in reply.text(), reply.text()


async def test_common_notify_1_at_start_a_channel_without_attach_files_is_told_once(sqlite_db: Database) -> None:
    async with Emulator(guild_name="Pinball Club") as emulator:
        async with running_bot(sqlite_db, emulator) as league:
            await create_league(league)
            reply = await league.run(CHANNELS, as_member="alice")
            assert "The bot may post in every channel named" in reply.text(), reply.text()
        emulator.set_channel_permissions("announcements", emulator.role("@everyone"), deny=Permission.ATTACH_FILES)

        async with running_bot(sqlite_db, emulator, sync=False) as league:
            await started_up(league)
            [notice] = told(emulator)
            announcements = emulator.channel("announcements")
            assert (
                f"<#{announcements.id}>: the bot cannot Attach Files — give it that permission there, or standings "
                "and bracket images won't post" in notice.text()
            ), notice.text()
            assert "the channels of **NYC**" in notice.text() and "Send Messages" not in notice.text()

            resumed = asyncio.Event()

            async def on_resumed() -> None:
                resumed.set()

            league.bot.add_listener(on_resumed)
            emulator.request_reconnect()
            await asyncio.wait_for(resumed.wait(), timeout=5)
            assert await league.bot.posts.catch_up() == 0

        async with running_bot(sqlite_db, emulator, sync=False) as league:
            await started_up(league)
            assert isinstance(league.bot.get_channel(announcements.id), discord.TextChannel)
        assert len(told(emulator)) == 1


async def test_a_channel_deleted_while_the_bot_was_down_is_told_at_start(sqlite_db: Database) -> None:
    async with Emulator(guild_name="Pinball Club") as emulator:
        async with running_bot(sqlite_db, emulator) as league:
            await create_league(league)
            await league.run(CHANNELS, as_member="alice")
        scores = emulator.channel("scores")
        emulator.guild.channels.remove(scores)  # deleted in Discord: the next GUILD_CREATE lacks it

        async with running_bot(sqlite_db, emulator, sync=False) as league:
            await started_up(league)
        [notice] = told(emulator)
        assert f"<#{scores.id}>: the bot cannot find this channel (deleted?) — name another one" in notice.text()


async def test_the_start_up_log_gives_the_invite_link_with_what_the_channels_need(
    sqlite_db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.client")
    async with running_bot(sqlite_db) as league:
        await started_up(league)
        application_id = league.bot.application_id
    [line] = [r.getMessage() for r in caplog.records if "oauth2/authorize" in r.getMessage()]
    assert f"client_id={application_id}&scope=bot+applications.commands" in line
    granted = discord.Permissions(int(line.split("permissions=")[1].split()[0]))
    assert granted == discord.Permissions(
        view_channel=True, send_messages=True, embed_links=True, attach_files=True, read_message_history=True
    )
    assert "(View Channel, Send Messages, Embed Links, Attach Files, Read Message History)" in line
