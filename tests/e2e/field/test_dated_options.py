"""COMMON-LEAGUE-2 in a field league through Discord: options changed mid-season apply from the next night not
yet played; the nights already played, and the table as it stood after them, keep the options they were played
under. `/standings what-if:` computes the table under other options and stores nothing."""

from __future__ import annotations

from datetime import timedelta

from bot.clock import ManualClock
from tests.e2e.field.test_night import field_league  # noqa: F401 (the fixture)
from tests.e2e.harness import RunningBot

PLAYERS = ("p01", "p02", "p03", "p04")
ORDER = {1: ("p01", "p02", "p03", "p04"), 2: ("p04", "p03", "p02", "p01"), 3: ("p02", "p01", "p04", "p03")}


async def ok(league: RunningBot, line: str, member: str = "alice") -> str:
    result = await league.run(line, as_member=member)
    assert not result.content.startswith("⛔") and "Something went wrong" not in result.text(), (line, result.text())
    return result.text()


async def play_week(league: RunningBot, week: int) -> None:
    """Four players on five machines, finishing in this week's order on every machine."""
    if week > 1:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.advance(timedelta(days=7))
    await ok(league, "/field night open m1:1 m2:2 m3:3 m4:4 m5:5")
    for name in PLAYERS:
        await ok(league, "/field checkin", name)
    await ok(league, "/field groups")
    for place, name in enumerate(ORDER[week]):
        for machine in range(1, 6):
            await ok(league, f"/field score machine:{machine} score:{(10 - place) * 100_000 + machine:,}", name)
    assert "Night closed" in await ok(league, "/field night close")


def winner_points(sheet: str) -> int:
    """The night's points of its winner, from the sheet's table of the night (`rank name points`)."""
    rows = [line.split() for line in sheet.splitlines()]
    return next(int(row[2]) for row in reversed(rows) if len(row) == 3 and row[0] == "1" and row[2].isdigit())


async def test_a_mid_season_change_leaves_the_weeks_played_and_their_table_alone(
    field_league: RunningBot,  # noqa: F811
) -> None:
    league = field_league
    for week in (1, 2):
        await play_week(league, week)
    sheets = {week: await ok(league, f"/field night show week:{week}", "p05") for week in (1, 2)}
    table_after_two = await ok(league, "/field standings", "p05")

    dropped = await ok(league, "/field config option:drop_lowest_weeks value:0")
    assert "It applies from 2027-06-09, the next week not yet played; weeks played keep" in dropped, dropped
    points = await ok(league, "/field config option:top_points value:40")
    assert "drop_lowest_weeks: 2 until 2027-06-09, 0 since 2027-06-09" in points, points
    assert "top_points: 25 until 2027-06-09, 40 since 2027-06-09" in points, points

    overview = await ok(league, "/league config", "p05")  # any member may read the history
    assert "• top_points: 25 until 2027-06-09, 40 since 2027-06-09" in overview, overview

    # Nothing played under the new options yet: every sheet and the table read as before.
    assert await ok(league, "/field standings", "p05") == table_after_two
    for week in (1, 2):
        assert await ok(league, f"/field night show week:{week}", "p05") == sheets[week]

    await play_week(league, 3)
    for week in (1, 2):
        assert await ok(league, f"/field night show week:{week}", "p05") == sheets[week]
    after_two = await ok(league, "/field standings week:2", "p05")
    assert after_two.replace(", after week 2", "") == table_after_two
    week_three = await ok(league, "/field night show week:3", "p05")
    # The winner tops all five machines: the new points table counts from week 3 only.
    assert winner_points(week_three) - winner_points(sheets[1]) == 5 * (40 - 25), (week_three, sheets[1])
    now = await ok(league, "/field standings", "p05")
    rows = [line.split() for line in now.splitlines() if line.split()[1:2] and line.split()[1] in {"P01", "P02"}]
    assert rows and all(row[2] == row[3] for row in rows), now  # no week dropped: total = raw total


async def test_an_effective_date_never_reaches_back_and_a_later_one_waits(field_league: RunningBot) -> None:  # noqa: F811
    league = field_league
    await play_week(league, 1)
    before = await league.digest()
    refused = await league.run("/field config option:top_points value:10 effective:2027-05-30", as_member="alice")
    assert refused.ephemeral and "COMMON-LEAGUE-2" in refused.content and "2027-06-02" in refused.content
    typo = await league.run("/field config option:top_points value:10 effective:next-week", as_member="alice")
    assert typo.ephemeral and "`effective`" in typo.content and "YYYY-MM-DD" in typo.content
    assert await league.digest() == before  # refused: nothing changed

    offered = await league.emulator.autocomplete(
        "/field config option:top_points value:40 effective:", focused="effective", as_member="alice"
    )
    assert [c["value"] for c in offered][:3] == ["2027-06-02", "2027-06-09", "2027-06-16"], offered
    assert offered[0]["name"] == "Wed 02 Jun 2027: the next week not yet played", offered
    later = await ok(league, "/field config option:top_points value:40 effective:2027-06-15")
    assert "top_points = 40. It applies from 2027-06-15; until then the current value stands." in later, later
    assert "top_points = 25 (changed)" not in later and "\ntop_points = 25\n" in later, later  # today's value
    await play_week(league, 2)  # 2027-06-08: still under the value of its day
    await play_week(league, 3)  # 2027-06-15: the new one
    sheets = [await ok(league, f"/field night show week:{week}", "p05") for week in (1, 2, 3)]
    assert winner_points(sheets[0]) == winner_points(sheets[1])
    assert winner_points(sheets[2]) - winner_points(sheets[1]) == 5 * (40 - 25)


async def test_what_if_shows_another_table_and_stores_nothing(field_league: RunningBot) -> None:  # noqa: F811
    league = field_league
    for week in (1, 2):
        await play_week(league, week)
    real = await league.run("/standings", as_member="p05")
    counts, before = await league.row_counts(), await league.digest()

    offered = [c["name"] for c in await league.emulator.autocomplete("/standings what-if:drop", as_member="p05")]
    assert "no dropped weeks" in offered and "drop the lowest week" in offered, offered
    assert "no top-score bonus" not in offered
    hypothetical = await league.run('/standings what-if:"no dropped weeks"', as_member="p05")
    shown = hypothetical.text()
    assert hypothetical.ephemeral and "What if: no dropped weeks" in shown and "Hypothetical" in shown, shown
    assert shown != real.text()
    rows = [line.split() for line in shown.splitlines() if line.split()[1:2] and line.split()[1].startswith("P0")]
    assert len(rows) == 4 and all(row[2] == row[3] for row in rows), shown  # total = raw total: nothing dropped
    typed = await league.run("/standings what-if:drop_lowest_weeks=0", as_member="p05")
    assert typed.embeds[0]["fields"] == hypothetical.embeds[0]["fields"]

    exported = await league.run('/standings export:true what-if:"no dropped weeks"', as_member="p05")
    assert exported.ephemeral and "`what-if`" in exported.content and not exported.embeds, exported.content
    bad = await league.run("/standings what-if:drop_lowest_weeks=-1", as_member="p05")
    assert bad.ephemeral and "drop_lowest_weeks" in bad.content, bad.content
    unknown = await league.run("/standings what-if:everyone_wins", as_member="p05")
    assert unknown.ephemeral and "no dropped weeks" in unknown.content, unknown.content

    assert await league.row_counts() == counts and await league.digest() == before
    assert (await league.run("/standings", as_member="p05")).text() == real.text()
