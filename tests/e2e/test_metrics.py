"""PINLEAGUE_METRICS_PORT: the bot against the emulator serves Prometheus metrics that move with what it does, and
/healthz says whether it can answer (its gateway connected, its database answering)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import interactions
from storage.db import Database
from tests.conftest import fresh_sqlite
from tests.e2e.harness import CREATE_TEAM_LEAGUE, RunningBot, running_bot

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
async def database(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Database]:
    """In a folder of its own, which a test can move away to make the database unreachable."""
    (tmp_path / "db").mkdir()
    db = fresh_sqlite(migrated_sqlite, tmp_path / "db" / "league.db")
    try:
        yield db
    finally:
        await db.dispose()


@pytest.fixture
async def league(database: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(database, metrics_port=0) as running:
        yield running


def base_url(league: RunningBot) -> str:
    server = league.bot.metrics_server
    assert server is not None and server.port, "PINLEAGUE_METRICS_PORT=0 binds a free port"
    return f"http://127.0.0.1:{server.port}"


async def get(league: RunningBot, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(base_url(league) + path) as response:
        return response.status, await response.text()


async def scrape(league: RunningBot) -> Samples:
    status, text = await get(league, "/metrics")
    assert status == 200
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_counters_move_with_commands_posts_and_the_scheduler(
    league: RunningBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await scrape(league)
    await league.run(CREATE_TEAM_LEAGUE, as_member="owner")
    refused = await league.run("/team create name:Owls", as_member="carol")
    assert refused.content.startswith("⛔")

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database on fire")

    with monkeypatch.context() as patched:
        patched.setattr(league.bot.services.venues, "add_venue", broken)
        failed = await league.run('/venue add name:"Ace Arcade"', as_member="alice")
    assert "Error id" in failed.content
    with monkeypatch.context() as patched:
        patched.setattr(interactions, "DEFER_AFTER", 0.0)
        shown = await league.run("/league show", as_member="carol")
    assert shown.deferred

    await league.run("/player register member:@bob", as_member="alice")
    await league.run("/posts channels commissioners:#commissioners", as_member="alice")
    await league.run('/admin warn member:@bob reason:"Slammed the machine"', as_member="alice")
    await until(lambda: any("Slammed the machine" in m.text() for m in league.emulator.messages_in("commissioners")))
    league.bot.posts.scheduler.modify_job("posts:catch-up", next_run_time=datetime.now(UTC))
    after = await until_scraped(league, lambda samples: value(samples, "pinleague_scheduler_lag_seconds_count") > 0)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("pinleague_interactions_total", command="/league create", outcome="ok") == 1
    assert moved("pinleague_interactions_total", command="/team create", outcome="refused") == 1
    assert moved("pinleague_interactions_total", command="/venue add", outcome="error") == 1
    assert moved("pinleague_interactions_total", command="/league show", outcome="ok") == 1
    assert moved("pinleague_deferrals_total", command="/league show") == 1
    assert moved("pinleague_reply_latency_seconds_count", deferred="true") == 1
    assert moved("pinleague_reply_latency_seconds_count", deferred="false") >= 4
    assert moved("pinleague_posts_total", result="sent") >= 1
    assert moved("pinleague_scheduler_lag_seconds_count") >= 1
    assert value(after, "pinleague_db_pool_size") >= 1


async def test_a_post_that_cannot_be_sent_counts_as_failed(league: RunningBot) -> None:
    await league.run(CREATE_TEAM_LEAGUE, as_member="owner")
    await league.run("/player register member:@bob", as_member="alice")
    await league.run("/posts channels commissioners:#commissioners", as_member="alice")
    guild = league.emulator.guild
    guild.channels.remove(guild.channel("commissioners"))  # deleted in Discord after it was named
    before = await scrape(league)
    await league.run('/admin warn member:@bob reason:"Slammed the machine"', as_member="alice")
    after = await until_scraped(league, lambda samples: value(samples, "pinleague_posts_total", result="failed") > 0)
    assert (
        value(after, "pinleague_posts_total", result="failed") - value(before, "pinleague_posts_total", result="failed")
        >= 1
    )
    assert value(after, "pinleague_posts_total", result="sent") == value(before, "pinleague_posts_total", result="sent")


async def test_healthz_is_ready_only_while_the_database_answers(league: RunningBot, tmp_path: Path) -> None:
    assert await get(league, "/healthz") == (200, "ready")
    await league.db.dispose()  # its pooled connections go: the next check opens the file again
    (tmp_path / "db").rename(tmp_path / "moved")
    try:
        status, text = await get(league, "/healthz")
    finally:
        (tmp_path / "moved").rename(tmp_path / "db")
    assert status == 503 and text.startswith("not ready: database:"), text
    assert await get(league, "/healthz") == (200, "ready")


async def test_healthz_is_not_ready_once_discord_is_gone(league: RunningBot) -> None:
    await league.emulator.stop()  # Discord unreachable: the gateway drops and no reconnection succeeds
    for _ in range(100):
        status, text = await get(league, "/healthz")
        if status == 503:
            break
        await asyncio.sleep(0.05)
    assert (status, text) == (503, "not ready: not connected to Discord's gateway")


async def until(condition: object, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("not within the time")


async def until_scraped(league: RunningBot, condition: object, seconds: float = 5.0) -> Samples:
    for _ in range(int(seconds / 0.05)):
        samples = await scrape(league)
        if callable(condition) and condition(samples):
            return samples
        await asyncio.sleep(0.05)
    raise AssertionError("the metrics did not move in time")
