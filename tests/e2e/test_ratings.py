"""/ratings, /player profile and /machine stats through the real bot: a field season's closed nights are rated,
a correction to a stored score recomputes the ratings, and each command answers with its embed (and image)."""

from __future__ import annotations

import io
from collections import defaultdict
from datetime import timedelta
from statistics import median

from PIL import Image
from sqlalchemy import event
from sqlmodel import col, select

from bench.field import FieldLeague, FieldLeagueSize, seed_field_league
from bench.ladder import LadderLeagueSize, seed_ladder_league
from bench.team import TeamLeagueSize, actor, seed_team_league
from bot.clock import ManualClock
from bot.local.emulator import Emulator
from bot.rules.ratings.engine import Game, Rating, RatingBook
from bot.rules.team.model import Side
from bot.services import Services
from bot.services.ratings import RatingService, RatingsTable
from bot.services.team.match_access import GameRef
from storage.db import Database
from storage.field import FieldNight, FieldScore
from storage.ladder import LadderGroup, LadderNight, LadderPlayer, LadderScore
from storage.matches import GameScore
from storage.models import AuditEntry, Machine, Player
from tests.e2e.harness import RunningBot, running_bot

SIZE = FieldLeagueSize(players=8, weeks_played=2)


async def _stored_games(db: Database) -> tuple[dict[int, str], list[dict[str, int]]]:
    """Each closed night's machine games as the field scores table holds them, by player name."""
    async with db.reading() as session:
        names = {p.id: p.display_name for p in (await session.exec(select(Player))).all()}
        rows = (await session.exec(select(FieldScore, FieldNight).join(FieldNight))).all()
    games: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    for score, night in sorted(rows, key=lambda row: (row[1].play_on, row[0].id)):
        if night.state == "closed":
            games[(night.id or 0, score.machine_id)][names[score.player_id]] = score.score
    return {k: v for k, v in names.items() if k is not None}, list(games.values())


def _expected_order(games: list[dict[str, int]]) -> list[str]:
    book: RatingBook[str] = RatingBook()
    book.play_all(Game.from_scores(game) for game in games)
    return sorted(book.ratings(), key=lambda name: -book.rating(name).conservative)


def _table_names(description: str) -> list[str]:
    return [line.split("**")[1] for line in description.splitlines()]


async def _seeded(running: RunningBot) -> FieldLeague:
    return await seed_field_league(running.db, running.emulator, SIZE)


