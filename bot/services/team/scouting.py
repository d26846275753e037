"""/match scout: before a match, the machines the other team picks when it declares first (TEAM-LINEUP-3) and
how both teams fared on them, from every confirmed game of the league's earlier matches."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from zoneinfo import ZoneInfo

from sqlmodel import col, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.refusals import InvalidInput, NotFound
from bot.rules.team import scouting
from bot.rules.team.model import Side
from bot.services.actor import Actor
from bot.services.lookup import current_season, find_league
from bot.services.team import match_facts
from bot.services.team.match_access import load_context, player_id_of, side_of_player
from bot.services.team.match_facts import MatchContext
from storage.db import Database
from storage.matches import Match
from storage.models import League, LeagueFormat, RosterEntry


@dataclass(frozen=True)
class ScoutedTeam:
    team: str
    versus: str
    machines: list[scouting.MachinePicks]
    matches: int  # earlier matches the scouted team played


@dataclass(frozen=True)
class ScoutReport:
    label: str
    play_on: date
    teams: list[ScoutedTeam]  # the opponent for a member of one team; both teams for anyone else


class ScoutService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def scout(self, actor: Actor, league_name: str | None, match_id: int | None) -> ScoutReport:
        async with self.db.reading() as session:
            if match_id is None:
                match_id = await self._next_match(session, actor, league_name)
            context = await load_context(session, actor, league_name, match_id)
            me = await player_id_of(session, context.league, actor.user_id)
            mine = side_of_player(await match_facts.rosters(session, context), me)
            scouted = [mine.other] if mine is not None else [Side.AWAY, Side.HOME]
            teams = [context.teams[side].id or 0 for side in Side]
            earlier = (
                await session.exec(
                    select(Match).where(
                        Match.league_id == context.league.id,
                        Match.play_on < context.match.play_on,
                        or_(col(Match.home_team_id).in_(teams), col(Match.away_team_id).in_(teams)),
                    )
                )
            ).all()
            games = await match_facts.machine_games(session, context.league, earlier)
        return ScoutReport(
            context.label,
            context.match.play_on,
            [_scouted(context, side, earlier, games) for side in scouted],
        )

    async def _next_match(self, session: AsyncSession, actor: Actor, league_name: str | None) -> int:
        """The soonest match from today on of a team the member is on."""
        league = await find_league(session, actor.guild_id, league_name)
        _require_team_league(league)
        today = self.clock.now().astimezone(ZoneInfo(league.timezone)).date()
        season = await current_season(session, league)
        me = await player_id_of(session, league, actor.user_id)
        entries = (
            await session.exec(
                select(RosterEntry).where(RosterEntry.season_id == season.id, RosterEntry.player_id == me)
            )
        ).all()
        teams = {entry.team_id for entry in entries if entry.ends_on is None or entry.ends_on > today}
        upcoming = (
            await session.exec(
                select(Match.id)
                .where(
                    Match.season_id == season.id,
                    Match.play_on >= today,
                    or_(col(Match.home_team_id).in_(teams), col(Match.away_team_id).in_(teams)),
                )
                .order_by(col(Match.play_on), col(Match.id))
            )
        ).first()
        if upcoming is None:
            raise NotFound(
                "You are on no team with a match ahead in this league: pick the match to scout from `match:`."
            )
        return upcoming


def _require_team_league(league: League) -> None:
    if league.format is not LeagueFormat.TEAM:
        raise InvalidInput(f"{league.name} is not a team league: scouting shows team matches' machine picks.")


def _scouted(
    context: MatchContext,
    side: Side,
    earlier: Sequence[Match],
    games: list[scouting.MachineGame],
) -> ScoutedTeam:
    team, us = context.teams[side], context.teams[side.other]
    played = sum(team.id in (m.home_team_id, m.away_team_id) for m in earlier)
    return ScoutedTeam(team.name, us.name, scouting.scout(games, team.id or 0, us.id), played)
