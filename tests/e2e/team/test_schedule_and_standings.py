"""The season from Discord: /schedule generate and show (TEAM-SCHED-1, TEAM-ROSTER-9, TEAM-CFG-1), and
/standings from stored match facts (TEAM-STAND-1..3, TEAM-FORF-1, TEAM-VENUE-1, TEAM-MATCH-4, TEAM-TV-1)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime, timedelta

import pytest
from sqlalchemy import event
from sqlmodel import select

from bot.local.emulator import EmulatorError, InteractionResult
from bot.rules.refusals import InvalidInput
from bot.rules.team.model import Side
from bot.services.actor import Actor
from bot.services.team.playoffs import playoff_eligible_players
from storage.matches import MatchKind
from storage.models import Season, Team
from tests.e2e.harness import RunningBot
from tests.e2e.season import (
    NEW_YORK,
    START,
    Facts,
    between,
    build_roster,
    refused,
    side_of,
    stored_matches,
    teams_by_name,
)

FROM_TABLE = re.compile(r'FROM "?(\w+)"?')
ROW = re.compile(r"^(\d+=?)\s+(.+?)\s+(\d+-\d+)\s+(\S+)\s+(\d+)\s*(\S*)$")


async def test_commissioner_generates_a_balanced_season(season_league: RunningBot) -> None:
    """TEAM-SCHED-1, TEAM-CFG-1: one match per team per week, within its conference, on the HOME team's
    evening at its bar, home and away within one of each other; every match audited; then /schedule show."""
    league = season_league
    reply = await league.run("/schedule generate weeks:4 start:2027-03-01", as_member="alice")
    assert not reply.ephemeral, reply.content
    assert "12 matches over 4 weeks, Mon 2027-03-01 to Thu 2027-03-25" in reply.text()
    assert "Flipper Kings: 2 home · 2 away" in reply.text()

    matches = await stored_matches(league)
    teams = await teams_by_name(league)
    by_id = {team.id: team for team in teams.values()}
    assert len(matches) == 12 and {m.kind for m in matches} == {MatchKind.REGULAR}
    per_week = Counter((m.week, team) for m in matches for team in (m.home_team_id, m.away_team_id))
    assert set(per_week.values()) == {1} and len(per_week) == 6 * 4
    for match in matches:
        home, away = by_id[match.home_team_id], by_id[match.away_team_id]
        week_start = START + timedelta(weeks=match.week - 1)
        assert week_start <= match.play_on < week_start + timedelta(days=7)
        assert match.play_on.weekday() == home.match_weekday
        assert match.venue_id == home.home_venue_id
        assert home.conference_id == away.conference_id
    home_games = Counter(m.home_team_id for m in matches)
    away_games = Counter(m.away_team_id for m in matches)
    assert all(abs(home_games[team] - away_games[team]) <= 1 for team in by_id)
    audited = [e for e in await league.audit() if e.entity == "match"]
    assert len(audited) == 12 and {e.action for e in audited} == {"create"}
    assert {e.command for e in audited} == {"/schedule generate"}

    this_week = await league.run("/schedule show", as_member="fk2")
    assert this_week.ephemeral and "schedule: week 1" in this_week.text()
    assert len(re.findall(r"^\w{3} 03-0\d · ", this_week.embeds[0]["description"], re.M)) == 3
    kings = await league.run('/schedule show team:"Flipper Kings"', as_member="fk2")
    kings_matches = [m for m in matches if teams["Flipper Kings"].id in (m.home_team_id, m.away_team_id)]
    assert kings.text().count("Flipper Kings") == len(kings_matches) + 1  # every match, and the title
    first = kings_matches[0]
    assert (
        f"{first.play_on:%a %m-%d} · {by_id[first.away_team_id].name} at {by_id[first.home_team_id].name}"
    ) in kings.text()
    await refused(
        league, "/schedule show week:9", as_member="fk2", rule=None, message="has no week 9: it has weeks 1–4"
    )


async def test_generate_refuses_and_changes_nothing(season_league: RunningBot) -> None:
    """COMMON-ROLE-1, bad weeks and dates, TEAM-ROSTER-9 (no roster, or one not yet in force), a team without
    a bar or too few teams (TEAM-SCHED-1), and a second schedule for the same season."""
    league = season_league
    generate = "/schedule generate weeks:4 start:2027-03-15"
    await refused(league, generate, as_member="fk1", rule="COMMON-ROLE-1", message="Only commissioners of NYC")
    await refused(
        league, "/schedule generate weeks:4 start:2027-02-25", as_member="alice", rule=None, message="in the past"
    )
    await refused(
        league, "/schedule generate weeks:4 start:15/03/2027", as_member="alice", rule=None, message="is not a date"
    )
    for weeks in (0, 100):  # Discord itself refuses these (the option's range), and so does the service
        with pytest.raises(EmulatorError, match="between 1 and 52"):
            await league.run(f"/schedule generate weeks:{weeks} start:2027-03-15", as_member="alice")
        actor = Actor(league.emulator.guild.id, 1, "Admin", frozenset(), is_admin=True, command="/schedule generate")
        with pytest.raises(InvalidInput, match="`weeks` must be between 1 and 52"):
            await league.bot.services.schedule.generate(actor, None, weeks=weeks, start="2027-03-15")

    await league.run('/team create name:"Nomads" evening:Friday conference:East', as_member="alice")
    await refused(league, generate, as_member="alice", rule="TEAM-ROSTER-9", message="Nomads has no submitted roster")
    await build_roster(league, "Nomads", "no", effective="2027-03-17")
    await refused(league, generate, as_member="alice", rule="TEAM-SCHED-1", message="Nomads has no home venue")
    barcade = (await teams_by_name(league))["Ball Busters"].home_venue_id
    async with league.db.writing() as session:  # no command changes a team's venue yet
        nomads = (await session.exec(select(Team).where(Team.name == "Nomads"))).one()
        nomads.home_venue_id = barcade
        session.add(nomads)
    await refused(
        league,
        "/schedule generate weeks:4 start:2027-03-08",
        as_member="alice",
        rule="TEAM-ROSTER-9",
        message="Nomads (roster from Wed 2027-03-17, first match",
    )

    accepted = await league.run("/schedule generate weeks:5 start:2027-03-29", as_member="alice")
    assert "matches over 5 weeks" in accepted.text(), accepted.content
    assert "Nomads: " in accepted.text() and "1 bye" in accepted.text()  # East now has 5 teams
    matches = await stored_matches(league)
    assert min(m.play_on for m in matches) >= date(2027, 3, 29)
    assert len(matches) == 5 * (2 + 1)  # East: 2 matches and a bye a week; West: 1 match
    await refused(league, generate, as_member="alice", rule=None, message="already has its regular-season schedule")
    await league.run('/league create name:"Empty" format:team', as_member="owner")
    await refused(
        league, f"{generate} league:Empty", as_member="owner", rule="TEAM-SCHED-1", message="needs at least 2 teams"
    )


# --- standings from stored facts ------------------------------------------------------------------------


def table_rows(field_value: str) -> list[tuple[str, ...]]:
    lines = field_value.strip("`\n").splitlines()[1:]  # after the header
    return [match.groups() for line in lines if (match := ROW.match(line))]


async def test_standings_rank_final_results_per_conference(season_league: RunningBot) -> None:
    """TEAM-STAND-1: record, then match points, then head-to-head; forfeits count 9/12/0; a played match
    counts its game points (TEAM-TV-1, 10–6); only confirmed results count (TEAM-MATCH-4); per conference
    (TEAM-CFG-1); a tie level after every step touches the playoffs (TEAM-STAND-2)."""
    league = season_league
    await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
    matches, teams = await stored_matches(league), await teams_by_name(league)
    facts = await Facts.load(league)
    kings, busters, warriors, drains = (
        teams[n] for n in ["Flipper Kings", "Ball Busters", "Tilt Warriors", "Drain Masters"]
    )

    kb = between(matches, teams, "Flipper Kings", "Ball Busters")
    await facts.attendance_forfeit(kb, side_of(kb, kings))  # Kings 9–0
    kw = between(matches, teams, "Flipper Kings", "Tilt Warriors")
    await facts.venue_forfeit(kw, side_of(kw, kings))  # Warriors 12–0
    kd = between(matches, teams, "Flipper Kings", "Drain Masters")
    await facts.venue_forfeit(kd, side_of(kd, drains))  # Kings 12–0
    bw = between(matches, teams, "Ball Busters", "Tilt Warriors")
    await facts.venue_forfeit(bw, side_of(bw, warriors))  # Busters 12–0
    bd = between(matches, teams, "Ball Busters", "Drain Masters")
    await facts.attendance_forfeit(bd, side_of(bd, busters))  # Busters 9–0
    wd = between(matches, teams, "Tilt Warriors", "Drain Masters")
    tv1 = "HAHHHHHAAAAH" if side_of(wd, drains) is Side.HOME else "AHAAAAAHHHHA"
    await facts.played(wd, tv1)  # TEAM-TV-1: Drain Masters 10–6
    for week in (1, 2):  # each side wins its home match 12–0: level through step 5
        west = between(matches, teams, "Spinners", "Rollovers", week=week)
        await facts.venue_forfeit(west, Side.AWAY)
    unconfirmed = between(matches, teams, "Spinners", "Rollovers", week=3)
    await facts.attendance_forfeit(unconfirmed, Side.HOME, confirmed=False)

    league.bot.clock.set(datetime(2027, 3, 22, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    reply = await league.run("/standings", as_member="fk3")
    assert not reply.ephemeral, reply.content
    embed = reply.embeds[0]
    assert "8 of 9 regular-season matches final" in embed["description"]
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert table_rows(fields["East"]) == [
        ("1", "Flipper Kings", "2-1", ".667", "21", "H2H"),  # TEAM-STAND-3: head-to-head, Kings beat Busters
        ("2", "Ball Busters", "2-1", ".667", "21", "H2H"),
        ("3", "Tilt Warriors", "1-2", ".333", "18", "MP"),
        ("4", "Drain Masters", "1-2", ".333", "10", "MP"),
    ]  # TEAM-MATCH-1: Drain Masters' 10 game points beat Tilt Warriors' 6, a Win for Drain Masters
    assert table_rows(fields["West"]) == [  # still level: listed by team id
        ("1=", "Spinners", "1-1", ".500", "12", "="),
        ("1=", "Rollovers", "1-1", ".500", "12", "="),
    ]
    tie_note = fields["⚖️ Tie-breaker match (TEAM-STAND-2)"]
    assert "West: Rollovers and Spinners are level after every tie-break step" in tie_note
    assert "East" not in tie_note

    # A what-if moves the playoff line (TEAM-AMB-14) for the caller alone: the matches' results stand, and
    # nothing is stored (COMMON-LEAGUE-2).
    counts, before = await league.row_counts(), await league.digest()
    what_if = await league.run('/standings what-if:"2 playoff teams"', as_member="fk3")
    assert what_if.ephemeral and what_if.embeds[0]["title"].startswith("🔮 What if: 2 playoff teams")
    assert "Hypothetical" in what_if.embeds[0]["footer"]["text"]
    hypothetical = {field["name"]: field["value"] for field in what_if.embeds[0]["fields"]}
    assert table_rows(hypothetical["East"]) == table_rows(fields["East"])
    assert await league.row_counts() == counts and await league.digest() == before
    assert (await league.run("/standings", as_member="fk3")).embeds == reply.embeds

    west_only = await league.run("/standings conference:west", as_member="fk3")
    assert [f["name"] for f in west_only.embeds[0]["fields"]] == ["West", "⚖️ Tie-breaker match (TEAM-STAND-2)"]
    await refused(league, "/standings conference:North", as_member="fk3", rule=None, message="Conferences: East, West")

    week3 = await league.run("/schedule show week:3", as_member="fk3")
    assert "waiting for HOME captain's confirmation" in week3.text()
    drains_view = await league.run('/schedule show team:"Drain Masters"', as_member="fk3")
    played = next(line for line in drains_view.text().splitlines() if "Tilt Warriors" in line)
    assert "**Drain Masters**" in played and ("6–10" in played or "10–6" in played) and "· final" in played


async def test_standings_load_teams_and_matches_once(season_league: RunningBot) -> None:
    """A season is read with one query for its matches, none per match for teams or venues, and one query per
    facts table for all its matches together (`match_facts.results`), however many matches it has."""
    league = season_league
    await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
    league.bot.clock.set(datetime(2027, 3, 22, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    statements: list[str] = []

    def record(_connection: object, _cursor: object, statement: str, *_: object) -> None:
        statements.append(statement)

    event.listen(league.db.engine.sync_engine, "before_cursor_execute", record)
    try:
        reply = await league.run("/standings", as_member="fk3")
    finally:
        event.remove(league.db.engine.sync_engine, "before_cursor_execute", record)
    assert "0 of 9 regular-season matches final" in reply.text()
    reads = Counter(found[1] for s in statements if (found := FROM_TABLE.search(s)))
    assert reads["match"] == 1 and reads["venue"] == 1 and reads["team"] <= 2, reads
    facts_tables = ["match_visit", "match_lineup", "game_score", "game_penalty", "match_confirmation"]
    assert all(reads[table] == 1 for table in facts_tables), reads


async def test_playoffs_seed_from_the_final_standings(season_league: RunningBot) -> None:
    """TEAM-PO-1: once every regular result is final, each conference is seeded from its standings and the
    higher seed is HOME at its own venue; results advance the bracket; only players with a regular-season
    game are playoff-eligible (TEAM-PO-2, TEAM-PO-3, TEAM-AMB-15)."""
    league = season_league
    await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
    matches, teams = await stored_matches(league), await teams_by_name(league)
    facts = await Facts.load(league)
    order = ["Flipper Kings", "Ball Busters", "Tilt Warriors", "Drain Masters", "Spinners", "Rollovers"]
    kings = teams["Flipper Kings"]
    held_back = between(matches, teams, "Spinners", "Rollovers", week=3)
    for match in matches:  # the better team in `order` wins every meeting: East ends 3-0, 2-1, 1-2, 0-3
        names = {name for name, team in teams.items() if team.id in (match.home_team_id, match.away_team_id)}
        winner = teams[min(names, key=order.index)]
        if names == {"Flipper Kings", "Ball Busters"}:
            await facts.played(match, "HAHHHHHAAAAH" if side_of(match, kings) is Side.HOME else "AHAAAAAHHHHA")
        elif match.id != held_back.id:
            await facts.venue_forfeit(match, side_of(match, winner).other)
    league.bot.clock.set(datetime(2027, 3, 22, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    seed = "/playoffs seed start:2027-03-22"
    await refused(league, seed, as_member="alice", rule="TEAM-PO-1", message="1 season match(es) are not final yet")
    await facts.venue_forfeit(held_back, side_of(held_back, teams["Rollovers"]))
    await refused(league, seed, as_member="fk1", rule="COMMON-ROLE-1", message="Only commissioners")

    seeded = await league.run(seed, as_member="alice")
    assert not seeded.ephemeral and "3 first-round matches scheduled" in seeded.text(), seeded.content
    assert "Seeds: 1 Flipper Kings · 2 Ball Busters · 3 Tilt Warriors · 4 Drain Masters" in seeded.text()
    playoffs = [m for m in await stored_matches(league) if m.kind is MatchKind.PLAYOFF]
    by_id = {team.id: team for team in teams.values()}
    assert sorted(
        (m.bracket_match, by_id[m.home_team_id].name, by_id[m.away_team_id].name, m.play_on.isoformat(), m.week)
        for m in playoffs
    ) == [
        ("W1-1", "Flipper Kings", "Drain Masters", "2027-03-23", 4),
        ("W1-1", "Spinners", "Rollovers", "2027-03-22", 4),
        ("W1-2", "Ball Busters", "Tilt Warriors", "2027-03-23", 4),
    ]
    assert all(m.venue_id == by_id[m.home_team_id].home_venue_id for m in playoffs)
    await refused(league, seed, as_member="alice", rule=None, message="playoffs are already seeded")

    semifinal = next(m for m in playoffs if m.home_team_id == kings.id)
    await facts.venue_forfeit(semifinal, Side.AWAY)
    league.bot.clock.set(datetime(2027, 3, 24, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    shown = (await league.run("/playoffs show", as_member="sp2")).text()
    assert "W1-1 · **(1) Flipper Kings** beat (4) Drain Masters 12–0" in shown
    assert "W2-1 · (1) Flipper Kings vs winner of W1-2" in shown
    assert "W1-1 · (1) Spinners vs (2) Rollovers · Mon 03-22 at Barcade" in shown
    standings = await league.run("/standings conference:East", as_member="sp2")
    assert table_rows(standings.embeds[0]["fields"][0]["value"])[0][:3] == ("1", "Flipper Kings", "3-0")

    async with league.db.reading() as session:
        season = (await session.exec(select(Season))).one()
        eligible = await playoff_eligible_players(session, season, kings)
    assert eligible == set(facts.players[kings.id or 0][:4])  # the four who played; two never did


async def test_the_tie_breaker_match_date_follows_the_bye_week_team_stand_2(season_league: RunningBot) -> None:
    """TEAM-STAND-2: once the regular season is over, a tie level after every step that touches the playoffs
    gets its tie-breaker match date: two nights after the later of the tied teams' last regular match (no bye
    week), or the regular match night of the week after the regular season when a bye week comes before the
    playoffs (`/season postseason` more than a week after the last regular match)."""
    league = season_league
    await league.run("/schedule generate weeks:2 start:2027-03-01", as_member="alice")
    matches, facts = await stored_matches(league), await Facts.load(league)
    for match in matches:  # every home team wins 12–0; Spinners and Rollovers (Mondays) split theirs
        await facts.venue_forfeit(match, Side.AWAY)
    assert max(m.play_on for m in matches) == date(2027, 3, 11)  # the season's last match, a Thursday
    league.bot.clock.set(datetime(2027, 3, 12, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]

    def west_note(reply: InteractionResult) -> str:
        fields = {field["name"]: field["value"] for field in reply.embeds[0]["fields"]}
        return next(line for line in fields["⚖️ Tie-breaker match (TEAM-STAND-2)"].splitlines() if "West" in line)

    no_bye = west_note(await league.run("/standings", as_member="fk3"))
    assert "Rollovers and Spinners are level" in no_bye
    assert "A tie-breaker match is due on Wed 2027-03-10" in no_bye, no_bye  # Mon 03-08 + two nights
    dated = await league.run("/season postseason date:2027-03-29", as_member="alice")
    assert not dated.content.startswith("⛔"), dated.content
    bye = west_note(await league.run("/standings", as_member="fk3"))
    assert "A tie-breaker match is due on Mon 2027-03-15" in bye, bye  # their match night after Thu 03-11


async def test_teams_without_an_away_match_skip_the_away_step_team_amb_11(season_league: RunningBot) -> None:
    """One East match is won by its HOME team, the other by its AWAY team, both 12–0: the two winners are level on
    record and match points and never met, and one of them has played no away match."""
    league = season_league
    await league.run("/schedule generate weeks:1 start:2027-03-01", as_member="alice")
    matches, teams = await stored_matches(league), await teams_by_name(league)
    east = {teams[n].id for n in ["Flipper Kings", "Ball Busters", "Tilt Warriors", "Drain Masters"]}
    first, second = (m for m in matches if m.home_team_id in east)
    facts = await Facts.load(league)
    await facts.venue_forfeit(first, Side.AWAY)  # HOME wins at home
    await facts.venue_forfeit(second, Side.HOME)  # AWAY wins away
    league.bot.clock.set(datetime(2027, 3, 8, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    reply = await league.run("/standings conference:east", as_member="fk3")
    rows = table_rows(reply.embeds[0]["fields"][0]["value"])
    # TEAM-AMB-11: the HOME winner has no away match, so the away-% step is skipped and the winners stay level.
    assert [(rank, wl, mp, step) for rank, _, wl, _, mp, step in rows[:2]] == [
        ("1=", "1-0", "12", "="),
        ("1=", "1-0", "12", "="),
    ], rows


async def test_the_away_winning_percentage_splits_teams_that_never_met_team_stand_3(season_league: RunningBot) -> None:
    """Two East teams that never met, each 1-1 with 12 match points: one won away and lost at home, the other the
    reverse."""
    league = season_league
    await league.run("/schedule generate weeks:2 start:2027-03-01", as_member="alice")
    matches, teams = await stored_matches(league), await teams_by_name(league)
    east = [teams[n] for n in ["Flipper Kings", "Ball Busters", "Tilt Warriors", "Drain Masters"]]
    games = {t.id: [m for m in matches if t.id in (m.home_team_id, m.away_team_id)] for t in east}
    away_winner, home_winner = next(
        (x, y)
        for x in east
        for y in east
        if x.id != y.id
        and not {m.id for m in games[x.id]} & {m.id for m in games[y.id]}
        and sorted(m.home_team_id == x.id for m in games[x.id]) == [False, True]
    )
    facts = await Facts.load(league)
    for match in games[away_winner.id]:  # wins away 12–0, loses at home 0–12
        await facts.venue_forfeit(match, Side.HOME)
    for match in games[home_winner.id]:  # wins at home 12–0, loses away 0–12
        await facts.venue_forfeit(match, Side.AWAY)
    league.bot.clock.set(datetime(2027, 3, 15, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    reply = await league.run("/standings conference:east", as_member="fk3")
    rows = {name: (wl, mp, step) for _, name, wl, _, mp, step in table_rows(reply.embeds[0]["fields"][0]["value"])}
    names = [name for _, name, *_ in table_rows(reply.embeds[0]["fields"][0]["value"])]
    # TEAM-STAND-3: away winning % (1 of 1 against 0 of 1) splits them, after record and match points.
    assert rows[away_winner.name] == ("1-1", "12", "Away") and rows[home_winner.name][:2] == ("1-1", "12"), rows
    assert names.index(away_winner.name) < names.index(home_winner.name), names


async def test_a_three_way_tie_restarts_once_a_team_is_separated_team_amb_10(season_league: RunningBot) -> None:
    """Kings, Busters and Warriors beat Drain Masters and each other in a circle, all 2-1 with 21 match points.
    Among the three, Kings took only 9 head-to-head points (a forfeit win) against 12 each for the others."""
    league = season_league
    await league.run("/schedule generate weeks:3 start:2027-03-01", as_member="alice")
    matches, teams = await stored_matches(league), await teams_by_name(league)
    facts = await Facts.load(league)

    async def win(winner: str, loser: str, *, forfeit: bool) -> None:
        match = between(matches, teams, winner, loser)
        if forfeit:  # only the winner came: 9–0
            await facts.attendance_forfeit(match, side_of(match, teams[winner]))
        else:  # the loser moved the match without cause: 12–0
            await facts.venue_forfeit(match, side_of(match, teams[loser]))

    await win("Flipper Kings", "Ball Busters", forfeit=True)
    await win("Ball Busters", "Tilt Warriors", forfeit=False)
    await win("Tilt Warriors", "Flipper Kings", forfeit=False)
    await win("Flipper Kings", "Drain Masters", forfeit=False)
    await win("Ball Busters", "Drain Masters", forfeit=True)
    await win("Tilt Warriors", "Drain Masters", forfeit=True)
    league.bot.clock.set(datetime(2027, 3, 22, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]
    reply = await league.run("/standings conference:east", as_member="fk3")
    rows = table_rows(reply.embeds[0]["fields"][0]["value"])
    # TEAM-AMB-10: the three-team mini-table separates Kings (9 head-to-head points); Busters and Warriors,
    # still level, start again from the top and Busters' win over Warriors puts them first.
    assert [(rank, name, mp, step) for rank, name, _, _, mp, step in rows] == [
        ("1", "Ball Busters", "21", "H2H"),
        ("2", "Tilt Warriors", "21", "H2H"),
        ("3", "Flipper Kings", "21", "H2H-MP"),
        ("4", "Drain Masters", "0", ""),
    ], rows
