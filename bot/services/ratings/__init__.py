"""Ratings and stats: every finalized machine game of a server's leagues, rated (`bot.rules.ratings`).

Derived data, kept up to date from what changed: whenever any write was committed through this process or
audited by any process since the last computation (as `bot.services.reuse` decides for standings; here per
server, members asking at once waiting for one computation), the audit entries since then say what it touched.
A team match's scores or lineups: that match's games are read again and the ratings replayed from its first
changed game (from the kept book at or before it: one every `CHECKPOINT_EVERY` games, and the latest), so a
game confirmed tonight is rated on from the last computation. Anything else the games come from (another
format's nights, a deleted player) or a write nobody audited: every game is read again, and the ratings
replayed from the first game that differs.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from statistics import fmean, median

from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.ratings.engine import Game, Rating, RatingBook
from bot.rules.refusals import NotFound
from bot.services.actor import Actor
from bot.services.lookup import find_league
from bot.services.ratings.games import (
    MACHINE_TABLES,
    NAME_TABLES,
    OTHER_GAME_TABLES,
    TEAM_MATCH_TABLES,
    PlayedGame,
    played_games,
    team_games,
    team_machines,
)
from storage.db import Database
from storage.models import AuditEntry, League, Machine, Player

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


CHECKPOINT_EVERY = 500  # games between two kept books: a correction replays from the one before it

Trends = dict[int, list[tuple[date, float]]]
GameKey = tuple[date, tuple[int, ...]]  # a game's place in the order played


@dataclass(frozen=True)
class Checkpoint:
    """The ratings and trends after the first `played` games; never played on again (a replay copies it)."""

    played: int
    book: RatingBook[int]
    trends: Trends


@dataclass(frozen=True)
class RatedServer:
    ratings: dict[int, Rating]  # by Discord user id
    league_ids: list[int]
    names: dict[int, str]
    machines: dict[int, str]
    games: list[PlayedGame]
    keys: list[GameKey]  # each game's
    by_match: dict[int, list[PlayedGame]]  # the team games, by match
    lineups: dict[int, dict[tuple[int, int, int], int]]  # the machine of each game, of matches read again
    places: dict[int, int]  # 1 = the highest conservative rating on the server
    latest: Checkpoint  # after every game
    checkpoints: list[Checkpoint]  # after 0, CHECKPOINT_EVERY, 2 × CHECKPOINT_EVERY … games
    seen: tuple[int, int]  # the last audit entry and this process's commit count when the games were read
    # every member's scores by machine, gathered from `games` by the first profile asked for
    _scores: dict[int, dict[int, list[int]]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def trends(self) -> Trends:
        return self.latest.trends

    def scores_of(self, user_id: int) -> dict[int, list[int]]:
        if not self._scores and self.games:
            gathered: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
            for game in self.games:
                for user, score in game.scores.items():
                    gathered[user][game.machine_id].append(score)
            self._scores.update(gathered)
        return self._scores.get(user_id, {})

    def rated(self, user_id: int) -> RatedPlayer | None:
        if user_id not in self.ratings:
            return None
        return RatedPlayer(self.names[user_id], self.ratings[user_id], self.places[user_id])


@dataclass(frozen=True)
class Change:
    """What the audit entries since the last computation touched: these team matches' games, and names."""

    matches: set[int]
    lineups: set[int]  # of those, the matches whose lineups (the games' machines) changed
    names: bool


