"""A season's life through Discord, for each format: the stage `/league show` and `/standings` give moves from
planned to complete as matches and nights are played (COMMON-SEASON-1/2), `/season new` refuses while the season
is under way (changing nothing) and then starts the next one with what the format carries, and `/standings
season:1` still shows the old table. Tiny leagues, so each test stays short."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import col, select

from bot.clock import ManualClock
from storage.db import Database
from storage.ladder import LadderPlayer
from storage.matches import MatchKind
from storage.models import Machine, Player, RosterEntry, RosterRole, Season
from tests.e2e.format_nights import MACHINES, ok
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import NEW_YORK, SETUP_DAY, Facts, build_roster, refused, side_of, stored_matches, teams_by_name


@pytest.fixture
async def league(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db, clock=ManualClock(SETUP_DAY)) as running:
        running.emulator.quiet_window = 0.001  # the commands here answer once and send nothing after
        yield running


def set_clock(league: RunningBot, day: date) -> None:
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime(day.year, day.month, day.day, 9, tzinfo=NEW_YORK))


async def description(league: RunningBot) -> str:
    """The line under the league's name in `/league show`: format, zone, season, post-season."""
    shown = await league.run("/league show", as_member="carol")
    return str(shown.embeds[0]["description"])


async def stage_shown(league: RunningBot) -> str:
    """What `/league show` says of the current season: "Season 1 (active)"."""
    return (await description(league)).split(" · ")[2]


async def standings(league: RunningBot, line: str = "/standings") -> tuple[str, str]:
    """The season `/standings` says it shows, and the table itself."""
    result = await league.run(line, as_member="carol")
    [embed] = result.embeds
    return embed["author"]["name"], str([embed.get("description"), embed.get("fields")])


async def exported(league: RunningBot, line: str) -> dict[str, str]:
    """The files `/standings … export:true` sends: name → content."""
    reply = await league.run(line, as_member="carol")
    assert reply.ephemeral and reply.answer is not None, reply.content
    return {attachment.filename: attachment.data.decode() for attachment in reply.answer.attachments}


async def season_choices(league: RunningBot) -> list[tuple[str, int]]:
    offered = await league.emulator.autocomplete("/standings season:", focused="season", as_member="carol")
    return [(choice["name"], choice["value"]) for choice in offered]


async def seasons(league: RunningBot) -> dict[int, int]:
    """Season number → its id."""
    async with league.db.reading() as session:
        return {s.number: s.id or 0 for s in (await session.exec(select(Season))).all()}


