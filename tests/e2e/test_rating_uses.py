"""Where a league puts the ratings to use, through the real bot: `/league config use_ratings:true` makes a ladder's
week-1 groups follow the ratings (LADDER-GROUP-2), a field night's snake deal mix abilities by rating
(FIELD-GROUP-2, FIELD-AMB-2) and a team roster show its mean rating beside its IFPA-limit figures (TEAM-ROSTER-5).
The ratings come from a field league's closed nights in the same server; each expectation is computed here from
the games stored, and each would come out otherwise if the option were ignored."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta
from statistics import fmean

from sqlmodel import col, select

from bench.field import FieldLeagueSize, seed_field_league
from bench.team import TeamLeagueSize, seed_team_league
from bot.clock import ManualClock
from bot.local.emulator import Emulator
from bot.rules.ratings.engine import Game, RatingBook
from storage.db import Database
from storage.field import FieldCheckin, FieldNight, FieldScore
from storage.ladder import LadderGroup, LadderPlayer
from storage.matches import GameScore, Match
from storage.models import League, Machine, Player
from tests.e2e.format_nights import MACHINES, ok
from tests.e2e.harness import RunningBot, running_bot


async def _rating_order(db: Database) -> list[str]:
    """The seeded field league's closed nights rated here, strongest expected first (mean less one sigma)."""
    async with db.reading() as session:
        names = {p.id: p.display_name.lower() for p in (await session.exec(select(Player))).all()}  # member names
        rows = (await session.exec(select(FieldScore, FieldNight).join(FieldNight))).all()
    games: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    for score, night in sorted(rows, key=lambda row: (row[1].play_on, row[0].id)):
        if night.state == "closed":
            game = games[(night.id or 0, score.machine_id)]
            game[names[score.player_id]] = max(score.score, game.get(names[score.player_id], 0))
    book: RatingBook[str] = RatingBook()
    book.play_all(Game.from_scores(game) for game in games.values())
    return sorted(book.ratings(), key=lambda name: -book.rating(name).predictive)


async def _league(running: RunningBot, name: str, league_format: str, machines: int) -> str:
    await ok(running, f'/league create name:"{name}" format:{league_format} timezone:America/New_York', "owner")
    league = f'league:"{name}"'
    await ok(running, f'/venue add name:"Hall" {league}', "owner")
    for model in MACHINES[:machines]:
        await ok(running, f'/machine add venue:"Hall" model:"{model}" {league}', "owner")
    return league


async def test_a_ladder_using_ratings_deals_week_one_by_rating(sqlite_db: Database) -> None:
    """LADDER-GROUP-2: the rated players join with self-estimates the reverse of their ratings; a newcomer
    without a rating keeps the place their skill 10 gives them, at the top."""
    async with running_bot(sqlite_db) as running:
        seeded = await seed_field_league(running.db, running.emulator, FieldLeagueSize(players=8, weeks_played=1))
        order = await _rating_order(running.db)
        assert sorted(order) == sorted(seeded.players)
        league = await _league(running, "Rated Ladder", "ladder", machines=1)
        await ok(running, f'/ladder normalizer machine:"{MACHINES[0]}" value:20,000,000 {league}', "owner")
        running.emulator.add_member("fresh")
        await ok(running, f"/ladder join skill:10 {league}", "fresh")
        for skill, player in enumerate(order, start=1):  # the strongest rated says 1, the weakest 8
            await ok(running, f"/ladder join skill:{skill} {league}", player)
        turned_on = await running.run(f"/league config use_ratings:true {league}", as_member="owner")
        assert "now uses ratings: week 1's groups are dealt by rating" in turned_on.text()
        await ok(running, f"/ladder night open {league}", "owner")
        async with running.db.reading() as session:
            names = {p.id: p.display_name.lower() for p in (await session.exec(select(Player))).all()}
            entries = {e.id: names[e.player_id] for e in (await session.exec(select(LadderPlayer))).all()}
            groups = (await session.exec(select(LadderGroup).order_by(col(LadderGroup.number)))).all()
        dealt = [{entries[member] for member in group.members} for group in groups]
        ladder = ["fresh", *order]  # LADDER-GROUP-1: nine players play in groups of 3, 3, 3
        assert dealt == [set(ladder[0:3]), set(ladder[3:6]), set(ladder[6:9])]


async def test_use_ratings_changes_from_a_date_like_every_option(sqlite_db: Database) -> None:
    """COMMON-LEAGUE-2: `use_ratings` is dated like every option. Turned on from a later `effective` date, week 1
    (tonight) is still dealt by the self-estimated skill (LADDER-GROUP-2), and `/league config` shows when it
    changes."""
    async with running_bot(sqlite_db) as running:
        seeded = await seed_field_league(running.db, running.emulator, FieldLeagueSize(players=8, weeks_played=1))
        order = await _rating_order(running.db)
        assert sorted(order) == sorted(seeded.players)
        league = await _league(running, "Later Ladder", "ladder", machines=1)
        await ok(running, f'/ladder normalizer machine:"{MACHINES[0]}" value:20,000,000 {league}', "owner")
        running.emulator.add_member("fresh")
        await ok(running, f"/ladder join skill:10 {league}", "fresh")
        for skill, player in enumerate(order, start=1):  # the strongest rated says 1, the weakest 8
            await ok(running, f"/ladder join skill:{skill} {league}", player)
        later = (running.bot.clock.now() + timedelta(weeks=8)).date().isoformat()
        turned_on = await running.run(f"/league config use_ratings:true effective:{later} {league}", as_member="owner")
        assert f"uses ratings from {later}: week 1's groups are dealt by rating" in turned_on.text(), turned_on.text()
        assert "until then the current value stands" in turned_on.text()
        shown = await running.run(f"/league config {league}", as_member=order[0])  # any member reads it
        assert f"use_ratings: False until {later}, True since {later}" in shown.text(), shown.text()
        await ok(running, f"/ladder night open {league}", "owner")
        async with running.db.reading() as session:
            names = {p.id: p.display_name.lower() for p in (await session.exec(select(Player))).all()}
            entries = {e.id: names[e.player_id] for e in (await session.exec(select(LadderPlayer))).all()}
            groups = (await session.exec(select(LadderGroup).order_by(col(LadderGroup.number)))).all()
        dealt = [{entries[member] for member in group.members} for group in groups]
        by_skill = ["fresh", *reversed(order)]  # skill 10 first, then 8 (the weakest rated) down to 1
        assert dealt == [set(by_skill[0:3]), set(by_skill[3:6]), set(by_skill[6:9])]


