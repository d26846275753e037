"""A team's attendance record over the season (TEAM-SCHED-4): the matches it began short-handed or forfeited."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, or_, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.team import attendance
from bot.rules.team.model import Side
from bot.rules.team.options import TeamOptions
from bot.services.team import match_facts
from storage.matches import Match
from storage.models import League, Team


async def short_attendance_flags(
    session: AsyncSession, league: League, team: Team, season_id: int, now: datetime
) -> list[tuple[str, str]]:
    """TEAM-SCHED-4: flag the team once `short_attendance_flag` of this season's matches, their start window
    closed, found it with fewer than 4 players ("repeatedly … may be asked to step out")."""
    matches = (
        await session.exec(
            select(Match)
            .where(Match.season_id == season_id, or_(Match.home_team_id == team.id, Match.away_team_id == team.id))
            .order_by(col(Match.play_on))
        )
    ).all()
    statuses, weeks = [], []
    for match in matches:
        context = await match_facts.context_for(session, league, match)
        if now < attendance.window_settled_at(match.play_on, zone=context.zone, options=context.options):
            continue
        call = match_facts.attendance_call(context, await match_facts.visits(session, match), now)
        statuses.append(call.status[Side.HOME if match.home_team_id == team.id else Side.AWAY])
        weeks.append(match.week)
    options = TeamOptions.model_validate(league.options)
    # The flag goes up at the match that reaches the threshold, and again at each further one ("repeatedly").
    flagged = [week for n, week in enumerate(weeks, 1) if attendance.short_attendance_flag_due(statuses[:n], options)]
    if not flagged:
        return []
    short = attendance.short_attendance_matches(statuses)
    return [
        (
            "TEAM-SCHED-4",
            f"{short} matches this season begun with fewer than 4 players: the league may ask it to step out "
            f"(flagged after week {', '.join(str(week) for week in flagged)}).",
        )
    ]