async def test_a_seasons_closed_nights_are_rated_and_a_correction_recomputes(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as running:
        before = await running.run("/ratings", as_member="owner")
        assert before.ephemeral and "No league runs on this server yet" in before.text()

        league = await _seeded(running)
        _, games = await _stored_games(running.db)
        shown = await running.run("/ratings", as_member=league.players[0])
        assert not shown.ephemeral
        embed = shown.embeds[0]
        assert _table_names(embed["description"]) == _expected_order(games)
        assert f"{len(games)} games rated" in embed["footer"]["text"]
        image = shown.answer.attachments[0]  # type: ignore[union-attr]
        assert image.filename == "ratings.png" and Image.open(io.BytesIO(image.data)).width >= 800

        last = _table_names(embed["description"])[-1]
        async with running.db.writing() as session:  # a score corrected: the last-rated player won every game
            player = (await session.exec(select(Player).where(Player.display_name == last))).one()
            for score in (await session.exec(select(FieldScore).where(FieldScore.player_id == player.id))).all():
                score.score = 99_000_000
                session.add(score)
        _, corrected = await _stored_games(running.db)
        again = await running.run("/ratings", as_member=league.players[0])
        order = _table_names(again.embeds[0]["description"])
        assert order == _expected_order(corrected) and order[0] == last


async def test_profile_is_private_unless_asked_and_names_each_machine(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as running:
        league = await _seeded(running)
        member = league.players[2]
        mine = await running.run("/player profile", as_member=member)
        assert mine.ephemeral
        embed = mine.embeds[0]
        assert embed["title"].endswith(member) and "games played" in embed["description"]
        _, games = await _stored_games(running.db)
        played = sum(member in game for game in games)
        assert f"{played} games played" in embed["description"]
        async with running.db.reading() as session:
            titles = {m.id: m.title for m in (await session.exec(select(Machine))).all()}
            player = (await session.exec(select(Player).where(Player.display_name == member))).one()
            closed = select(FieldScore).join(FieldNight).where(FieldNight.state == "closed")
            own = (await session.exec(closed.where(FieldScore.player_id == player.id))).all()
        plays: dict[str, list[int]] = defaultdict(list)
        for score in own:
            plays[titles[score.machine_id]].append(score.score)
        machines = embed["fields"][0]["value"].splitlines()
        assert sorted(machines) == sorted(
            f"**{title}**: {len(s)} plays · avg {round(sum(s) / len(s)):,} · best {max(s):,}"
            for title, s in plays.items()
        )

        trend = mine.answer.attachments[0]  # type: ignore[union-attr]
        assert trend.filename == "trend.png" and Image.open(io.BytesIO(trend.data)).width >= 800
        assert len(embed["fields"][1]["value"].split(" → ")) == SIZE.weeks_played  # one point a night

        shown = await running.run(f"/player profile member:@{league.players[3]} public:true", as_member=member)
        assert not shown.ephemeral and shown.embeds[0]["title"].endswith(league.players[3])

        running.emulator.add_member("newcomer")
        refused = await running.run("/player profile", as_member="newcomer")
        assert refused.ephemeral and "no finalized games yet" in refused.text()


async def test_machine_stats_show_plays_median_best_and_top_players(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as running:
        league = await _seeded(running)
        async with running.db.reading() as session:
            machine = (await session.exec(select(Machine).where(col(Machine.id) == league.machines[0]))).one()
            names = {p.id: p.display_name for p in (await session.exec(select(Player))).all()}
            closed = select(FieldScore).join(FieldNight).where(FieldNight.state == "closed")
            scores = (await session.exec(closed.where(FieldScore.machine_id == machine.id))).all()
        choices = await running.emulator.autocomplete(f"/machine stats machine:{machine.model_name[:4]}")
        assert machine.id in [choice["value"] for choice in choices]

        stats = await running.run(f"/machine stats machine:{machine.id}", as_member=league.players[0])
        assert not stats.ephemeral
        embed = stats.embeds[0]
        best = max(scores, key=lambda s: s.score)
        assert embed["title"].endswith(machine.title)
        assert embed["description"] == (
            f"{len(scores)} plays · median {round(median(s.score for s in scores)):,} · "
            f"best {best.score:,} by {names[best.player_id]}"
        )
        assert embed["fields"][0]["value"].startswith(f"1. **{names[best.player_id]}** {best.score:,}")


async def test_confirmed_team_games_and_closed_ladder_nights_are_rated_per_player(sqlite_db: Database) -> None:
    """Team doubles rate each of the four players on their own score; a ladder group's slot is one game; games
    added after those rated are rated on from there, with the same ratings as from scratch."""
    async with Emulator() as emulator:
        owner = actor(emulator, emulator.guild.owner.name, admin=True)
        ratings = RatingService(sqlite_db)
        await seed_team_league(sqlite_db, emulator, TeamLeagueSize(teams=4, players=6, weeks_played=1, past_seasons=0))
        team_only = await ratings.table(owner)
        await seed_ladder_league(sqlite_db, emulator, LadderLeagueSize(players=8, weeks_played=1))
        async with sqlite_db.reading() as session:
            users = {p.id: p.discord_user_id for p in (await session.exec(select(Player))).all()}
            confirmed = select(GameScore).where(col(GameScore.confirmed_at).is_not(None))
            team_rows = (await session.exec(confirmed)).all()
            ladder = select(LadderScore, LadderPlayer).join(LadderPlayer).join(LadderGroup).join(LadderNight)
            ladder_rows = (await session.exec(ladder.where(col(LadderNight.closed_at).is_not(None)))).all()
        games: dict[tuple[object, ...], set[int]] = defaultdict(set)
        for score in team_rows:
            games[("team", score.match_id, score.round_index, score.game_number)].add(users[score.player_id])
        for entry, member in ladder_rows:
            games[("ladder", entry.group_id, entry.slot)].add(users[member.player_id])
        assert {len(players) for players in games.values()} >= {2, 4}  # singles, doubles and ladder groups

        table = await ratings.table(owner)  # the ladder's nights came after the team's: rated on from team_only
        assert team_only.games < table.games == len(games)
        from_scratch = await RatingService(sqlite_db).table(owner)
        assert [(r.name, r.rating) for r in table.rows] == [(r.name, r.rating) for r in from_scratch.rows]
        for user in (next(iter(players)) for players in games.values()):
            profile = await ratings.profile(actor(emulator, emulator.guild.owner.name), user, "them")
            assert profile.player.rating.games == sum(user in players for players in games.values())


async def test_a_confirmed_game_and_an_audited_correction_are_rated_from_what_they_touched(sqlite_db: Database) -> None:
    """COMMON-SCORE-3: a game confirmed tonight is rated from its match alone, and a correction of a past game
    (as a ruling records it, audited) replays the ratings from that game; both give the ratings rated from
    scratch, without reading every game again."""
    async with Emulator() as emulator:
        league = await seed_team_league(
            sqlite_db, emulator, TeamLeagueSize(teams=4, players=6, weeks_played=2, past_seasons=1)
        )
        await league.reset_tonight(rounds_declared=4)
        clock = ManualClock(league.now)
        services = Services.build(sqlite_db, clock, default_timezone="America/New_York")
        reader = actor(emulator, league.members[0])
        before = await services.ratings.table(reader)
        statements: list[str] = []
        event.listen(sqlite_db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))

        match = league.tonight[0]
        game = GameRef(match.match_id, 1, 1)
        clock.advance(timedelta(minutes=20))
        typed = {side: ["30,000,000", "10,000,000"] for side in Side}
        await services.match_night.enter_scores(actor(emulator, match.home_captain), None, game, typed)
        await services.match_night.confirm_game(actor(emulator, match.away_captain), game)
        statements.clear()
        tonight = await services.ratings.table(reader)
        assert tonight.games == before.games + 1
        assert not [s for s in statements if "ladder_score" in s or "field_score" in s], statements
        assert _rows(tonight) == _rows(await RatingService(sqlite_db).table(reader))

        async with sqlite_db.writing() as session:  # a ruling corrects one score of the first game played
            first = (await session.exec(select(GameScore).order_by(col(GameScore.id)))).first()
            assert first is not None
            snapshot = first.model_dump(mode="json")
            first.score = 123_000_000_000
            session.add(first)
            session.add(
                AuditEntry(guild_id=emulator.guild.id, actor_id=1, command="/match ruling", action="update",
                           entity="game_score", entity_id=first.id, before=snapshot,
                           after=first.model_dump(mode="json"), at=clock.now())
            )  # fmt: skip
        statements.clear()
        corrected = await services.ratings.table(reader)
        assert not [s for s in statements if "ladder_score" in s or "field_score" in s], statements
        assert _rows(corrected) == _rows(await RatingService(sqlite_db).table(reader)) != _rows(tonight)


def _rows(table: RatingsTable) -> list[tuple[str, Rating]]:
    return [(row.name, row.rating) for row in table.rows]
