"""Later playoff rounds from Discord: once a round is final, /playoffs next ranks the neutral venues for the next
match (TEAM-PO-4, TEAM-AMB-17, TEAM-AMB-24) with the machines each would leave out of play (TEAM-PO-5), and
schedules it at the venue the commissioner picks, the higher seed HOME (TEAM-PO-1); /playoffs show follows the
results to the champion (TEAM-AMB-14)."""

from __future__ import annotations

from datetime import date, datetime

from sqlmodel import select

from bot.rules.team.model import Side
from bot.services.team.playoffs import neutral_venue_exclusions
from storage.matches import Match, MatchKind
from storage.models import League, Machine, Venue
from tests.e2e.harness import RunningBot
from tests.e2e.season import NEW_YORK, Facts, refused, side_of, stored_matches, teams_by_name

ORDER = ["Flipper Kings", "Ball Busters", "Tilt Warriors", "Drain Masters", "Spinners", "Rollovers"]
# venue → its machines (model, variant); Ace Arcade is the Kings' home, Barcade the Busters'
MACHINES = {
    "Ace Arcade": [("Godzilla", "Premium"), ("Medieval Madness", None)],
    "Barcade": [("Godzilla", "Pro"), ("Attack from Mars", None)],
    "Silver Ball": [("Twilight Zone", None)],
    "Pinball Hall": [("Attack from Mars", None), ("Monster Bash", None)],
    "Corner Bar": [("Jaws", None)],
    "Private Basement": [("Cactus Canyon", None)],  # not a regular league venue: not ranked
}


def at(day: date, hour: int) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=NEW_YORK)


async def set_up_machines(league: RunningBot) -> dict[str, int]:
    """The venues and machines above; returns machine ids by model."""
    for venue in ("Pinball Hall", "Corner Bar"):
        await league.run(f'/venue add name:"{venue}"', as_member="alice")
    await league.run('/venue add name:"Private Basement" regular:false', as_member="alice")
    for venue, machines in MACHINES.items():
        for model, variant in machines:
            extra = f" variant:{variant}" if variant else ""
            await league.run(f'/machine add venue:"{venue}" model:"{model}"{extra}', as_member="alice")
    async with league.db.reading() as session:
        return {m.model_name: m.id or 0 for m in (await session.exec(select(Machine))).all()}


