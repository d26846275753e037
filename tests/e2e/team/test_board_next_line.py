"""The scoreboard's **Next:** line names who must act in every state of a match, not only while games are played:
the extension a commissioner answers, a forfeited match, and a match a team walked out of."""

from __future__ import annotations

from bot.clock import ManualClock
from tests.e2e.team_night import Night, at, enter_and_confirm, four_each_checked_in, scoreboard


async def next_line(night: Night) -> str:
    return next((line for line in (await scoreboard(night)).text().splitlines() if "**Next:**" in line), "")


async def test_the_extension_then_the_attending_captain_is_next_after_a_forfeit(night: Night) -> None:
    """At 20:16 with Tilt Warriors two short, the commissioner answers the extension; once declined, Tilt
    Warriors forfeit: no lineup is due (on the board or in /help), and Flipper Kings' captain alone signs, after
    claiming the played-out evening if it was."""
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    h1 = night.league.emulator.member("h1").id
    clock.set(at(19, 50))
    for name in ("h1", "h2", "h3", "h4", "a1", "a2"):
        await night.run("/checkin match:MATCH", name)
    clock.set(at(20, 16))
    await night.run("/checkin match:MATCH member:@h5", "h1")  # any change republishes the board
    assert "a commissioner records whether both captains agreed to wait until 20:30" in await next_line(night)
    await night.run("/match extension match:MATCH agreed:false", "alice")
    after_forfeit = await next_line(night)
    assert f"**Next:** <@{h1}> signs the scoresheet (after `/match played-out`" in after_forfeit, after_forfeit
    assert "declares" not in after_forfeit and "<@" + str(night.league.emulator.member("a1").id) not in after_forfeit
    captains_help = await night.run("/help", "h1")  # /help answers "what can I do now?" from the same steps
    due_now = captains_help.split("As a captain:")[0]
    assert "and sign it" in due_now and "lineup" not in due_now, captains_help
    await night.run("/match played-out match:MATCH", "h1")
    assert await next_line(night) == f"**Next:** <@{h1}> signs the scoresheet."
    signed = await night.league.emulator.click(await scoreboard(night), f"match:sign:{night.match_id}", as_member="h1")
    assert "signed the scoresheet" in signed.text(), signed.text()
    assert await next_line(night) == ""


async def test_after_a_walkout_the_team_that_stayed_signs(night: Night) -> None:
    """Round 1 is declared and game 1 confirmed when Tilt Warriors leave (TEAM-FORF-4): game 2 needs no scores
    and round 2 no lineups, so the Next line asks only Flipper Kings' captain to sign."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    h1 = night.league.emulator.member("h1").id
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    await enter_and_confirm(night, 1, 1, ("3", "3"), ("1", "1"))
    assert "Enter scores** for round 1 game 2" in await next_line(night)
    await night.run("/match walkout match:MATCH side:away kind:left", "alice")
    assert await next_line(night) == f"**Next:** <@{h1}> signs the scoresheet."
    signed = await night.league.emulator.click(await scoreboard(night), f"match:sign:{night.match_id}", as_member="h1")
    assert "signed the scoresheet" in signed.text(), signed.text()
    assert await next_line(night) == ""
