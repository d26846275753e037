"""Ratings and stats: every finalized machine game of a server's leagues, rated (`bot.rules.ratings`).

Derived data: the stored games are read again whenever any write was committed or audited since the last
computation (`ReusedPerLeague`, keyed here by the server). When they only add games after those already rated,
the ratings play on from the last computation; otherwise (a correction, a game dated before the last rated one)
every rating is recomputed from the first game.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from statistics import fmean, median

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.ratings.engine import Game, Rating, RatingBook
from bot.rules.refusals import NotFound
from bot.services.actor import Actor
from bot.services.lookup import find_league
from bot.services.ratings.games import PlayedGame, played_games
from bot.services.reuse import ReusedPerLeague
from storage.db import Database
from storage.models import League, Machine, Player

TABLE_ROWS = 20
TOP_PLAYERS = 5


@dataclass(frozen=True)
class RatedPlayer:
    name: str
    rating: Rating
    place: int  # 1 = the highest conservative rating on the server


@dataclass(frozen=True)
class RatingsTable:
    rows: list[RatedPlayer]
    players: int
    games: int


@dataclass(frozen=True)
class MachineLine:
    machine: str
    plays: int
    average: float
    best: int


@dataclass(frozen=True)
class Profile:
    player: RatedPlayer
    machines: list[MachineLine]  # most played first
    trend: list[tuple[date, float]]  # the conservative rating after each day played


@dataclass(frozen=True)
class MachineStats:
    machine: str
    plays: int
    median: float
    best: int
    best_by: str
    top: list[tuple[str, int, int]]  # (player, best score, plays), best score first


@dataclass(frozen=True)
class RatedServer:
    book: RatingBook[int]  # never played on again: a later computation continues a copy
    ratings: dict[int, Rating]  # by Discord user id
    names: dict[int, str]
    machines: dict[int, str]
    games: list[PlayedGame]
    trends: dict[int, list[tuple[date, float]]]

    def rated(self, user_id: int) -> RatedPlayer | None:
        if user_id not in self.ratings:
            return None
        place = 1 + sum(r.conservative > self.ratings[user_id].conservative for r in self.ratings.values())
        return RatedPlayer(self.names[user_id], self.ratings[user_id], place)


class RatingService:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._reused: ReusedPerLeague[RatedServer] = ReusedPerLeague(db)
        self._latest: dict[int, RatedServer] = {}  # by server: what the next computation may continue

    async def table(self, actor: Actor) -> RatingsTable:
        """`/ratings`: the server's players, highest conservative rating first."""
        async with self.db.reading() as session:
            server = await self._server(session, actor.guild_id)
        if not server.ratings:
            raise NotFound(
                "No finalized games yet: ratings start once a night is closed (or a team game confirmed), "
                "then `/ratings` shows everyone who played."
            )
        ranked = sorted(server.ratings, key=lambda user: -server.ratings[user].conservative)
        rows = [rated for user in ranked[:TABLE_ROWS] if (rated := server.rated(user)) is not None]
        return RatingsTable(rows, len(ranked), len(server.games))

    async def profile(self, actor: Actor, member_id: int, member_name: str) -> Profile:
        """`/player profile`: one member's rating, per-machine averages and bests, and trend."""
        async with self.db.reading() as session:
            server = await self._server(session, actor.guild_id)
        rated = server.rated(member_id)
        if rated is None:
            raise NotFound(
                f"{member_name} has no finalized games yet: a rating starts once a night with their scores is "
                "closed (or a team game confirmed)."
            )
        scores: dict[int, list[int]] = defaultdict(list)
        for game in server.games:
            if member_id in game.scores:
                scores[game.machine_id].append(game.scores[member_id])
        lines = [
            MachineLine(server.machines.get(machine, f"machine #{machine}"), len(s), fmean(s), max(s))
            for machine, s in sorted(scores.items(), key=lambda item: -len(item[1]))
        ]
        return Profile(rated, lines, server.trends[member_id])

    async def machine_stats(self, actor: Actor, league_name: str | None, machine_id: int) -> MachineStats:
        """`/machine stats`: plays, median and best score, and the best players on one machine."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            machine = await session.get(Machine, machine_id)
            if machine is None or machine.league_id != league.id:
                raise NotFound(f"No machine #{machine_id} in {league.name}: pick one from the `machine:` list.")
            server = await self._server(session, actor.guild_id)
        by_player: dict[int, list[int]] = defaultdict(list)
        for game in server.games:
            if game.machine_id == machine_id:
                for user, score in game.scores.items():
                    by_player[user].append(score)
        every = [score for scores in by_player.values() for score in scores]
        if not every:
            raise NotFound(f"No finalized games on {machine.title} yet: its stats start after its first closed night.")
        top = sorted(by_player.items(), key=lambda item: -max(item[1]))[:TOP_PLAYERS]
        leaders = [(server.names[user], max(scores), len(scores)) for user, scores in top]
        return MachineStats(machine.title, len(every), median(every), leaders[0][1], leaders[0][0], leaders)

    async def of_members(self, session: AsyncSession, guild_id: int) -> dict[int, Rating]:
        """Every rated member's rating, by Discord user id, inside the caller's transaction: for the formats
        whose `use_ratings` option seeds groups or sums up a roster by rating."""
        return (await self._server(session, guild_id)).ratings

    async def _server(self, session: AsyncSession, guild_id: int) -> RatedServer:
        async def compute() -> RatedServer:
            server = await _rate_server(session, guild_id, self._latest.get(guild_id))
            self._latest[guild_id] = server
            return server

        return await self._reused.get(session, guild_id, "ratings", compute)


async def _rate_server(session: AsyncSession, guild_id: int, earlier: RatedServer | None) -> RatedServer:
    league_ids = [i for i in (await session.exec(select(League.id).where(League.guild_id == guild_id))).all() if i]
    if not league_ids:
        raise NotFound(
            "No league runs on this server yet, so nothing is rated: a commissioner starts one with `/league create`."
        )
    games = await played_games(session, league_ids)
    players = (await session.exec(select(Player).where(col(Player.league_id).in_(league_ids)))).all()
    machines = (await session.exec(select(Machine).where(col(Machine.league_id).in_(league_ids)))).all()
    book: RatingBook[int] = RatingBook()
    trends: dict[int, list[tuple[date, float]]] = defaultdict(list)
    new = games
    if earlier is not None and games[: len(earlier.games)] == earlier.games:
        book, new = earlier.book.copy(), games[len(earlier.games) :]
        trends.update((user, list(trend)) for user, trend in earlier.trends.items())
    for game in new:
        book.play(Game.from_scores(game.scores))
        for user in game.scores:
            point, trend = (game.on, book.rating(user).conservative), trends[user]
            if trend and trend[-1][0] == game.on:
                trend[-1] = point  # one point a day: where the night left them
            else:
                trend.append(point)
    return RatedServer(
        book=book,
        ratings=book.ratings(),
        names={p.discord_user_id: p.display_name for p in players},
        machines={m.id: m.title for m in machines if m.id is not None},
        games=games,
        trends=dict(trends),
    )
