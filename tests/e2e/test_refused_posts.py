"""A post Discord refuses (403 Missing Permissions in a read-only channel) is never dropped silently: the
commissioners are told once which post and channel, and how to fix it (COMMON-NOTIFY-1)."""

from __future__ import annotations

from sqlmodel import select

from bot.local.emulator.guild import Permission
from bot.render.posts import Outgoing
from bot.rules.posts import Channel
from storage.matches import Match
from tests.e2e.harness import RunningBot


async def test_a_post_refused_with_403_is_told_to_the_commissioners_once(season_league: RunningBot) -> None:
    league = season_league
    emulator = league.emulator
    await league.run(
        "/posts channels announcements:#announcements scores:#scores commissioners:#commissioners", as_member="alice"
    )
    emulator.set_channel_permissions("announcements", emulator.role("@everyone"), deny=Permission.SEND_MESSAGES)
    async with league.db.reading() as session:
        league_id = (await session.exec(select(Match.league_id))).first() or 1
    posts = league.bot.posts
    notice = Outgoing("📅 Rollovers at Spinners moved to Wed 10 Mar.")

    for _attempt in range(2):  # refused both times, told once
        assert not await posts.claim_and_send(league_id, "match_moved", "match-1", Channel.ANNOUNCEMENTS, notice)
    assert emulator.messages_in("announcements") == []
    [told] = [m.text() for m in emulator.messages_in("commissioners")]
    announcements = emulator.channel("announcements")
    assert f"Discord refused the match_moved match-1 post in <#{announcements.id}>" in told, told
    assert "Send Messages" in told

    emulator.set_channel_permissions("announcements", emulator.role("@everyone"))  # the fix
    assert await posts.claim_and_send(league_id, "match_moved", "match-1", Channel.ANNOUNCEMENTS, notice)
    assert [m.content for m in emulator.messages_in("announcements")] == [notice.content]