async def test_team_season_to_playoff_champion_then_season_2_keeps_the_rosters(league: RunningBot) -> None:
    """COMMON-SEASON-1/2 for a team league: planned until match day, active, regular season complete, playoffs
    once seeded, complete with the champion (TEAM-PO-1). `/season new` then carries every roster with its
    captains and roles as the roster being put together (TEAM-ROSTER-9), which the captain can submit."""
    await ok(league, '/league create name:"NYC" format:team commissioner_role:@Commissioner', "owner")
    await ok(league, '/venue add name:"Ace Arcade"')
    for name, prefix in (("Flipper Kings", "fk"), ("Ball Busters", "bb")):
        await ok(league, f'/team create name:"{name}" evening:Tuesday home_venue:"Ace Arcade"')
        await build_roster(league, name, prefix)
    league.emulator.add_member("fk7")
    await ok(league, '/roster add team:"Flipper Kings" member:@fk7 role:reserve adult:true effective:2027-02-27')
    assert await stage_shown(league) == "Season 1 (planned)"
    await ok(league, "/schedule generate weeks:2 start:2027-03-01")
    assert await stage_shown(league) == "Season 1 (planned)"

    matches, teams = await stored_matches(league), await teams_by_name(league)
    kings = teams["Flipper Kings"]
    facts = await Facts.load(league)
    await facts.venue_forfeit(matches[0], side_of(matches[0], kings).other)
    set_clock(league, date(2027, 3, 3))
    assert await stage_shown(league) == "Season 1 (active)"
    schedule = await league.run("/schedule show", as_member="carol")
    assert schedule.embeds[0]["author"]["name"] == "Season 1 (active)", schedule.embeds
    await refused(
        league, "/season new", as_member="alice", rule="COMMON-SEASON-1",
        message="Season 1 (active) is not complete yet, so nothing was started",
    )  # fmt: skip

    await facts.venue_forfeit(matches[1], side_of(matches[1], kings).other)
    set_clock(league, date(2027, 3, 10))
    assert await stage_shown(league) == "Season 1 (regular season complete)"
    await ok(league, "/playoffs seed start:2027-03-15")
    assert await stage_shown(league) == "Season 1 (playoffs)"
    assert "Post-season from Mon 2027-03-15" in await description(league)  # seeding dates it (COMMON-SEASON-2)
    [final] = [m for m in await stored_matches(league) if m.kind is MatchKind.PLAYOFF]
    await facts.venue_forfeit(final, side_of(final, kings).other)
    set_clock(league, date(2027, 3, 17))
    assert await stage_shown(league) == "Season 1 (complete)"
    header, table = await standings(league)
    assert header == "Season 1 (complete)" and "Flipper Kings" in table

    async with league.db.reading() as session:
        old = {
            (e.team_id, e.player_id, e.role)
            for e in (await session.exec(select(RosterEntry))).all()
            if e.ends_on is None
        }
    started = await league.run("/season new", as_member="alice")
    assert not started.ephemeral, started.content
    assert "**Season 2** of **NYC** has started, after Season 1 (complete)" in started.content
    assert "Carried over: 2 teams, 13 roster places" in started.content
    assert "`/roster submit`" in started.content  # the next step
    number_to_id = await seasons(league)
    async with league.db.reading() as session:
        carried = (await session.exec(select(RosterEntry).where(RosterEntry.season_id == number_to_id[2]))).all()
    assert {(e.team_id, e.player_id, e.role) for e in carried} == old
    assert all(e.starts_on is None for e in carried)  # being put together until the captain submits it
    roles = [e.role for e in carried]
    assert (roles.count(RosterRole.CAPTAIN), roles.count(RosterRole.RESERVE)) == (2, 1)

    assert await stage_shown(league) == "Season 2 (planned)"
    assert await season_choices(league) == [("Season 2 (planned)", 2), ("Season 1 (complete)", 1)]
    assert await standings(league, "/standings season:1") == (header, table)
    assert (await standings(league))[0] == "Season 2 (planned)"
    old_csv = (await exported(league, "/standings season:1 export:true"))["nyc-standings.csv"]
    assert "League,1,Flipper Kings,2,2,0," in old_csv, old_csv  # Season 1's table, not the new season's
    assert "League,1,Flipper Kings,0,0,0," in (await exported(league, "/standings export:true"))["nyc-standings.csv"]
    submitted = await league.run('/roster submit team:"Flipper Kings" effective:2027-04-01', as_member="fk1")
    assert "Roster submitted" in submitted.text(), submitted.content
    await refused(league, "/standings season:3", as_member="carol", rule=None, message="has no season 3")


LADDER_PLAYERS = ["p1", "p2", "p3"]  # skill 10, 9, 8: p1 is thought the best, yet p3 wins every game (one group)


async def play_ladder_week(league: RunningBot, day: date) -> None:
    set_clock(league, day)
    await ok(league, "/ladder night open")
    for name in LADDER_PLAYERS:
        await ok(league, "/ladder checkin", name)
    await ok(league, '/ladder games set group:1 games:"Elvira"')
    for game in (1,):
        for place, name in enumerate(LADDER_PLAYERS, start=1):
            await ok(league, f"/ladder score game:{game} score:{place * 10},000,000", name)
    await ok(league, "/ladder night close")


