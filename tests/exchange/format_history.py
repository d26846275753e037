"""A ladder league and a field league with a night of history each, played through Discord (the emulator), so
every JSON column holds what the services really write: planned nights, groups, ranks, slots, picks, a one-ball
playoff, premakeups, penalties, results, a roll-call answer and the ledger for the ladder; check-ins with a guest,
a tie playoff, a penalty, a correction with its votes, a malfunction and the finals (entries, seeds,
tie-breaker-free picks and a game won) for the field."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import col, select

from bot.clock import ManualClock
from storage.field import FieldCorrection
from storage.models import Player
from tests.e2e.harness import RunningBot

M = 1_000_000
LADDER_NIGHT = datetime(2027, 3, 3, 12, 0, tzinfo=ZoneInfo("America/New_York"))  # a Wednesday
LADDER_MACHINES = ["Attack from Mars", "Black Knight", "Cirqus Voltaire", "Demolition Man", "Elvira", "Funhouse"]
LADDER_PLAYERS = [f"p{n}" for n in range(1, 11)]  # skill 10 … 1: p1 is the best
FIELD_NIGHT = datetime(2027, 6, 1, 19, 0, tzinfo=ZoneInfo("America/Indiana/Indianapolis"))
FIELD_MACHINES = ["Godzilla", "Medieval Madness", "Attack from Mars", "Twilight Zone", "Deadpool", "Jaws"]
FIELD_MEMBERS = [f"f{n:02d}" for n in range(1, 9)]
FIELD_GUEST = "gus"


async def ok(league: RunningBot, line: str, member: str) -> str:
    result = await league.run(line, as_member=member)
    text = result.text()
    assert not result.content.startswith("⛔") and "Something went wrong" not in text, (line, text)
    return text


def _clock(league: RunningBot) -> ManualClock:
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    return clock


async def build_ladder_history(league: RunningBot) -> None:
    """Week 1 closed (picks in group 1, the commissioner's games for the others, an absent player on premakeups,
    penalties, a one-ball playoff, results and payouts); week 2 open with its first pick."""
    _clock(league).set(LADDER_NIGHT)
    league.emulator.quiet_window = 0.001
    await ok(league, '/league create name:"Jersey Ladder" format:ladder commissioner_role:@Commissioner', "owner")
    await ok(league, '/venue add name:"The Break"', "alice")
    for machine in LADDER_MACHINES:
        await ok(league, f'/machine add venue:"The Break" model:"{machine}"', "alice")
        await ok(league, f'/ladder normalizer machine:"{machine}" value:20,000,000', "alice")
    for number, name in enumerate(LADDER_PLAYERS):
        league.emulator.add_member(name)
        await ok(league, f"/ladder join skill:{10 - number}", name)
    for score in ("8,000,000", "12,000,000"):  # p10 misses week 1 on premakeups (LADDER-PMU-1)
        await ok(league, '/ladder premakeup declare machine:"Attack from Mars" with:"bob and carol"', "p10")
        await ok(league, f'/ladder premakeup record machine:"Attack from Mars" score:{score}', "p10")
    await ok(league, '/ladder premakeup order machine:"Attack from Mars" order:S2,AVG,S1', "p10")
    await ok(league, "/ladder absent", "p10")
    await ok(league, "/schedule nights first:2027-03-03 nights:10 skip:2027-03-24 reason:Holiday", "alice")
    await ok(league, "/posts channels announcements:#announcements", "alice")
    assert await league.bot.posts.catch_up() == 1  # week 1's night-day post and its roll call
    [night_day] = league.emulator.messages_in("announcements")
    [roll_call] = re.findall(r"nightcall:\d+:in", str(night_day.components))
    assert "Noted" in (await league.emulator.click(night_day, roll_call, as_member="p1")).content

    await ok(league, "/ladder night open", "alice")
    for name in LADDER_PLAYERS[:9]:
        await ok(league, "/ladder checkin", name)
    for picker, game in zip(["p3", "p2", "p1"], ["Funhouse", "Funhouse", "Elvira"], strict=True):
        await ok(league, f'/ladder games pick game:"{game}"', picker)
    five = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"
    for group in (2, 3):
        await ok(league, f'/ladder games set group:{group} games:"{five}"', "alice")
    for number, name in enumerate(LADDER_PLAYERS[:9]):
        games = [f"{20 - number},000,000"] * 5
        if name == "p2":
            games[4] = "20,000,000"  # level with p1 in game 5: a one-ball playoff (LADDER-AMB-5)
        await ok(league, f'/ladder score game:1 score:"{" ".join(games)}"', name)
    await ok(league, "/ladder penalty game:2 offence:death_save player:@p2", "p1")
    await ok(league, "/ladder penalty game:1 offence:tilted_anothers_ball player:@p5", "p4")
    await ok(league, "/ladder tiebreak game:5 winner:@p2", "p1")
    await ok(league, "/ladder night close", "alice")

    _clock(league).advance(timedelta(weeks=1))
    await ok(league, "/ladder night open", "alice")
    await ok(league, "/ladder checkin", "p1")


async def build_field_history(league: RunningBot) -> None:
    """Week 1 closed (a guest, groups, a tie on Godzilla settled by a playoff, a death save, a correction the
    group confirmed, a malfunction), then the finals: entries, seeds and the first game of a pairing."""
    _clock(league).set(FIELD_NIGHT)
    league.emulator.quiet_window = 0.001
    await ok(
        league,
        '/league create name:"LPL" format:field timezone:America/Indiana/Indianapolis commissioner_role:@Commissioner',
        "owner",
    )
    await ok(league, "/field config option:regular_weeks value:1", "alice")  # finals after one meet
    await ok(league, "/field config option:drop_lowest_weeks value:0", "alice")
    await ok(league, "/field config option:bracket_slots value:4", "alice")
    await ok(league, '/venue add name:"MSA"', "alice")
    for model in FIELD_MACHINES:
        await ok(league, f'/machine add venue:"MSA" model:"{model}"', "alice")
    for name in [*FIELD_MEMBERS, FIELD_GUEST]:
        league.emulator.add_member(name)
    for name in FIELD_MEMBERS:
        ifpa = " ifpa_number:10101" if name == "f01" else ""
        await ok(league, f"/player register member:@{name}{ifpa}", "alice")

    await ok(league, "/field night open m1:1 m2:2 m3:3 m4:4 m5:5", "alice")
    for name in FIELD_MEMBERS:
        await ok(league, "/field checkin", name)
    await ok(league, f"/field guest member:@{FIELD_GUEST}", "alice")
    await ok(league, "/field groups", "alice")
    for number, name in enumerate(FIELD_MEMBERS, start=1):
        for machine in range(1, 6):
            value = 97_000 if machine == 1 and number in (3, 4) else (100 - number) * 1000 + machine
            await ok(league, f"/field score machine:{machine} score:{value:,}", name)
    for machine in range(1, 6):
        await ok(league, f"/field game machine:{machine} p1:@{FIELD_GUEST} s1:{1_000 + machine}", "alice")
    await ok(league, "/field penalty member:@f07 offence:death_save machine:2 note:bangback", "alice")
    await ok(league, '/field malfunction machine:3 incident:ball_launched_early note:"autolaunch"', "f01")
    await ok(league, '/field correct machine:5 member:@f08 score:92,010 reason:"a digit"', "f08")
    await _confirm_by_the_group_of(league, "f08", correction=1)
    await ok(league, "/field tiebreak machine:1 first:@f04 second:@f03", "f04")
    await ok(league, "/field night close", "alice")

    for name in FIELD_MEMBERS[:4]:
        await ok(league, f"/field finals entry member:@{name} paid:true", "alice")
    await ok(league, "/field finals seed", "alice")
    await ok(league, "/field finals pick pairing:W1-1 machine:1", "f01")
    await ok(league, "/field finals pick pairing:W1-1 first:false", "f04")
    await ok(league, "/field finals result pairing:W1-1 winner:@f01", "f04")


async def _confirm_by_the_group_of(league: RunningBot, name: str, *, correction: int) -> None:
    """Every other player of the group the correction names agrees (FIELD-SCORE-4)."""
    async with league.db.reading() as session:
        asked = (await session.exec(select(FieldCorrection).where(FieldCorrection.id == correction))).one()
        players = (await session.exec(select(Player).where(col(Player.id).in_(asked.group_players)))).all()
    for player in players:
        if player.display_name.lower() != name:
            await ok(league, f"/field confirm correction:{correction} agree:true", player.display_name.lower())
