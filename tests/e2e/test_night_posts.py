"""Scheduled posts of the ladder and field formats through the emulator, on the bot's clock: a closed ladder
night's next groups (LADDER-GROUP-3, LADDER-ORDER-1) and standings, a closed field night's results
(FIELD-SCORE-2) and standings, and the field finals bracket posted when seeded and edited after a result
(FIELD-FIN-3/7). The leagues come from the ladder, field-night and finals tests' fixtures."""

from __future__ import annotations

import io
from datetime import datetime, time, timedelta

from PIL import Image

from bot.clock import ManualClock
from bot.local.emulator import Output
from tests.e2e.harness import RunningBot
from tests.e2e.test_field_finals import finals_league  # noqa: F401 - a fixture
from tests.e2e.test_field_night import MEMBERS, ZONE, field_league  # noqa: F401 - a fixture
from tests.e2e.test_ladder_night import MACHINES, NEW_YORK, NIGHT, PLAYERS, ladder, ok  # noqa: F401 - a fixture

MINUTE = timedelta(minutes=1)
M = 1_000_000


def clock_of(league: RunningBot) -> ManualClock:
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    return clock


async def tick_at(league: RunningBot, moment: datetime) -> int:
    clock_of(league).set(moment)
    return await league.bot.posts.catch_up()


def messages(league: RunningBot, channel: str) -> list[Output]:
    return league.emulator.messages_in(channel)


def edits(league: RunningBot) -> list[Output]:
    return [output for output in league.emulator.outputs if output.kind == "message_edit"]


def group_fields(embed: dict) -> dict[str, list[str]]:
    return {f["name"]: f["value"].splitlines() for f in embed.get("fields", []) if f["name"].startswith("Group")}


async def test_a_closed_ladder_night_posts_next_weeks_groups_once_at_noon_the_day_after(ladder: RunningBot) -> None:  # noqa: F811
    """LADDER-GROUP-3: the day after the night is closed, at 12:00 New York time, next week's groups go out once,
    the same groups `/ladder groups` shows, each with game 1's order, worst-placed first (LADDER-ORDER-1);
    the week's standings (LADDER-STAND-1) go out with them, with the table as an image."""
    league = ladder
    await ok(league, "/posts channels announcements:#announcements scores:#scores", "alice")
    await ok(league, "/ladder night open", "alice")
    groups = [PLAYERS[0:3], PLAYERS[3:6], PLAYERS[6:10]]  # by skill, 3 + 3 + 4 (LADDER-GROUP-1/2)
    for number, members in enumerate(groups, start=1):
        await ok(league, f'/ladder games set group:{number} games:"{", ".join(MACHINES[:5])}"', "alice")
        for place, name in enumerate(members):
            await ok(league, "/ladder checkin", name)
            score = (60 - 10 * place) * M
            await ok(league, f'/ladder score game:1 score:"{" ".join([f"{score}"] * 5)}"', name)
    closed_at = datetime.combine(NIGHT.date(), time(22, 30), tzinfo=NEW_YORK)
    clock_of(league).set(closed_at)
    await ok(league, "/ladder night close", "alice")
    assert await league.bot.posts.catch_up() == 0  # nothing until noon tomorrow

    noon = datetime.combine(NIGHT.date() + timedelta(days=1), time(12), tzinfo=NEW_YORK)
    assert await tick_at(league, noon - MINUTE) == 0
    assert await tick_at(league, noon) == 2
    assert await tick_at(league, noon + 5 * MINUTE) == 0
    assert await tick_at(league, noon + timedelta(days=1)) == 0

    [groups_post, standings_post] = sorted(messages(league, "announcements"), key=lambda m: "standings" in m.text())
    assert "groups for week 2" in groups_post.text() and "LADDER-GROUP-3" in groups_post.text()
    shown = (await league.run("/ladder groups", as_member="p5")).embeds[0]
    posted = group_fields(groups_post.embeds[0])
    assert len(posted) == 3
    for name, lines in group_fields(shown).items():
        ranked = [line for line in lines if line.startswith("#")]
        assert posted[name][: len(ranked)] == ranked, (name, posted[name])  # the same groups, rank order
        order = [line.split(" ", 1)[1] for line in reversed(ranked)]
        assert posted[name][len(ranked)] == "Game 1 order: " + ", ".join(order)  # worst-placed first

    assert "standings after week 1" in standings_post.text()
    [picture] = standings_post.attachments
    assert picture.filename == "standings.png" and Image.open(io.BytesIO(picture.data)).width >= 800


