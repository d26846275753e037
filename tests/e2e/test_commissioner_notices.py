"""Commissioner notices through Discord (COMMON-NOTIFY-1): events in the audit trail reach #commissioners once, on
the catch-up tick, and survive a restart without repeating; an override also mentions the affected captains in
#scores (issue 7 item 4)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.clock import ManualClock
from bot.local.emulator import Output
from tests.e2e.field.test_night import field_league  # noqa: F401 - the fixture
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.ladder.test_night import PLAYERS, ladder, ok  # noqa: F401 - the fixture
from tests.e2e.team_night import Night, four_each_checked_in


def notices(tonight: Night | RunningBot, title: str) -> list[Output]:
    emulator = (tonight.league if isinstance(tonight, Night) else tonight).emulator
    return [m for m in emulator.messages_in("commissioners") if title in m.text()]


async def arrived(tonight: Night | RunningBot, title: str) -> list[Output]:
    """The notices sent in the background right after the command (COMMON-NOTIFY-1), once they are in."""
    for _ in range(100):
        if found := notices(tonight, title):
            return found
        await asyncio.sleep(0.05)
    return []


async def name_channels(tonight: Night) -> None:
    reply = await tonight.run("/posts channels scores:#scores commissioners:#commissioners", "alice")
    assert "Posting settings saved" in reply, reply


async def test_common_notify_1_a_second_warning_is_told_once_even_after_a_restart(night: Night) -> None:
    """COMMON-NOTIFY-1 / TEAM-DISC-2: the second warning suspends the player automatically; the commissioners
    get one notice of the suspension (and one of each warning) right after the command, without waiting for the
    tick; the next tick and a restarted bot send nothing again."""
    league = night.league
    await name_channels(night)
    await night.run('/admin warn member:@h2 reason:"Swearing at the other team"', "alice")
    await night.run('/admin warn member:@h2 reason:"Threw a drink"', "alice")
    [told] = await arrived(night, "Automatic suspension")
    assert "**🚫 Automatic suspension** — H2: Second warning this season" in told.text(), told.text()
    assert "`/admin warn`" in told.text()
    assert [len(await arrived(night, reason)) for reason in ("Swearing at the other team", "Threw a drink")] == [1, 1]

    assert await league.bot.posts.catch_up() == 0
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    restarted_at = ManualClock(clock.now() + timedelta(minutes=5))
    async with running_bot(league.db, league.emulator, sync=False, clock=restarted_at) as restarted:
        assert await restarted.bot.posts.catch_up() == 0
    assert len(notices(night, "Automatic suspension")) == 1


async def test_common_notify_1_a_dispute_is_told_and_nothing_without_a_channel(night: Night) -> None:
    """COMMON-NOTIFY-1 / TEAM-DISP-4: a captain's dispute reaches the commissioners with the match and the reason;
    while no commissioners channel is named nothing is sent or claimed, and naming it within the grace delivers
    it."""
    league = night.league
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await night.run("/score match:MATCH round:1 game:1 home1:300 home2:300 away1:200 away2:200", "h1")
    await night.run('/match dispute match:MATCH reason:"A1 had a ball saver stolen" round:1 game:1', "a1")
    assert await league.bot.posts.catch_up() == 0  # no channel named yet

    await name_channels(night)
    await league.bot.posts.catch_up()
    [told] = notices(night, "Dispute opened")
    assert "Tilt Warriors at Flipper Kings" in told.text() or "Flipper Kings at Tilt Warriors" in told.text()
    assert f"match #{night.match_id}" in told.text() and "A1 had a ball saver stolen" in told.text(), told.text()


async def test_an_override_tells_the_commissioners_and_mentions_the_affected_captains(night: Night) -> None:
    """COMMON-NOTIFY-1, COMMON-ROLE-1: a commissioner's score override is told with its old and new values and
    reason, and both captains (and the player whose score changed) are mentioned in #scores."""
    league = night.league
    await name_channels(night)
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await night.run("/score match:MATCH round:1 game:1 home1:300 home2:300 away1:200 away2:200", "h1")
    line = '/admin override score match:MATCH round:1 game:1 member:@h2 score:3000 reason:"Photo shows 3,000"'
    assert "Override recorded" in await night.run(line, "alice")
    await league.bot.posts.catch_up()

    [told] = notices(night, "Override")
    assert "score 300 → 3,000; Photo shows 3,000" in told.text(), told.text()
    [mention] = [m for m in league.emulator.messages_in("scores") if "a commissioner corrected" in m.text()]
    for member in ("h1", "a1", "h2"):
        assert f"<@{league.emulator.member(member).id}>" in mention.text(), mention.text()
    assert "Reason: Photo shows 3,000" in mention.text()
    assert await league.bot.posts.catch_up() == 0


