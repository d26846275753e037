"""Rulings at a field meet through Discord: malfunctions and their replays, who rules on them, and what a
penalty's ruling decides (FIELD-MALF-1/2/3/4/5, FIELD-OFF-2, FIELD-AMB-18, FIELD-PEN-2/5/6/7/8/12, FIELD-MSEL-4).

Six players check in and are dealt into two groups of three; the two officials, Alice and Vic (both holding the
commissioner role), arrive late and join group 1 and group 2 (FIELD-ATT-1: the smallest open group first)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from bot.rules.field.scoring import ScoreStatus
from bot.services.actor import Actor
from bot.services.field.facts import load_context, load_tonight
from storage.db import Database
from storage.field import FieldCheckin, FieldMalfunction, FieldPenalty, FieldScore
from storage.models import Player
from tests.e2e.harness import RunningBot, running_bot

ZONE = ZoneInfo("America/Indiana/Indianapolis")
MACHINES = ["Godzilla", "Medieval Madness", "Attack from Mars", "Twilight Zone", "Deadpool", "Jaws"]
PLAYERS = [f"p{n:02d}" for n in range(1, 7)]


@pytest.fixture
async def meet(sqlite_db: Database) -> AsyncIterator[RunningBot]:
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
        await league.run('/venue add name:"MSA"', as_member="alice")
        for model in MACHINES:
            await league.run(f'/machine add venue:"MSA" model:"{model}"', as_member="alice")
        league.emulator.add_member("vic", ["Commissioner"])
        for name in PLAYERS:
            league.emulator.add_member(name)
        for name in [*PLAYERS, "alice", "vic"]:
            registered = await league.run(f"/player register member:@{name}", as_member="alice")
            assert "⛔" not in registered.content, registered.content
        await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
        for name in PLAYERS:
            await league.run("/field checkin", as_member=name)
        await league.run("/field groups", as_member="alice")
        for name in ("alice", "vic"):
            checked = await league.run("/field checkin", as_member=name)
            assert "checked in" in checked.content, checked.content
        yield league


async def groups_of(league: RunningBot) -> dict[int, list[str]]:
    """Group number → the usernames in it, in check-in order."""
    async with league.db.reading() as session:
        names = {p.id: p.display_name.lower() for p in (await session.exec(select(Player))).all()}
        checkins = (await session.exec(select(FieldCheckin).order_by(FieldCheckin.id))).all()  # type: ignore[arg-type]
    groups: dict[int, list[str]] = {}
    for c in checkins:
        if c.group_number is not None:
            groups.setdefault(c.group_number, []).append(names[c.player_id])
    return groups


async def machine_scores(league: RunningBot, machine: int) -> dict[str, tuple[int | None, ScoreStatus]]:
    """Tonight's ranked scores on a machine as the rules see them: username → (score, status)."""
    actor = Actor(league.emulator.guild.id, 0, "", frozenset(), True, "test")
    async with league.db.reading() as session:
        context = await load_context(session, actor, None, league.bot.clock.now())
        season = await load_tonight(session, context)
        facts = season.open_night()
        names = {p.id: p.display_name.lower() for p in (await session.exec(select(Player))).all()}
    return {
        names[int(score.player)]: (score.score, score.status)
        for machine_id, score in facts.machine_entries()
        if machine_id == machine and score.status is not ScoreStatus.VOID
    }


async def rows(league: RunningBot, table: type) -> list:  # type: ignore[type-arg]
    async with league.db.reading() as session:
        return list((await session.exec(select(table))).all())


async def enter_game(league: RunningBot, machine: int, players: list[str], base: int) -> None:
    pairs = " ".join(f"p{i}:@{name} s{i}:{base + 1000 * i:,}" for i, name in enumerate(players, start=1))
    entered = await league.run(f"/field game machine:{machine} {pairs}", as_member="alice")
    assert "✅" in entered.content, entered.content


