"""What scheduled posts are about: a team league's calendar as `bot.rules.posts` reads it, and each post's content.

`team_calendar` turns the season's matches, their results and open challenges into plain facts; `team_content`
gathers what one planned post shows (matches, rosters, roll-call answers, standings…) for `bot.render.posts`.
Each format registers its calendar and content loaders with its post renderers (`bot.formats.Posts`); the ladder
and field formats' facts come from `bot.services.ladder.posts` and `bot.services.field.posts`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import Any, overload
from zoneinfo import ZoneInfo

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules import posts as rules
from bot.rules.posts import RollCallAnswer
from bot.rules.team import standings as standing_rules
from bot.rules.team.model import RosterRole, Side
from bot.rules.team.options import TeamOptions
from bot.rules.team.posts import DISPUTE_CLOSED, DISPUTE_REMINDER
from bot.services.lookup import current_season
from bot.services.team import match_facts
from bot.services.team.playoffs import PlayoffsView, bracket_view
from bot.services.team.schedule import ScheduledLine, season_matches
from bot.services.team.standings import ConferenceTable, StandingsView, season_results
from storage.matches import Match, MatchChallenge, MatchConfirmation, MatchKind
from storage.models import AuditEntry, League, Machine, Player, RosterEntry, Season
from storage.posts import RollCallReply


@dataclass(frozen=True)
class TeamSide:
    name: str
    captains: tuple[int, ...]  # Discord ids, to mention where captains must act
    answers: dict[RollCallAnswer, list[str]]  # roll call: names by answer
    silent: list[str]  # rostered players who have not answered

    @property
    def coming(self) -> int:
        return len(self.answers[RollCallAnswer.IN])


@dataclass(frozen=True)
class MatchPost:
    """One match as posts show it."""

    line: ScheduledLine
    sides: dict[Side, TeamSide]
    machines: list[str]  # in service at the venue tonight
    missing: tuple[str, ...]  # what stands between the match and final, once it is played


@dataclass(frozen=True)
class DisputePost:
    challenge: MatchChallenge
    match: MatchPost


@dataclass(frozen=True)
class StandingsRace:
    """Each team's rank after every week so far, per conference: {conference: {team name: [rank by week]}}."""

    weeks: list[int]
    ranks: dict[str, dict[str, list[int]]]


@dataclass(frozen=True)
class PostContent:
    """Everything a post may show; each kind uses its part."""

    league: League
    post: rules.PlannedPost
    cutoff: time | None = None  # team: the roster cutoff (TEAM-ROSTER-7)
    matches: list[MatchPost] = field(default_factory=list)
    disputes: list[DisputePost] = field(default_factory=list)
    standings: StandingsView | None = None
    race: StandingsRace | None = None
    playoffs: PlayoffsView | None = None
    facts: Any = None  # another format's own facts for the post (the ladder's groups, the field's finals…)


async def team_calendar(session: AsyncSession, league: League, now: datetime) -> rules.Calendar:
    """The current season's matches (with the moment each became final) and open challenges."""
    season = await current_season(session, league)
    lines = await season_matches(session, league, season, now=now)
    final_times = await _final_times(session, [line.match.id or 0 for line in lines if _is_final(line)])
    events = []
    replies = await _reply_counts(session, [line.match.id or 0 for line in lines])
    for line in lines:
        match = line.match
        final_at = None
        if _is_final(line):
            final_at = final_times.get(match.id or 0) or datetime.combine(
                match.play_on, time(23, 59), tzinfo=ZoneInfo(league.timezone)
            )
        events.append(
            rules.Event(
                ref=match.id or 0,
                day=match.play_on,
                week=match.week,
                kind="playoff" if match.kind is MatchKind.PLAYOFF else "regular",
                final_at=final_at,
                available=(
                    replies.get((match.id or 0, match.home_team_id), 0),
                    replies.get((match.id or 0, match.away_team_id), 0),
                ),
            )
        )
    challenges = (
        await session.exec(
            select(MatchChallenge)
            .join(Match, Match.id == MatchChallenge.match_id)  # type: ignore[arg-type]
            .where(Match.season_id == season.id, col(MatchChallenge.ruled_at).is_(None))
        )
    ).all()
    disputes = tuple(rules.Dispute(c.id or 0, c.match_id, c.raised_at) for c in challenges)
    return rules.Calendar(season.number, tuple(events), disputes, await _bracket_drawn_at(session, lines))


