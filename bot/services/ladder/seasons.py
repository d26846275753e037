"""A ladder season's life (COMMON-SEASON-1/2) and the next season's start: players carried, seeded by where
they finished."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.ladder.options import LadderOptions
from bot.rules.seasons import Carried, SeasonProgress
from bot.services.ladder.facts import LadderLeague, nights
from bot.services.ladder.standings import standings_table
from bot.services.league_options import options_ahead
from storage.ladder import LadderPlayer
from storage.models import League, Player, PlayerStatus, Season


async def _ladder(session: AsyncSession, league: League, season: Season, now: datetime) -> LadderLeague:
    """The league with the options of what is still to play (COMMON-LEAGUE-2), as its commands read them."""
    return LadderLeague(league, season, LadderOptions.model_validate(await options_ahead(session, league, now)))


async def season_progress(session: AsyncSession, league: League, season: Season, now: datetime) -> SeasonProgress:
    """Nights opened and closed out of `regular_weeks` (LADDER-CFG-1). The playoffs (LADDER-PO-*) are played
    away from the bot, so the season is complete once its last regular night closes."""
    ladder = await _ladder(session, league, season, now)
    held = [night for night in await nights(session, ladder) if night.week <= ladder.options.regular_weeks]
    return SeasonProgress(
        regular=ladder.options.regular_weeks,
        begun=len(held),
        final=sum(1 for night in held if night.closed_at is not None),
        postseason=None,
    )


async def carry_season(session: AsyncSession, league: League, last: Season, new: Season, now: datetime) -> Carried:
    """Every player of `last` joins `new` with the same skill (LADDER-REG-2), seeded by last season's final
    standings (LADDER-STAND-2) for week 1's groups (LADDER-GROUP-2). Divisions start afresh: the split comes
    after week 5 of each season (LADDER-DIV-1). Expelled players are left out (COMMON-PLAYER-2)."""
    table = await standings_table(session, await _ladder(session, league, last, now))
    finishing = [row.player_id for row in table.rows if not row.dropped] + [
        row.player_id for row in table.rows if row.dropped
    ]
    entries = {
        entry.player_id: entry
        for entry, status in (
            await session.exec(
                select(LadderPlayer, Player.status)
                .join(Player, col(Player.id) == LadderPlayer.player_id)
                .where(LadderPlayer.season_id == last.id)
            )
        ).all()
        if status is not PlayerStatus.EXPELLED
    }
    assert new.id is not None
    seed = 0
    for player_id in finishing:
        if (entry := entries.get(player_id)) is None:
            continue
        seed += 1
        session.add(
            LadderPlayer(
                league_id=entry.league_id,
                season_id=new.id,
                player_id=player_id,
                skill=entry.skill,
                joined_at=now,
                seed=seed,
            )
        )
    await session.flush()
    return Carried(
        {"players": seed},
        "Week 1's groups follow last season's finishing order; new players join with `/ladder join`. Open the "
        "first night with `/ladder night open`.",
    )
