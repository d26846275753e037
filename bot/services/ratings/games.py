"""Every machine game a guild's leagues have finalized, read from each format's stored facts as one shape.

A game counts once its result is settled: a team game once the opposing captain (or an official) confirmed its
scores (COMMON-SCORE-3), a ladder group's or field night's games once the night is closed. Each reader reads
the tables of one kind of game; a league simply has no rows in the others' tables.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date

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
    order: tuple[int, ...]  # settles games of the same day: (source, ids…) in the order they were stored
    machine_id: int
    scores: dict[int, int]


GameReader = Callable[[AsyncSession, Sequence[int]], Awaitable[list[PlayedGame]]]


async def _members(session: AsyncSession, player_ids: set[int]) -> dict[int, int]:
    rows = await session.exec(select(Player.id, Player.discord_user_id).where(col(Player.id).in_(player_ids)))
    return {player_id: user_id for player_id, user_id in rows.all() if player_id is not None}


async def team_games(session: AsyncSession, league_ids: Sequence[int]) -> list[PlayedGame]:
    in_leagues = select(col(Match.id), col(Match.play_on)).where(col(Match.league_id).in_(league_ids))
    rows = (await session.exec(in_leagues)).all()
    played_on = {match_id: on for match_id, on in rows if match_id is not None}
    if not played_on:
        return []
    # Plain rows, not ORM objects: a server's seasons hold tens of thousands of scores.
    game = (col(GameScore.match_id), col(GameScore.round_index), col(GameScore.game_number))
    confirmed = (
        sa.select(*game, col(Player.discord_user_id), col(GameScore.score))
        .join(Player, col(Player.id) == GameScore.player_id)
        .where(
            col(GameScore.match_id).in_(played_on),
            col(GameScore.confirmed_at).is_not(None),
            col(GameScore.status).not_in(UNPLAYED),
        )
    )
    connection = await session.connection()
    by_game: dict[tuple[int, int, int], dict[int, int]] = defaultdict(dict)
    for match_id, round_index, game_number, user, score in (await connection.execute(confirmed)).all():
        by_game[(match_id, round_index, game_number)][user] = score
    machine_of = await _team_machines(session, list(played_on))
    games = []
    for key, game_scores in by_game.items():
        machine = machine_of.get(key)
        if machine is not None:
            games.append(PlayedGame(played_on[key[0]], (0, *key), machine, game_scores))
    return games


async def _team_machines(session: AsyncSession, match_ids: list[int]) -> dict[tuple[int, int, int], int]:
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
            games.append(PlayedGame(night.play_on, (1, group_id, slot), group.slots[slot], game_scores))
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
        PlayedGame(nights[night_id].play_on, (2, night_id, machine), machine, game_scores)
        for (night_id, machine), game_scores in by_game.items()
    ]


READERS: tuple[GameReader, ...] = (team_games, ladder_games, field_games)


async def played_games(session: AsyncSession, league_ids: Sequence[int]) -> list[PlayedGame]:
    """Every finalized game of these leagues, in the order played."""
    games = [game for read in READERS for game in await read(session, league_ids)]
    return sorted(games, key=lambda g: (g.on, g.order))