async def team_content(session: AsyncSession, league: League, post: rules.PlannedPost, now: datetime) -> PostContent:
    season = await current_season(session, league)
    options = TeamOptions.model_validate(league.options)
    lines = await season_matches(session, league, season, now=now)
    content = PostContent(league, post, options.roster_cutoff, [], [])
    if post.kind in (DISPUTE_REMINDER.name, DISPUTE_CLOSED.name):
        challenges = (await session.exec(select(MatchChallenge).where(col(MatchChallenge.id).in_(post.refs)))).all()
        by_match = {line.match.id: line for line in lines}
        disputes = [
            DisputePost(c, await match_post(session, league, by_match[c.match_id]))
            for c in challenges
            if c.match_id in by_match
        ]
        return PostContent(league, post, options.roster_cutoff, [], disputes)
    if post.kind == rules.WEEKLY_STANDINGS.name:
        return await _standings_content(session, league, season, content, lines, now)
    if post.kind == rules.BRACKET.name:
        view = await bracket_view(session, league, season, now)
        return PostContent(league, post, options.roster_cutoff, [], [], playoffs=view)
    wanted = set(post.refs)
    matches = [await match_post(session, league, line) for line in lines if line.match.id in wanted]
    return PostContent(league, post, options.roster_cutoff, matches, [])


async def match_post(session: AsyncSession, league: League, line: ScheduledLine) -> MatchPost:
    """A match with each side's captains and roll-call answers, and the machines in service at its venue."""
    match = line.match
    context = await match_facts.context_for(session, league, match)
    rosters = await match_facts.rosters(session, context)
    player_ids = [entry.player_id for entries in rosters.values() for entry in entries]
    users = dict(
        (await session.exec(select(Player.id, Player.discord_user_id).where(col(Player.id).in_(player_ids)))).all()
    )
    replies = {
        reply.player_id: reply.answer
        for reply in (await session.exec(select(RollCallReply).where(RollCallReply.match_id == match.id))).all()
    }
    sides = {}
    for side, entries in rosters.items():
        answers: dict[RollCallAnswer, list[str]] = {answer: [] for answer in RollCallAnswer}
        silent = []
        for entry in entries:
            if entry.player_id in replies:
                answers[replies[entry.player_id]].append(entry.name)
            else:
                silent.append(entry.name)
        captains = tuple(users[e.player_id] for e in entries if e.role is RosterRole.CAPTAIN and e.player_id in users)
        sides[side] = TeamSide(context.teams[side].name, captains, answers, silent)
    machines: list[str] = []
    if match.venue_id is not None:
        rows = (await session.exec(select(Machine).where(Machine.venue_id == match.venue_id))).all()
        machines = sorted(m.title for m in rows if m.status.in_service and m.removed_at is None)
    missing = line.result.missing if line.result is not None and not line.result.final else ()
    return MatchPost(line, sides, machines, missing)


