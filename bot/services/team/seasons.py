"""A team season's life (COMMON-SEASON-1/2) and the next season's start: teams keep their rosters."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.seasons import Carried, PostSeason, SeasonProgress
from bot.services.team.playoffs import has_playoffs, season_brackets
from bot.services.team.standings import StandingsService
from storage.models import League, Player, PlayerStatus, RosterEntry, Season


class TeamSeasons:
    """Reads a season's progress through the standings' reused results, so `/standings` computes them once."""

    def __init__(self, standings: StandingsService) -> None:
        self.standings = standings

    async def progress(self, session: AsyncSession, league: League, season: Season, now: datetime) -> SeasonProgress:
        """Regular matches with a result (match day has come) and final ones; the playoffs, seeded only once the
        regular season is final (TEAM-PO-1), complete when every conference's bracket has its champion."""
        loaded = await self.standings.reused_results(session, league, season, now)
        regular = loaded.regular_lines
        final = sum(1 for line in regular if line.result is not None and line.result.final)
        playoffs = PostSeason("playoffs", begun=False, complete=False)
        if regular and final == len(regular) and await has_playoffs(session, season):
            found = await season_brackets(session, league, season, loaded, now)
            champions = all(bracket.progress.champion is not None for bracket in found)
            playoffs = PostSeason("playoffs", begun=True, complete=bool(found) and champions)
        return SeasonProgress(
            regular=len(regular),
            begun=sum(1 for line in regular if line.result is not None),
            final=final,
            postseason=playoffs,
        )


async def carry_season(session: AsyncSession, league: League, last: Season, new: Season, now: datetime) -> Carried:
    """Every team keeps the roster it ended `last` with, captains and roles kept, as the new season's roster
    being put together (TEAM-ROSTER-9): the captain checks it and `/roster submit` dates it, which checks
    TEAM-ROSTER-1..5 (IFPA ranks as they are then). Expelled players are left off (TEAM-DISC-2)."""
    ended = (
        await session.exec(
            select(RosterEntry)
            .join(Player, col(Player.id) == RosterEntry.player_id)
            .where(
                RosterEntry.season_id == last.id,
                RosterEntry.ends_on == None,  # noqa: E711 - still on the team when the season ended
                col(RosterEntry.starts_on).is_not(None),
                Player.status != PlayerStatus.EXPELLED,
            )
            .order_by(col(RosterEntry.id))
        )
    ).all()
    assert new.id is not None
    for entry in ended:
        session.add(
            RosterEntry(
                league_id=entry.league_id,
                season_id=new.id,
                team_id=entry.team_id,
                player_id=entry.player_id,
                role=entry.role,
                ifpa_rank=entry.ifpa_rank,
            )
        )
    await session.flush()
    return Carried(
        {"teams": len({entry.team_id for entry in ended}), "roster places": len(ended)},
        "Each captain checks the team's roster with `/roster show` and submits it with `/roster submit`; then a "
        "commissioner runs `/schedule generate`.",
    )
