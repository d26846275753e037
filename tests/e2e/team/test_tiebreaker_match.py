"""`/schedule tiebreaker`: the tie-breaker match of two teams still level after step 5 of the standings
(TEAM-STAND-2, TEAM-AMB-19, TEAM-TV-11), in a West conference of seven Monday teams whose two weeks of results
leave Gobble Holes and Hurry Ups level for 4th/5th and Inlanes and Jackpots level for 6th/7th."""

from __future__ import annotations

from datetime import date, datetime

from sqlmodel import select

from bot.local.emulator import InteractionResult
from bot.rules.team.model import Side
from storage.matches import Match, MatchKind
from storage.models import Season, Venue
from tests.e2e.harness import RunningBot
from tests.e2e.season import NEW_YORK, Facts, refused, teams_by_name

NEW_TEAMS = [  # name, home venue; all play Mondays in the West with Spinners and Rollovers
    ("Captive Balls", "Ace Arcade"),
    ("Gobble Holes", "Barcade"),
    ("Hurry Ups", "Silver Ball"),
    ("Inlanes", "Barcade"),
    ("Jackpots", "Silver Ball"),
]
# (day, away, home, the side that loses 0–12): Spinners 2-0; Rollovers and Captive Balls 1-0; Gobble Holes and
# Hurry Ups 1-1, 12 match points, never met, each won their one away match; Inlanes and Jackpots 0-2, never met,
# each lost their one away match
RESULTS = [
    (date(2027, 3, 1), "Rollovers", "Hurry Ups", Side.HOME),
    (date(2027, 3, 1), "Gobble Holes", "Inlanes", Side.HOME),
    (date(2027, 3, 1), "Jackpots", "Spinners", Side.AWAY),
    (date(2027, 3, 8), "Spinners", "Gobble Holes", Side.HOME),
    (date(2027, 3, 8), "Hurry Ups", "Jackpots", Side.HOME),
    (date(2027, 3, 8), "Inlanes", "Captive Balls", Side.AWAY),
]
SCHEDULE_G_AND_H = '/schedule tiebreaker team_a:"Gobble Holes" team_b:"Hurry Ups" venue:"Ace Arcade"'


async def seven_team_west(league: RunningBot) -> Facts:
    """The five new West teams, and the two Mondays' matches at the HOME team's venue, decided by venue
    forfeits (final at once)."""
    for name, venue in NEW_TEAMS:
        created = await league.run(
            f'/team create name:"{name}" evening:Monday home_venue:"{venue}" conference:West', as_member="alice"
        )
        assert not created.content.startswith("⛔"), created.content
    teams = await teams_by_name(league)
    async with league.db.writing() as session:
        season = (await session.exec(select(Season))).one()
        for day, away, home, _ in RESULTS:
            session.add(
                Match(
                    league_id=season.league_id, season_id=season.id or 0, week=1 if day.day == 1 else 2, play_on=day,
                    home_team_id=teams[home].id or 0, away_team_id=teams[away].id or 0,
                    venue_id=teams[home].home_venue_id,
                )
            )  # fmt: skip
    facts = await Facts.load(league)
    async with league.db.reading() as session:
        matches = (await session.exec(select(Match).order_by(Match.id))).all()
    for match, (_, _, _, loser) in zip(matches, RESULTS, strict=True):
        await facts.venue_forfeit(match, loser)
    return facts


def set_day(league: RunningBot, day: date) -> None:
    league.bot.clock.set(datetime(day.year, day.month, day.day, 9, 0, tzinfo=NEW_YORK))  # type: ignore[attr-defined]


async def tiebreaker_matches(league: RunningBot) -> list[Match]:
    async with league.db.reading() as session:
        return list((await session.exec(select(Match).where(Match.kind == MatchKind.TIEBREAKER_MATCH))).all())


def standings_field(reply: InteractionResult, name: str) -> str:
    fields = {field["name"]: field["value"] for field in reply.embeds[0]["fields"]}
    return str(fields[name])


