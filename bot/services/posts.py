"""Scheduled posts: posting settings, commissioner control, claims, and roll-call answers.

`bot.rules.posts` decides which posts are due; this service loads the facts it decides from, claims each post
before it is sent (a unique (league, kind, period) row, so restarts and several processes post it once) and
stores the message id after. Commissioner commands (settings, pause, resume, resend) are audited.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import delete, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot import formats
from bot.clock import Clock
from bot.rules import posts as rules
from bot.rules.posts import RollCallAnswer
from bot.rules.refusals import InvalidInput, NotFound
from bot.rules.seasons import postseason_undated
from bot.rules.team.model import Side
from bot.rules.team.posts import SHORT_HANDED
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import current_season, find_league, league_today
from bot.services.permissions import require_commissioner
from bot.services.post_content import MatchPost, PostContent, match_post
from bot.services.seasons import SeasonStages
from bot.services.team.schedule import season_matches
from storage.db import Database
from storage.matches import Match
from storage.models import League, Player, RosterEntry, Season
from storage.posts import LeaguePosting, PostClaim, RollCallReply

UPCOMING_HORIZON = timedelta(days=8)
PROCESS = f"{socket.gethostname()}:{os.getpid()}"[:80]
CHANNEL_COLUMNS = {
    rules.Channel.ANNOUNCEMENTS: "announcements_channel_id",
    rules.Channel.SCORES: "scores_channel_id",
    rules.Channel.COMMISSIONERS: "commissioners_channel_id",
}


@dataclass(frozen=True)
class Posting:
    """A league with its posting settings, as the scheduler and the commands read them."""

    league: League
    row: LeaguePosting

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.league.timezone)

    def channel_id(self, channel: rules.Channel) -> int | None:
        value = getattr(self.row, CHANNEL_COLUMNS[channel])
        return int(value) if value is not None else None

    def settings(self) -> rules.PostingSettings:
        return rules.PostingSettings(
            zone=self.zone,
            timings={kind: rules.Timing.model_validate(timing) for kind, timing in self.row.timings.items()},
            channels=frozenset(c for c in rules.Channel if self.channel_id(c) is not None),
            grace=timedelta(minutes=self.row.grace_minutes),
            paused=self.row.paused,
            resumed_at=self.row.resumed_at,
        )

    def kinds(self) -> list[rules.PostKind]:
        return rules.kinds_for(self.league.format.value)


@dataclass(frozen=True)
class DuePost:
    league_id: int
    post: rules.PlannedPost
    channel_id: int
    claim_id: int | None = None  # set when the post is claimed already (a re-send)


@dataclass(frozen=True)
class UpcomingPost:
    post: rules.PlannedPost
    channel_id: int | None
    claimed: bool


@dataclass(frozen=True)
class UpcomingView:
    posting: Posting
    posts: list[UpcomingPost]


@dataclass(frozen=True)
class RollCall:
    """A match's roll call after an answer: what the living roll-call message shows."""

    match: MatchPost
    answer: RollCallAnswer
    player_name: str