async def test_a_field_night_using_ratings_snakes_players_by_rating(sqlite_db: Database) -> None:
    """FIELD-GROUP-2 / FIELD-AMB-2: twelve rated members of a new league (no standing yet, so otherwise dealt
    at random) are dealt snake-style by rating into three groups of four (FIELD-GROUP-1)."""
    async with running_bot(sqlite_db) as running:
        await seed_field_league(running.db, running.emulator, FieldLeagueSize(players=12, weeks_played=1))
        order = await _rating_order(running.db)
        league = await _league(running, "Rated Field", "field", machines=5)  # FIELD-MSEL-1: five a night
        async with running.db.reading() as session:
            league_id = (await session.exec(select(League.id).where(League.name == "Rated Field"))).one()
            machines = sorted((await session.exec(select(Machine.id).where(Machine.league_id == league_id))).all())
        tonight = " ".join(f"m{n}:{machine}" for n, machine in enumerate(machines[:5], start=1))
        await ok(running, f"/field night open {tonight} {league}", "owner")
        await ok(running, f"/league config use_ratings:true {league}", "owner")
        for player in order[::-1]:
            await ok(running, f"/player register member:@{player} {league}", "owner")
            await ok(running, f"/field checkin {league}", player)
        await ok(running, f"/field groups {league}", "owner")
        async with running.db.reading() as session:
            rows = (
                await session.exec(
                    select(Player.display_name, FieldCheckin.group_number)
                    .join(FieldCheckin, col(FieldCheckin.player_id) == Player.id)
                    .where(Player.league_id == league_id)
                )
            ).all()
        groups: dict[int, set[str]] = defaultdict(set)
        for name, number in rows:
            groups[number or 0].add(name.lower())
        snake = [0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0]  # the group each place in the rating order is dealt to
        expected = [{p for p, g in zip(order, snake, strict=True) if g == group} for group in range(3)]
        assert [groups[number] for number in (1, 2, 3)] == expected


async def test_a_team_roster_shows_its_mean_rating_beside_the_ifpa_figures(sqlite_db: Database) -> None:
    """TEAM-ROSTER-5's figures and the roster's mean rating over its confirmed games (each player rated on
    their own score, COMMON-SCORE-3), with the provisional and unrated counts; nothing of it while off."""
    async with Emulator(guild_name="Pinball Club") as emulator:
        seeded = await seed_team_league(
            sqlite_db, emulator, TeamLeagueSize(teams=4, players=6, weeks_played=2, past_seasons=0)
        )
        before_cutoff = seeded.now - timedelta(hours=5)  # TEAM-ROSTER-7: today's changes close at 16:00
        async with running_bot(sqlite_db, emulator, clock=ManualClock(before_cutoff)) as running:
            emulator.add_member("ranked")
            add = '/roster add team:"Team 01" member:@ranked role:reserve ifpa_rank:120 adult:true'
            await ok(running, add, "owner")
            off = await running.run('/roster show team:"Team 01"', as_member="owner")
            assert "Strength" not in [field["name"] for field in off.embeds[0]["fields"]]

            await ok(running, "/league config use_ratings:true", "owner")
            shown = await running.run('/roster show team:"Team 01"', as_member="owner")
            strength = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}["Strength"]

            async with sqlite_db.reading() as session:
                users = {p.id: p.discord_user_id for p in (await session.exec(select(Player))).all()}
                on = {m.id: m.play_on for m in (await session.exec(select(Match))).all()}
                confirmed = select(GameScore).where(col(GameScore.confirmed_at).is_not(None))
                scores = (await session.exec(confirmed)).all()
            games: dict[tuple[object, ...], dict[int, int]] = defaultdict(dict)
            for s in scores:
                games[(on[s.match_id], s.match_id, s.round_index, s.game_number)][users[s.player_id]] = s.score
            book: RatingBook[int] = RatingBook()
            book.play_all(Game.from_scores(games[key]) for key in sorted(games))
            names = {line.split(" · ")[0] for f in shown.embeds[0]["fields"][:3] for line in f["value"].splitlines()}
            async with sqlite_db.reading() as session:
                rostered = (await session.exec(select(Player).where(col(Player.display_name).in_(names)))).all()
            rated = [book.rating(p.discord_user_id) for p in rostered if p.discord_user_id in book.ratings()]
            assert len(rostered) == 7 and 0 < len(rated) < 7  # four a side play; reserves and the newcomer do not
            assert strength.splitlines() == [
                "IFPA top 500: 1 of max 2 · IFPA top 150: 1 of max 1",
                f"Mean rating {fmean(r.conservative for r in rated):.1f} (μ {fmean(r.mu for r in rated):.1f}) over "
                f"{len(rated)} rated · {sum(r.provisional for r in rated)} provisional · {7 - len(rated)} unrated",
            ]