async def test_a_closed_field_night_posts_its_results_once_the_morning_after(field_league: RunningBot) -> None:  # noqa: F811
    """FIELD-SCORE-2: the morning after a night is closed, at 10:00 league time, its results go to the scores
    channel once: each machine's points and the night's totals, with the table as an image; the season
    standings (FIELD-STAND-1) follow at noon in the announcements."""
    league = field_league
    await ok(league, "/posts channels announcements:#announcements scores:#scores", "alice")
    players = [MEMBERS[0], MEMBERS[1], MEMBERS[4], MEMBERS[5]]
    await ok(league, "/field night open m1:1 m2:2 m3:3 m4:4 m5:5", "alice")
    for name in players:
        await ok(league, "/field checkin", name)
    await ok(league, "/field groups", "alice")
    for rank, name in enumerate(players):
        for machine in range(1, 6):
            await ok(league, f"/field score machine:{machine} score:{(90 - rank) * 1000 + machine:,}", name)
    night_day = clock_of(league).now().astimezone(ZONE).date()
    await ok(league, "/field night close", "alice")

    morning = datetime.combine(night_day + timedelta(days=1), time(10), tzinfo=ZONE)
    assert await tick_at(league, morning - MINUTE) == 0
    assert await tick_at(league, morning) == 1
    assert await tick_at(league, morning + MINUTE) == 0
    [results] = messages(league, "scores")
    text = results.text()
    assert "Week 1 results" in text and "Godzilla" in text and "Deadpool" in text
    sheet = await ok(league, "/field night show week:1", "p05")
    totals = [line for line in sheet.splitlines() if line[:2].strip().isdigit()]
    assert [line.split()[1] for line in totals] == ["P01", "P02", "P05", "P06"]
    assert all(line in text for line in totals)  # the same totals as the night sheet
    assert "Godzilla: 1. P01 30 · 2. P02 24 · 3. P05 23 · 4. P06 22" in text  # FIELD-SCORE-2: 30, 24, 23, 22
    [picture] = results.attachments
    cells = Image.open(io.BytesIO(picture.data))
    assert picture.filename == "results.png" and cells.width >= 800
    assert await tick_at(league, morning + timedelta(hours=2)) == 1  # noon: the week's standings
    [standings] = messages(league, "announcements")
    assert "standings after week 1" in standings.text() and "P01" in standings.text()
    assert len(messages(league, "scores")) == 1


async def test_the_field_finals_bracket_is_posted_when_seeded_and_edited_after_a_result(
    finals_league: RunningBot,  # noqa: F811
) -> None:
    """FIELD-FIN-3/7: when the finals are seeded the double-elimination bracket is posted with an image; a decided
    pairing edits that same message (embed and image); a tick with no news leaves it alone."""
    league = finals_league
    seeded_at = datetime(2027, 7, 1, 19, 0, tzinfo=ZONE)
    clock_of(league).set(seeded_at)
    await ok(league, "/posts channels announcements:#announcements", "alice")
    for kind in ("weekly_standings", "night_results"):
        await ok(league, f"/posts set kind:{kind} enabled:false", "alice")
    for name in ("ann", "ben", "cat", "dov"):
        await ok(league, f"/field finals entry member:@{name} paid:true", "alice")
    assert await league.bot.posts.catch_up() == 0  # not seeded yet: no bracket
    await ok(league, "/field finals seed", "alice")
    assert await league.bot.posts.catch_up() == 1
    [post] = messages(league, "announcements")
    [image] = post.attachments
    assert image.filename == "bracket-1.png" and Image.open(io.BytesIO(image.data)).width >= 800
    assert "(1) Ann v (4) Dov" in post.text()
    assert await tick_at(league, seeded_at + 5 * MINUTE) == 0 and not edits(league)

    for game in (1, 2):
        chooser, other = ("ann", "dov") if game == 1 else ("dov", "ann")
        await ok(league, f"/field finals pick pairing:W3-1 machine:{game}", chooser)
        await ok(league, "/field finals pick pairing:W3-1 first:true", other)
        await ok(league, "/field finals result pairing:W3-1 winner:@ann", "alice")
    await tick_at(league, seeded_at + 30 * MINUTE)
    [edited] = messages(league, "announcements")
    assert edited.message_id == post.message_id and len(edits(league)) == 1
    assert edited.attachments[0].data != image.data
    assert "W3-1" not in edited.text().split("Finals rules")[0].split("Seeds")[1]  # decided: no longer in play
    assert await tick_at(league, seeded_at + 35 * MINUTE) == 0 and len(edits(league)) == 1
