"""What the bot asks the gateway for: guild events only. Every message it posts or edits (a living board changes
with each score) would otherwise come back as an event the bot parses and drops: no feature reads messages."""

from __future__ import annotations

import json

from storage.db import Database
from tests.e2e.harness import CREATE_TEAM_LEAGUE, running_bot


async def test_the_bots_public_replies_do_not_come_back_to_it_as_message_events(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as league:
        created = await league.run(CREATE_TEAM_LEAGUE, as_member="owner")
        assert not created.ephemeral  # a message everyone sees: Discord announces it to sessions asking for it
        sessions = list(league.emulator.gateway.sessions.values())
        assert sessions
        for session in sessions:
            events = [json.loads(frame)["t"] for _, frame in session.history]
            assert "GUILD_CREATE" in events
            assert not [event for event in events if event.startswith("MESSAGE_")], events
