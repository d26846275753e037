"""What the ladder and field formats' scheduled posts are about: their nights as `bot.rules.posts` calendars, and
each post's facts (next week's groups, a night's results, the standings, the finals bracket).

`bot.services.post_content` wraps these in a `PostContent` and lists them in `CALENDARS` / `CONTENT`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules import night_posts as night_rules
from bot.rules import posts as rules
from bot.rules.field.options import FieldOptions
from bot.rules.ladder.options import LadderOptions
from bot.rules.refusals import NotFound
from bot.services.field.facts import FieldContext, load_season
from bot.services.field.finals import FinalsView, finals_view
from bot.services.field.nights import NightView
from bot.services.field.standings import FieldStandingsView
from bot.services.ladder.facts import LadderLeague, nights
from bot.services.ladder.nights import GroupsView, planned_groups
from bot.services.ladder.standings import LadderStandings, Playoffs, playoff_places, standings_table
from bot.services.lookup import current_season
from storage.field import FieldFinals, FieldNight, NightState
from storage.models import AuditEntry, League


@dataclass(frozen=True)
class LadderPost:
    """A ladder post's facts: next week's groups (next_groups), the standings (weekly_standings) or the playoff
    places once the regular season is over (bracket)."""

    groups: GroupsView | None = None
    standings: LadderStandings | None = None
    playoffs: Playoffs | None = None


@dataclass(frozen=True)
class FieldPost:
    """A field post's facts: one night's results, the season table, or the finals."""

    night: NightView | None = None
    standings: FieldStandingsView | None = None
    finals: FinalsView | None = None


async def ladder_league_of(session: AsyncSession, league: League) -> LadderLeague:
    return LadderLeague(league, await current_season(session, league), LadderOptions.model_validate(league.options))


async def field_context_of(session: AsyncSession, league: League) -> FieldContext:
    return FieldContext(league, await current_season(session, league), FieldOptions.model_validate(league.options))


async def ladder_calendar(session: AsyncSession, league: League, now: datetime) -> rules.Calendar:
    """The season's nights (a night is final from the moment it was closed); the playoff places are set when
    the last regular week's night is closed (LADDER-PO-1)."""
    ladder = await ladder_league_of(session, league)
    season_nights = await nights(session, ladder)
    events = tuple(
        rules.Event(ref=night.id or 0, day=night.play_on, week=night.week, final_at=_aware(night.closed_at))
        for night in season_nights
    )
    last = next((n for n in season_nights if n.week == ladder.options.regular_weeks), None)
    return rules.Calendar(ladder.season.number, events, bracket_at=_aware(last.closed_at) if last else None)


async def ladder_post(session: AsyncSession, league: League, post: rules.PlannedPost) -> LadderPost:
    ladder = await ladder_league_of(session, league)
    if post.kind == night_rules.NEXT_GROUPS.name:
        night = next((n for n in await nights(session, ladder) if n.id in post.refs), None)
        if night is None or night.next_groups is None:
            raise NotFound("That night's next groups are gone: the night was reopened or removed.")
        return LadderPost(groups=await planned_groups(session, ladder, night))
    if post.kind == rules.BRACKET.name:
        return LadderPost(playoffs=await playoff_places(session, ladder))
    return LadderPost(standings=await standings_table(session, ladder))


async def field_calendar(session: AsyncSession, league: League, now: datetime) -> rules.Calendar:
    """The season's nights (final once closed: the close is the night's last audited change) and when the finals
    were seeded (the bracket post)."""
    context = await field_context_of(session, league)
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
            final_at=_aware(closed_at.get(night.id)) or datetime.combine(night.play_on, time(23, 59), tzinfo=zone)
            if night.state is NightState.CLOSED
            else None,
        )
        for night in season_nights
    )
    finals = (await session.exec(select(FieldFinals).where(FieldFinals.season_id == context.season.id))).first()
    seeded_at = _aware(finals.seeded_at) if finals is not None and finals.seeds else None
    return rules.Calendar(context.season.number, events, bracket_at=seeded_at)


async def field_post(session: AsyncSession, league: League, post: rules.PlannedPost) -> FieldPost:
    context = await field_context_of(session, league)
    if post.kind == rules.BRACKET.name:
        return FieldPost(finals=await finals_view(session, context))
    season = await load_season(session, context)
    if post.kind == night_rules.NIGHT_RESULTS.name:
        facts = next((f for f in season.nights if f.night.id in post.refs), None)
        if facts is None:
            raise NotFound("That night is gone.")
        return FieldPost(night=NightView(season, season.night_result(facts)))
    view = FieldStandingsView(
        context.league,
        context.season,
        context.options,
        season.season_table(),
        season.names,
        len(season.nights),
        sum(1 for f in season.nights if f.night.state is NightState.CLOSED),
    )
    return FieldPost(standings=view)


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