class PostService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.stages = SeasonStages.of(db, clock)

    async def _calendar(self, session: AsyncSession, league: League, now: datetime) -> rules.Calendar:
        """The format's calendar, and when the regular season ended while the post-season has no date
        (COMMON-SEASON-2), for the reminder every format shares."""
        calendar = await formats.of(league).posts.calendar(session, league, now)
        season = await current_season(session, league)
        regular = [e for e in calendar.events if e.kind == "regular"]
        if season.postseason_on is not None or not regular or any(e.final_at is None for e in regular):
            return calendar  # dated, or still under way: no need to ask how far the season is (every minute)
        shown = await self.stages.shown(session, league, season, now)
        if not postseason_undated(shown.progress, season.postseason_on):
            return calendar
        return replace(calendar, undated_since=max(e.final_at or now for e in regular))

    async def _content(
        self, session: AsyncSession, league: League, post: rules.PlannedPost, now: datetime
    ) -> PostContent:
        if post.kind == rules.POSTSEASON_DATE.name:  # every format's: the season that needs a post-season date
            return PostContent(
                league, post, facts=await self.stages.shown(session, league, await current_season(session, league), now)
            )
        return await formats.of(league).posts.content(session, league, post, now)

    # --- commissioner commands ---

    async def settings(self, actor: Actor, league_name: str | None) -> Posting:
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "see the posting settings")
            return Posting(league, await _posting_row(session, league))

    async def set_channels(
        self, actor: Actor, league_name: str | None, channels: dict[rules.Channel, int], *, grace_minutes: int | None
    ) -> Posting:
        """Name the announcement, scores and commissioner channels, and the grace for late posts."""
        if grace_minutes is not None and not 0 <= grace_minutes <= 24 * 60:
            raise InvalidInput(f"`grace_minutes` must be between 0 and 1440 (a day), not {grace_minutes}.")
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "change where posts go")
            row = await _posting_row(session, league, for_update=True)
            before = audit.snapshot(row)
            for channel, channel_id in channels.items():
                setattr(row, CHANNEL_COLUMNS[channel], channel_id)
            if grace_minutes is not None:
                row.grace_minutes = grace_minutes
            await _save(session, actor, row, before, at=self.clock.now())
            return Posting(league, row)

    async def set_timing(
        self,
        actor: Actor,
        league_name: str | None,
        kind_name: str,
        *,
        enabled: bool | None,
        at: str | None,
        days: int | None,
        hours: int | None,
    ) -> tuple[Posting, rules.PostKind]:
        """Turn one kind of post on or off, or change its local time and lead (days or hours from its anchor)."""
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "change when posts go out")
            kind = _kind(league, kind_name)
            row = await _posting_row(session, league, for_update=True)
            before = audit.snapshot(row)
            current = rules.Timing.model_validate(row.timings.get(kind.name, kind.default.model_dump(mode="json")))
            changes: dict[str, Any] = {}
            if enabled is not None:
                changes["enabled"] = enabled
            if at is not None:
                changes["at"] = _local_time(at)
            if days is not None:
                changes["days"] = days
            if hours is not None:
                changes["hours"] = hours
            try:
                timing = rules.Timing.model_validate({**current.model_dump(), **changes})
            except ValueError:
                raise InvalidInput("`days` must be between -14 and 14 and `hours` between 0 and 168.") from None
            row.timings = {**row.timings, kind.name: timing.model_dump(mode="json")}
            await _save(session, actor, row, before, at=self.clock.now())
            return Posting(league, row), kind

    async def pause(self, actor: Actor, league_name: str | None, *, paused: bool) -> Posting:
        """Stop or restart a league's scheduled posts. Posts that fell due while paused are not sent later."""
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "pause or resume the league's posts")
            row = await _posting_row(session, league, for_update=True)
            if row.paused == paused:
                state = "paused" if paused else "running"
                raise InvalidInput(f"{league.name}'s scheduled posts are already {state}.")
            before = audit.snapshot(row)
            row.paused = paused
            if not paused:
                row.resumed_at = self.clock.now()
            await _save(session, actor, row, before, at=self.clock.now())
            return Posting(league, row)

    async def upcoming(self, actor: Actor, league_name: str | None) -> UpcomingView:
        """The posts due in the next eight days, in the league's local time, and the ones already claimed."""
        now = self.clock.now()
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "list the upcoming posts")
            posting = Posting(league, await _posting_row(session, league))
            calendar = await self._calendar(session, league, now)
            fmt = league.format.value
            planned = rules.upcoming(fmt, posting.settings(), calendar, now=now, horizon=UPCOMING_HORIZON)
            claimed = await _claimed(session, league, planned)
            posts = [
                UpcomingPost(p, posting.channel_id(rules.REGISTRY[p.kind].channel), (p.kind, p.period) in claimed)
                for p in planned
            ]
            return UpcomingView(posting, posts)

    async def preview(self, actor: Actor, league_name: str | None, kind_name: str) -> PostContent:
        """Any kind of post as it would look now: the next one due, else the last one."""
        now = self.clock.now()
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "preview posts")
            kind = _kind(league, kind_name)
            posting = Posting(league, await _posting_row(session, league))
            calendar = await self._calendar(session, league, now)
            post = rules.latest(league.format.value, posting.settings(), calendar, kind.name, now=now)
            if post is None:
                raise NotFound(f"There is no {kind.title} to show yet: {kind.description}.")
            return await self._content(session, league, post, now)

    async def resend(self, actor: Actor, league_name: str | None, kind_name: str, period: str) -> DuePost:
        """A post that went out (or failed) to be sent again, e.g. after someone deleted it. Audited."""
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "re-send posts")
            kind = _kind(league, kind_name)
            posting = Posting(league, await _posting_row(session, league))
            calendar = await self._calendar(session, league, now)
            planned = {p.period: p for p in kind.plan(kind, posting.settings().timing(kind), calendar, posting.zone)}
            post = planned.get(period.strip())
            if post is None or post.due_at > now:
                known = ", ".join(p.period for p in planned.values() if p.due_at <= now)[-400:] or "none yet"
                raise NotFound(f"No {kind.title} {period.strip()!r} has fallen due. Periods so far: {known}.")
            channel_id = posting.channel_id(kind.channel)
            if channel_id is None:
                raise InvalidInput(f"Name the {kind.channel.value} channel first, with `/posts channels`.")
            claim = await _claim_row(session, league.id or 0, kind.name, post.period)
            if claim is None:
                claim = PostClaim(
                    league_id=league.id or 0,
                    kind=kind.name,
                    period=post.period,
                    claimed_at=now,
                    claimed_by=PROCESS,
                    channel_id=channel_id,
                )
                session.add(claim)
                await session.flush()
                audit.created(session, actor, claim, at=now, reason="re-sent by a commissioner")
            else:
                before = audit.snapshot(claim)
                claim.resent += 1
                claim.channel_id = channel_id
                session.add(claim)
                await session.flush()
                audit.updated(session, actor, claim, before=before, at=now, reason="re-sent by a commissioner")
            return DuePost(league.id or 0, post, channel_id, claim.id)

    # --- the scheduler's side ---

    async def postings(self) -> list[Posting]:
        """Every league with posting settings (the scheduler builds its jobs from these at start)."""
        async with self.db.reading() as session:
            rows = (await session.exec(select(League, LeaguePosting).join(LeaguePosting))).all()
            return [Posting(league, row) for league, row in rows]

    async def due(self, league_id: int | None = None, *, serves: Callable[[int], bool]) -> list[DuePost]:
        """Posts due now and not yet claimed, for every league (or one) of the guilds this process `serves` (its
        shards'); the claim decides who sends them."""
        now = self.clock.now()
        due: list[DuePost] = []
        for posting in await self.postings():
            if league_id is not None and posting.league.id != league_id:
                continue
            if not serves(posting.league.guild_id):
                continue
            if posting.row.paused:
                continue
            async with self.db.reading() as session:
                calendar = await self._calendar(session, posting.league, now)
                posts = rules.due(posting.league.format.value, posting.settings(), calendar, now=now)
                claimed = await _claimed(session, posting.league, posts)
            for post in posts:
                channel_id = posting.channel_id(rules.REGISTRY[post.kind].channel)
                if channel_id is not None and (post.kind, post.period) not in claimed:
                    due.append(DuePost(posting.league.id or 0, post, channel_id))
        return due

    async def claim(self, league_id: int, kind: str, period: str, channel_id: int) -> int | None:
        """Claim a post before sending it: the claim's id for the one caller that wins, None for everyone else.

        INSERT … ON CONFLICT DO NOTHING RETURNING: exactly one winner on SQLite and PostgreSQL (DESIGN.md §4)."""
        values = {
            "league_id": league_id,
            "kind": kind,
            "period": period,
            "claimed_at": self.clock.now(),
            "claimed_by": PROCESS,
            "channel_id": channel_id,
            "resent": 0,
        }
        insert = pg_insert if not self.db.is_sqlite else sqlite_insert
        table = PostClaim.__table__  # type: ignore[attr-defined]
        statement = (
            insert(table)
            .values(**values)
            .on_conflict_do_nothing(index_elements=["league_id", "kind", "period"])
            .returning(table.c.id)
        )
        async with self.db.writing() as session:
            return (await session.exec(statement)).scalar_one_or_none()

    async def sent(self, claim_id: int, message_id: int, *, digest: str | None = None) -> None:
        async with self.db.writing() as session:
            await session.exec(
                update(PostClaim)
                .where(col(PostClaim.id) == claim_id)
                .values(message_id=message_id, sent_at=self.clock.now(), digest=digest)
            )

    async def release(self, claim_id: int) -> None:
        """Give a claim back after the send failed, so the next tick (within the grace) tries again."""
        async with self.db.writing() as session:
            await session.exec(delete(PostClaim).where(col(PostClaim.id) == claim_id))

    async def find_claim(self, league_id: int, kind: str, period: str) -> PostClaim | None:
        async with self.db.reading() as session:
            return await _claim_row(session, league_id, kind, period)

    async def living(self, kind: str, *, serves: Callable[[int], bool]) -> list[PostClaim]:
        """Sent posts of a kind that are kept up to date (the bracket), in the guilds this process `serves`."""
        async with self.db.reading() as session:
            query = (
                select(PostClaim, League.guild_id)
                .join(League, col(League.id) == PostClaim.league_id)
                .where(PostClaim.kind == kind, col(PostClaim.message_id).is_not(None))
            )
            return [claim for claim, guild_id in (await session.exec(query)).all() if serves(guild_id)]

    async def content(self, league_id: int, post: rules.PlannedPost) -> PostContent:
        async with self.db.reading() as session:
            league = await session.get(League, league_id)
            if league is None:
                raise NotFound("That league no longer exists.")
            return await self._content(session, league, post, self.clock.now())

    async def content_for(self, league_id: int, kind: str, period: str) -> PostContent | None:
        """The content of the post (league, kind, period) as planned now; None once it is no longer planned."""
        now = self.clock.now()
        async with self.db.reading() as session:
            league = await session.get(League, league_id)
            if league is None:
                return None
            posting = Posting(league, await _posting_row(session, league))
            chosen = rules.REGISTRY[kind]
            calendar = await self._calendar(session, league, now)
            planned = {
                p.period: p for p in chosen.plan(chosen, posting.settings().timing(chosen), calendar, posting.zone)
            }
            if period not in planned:
                return None
            return await self._content(session, league, planned[period], now)

    # --- roll call ---

    async def answer_roll_call(self, actor: Actor, match_id: int, answer: RollCallAnswer) -> RollCall:
        """A player answers a match's roll call (in / out / maybe); a later answer replaces the earlier one."""
        now = self.clock.now()
        async with self.db.writing() as session:
            match = await session.get(Match, match_id)
            league = await session.get(League, match.league_id) if match is not None else None
            if match is None or league is None or league.guild_id != actor.guild_id:
                raise NotFound("That match no longer exists.")
            player = (
                await session.exec(
                    select(Player).where(Player.league_id == league.id, Player.discord_user_id == actor.user_id)
                )
            ).first()
            entries = []
            if player is not None:
                entries = [
                    entry
                    for entry in (
                        await session.exec(
                            select(RosterEntry).where(
                                RosterEntry.player_id == player.id,
                                RosterEntry.season_id == match.season_id,
                                col(RosterEntry.team_id).in_([match.home_team_id, match.away_team_id]),
                            )
                        )
                    ).all()
                    if entry.applies_on(match.play_on)
                ]
            if player is None or not entries:
                raise InvalidInput(
                    "Only players on either team's roster on the match date can answer its roll call. "
                    "Ask your captain to add you with `/roster add`."
                )
            if match.play_on < league_today(league, now):
                raise InvalidInput("This match has been played; its roll call is closed.")
            reply = (
                await session.exec(
                    select(RollCallReply).where(
                        RollCallReply.match_id == match_id, RollCallReply.player_id == player.id
                    )
                )
            ).first()
            if reply is None:
                session.add(RollCallReply(match_id=match_id, player_id=player.id or 0, answer=answer, answered_at=now))
            else:
                reply.answer, reply.answered_at = answer, now
                session.add(reply)
            await session.flush()
            season = await session.get(Season, match.season_id)
            assert season is not None
            lines = await season_matches(session, league, season, now=now, week=match.week)
            line = next(line for line in lines if line.match.id == match_id)
            return RollCall(await match_post(session, league, line), answer, player.display_name)


