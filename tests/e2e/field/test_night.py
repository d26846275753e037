"""A field league night through Discord: ten members and a guest, a tie on a machine settled by a one-ball
playoff, and a death-save penalty (FIELD-MSEL-1, FIELD-ATT-1/3, FIELD-GROUP-1, FIELD-SCORE-1/2/3/6,
FIELD-PEN-9, FIELD-AMB-3/11, FIELD-STAND-1)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from storage.db import Database
from storage.field import FieldCheckin, FieldNight, FieldScore, NightState
from storage.models import Player
from tests.e2e.harness import RunningBot, running_bot

ZONE = ZoneInfo("America/Indiana/Indianapolis")
MACHINES = ["Godzilla", "Medieval Madness", "Attack from Mars", "Twilight Zone", "Deadpool", "Jaws"]
MEMBERS = [f"p{n:02d}" for n in range(1, 11)]
GUEST = "gus"


def score(player: int, machine: int) -> int:
    """Player 1 best everywhere; on machine 1, p03 and p04 tie exactly and the guest tops the field."""
    if machine == 1 and player in (3, 4):
        return 97_000
    return (100 - player) * 1000 + machine


@pytest.fixture
async def field_league(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 6, 1, 19, 0, tzinfo=ZONE))
        league.emulator.quiet_window = 0.001
        created = await league.run(
            '/league create name:"LPL" format:field timezone:America/Indiana/Indianapolis '
            "commissioner_role:@Commissioner",
            as_member="owner",
        )
        assert "field" in created.content, created.content
        await league.run('/venue add name:"MSA"', as_member="alice")
        for model in MACHINES:
            await league.run(f'/machine add venue:"MSA" model:"{model}"', as_member="alice")
        for name in [*MEMBERS, GUEST]:
            league.emulator.add_member(name)
        for name in MEMBERS:
            registered = await league.run(f"/player register member:@{name}", as_member="alice")
            assert "⛔" not in registered.content, registered.content
        yield league


async def test_a_ten_player_night_with_a_tie_a_guest_and_a_penalty(field_league: RunningBot) -> None:
    league = field_league
    four = await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:1", as_member="alice")
    assert "FIELD-MSEL-1" in four.content and four.ephemeral  # a machine twice is refused
    opened = await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    assert "Week 1" in opened.text() and "Godzilla" in opened.text()

    for name in MEMBERS:
        checked = await league.run("/field checkin", as_member=name)
        assert "checked in" in checked.content, checked.content
    unapproved = await league.run(f"/field guest member:@{GUEST}", as_member="p01")
    assert unapproved.ephemeral and "COMMON-ROLE-1" in unapproved.content
    guest = await league.run(f"/field guest member:@{GUEST}", as_member="alice")
    assert "guest" in guest.content

    grouped = await league.run("/field groups", as_member="alice")
    async with league.db.reading() as session:
        checkins = (await session.exec(select(FieldCheckin))).all()
    sizes = sorted(sum(1 for c in checkins if c.group_number == n) for n in {c.group_number for c in checkins})
    assert sizes == [3, 4, 4], grouped.text()  # FIELD-GROUP-1: 10 members in 4 + 3 + 3, the guest fills a 3
    guest_checkin = next(c for c in checkins if c.guest)
    assert guest_checkin.approved_by == league.emulator.member("alice").id  # FIELD-ATT-3

    group_of = {c.player_id: c.group_number for c in checkins}
    async with league.db.reading() as session:
        ids = {p.display_name: p.id for p in (await session.exec(select(Player))).all()}
    other = next(n for n in MEMBERS if group_of[ids[n.upper()]] != group_of[ids["P10"]])
    mixed = await league.run(f"/field game machine:1 p1:@p10 s1:5 p2:@{other} s2:6", as_member="alice")
    assert mixed.ephemeral and "FIELD-SCORE-1" in mixed.content and "different groups" in mixed.content
    async with league.db.reading() as session:
        assert (await session.exec(select(FieldScore))).all() == []  # neither score stored

    for number, name in enumerate(MEMBERS, start=1):
        for machine in range(1, 6):
            entered = await league.run(
                f"/field score machine:{machine} score:{score(number, machine):,}", as_member=name
            )
            assert "✅" in entered.content, entered.content
    for machine in range(1, 6):
        value = 200_000 if machine == 1 else 1_000
        entered = await league.run(f"/field game machine:{machine} p1:@{GUEST} s1:{value}", as_member="alice")
        assert "✅" in entered.content, entered.content

    again = await league.run("/field score machine:1 score:5", as_member="p01")
    assert again.ephemeral and "FIELD-SCORE-1" in again.content and "already has a score on Godzilla" in again.content
    outsider = await league.run(f"/field score machine:1 score:5 member:@{other}", as_member="p10")
    assert outsider.ephemeral and "own group" in outsider.content

    penalty = await league.run(
        "/field penalty member:@p07 offence:death_save machine:2 note:bangback", as_member="alice"
    )
    assert "ranked last" in penalty.content and not penalty.ephemeral

    sheet = (await league.run("/field night show", as_member="p05")).text()
    assert "One-ball playoffs" in sheet and "P03 v P04" in sheet
    assert "114*" in sheet and "110*" in sheet  # both tied players provisional on 22 (FIELD-SCORE-3)

    refused = await league.run("/field night close", as_member="alice")
    assert refused.ephemeral and "FIELD-SCORE-3" in refused.content
    not_tied = await league.run("/field tiebreak machine:2 first:@p04 second:@p03", as_member="p04")
    assert not_tied.ephemeral and "FIELD-SCORE-3" in not_tied.content
    playoff = await league.run("/field tiebreak machine:1 first:@p04 second:@p03", as_member="p04")
    assert "Playoff recorded" in playoff.content, playoff.content
    closed = await league.run("/field night close", as_member="alice")
    text = closed.text()
    assert "final" in text and "*" not in text.split("Tonight's points")[1]

    rows = {line.split()[1]: line.split() for line in text.splitlines() if line[:2].strip().isdigit()}
    # p01: 2nd behind the guest on Godzilla (24), first elsewhere (4 x 30); guest 30 + 16 + 3 x 15
    assert rows["P01"][2] == "144" and rows["Gus"][2:4] == ["91", "guest"]
    assert rows["P03"][2] == "113" and rows["P04"][2] == "110"  # playoff: p04 22, p03 21 on Godzilla
    # FIELD-PEN-9: the death save zeroes P07's Medieval Madness score; FIELD-SCORE-6: that zero still ranks,
    # below every non-zero score, 11th of 11 → 15 points (FIELD-AMB-3): 18 + 3 x 19 + 15
    assert rows["P07"][2] == "90"

    standings = (await league.run("/field standings", as_member="p05")).text()
    assert "P01" in standings and "144" in standings and "Gus" not in standings  # FIELD-AMB-11
    async with league.db.reading() as session:
        night = (await session.exec(select(FieldNight))).one()
        assert night.state is NightState.CLOSED
        assert len((await session.exec(select(FieldScore))).all()) == 55
    late = await league.run("/field score machine:1 score:5", as_member="p01")
    assert late.ephemeral and "No league night is open" in late.content


async def test_options_are_set_from_discord_and_apply(field_league: RunningBot) -> None:
    """FIELD-CFG-1: the defaults are configurable; COMMON-AMB-5: `require_commas` turned on refuses plain digits."""
    league = field_league
    listed = await league.run("/field config", as_member="p01")
    assert listed.ephemeral and "top_points = 25" in listed.content and "drop_lowest_weeks = 2" in listed.content
    player = await league.run("/field config option:require_commas value:true", as_member="p01")
    assert player.ephemeral and "COMMON-ROLE-1" in player.content
    bad = await league.run("/field config option:payout_percents value:[60,30]", as_member="alice")
    assert bad.ephemeral and "payout_percents" in bad.content and "100" in bad.content
    changed = await league.run("/field config option:require_commas value:true", as_member="alice")
    assert "require_commas = True (changed)" in changed.content
    await league.run("/field config option:regular_weeks value:1", as_member="alice")
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    await league.run("/field checkin", as_member="p01")
    plain = await league.run("/field score machine:1 score:1234560", as_member="p01")
    assert plain.ephemeral and "COMMON-AMB-5" in plain.content
    grouped = await league.run("/field score machine:1 score:1,234,560", as_member="p01")
    assert "1,234,560" in grouped.content and not grouped.ephemeral
    assert "P01" in (await league.run("/field night show", as_member="p01")).text()
    await league.run("/field night close missing_scores:accept", as_member="alice")  # only p01 played
    ninth = await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    assert ninth.ephemeral and "FIELD-CFG-1" in ninth.content and "1 weeks" in ninth.content


async def test_a_replacement_machine_voids_the_slot_field_msel_4(field_league: RunningBot) -> None:
    """FIELD-MSEL-4 / FIELD-AMB-12: Godzilla becomes unplayable; Jaws replaces it and the scores already posted
    on Godzilla stop counting; a machine already in the night cannot be the replacement."""
    league = field_league
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    await league.run("/field checkin", as_member="p01")
    await league.run("/field score machine:1 score:1,000", as_member="p01")
    twice = await league.run("/field night machines m1:2 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    assert twice.ephemeral and "FIELD-MSEL-1" in twice.content
    replaced = await league.run("/field night machines m1:6 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    assert "Jaws" in replaced.text() and "Tonight's points" not in replaced.text()
    again = await league.run("/field score machine:6 score:2,000", as_member="p01")
    assert "Jaws" in again.content and not again.ephemeral
    old = await league.run("/field score machine:1 score:3,000", as_member="p01")
    assert old.ephemeral and "FIELD-MSEL-1" in old.content


async def test_score_autocomplete_offers_tonights_machines_only(field_league: RunningBot) -> None:
    """FIELD-MSEL-1: `/field score machine:` offers the open night's five machines (read from that night alone,
    since autocomplete cannot defer); with no night open it offers nothing."""
    league = field_league
    emulator = league.emulator
    assert await emulator.autocomplete("/field score machine:", focused="machine", as_member="p01") == []
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    await league.run("/field night machines m1:6 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    offered = await emulator.autocomplete("/field score machine:", focused="machine", as_member="p01")
    assert [choice["value"] for choice in offered] == [6, 2, 3, 4, 5]


async def test_a_major_malfunction_a_replay_and_the_maintenance_sheet_field_malf_2(field_league: RunningBot) -> None:
    """FIELD-MALF-1/2/7, FIELD-TV-20: a major malfunction is logged; the group replays and the replay score
    replaces the first even when lower; an announced problem is never major; the sheet lists both."""
    league = field_league
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    await league.run("/field checkin", as_member="p01")
    outsider = await league.run("/field malfunction machine:1 incident:ball_launched_early", as_member="p02")
    assert outsider.ephemeral and "Check in tonight" in outsider.content
    major = await league.run(
        '/field malfunction machine:1 incident:ball_launched_early note:"autolaunch on ball 2"', as_member="p01"
    )
    assert "Major malfunction (FIELD-MALF-1)" in major.content and not major.ephemeral
    await league.run("/field score machine:1 score:5,000,000", as_member="p01")
    player_replay = await league.run("/field score machine:1 score:3,200,000 replay:true", as_member="p01")
    assert player_replay.ephemeral and "COMMON-ROLE-1" in player_replay.content
    replay = await league.run("/field score machine:1 score:3,200,000 member:@p01 replay:true", as_member="alice")
    assert "Replay (replaces the first score" in replay.content and "3,200,000" in replay.content
    announced = await league.run(
        "/field malfunction machine:2 incident:turn_ended_with_ball_in_play announced:true", as_member="p01"
    )
    assert "Not a major malfunction" in announced.content
    sheet = await league.run("/field maintenance", as_member="p05")
    assert "Week 1 Godzilla: ball launched early (major) — autolaunch on ball 2" in sheet.content
    assert "Medieval Madness: turn ended with ball in play (minor)" in sheet.content
    async with league.db.reading() as session:
        scores = (await session.exec(select(FieldScore).order_by(FieldScore.attempt))).all()
    assert [(s.attempt, s.score) for s in scores] == [(1, 5_000_000), (2, 3_200_000)]
    shown = (await league.run("/field night show", as_member="p01")).text()
    assert "P01" in shown and "30" in shown


async def test_tv16_a_score_correction_needs_the_whole_group_field_score_4(field_league: RunningBot) -> None:
    """FIELD-TV-16 / FIELD-SCORE-4 / COMMON-SCORE-3: X's 123,456 was really 1,234,560; X, Y and Z confirm
    and points are recomputed; an objection or 48 h of silence keep the score; officials cannot confirm."""
    league = field_league
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for name in ("p01", "p02", "p03"):
        await league.run("/field checkin", as_member=name)
    await league.run("/field groups", as_member="alice")
    for name, value in (("p01", "123,456"), ("p02", "500,000"), ("p03", "400,000")):
        await league.run(f"/field score machine:5 score:{value}", as_member=name)
    asked = await league.run(
        '/field correct machine:5 member:@p01 score:1,234,560 reason:"a digit left off the sheet"', as_member="p02"
    )
    assert "Waiting for P01, P03" in asked.content and "#1" in asked.content
    official = await league.run("/field confirm correction:1 agree:true", as_member="alice")
    assert official.ephemeral and "officials cannot confirm" in official.content
    await league.run("/field confirm correction:1 agree:true", as_member="p01")
    done = await league.run("/field confirm correction:1 agree:true", as_member="p03")
    assert "every player of the group confirmed" in done.content
    sheet = (await league.run("/field night show", as_member="p01")).text()
    assert sheet.index("P01") < sheet.index("P02")  # 1,234,560 now tops Deadpool
    async with league.db.reading() as session:
        first = (await session.exec(select(FieldScore).where(FieldScore.score == 123_456))).one()
    assert first.attempt == 1  # the score as written is kept

    await league.run('/field correct machine:5 member:@p02 score:5,000,000 reason:"misread"', as_member="p02")
    refused = await league.run("/field confirm correction:2 agree:false", as_member="p03")
    assert "stays as written" in refused.content
    late = await league.run('/field correct machine:5 member:@p03 score:4,000,000 reason:"misread"', as_member="p03")
    assert "#3" in late.content
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.advance(timedelta(hours=49))
    expired = await league.run("/field confirm correction:3 agree:true", as_member="p01")
    assert expired.ephemeral and "already refused" in expired.content
    sheet = (await league.run("/field night show", as_member="p01")).text()
    assert sheet.index("P01") < sheet.index("P02") < sheet.index("P03")


async def test_closing_with_scores_missing_lists_them_and_needs_a_confirmation(field_league: RunningBot) -> None:
    """FIELD-SCORE-5: a night whose checked-in players lack scores is not closed silently: the refusal lists
    who lacks which machine, the night stays open, and `missing_scores:accept` closes it with those as none."""
    league = field_league
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for name in ("p01", "p02"):
        await league.run("/field checkin", as_member=name)
    for machine in (1, 2):
        entered = await league.run(f"/field score machine:{machine} score:1,000,000", as_member="p01")
        assert "✅" in entered.content, entered.content
    refused = await league.run("/field night close", as_member="alice")
    assert refused.ephemeral and "FIELD-SCORE-5" in refused.content, refused.content
    assert "P01: Attack from Mars, Twilight Zone, Deadpool; P02: every machine" in refused.content, refused.content
    async with league.db.reading() as session:
        assert (await session.exec(select(FieldNight))).one().state is NightState.OPEN
    closed = await league.run("/field night close missing_scores:accept", as_member="alice")
    assert "Night closed" in closed.content, closed.content
    async with league.db.reading() as session:
        assert (await session.exec(select(FieldNight))).one().state is NightState.CLOSED


async def test_the_first_weeks_rank_by_the_running_total(field_league: RunningBot) -> None:
    """FIELD-STAND-1: after one night every total is 0 once two weeks are dropped; the table goes by the running
    total instead of listing everyone first on 0, and says so."""
    league = field_league
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for number, name in enumerate(("p01", "p02", "p03"), start=1):
        await league.run("/field checkin", as_member=name)
        for machine in range(1, 6):
            await league.run(f"/field score machine:{machine} score:{score(4 - number, machine):,}", as_member=name)
    closed = await league.run("/field night close", as_member="alice")
    assert "Night closed" in closed.content, closed.content
    table = (await league.run("/field standings", as_member="p02")).text()
    assert "goes by the running (raw) total" in table, table
    ranks = [line.split()[:3] for line in table.splitlines() if " P0" in line]
    assert ranks == [["1", "P03", "0"], ["2", "P02", "0"], ["3", "P01", "0"]], table


async def test_tv17_scores_after_closing_time_are_not_recorded(field_league: RunningBot) -> None:
    """FIELD-TV-17: the venue closes at 00:00; a score entered for a game ended at 00:12 is refused."""
    league = field_league
    changed = await league.run("/field config option:closing_time value:00:00", as_member="alice")
    assert "⛔" not in changed.content, changed.content
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    await league.run("/field checkin", as_member="p01")
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime(2027, 6, 1, 23, 50, tzinfo=ZONE))
    before = await league.run("/field score machine:1 score:1,000", as_member="p01")
    assert "✅" in before.content, before.content
    clock.set(datetime(2027, 6, 2, 0, 12, tzinfo=ZONE))
    after = await league.run("/field score machine:2 score:1,000", as_member="p01")
    # FIELD-ATT-2, FIELD-TV-17: past closing time on the meet date nothing is recorded
    assert after.ephemeral and "Scores after closing time (00:00) are not recorded" in after.content, after.content
    async with league.db.reading() as session:
        assert [s.machine_id for s in (await session.exec(select(FieldScore))).all()] == [1]


async def test_tv6_group_sizes_for_five_nine_and_two_players(field_league: RunningBot) -> None:
    """FIELD-TV-6 / FIELD-AMB-1: one night each with 5, 9 and 2 members checked in."""
    league = field_league
    dealt: dict[int, tuple[list[int], str]] = {}
    for week, present in enumerate((5, 9, 2), start=1):
        await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
        for name in MEMBERS[:present]:
            await league.run("/field checkin", as_member=name)
        grouped = (await league.run("/field groups", as_member="alice")).text()
        async with league.db.reading() as session:
            night = (await session.exec(select(FieldNight).where(FieldNight.week == week))).one()
            query = select(FieldCheckin).where(FieldCheckin.night_id == night.id)
            numbers = [c.group_number for c in (await session.exec(query)).all()]
        dealt[present] = (sorted((numbers.count(n) for n in set(numbers)), reverse=True), grouped)
        closed = await league.run("/field night close missing_scores:accept", as_member="alice")
        assert "Night closed" in closed.content, closed.content
    # FIELD-AMB-1, FIELD-TV-6: 5 → [3, 2] (no 4 + 1); 9 → [3, 3, 3]; 2 → one group of 2, with a warning
    assert dealt[5][0] == [3, 2] and dealt[9][0] == [3, 3, 3] and dealt[2][0] == [2], dealt
    assert "Only 2 checked in: the rules are designed for three players or more" in dealt[2][1], dealt[2][1]


async def test_tv1_one_machine_six_players_and_a_tie_broken_by_a_playoff(field_league: RunningBot) -> None:
    """FIELD-TV-1: on Godzilla A 1,200,000; B 950,000; C 2,400,000; D 300,000; E 950,000; F 1,000,000."""
    league = field_league
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    players = dict(zip("ABCDEF", MEMBERS, strict=False))
    for name in players.values():
        await league.run("/field checkin", as_member=name)
    await league.run("/field groups", as_member="alice")
    scores = {"A": 1_200_000, "B": 950_000, "C": 2_400_000, "D": 300_000, "E": 950_000, "F": 1_000_000}
    for letter, value in scores.items():
        entered = await league.run(f"/field score machine:1 score:{value:,}", as_member=players[letter])
        assert "✅" in entered.content, entered.content

    def points(sheet: str) -> dict[str, str]:
        table = sheet.split("Tonight's points")[1].split("```")[1]
        by_name = {line.split()[1]: line.split()[2] for line in table.splitlines() if line[:2].strip().isdigit()}
        return {letter: by_name[name.upper()] for letter, name in players.items()}

    tied = points((await league.run("/field night show", as_member="p01")).text())
    # FIELD-TV-1: until the playoff is entered, B and E (tied on 950,000) are provisional
    assert tied["B"].endswith("*") and tied["E"].endswith("*"), tied
    order = f"first:@{players['E']} second:@{players['B']}"
    playoff = await league.run(f"/field tiebreak machine:1 {order}", as_member="p05")
    assert "Playoff recorded" in playoff.content, playoff.content
    final = points((await league.run("/field night show", as_member="p01")).text())
    # FIELD-TV-1: E wins the playoff: C 30 (25 + 5), A 24, F 23, E 22, B 21, D 20 (sum 140)
    assert final == {"C": "30", "A": "24", "F": "23", "E": "22", "B": "21", "D": "20"}, final


async def tonights_points(league: RunningBot) -> dict[str, str]:
    """`/field night show`'s points table: display name → points."""
    sheet = (await league.run("/field night show", as_member="alice")).text()
    table = sheet.split("Tonight's points")[1].split("```")[1]
    return {line.split()[1]: line.split()[2] for line in table.splitlines() if line[:2].strip().isdigit()}