async def test_a_major_malfunction_replay_replaces_the_groups_scores(meet: RunningBot) -> None:
    league = meet
    groups = await groups_of(league)
    # FIELD-ATT-1: the late officials each join an open group (fewer than 4), the smallest first
    assert groups[1][-1] == "alice" and groups[2][-1] == "vic", groups
    one = groups[1]
    player = one[0]
    first = f"p1:@{one[0]} s1:5,000,000 p2:@{one[1]} s2:8,000,000 p3:@{one[2]} s3:4,000,000 p4:@alice s4:6,000,000"
    entered = await league.run(f"/field game machine:1 {first}", as_member="alice")
    assert "✅" in entered.content, entered.content

    late = await league.run(
        "/field malfunction machine:1 incident:turn_ended_with_ball_in_play replay:true next_ball_started:true",
        as_member=player,
    )
    assert late.ephemeral and "FIELD-MALF-2" in late.content and "next ball" in late.content
    minor = await league.run("/field malfunction machine:1 incident:airball replay:true", as_member=player)
    assert minor.ephemeral and "FIELD-MALF-1" in minor.content
    assert await rows(league, FieldMalfunction) == []  # refusals log nothing

    granted = await league.run(
        "/field malfunction machine:1 incident:turn_ended_with_ball_in_play replay:true", as_member=player
    )
    assert "Replay granted" in granted.content and "group 1" in granted.content, granted.content
    (row,) = await rows(league, FieldMalfunction)
    assert (row.outcome, row.group_number) == ("replay", 1)

    assert set(await machine_scores(league, 1)) == set()  # the first scores no longer count (FIELD-AMB-18)
    await league.scoreboards_published()
    board = next(
        o for o in league.emulator.messages_in("general") if o.embeds and o.embeds[0].get("title") == "Week 1 · group 1"
    )
    labels = [item.get("label", "") for row in board.components for item in row["components"]]
    assert "Enter Godzilla" in labels, labels  # the group board asks for the replay's scores
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(clock.now() + timedelta(minutes=20))
    for name, value in zip(one[:-1], (3_200_000, 9_100_000, 1_000), strict=False):
        entered = await league.run(f"/field score machine:1 score:{value:,}", as_member=name)
        assert "✅" in entered.content, entered.content  # a sanctioned replay: not a second score
    again = await league.run("/field score machine:1 score:9,000", as_member=one[0])
    assert again.ephemeral and "FIELD-SCORE-1" in again.content
    counted = await machine_scores(league, 1)
    # FIELD-TV-20: X's 5,000,000 becomes the replay's 3,200,000 (lower, still replaces it), Y's 8,000,000 becomes
    # 9,100,000 (FIELD-AMB-18: everyone's replay score replaces their original)
    assert counted == {one[0]: (3_200_000, ScoreStatus.NORMAL), one[1]: (9_100_000, ScoreStatus.NORMAL),
                       one[2]: (1_000, ScoreStatus.NORMAL)}  # fmt: skip
    # Alice has no replay score: her first score is void, so she still owes one there (FIELD-SCORE-5)
    closing = await league.run("/field night close", as_member="alice")
    assert closing.ephemeral and "Alice: every machine" in closing.content, closing.content
    assert f"{one[0].upper()}: Medieval Madness" in closing.content  # the others' replay scores count