async def _standings_content(
    session: AsyncSession,
    league: League,
    season: Season,
    content: PostContent,
    lines: list[ScheduledLine],
    now: datetime,
) -> PostContent:
    """TEAM-STAND-1: the table after the post's week, and every team's rank week by week up to it."""
    loaded = await season_results(session, league, season, now=now)
    options = TeamOptions.model_validate(league.options)
    week = max((line.match.week for line in lines if line.match.id in set(content.post.refs)), default=0)
    week_of = {line.match.id: line.match.week for line in lines}
    weeks = sorted({line.match.week for line in loaded.regular_lines if line.match.week <= week})
    tables: list[ConferenceTable] = []
    ranks: dict[str, dict[str, list[int]]] = {}
    for conference in loaded.conferences:
        table = loaded.table(conference, options)
        up_to = [r for r in loaded.results if week_of.get(r.match_id, 0) <= week]
        rows = standing_rules.standings(table.teams, up_to)
        tables.append(ConferenceTable(conference, rows, table.teams, table.level_after_every_step))
        ranks[conference] = {team.name: [] for team in table.teams.values()}
        for through in weeks:
            so_far = [r for r in loaded.results if week_of.get(r.match_id, 0) <= through]
            for row in standing_rules.standings(table.teams, so_far):
                ranks[conference][table.teams[row.team].name].append(row.rank)
    regular = [line for line in loaded.regular_lines if line.match.week <= week]
    view = StandingsView(
        league,
        season,
        tables,
        final_matches=sum(1 for line in regular if line.result is not None and line.result.final),
        regular_matches=len(loaded.regular_lines),
    )
    return PostContent(
        content.league, content.post, content.cutoff, [], [], standings=view, race=StandingsRace(weeks, ranks)
    )


def _is_final(line: ScheduledLine) -> bool:
    return line.result is not None and line.result.final


async def _final_times(session: AsyncSession, match_ids: list[int]) -> dict[int, datetime]:
    """When each final match became final: its last confirmation or audited change (a ruling, a forfeit)."""
    if not match_ids:
        return {}
    times: dict[int, datetime] = {}
    confirmed = await session.exec(
        select(MatchConfirmation.match_id, func.max(MatchConfirmation.confirmed_at))
        .where(col(MatchConfirmation.match_id).in_(match_ids))
        .group_by(col(MatchConfirmation.match_id))
    )
    audited = await session.exec(
        select(AuditEntry.entity_id, func.max(AuditEntry.at))
        .where(AuditEntry.entity == "match", col(AuditEntry.entity_id).in_(match_ids), AuditEntry.action == "update")
        .group_by(col(AuditEntry.entity_id))
    )
    for match_id, at in [*confirmed.all(), *audited.all()]:
        if match_id is not None and at is not None:
            moment = aware(at)
            times[match_id] = max(times.get(match_id, moment), moment)
    return times


async def _reply_counts(session: AsyncSession, match_ids: list[int]) -> dict[tuple[int, int], int]:
    """(match, team) → players who said they are in. A player's team is the side whose roster they are on."""
    if not match_ids:
        return {}
    rows = (
        await session.exec(
            select(RollCallReply, RosterEntry, Match)
            .join(Match, Match.id == RollCallReply.match_id)  # type: ignore[arg-type]
            .join(RosterEntry, RosterEntry.player_id == RollCallReply.player_id)  # type: ignore[arg-type]
            .where(col(RollCallReply.match_id).in_(match_ids), RollCallReply.answer == RollCallAnswer.IN)
            .where(
                (RosterEntry.team_id == Match.home_team_id) | (RosterEntry.team_id == Match.away_team_id),
                RosterEntry.season_id == Match.season_id,
            )
        )
    ).all()
    counts: dict[tuple[int, int], int] = {}
    for reply, entry, match in rows:
        if entry.applies_on(match.play_on):
            key = (reply.match_id, entry.team_id)
            counts[key] = counts.get(key, 0) + 1
    return counts


async def _bracket_drawn_at(session: AsyncSession, lines: list[ScheduledLine]) -> datetime | None:
    """When the first playoff match was created (`/playoffs seed`), from its audit entry."""
    playoff_ids = [line.match.id for line in lines if line.match.kind is MatchKind.PLAYOFF]
    if not playoff_ids:
        return None
    query = select(func.min(AuditEntry.at)).where(
        AuditEntry.entity == "match", AuditEntry.action == "create", col(AuditEntry.entity_id).in_(playoff_ids)
    )
    at = (await session.exec(query)).one()
    return aware(at)


@overload
def aware(moment: datetime) -> datetime: ...
@overload
def aware(moment: None) -> None: ...
def aware(moment: datetime | None) -> datetime | None:
    """A stored moment as an aware instant: SQLite gives back naive UTC."""
    if moment is None:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
