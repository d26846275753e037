"""Field catalog entries played through Discord, one test each: who rules on a claim, a wiped season, rulings kept
as precedents, a replacement machine's slot, a seeding tie and the IFPA results list."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import select

from bot.clock import ManualClock
from storage.db import Database
from storage.discipline import Precedent
from storage.field import FieldCheckin, FieldMalfunction
from storage.models import Player
from tests.e2e.field.test_finals import Week, finals_setup, play_pairing
from tests.e2e.harness import RunningBot, running_bot

ZONE = ZoneInfo("America/Indiana/Indianapolis")
MACHINES = ["Godzilla", "Medieval Madness", "Attack from Mars", "Twilight Zone", "Deadpool", "Jaws"]


@asynccontextmanager
async def field_league(sqlite_db: Database, players: list[str], officials: dict[str, str]) -> AsyncIterator[RunningBot]:
    """A field league with six machines and these players registered; `officials` (member → role) hold extra
    official roles, added in that order (FIELD-OFF-1), and are registered as players too. Alice holds the
    commissioner role."""
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 6, 1, 19, 0, tzinfo=ZONE))
        league.emulator.quiet_window = 0.001
        await league.run(
            '/league create name:"LPL" format:field timezone:America/Indiana/Indianapolis '
            "commissioner_role:@Commissioner",
            as_member="owner",
        )
        for member, role in officials.items():
            league.emulator.add_role(role)
            league.emulator.add_member(member, [role])
            added = await league.run(f"/league config add_official_role:@{role}", as_member="alice")
            assert "commissioners too" in added.content, added.content
        await league.run('/venue add name:"MSA"', as_member="alice")
        for model in MACHINES:
            await league.run(f'/machine add venue:"MSA" model:"{model}"', as_member="alice")
        for name in players:
            league.emulator.add_member(name)
        for name in [*players, "alice", *officials]:
            registered = await league.run(f"/player register member:@{name}", as_member="alice")
            assert "⛔" not in registered.content, registered.content
        yield league


async def groups_of(league: RunningBot) -> dict[str, int]:
    """Tonight's (the latest night's) group of each player, by username."""
    async with league.db.reading() as session:
        names = {p.id: p.display_name.lower() for p in (await session.exec(select(Player))).all()}
        checkins = (await session.exec(select(FieldCheckin))).all()
    latest = max(c.night_id for c in checkins)
    return {names[c.player_id]: c.group_number or 0 for c in checkins if c.night_id == latest}


async def test_tv18_the_slo_is_the_highest_official_outside_the_group(sqlite_db: Database) -> None:
    """FIELD-TV-18 (SLO selection): officials checked in: President (in group 2), VP (group 4), Statistician (in
    another group). A malfunction claim in group 2 → SLO = VP; a claim in group 4 → President. In another meet
    where all three officials are in the same group, a claim there → President, flagged `involved_official`.

    Thirteen players make groups of 4, 3, 3 and 3 (FIELD-GROUP-1); the officials arrive late and each joins the
    smallest open group (FIELD-ATT-1): Alice (President) group 2, Stat group 3, Vp group 4."""
    players = [f"p{n:02d}" for n in range(1, 14)]
    async with field_league(sqlite_db, players, {"vp": "VP", "stat": "Stat"}) as league:
        await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
        for name in players:
            await league.run("/field checkin", as_member=name)
        await league.run("/field groups", as_member="alice")
        for name in ("alice", "stat", "vp"):
            await league.run("/field checkin", as_member=name)
        group = await groups_of(league)
        assert (group["alice"], group["stat"], group["vp"]) == (2, 3, 4), group
        in_two = next(p for p in players if group[p] == 2)
        in_four = next(p for p in players if group[p] == 4)
        claim = "/field malfunction machine:2 incident:catastrophic scores:stand member:@"

        asked_stat = await league.run(claim + in_two, as_member="stat")
        assert asked_stat.ephemeral and "Vp rules on this" in asked_stat.content, asked_stat.content
        asked_president = await league.run(claim + in_two, as_member="alice")
        assert asked_president.ephemeral and "Vp rules on this" in asked_president.content
        by_vp = await league.run(claim + in_two, as_member="vp")
        assert "the scores on the machine stand" in by_vp.content and "Flagged" not in by_vp.content, by_vp.content

        asked_vp = await league.run(claim + in_four, as_member="vp")
        assert asked_vp.ephemeral and "Alice rules on this" in asked_vp.content, asked_vp.content
        by_president = await league.run(claim + in_four, as_member="alice")
        assert "the scores on the machine stand" in by_president.content, by_president.content

        await league.run("/field night close missing_scores:accept", as_member="alice")
        await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
        for name in ("p01", "alice", "vp", "stat"):
            await league.run("/field checkin", as_member=name)
        await league.run("/field groups", as_member="alice")
        assert set((await groups_of(league)).values()) == {1}  # four players: one group of all three officials
        asked_vp = await league.run(claim + "p01", as_member="vp")
        assert asked_vp.ephemeral and "Alice rules on this" in asked_vp.content, asked_vp.content
        flagged = await league.run(claim + "p01", as_member="alice")
        assert "Flagged: every official present is in the group concerned" in flagged.content, flagged.content

        async with league.db.reading() as session:
            ruled = (await session.exec(select(FieldMalfunction).order_by(FieldMalfunction.id))).all()  # type: ignore[arg-type]
        emulator = league.emulator
        assert [(r.ruled_by, r.involved_official) for r in ruled] == [
            (emulator.member("vp").id, False),
            (emulator.member("alice").id, False),
            (emulator.member("alice").id, True),
        ]


async def week_points(league: RunningBot, week: int) -> dict[str, int]:
    """A night's points table of `/field night show`: display name → points."""
    sheet = (await league.run(f"/field night show week:{week}", as_member="alice")).text()
    table = sheet.split("Tonight's points")[1].split("```")[1]
    return {line.split()[1]: int(line.split()[2]) for line in table.splitlines() if line[:2].strip().isdigit()}


