"""A field season's life (COMMON-SEASON-1/2) and the next season's start: registered players stay."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.seasons import Carried, PostSeason, SeasonProgress
from bot.services.field.facts import field_context
from bot.services.field.finals import finals_view
from storage.field import FieldFinals, FieldNight, NightState
from storage.models import League, Player, PlayerStatus, Season


async def season_progress(session: AsyncSession, league: League, season: Season, now: datetime) -> SeasonProgress:
    """Nights opened and closed out of `regular_weeks` (FIELD-CFG-1); the finals begun once an official takes
    entries (FIELD-FIN-1), complete when every bracket has its champion (FIELD-FIN-3)."""
    context = await field_context(session, league, season, now)
    options = context.options
    held = (
        await session.exec(
            select(FieldNight.state).where(FieldNight.season_id == season.id, FieldNight.week <= options.regular_weeks)
        )
    ).all()
    finals = PostSeason("finals", begun=False, complete=False)
    if (await session.exec(select(FieldFinals.id).where(FieldFinals.season_id == season.id))).first() is not None:
        brackets = (await finals_view(session, context)).brackets
        champions = all(bracket.state.champion is not None for bracket in brackets)
        finals = PostSeason("finals", begun=True, complete=bool(brackets) and champions)
    return SeasonProgress(
        regular=options.regular_weeks,
        begun=len(held),
        final=sum(1 for state in held if state is NightState.CLOSED),
        postseason=finals,
    )


async def carry_season(session: AsyncSession, league: League, last: Season, new: Season, now: datetime) -> Carried:
    """Field players are the league's registered players (COMMON-PLAYER-1): all but the expelled play on."""
    query = select(func.count()).where(Player.league_id == league.id, Player.status != PlayerStatus.EXPELLED)
    return Carried(
        {"players": (await session.exec(query)).one()},
        "Open the first night with `/field night open`; new players register with `/player register`.",
    )