async def test_ladder_season_then_season_2_seeded_by_the_final_standings(league: RunningBot) -> None:
    """COMMON-SEASON-1 for a ladder league: planned, active from the first night, complete once the last regular
    night closes (its playoffs are played away from the bot). `/season new` carries every player with their skill
    (LADDER-REG-2), and week 1's groups then follow last season's finishing order rather than skill
    (LADDER-GROUP-2, LADDER-ORDER-3). Mid-season, only `override:true` starts another one (COMMON-SEASON-1)."""
    await ok(league, '/league create name:"Jersey" format:ladder commissioner_role:@Commissioner', "owner")
    await ok(league, '/venue add name:"The Break"')
    for machine in MACHINES:
        await ok(league, f'/machine add venue:"The Break" model:"{machine}"')
        await ok(league, f'/ladder normalizer machine:"{machine}" value:20,000,000')
    await ok(league, "/ladder option name:split_after_week value:1")
    await ok(league, "/ladder option name:regular_weeks value:2")
    await ok(league, "/ladder option name:games_per_match value:1")  # one game a night keeps the test short
    for number, name in enumerate(LADDER_PLAYERS):
        league.emulator.add_member(name)
        await ok(league, f"/ladder join skill:{10 - number}", name)
    assert await stage_shown(league) == "Season 1 (planned)"

    await play_ladder_week(league, date(2027, 3, 3))
    assert await stage_shown(league) == "Season 1 (active)"
    await refused(
        league, "/season new", as_member="alice", rule="COMMON-SEASON-1",
        message="Season 1 (active) is not complete yet",
    )  # fmt: skip
    await play_ladder_week(league, date(2027, 3, 10))
    assert await stage_shown(league) == "Season 1 (complete)"
    header, table = await standings(league)
    assert header == "Season 1 (complete)" and table.index("P3★") < table.index("P2★") < table.index("P1 ")
    await ok(league, '/admin suspend member:@p2 reason:"Abusive to the host"')  # to the end of Season 1

    started = await league.run("/season new", as_member="alice")
    assert "**Season 2** of **Jersey** has started" in started.content, started.content
    assert "Carried over: 3 players" in started.content and "`/ladder night open`" in started.content
    number_to_id = await seasons(league)
    async with league.db.reading() as session:
        rows = (
            await session.exec(
                select(Player.display_name, LadderPlayer.skill, LadderPlayer.seed)
                .join(Player, col(Player.id) == LadderPlayer.player_id)
                .where(LadderPlayer.season_id == number_to_id[2])
                .order_by(col(LadderPlayer.seed))
            )
        ).all()
    assert [tuple(row) for row in rows] == [("P3", 8, 1), ("P2", 9, 2), ("P1", 10, 3)]
    assert await stage_shown(league) == "Season 2 (planned)"
    assert await standings(league, "/standings season:1") == (header, table)

    set_clock(league, date(2027, 3, 17))
    opened = (await league.run("/ladder night open", as_member="alice")).text().lower()
    # COMMON-TV-3: P2's suspension to the end of Season 1 bars nobody in Season 2: P2 is placed in the group.
    assert "group 1: #1 p3\n#2 p2\n#3 p1" in opened, opened
    assert await stage_shown(league) == "Season 2 (active)"
    hint = "`/season new override:true`"
    await refused(league, "/season new", as_member="alice", rule="COMMON-SEASON-1", message=hint)
    await refused(league, f"{hint[1:-1]}", as_member="p1", rule="COMMON-ROLE-1", message="Only commissioners")
    overridden = await league.run("/season new override:true", as_member="alice")
    assert "**Season 3** of **Jersey** has started, after Season 2 (active)" in overridden.content, overridden.content
    assert await stage_shown(league) == "Season 3 (planned)"


FIELD_PLAYERS = ["ann", "ben", "cat"]  # ann tops every machine, then ben, then cat