def short_sides(match: MatchPost) -> list[Side]:
    """The sides with fewer than four players coming (TEAM-SHORT-1)."""
    return [side for side, team in match.sides.items() if team.coming < SHORT_HANDED]


async def _posting_row(session: AsyncSession, league: League, *, for_update: bool = False) -> LeaguePosting:
    query = select(LeaguePosting).where(LeaguePosting.league_id == league.id)
    if for_update:
        query = query.with_for_update()
    row = (await session.exec(query)).first()
    return row if row is not None else LeaguePosting(league_id=league.id or 0)


async def _save(
    session: AsyncSession, actor: Actor, row: LeaguePosting, before: dict[str, Any], *, at: datetime
) -> None:
    existed = row in session  # loaded from the table, not made up from the defaults
    session.add(row)
    await session.flush()
    if existed:
        audit.updated(session, actor, row, before=before, at=at)
    else:
        audit.created(session, actor, row, at=at)


async def _claimed(session: AsyncSession, league: League, posts: list[rules.PlannedPost]) -> set[tuple[str, str]]:
    if not posts:
        return set()
    rows = await session.exec(
        select(PostClaim.kind, PostClaim.period).where(
            PostClaim.league_id == league.id, col(PostClaim.kind).in_({p.kind for p in posts})
        )
    )
    return {(kind, period) for kind, period in rows.all()}


async def _claim_row(session: AsyncSession, league_id: int, kind: str, period: str) -> PostClaim | None:
    query = select(PostClaim).where(
        PostClaim.league_id == league_id, PostClaim.kind == kind, PostClaim.period == period
    )
    return (await session.exec(query)).first()


def _kind(league: League, name: str) -> rules.PostKind:
    kinds = rules.kinds_for(league.format.value)
    for kind in kinds:
        if name.strip().casefold() in (kind.name, kind.title.casefold()):
            return kind
    known = ", ".join(kind.name for kind in kinds) or "none yet"
    raise NotFound(f"{league.name} has no kind of post named {name.strip()!r}. Kinds: {known}.")


def _local_time(text: str) -> time:
    try:
        return datetime.strptime(text.strip(), "%H:%M").time()
    except ValueError:
        raise InvalidInput(f"`at` must be a local time like 14:00, not {text.strip()!r}.") from None