async def play_night(league: RunningBot, players: list[str]) -> None:
    """Open the night a week after the last, check `players` in as one group and enter a game on each of the
    five machines, `players` finishing in that order on every one."""
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(clock.now() + timedelta(days=7))
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for name in players:
        await league.run("/field checkin", as_member=name)
    await league.run("/field groups", as_member="alice")
    for machine in range(1, 6):
        pairs = " ".join(f"p{i}:@{name} s{i}:{(10 - i) * 100_000:,}" for i, name in enumerate(players, start=1))
        entered = await league.run(f"/field game machine:{machine} {pairs}", as_member="alice")
        assert "✅" in entered.content, entered.content


async def test_amb19_a_wiped_season_leaves_the_others_finalized_points_alone(sqlite_db: Database) -> None:
    """FIELD-AMB-19 (effect of a wiped season): "The player's scores are wiped" (LPL 4.3). Default: the wiped
    player's scores are removed from their own totals only; other players' game points in finalized weeks are not
    recomputed (COMMON-LEAGUE-2). Option `recompute_on_wipe`: rerank every affected machine without the wiped
    scores, logged as an explicit commissioner action (setting the option for the night of the wipe).

    Wes tops every machine in weeks 1 and 2, then commits violence in week 2 (an automatic 4th offence,
    FIELD-PEN-4): his season is forfeited."""
    players = ["wes", "p01", "p02", "p03"]
    async with field_league(sqlite_db, players[1:], {}) as league:
        league.emulator.add_member("wes")
        await league.run("/player register member:@wes", as_member="alice")
        await play_night(league, players)
        assert await week_points(league, 1) == {"Wes": 150, "P01": 120, "P02": 115, "P03": 110}
        await league.run("/field night close", as_member="alice")
        await play_night(league, players)
        wiped = await league.run("/field penalty member:@wes offence:violence", as_member="alice")
        assert "season forfeited" in wiped.content, wiped.content

        # default: the others keep the points they earned below Wes, tonight and in the finalized week 1
        assert await week_points(league, 1) == {"Wes": 150, "P01": 120, "P02": 115, "P03": 110}
        assert {n: p for n, p in (await week_points(league, 2)).items() if n != "Wes"} == {
            "P01": 120, "P02": 115, "P03": 110,
        }  # fmt: skip
        table = (await league.run("/field standings", as_member="p01")).text()
        assert "Wes" not in table and "P01" in table, table  # removed from his own totals: not in the table

        changed = await league.run("/field config option:recompute_on_wipe value:true", as_member="alice")
        assert "⛔" not in changed.content and "recompute_on_wipe" in changed.content, changed.content
        # wiped at a meet played under the option, Wes leaves every machine's ranking, the finalized week 1's too
        assert await week_points(league, 2) == {"P01": 150, "P02": 120, "P03": 115}
        assert await week_points(league, 1) == {"P01": 150, "P02": 120, "P03": 115}
        logged = [e for e in await league.audit() if "option recompute_on_wipe" in (e.reason or "")]
        assert [e.actor_id for e in logged] == [league.emulator.member("alice").id]