async def test_field_season_through_its_finals_then_season_2_keeps_the_players(league: RunningBot) -> None:
    """COMMON-SEASON-1/2 for a field league: planned, active once a night opens, regular season complete when the
    last regular night closes, finals once entries are taken (FIELD-FIN-1), complete when the bracket has its
    champion (FIELD-FIN-3). `/season new` keeps the registered players; Season 1's table stays readable."""
    created = '/league create name:"LPL" format:field timezone:America/Chicago commissioner_role:@Commissioner'
    await ok(league, created, "owner")
    await ok(league, '/venue add name:"MSA"')
    for model in MACHINES:
        await ok(league, f'/machine add venue:"MSA" model:"{model}"')
    options = (("regular_weeks", 1), ("drop_lowest_weeks", 0), ("bracket_slots", 2), ("grand_final_reset", "false"))
    for option, value in options:
        await ok(league, f"/field config option:{option} value:{value}")
    for name in FIELD_PLAYERS:
        league.emulator.add_member(name)
        await ok(league, f"/player register member:@{name}")
    assert await stage_shown(league) == "Season 1 (planned)"

    set_clock(league, date(2027, 6, 1))
    async with league.db.reading() as session:
        machines = sorted(m for m in (await session.exec(select(Machine.id))).all() if m is not None)[:5]
    await ok(league, "/field night open " + " ".join(f"m{n}:{m}" for n, m in enumerate(machines, start=1)))
    assert await stage_shown(league) == "Season 1 (active)"
    for name in FIELD_PLAYERS:
        await ok(league, "/field checkin", name)
    await ok(league, "/field groups")
    for machine in machines:  # the group's game on each machine, entered by one of them
        scores = " ".join(f"p{n}:@{name} s{n}:{(4 - n) * 10_000 + machine}" for n, name in enumerate(FIELD_PLAYERS, 1))
        await ok(league, f"/field game machine:{machine} {scores}", "ann")
    await ok(league, "/field night close")
    assert await stage_shown(league) == "Season 1 (regular season complete)"
    await refused(
        league, "/season new", as_member="alice", rule="COMMON-SEASON-1",
        message="Season 1 (regular season complete) is not complete yet",
    )  # fmt: skip

    # COMMON-SEASON-2: no post-season date yet, so the officials are reminded, in /league show and in a post
    assert "set the post-season's date with `/season postseason`" in await description(league)
    await ok(league, "/posts channels commissioners:#commissioners")
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    assert await league.bot.posts.catch_up() == 0  # due at noon, league time
    clock.set(datetime(2027, 6, 1, 12, 1, tzinfo=ZoneInfo("America/Chicago")))
    assert await league.bot.posts.catch_up() == 1
    [reminder] = league.emulator.messages_in("commissioners")
    assert "the regular season of Season 1 is over" in reminder.content, reminder.content
    assert "`/season postseason date:YYYY-MM-DD`" in reminder.content
    await refused(league, "/season postseason date:2027-05-31", as_member="alice", rule=None, message="in the past")
    line = "/season postseason date:2027-06-08"
    await refused(league, line, as_member="ann", rule="COMMON-ROLE-1", message="Only commissioners")
    dated = await ok(league, "/season postseason date:2027-06-08")
    assert "the post-season starts **Tue 2027-06-08**" in dated, dated
    assert "Post-season from Tue 2027-06-08" in await description(league)

    for name in FIELD_PLAYERS[:2]:
        await ok(league, f"/field finals entry member:@{name} paid:true")
    assert await stage_shown(league) == "Season 1 (finals)"
    await ok(league, "/field finals seed")
    for pairing in ("W1-1", "GF"):  # ann (seed 1) beats ben 2–0 in both
        await ok(league, f"/field finals pick pairing:{pairing} machine:{machines[0]}", "ann")
        await ok(league, f"/field finals pick pairing:{pairing} first:false", "ben")
        await ok(league, f"/field finals result pairing:{pairing} winner:@ann", "ben")
        await ok(league, f"/field finals pick pairing:{pairing} machine:{machines[1]}", "ben")
        await ok(league, f"/field finals pick pairing:{pairing} first:true", "ann")
        await ok(league, f"/field finals result pairing:{pairing} winner:@ann", "ben")
    assert await stage_shown(league) == "Season 1 (complete)"
    header, table = await standings(league)
    assert header == "Season 1 (complete)" and table.index("Ann") < table.index("Ben") < table.index("Cat")

    started = await league.run("/season new", as_member="alice")
    assert "**Season 2** of **LPL** has started, after Season 1 (complete)" in started.content, started.content
    assert "Carried over: 3 players" in started.content and "`/field night open`" in started.content
    assert await stage_shown(league) == "Season 2 (planned)"
    assert await season_choices(league) == [("Season 2 (planned)", 2), ("Season 1 (complete)", 1)]
    assert await standings(league, "/standings season:1") == (header, table)
    new_header, new_table = await standings(league)
    assert new_header == "Season 2 (planned)" and "Ann" not in new_table  # nothing played yet this season
    files = await exported(league, "/standings season:1 export:true")  # Season 1's finals, IFPA-ready
    assert set(files) == {"lpl-standings.csv", "lpl-ifpa.csv"}, set(files)
    assert files["lpl-ifpa.csv"].index("Ann") < files["lpl-ifpa.csv"].index("Ben")
    assert set(await exported(league, "/standings export:true")) == {"lpl-standings.csv"}  # no finals yet