async def test_common_notify_1_a_ladder_tie_and_a_repeat_slam_are_told(ladder: RunningBot) -> None:  # noqa: F811
    """COMMON-NOTIFY-1: in a ladder night, the score that completes an exact tie (LADDER-AMB-5: the night cannot
    close until its playoff) and a second intentional slam tilt (LADDER-PEN-6: expulsion review) reach the
    commissioners, once each."""
    await ok(ladder, "/posts channels commissioners:#commissioners", "alice")
    await ok(ladder, "/ladder night open", "alice")
    five = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"
    for group in (1, 2, 3):
        await ok(ladder, f'/ladder games set group:{group} games:"{five}"', "alice")
    for number, name in enumerate(PLAYERS):
        await ok(ladder, "/ladder checkin", name)
        games = [f"{20 - number},000,000"] * 5
        if name == "p2":
            games[4] = "20,000,000"  # level with p1 in game 5
        await ok(ladder, f'/ladder score game:1 score:"{" ".join(games)}"', name)
    await ok(ladder, "/ladder penalty game:1 offence:slam_intentional player:@p4", "alice")
    await ok(ladder, "/ladder penalty game:2 offence:slam_intentional player:@p4", "alice")
    await ladder.bot.posts.catch_up()
    told = [m.text() for m in ladder.emulator.messages_in("commissioners")]
    [tie] = [text for text in told if "Tie awaiting its playoff" in text]
    assert "week 1: P1 and P2 on group 1, game 5 (Funhouse)" in tie, tie
    [flag] = [text for text in told if "Discipline flag" in text]
    assert "P4: repeated intentional slam tilts, review for expulsion (LADDER-PEN-6)" in flag, flag
    assert await ladder.bot.posts.catch_up() == 0


async def test_common_notify_1_a_field_tie_and_a_major_malfunction_are_told(field_league: RunningBot) -> None:  # noqa: F811
    """COMMON-NOTIFY-1: in a field night, a tie that waits for its one-ball playoff (FIELD-SCORE-3) and a major
    malfunction (FIELD-MALF-1) reach the commissioners once each, right after the command."""
    league = field_league
    await ok(league, "/posts channels commissioners:#commissioners", "alice")
    await ok(league, "/field night open m1:1 m2:2 m3:3 m4:4 m5:5", "alice")
    for name in ("p01", "p02", "p03", "p04"):
        await ok(league, "/field checkin", name)
    await ok(league, '/field malfunction machine:1 incident:ball_launched_early note:"autolaunch on ball 2"', "p01")
    for name, value in (("p01", "99,000"), ("p03", "97,000"), ("p04", "97,000"), ("p02", "98,000")):
        await ok(league, f"/field score machine:1 score:{value}", name)
    [tie] = await arrived(league, "Tie awaiting its playoff")
    assert "week 1: P03 and P04 on Godzilla; the night cannot close" in tie.text(), tie.text()
    [failure] = await arrived(league, "Major machine malfunction")
    assert "Godzilla: ball_launched_early (autolaunch on ball 2)" in failure.text(), failure.text()
    sheet = await league.run("/field maintenance", as_member="p02")
    # COMMON-MALF-1: the maintenance sheet logs the machine, the report, its severity and the description.
    assert "Week 1 Godzilla: ball launched early (major) — autolaunch on ball 2" in sheet.content, sheet.content
    assert await league.bot.posts.catch_up() == 0