FINALISTS = ["ann", "ben", "cat", "dov", "eve", "vic", "wes", "hal"]  # the usual order on a machine, best first


def tv15_week(*machines: str) -> Week:
    """Each player's place on the five machines of a night: FINALISTS' order, except where a machine says "vic"
    or "wes" (that player tops it, everyone above them one place down) or "wes>vic" (wes just above vic)."""
    places: dict[str, list[int]] = {name: [] for name in FINALISTS}
    for change in (*machines, *[""] * (5 - len(machines))):
        order = list(FINALISTS)
        if change in ("vic", "wes"):
            order.remove(change)
            order.insert(0, change)
        elif change == "wes>vic":
            order[5], order[6] = "wes", "vic"
        for place, name in enumerate(order, start=1):
            places[name].append(place)
    return {name: tuple(row) for name, row in places.items()}


# vic's weeks 100, 99, 100, 106, 99, 99, 106, 100 and wes's 95, 96, 95, 109, 106, 106, 99, 95: 611 each after the
# two lowest are dropped; ann, ben, cat, dov and eve have more, hal less
TV15_WEEKS = [
    tv15_week(),
    tv15_week("wes>vic"),
    tv15_week(),
    tv15_week("vic", "wes", "wes>vic", "wes>vic", "wes>vic"),
    tv15_week("wes"),
    tv15_week("wes"),
    tv15_week("vic", "wes>vic", "wes>vic", "wes>vic", "wes>vic"),
    tv15_week(),
]


async def test_tv15_a_tie_in_the_league_rankings_gets_a_tie_breaker_game(sqlite_db: Database) -> None:
    """FIELD-TV-15 (tie in the league rankings): V and W both have 611 after drops. Both showed up for finals, and
    the tie decides seeds 6 and 7 → a random finals machine is drawn and V wins the tie-breaker game → V seed 6, W
    seed 7."""
    async with finals_setup(sqlite_db, TV15_WEEKS) as league:
        table = (await league.run("/field standings", as_member="alice")).text()
        assert " 6 Vic               611" in table and " 6 Wes               611" in table, table
        for name in FINALISTS:
            await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
        tied = await league.run("/field finals seed", as_member="alice")
        assert tied.ephemeral and "Vic and Wes are level on points" in tied.content, tied.content
        drawn = tied.content.split(" game on ")[1].split(" (drawn at random, seed ")[0]
        assert drawn in MACHINES, tied.content  # a finals machine, drawn with its seed logged
        await league.run("/field finals tiebreak first:@vic second:@wes", as_member="alice")
        seeded = (await league.run("/field finals seed", as_member="alice")).text()
        assert "5. Eve\n6. Vic\n7. Wes\n8. Hal" in seeded, seeded


async def test_tv15_without_w_at_the_finals_there_is_no_tie_breaker(sqlite_db: Database) -> None:
    """FIELD-TV-15 / FIELD-AMB-10: "If W had not shown up → no tie-breaker (V is seeded, W isn't)"."""
    async with finals_setup(sqlite_db, TV15_WEEKS) as league:
        for name in FINALISTS:
            if name != "wes":
                await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
        seeded = await league.run("/field finals seed", as_member="alice")
        assert not seeded.ephemeral and "6. Vic\n7. Hal" in seeded.text() and "Wes" not in seeded.text(), seeded.text()