async def test_tv12_a_death_save_zero_ranks_last_unless_zeros_take_no_rank(field_league: RunningBot) -> None:
    """FIELD-TV-12: a field of 10 on Medieval Madness; U (P10)'s score is zeroed by a death save."""
    league = field_league
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for number, name in enumerate(MEMBERS, start=1):
        await league.run("/field checkin", as_member=name)
        entered = await league.run(f"/field score machine:2 score:{(20 - number) * 1000:,}", as_member=name)
        assert "✅" in entered.content, entered.content
    await league.run("/field penalty member:@p10 offence:death_save machine:2", as_member="alice")
    others = ["30", "24", "23", "22", "21", "20", "19", "18", "17"]
    ranked = await tonights_points(league)
    # FIELD-TV-12: the other 9 rank 1–9; by default U's zero is rank 10 → 16 points
    assert [ranked[name.upper()] for name in MEMBERS] == [*others, "16"], ranked
    await league.run("/field config option:zero_no_rank_all value:true", as_member="alice")
    unranked = await tonights_points(league)
    # FIELD-TV-12: with `zero_no_rank_all` U gets 0 and takes no rank; the others are unchanged
    assert [unranked[name.upper()] for name in MEMBERS] == [*others, "0"], unranked


async def test_tv13_a_guest_takes_the_top_points_and_is_left_out_of_the_standings(field_league: RunningBot) -> None:
    """FIELD-TV-13: 5 members and a guest; the guest has the top score on Medieval Madness."""
    league = field_league
    await league.run("/field config option:regular_weeks value:1", as_member="alice")
    await league.run("/field config option:drop_lowest_weeks value:0", as_member="alice")
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for number, name in enumerate(MEMBERS[:5], start=1):
        await league.run("/field checkin", as_member=name)
        await league.run(f"/field score machine:2 score:{(20 - number) * 1000:,}", as_member=name)
    await league.run(f"/field guest member:@{GUEST}", as_member="alice")
    await league.run(f"/field game machine:2 p1:@{GUEST} s1:50,000", as_member="alice")
    points = await tonights_points(league)
    # FIELD-TV-13: guest 30, the members 24, 23, 22, 21, 20
    assert [points[n] for n in ("Gus", "P01", "P02", "P03", "P04", "P05")] == ["30", "24", "23", "22", "21", "20"]
    await league.run("/field night close missing_scores:accept", as_member="alice")
    table = (await league.run("/field standings", as_member="p01")).text()
    rows = [line.split()[:3] for line in table.split("Season:")[1].splitlines() if line[:2].strip().isdigit()]
    # FIELD-TV-13, FIELD-AMB-11: the guest is not in the season standings; the members keep those points
    assert rows == [["1", "P01", "24"], ["2", "P02", "23"], ["3", "P03", "22"], ["4", "P04", "21"],
                    ["5", "P05", "20"]], table  # fmt: skip


