"""Every machine game a guild's leagues have finalized, read from each format's stored facts as one shape.

A game counts once its result is settled: a team game once the opposing captain (or an official) confirmed its
scores (COMMON-SCORE-3), a ladder group's or field night's games once the night is closed. Each reader reads
the tables of one kind of game; a league simply has no rows in the others' tables.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import sqlalchemy as sa
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.team.model import ScoreStatus
from storage.field import FieldNight, FieldScore, NightState
from storage.ladder import LadderGroup, LadderNight, LadderPlayer, LadderScore
from storage.matches import GameScore, LineupReplacement, Match, MatchLineup
from storage.models import Player

# Team scores that were not played out as a score on the machine (COMMON-SCORE-2).
UNPLAYED = (ScoreStatus.DQ, ScoreStatus.FORFEITED_GAME, ScoreStatus.VOID)


@dataclass(frozen=True)
class PlayedGame:
    """One machine game: each player's (Discord user id's) score on that machine in it."""

    on: date
    order: tuple[int, ...]  # settles games of the same day: (source, …) in the order they were settled
    machine_id: int
    scores: dict[int, int]
    match_id: int | None = None  # a team game's match: what the audit says a change touched


EPOCH, MICROSECOND = datetime(1970, 1, 1, tzinfo=UTC), timedelta(microseconds=1)
TEAM_GAMES, LADDER_GAMES, FIELD_GAMES = 0, 1, 2  # the first part of `PlayedGame.order`: the reader's

GameReader = Callable[[AsyncSession, Sequence[int]], Awaitable[list[PlayedGame]]]


async def _members(session: AsyncSession, player_ids: set[int]) -> dict[int, int]:
    rows = await session.exec(select(Player.id, Player.discord_user_id).where(col(Player.id).in_(player_ids)))
    return {player_id: user_id for player_id, user_id in rows.all() if player_id is not None}


async def team_games(
    session: AsyncSession,
    league_ids: Sequence[int],
    only: Collection[int] | None = None,
    machine_of: Mapping[tuple[int, int, int], int] | None = None,
) -> list[PlayedGame]:
    """The team games of these leagues; `only`: of these matches alone (what a change touched), `machine_of`:
    their games' machines if the caller knows them."""
    # Plain rows, not ORM objects: a server's seasons hold tens of thousands of scores.
    game = (col(GameScore.match_id), col(GameScore.round_index), col(GameScore.game_number))
    confirmed = (
        sa.select(
            *game, col(Match.play_on), col(GameScore.confirmed_at), col(Player.discord_user_id), col(GameScore.score)
        )
        .join(Match, col(Match.id) == GameScore.match_id)
        .join(Player, col(Player.id) == GameScore.player_id)
        .where(
            col(Match.league_id).in_(league_ids),
            col(GameScore.confirmed_at).is_not(None),
            col(GameScore.status).not_in(UNPLAYED),
        )
    )
    if only is not None:
        confirmed = confirmed.where(col(GameScore.match_id).in_(only))
    connection = await session.connection()
    by_game: dict[tuple[int, int, int], dict[int, int]] = defaultdict(dict)
    played_on: dict[int, date] = {}
    settled: dict[tuple[int, int, int], datetime] = {}  # a game's last confirmation
    for match_id, round_index, game_number, on, at, user, score in (await connection.execute(confirmed)).all():
        key = (match_id, round_index, game_number)
        by_game[key][user] = score
        played_on[match_id] = on
        if at is not None:  # always: the query keeps confirmed scores only
            settled[key] = max(at, settled.get(key, at))
    if not played_on:
        return []
    if machine_of is None:
        machine_of = await team_machines(session, list(played_on))
    games = []
    for key, game_scores in by_game.items():
        machine = machine_of.get(key)
        if machine is not None:
            # The day's games in the order they were confirmed: tonight's next one is rated on from the last.
            order = (TEAM_GAMES, (settled[key] - EPOCH) // MICROSECOND, *key)
            games.append(PlayedGame(played_on[key[0]], order, machine, game_scores, match_id=key[0]))
    return games


async def team_machines(session: AsyncSession, match_ids: Collection[int]) -> dict[tuple[int, int, int], int]:
    """Each game's machine: the one its lineup named (TEAM-LINEUP-2), or its replacement's (TEAM-MACH-5)."""
    machine_of: dict[tuple[int, int, int], int] = {}
    lineups = await session.exec(select(MatchLineup).where(col(MatchLineup.match_id).in_(match_ids)))
    for row in lineups.all():
        for number, game in enumerate(row.games, start=1):
            if game.get("machine") is not None:
                machine_of[(row.match_id, row.round_index, number)] = game["machine"]
    replacements = select(LineupReplacement).where(col(LineupReplacement.match_id).in_(match_ids))
    for change in (await session.exec(replacements.order_by(col(LineupReplacement.id)))).all():
        if change.machine_id is not None:
            machine_of[(change.match_id, change.round_index, change.game_number)] = change.machine_id
    return machine_of


async def ladder_games(session: AsyncSession, league_ids: Sequence[int]) -> list[PlayedGame]:
    closed = select(LadderNight).where(
        col(LadderNight.league_id).in_(league_ids), col(LadderNight.closed_at).is_not(None)
    )
    nights = {n.id: n for n in (await session.exec(closed)).all()}
    groups = {
        g.id: g for g in (await session.exec(select(LadderGroup).where(col(LadderGroup.night_id).in_(nights)))).all()
    }
    scores = (await session.exec(select(LadderScore).where(col(LadderScore.group_id).in_(groups)))).all()
    ladder_players = await session.exec(
        select(LadderPlayer.id, LadderPlayer.player_id).where(
            col(LadderPlayer.id).in_({s.ladder_player_id for s in scores})
        )
    )
    player_of = dict(ladder_players.all())
    members = await _members(session, set(player_of.values()))
    by_game: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for score in scores:
        by_game[(score.group_id, score.slot)][members[player_of[score.ladder_player_id]]] = score.score
    games = []
    for (group_id, slot), game_scores in by_game.items():
        group = groups[group_id]
        night = nights[group.night_id]
        if group.slots is not None and slot < len(group.slots):
            games.append(PlayedGame(night.play_on, (LADDER_GAMES, group_id, slot), group.slots[slot], game_scores))
    return games


async def field_games(session: AsyncSession, league_ids: Sequence[int]) -> list[PlayedGame]:
    """A field night's game on a machine is the whole field's ranking on it, by each player's best attempt."""
    closed = select(FieldNight).where(col(FieldNight.league_id).in_(league_ids), FieldNight.state == NightState.CLOSED)
    nights = {n.id: n for n in (await session.exec(closed)).all()}
    scores = (await session.exec(select(FieldScore).where(col(FieldScore.night_id).in_(nights)))).all()
    members = await _members(session, {s.player_id for s in scores})
    by_game: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for score in scores:
        game, member = by_game[(score.night_id, score.machine_id)], members[score.player_id]
        game[member] = max(score.score, game.get(member, score.score))
    return [
        PlayedGame(nights[night_id].play_on, (FIELD_GAMES, night_id, machine), machine, game_scores)
        for (night_id, machine), game_scores in by_game.items()
    ]


READERS: tuple[GameReader, ...] = (team_games, ladder_games, field_games)

# The audited tables the readers read (audit entries name them). A team match's games are read again on their
# own (`team_games(only=…)`); a change to another format's games means reading every game again; a changed
# player, machine or league changes names only, unless deleted (and its games with it).
TEAM_MATCH_TABLES = frozenset({"match", "game_score", "match_lineup", "lineup_replacement"})
MACHINE_TABLES = frozenset({"match_lineup", "lineup_replacement"})  # where a team game's machine is named
OTHER_GAME_TABLES = frozenset(
    {"ladder_night", "ladder_group", "ladder_score", "ladder_player", "field_night", "field_score"}
)
NAME_TABLES = frozenset({"player", "machine", "league"})


async def played_games(session: AsyncSession, league_ids: Sequence[int]) -> list[PlayedGame]:
    """Every finalized game of these leagues, in the order played."""
    games = [game for read in READERS for game in await read(session, league_ids)]
    return sorted(games, key=lambda g: (g.on, g.order))
