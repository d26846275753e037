"""The bot tells the emulator in its process when it is done with an interaction (bot/interactions.py
`report_done`): once the handler and the work it handed to background tasks have ended, and not before."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.interactions import hold_interaction, report_done
from bot.scoreboard_publisher import Publish
from tests.robustness.conftest import MatchNight


async def test_done_waits_for_the_handler_and_for_what_it_handed_on() -> None:
    done: list[int] = []
    handler_may_end, background_may_end = asyncio.Event(), asyncio.Event()
    background: set[asyncio.Task[None]] = set()

    async def handler() -> None:
        release = hold_interaction()

        async def later() -> None:
            await background_may_end.wait()
            release()

        background.add(asyncio.create_task(later()))
        await handler_may_end.wait()

    def parse(data: Any) -> None:  # as discord.py's parser does: start the handler, do not await it
        background.add(asyncio.create_task(handler()))

    report_done(parse, done.append)({"id": "7"})
    await asyncio.sleep(0.01)
    assert done == []
    handler_may_end.set()
    await asyncio.sleep(0.01)
    assert done == []  # the handler has ended, what it handed on has not
    background_may_end.set()
    await asyncio.sleep(0.01)
    assert done == [7]


async def test_an_interaction_nothing_handles_is_done_at_once_and_holds_elsewhere_do_nothing() -> None:
    done: list[int] = []
    report_done(lambda data: None, done.append)({"id": "8"})
    assert done == [8]
    hold_interaction()()  # outside any interaction


async def test_a_result_includes_the_scoreboard_its_command_caused(match_night: MatchNight) -> None:
    """Published after the reply and slower than any quiet window would wait, the board is still in the result."""
    emulator, bot, match = match_night.emulator, match_night.bot.bot, match_night.league.tonight[0]
    submit = bot.scoreboards.submit

    def slowly(match_id: int, publish: Publish) -> None:
        async def slow() -> None:
            await asyncio.sleep(0.3)
            await publish()

        submit(match_id, slow)

    bot.scoreboards.submit = slowly  # type: ignore[method-assign]
    line = f"/score match:{match.match_id} round:3 game:1 home1:1,000,000 away1:2,000,000"
    result = await emulator.run(line, as_member=match.home_captain)
    kinds = [output.kind for output in result.outputs]
    assert kinds[0] == "response" and {"message", "message_edit"} & set(kinds[1:]), kinds