SEEDS = [f"s{n:02d}" for n in range(1, 14)]  # s01 … s11 are the finalists by seed; s12 and s13 do not play
# who beats whom in the finals: s03 beats everyone, s01 everyone else, and so on
STRENGTH = ["s03", "s01", "s02", "s05", "s04", "s07", "s06", "s09", "s08", "s10", "s11"]
READY = re.compile(r"`([^`]+)` \(\d+\) (\S+) v \(\d+\) (\S+) \(")


async def test_tv19_the_ifpa_results_list_finalists_then_the_league(sqlite_db: Database) -> None:
    """FIELD-TV-19 (IFPA export) [FIELD-AMB-4]: 13 members, 11 finalists. Finals: 1 S3, 2 S1, 3 S2, 4 S5, 5–6
    {S4, S7}, 7–8 {S6, S9}, 9–12 {S8, S10, S11}. Non-finalists by league rank: S12 (league rank 6, didn't attend)
    → position 12; S13 (played 2 weeks) → position 13. Output: 1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 12, 13.

    Four nights with the same order on every machine: s01 … s05, s12, s06 … s11, and s13 in the first two only.
    In every pairing the player earlier in STRENGTH wins."""
    order = [*SEEDS[:5], "s12", *SEEDS[5:11]]
    weeks = [{name: place for place, name in enumerate(order + ["s13"] * (week < 2), start=1)} for week in range(4)]
    async with finals_setup(sqlite_db, weeks) as league:
        for name in SEEDS[:11]:
            await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
        seeded = (await league.run("/field finals seed", as_member="alice")).text()
        assert "1. S01\n2. S02" in seeded and "11. S11" in seeded, seeded
        played = 0
        while ready := READY.findall((await league.run("/field finals show", as_member="alice")).text()):
            for code, top, bottom in ready:
                winner, loser = sorted((top.lower(), bottom.lower()), key=STRENGTH.index)
                await play_pairing(league, code, winner, loser)
                played += 1
        assert played == 20  # 11 players, double elimination: everyone but the champion loses twice, no reset
        results = (await league.run("/field finals show", as_member="alice")).text().split("IFPA results")[1]
        rows = [line.split() for line in results.split("```")[1].strip().splitlines()]
        assert [int(row[0]) for row in rows] == [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 12, 13]
        bands: dict[int, set[str]] = {}
        for row in rows:
            bands.setdefault(int(row[0]), set()).add(row[1])
        assert bands == {
            1: {"S03"}, 2: {"S01"}, 3: {"S02"}, 4: {"S05"}, 5: {"S04", "S07"}, 7: {"S06", "S09"},
            9: {"S08", "S10", "S11"}, 12: {"S12"}, 13: {"S13"},
        }  # fmt: skip
        assert [row[2:] for row in rows[11:]] == [["(league)"], ["(league)"]]


async def test_off3_a_ruling_is_documented_and_shown_again(sqlite_db: Database) -> None:
    """FIELD-OFF-3: rulings on situations the rules do not cover are documented and shown again when the same
    situation comes up (COMMON-RULING-1). LPL 1.2: the SLO's decision "shall be documented for later reference,
    and be applied consistently should the situation arise again"."""
    async with field_league(sqlite_db, ["p01"], {}) as league:
        spill = '/field ruling situation:"A beer spilled into the coin door mid-game" machine:5'
        player = await league.run(spill, as_member="p01")
        assert player.ephemeral and "COMMON-ROLE-1" in player.content, player.content
        first = await league.run(spill, as_member="alice")
        assert first.ephemeral and "No earlier ruling on a similar situation" in first.content, first.content
        assert await precedents(league) == []

        documented = await league.run(
            spill + ' kind:machine ruling:"The group replays the game on Jaws"', as_member="alice"
        )
        assert not documented.ephemeral and "documented as precedent #1" in documented.content, documented.content
        crowd = '/field ruling situation:"A spectator leaned on the cabinet" rule:field-pen-12'
        await league.run(crowd + ' ruling:"A distraction: no remedy"', as_member="alice")
        assert [(p.kind, p.rule_id, p.machine_family, p.ruling) for p in await precedents(league)] == [
            ("machine", None, "deadpool", "The group replays the game on Jaws"),
            ("other", "FIELD-PEN-12", None, "A distraction: no remedy"),
        ]

        again = await league.run(
            '/field ruling situation:"Soda on the glass" kind:machine machine:5', as_member="alice"
        )
        assert again.ephemeral and "Precedent #1 (machine, deadpool)" in again.content, again.content
        assert "The group replays the game on Jaws" in again.content and "#2" not in again.content
        by_rule = await league.run(
            '/field ruling situation:"Someone bumped the machine" rule:FIELD-PEN-12', as_member="alice"
        )
        assert "Precedent #2 (other, FIELD-PEN-12)" in by_rule.content and "#1" not in by_rule.content
        assert len(await precedents(league)) == 2  # looking up records nothing


