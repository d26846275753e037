"""Replays and late arrivals on a ladder night, entered with `/ladder score`: a malfunction's replay counts even
when lower (LADDER-PEN-1), a tilted ball's replay counts only if higher (LADDER-PEN-5), and a player who arrives
after the groups started cannot enter a game the group had already finished (LADDER-ATT-2)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime

import pytest

from bot.clock import ManualClock
from tests.e2e.harness import RunningBot
from tests.e2e.ladder.test_night import NEW_YORK, PLAYERS, ok, scores_by_name
from tests.e2e.season import refused

FIVE = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"


@pytest.fixture
async def night(ten_players: RunningBot) -> AsyncIterator[RunningBot]:
    """Tonight's night open in groups of 3, 3 and 4 (p1, p2, p3 in group 1), every group on the same five games;
    everyone but p3 checks in before the groups start at 19:30."""
    league = ten_players
    await ok(league, "/ladder night open", "alice")
    for group in (1, 2, 3):
        await ok(league, f'/ladder games set group:{group} games:"{FIVE}"', "alice")
    for name in PLAYERS:
        if name != "p3":
            await ok(league, "/ladder checkin", name)
    yield league


async def test_a_malfunction_replay_counts_even_when_lower_ladder_pen_1(night: RunningBot) -> None:
    """LADDER-PEN-1: the affected player replays alone after the others; the replay replaces the first score even
    when it is lower. A replay needs a first score to replace."""
    none_yet = "/ladder score game:1 score:5,000,000 replay:replaces"
    await refused(night, none_yet, as_member="p1", rule="LADDER-PEN-1", message="has no first score in game 1")
    await ok(night, "/ladder score game:1 score:30,000,000", "p1")
    replayed = await ok(night, "/ladder score game:1 score:12,000,000 replay:replaces", "p1")
    assert "**12,000,000** (was 30,000,000)" in replayed and "The replay counts (LADDER-PEN-1)" in replayed


async def test_a_tilted_balls_replay_counts_only_if_higher_ladder_pen_5(night: RunningBot) -> None:
    """LADDER-PEN-5 (REPLAY_TAKE_HIGHER): after another player tilted their ball, the victim keeps the game or
    replays it, and the higher of the two counts."""
    await ok(night, "/ladder score game:2 score:20,000,000", "p2")
    lower = await ok(night, "/ladder score game:2 score:15,000,000 replay:higher", "p2")
    assert "**20,000,000**" in lower and "The higher counts (LADDER-PEN-5)" in lower
    higher = await ok(night, "/ladder score game:2 score:25,000,000 replay:higher", "p2")
    assert "**25,000,000** (was 20,000,000)" in higher


async def test_a_late_arrival_cannot_enter_a_game_finished_before_they_came_ladder_att_2(night: RunningBot) -> None:
    """LADDER-ATT-2: p3 checks in at 19:50, after group 1 finished game 1 (p1 and p2 entered their scores): p3's
    game 1 is scored as absent and refused; game 2, not started when p3 came, is theirs to play."""
    clock = night.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime(2027, 3, 3, 19, 40, tzinfo=NEW_YORK))
    for name in ("p1", "p2"):
        await ok(night, "/ladder score game:1 score:10,000,000", name)
    clock.set(datetime(2027, 3, 3, 19, 50, tzinfo=NEW_YORK))
    await ok(night, "/ladder checkin", "p3")
    await refused(
        night, "/ladder score game:1 score:9,000,000", as_member="p3", rule="LADDER-ATT-2",
        message="Game 1 of group 1 was finished before P3 checked in",
    )  # fmt: skip
    assert "**9,000,000**" in await ok(night, "/ladder score game:2 score:9,000,000", "p3")
    # An on-time player entering late is not a late arrival: p4 (group 2) checked in at noon.
    assert "**8,000,000**" in await ok(night, "/ladder score game:1 score:8,000,000", "p4")


async def test_a_malfunction_that_stops_everyone_is_replayed_by_the_whole_group_ladder_pen_2(night: RunningBot) -> None:
    """LADDER-PEN-2: a malfunction stops all of group 2's game 1; everyone replays it and the new results count,
    lower or higher."""
    for name, first, replay in (("p4", 30, 10), ("p5", 20, 40), ("p6", 10, 20)):
        await ok(night, f"/ladder score game:1 score:{first},000,000", name)
        await ok(night, f"/ladder score game:1 score:{replay},000,000 replay:replaces", name)
    scores = {(name, game): score for name, game, score in await scores_by_name(night)}
    # LADDER-PEN-2: the stored game-1 scores are the replay's, for every player of the group
    assert [scores[(name, 1)] for name in ("p4", "p5", "p6")] == [10_000_000, 40_000_000, 20_000_000]
