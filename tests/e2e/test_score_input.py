"""Scores as people write them, in a ladder and a field league night through Discord (COMMON-SCORE-1,
COMMON-AMB-3): thousands grouped by periods or spaces are read exactly, every refusal names the field and what
was typed and stores nothing, and the league's shorthand and ceiling options are set with `/league config`.
The team format's `/score` is checked in tests/e2e/team/test_match_night.py."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.clock import ManualClock
from storage.db import Database
from tests.e2e.format_nights import OpenNight, ok, open_field_night, open_ladder_night
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import refused

NEW_YORK = ZoneInfo("America/New_York")
EVENING = datetime(2027, 3, 3, 19, 50, tzinfo=NEW_YORK)  # a Wednesday, after check-in


@pytest.fixture
async def running(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as bot:
        clock = bot.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(EVENING)
        bot.emulator.quiet_window = 0.001
        yield bot


async def test_ladder_scores_as_people_write_them(running: RunningBot) -> None:
    """COMMON-SCORE-1, LADDER-SCORE-1: `/ladder score` reads "45 210 330" as one score and several grouped scores
    as this game and the next; a bad one is refused naming its game and player, and none of the line is stored;
    the commissioner's ceiling (`/league config score_ceiling`) refuses a score above it."""
    night = await open_ladder_night(running, "Jersey Ladder", "ld")
    league, player = f'league:"{night.league}"', night.other_group

    spaced = await ok(running, f'/ladder score game:1 score:"45 210 330" {league}', player)
    assert "**45,210,330**" in spaced and "game 1" in spaced, spaced
    await refused(
        running, f'/ladder score game:2 score:"30.000.000 45.2.1" {league}', as_member=player,
        rule="COMMON-SCORE-1", message=f"Game 3 ({player.title()}): '45.2.1' is not a score",
    )  # fmt: skip
    await refused(
        running, f"/ladder score game:2 score:45.2M {league}", as_member=player,
        rule="COMMON-AMB-3", message=f"Game 2 ({player.title()}): '45.2M' is shorthand, which this league does not",
    )  # fmt: skip

    await refused(
        running, f"/league config score_ceiling:50,000,000 {league}", as_member=player,
        rule="COMMON-ROLE-1", message="",
    )  # fmt: skip
    await refused(
        running, f"/league config score_ceiling:0 {league}", as_member="alice", rule=None,
        message="score_ceiling cannot be '0': Input should be greater than or equal to 1",
    )  # fmt: skip
    ceiling = await ok(running, f"/league config score_ceiling:50M {league}")
    assert "the highest score accepted is 50,000,000" in ceiling, ceiling
    await refused(
        running, f"/ladder score game:2 score:50.000.001 {league}", as_member=player,
        rule="COMMON-SCORE-1", message="'50.000.001' is above this league's highest score, 50,000,000",
    )  # fmt: skip
    several = await ok(running, f'/ladder score game:2 score:"30.000.000 20,000,000" {league}', player)
    assert "game 2" in several and "**30,000,000**" in several, several
    assert "game 3" in several and "**20,000,000**" in several, several


async def test_field_scores_as_people_write_them(running: RunningBot) -> None:
    """COMMON-SCORE-1, COMMON-AMB-3, FIELD-SCORE-1: `/field game` refuses a group's line whose one score is
    shorthand, naming the player, and stores none of it; once the commissioner allows shorthand
    (`/league config allow_shorthand:true`), 45.2M is read exactly and echoed in full."""
    night: OpenNight = await open_field_night(running, "Lafayette", "fd")
    league, machine = f'league:"{night.league}"', night.machine_ids[1]
    game = f"/field game machine:{machine} p1:@{night.concerned} s1:1.234.560 p2:@{night.groupmate} s2:45.2M {league}"

    await refused(
        running, game, as_member=night.concerned, rule="COMMON-AMB-3",
        message=f"{night.groupmate.title()}'s score on Black Knight: '45.2M' is shorthand",
    )  # fmt: skip
    await refused(
        running, f"/field score machine:{machine} score:-5 {league}", as_member=night.concerned,
        rule="COMMON-SCORE-1", message="'-5' is negative; a score is 0 or more",
    )  # fmt: skip

    allowed = await ok(running, f"/league config allow_shorthand:true {league}")
    assert "shorthand like 45.2M" in allowed and "45,200,000" in allowed, allowed
    entered = await ok(running, game, night.concerned)
    assert "1,234,560" in entered and "45,200,000" in entered, entered
    await refused(
        running, f"/field score machine:{night.machine_ids[2]} score:1.2345k {league}", as_member=night.concerned,
        rule="COMMON-AMB-3", message="'1.2345k' is a fraction of a point",
    )  # fmt: skip