async def test_without_a_bye_week_the_tie_breaker_match_is_two_nights_later_team_tv_11(
    season_league: RunningBot,
) -> None:
    """TEAM-TV-11 (b), (c), TEAM-STAND-2, TEAM-AMB-19: Gobble Holes and Hurry Ups, level for 4th/5th, both last
    played Mon 2027-03-08; with no bye week their tie-breaker match is on Wed 2027-03-10, at a neutral venue, and
    Hurry Ups, who won the recorded coin toss, are HOME. Inlanes and Jackpots, level for 6th/7th with 4 playoff
    places, get none. Refused too: before the regular season is over, teams that are not level, a tied team's
    home venue, a captain, and a second match for the same pair."""
    league = season_league
    await seven_team_west(league)
    set_day(league, date(2027, 3, 2))
    await refused(
        league, f"{SCHEDULE_G_AND_H} toss:team_b", as_member="alice", rule="TEAM-STAND-2",
        message="The regular season still has 3 match(es) without a final result",
    )  # fmt: skip

    set_day(league, date(2027, 3, 9))
    notes = standings_field(await league.run("/standings", as_member="fk3"), "⚖️ Tie-breaker match (TEAM-STAND-2)")
    assert "West: Gobble Holes and Hurry Ups are level after every tie-break step" in notes, notes
    assert "A tie-breaker match is due on Wed 2027-03-10" in notes, notes
    assert "Inlanes" not in notes, notes  # TEAM-TV-11 (c): a tie below the playoff line is left as it is
    below_the_line = '/schedule tiebreaker team_a:Inlanes team_b:Jackpots venue:"Ace Arcade" toss:team_a'
    await refused(
        league, below_the_line, as_member="alice", rule="TEAM-STAND-2",
        message="Inlanes and Jackpots are level for 6th–7th place, below the 4 playoff places",
    )  # fmt: skip
    await refused(
        league, '/schedule tiebreaker team_a:Spinners team_b:"Gobble Holes" venue:"Ace Arcade"', as_member="alice",
        rule="TEAM-STAND-2", message="Spinners and Gobble Holes are not level after the tie-break steps (Spinners is",
    )  # fmt: skip
    await refused(
        league, SCHEDULE_G_AND_H.replace("Ace Arcade", "Barcade"), as_member="alice", rule="TEAM-AMB-19",
        message="Barcade is Gobble Holes's home venue; a tie-breaker match is played at a neutral venue",
    )  # fmt: skip
    await refused(league, SCHEDULE_G_AND_H, as_member="fk1", rule="COMMON-ROLE-1", message="Only commissioners of NYC")

    scheduled = await league.run(f"{SCHEDULE_G_AND_H} toss:team_b", as_member="alice")
    text = scheduled.text()
    assert not scheduled.ephemeral, text
    assert "Wed 03-10 · Gobble Holes at Hurry Ups · Ace Arcade ⚖️ tie-breaker match" in text, text
    assert "two nights after the later of the two teams' last regular-season match" in text, text
    assert "Hurry Ups is HOME: Hurry Ups won the coin toss (as recorded" in text, text
    teams = await teams_by_name(league)
    [match] = await tiebreaker_matches(league)
    async with league.db.reading() as session:
        venue = await session.get(Venue, match.venue_id)
    assert (match.play_on, match.week) == (date(2027, 3, 10), 2)
    assert (match.home_team_id, match.away_team_id) == (teams["Hurry Ups"].id, teams["Gobble Holes"].id)
    assert venue is not None and venue.name == "Ace Arcade"
    [created] = [e for e in await league.audit() if e.entity == "match" and e.command == "/schedule tiebreaker"]
    assert created.reason == "Coin toss won by Hurry Ups, HOME (the commissioner recorded the toss)."
    notes = standings_field(await league.run("/standings", as_member="fk3"), "⚖️ Tie-breaker match (TEAM-STAND-2)")
    [gobble_holes] = [line for line in notes.splitlines() if "Gobble Holes and Hurry Ups" in line]
    assert gobble_holes.endswith("Their tie-breaker match is on Wed 2027-03-10 at Ace Arcade."), notes
    shown = await league.run('/schedule show team:"Hurry Ups"', as_member="fk3")
    assert "Gobble Holes at Hurry Ups · Ace Arcade ⚖️ tie-breaker match" in shown.text(), shown.text()
    await refused(
        league, f"{SCHEDULE_G_AND_H} toss:team_a", as_member="alice", rule=None,
        message="Gobble Holes and Hurry Ups already have their tie-breaker match",
    )  # fmt: skip


async def test_with_a_bye_week_the_tie_breaker_match_is_the_next_match_night_team_tv_11(
    season_league: RunningBot,
) -> None:
    """TEAM-TV-11 (a), TEAM-STAND-2, TEAM-AMB-19: the playoffs start Mon 2027-03-29, so a bye week comes first
    and the tie-breaker match goes on Mon 2027-03-15, the teams' match night the week after the regular season.
    No toss is given, so the bot tosses the coin, and its winner is HOME. The match is then played like any
    other, and its result splits the two teams at step 6 (TBM) only: their records stay 1-1."""
    league = season_league
    facts = await seven_team_west(league)
    set_day(league, date(2027, 3, 9))
    dated = await league.run("/season postseason date:2027-03-29", as_member="alice")
    assert not dated.content.startswith("⛔"), dated.content
    scheduled = (await league.run(SCHEDULE_G_AND_H, as_member="alice")).text()
    assert "On Mon 2027-03-15: the regular match night of the week after the regular season" in scheduled, scheduled
    [match] = await tiebreaker_matches(league)
    teams = await teams_by_name(league)
    home = next(team for team in teams.values() if team.id == match.home_team_id)
    assert home.name in ("Gobble Holes", "Hurry Ups")
    assert f"{home.name} is HOME: {home.name} won the coin toss (the bot tossed the coin" in scheduled, scheduled
    assert (match.play_on, match.week) == (date(2027, 3, 15), 3)

    await facts.venue_forfeit(match, Side.AWAY)  # HOME wins the tie-breaker match
    set_day(league, date(2027, 3, 16))
    table = standings_field(await league.run("/standings", as_member="fk3"), "West")
    away = "Hurry Ups" if home.name == "Gobble Holes" else "Gobble Holes"
    assert _line(table, home.name).startswith("4 ") and _line(table, home.name).endswith("1-1  .500  12 TBM"), table
    assert _line(table, away).startswith("5 ") and _line(table, away).endswith("1-1  .500  12 TBM"), table


def _line(table: str, team: str) -> str:
    return next(line for line in table.splitlines() if f" {team} " in line)