async def test_tv3_a_weekly_score_and_the_perfect_week(field_league: RunningBot) -> None:
    """FIELD-TV-3: in a field of 7, P01 ranks 1, 3, 2, 7 and 1 on the five machines."""
    league = field_league
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for name in MEMBERS[:7]:
        await league.run("/field checkin", as_member=name)
    for machine, rank in enumerate((1, 3, 2, 7, 1), start=1):
        # the others score 98,000 (P02) down to 93,000 (P07); P01 slots in at `rank`
        values = {"p01": (101 - rank) * 1000 - 1500} | {f"p0{k}": (100 - k) * 1000 for k in range(2, 8)}
        for name, value in values.items():
            entered = await league.run(f"/field score machine:{machine} score:{value:,}", as_member=name)
            assert "✅" in entered.content, entered.content
    sheet = (await league.run("/field night show", as_member="alice")).text()
    # FIELD-TV-3: a perfect week is 5 x 30 = 150, and P01's week is 30 + 23 + 24 + 19 + 30 = 126
    assert "(a perfect week: 150)" in sheet, sheet
    assert (await tonights_points(league))["P01"] == "126"


async def test_tv2_a_field_of_28_gives_nothing_from_rank_26_on(field_league: RunningBot) -> None:
    """FIELD-TV-2: 28 players on Godzilla, P01 best down to the 28th."""
    league = field_league
    names = [*MEMBERS, *(f"q{n:02d}" for n in range(11, 29))]
    for name in names[10:]:
        league.emulator.add_member(name)
        await league.run(f"/player register member:@{name}", as_member="alice")
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for place, name in enumerate(names, start=1):
        await league.run("/field checkin", as_member=name)
        entered = await league.run(f"/field score machine:1 score:{(100 - place) * 1000:,}", as_member=name)
        assert "✅" in entered.content, entered.content
    points = await tonights_points(league)
    # FIELD-TV-2: rank 1 → 30, rank 25 → 1, ranks 26, 27 and 28 → 0
    assert [points[name.capitalize()] for name in names[24:]] == ["1", "0", "0", "0"], points
    assert points["P01"] == "30"