async def test_rulings_go_to_the_official_outside_the_group(meet: RunningBot) -> None:
    league = meet
    one = (await groups_of(league))[1]
    await enter_game(league, 2, one, 10_000)
    await enter_game(league, 3, one, 20_000)

    player_rules = await league.run(
        f"/field malfunction machine:2 incident:catastrophic member:@{one[0]} scores:stand", as_member=one[0]
    )
    assert player_rules.ephemeral and "COMMON-ROLE-1" in player_rules.content
    involved = await league.run(
        f"/field malfunction machine:2 incident:catastrophic member:@{one[0]} scores:stand", as_member="alice"
    )
    assert involved.ephemeral and "FIELD-OFF-2" in involved.content and "Vic rules on this" in involved.content
    assert await rows(league, FieldMalfunction) == []

    stand = await league.run(
        f"/field malfunction machine:2 incident:catastrophic member:@{one[0]} scores:stand", as_member="vic"
    )
    assert "scores on the machine stand" in stand.content, stand.content
    assert len(await machine_scores(league, 2)) == 4

    void = await league.run(
        f"/field malfunction machine:3 incident:catastrophic member:@{one[0]} slam_tilt_by:@{one[1]} intentional:true",
        as_member="vic",
    )
    assert "void" in void.content and "interference" in void.content, void.content  # FIELD-MALF-4, FIELD-PEN-6
    assert await machine_scores(league, 3) == {}
    (penalty,) = await rows(league, FieldPenalty)
    assert penalty.offence == "interference" and penalty.machine_id == 3
    tilts = [r for r in await rows(league, FieldMalfunction) if r.machine_id == 3]
    assert [(r.outcome, r.ruled_by) for r in tilts] == [("void_and_replay", league.emulator.member("vic").id)]

    accidental = await league.run(
        f"/field malfunction machine:3 incident:catastrophic member:@{one[0]} slam_tilt_by:@{one[2]}",
        as_member="vic",
    )
    assert "void" in accidental.content and len(await rows(league, FieldPenalty)) == 1  # no offence

    not_a_tilt = await league.run(
        f"/field malfunction machine:3 incident:airball member:@{one[0]} slam_tilt_by:@{one[2]}", as_member="vic"
    )
    assert not_a_tilt.ephemeral and "FIELD-PEN-6" in not_a_tilt.content

    positive = await league.run(
        f"/field malfunction machine:2 incident:positive member:@{one[0]} avoidable:true", as_member="vic"
    )
    assert "logged and announced" in positive.content
    no_replay = await league.run(
        f"/field malfunction machine:2 incident:positive member:@{one[0]} avoidable:true replay:true",
        as_member="vic",
    )
    assert no_replay.ephemeral and "FIELD-MALF-5" in no_replay.content
    gained = await league.run(
        f"/field malfunction machine:2 incident:positive member:@{one[0]} avoidable:true advantage_gained:true "
        "replay:true",
        as_member="vic",
    )
    assert "unfair advantage" in gained.content and await machine_scores(league, 2) == {}
    sheet = await league.run("/field maintenance", as_member=one[0])
    assert "Week 1 Medieval Madness: catastrophic (catastrophic) → stand" in sheet.content, sheet.content
    assert "Attack from Mars: catastrophic (catastrophic) → void and replay" in sheet.content