async def precedents(league: RunningBot) -> list[Precedent]:
    async with league.db.reading() as session:
        return list((await session.exec(select(Precedent).order_by(Precedent.id))).all())  # type: ignore[arg-type]


async def test_amb12_the_replacement_machine_and_its_slot(sqlite_db: Database) -> None:
    """FIELD-AMB-12 (replacement machine constraints and existing scores): LPL 7.2 cuts off before listing the
    constraints. Default constraints: working, not already selected that meet, and not declared unplayable. Every
    player in the field plays the replacement, and scores already posted on the unplayable machine are voided for
    that slot. If not all players can play it, the SLO may void the slot for everyone (0 points to all on that
    slot), with logging."""
    players = ["p01", "p02", "p03"]
    async with field_league(sqlite_db, players, {}) as league:
        await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
        for name in players:
            await league.run("/field checkin", as_member=name)
        await league.run("/field groups", as_member="alice")
        for machine in range(1, 6):
            pairs = " ".join(f"p{i}:@{name} s{i}:{(10 - i) * 100_000:,}" for i, name in enumerate(players, start=1))
            await league.run(f"/field game machine:{machine} {pairs}", as_member="alice")
        assert await week_points(league, 1) == {"P01": 150, "P02": 120, "P03": 115}
        void = '/field ruling situation:"Not everyone can play the replacement" kind:void_slot machine:6 ruling:"Void"'
        early = await league.run(void, as_member="alice")
        assert early.ephemeral and "FIELD-AMB-12" in early.content and "declared unplayable" in early.content

        down = await league.run(
            "/field malfunction machine:1 incident:ball_launched_early first_balls_lost:3", as_member="p01"
        )
        assert "Declared unplayable" in down.content, down.content
        selected = await league.run("/field night machines m1:2 m2:6 m3:3 m4:4 m5:5", as_member="alice")
        assert selected.ephemeral and "FIELD-AMB-12" in selected.content, selected.content
        assert "Medieval Madness is already one of tonight's machines" in selected.content
        unplayable = await league.run("/field night machines m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
        assert unplayable.ephemeral and "Godzilla is not working" in unplayable.content, unplayable.content
        replaced = await league.run("/field night machines m1:6 m2:2 m3:3 m4:4 m5:5", as_member="alice")
        assert "Tonight's machines changed" in replaced.content, replaced.content
        # Godzilla's scores are void for the slot; everyone owes a score on Jaws
        assert await week_points(league, 1) == {"P01": 120, "P02": 96, "P03": 92}
        owed = await league.run("/field night close", as_member="alice")
        assert owed.ephemeral and "P01: Jaws; P02: Jaws; P03: Jaws" in owed.content, owed.content

        await league.run("/field score machine:6 score:5,000,000", as_member="p01")
        assert (await week_points(league, 1))["P01"] == 150
        voided = await league.run(void.replace('"Void"', '"Jaws broke after one game: slot void"'), as_member="alice")
        assert "Jaws's slot is void for everyone tonight" in voided.content, voided.content
        assert await week_points(league, 1) == {"P01": 120, "P02": 96, "P03": 92}  # 0 points to all on the slot
        closed = await league.run("/field night close", as_member="alice")
        assert "Night closed" in closed.content, closed.content
        logged = [e for e in await league.audit() if e.action == "slot_void"]
        assert [(e.actor_id, e.reason) for e in logged] == [
            (league.emulator.member("alice").id, "Jaws broke after one game: slot void")
        ]