async def test_tv11_an_opponents_ball_counts_per_meet(field_league: RunningBot) -> None:
    """FIELD-TV-11: player T (P01) plays P02's ball on Godzilla and on Twilight Zone in meet 1, and again in
    meet 2."""
    league = field_league
    for week in (1, 2):
        await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
        for name in ("p01", "p02"):
            await league.run("/field checkin", as_member=name)
        await league.run("/field groups", as_member="alice")
        for machine in (1, 4):
            await league.run(f"/field game machine:{machine} p1:@p01 s1:5,000 p2:@p02 s2:4,000", as_member="alice")
        first = await league.run(
            "/field penalty member:@p01 offence:opponent_ball machine:1 choice:replay", as_member="alice"
        )
        # FIELD-TV-11: a 1st offence in a meet has no score penalty (in meet 1 the victim chose to replay)
        assert "(offence 1) — recorded, no score penalty" in first.content, first.content
        if week == 1:
            assert "replays the game" in first.content, first.content
            second = await league.run("/field penalty member:@p01 offence:opponent_ball machine:4", as_member="alice")
            # FIELD-TV-11: the 2nd offence in the same meet zeroes T's Twilight Zone score (ranked last: 24)
            assert "(offence 2) — machine score 0" in second.content, second.content
            points = await tonights_points(league)
            assert points["P01"] == "24" and points["P02"] == "30", points
            await league.run("/field night close missing_scores:accept", as_member="alice")


async def test_a_playoff_that_cannot_be_played_shares_the_rank_and_the_bonus(field_league: RunningBot) -> None:
    """FIELD-AMB-17: P01 and P02 tie for first on Godzilla and their playoff cannot be played."""
    league = field_league
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for name, value in (("p01", "1,000"), ("p02", "1,000"), ("p03", "500")):
        await league.run("/field checkin", as_member=name)
        await league.run(f"/field score machine:1 score:{value}", as_member=name)
    unplayed = await league.run("/field tiebreak machine:1 unplayable:true", as_member="alice")
    assert not unplayed.ephemeral, unplayed.content
    points = await tonights_points(league)
    # FIELD-AMB-17: standard competition ranking 1-1-3: both tied players get rank 1's 25 and the +5, P03 23
    assert (points["P01"], points["P02"], points["P03"]) == ("30", "30", "23"), points