async def test_a_machine_every_first_ball_was_lost_on_is_out_for_the_meet(meet: RunningBot) -> None:
    league = meet
    two = (await groups_of(league))[2]
    some = await league.run(
        "/field malfunction machine:4 incident:ball_launched_early first_balls_lost:3", as_member=two[0]
    )
    assert "logged" in some.content and "unplayable" not in some.content.lower()
    every = await league.run(
        "/field malfunction machine:4 incident:ball_launched_early first_balls_lost:4", as_member=two[0]
    )
    assert "Declared unplayable" in every.content, every.content
    refused = await league.run("/field score machine:4 score:12,000", as_member=two[0])
    assert refused.ephemeral and "FIELD-MALF-3" in refused.content
    assert await rows(league, FieldScore) == []
    kept = await league.run("/field night machines m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    assert kept.ephemeral and "FIELD-MSEL-1" in kept.content and "not working" in kept.content
    replaced = await league.run("/field night machines m1:1 m2:2 m3:3 m4:6 m5:5", as_member="alice")
    assert "changed" in replaced.content
    entered = await league.run("/field score machine:6 score:12,000", as_member=two[0])
    assert "✅" in entered.content


async def test_a_penaltys_ruling_applies_the_victims_choice_and_the_fixes(meet: RunningBot) -> None:
    league = meet
    two = (await groups_of(league))[2]
    offender = two[0]
    await enter_game(league, 5, two, 30_000)

    extra = await league.run(
        f"/field penalty member:@{offender} offence:opponent_ball machine:5 choice:continue plunged_extra_ball:true",
        as_member="alice",
    )
    assert extra.ephemeral and "FIELD-PEN-2" in extra.content and "no compensation" in extra.content
    misplaced = await league.run(
        f"/field penalty member:@{offender} offence:opponent_ball machine:5 games_started:3", as_member="alice"
    )
    assert misplaced.ephemeral and "`games_started`" in misplaced.content
    assert await rows(league, FieldPenalty) == []

    too_late = await league.run(
        f"/field penalty member:@{offender} offence:opponent_ball machine:5 choice:replay before_next_player:false",
        as_member="alice",
    )
    # FIELD-AMB-13: no choice announced before the next player started → the third option, an additional ball
    assert "additional ball" in too_late.content and "no choice announced" in too_late.content
    assert len(await machine_scores(league, 5)) == 4
    replay = await league.run(
        f"/field penalty member:@{offender} offence:opponent_ball machine:5 choice:replay", as_member="alice"
    )
    assert "replays the game" in replay.content and "ranked last" in replay.content, replay.content
    assert await machine_scores(league, 5) == {}  # the group replays (FIELD-PEN-2)

    asked_late = await league.run(
        f"/field penalty member:@{offender} offence:interference machine:1 choice:replay before_next_player:false",
        as_member="alice",
    )
    assert "plays on" in asked_late.content, asked_late.content  # FIELD-PEN-5

    right_count = await league.run(
        f"/field penalty member:@{offender} offence:wrong_game_count games_started:4", as_member="alice"
    )
    assert right_count.ephemeral and "nothing to fix" in right_count.content
    extra_games = await league.run(
        f"/field penalty member:@{offender} offence:wrong_game_count games_started:5", as_member="alice"
    )
    # FIELD-PEN-7: extra games are plunged, missing ones added or (here) everyone restarts; the starter pays
    assert "extra games are plunged" in extra_games.content and "pays" in extra_games.content
    missing = await league.run(
        f"/field penalty member:@{offender} offence:wrong_game_count games_started:2 can_add:false",
        as_member="alice",
    )
    assert "everyone restarts" in missing.content

    mid_game = await league.run(f"/field penalty member:@{offender} offence:out_of_order order:keep", as_member="alice")
    assert mid_game.ephemeral and "FIELD-PEN-8" in mid_game.content
    kept = await league.run(
        f"/field penalty member:@{offender} offence:out_of_order order:keep wrong_since_start:true", as_member="alice"
    )
    assert "keeps the order" in kept.content

    distraction = await league.run(f"/field penalty member:@{offender} offence:distraction", as_member="alice")
    # FIELD-PEN-12: a distraction is a normal play condition: the bot answers with LPL 3.6/3.7 and records it
    assert "normal play conditions" in distraction.content and "no score penalty" in distraction.content
    assert "LPL 3.6, 3.7" in distraction.content
    stored = await rows(league, FieldPenalty)
    assert [p.group_replay for p in stored] == [False, True, False, False, False, False, False]


async def tonights_points(league: RunningBot) -> dict[str, int]:
    """Tonight's points table of `/field night show`: display name → points."""
    sheet = (await league.run("/field night show", as_member="alice")).text()
    table = sheet.split("Tonight's points")[1].split("```")[1]
    return {line.split()[1]: int(line.split()[2]) for line in table.splitlines() if line[:2].strip().isdigit()}


async def test_record_only_offences_the_automatic_escalations_and_cheating(meet: RunningBot) -> None:
    """Offences with no score penalty are recorded as such; an ejection and violence jump the interference ladder;
    cheating suspends the player at once."""
    league = meet
    one, two = (await groups_of(league))[1], (await groups_of(league))[2]
    await enter_game(league, 4, two, 40_000)
    named = [name.upper() if name.startswith("p") else name.capitalize() for name in two]
    assert [(await tonights_points(league))[n] for n in named] == [22, 23, 24, 30]

    extra = await league.run(f"/field penalty member:@{two[0]} offence:own_extra_ball machine:4", as_member="alice")
    # FIELD-PEN-1: playing one's own plunged extra ball is recorded only, the game's score stands
    assert "own extra ball" in extra.content and "recorded, no score penalty" in extra.content, extra.content
    slow = await league.run(f"/field penalty member:@{two[0]} offence:slow_play", as_member="alice")
    # FIELD-PEN-11: slow play is recorded only, no score penalty
    assert "slow play" in slow.content and "recorded, no score penalty" in slow.content, slow.content
    assert (await tonights_points(league))[named[0]] == 22

    ejected = await league.run(f"/field penalty member:@{two[1]} offence:ejection", as_member="alice")
    # FIELD-PEN-4, FIELD-AMB-14: an ejection is at least the 3rd offence, so every game of the meet is forfeited
    assert "(offence 3)" in ejected.content and "every game of the meet forfeited" in ejected.content
    assert (await tonights_points(league))[named[1]] == 0
    violent = await league.run(f"/field penalty member:@{one[0]} offence:violence", as_member="alice")
    # FIELD-PEN-4, FIELD-AMB-14: violence or vandalism is at least the 4th offence: the season is forfeited
    assert "(offence 4)" in violent.content and "season forfeited" in violent.content, violent.content

    cheated = await league.run(f"/field penalty member:@{two[2]} offence:cheating", as_member="alice")
    # FIELD-PEN-10: cheating suspends at once, so the cheat's next score is refused
    assert "suspended from the league" in cheated.content, cheated.content
    refused = await league.run("/field score machine:5 score:1,000", as_member=two[2])
    assert refused.ephemeral and "is suspended" in refused.content, refused.content


async def test_a_stuck_plunged_extra_ball_is_recorded_only(meet: RunningBot) -> None:
    league = meet
    player = (await groups_of(league))[1][0]
    await enter_game(league, 1, (await groups_of(league))[1], 10_000)
    asked = await league.run(
        "/field malfunction machine:1 incident:stuck_plunged_extra_ball replay:true", as_member=player
    )
    # FIELD-MALF-6: no compensation: a stuck plunged extra ball is not a major malfunction, so no replay
    assert asked.ephemeral and "Only a major malfunction allows a replay" in asked.content, asked.content
    logged = await league.run("/field malfunction machine:1 incident:stuck_plunged_extra_ball", as_member=player)
    assert "Not a major malfunction" in logged.content, logged.content
    sheet = await league.run("/field maintenance", as_member=player)
    assert "Godzilla: stuck plunged extra ball (minor)" in sheet.content, sheet.content  # FIELD-MALF-6: recorded
    assert len(await machine_scores(league, 1)) == 4  # the game's scores stand


async def test_officials_rank_by_their_roles_when_choosing_who_rules(sqlite_db: Database) -> None:
    """FIELD-OFF-1 with FIELD-OFF-2: Alice holds the commissioner role (President), Vp and Stat the extra official
    roles added in that order (Vice President, Statistician). Alice joins group 1, Vp group 2, Stat (arriving last,
    both groups full) plays alone."""
    async with running_bot(sqlite_db) as league:
        league.emulator.quiet_window = 0.001
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 6, 1, 19, 0, tzinfo=ZONE))
        await league.run(
            '/league create name:"LPL" format:field timezone:America/Indiana/Indianapolis '
            "commissioner_role:@Commissioner",
            as_member="owner",
        )
        for role, member in (("VP", "vp"), ("Stat", "stat")):
            league.emulator.add_role(role)
            league.emulator.add_member(member, [role])
            added = await league.run(f"/league config add_official_role:@{role}", as_member="alice")
            assert "commissioners too" in added.content, added.content
        await league.run('/venue add name:"MSA"', as_member="alice")
        await league.run('/machine add venue:"MSA" model:"Godzilla"', as_member="alice")
        for name in PLAYERS:
            league.emulator.add_member(name)
        for name in [*PLAYERS, "alice", "vp", "stat"]:
            await league.run(f"/player register member:@{name}", as_member="alice")
        for model in MACHINES[1:5]:
            await league.run(f'/machine add venue:"MSA" model:"{model}"', as_member="alice")
        await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
        for name in PLAYERS:
            await league.run("/field checkin", as_member=name)
        await league.run("/field groups", as_member="alice")
        for name in ("alice", "vp", "stat"):
            await league.run("/field checkin", as_member=name)
        groups = await groups_of(league)
        assert groups[1][-1] == "alice" and groups[2][-1] == "vp", groups
        claim = "/field malfunction machine:2 incident:catastrophic scores:stand member:@"
        in_one = await league.run(claim + groups[1][0], as_member="stat")
        # FIELD-OFF-1: with the President involved, the Vice President outranks the Statistician
        assert in_one.ephemeral and "Vp rules on this" in in_one.content, in_one.content
        in_two = await league.run(claim + groups[2][0], as_member="stat")
        # FIELD-OFF-1: with the Vice President involved, the President outranks the Statistician
        assert in_two.ephemeral and "Alice rules on this" in in_two.content, in_two.content
        ruled = await league.run(claim + groups[2][0], as_member="alice")
        assert "the scores on the machine stand" in ruled.content, ruled.content
