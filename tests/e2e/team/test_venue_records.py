"""The venue record from Discord: its regular-venue flag, home teams, and machines with the days they were there."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import select

from bot.clock import ManualClock
from storage.matches import MatchKind
from storage.models import Machine, Venue
from tests.e2e.harness import RunningBot
from tests.e2e.season import Facts, refused, side_of, stored_matches, teams_by_name
from tests.e2e.team_night import NEW_YORK, Night

# The better team in ORDER wins every meeting: East's first round is Flipper Kings and Ball Busters at home.
ORDER = ["Flipper Kings", "Ball Busters", "Tilt Warriors", "Drain Masters", "Spinners", "Rollovers"]


async def test_a_venue_record_keeps_its_flag_home_teams_and_dated_machines(night: Night) -> None:
    """COMMON-VENUE-1: a venue added as not a regular league venue, then marked as one; Ace Arcade's record names
    both home teams and keeps Attack from Mars, removed on 2027-03-01, with both its dates, while it is no longer
    offered. A second removal, or one dated before it came or after today, is refused and changes nothing."""
    league = night.league
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    added = await night.run('/venue add name:"Private Basement" address:"12 Elm St" regular:false', "alice")
    assert "Private Basement" in added, added
    basement = await night.run('/venue show venue:"Private Basement"', "h2")
    assert "12 Elm St" in basement and "Not a regular league venue." in basement, basement
    assert "No team's home venue." in basement, basement
    marked = await night.run('/venue regular venue:"Private Basement" regular:true', "alice")
    assert "is a regular league venue" in marked, marked
    assert "Regular league venue." in await night.run('/venue show venue:"Private Basement"', "h2")

    godzilla, madness, mars = night.machines
    clock.set(datetime(2027, 3, 2, 10, 0, tzinfo=NEW_YORK))
    for day, message in (
        ("2027-02-25", "is before Attack from Mars was installed (2027-02-26)"),
        ("2027-03-03", "is in the future"),
        ("03/01/2027", "is not a date"),
    ):
        rule = None if "/" in day else "COMMON-VENUE-1"
        await refused(league, f"/machine remove machine:{mars} on:{day}", as_member="alice", rule=rule, message=message)
    removed = await night.run(f"/machine remove machine:{mars} on:2027-03-01", "alice")
    assert "Attack from Mars" in removed and "left Ace Arcade on 2027-03-01" in removed, removed
    await refused(
        league,
        f"/machine remove machine:{mars}",
        as_member="alice",
        rule="COMMON-VENUE-1",
        message="Attack from Mars was already removed on 2027-03-01",
    )

    record = await night.run('/venue show venue:"Ace Arcade"', "h2")
    assert "Home of: Flipper Kings, Tilt Warriors." in record, record
    assert f"Godzilla (#{godzilla}) · since 2027-02-26, working" in record, record
    assert f"Medieval Madness (#{madness}) · since 2027-02-26, working" in record, record
    assert f"Attack from Mars (#{mars}) · 2027-02-26 – 2027-03-01 (removed)" in record, record
    offered = await league.emulator.autocomplete("/machine status machine:", focused="machine", as_member="alice")
    assert [choice["value"] for choice in offered] == [godzilla, madness], offered


async def machine_ids(league: RunningBot, venue: str) -> dict[str, int]:
    async with league.db.reading() as session:
        rows = (await session.exec(select(Machine).join(Venue).where(Venue.name == venue))).all()
    return {m.model_name: m.id or 0 for m in rows}


async def test_a_home_machine_removed_mid_season_still_counts_as_a_home_model(season_league: RunningBot) -> None:
    """COMMON-VENUE-1 with TEAM-PO-4/PO-5: Jaws stood at Flipper Kings' Ace Arcade until 2027-03-10, in the
    season, so it is a home model of theirs and Corner Bar's Jaws fails c3 and is excluded. Twilight Zone left
    the Busters' Barcade on 2027-02-27, before week one, so Silver Ball's Twilight Zone meets every criterion."""
    league = season_league
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    await league.run('/venue add name:"Corner Bar"', as_member="alice")
    await league.run('/venue add name:"Private Basement" regular:false', as_member="alice")
    for venue, models in (
        ("Ace Arcade", ["Godzilla", "Medieval Madness", "Jaws"]),
        ("Barcade", ["Godzilla", "Attack from Mars", "Twilight Zone"]),
        ("Silver Ball", ["Twilight Zone"]),
        ("Corner Bar", ["Jaws"]),
        ("Private Basement", ["Cactus Canyon"]),
    ):
        for model in models:
            await league.run(f'/machine add venue:"{venue}" model:"{model}"', as_member="alice")
    clock.set(datetime(2027, 2, 27, 10, 0, tzinfo=NEW_YORK))
    barcade_tz = (await machine_ids(league, "Barcade"))["Twilight Zone"]
    assert (
        "left Barcade on 2027-02-27"
        in (await league.run(f"/machine remove machine:{barcade_tz}", as_member="alice")).text()
    )

    await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
    teams, facts = await teams_by_name(league), await Facts.load(league)
    for match in await stored_matches(league):
        names = {name for name, team in teams.items() if team.id in (match.home_team_id, match.away_team_id)}
        await facts.venue_forfeit(match, side_of(match, teams[min(names, key=ORDER.index)]).other)
    clock.set(datetime(2027, 3, 22, 9, 0, tzinfo=NEW_YORK))
    ace_jaws = (await machine_ids(league, "Ace Arcade"))["Jaws"]
    removed = await league.run(f"/machine remove machine:{ace_jaws} on:2027-03-10", as_member="alice")
    assert "left Ace Arcade on 2027-03-10" in removed.text(), removed.content
    await league.run("/playoffs seed start:2027-03-22", as_member="alice")
    for match in await stored_matches(league):
        if match.kind is MatchKind.PLAYOFF:
            winner = min(
                (n for n, t in teams.items() if t.id in (match.home_team_id, match.away_team_id)), key=ORDER.index
            )
            await facts.venue_forfeit(match, side_of(match, teams[winner]).other)
    clock.set(datetime(2027, 3, 24, 9, 0, tzinfo=NEW_YORK))

    ranking = await league.run("/playoffs next", as_member="alice")
    [field] = ranking.embeds[0]["fields"]
    assert field["name"] == "East W2-1: (1) Flipper Kings v (2) Ball Busters · from Wed 03-24"
    assert field["value"].splitlines() == [
        "1. **Silver Ball** · meets c1–c4 · excluded: none",
        "2. **Corner Bar** · fails c3 (home-venue models) · excluded: Jaws (home model of Flipper Kings)",
        "3. **Ace Arcade** · fails c1 (a team's home), c2 (played there in these playoffs), c3 (home-venue models) · "
        "excluded: Medieval Madness (home model of Flipper Kings)",
        "3. **Barcade** · fails c1 (a team's home), c2 (played there in these playoffs), c3 (home-venue models) · "
        "excluded: Attack from Mars (home model of Ball Busters)",
    ], field["value"]
