"""Each kind of reply keeps the visibility it wants whether the bot answers at once or defers first: Discord keeps
a deferral's visibility, so the deferral must already have the reply's, and the "thinking…" placeholder is then
edited into the reply (PATCH @original) rather than answered with a followup."""

from __future__ import annotations

import re
from collections.abc import Awaitable
from datetime import date, timedelta

import discord
import pytest

from bot import interactions
from bot.local.emulator import InteractionResult
from cogs import _shared
from tests.e2e.harness import RunningBot
from tests.e2e.test_scheduled_posts import ny, set_up_posting, tick_at

PATHS = ["direct", "deferred"]


def take_path(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deferred path: the bot defers every answer before its work can finish (DEFER_AFTER is the time it
    waits for the work first, counted from the interaction's creation)."""
    if path == "deferred":
        monkeypatch.setattr(interactions, "DEFER_AFTER", 0.0)


def check_path(result: InteractionResult, path: str) -> None:
    assert result.deferred == (path == "deferred")
    assert result.answer is not None
    assert result.answer.kind == ("edit" if path == "deferred" else "response"), result.answer.kind


def public_ids(league: RunningBot, channel: str = "general") -> set[int | None]:
    return {message.message_id for message in league.emulator.messages_in(channel)}


def assert_public(league: RunningBot, result: InteractionResult, channel: str = "general") -> None:
    assert not result.ephemeral, result.text()
    assert result.message_id in public_ids(league, channel)


def assert_private(league: RunningBot, result: InteractionResult, channel: str = "general") -> None:
    assert result.ephemeral, result.text()
    assert result.message_id not in public_ids(league, channel)


@pytest.mark.parametrize("path", PATHS)
async def test_commands_reply_with_their_own_visibility(
    season_league: RunningBot, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Public tables, private views, private files and refusals (TEAM-STAND-1, COMMON-ROLE-1)."""
    league = season_league
    take_path(path, monkeypatch)

    table = await league.run("/standings", as_member="carol")
    check_path(table, path)
    assert_public(league, table)
    assert "Standings" in table.text() or "standings" in table.text(), table.text()

    exported = await league.run("/standings export:true", as_member="carol")
    check_path(exported, path)
    assert_private(league, exported)
    assert exported.answer is not None and exported.answer.attachments, "the export attaches its CSV files"
    assert not any(message.attachments for message in league.emulator.messages_in("general"))

    shown = await league.run('/roster show team:"Spinners"', as_member="carol")
    check_path(shown, path)
    assert_private(league, shown)

    before = await league.row_counts()
    refusal = await league.run('/venue add name:"Pinball Pete\'s"', as_member="carol")
    assert refusal.deferred == (path == "deferred")
    assert_private(league, refusal)
    assert refusal.content.startswith("⛔") and await league.row_counts() == before


@pytest.mark.parametrize("path", PATHS)
async def test_buttons_reply_with_their_own_visibility(
    season_league: RunningBot, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A roll-call answer is private to the player; a captain's acceptance of an agreement is for everyone
    (TEAM-SHORT-1, TEAM-DISP-2)."""
    league = season_league
    await set_up_posting(league)
    monday = date(2027, 3, 8)
    assert await tick_at(league, ny(monday - timedelta(days=1), 12)) == 1
    [roll_call] = league.emulator.messages_in("announcements")
    match_id = int(re.search(r"rollcall:(\d+):in", str(roll_call.components)).group(1))  # type: ignore[union-attr]
    proposed = await league.run(f'/match agreement match:{match_id} terms:"A stuck ball is replayed"', as_member="sp1")
    agreement = re.search(r"match:agree:(\d+)", str(proposed.answer.components if proposed.answer else ""))
    assert agreement, proposed.text()
    take_path(path, monkeypatch)

    answered = await league.emulator.click(roll_call, f"rollcall:{match_id}:in", as_member="sp2")
    check_path(answered, path)
    assert "Noted: you are in" in answered.content
    assert_private(league, answered, "announcements")

    accepted = await league.emulator.click(proposed, agreement[0], as_member="ro1")
    check_path(accepted, path)
    assert "Agreed by both captains" in accepted.text(), accepted.text()
    assert_public(league, accepted)


@pytest.mark.parametrize("path", PATHS)
async def test_a_reply_declared_with_the_wrong_visibility_still_gets_its_own(
    season_league: RunningBot, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command that defers with the opposite of its reply's visibility: the placeholder is removed and the reply
    sent with its own, so a private reply is never shown publicly and a public one is not hidden."""
    league = season_league
    real_answer = interactions.answer

    async def declared_the_other_way(
        interaction: discord.Interaction, work: Awaitable[interactions.Reply], *, ephemeral: bool
    ) -> None:
        await real_answer(interaction, work, ephemeral=not ephemeral)

    monkeypatch.setattr(_shared, "answer", declared_the_other_way)
    take_path(path, monkeypatch)

    private = await league.run('/roster show team:"Spinners"', as_member="carol")
    assert private.deferred == (path == "deferred")
    assert_private(league, private)

    shown_before = len(league.emulator.messages_in("general"))
    public = await league.run("/schedule generate weeks:2 start:2027-03-08", as_member="alice")
    assert public.deferred == (path == "deferred")
    assert_public(league, public)
    assert len(league.emulator.messages_in("general")) == shown_before + 1, "no placeholder left behind"