async def test_next_round_at_a_ranked_neutral_venue_to_the_champion(season_league: RunningBot) -> None:
    """TEAM-PO-4: /playoffs next waits for the round to be final, then ranks the regular league venues by c1
    neither home, c2 not played there in these playoffs, c3 no model family from either home this season
    (`c3_strict`, TEAM-AMB-24), c4 no family played in earlier rounds (TEAM-AMB-17); each with its excluded
    machines (TEAM-PO-5: families at only one home; Godzilla, at both, stays in play). Without `venue:` nothing
    is stored; with it the match is created there, HOME the higher seed (TEAM-PO-1), audited; refusals change
    nothing (COMMON-ROLE-1). The final's result makes the champion in /playoffs show."""
    league = season_league
    machines = await set_up_machines(league)
    await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
    matches, teams = await stored_matches(league), await teams_by_name(league)
    facts = await Facts.load(league)
    for match in matches:  # the better team in ORDER wins every meeting
        names = {name for name, team in teams.items() if team.id in (match.home_team_id, match.away_team_id)}
        winner = teams[min(names, key=ORDER.index)]
        await facts.venue_forfeit(match, side_of(match, winner).other)
    league.bot.clock.set(at(date(2027, 3, 22), 9))  # type: ignore[attr-defined]
    seeded = await league.run("/playoffs seed start:2027-03-22", as_member="alice")
    assert "3 first-round matches scheduled" in seeded.text(), seeded.content

    await refused(
        league,
        "/playoffs next",
        as_member="alice",
        rule="TEAM-PO-4",
        message="once every match of a round is final. Still to finish: East W1-1, Drain Masters at Flipper Kings",
    )
    playoffs = {
        (m.bracket_match, m.home_team_id): m for m in await stored_matches(league) if m.kind is MatchKind.PLAYOFF
    }
    kings, busters, spinners = teams["Flipper Kings"], teams["Ball Busters"], teams["Spinners"]
    await facts.played(playoffs["W1-1", kings.id], "HHHHHHHHAAAA", machine=machines["Medieval Madness"])
    await facts.played(playoffs["W1-2", busters.id], "HHHHHHHHAAAA", machine=machines["Attack from Mars"])
    await facts.venue_forfeit(playoffs["W1-1", spinners.id], Side.AWAY)
    league.bot.clock.set(at(date(2027, 3, 24), 9))  # type: ignore[attr-defined]

    shown = (await league.run("/playoffs show", as_member="sp2")).text()
    assert "W1-1 · **(1) Flipper Kings** beat (4) Drain Masters 12–4" in shown
    assert "W2-1 · (1) Flipper Kings vs (2) Ball Busters · to be scheduled" in shown
    assert "🏆 Champion: **Spinners**" in shown and "Champion: **Flipper Kings**" not in shown

    await refused(league, "/playoffs next", as_member="fk1", rule="COMMON-ROLE-1", message="Only commissioners")
    before = await league.row_counts()
    ranking = await league.run("/playoffs next", as_member="alice")
    assert await league.row_counts() == before  # a ranking stores nothing
    assert ranking.ephemeral, ranking.content
    [field] = ranking.embeds[0]["fields"]
    assert field["name"] == "East W2-1: (1) Flipper Kings v (2) Ball Busters · from Wed 03-24"
    assert field["value"].splitlines() == [
        "1. **Corner Bar** · meets c1–c4 · excluded: none",
        "1. **Silver Ball** · meets c1–c4 · excluded: none",
        "3. **Pinball Hall** · fails c3 (home-venue models), c4 (models played in earlier rounds) · "
        "excluded: Attack from Mars (home model of Ball Busters)",
        "4. **Ace Arcade** · fails c1 (a team's home), c2 (played there in these playoffs), c3 (home-venue models), "
        "c4 (models played in earlier rounds) · excluded: Medieval Madness (home model of Flipper Kings)",
        "4. **Barcade** · fails c1 (a team's home), c2 (played there in these playoffs), c3 (home-venue models), "
        "c4 (models played in earlier rounds) · excluded: Attack from Mars (home model of Ball Busters)",
    ]
    offered = await league.emulator.autocomplete("/playoffs next venue:", focused="venue", as_member="alice")
    assert [choice["value"] for choice in offered] == [
        "Corner Bar",
        "Silver Ball",
        "Pinball Hall",
        "Ace Arcade",
        "Barcade",
    ]
    assert offered[0]["name"] == "1. Corner Bar · meets c1–c4"
    await refused(
        league, "/playoffs next venue:Nowhere", as_member="alice", rule=None, message="no venue named 'Nowhere'"
    )
    await refused(
        league,
        "/playoffs next venue:Corner Bar fixture:W9-9",
        as_member="alice",
        rule=None,
        message="No playoff match 'W9-9' is waiting for a venue. Waiting: East W2-1.",
    )
    await refused(
        league, '/playoffs next venue:"Corner Bar" start:2027-03-23', as_member="alice", rule=None, message="too early"
    )

    # the commissioner may pick a venue outside the ranked list (TEAM-PO-4): it is ranked with the others
    scheduled = await league.run('/playoffs next venue:"Private Basement" fixture:"East W2-1"', as_member="alice")
    assert not scheduled.ephemeral, scheduled.content
    text = scheduled.text()
    assert (
        "East W2-1: (1) **Flipper Kings** (HOME) v (2) Ball Busters, **Tue 2027-03-30** at **Private Basement**, "
        "rank 1 of 6 by TEAM-PO-4 (meets c1–c4)"
    ) in text
    assert "Out of play at Private Basement (TEAM-PO-5): none: every machine there is in play" in text
    assert "1. **Private Basement** · meets c1–c4 · excluded: none\n1. **Silver Ball**" in text
    final = next(m for m in await stored_matches(league) if m.bracket_match == "W2-1")
    venues = {v.name: v.id for v in await _venues(league)}
    assert (final.kind, final.home_team_id, final.away_team_id) == (MatchKind.PLAYOFF, kings.id, busters.id)
    assert (final.venue_id, final.play_on, final.week) == (venues["Private Basement"], date(2027, 3, 30), 5)
    [created] = [e for e in await league.audit() if e.entity == "match" and e.entity_id == final.id]
    assert created.action == "create" and created.command == "/playoffs next"
    assert created.reason == "Neutral venue (TEAM-PO-4): Private Basement, rank 1 of 6"

    # the basement floods: HOME moves the final to Pinball Hall (TEAM-VENUE-2), where TEAM-PO-5 takes a machine out
    moved = await league.run(
        f'/schedule move match:{final.id} venue:"Pinball Hall" reason:"Basement flooded"', as_member="alice"
    )
    assert "to **Pinball Hall**" in moved.text(), moved.content
    async with league.db.reading() as session:
        league_row = (await session.exec(select(League))).one()
        final = await session.get(Match, final.id) or final
        excluded = await neutral_venue_exclusions(session, league_row, final, today=date(2027, 3, 24))
    assert [(e.machine.machine, e.home_team_name) for e in excluded] == [(machines["Attack from Mars"], "Ball Busters")]
    shown = (await league.run("/playoffs show", as_member="sp2")).text()
    assert "W2-1 · (1) Flipper Kings vs (2) Ball Busters · Tue 03-30 at Pinball Hall · moved" in shown

    # TEAM-PO-5 on the night: the Busters cannot pick their home model; Monster Bash alone is in play, so every
    # game goes on it (TEAM-MACH-1 counts only the machines in play).
    league.bot.clock.set(at(date(2027, 3, 30), 19))  # type: ignore[attr-defined]
    for prefix in ("fk", "bb"):
        for n in range(1, 5):
            await league.run(f"/checkin match:{final.id} member:@{prefix}{n}", as_member="alice")
    league.bot.clock.set(datetime(2027, 3, 30, 20, 1, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    afm, bash = machines["Attack from Mars"], machines["Monster Bash"]
    offered = await league.emulator.autocomplete(f"/lineup match:{final.id} m1:", focused="m1", as_member="bb1")
    assert [choice["value"] for choice in offered] == [bash]
    lineup = f"/lineup match:{final.id} p1:BB1 p2:BB2 p3:BB3 p4:BB4"
    await refused(
        league, f"{lineup} m1:{afm} m2:{bash}", as_member="bb1", rule="TEAM-PO-5",
        message="Attack from Mars excluded: home-venue model of Ball Busters",
    )  # fmt: skip
    # The machines now pass; this season's regular matches were forfeits, so nobody has a regular-season game
    # and eligibility is what stops the lineup (TEAM-PO-3), not TEAM-MACH-1.
    machines_pass = await league.run(f"{lineup} m1:{bash} m2:{bash}", as_member="bb1")
    assert "Rule TEAM-PO-3" in machines_pass.content, machines_pass.content
    await refused(league, "/playoffs next", as_member="alice", rule="TEAM-PO-4", message="Still to finish: East W2-1")

    await facts.venue_forfeit(final, Side.AWAY)
    league.bot.clock.set(at(date(2027, 3, 31), 9))  # type: ignore[attr-defined]
    shown = (await league.run("/playoffs show", as_member="sp2")).text()
    assert "W2-1 · **(1) Flipper Kings** beat (2) Ball Busters 12–0" in shown
    assert "🏆 Champion: **Flipper Kings**" in shown and "🏆 Champion: **Spinners**" in shown
    await refused(
        league,
        "/playoffs next",
        as_member="alice",
        rule=None,
        message="The playoffs are over (East: Flipper Kings; West: Spinners)",
    )


async def _venues(league: RunningBot) -> list[Venue]:
    async with league.db.reading() as session:
        return list((await session.exec(select(Venue))).all())
