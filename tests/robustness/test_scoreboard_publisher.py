"""The scoreboard publisher: one publish in flight per match, the newest board next, failures logged."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.scoreboard_publisher import Publish, ScoreboardPublisher


async def test_boards_submitted_while_one_is_sent_are_coalesced_to_the_newest() -> None:
    publisher = ScoreboardPublisher()
    sent: list[str] = []
    release = asyncio.Event()

    def board(name: str, *, slow: bool = False) -> Publish:
        async def publish() -> None:
            if slow:
                await release.wait()
            sent.append(name)

        return publish

    publisher.submit(1, board("first", slow=True))
    await asyncio.sleep(0)  # the first is in flight
    for name in ("second", "third", "newest"):
        publisher.submit(1, board(name))
    publisher.submit(2, board("other match"))
    release.set()
    await publisher.flush()
    assert sent == ["other match", "first", "newest"]


async def test_a_failed_publish_is_logged_and_the_next_board_still_goes(caplog: pytest.LogCaptureFixture) -> None:
    publisher = ScoreboardPublisher()
    sent: list[str] = []

    async def broken() -> None:
        raise RuntimeError("Missing Permissions")

    async def fine() -> None:
        sent.append("fine")

    with caplog.at_level(logging.WARNING):
        publisher.submit(7, broken)
        await publisher.flush()
        publisher.submit(7, fine)
        await publisher.flush()
    assert sent == ["fine"]
    assert "could not publish the scoreboard of match 7" in caplog.text


async def test_close_cancels_what_cannot_be_sent_in_time() -> None:
    publisher = ScoreboardPublisher()
    cancelled = asyncio.Event()

    async def stuck() -> None:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    publisher.submit(3, stuck)
    await asyncio.sleep(0)
    await publisher.close(within=0.05)
    assert cancelled.is_set()
