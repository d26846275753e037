"""What the field format's scheduled posts are about: its nights as a `bot.rules.posts` calendar, and each post's
facts (`PostContent.facts`): the meet day (meet_night), one night's results (night_results), the season table
(weekly_standings) or the finals (bracket)."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules import posts as rules
from bot.rules.field.posts import MEET_NIGHT, NIGHT_RESULTS
from bot.rules.posts import RollCallAnswer
from bot.rules.refusals import NotFound
from bot.services.actor import Actor
from bot.services.field.facts import FieldContext, field_context, load_season
from bot.services.field.finals import finals_view
from bot.services.field.nights import NightView
from bot.services.field.standings import FieldStandingsView
from bot.services.lookup import current_season
from bot.services.nights import night_day, planned_events
from bot.services.post_content import PostContent, aware
from storage.field import FieldFinals, FieldNight, NightState
from storage.models import AuditEntry, League, Player, PlayerStatus, Season


async def field_context_of(session: AsyncSession, league: League, now: datetime) -> FieldContext:
    return await field_context(session, league, await current_season(session, league), now)


async def calendar(session: AsyncSession, league: League, now: datetime) -> rules.Calendar:
    """The season's nights (final once closed: the close is the night's last audited change) and when the finals
    were seeded (the bracket post)."""
    context = await field_context_of(session, league, now)
    season_nights = (
        await session.exec(
            select(FieldNight).where(FieldNight.season_id == context.season.id).order_by(col(FieldNight.week))
        )
    ).all()
    closed = [n.id for n in season_nights if n.state is NightState.CLOSED]
    closed_at = dict(
        (
            await session.exec(
                select(AuditEntry.entity_id, func.max(AuditEntry.at))
                .where(AuditEntry.entity == "field_night", col(AuditEntry.entity_id).in_(closed))
                .group_by(col(AuditEntry.entity_id))
            )
        ).all()
    )
    zone = ZoneInfo(league.timezone)
    events = tuple(
        rules.Event(
            ref=night.id or 0,
            day=night.play_on,
            week=night.week,
            # nights written without an audit trail (imports) count as closed at the end of their day
            final_at=aware(closed_at.get(night.id)) or datetime.combine(night.play_on, time(23, 59), tzinfo=zone)
            if night.state is NightState.CLOSED
            else None,
        )
        for night in season_nights
    )
    events += await planned_events(session, context.season)
    finals = (await session.exec(select(FieldFinals).where(FieldFinals.season_id == context.season.id))).first()
    seeded_at = aware(finals.seeded_at) if finals is not None and finals.seeds else None
    return rules.Calendar(context.season.number, events, bracket_at=seeded_at)


async def content(session: AsyncSession, league: League, post: rules.PlannedPost, now: datetime) -> PostContent:
    if post.kind == MEET_NIGHT.name:
        return PostContent(league, post, facts=await night_day(session, league, post))
    context = await field_context_of(session, league, now)
    if post.kind == rules.BRACKET.name:
        return PostContent(league, post, facts=await finals_view(session, context))
    season = await load_season(session, context)
    if post.kind == NIGHT_RESULTS.name:
        facts = next((f for f in season.nights if f.night.id in post.refs), None)
        if facts is None:
            raise NotFound("That night is gone.")
        return PostContent(league, post, facts=NightView(season, season.night_result(facts)))
    view = FieldStandingsView(
        context.league,
        context.season,
        season.table_options(),
        season.season_table(),
        season.names,
        len(season.nights),
        sum(1 for f in season.nights if f.night.state is NightState.CLOSED),
    )
    return PostContent(league, post, facts=view)


async def night_players(session: AsyncSession, league: League, season: Season) -> dict[int, str]:
    """The roll call of a meet: the league's registered players in good standing (guests are added on the night,
    FIELD-ATT-3)."""
    query = select(Player).where(Player.league_id == league.id, Player.status == PlayerStatus.ACTIVE)
    return {player.id or 0: player.display_name for player in (await session.exec(query)).all()}


async def roll_call_answered(
    session: AsyncSession, actor: Actor, league: League, answer: RollCallAnswer, now: datetime
) -> str | None:
    """A meet's answer is a heads-up only: who plays is who checks in at the venue (FIELD-ATT-1)."""
    if answer is RollCallAnswer.OUT:
        return None
    return "Check in with `/field checkin` when you arrive: groups are made from who is checked in (FIELD-ATT-1)."
