"""The catalog's LADDER worked examples that take a night or a season to play (LADDER-TV-*), played through the bot:
players check in, pick games and enter scores, commissioners open and close the nights, and the numbers are read
back from what the bot shows or stores."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path
from types import MappingProxyType

from sqlmodel import col, select

from bot.clock import ManualClock
from storage.db import Database
from storage.ladder import LadderLedger, LadderNight, LadderPlayer, LadderResult, LedgerKind
from storage.models import Machine, Player
from tests.conftest import fresh_sqlite
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.ladder.conftest import FIVE, ladder_league
from tests.e2e.ladder.test_night import NEW_YORK, NIGHT, PLAYERS, ok, scores_by_name
from tests.e2e.season import refused

M = 1_000_000


def clock_of(league: RunningBot) -> ManualClock:
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    return clock


async def open_week(league: RunningBot, games: Sequence[str] = FIVE, *, a_week_later: bool = True) -> str:
    """Open the next night (a week after the clock's time unless told not to) with `games` in each group; the
    open reply."""
    if a_week_later:
        clock_of(league).advance(timedelta(days=7))
    opened = await ok(league, "/ladder night open", "alice")
    for group in range(1, len(re.findall(r"^Group \d+", opened, re.MULTILINE)) + 1):
        await ok(league, f'/ladder games set group:{group} games:"{", ".join(games)}"', "alice")
    return opened


async def enter_sheets(league: RunningBot, sheets: Mapping[str, Sequence[float]], *, check_in: bool = True) -> None:
    """The players check in (unless already in), then each enters their five scores, in millions."""
    for name in sheets if check_in else ():
        await ok(league, "/ladder checkin", name)
    for name, millions in sheets.items():
        await ok(league, f'/ladder score game:1 score:"{" ".join(f"{round(m * M):,}" for m in millions)}"', name)


async def play_week(
    league: RunningBot, week: int, sheets: Mapping[str, Sequence[float]], games: Sequence[str] = FIVE
) -> str:
    """Open week `week`, enter every sheet, close; the close reply."""
    await open_week(league, games, a_week_later=week > 1)
    await enter_sheets(league, sheets)
    return await ok(league, "/ladder night close", "alice")


async def results_of(league: RunningBot, name: str) -> list[LadderResult]:
    """The player's stored results, week 1 first."""
    async with league.db.reading() as session:
        query = (
            select(LadderResult)
            .where(
                LadderResult.ladder_player_id == LadderPlayer.id,
                LadderPlayer.player_id == Player.id,
                Player.display_name == name.upper(),
            )
            .order_by(col(LadderResult.night_id))
        )
        return list((await session.exec(query)).all())


async def entry_of(league: RunningBot, name: str) -> LadderPlayer:
    async with league.db.reading() as session:
        query = select(LadderPlayer).where(LadderPlayer.player_id == Player.id, Player.display_name == name.upper())
        return (await session.exec(query)).one()


async def add_machine(league: RunningBot, title: str) -> int:
    """A new machine at The Break with a 20,000,000 normalizer; its id."""
    await ok(league, f'/machine add venue:"The Break" model:"{title}"', "alice")
    await ok(league, f'/ladder normalizer machine:"{title}" value:20,000,000', "alice")
    async with league.db.reading() as session:
        return (await session.exec(select(Machine.id).where(Machine.model_name == title))).one() or 0


async def premakeups(league: RunningBot, name: str, machine: str, *scores: str) -> None:
    for score in scores:
        await ok(league, f'/ladder premakeup declare machine:"{machine}" with:"bob and carol"', name)
        await ok(league, f'/ladder premakeup record machine:"{machine}" score:{score}', name)


def group_members(groups_text: str) -> list[list[str]]:
    """Each group's players, sorted, from a posted groups embed."""
    blocks = groups_text.lower().split("group ")[1:]
    return [sorted(part.split()[1] for part in block.split("#")[1:]) for block in blocks]


async def test_movement_of_the_sheet_example(sqlite_db: Database) -> None:
    """LADDER-TV-17: A..I are p1..p9, dealt {A,B,C}, {D,E,F}, {G,H,I} by skill. G1 finishes B, C, A; G2 F, D, E;
    G3 G, H, I. Week 2: G1 {B,C,F}, G2 {A,D,G}, G3 {E,H,I}."""
    async with ladder_league(sqlite_db, PLAYERS[:9], "20,000,000") as league:
        finish = {"p2": 30, "p3": 20, "p1": 10, "p6": 30, "p4": 20, "p5": 10, "p7": 30, "p8": 20, "p9": 10}
        await play_week(league, 1, {name: [millions] * 5 for name, millions in finish.items()})
        nextweek = await ok(league, "/ladder groups", "p1")
        assert group_members(nextweek) == [["p2", "p3", "p6"], ["p1", "p4", "p7"], ["p5", "p8", "p9"]], nextweek


async def test_play_order_of_the_catalog(ten_players: RunningBot) -> None:
    """LADDER-TV-25: the commissioner places league ranks #4, #9, #2 in group 1 and #1, #5, #6, #8 in group 3;
    game 1 is played worst-placed first, game 2 in reverse finishing order of game 1. A second league of eight
    puts #3 and #7 in its 2-player group."""
    league = ten_players
    await ok(league, "/ladder night open", "alice")
    for first, second in (("p1", "p4"), ("p3", "p9"), ("p1", "p3"), ("p5", "p7"), ("p6", "p10")):
        placed = await ok(league, f"/ladder swap first:@{first} second:@{second}", "alice")
    assert "Group 1: #4 P4\n#2 P2\n#9 P9\nGame 1 order: P9, P4, P2" in placed, placed
    assert "Group 3: #5 P5\n#8 P8\n#1 P1\n#6 P6\nGame 1 order: P8, P6, P5, P1" in placed, placed
    for group in (1, 2, 3):
        await ok(league, f'/ladder games set group:{group} games:"{", ".join(FIVE)}"', "alice")
    for name in PLAYERS:
        await ok(league, "/ladder checkin", name)
    for name, score in (("p9", "30,000,000"), ("p2", "20,000,000"), ("p4", "10,000,000")):
        entered = await ok(league, f"/ladder score game:1 score:{score}", name)
    assert "Game 2 order: P4, P2, P9" in entered, entered
    await league.scoreboards_published()
    boards = [o.embeds[0] for o in league.emulator.messages_in("general") if o.embeds]
    games = [field["value"] for field in next(b for b in boards if b["title"] == "Week 1 · group 1")["fields"]]
    # the group's board seats game 1 worst-placed first and game 2 in reverse finishing order of game 1
    assert games[0].startswith("Order: P9, P4, P2\n") and games[1].startswith("Order: P4, P2, P9\n"), games

    await ok(league, '/league create name:"Second Ladder" format:ladder commissioner_role:@Commissioner', "owner")
    second = 'league:"Second Ladder"'
    await ok(league, f'/venue add name:"The Annex" {second}', "alice")
    await ok(league, f'/machine add venue:"The Annex" model:"Funhouse" {second}', "alice")
    await ok(league, f'/ladder normalizer machine:"Funhouse" value:20,000,000 {second}', "alice")
    for number, name in enumerate(PLAYERS[:8]):
        await ok(league, f"/ladder join skill:{10 - number} {second}", name)
    await ok(league, f"/ladder night open {second}", "alice")
    await ok(league, f"/ladder swap first:@p1 second:@p3 {second}", "alice")
    placed = await ok(league, f"/ladder swap first:@p2 second:@p7 {second}", "alice")
    assert "Group 1: #3 P3\n#7 P7\nGame 1 order: P7, P3" in placed, placed


async def test_game_selection_of_the_catalog(sqlite_db: Database) -> None:
    """LADDER-TV-26, LADDER-AMB-14: machines A..G are Attack from Mars, Black Knight, Cirqus Voltaire, Demolition
    Man, Elvira, Funhouse and Getaway; one group p1, p2, p3 (p1 best, so p3 picks first) over four weeks with 7, 6,
    4 and 5 working machines."""
    async with ladder_league(sqlite_db, PLAYERS[:3], "20,000,000") as league:
        getaway = await add_machine(league, "Getaway")
        async with league.db.reading() as session:
            ids = {m.title: m.id for m in (await session.exec(select(Machine))).all()}
        sheets = {"p1": [30] * 5, "p2": [20] * 5, "p3": [10] * 5}  # the standing stays p1, p2, p3

        async def picked(week: int, picks: Sequence[str]) -> str:
            if week > 1:
                clock_of(league).advance(timedelta(days=7))
            await ok(league, "/ladder night open", "alice")
            for name in sheets:
                await ok(league, "/ladder checkin", name)
            for name, game in zip(("p3", "p2", "p1"), picks, strict=True):
                reply = await ok(league, f'/ladder games pick game:"{game}"', name)
            await enter_sheets(league, sheets, check_in=False)
            await ok(league, "/ladder night close", "alice")
            return reply

        # (a) P = 7: C has 2 picks and goes; one more exclusion → F, next by votes, then pick order
        chosen = await picked(1, ["Cirqus Voltaire", "Cirqus Voltaire", "Funhouse"])
        assert "1. Attack from Mars, 2. Black Knight, 3. Demolition Man, 4. Elvira, 5. Getaway" in chosen, chosen
        # (b) P = 6, picks B, D, E: no game twice → the lowest-ranked player's pick (p3's B) is left out
        await ok(league, f"/machine status machine:{getaway} status:out_of_service", "alice")
        chosen = await picked(2, ["Black Knight", "Demolition Man", "Elvira"])
        assert "1. Attack from Mars, 2. Cirqus Voltaire, 3. Demolition Man, 4. Elvira, 5. Funhouse" in chosen, chosen
        # (c) P = 4, picks A, C, C: C is played twice
        for title in ("Elvira", "Funhouse"):
            await ok(league, f"/machine status machine:{ids[title]} status:out_of_service", "alice")
        chosen = await picked(3, ["Attack from Mars", "Cirqus Voltaire", "Cirqus Voltaire"])
        assert "1. Attack from Mars, 2. Black Knight, 3. Cirqus Voltaire, 4. Cirqus Voltaire, 5. Demolition Man" in (
            chosen
        ), chosen
        # (d) P = 5: all five, set when the night opens, and no picks
        await ok(league, f"/machine status machine:{ids['Elvira']} status:working", "alice")
        clock_of(league).advance(timedelta(days=7))
        opened = await ok(league, "/ladder night open", "alice")
        assert "Games: 1. Attack from Mars, 2. Black Knight, 3. Cirqus Voltaire, 4. Demolition Man, 5. Elvira" in (
            opened
        ), opened
        await ok(league, "/ladder checkin", "p3")
        await refused(league, '/ladder games pick game:"Elvira"', as_member="p3", rule=None, message="already set")


async def test_tilt_and_malfunction_replays_of_the_catalog(sqlite_db: Database) -> None:
    """LADDER-TV-27: one group p1, p2, p3. (a) p1's malfunction replay of game 1: 25M, then 19M → 19M counts.
    (b) p2 tilts p3's ball in game 2, p2's 1st offence tonight, no buy-in: p3 replays, 12M then 18M → 18M.
    (c) p2 does it again in game 4: p2's game-4 score is 0."""
    async with ladder_league(sqlite_db, PLAYERS[:3], "20,000,000") as league:
        await open_week(league, a_week_later=False)
        for name in ("p1", "p2", "p3"):
            await ok(league, "/ladder checkin", name)
        await ok(league, "/ladder score game:1 score:25,000,000", "p1")
        await ok(league, "/ladder score game:1 score:19,000,000 replay:replaces", "p1")
        ruled = await ok(league, "/ladder penalty game:2 offence:tilted_anothers_ball player:@p2", "alice")
        assert "keeps the game or replays it" in ruled, ruled
        await ok(league, "/ladder score game:2 score:12,000,000", "p3")
        await ok(league, "/ladder score game:2 score:18,000,000 replay:higher", "p3")
        await ok(league, "/ladder score game:4 score:30,000,000", "p2")
        await ok(league, "/ladder penalty game:4 offence:tilted_anothers_ball player:@p2", "alice")
        scores = {(name, game): score for name, game, score in await scores_by_name(league)}
        assert scores[("p1", 1)] == 19_000_000
        assert scores[("p3", 2)] == 18_000_000
        assert scores[("p2", 4)] == 0


async def test_a_missing_second_premakeup_of_the_sheet_taf_example(sqlite_db: Database) -> None:
    """LADDER-TV-6: A (p1) records S1 = 50,000,000 on The Addams Family (TAF) and never an S2, and misses four
    nights where TAF is game 1; B (p2) plays 30M and C (p3) 12M on every game."""
    async with ladder_league(sqlite_db, PLAYERS[:3], "20,000,000") as league:
        await add_machine(league, "The Addams Family")
        await premakeups(league, "p1", "The Addams Family", "50,000,000")
        games = ["The Addams Family", *FIVE[:4]]
        for week in (1, 2, 3, 4):
            await ok(league, "/ladder absent", "p1")
            await play_week(league, week, {"p2": [30] * 5, "p3": [12] * 5}, games)
        weeks = await results_of(league, "p1")
        taf = [(week.games[0]["kind"], week.games[0]["placement"], week.games[0]["official"]) for week in weeks]
        # 1st use S1; 2nd use: the missing S2 counts 0; 3rd: AVG = (50M + 0) / 2; then, a 4th missed week, the
        # ghost regime places A at (50M + 0 + 25M) / 3 with an official 0
        assert taf == [
            ("premakeup", 50 * M, 50 * M), ("premakeup", 0, 0), ("premakeup", 25 * M, 25 * M), ("ghost", 25 * M, 0),
        ], taf  # fmt: skip
        week2 = {name: (await results_of(league, name))[1].games[0]["points"] for name in ("p1", "p2", "p3")}
        # B 30M > C 12M + A 0 → B 4, C 2, A 0
        assert week2 == {"p1": 0, "p2": 4, "p3": 2}, week2
        shown = await ok(league, "/ladder premakeup show", "p1")
        assert "S1 50,000,000 · S2 0 · AVG 25,000,000" in shown, shown
        await refused(
            league, '/ladder premakeup declare machine:"The Addams Family" with:"bob and carol"', as_member="p1",
            rule="LADDER-PMU-4", message="Premakeups on The Addams Family are closed after a zero was used",
        )  # fmt: skip


async def test_a_single_premakeup_in_the_ghost_regime_of_the_sheet_example(sqlite_db: Database) -> None:
    """LADDER-TV-7: p1 records one premakeup, 30,000,000 on Monster Bash, and misses four nights; Monster Bash is
    played only in the 4th, when p1 is in the ghost regime (more than three weeks missed)."""
    async with ladder_league(sqlite_db, PLAYERS[:3], "20,000,000") as league:
        await add_machine(league, "Monster Bash")
        await premakeups(league, "p1", "Monster Bash", "30,000,000")
        for week in (1, 2, 3, 4):
            await ok(league, "/ladder absent", "p1")
            games = ["Monster Bash", *FIVE[:4]] if week == 4 else FIVE
            await play_week(league, week, {"p2": [30] * 5, "p3": [12] * 5}, games)
        monster_bash = (await results_of(league, "p1"))[3].games[0]
        # (30M + 0 + 15M) / 3: the missing 2nd game counts 0 and AVG = 15M; the ghost's official score is 0
        assert (monster_bash["kind"], monster_bash["placement"], monster_bash["official"]) == ("ghost", 15 * M, 0)


async def test_registration_and_no_shows_of_the_catalog(ten_players: RunningBot) -> None:
    """LADDER-TV-22, LADDER-AMB-24: p9 and p10 miss weeks 1 and 2 without notice (two No-Shows each) and play
    weeks 3 to 6. Week 7: p10 neither comes nor gives notice; p9, with one premakeup on game 1's machine and none on
    game 2's, checks in at 20:35 after the groups played games 1 and 2; p8 e-mails an absence notice at 14:00."""
    league = ten_players
    everyone = {name: [20 - number] * 5 for number, name in enumerate(PLAYERS)}
    for week in (1, 2):
        await play_week(league, week, {n: s for n, s in everyone.items() if n not in ("p9", "p10")})
    await open_week(league)  # week 3
    league.emulator.add_member("newbie")
    # (a) a join request during week 3
    await refused(
        league, "/ladder join skill:5", as_member="newbie", rule="LADDER-REG-1", message="Registration closed"
    )
    await enter_sheets(league, everyone)
    await ok(league, "/ladder night close", "alice")
    for week in (4, 5, 6):
        await play_week(league, week, everyone)
    await premakeups(league, "p9", "Attack from Mars", "15,000,000")
    before = await entry_of(league, "p9")
    assert (before.no_shows, before.premakeup_uses, before.missed_weeks) == (2, 0, 2)

    clock = clock_of(league)
    clock.advance(timedelta(days=7))
    day = clock.now().astimezone(NEW_YORK).date()

    def at(hour: int, minute: int) -> None:
        clock.set(datetime(day.year, day.month, day.day, hour, minute, tzinfo=NEW_YORK))

    at(14, 0)
    await ok(league, "/ladder absent", "p8")
    await open_week(league, a_week_later=False)  # week 7's night, at 14:00
    present = [name for name in PLAYERS if name not in ("p8", "p9", "p10")]
    at(19, 20)
    for name in present:
        await ok(league, "/ladder checkin", name)
    at(19, 45)
    for number, name in enumerate(present):
        await ok(league, f'/ladder score game:1 score:"{20 - number},000,000 {20 - number},000,000"', name)
    at(20, 35)
    await ok(league, "/ladder checkin", "p9")
    at(20, 40)
    for number, name in enumerate([*present, "p9"]):
        await ok(league, f'/ladder score game:3 score:"{" ".join([f"{20 - number},000,000"] * 3)}"', name)
    # (b) the groups start game 3 without p10: the 3rd No-Show drops p10, before the night closes
    p10 = await entry_of(league, "p10")
    assert (p10.no_shows, p10.status.value) == (3, "dropped")
    await ok(league, "/ladder night close", "alice")
    async with league.db.reading() as session:
        ledger = (await session.exec(select(LadderLedger).where(LadderLedger.ladder_player_id == p10.id))).all()
    # the $36 p10 paid over weeks 1-6 is forfeited
    assert [(row.kind, row.cents) for row in ledger if row.kind is LedgerKind.FORFEIT] == [(LedgerKind.FORFEIT, 3_600)]
    assert sum(row.cents for row in ledger if row.kind is LedgerKind.DUES) == 3_600
    # (c) p9 came before game 3: no No-Show; games 1 and 2 are scored as absent, a premakeup where p9 has one,
    # else a half-normalizer ghost (20M / 2) with official 0 and 0 points
    p9 = await entry_of(league, "p9")
    week7 = (await results_of(league, "p9"))[-1].games
    assert [g["kind"] for g in week7] == ["premakeup", "half_ghost", "played", "played", "played"], week7
    assert (week7[0]["placement"], week7[0]["official"]) == (15 * M, 15 * M)
    assert (week7[1]["placement"], week7[1]["official"], week7[1]["points"]) == (10 * M, 0, 0)
    # LADDER-AMB-24: each missed game slot on a premakeup uses one of the 15 (the ghost slot does not), and a week
    # with a game played is not a missed week
    assert (p9.no_shows, p9.status.value, p9.premakeup_uses, p9.missed_weeks) == (2, "active", 1, 2)
    # (d) the 14:00 notice on league day is a valid absence notice, not a No-Show
    assert (await entry_of(league, "p8")).no_shows == 0


async def test_the_premakeup_cap_and_more_than_three_missed_weeks_of_the_catalog(sqlite_db: Database) -> None:
    """LADDER-TV-23, LADDER-AMB-24: one group of p1, p2, p3 for eight weeks; p3 plays every week. (a) p1 has two
    premakeups (30M, 10M; AVG 20M) on each of the five games and misses weeks 2, 4 and 6: 15 uses. (b) p2 has two
    (12M, 18M; AVG 15M) on four of them, none on Funhouse, and misses weeks 2, 3 and 5: 12 uses, the Funhouse
    slots falling to the Zero Point Rule. Both miss week 8."""
    async with ladder_league(sqlite_db, PLAYERS[:3], "20,000,000") as league:
        for machine in FIVE:
            await premakeups(league, "p1", machine, "30,000,000", "10,000,000")
            if machine != "Funhouse":
                await premakeups(league, "p2", machine, "12,000,000", "18,000,000")
        away = {2: {"p1", "p2"}, 3: {"p2"}, 4: {"p1"}, 5: {"p2"}, 6: {"p1"}, 8: {"p1", "p2"}}
        sheets = {"p1": [25] * 5, "p2": [15] * 5, "p3": [20] * 5}
        for week in range(1, 9):
            for name in sorted(away.get(week, set())):
                await ok(league, "/ladder absent", name)
            await play_week(league, week, {n: s for n, s in sheets.items() if n not in away.get(week, set())})
            if week == 7:
                p1, p2 = await entry_of(league, "p1"), await entry_of(league, "p2")
                assert (p1.premakeup_uses, p1.missed_weeks, p2.premakeup_uses, p2.missed_weeks) == (15, 3, 12, 3)
        p2_weeks = await results_of(league, "p2")
        # (b) weeks 2, 3 and 5: Funhouse (game 5) had no premakeup left to use: a half-normalizer ghost
        assert [p2_weeks[week - 1].games[4]["kind"] for week in (2, 3, 5)] == ["half_ghost"] * 3
        # week 8: both in the ghost regime, (a) by the 15 uses, (b) as a 4th missed week with only 12 used; placed
        # by the average of S1, S2 and AVG per machine (0 without premakeups), official 0 and no points
        week8 = {name: (await results_of(league, name))[-1].games for name in ("p1", "p2")}
        assert [(g["kind"], g["placement"], g["official"], g["points"]) for g in week8["p1"]] == [
            ("ghost", 20 * M, 0, 0)
        ] * 5, week8["p1"]
        assert [(g["kind"], g["placement"], g["official"]) for g in week8["p2"]] == [("ghost", 15 * M, 0)] * 4 + [
            ("ghost", 0, 0)
        ], week8["p2"]


GROUP_TABLE = {
    8: [2, 3, 3], 9: [3, 3, 3], 10: [3, 3, 4], 11: [3, 4, 4], 12: [3, 3, 3, 3], 13: [3, 3, 3, 4], 14: [3, 3, 4, 4],
    15: [3] * 5, 16: [4] * 4, 17: [3, 3, 3, 4, 4], 18: [3] * 6, 19: [3] * 5 + [4], 20: [4] * 5,
    21: [3, 3, 3, 4, 4, 4], 22: [3, 3, 4, 4, 4, 4], 23: [3] + [4] * 5, 24: [4] * 6, 26: [3, 3, 4, 4, 4, 4, 4],
}  # fmt: skip


def group_sizes_shown(posted: str) -> list[int]:
    """The number of players listed under each group of a posted groups embed."""
    return [block.count("#") for block in re.split(r"^Group \d+", posted, flags=re.MULTILINE)[1:]]


async def test_group_sizes_of_the_catalog(sqlite_db: Database) -> None:
    """LADDER-TV-16, LADDER-AMB-11: one ladder league per player count (8 to 24, and 26) in one guild; each opens
    week 1 with its groups, top group first, sized as the sheet's table says (26: the default of seven groups)."""
    async with running_bot(sqlite_db) as league:
        clock_of(league).set(NIGHT)
        league.emulator.quiet_window = 0.001
        members = [f"m{n:02d}" for n in range(1, 27)]
        for member in members:
            league.emulator.add_member(member)
        shown = {}
        for players, sizes in GROUP_TABLE.items():
            assert sum(sizes) == players
            named = f'league:"Ladder {players}"'
            created = f'/league create name:"Ladder {players}" format:ladder commissioner_role:@Commissioner'
            await ok(league, created, "owner")
            await ok(league, f'/venue add name:"The Break" {named}', "alice")
            await ok(league, f'/machine add venue:"The Break" model:"Funhouse" {named}', "alice")
            await ok(league, f'/ladder normalizer machine:"Funhouse" value:20,000,000 {named}', "alice")
            for member in members[:players]:
                await ok(league, f"/ladder join skill:5 {named}", member)
            shown[players] = group_sizes_shown(await ok(league, f"/ladder night open {named}", "alice"))
        assert shown == GROUP_TABLE, shown


@asynccontextmanager
async def ladder_of(db: Database, players: int) -> AsyncIterator[RunningBot]:
    """The Jersey Ladder with p1 … p`players` joined, p1 the best by skill (p10 on are all skill 1, in join order)."""
    names = [f"p{n}" for n in range(1, players + 1)]
    async with ladder_league(db, names[:10], "20,000,000") as league:
        for name in names[10:]:
            league.emulator.add_member(name)
            await ok(league, "/ladder join skill:1", name)
        yield league


async def five_weeks(league: RunningBot, players: int, away: Mapping[str, range] = MappingProxyType({})) -> str:
    """Weeks 1 to 5, p`n` scoring (62 - 2n) million on every game; a player is not there in the weeks `away`
    names for them (and gives no notice). The week-5 close reply."""
    strength = {f"p{n}": 62 - 2 * n for n in range(1, players + 1)}
    for week in range(1, 6):
        sheets = {name: [s] * 5 for name, s in strength.items() if week not in away.get(name, ())}
        closed = await play_week(league, week, sheets)
    return closed


async def standings_rows(league: RunningBot) -> dict[str, tuple[int, str]]:
    """Each player's TLP and ANS as `/ladder standings` shows them."""
    table = await ok(league, "/ladder standings", "p1")
    rows = [line.split() for line in table.splitlines()]
    return {row[1].rstrip("★✖"): (int(row[2]), row[3]) for row in rows if row and row[0].isdigit()}


def split_and_groups(closed: str) -> tuple[list[list[str]], list[tuple[str, list[str]]]]:
    """From a week-5 close reply: the divisions' players (A then B) and the week-6 groups (division, players)."""
    split = closed.split("Division split")[1].split("Week 6 groups")[0]
    divisions = [line.split(": ")[-1].split(", ") for line in re.findall(r"Division [AB]: P[^\n]*", split)]
    groups = [(d, names.split(", ")) for d, names in re.findall(r"Group \d+ · Division ([AB]): (P[^\n]*)", closed)]
    return divisions, groups


async def test_division_split_of_the_catalog(sqlite_db: Database, migrated_sqlite: Path, tmp_path: Path) -> None:
    """LADDER-TV-20, LADDER-AMB-11, LADDER-AMB-33: 12 registered, p12 never comes and is dropped at the 3rd No-Show
    (week 3), so n = 11 at week 5: A gets (11 - 1) / 2 = 5, B 6. p3 and p7 are level on TLP at the boundary; p3,
    with the higher ANS, goes to A. Even case: 8 players split 4 / 4, each division two groups of 2. (n = 7: no split,
    the next test.)"""
    async with ladder_of(sqlite_db, 12) as league:
        closed = await five_weeks(league, 12, {"p12": range(1, 6)})
        assert (await entry_of(league, "p12")).status.value == "dropped"
        rows = await standings_rows(league)
        assert (rows["P3"], rows["P7"]) == ((59, "14.0000"), (59, "12.0000")), rows
        divisions, groups = split_and_groups(closed)
        assert divisions == [["P1", "P2", "P8", "P10", "P3"], ["P7", "P4", "P6", "P5", "P11", "P9"]], closed
        # LADDER-AMB-33: each division's week-6 groups are dealt by TLP rank from the top, sized for its
        # count (LADDER-AMB-11): A (5) → 2, 3; B (6) → 3, 3
        assert groups == [
            ("A", ["P1", "P2"]), ("A", ["P8", "P10", "P3"]), ("B", ["P7", "P4", "P6"]), ("B", ["P5", "P11", "P9"])
        ], closed  # fmt: skip

    even = fresh_sqlite(migrated_sqlite, tmp_path / "even.db")
    try:
        async with ladder_of(even, 8) as league:
            divisions, groups = split_and_groups(await five_weeks(league, 8))
    finally:
        await even.dispose()
    assert [len(players) for players in divisions] == [4, 4], divisions
    assert [(division, len(players)) for division, players in groups] == [("A", 2), ("A", 2), ("B", 2), ("B", 2)]
    assert [name for _, players in groups[:2] for name in players] == divisions[0], (divisions, groups)


async def test_a_split_needs_eight_players_and_a_drop_keeps_its_results(sqlite_db: Database) -> None:
    """LADDER-AMB-18: 8 registered; p8 plays week 1, then stops coming and is dropped at the 3rd No-Show in
    week 4, so n = 7 at week 5: no split. The points the others won against p8 in week 1 still count."""
    async with ladder_of(sqlite_db, 8) as league:
        closed = await five_weeks(league, 8, {"p8": range(2, 6)})
        assert (await entry_of(league, "p8")).status.value == "dropped"
        assert "Division split" not in closed and "Division A" not in closed, closed
        week1 = {r.ladder_player_id: r for r in await week_results(league, 1)}
        assert len(week1) == 8  # p8's week-1 result is kept
        rows = await standings_rows(league)
        for name in [f"p{n}" for n in range(1, 8)]:
            weeks = await results_of(league, name)
            assert weeks[0].night_id == min(r.night_id for r in week1.values())
            assert rows[name.upper()][0] == sum(r.game_points + r.bonus for r in weeks), (name, rows)


async def week_results(league: RunningBot, week: int) -> list[LadderResult]:
    async with league.db.reading() as session:
        query = select(LadderResult).where(LadderResult.night_id == LadderNight.id, LadderNight.week == week)
        return list((await session.exec(query)).all())
