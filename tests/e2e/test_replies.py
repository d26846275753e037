"""How the bot answers: inside Discord's deadline when work is slow, and without tracebacks when it breaks."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.interactions import BUSY, DEFER_AFTER
from storage.db import Database
from storage.models import Venue
from tests.e2e.harness import CREATE_TEAM_LEAGUE, running_bot


@pytest.fixture
def sqlite(sqlite_db: Database) -> Database:
    return sqlite_db


async def test_slow_work_is_deferred_then_answered(sqlite: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    async with running_bot(sqlite) as league:
        await league.run(CREATE_TEAM_LEAGUE, as_member="owner")
        real_add_venue = league.bot.services.venues.add_venue

        async def slow_add_venue(*args: object, **kwargs: object) -> Venue:
            await asyncio.sleep(DEFER_AFTER + 1.0)  # past the point where a direct answer would risk 3 s
            return await real_add_venue(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(league.bot.services.venues, "add_venue", slow_add_venue)
        result = await league.emulator.run('/venue add name:"Ace Arcade"', as_member="alice", timeout=10)
        assert result.deferred
        assert result.ack_latency is not None and result.ack_latency < 3.0
        assert "Venue **Ace Arcade** added" in result.content and result.ephemeral


async def test_in_a_burst_an_answer_is_acknowledged_before_its_work_runs(
    sqlite: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With BUSY answers in progress, the next one defers at once: its acknowledgement is sent before its work
    starts, since work on SQLite may hold the event loop until it ends."""
    async with running_bot(sqlite) as league:
        await league.run(CREATE_TEAM_LEAGUE, as_member="owner")
        real_add_venue = league.bot.services.venues.add_venue
        held, all_held, in_progress = asyncio.Event(), asyncio.Event(), 0
        acknowledged_when_work_began: list[bool] = []

        async def add_venue(*args: object, **kwargs: object) -> Venue:
            nonlocal in_progress
            in_progress += 1
            if in_progress <= BUSY:
                if in_progress == BUSY:
                    all_held.set()
                await held.wait()
            else:
                newest = list(league.emulator.interactions.values())[-1]
                acknowledged_when_work_began.append(newest.acked_at is not None)
            return await real_add_venue(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(league.bot.services.venues, "add_venue", add_venue)
        emulator = league.emulator
        busy = [
            asyncio.create_task(emulator.run(f'/venue add name:"Arcade {n}"', as_member="alice", timeout=10))
            for n in range(BUSY)
        ]
        await asyncio.wait_for(all_held.wait(), 10)
        result = await emulator.run('/venue add name:"One Too Many"', as_member="alice", timeout=10)
        held.set()
        await asyncio.gather(*busy)
        assert acknowledged_when_work_began == [True]
        assert result.deferred


async def test_slow_refusal_after_a_public_defer_stays_private(
    sqlite: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(sqlite) as league:
        await league.run(CREATE_TEAM_LEAGUE, as_member="owner")
        real_create = league.bot.services.leagues.create

        async def slow_create(*args: object, **kwargs: object) -> object:
            await asyncio.sleep(DEFER_AFTER + 0.5)
            return await real_create(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(league.bot.services.leagues, "create", slow_create)
        result = await league.emulator.run(
            '/league create name:"Tuesday Night" format:team', as_member="owner", timeout=10
        )
        assert result.deferred
        assert "already has a league" in result.content
        assert result.ephemeral  # the public "thinking…" placeholder was removed, the refusal sent privately


async def test_unexpected_error_shows_an_id_not_a_traceback(
    sqlite: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with running_bot(sqlite) as league:
        await league.run(CREATE_TEAM_LEAGUE, as_member="owner")

        async def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("database on fire")

        monkeypatch.setattr(league.bot.services.teams, "create", broken)
        with caplog.at_level(logging.ERROR):
            result = await league.run("/team create name:Owls", as_member="alice")
        assert result.ephemeral
        assert "Error id `" in result.content
        assert "database on fire" not in result.content and "Traceback" not in result.content
        error_id = result.content.split("Error id `")[1].split("`")[0]
        assert any(error_id in record.getMessage() and record.exc_info for record in caplog.records)


async def test_restart_keeps_data_and_skips_an_unchanged_sync(sqlite: Database) -> None:
    async with running_bot(sqlite) as league:
        emulator = league.emulator
        await league.run(CREATE_TEAM_LEAGUE, as_member="owner")
        syncs_before = emulator.command_syncs
        async with running_bot(sqlite, emulator, sync=False) as restarted:
            assert emulator.command_syncs == syncs_before  # hash unchanged: no PUT
            shown = await restarted.run("/league show", as_member="carol")
            assert "Tuesday Night" in shown.text()
