"""Field finals through Discord: entry (FIELD-FIN-1), seeds and the bracket with byes (FIELD-FIN-2/3), best of
three with machine and order picks (FIELD-FIN-4/5/6, FIELD-AMB-9), and the refusals that change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import select

from storage.db import Database
from storage.field import FieldCheckin, FieldFinalsGame, FieldNight, FieldScore, NightState
from storage.models import League, Player, Season
from tests.e2e.harness import RunningBot, running_bot

PLAYERS = ["ann", "ben", "cat", "dov", "eve"]  # eve plays two weeks only
MACHINES = ["Godzilla", "Medieval Madness", "Attack from Mars", "Twilight Zone", "Deadpool", "Jaws"]


# player → place on every machine that night (1 = the top score), or one place per machine; absent players left out
Week = Mapping[str, int | tuple[int, ...]]


@pytest.fixture
async def finals_league(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    """Four closed nights written straight into storage, as the night commands would record them."""
    weeks = [dict(zip(PLAYERS if week <= 2 else PLAYERS[:4], range(1, 6), strict=False)) for week in range(1, 5)]
    async with finals_setup(sqlite_db, weeks) as league:
        yield league


@asynccontextmanager
async def finals_setup(sqlite_db: Database, weeks: Sequence[Week]) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as league:
        league.emulator.quiet_window = 0.001
        await league.run(
            '/league create name:"LPL" format:field timezone:America/Chicago commissioner_role:@Commissioner',
            as_member="owner",
        )
        await league.run('/venue add name:"MSA"', as_member="alice")
        for model in MACHINES:
            await league.run(f'/machine add venue:"MSA" model:"{model}"', as_member="alice")
        for name in sorted({name for week in weeks for name in week}):
            league.emulator.add_member(name)
            await league.run(f"/player register member:@{name}", as_member="alice")
        async with league.db.writing() as session:
            the_league = (await session.exec(select(League))).one()
            season = (await session.exec(select(Season))).one()
            players = {p.display_name.lower(): p.id or 0 for p in (await session.exec(select(Player))).all()}
            now = datetime(2027, 6, 1, tzinfo=UTC)
            for week, places in enumerate(weeks, start=1):
                night = FieldNight(
                    league_id=the_league.id or 0,
                    season_id=season.id or 0,
                    week=week,
                    play_on=date(2027, 6, 1) + timedelta(weeks=week - 1),
                    state=NightState.CLOSED,
                    machine_ids=[1, 2, 3, 4, 5],
                    opened_by=0,
                )
                session.add(night)
                await session.flush()
                for name, place in places.items():
                    session.add(FieldCheckin(night_id=night.id or 0, player_id=players[name], arrived_at=now))
                    for machine in range(1, 6):
                        session.add(
                            FieldScore(
                                night_id=night.id or 0,
                                player_id=players[name],
                                machine_id=machine,
                                score=(11 - (place if isinstance(place, int) else place[machine - 1])) * 1000 + machine,
                                entered_by=0,
                                entered_at=now,
                            )
                        )
        yield league


async def games(league: RunningBot) -> list[FieldFinalsGame]:
    async with league.db.reading() as session:
        return list((await session.exec(select(FieldFinalsGame))).all())


async def test_finals_entry_seeding_and_best_of_three_picks(finals_league: RunningBot) -> None:
    league = finals_league
    few = await league.run("/field finals entry member:@eve paid:true", as_member="alice")
    # FIELD-ATT-4: eve recorded scores in 2 of the 4 meets, so she has 2 weeks played, short of the 4 needed
    assert few.ephemeral and "FIELD-FIN-1" in few.content and "played 2" in few.content
    unpaid = await league.run("/field finals entry member:@ann paid:false", as_member="alice")
    assert unpaid.ephemeral and "no dough, no show" in unpaid.content
    for name in PLAYERS[:4]:
        entered = await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
        assert "is in the finals" in entered.content, entered.content
    seeded = (await league.run("/field finals seed", as_member="alice")).text()
    # FIELD-PAY-2: the pool is 4 paid entrants × $10 − $40 plaques = $0, split 70/30
    assert "1. Ann" in seeded and "4. Dov" in seeded and "Pool $0.00: $0.00 / $0.00" in seeded
    # FIELD-FIN-8: the finals settings shown with the pairings: extra balls drained on every machine
    assert "Extra balls are drained on every machine: one plunge, then the opponent hard-plunges." in seeded
    assert "`W3-1` (1) Ann v (4) Dov" in seeded  # byes carry the top seeds through the 16-slot bracket

    wrong_chooser = await league.run("/field finals pick pairing:W3-1 machine:1", as_member="dov")
    # FIELD-FIN-5: the higher seed picks first in game 1, and the opponent picks the other (order) after
    assert wrong_chooser.ephemeral and "Seed 1 chooses first in game 1" in wrong_chooser.content
    await league.run("/field finals pick pairing:W3-1 machine:1", as_member="ann")
    second_pick = await league.run("/field finals pick pairing:W3-1 first:true", as_member="ann")
    assert second_pick.ephemeral and "Opponent picks the order this game." in second_pick.content
    await league.run("/field finals pick pairing:W3-1 first:false", as_member="dov")
    outsider = await league.run("/field finals result pairing:W3-1 winner:@cat", as_member="cat")
    assert outsider.ephemeral and "two players of this pairing" in outsider.content
    won = await league.run("/field finals result pairing:W3-1 winner:@ann", as_member="dov")
    assert "Ann wins the game" in won.content, won.content

    before = await games(league)
    ann_first = await league.run("/field finals pick pairing:W3-1 machine:2", as_member="ann")
    assert ann_first.ephemeral and "Seed 4 chooses first in game 2" in ann_first.content  # FIELD-AMB-9
    again = await league.run("/field finals pick pairing:W3-1 machine:1", as_member="dov")
    # FIELD-FIN-6: a machine already played in this pairing is refused
    assert again.ephemeral and "Godzilla already used in this match-up" in again.content
    assert await games(league) == before  # refusals change nothing
    await league.run("/field finals pick pairing:W3-1 machine:2", as_member="dov")
    await league.run("/field finals pick pairing:W3-1 first:true", as_member="ann")
    shown = (await league.run("/field finals result pairing:W3-1 winner:@ann", as_member="ann")).text()
    # FIELD-FIN-4: best 2 of 3, so at 2–0 the pairing is done and no longer listed in play
    assert "W3-1" not in shown.split("Finals rules")[0].split("Seeds")[1]
    decided = await league.run("/field finals result pairing:W3-1 winner:@dov", as_member="alice")
    assert decided.ephemeral and "W3-1" in decided.content  # no longer in play


async def test_seeds_count_the_weeks_left_after_the_two_lowest_are_dropped(sqlite_db: Database) -> None:
    """FIELD-FIN-2, FIELD-STAND-1, FIELD-AMB-7 (seeds after the drops, not by raw totals): ann wins the two weeks
    she plays (2 × 150), ben is second all four weeks (4 × 120) and cat third (4 × 115). Raw totals would seed ben,
    cat, ann; after the two lowest weeks are dropped ann has 300, ben 240, cat 230."""
    weeks = [{"ann": 1, "ben": 2, "cat": 3}] * 2 + [{"dov": 1, "ben": 2, "cat": 3}] * 2
    async with finals_setup(sqlite_db, weeks) as league:
        changed = await league.run("/field config option:min_weeks_for_finals value:2", as_member="alice")
        assert "⛔" not in changed.content, changed.content
        for name in ("ann", "ben", "cat"):
            entered = await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
            assert "is in the finals" in entered.content, entered.content
        seeded = (await league.run("/field finals seed", as_member="alice")).text()
        assert "1. Ann" in seeded and "2. Ben" in seeded and "3. Cat" in seeded, seeded
        # FIELD-TV-8: 3 entrants pay $30 − $40 plaques < 0 → flagged, plaques only and no cash
        assert "Pool negative: plaques only, no cash" in seeded, seeded
        await league.run("/field config option:plaque_cost_cents value:2999", as_member="alice")
        shown = (await league.run("/field finals show", as_member="alice")).text()
        # FIELD-AMB-15: the plaque cost is configurable; a $0.01 pool splits 70/30 floored in cents, the leftover
        # cent to 1st (COMMON-AMB-2)
        assert "Pool $0.01: $0.01 / $0.00" in shown, shown


async def test_a_tie_among_finalists_gets_a_tie_breaker_game_and_others_stay_tied(sqlite_db: Database) -> None:
    """Ben and cat both end on 240 after the drops (120, 115, 120, 115), and so do dov and eve on 220; eve does
    not enter the finals."""
    weeks = [
        {"ann": 1, "ben": 2, "cat": 3, "dov": 4, "eve": 5},
        {"ann": 1, "cat": 2, "ben": 3, "eve": 4, "dov": 5},
    ] * 2
    async with finals_setup(sqlite_db, weeks) as league:
        for name in ("ann", "ben", "cat", "dov"):
            entered = await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
            assert "is in the finals" in entered.content, entered.content
        tied = await league.run("/field finals seed", as_member="alice")
        # FIELD-STAND-2: a tie that decides seeds 2 and 3 → a tie-breaker game on a machine drawn at random, the
        # draw's seed logged; FIELD-AMB-10: dov's tie with eve, who did not show up, needs none
        assert tied.ephemeral and "Ben and Cat are level on points" in tied.content, tied.content
        assert "drawn at random, seed" in tied.content and "Dov" not in tied.content
        broken = await league.run("/field finals tiebreak first:@cat second:@ben", as_member="alice")
        assert "Tie-breaker recorded" in broken.content, broken.content
        seeded = (await league.run("/field finals seed", as_member="alice")).text()
        # FIELD-STAND-2: the tie-breaker's result orders the tied players: cat seed 2, ben seed 3
        assert "1. Ann\n2. Cat\n3. Ben\n4. Dov" in seeded, seeded


async def test_tv5_finals_eligibility_needs_half_the_weeks_rounded_up(sqlite_db: Database) -> None:
    """FIELD-TV-5: ann played 4 of 8 weeks, ben 3."""
    weeks = [{"ann": 1, "ben": 2}] * 3 + [{"ann": 1}]
    async with finals_setup(sqlite_db, weeks) as league:
        ann = await league.run("/field finals entry member:@ann paid:true", as_member="alice")
        assert "is in the finals" in ann.content, ann.content  # FIELD-TV-5: 4 of 8 → eligible
        ben = await league.run("/field finals entry member:@ben paid:true", as_member="alice")
        # FIELD-TV-5, FIELD-AMB-5: 3 of 8 is not half the season: not eligible by default
        assert ben.ephemeral and "Finals need 4 weeks" in ben.content and "played 3" in ben.content, ben.content
        await league.run("/field config option:regular_weeks value:7", as_member="alice")
        seven = await league.run("/field finals entry member:@ben paid:true", as_member="alice")
        # FIELD-AMB-16: a 7-week season still needs ceil(7 / 2) = 4 weeks
        assert seven.ephemeral and "Finals need 4 weeks" in seven.content, seven.content
        await league.run("/field config option:ab_divisions value:true", as_member="alice")
        b_division = await league.run("/field finals entry member:@ben paid:true", as_member="alice")
        # FIELD-TV-5, FIELD-AMB-5: with `ab_divisions`, `b_division_min_weeks=3` lets ben into the B division
        assert "is in the finals" in b_division.content, b_division.content


async def test_tv9_ab_divisions_pad_b_with_byes_and_tv8_pays_13_entrants(sqlite_db: Database) -> None:
    """FIELD-TV-9 / FIELD-AMB-4: 13 eligible players with `ab_divisions`: A is seeds 1–8, B seeds 9–13 padded to
    an 8-bracket. FIELD-TV-8: 13 entrants pay $130 − $40 plaques = $90."""
    names = [f"s{n:02d}" for n in range(1, 14)]
    async with finals_setup(sqlite_db, [dict(zip(names, range(1, 14), strict=True))] * 4) as league:
        await league.run("/field config option:ab_divisions value:true", as_member="alice")
        for name in names:
            entered = await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
            assert "is in the finals" in entered.content, entered.content
        seeded = (await league.run("/field finals seed", as_member="alice")).text()
        assert "13 entrants paid. Pool $90.00: $63.00 / $27.00" in seeded, seeded  # FIELD-TV-8: 70/30 of $90
        a_part, b_part = seeded.split("A division:")[1].split("B division:")
        # FIELD-TV-9, FIELD-AMB-4: A is an 8-bracket of seeds 1–8 with no byes
        assert a_part.count("`W1-") == 4 and "(1) S01 v (8) S08" in a_part and "S09" not in a_part, a_part
        b_first_round = [line for line in b_part.splitlines() if "`B-W1-" in line]
        # FIELD-TV-9: in B, S09, S10 and S11 (B seeds 1–3) get byes; only S12 v S13 is played in round 1
        assert len(b_first_round) == 1 and "S12 v (5) S13" in b_first_round[0], b_part
        assert "(3) S11 v (2) S10" in b_part, b_part


async def test_tv14_best_of_three_picks_between_seeds_3_and_6(sqlite_db: Database) -> None:
    """FIELD-TV-14: six finalists, so seeds 3 (cat) and 6 (fay) meet in round 2 after byes, as do 4 and 5."""
    names = ["ann", "ben", "cat", "dov", "eve", "fay"]
    async with finals_setup(sqlite_db, [dict(zip(names, range(1, 7), strict=True))] * 4) as league:
        for name in names:
            await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
        seeded = (await league.run("/field finals seed", as_member="alice")).text()
        pairings = [line for line in seeded.splitlines() if "`" in line]
        code = {pair: line.split("`")[1] for line in pairings for pair in ("Cat", "Dov") if pair in line}
        await league.run(f"/field finals pick pairing:{code['Dov']} machine:3", as_member="dov")  # AfM in play

        pick = "/field finals pick pairing:" + code["Cat"]
        await league.run(f"{pick} machine:2", as_member="cat")  # game 1: seed 3 picks Medieval Madness
        await league.run(f"{pick} first:false", as_member="fay")  # seed 6 picks the order: plays second
        await league.run(f"/field finals result pairing:{code['Cat']} winner:@cat", as_member="cat")
        # FIELD-TV-14: game 2, seed 6 chooses first; Medieval Madness was played, Attack from Mars has a queue
        used = await league.run(f"{pick} machine:2", as_member="fay")
        assert used.ephemeral and "Medieval Madness already used in this match-up" in used.content, used.content
        queued = await league.run(f"{pick} machine:3", as_member="fay")
        assert queued.ephemeral and "Attack from Mars has a queue; choose another" in queued.content, queued.content
        chosen = await league.run(f"{pick} machine:4", as_member="fay")
        assert "Pick recorded" in chosen.content, chosen.content  # Twilight Zone
        await league.run(f"{pick} first:true", as_member="cat")
        await league.run(f"/field finals result pairing:{code['Cat']} winner:@fay", as_member="fay")  # 1–1
        # FIELD-TV-14: game 3, seed 3 chooses again, and neither machine already played may be picked
        late = await league.run(f"{pick} machine:5", as_member="fay")
        assert late.ephemeral and "Seed 3 chooses first in game 3" in late.content, late.content
        for machine, title in ((2, "Medieval Madness"), (4, "Twilight Zone")):
            again = await league.run(f"{pick} machine:{machine}", as_member="cat")
            assert again.ephemeral and f"{title} already used in this match-up" in again.content, again.content


async def play_pairing(league: RunningBot, code: str, winner: str, loser: str) -> str:
    """Two games of a pairing won by `winner`, each picked by whoever chooses first; the last reply's text."""
    text = ""
    for machine in (1, 2):
        first = await league.run(f"/field finals pick pairing:{code} machine:{machine}", as_member=winner)
        chooser, other = (loser, winner) if first.ephemeral else (winner, loser)
        if first.ephemeral:
            await league.run(f"/field finals pick pairing:{code} machine:{machine}", as_member=chooser)
        await league.run(f"/field finals pick pairing:{code} first:true", as_member=other)
        text = (await league.run(f"/field finals result pairing:{code} winner:@{winner}", as_member=winner)).text()
    return text


async def test_the_grand_final_is_reset_when_the_losers_bracket_champion_wins_it(sqlite_db: Database) -> None:
    """FIELD-AMB-8: ben beats ann in the winners' bracket; ann, from the losers' side, then wins the grand final."""
    async with finals_setup(sqlite_db, [{"ann": 1, "ben": 2}] * 4) as league:
        for name in ("ann", "ben"):
            await league.run(f"/field finals entry member:@{name} paid:true", as_member="alice")
        await league.run("/field finals seed", as_member="alice")
        await play_pairing(league, "W4-1", "ben", "ann")
        after_final = await play_pairing(league, "GF", "ann", "ben")
        # FIELD-AMB-8: a true double elimination: ben has lost once only, so a reset match is played, no champion
        assert "Champion" not in after_final and "(2) Ben v (1) Ann (0–0)" in after_final, after_final
