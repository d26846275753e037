"""What the ladder format's scheduled posts are about: its nights as a `bot.rules.posts` calendar, and each post's
facts (`PostContent.facts`): the night day (league_night), next week's groups (next_groups), the standings
(weekly_standings) or the playoff places once the regular season is over (bracket)."""

from __future__ import annotations

from datetime import datetime

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules import posts as rules
from bot.rules.ladder.posts import LEAGUE_NIGHT, NEXT_GROUPS
from bot.rules.refusals import NotFound
from bot.services.ladder.facts import ladder_league_of, nights
from bot.services.ladder.nights import GroupsView, planned_groups
from bot.services.ladder.standings import LadderStandings, Playoffs, playoff_places, standings_table
from bot.services.nights import night_day, planned_events
from bot.services.post_content import PostContent, aware
from storage.models import League


async def calendar(session: AsyncSession, league: League, now: datetime) -> rules.Calendar:
    """The season's nights (a night is final from the moment it was closed); the playoff places are set when
    the last regular week's night is closed (LADDER-PO-1)."""
    ladder = await ladder_league_of(session, league, now)
    season_nights = await nights(session, ladder)
    events = tuple(
        rules.Event(ref=night.id or 0, day=night.play_on, week=night.week, final_at=aware(night.closed_at))
        for night in season_nights
    )
    last = next((n for n in season_nights if n.week == ladder.options.regular_weeks), None)
    events += await planned_events(session, ladder.season)
    return rules.Calendar(ladder.season.number, events, bracket_at=aware(last.closed_at) if last else None)


async def content(session: AsyncSession, league: League, post: rules.PlannedPost, now: datetime) -> PostContent:
    ladder = await ladder_league_of(session, league, now)
    if post.kind == LEAGUE_NIGHT.name:
        return PostContent(league, post, facts=await night_day(session, league, post))
    if post.kind == NEXT_GROUPS.name:
        night = next((n for n in await nights(session, ladder) if n.id in post.refs), None)
        if night is None or night.next_groups is None:
            raise NotFound("That night's next groups are gone: the night was reopened or removed.")
        facts: GroupsView | Playoffs | LadderStandings = await planned_groups(session, ladder, night)
    elif post.kind == rules.BRACKET.name:
        facts = await playoff_places(session, ladder)
    else:
        facts = await standings_table(session, ladder)
    return PostContent(league, post, facts=facts)