class RatingService:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._latest: dict[int, RatedServer] = {}  # by server: what the next computation may continue
        self._computing: dict[int, asyncio.Lock] = {}

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
        lines = [
            MachineLine(server.machines.get(machine, f"machine #{machine}"), len(s), fmean(s), max(s))
            for machine, s in sorted(server.scores_of(member_id).items(), key=lambda item: -len(item[1]))
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

    async def of_members(self, guild_id: int) -> dict[int, Rating]:
        """Every rated member's rating, by Discord user id, for the formats whose `use_ratings` option seeds
        groups or sums up a roster by rating. Read in a session of its own, from committed games only: the
        caller's transaction may still roll back what it wrote, audit entries included."""
        async with self.db.reading() as session:
            return (await self._server(session, guild_id)).ratings

    async def _server(self, session: AsyncSession, guild_id: int) -> RatedServer:
        async with self._computing.setdefault(guild_id, asyncio.Lock()):
            # Read before the games: a change racing their reads makes the next call look again.
            latest = self._latest.get(guild_id)
            if latest is None:
                seen = ((await session.exec(select(func.max(AuditEntry.id)))).one() or 0, self.db.commits)
                self._latest[guild_id] = server = await _rate_server(session, guild_id, seen, None, [])
                return server
            since = (await session.exec(select(AuditEntry).where(col(AuditEntry.id) > latest.seen[0]))).all()
            seen = (max((entry.id or 0 for entry in since), default=latest.seen[0]), self.db.commits)
            if not since and latest.seen[1] >= seen[1]:
                return latest
            ours = [entry for entry in since if entry.guild_id == guild_id]
            self._latest[guild_id] = server = await _rate_server(session, guild_id, seen, latest, ours)
            return server


async def _rate_server(
    session: AsyncSession,
    guild_id: int,
    seen: tuple[int, int],
    earlier: RatedServer | None,
    entries: Sequence[AuditEntry],
) -> RatedServer:
    """The server's ratings; `entries`: its audit entries since `earlier` was computed."""
    change = None if earlier is None else _changes(entries, unaudited=seen[1] > earlier.seen[1] and not entries)
    if earlier is None or change is None:
        league_ids = await _league_ids(session, guild_id)
        games = await played_games(session, league_ids)
        start = 0 if earlier is None else _common_prefix(earlier.games, games)
        by_match: dict[int, list[PlayedGame]] = defaultdict(list)
        for game in games:
            if game.match_id is not None:
                by_match[game.match_id].append(game)
        names, machines = await _names(session, league_ids)
        return _replayed(earlier, Read(games, start, dict(by_match), {}, league_ids, names, machines), seen)
    league_ids, names, machines = earlier.league_ids, earlier.names, earlier.machines
    if change.names:
        league_ids = await _league_ids(session, guild_id)
        names, machines = await _names(session, league_ids)
    if not change.matches:
        return replace(earlier, league_ids=league_ids, names=names, machines=machines, seen=seen)
    lineups = dict(earlier.lineups)  # declared lineups are locked (TEAM-LINEUP-4): read once, again on a change
    unknown = {match for match in change.matches if match not in lineups or match in change.lineups}
    if unknown:
        for match in unknown:
            lineups[match] = {}
        for key, machine in (await team_machines(session, unknown)).items():
            lineups[key[0]][key] = machine
    machine_of = {key: machine for match in change.matches for key, machine in lineups[match].items()}
    fresh: dict[int, list[PlayedGame]] = {match: [] for match in change.matches}
    for game in await team_games(session, league_ids, only=change.matches, machine_of=machine_of):
        fresh[game.match_id or 0].append(game)
    games, start = _with_matches_replaced(earlier, fresh)
    read = Read(games, start, {**earlier.by_match, **fresh}, lineups, league_ids, names, machines)
    return _replayed(earlier, read, seen)


@dataclass(frozen=True)
class Read:
    """The games to rate, of which the first `start` are as the last computation rated them, and their names."""

    games: list[PlayedGame]
    start: int
    by_match: dict[int, list[PlayedGame]]
    lineups: dict[int, dict[tuple[int, int, int], int]]
    league_ids: list[int]
    names: dict[int, str]
    machines: dict[int, str]


async def _league_ids(session: AsyncSession, guild_id: int) -> list[int]:
    league_ids = [i for i in (await session.exec(select(League.id).where(League.guild_id == guild_id))).all() if i]
    if not league_ids:
        raise NotFound(
            "No league runs on this server yet, so nothing is rated: a commissioner starts one with `/league create`."
        )
    return league_ids


def _changes(entries: Sequence[AuditEntry], *, unaudited: bool) -> Change | None:
    """What these audit entries touched; None when every game must be read again (also after a commit nobody
    audited: what it wrote is unknown)."""
    if unaudited:
        return None
    change = Change(set(), set(), names=False)
    for entry in entries:
        if entry.entity in TEAM_MATCH_TABLES:
            row = entry.after or entry.before or {}
            match_id = entry.entity_id if entry.entity == "match" else row.get("match_id")
            if match_id is None:
                return None
            change.matches.add(match_id)
            if entry.entity in MACHINE_TABLES:
                change.lineups.add(match_id)
        elif entry.entity in OTHER_GAME_TABLES or (entry.entity in NAME_TABLES and entry.action == "delete"):
            return None
        elif entry.entity in NAME_TABLES:
            change = replace(change, names=True)
    return change


def _with_matches_replaced(earlier: RatedServer, fresh: dict[int, list[PlayedGame]]) -> tuple[list[PlayedGame], int]:
    """The games with these matches' as read again, and how many at the start are as they were."""
    old = {game.order: game for match in fresh for game in earlier.by_match.get(match, ())}
    new = {game.order: game for games in fresh.values() for game in games}
    changed = [_key(game) for key, game in new.items() if game != old.get(key)]
    changed += [_key(game) for key, game in old.items() if game != new.get(key)]
    if not changed:
        return earlier.games, len(earlier.games)
    first = min(changed)
    start = bisect_left(earlier.keys, first)
    tail = [game for game in earlier.games[start:] if game.order not in old]
    tail += [game for game in new.values() if _key(game) >= first]
    return earlier.games[:start] + sorted(tail, key=_key), start


def _key(game: PlayedGame) -> GameKey:
    return (game.on, game.order)


def _common_prefix(before: list[PlayedGame], after: list[PlayedGame]) -> int:
    same = min(len(before), len(after))
    return next((i for i in range(same) if before[i] != after[i]), same)


def _replayed(earlier: RatedServer | None, read: Read, seen: tuple[int, int]) -> RatedServer:
    """The ratings of the games read, played on from the latest kept book at or before the first changed game."""
    games, start = read.games, read.start
    kept = [] if earlier is None else [c for c in (*earlier.checkpoints, earlier.latest) if c.played <= start]
    base = max(kept, key=lambda c: c.played, default=Checkpoint(0, RatingBook(), {}))
    book, trends = base.book.copy(), {user: list(points) for user, points in base.trends.items()}
    checkpoints = [c for c in kept if c is not earlier.latest] if earlier is not None else []
    for index in range(base.played, len(games)):
        if index % CHECKPOINT_EVERY == 0 and (not checkpoints or checkpoints[-1].played < index):
            checkpoints.append(Checkpoint(index, book.copy(), {user: list(p) for user, p in trends.items()}))
        game = games[index]
        book.play(Game.from_scores(game.scores))
        for user in game.scores:
            point, trend = (game.on, book.rating(user).conservative), trends.setdefault(user, [])
            if trend and trend[-1][0] == game.on:
                trend[-1] = point  # one point a day: where the night left them
            else:
                trend.append(point)
    keys = (earlier.keys[:start] if earlier is not None else []) + [_key(game) for game in games[start:]]
    ratings = book.ratings()
    ranked = sorted((rating.conservative for rating in ratings.values()), reverse=True)
    places = {user: 1 + ranked.index(rating.conservative) for user, rating in ratings.items()}  # ties share
    return RatedServer(
        ratings=ratings,
        league_ids=read.league_ids,
        names=read.names,
        machines=read.machines,
        games=games,
        keys=keys,
        by_match=read.by_match,
        lineups=read.lineups,
        places=places,
        latest=Checkpoint(len(games), book, trends),
        checkpoints=checkpoints,
        seen=seen,
    )


async def _names(session: AsyncSession, league_ids: list[int]) -> tuple[dict[int, str], dict[int, str]]:
    players = (await session.exec(select(Player).where(col(Player.league_id).in_(league_ids)))).all()
    machines = (await session.exec(select(Machine).where(col(Machine.league_id).in_(league_ids)))).all()
    return (
        {p.discord_user_id: p.display_name for p in players},
        {m.id: m.title for m in machines if m.id is not None},
    )
