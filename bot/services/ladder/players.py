"""Joining a ladder season and telling the league whether you are coming (LADDER-REG-*, LADDER-ATT-*)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import setup as setup_rules
from bot.rules.ladder.attendance import check_registration_open, check_skill
from bot.rules.ladder.options import LadderOptions
from bot.rules.posts import RollCallAnswer
from bot.rules.refusals import Conflict
from bot.services import audit
from bot.services.actor import Actor
from bot.services.discipline import require_in_good_standing
from bot.services.ladder.facts import (
    Entrant,
    LadderLeague,
    check_active,
    entrant_of,
    entrants,
    ladder_league,
    ladder_league_of,
    nights,
    require_standing,
)
from bot.services.lookup import insert_unique
from bot.services.permissions import require_commissioner
from bot.services.players import Member
from storage.db import Database
from storage.ladder import LadderAttendance, LadderPlayer, LadderStatus
from storage.models import League, Player, Season


@dataclass(frozen=True)
class Notice:
    name: str
    week: int
    kind: str  # "checked in", "absent", "late"
    at: datetime  # in the league's zone, as replies show it (COMMON-AMB-1)


class LadderPlayerService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def join(self, actor: Actor, league_name: str | None, *, skill: int, member: Member | None) -> Entrant:
        """LADDER-REG-1/2: a member joins (or a commissioner adds one) until the week-3 night opens."""
        check_skill(skill)
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            target = member or Member(actor.user_id, actor.display_name)
            if target.user_id != actor.user_id:
                require_commissioner(actor, ladder.league, "add other members to the ladder")
            if target.is_bot:
                raise Conflict(f"{target.display_name} is a bot; only people can play. Pick a member.")
            check_registration_open(len(await nights(session, ladder)), ladder.options)
            player = await _player(session, ladder, target, now)
            assert player.id is not None
            today = now.astimezone(ZoneInfo(ladder.league.timezone)).date()
            await require_in_good_standing(session, ladder.league, [player.id], on=today, doing="join the ladder")
            taken = await session.exec(
                select(LadderPlayer).where(
                    LadderPlayer.season_id == ladder.season_id, LadderPlayer.player_id == player.id
                )
            )
            if taken.first() is not None:
                raise Conflict(f"{player.display_name} has already joined this season's ladder.")
            entry = LadderPlayer(
                league_id=ladder.league_id, season_id=ladder.season_id, player_id=player.id, skill=skill, joined_at=now
            )
            session.add(entry)
            await session.flush()
            audit.created(session, actor, entry, at=now)
            return Entrant(entry, player.display_name, player.discord_user_id)

    async def checkin(self, actor: Actor, league_name: str | None, *, member: Member | None) -> Notice:
        """LADDER-ATT-1: record the arrival time for this week's night."""
        return await self._note(actor, league_name, member, "checked in")

    async def notify(self, actor: Actor, league_name: str | None, *, member: Member | None, late: bool) -> Notice:
        """LADDER-ATT-3/4: a notice of lateness or absence for this week, timed now."""
        return await self._note(actor, league_name, member, "late" if late else "absent")

    async def _note(self, actor: Actor, league_name: str | None, member: Member | None, kind: str) -> Notice:
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            return await record_notice(session, actor, ladder, member, kind, now)


async def record_notice(
    session: AsyncSession, actor: Actor, ladder: LadderLeague, member: Member | None, kind: str, now: datetime
) -> Notice:
    """LADDER-ATT-1/3/4: check-in, late or absence notice (`kind`) for this week, timed `now`; `/ladder checkin`,
    `/ladder absent` and the night's roll call all record through here."""
    if member is not None and member.user_id != actor.user_id:
        require_commissioner(actor, ladder.league, "check in or excuse other players")
    who = "You" if member is None or member.user_id == actor.user_id else member.display_name
    entrant = entrant_of(await entrants(session, ladder), member.user_id if member else actor.user_id, who=who)
    check_active(entrant)
    if kind == "checked in":
        await require_standing(session, ladder, [entrant], now, doing="check in")
    week = await _this_week(session, ladder)
    row = await _attendance(session, ladder, week, entrant.id)
    before = audit.snapshot(row) if row.id else None
    if kind == "checked in":
        if row.checked_in_at is not None:
            raise Conflict(f"{entrant.name} already checked in for week {week}.")
        row.checked_in_at = now
    elif kind == "late":
        row.late_notice_at = now
    else:
        row.absence_notice_at = now
    if before is None:
        await insert_unique(session, row, f"{entrant.name}'s attendance was just recorded; try again.")
        audit.created(session, actor, row, at=now)
    else:
        session.add(row)
        audit.updated(session, actor, row, before=before, at=now)
    return Notice(entrant.name, week, kind, now.astimezone(ZoneInfo(ladder.league.timezone)))


async def night_players(session: AsyncSession, league: League, season: Season) -> dict[int, str]:
    """The roll call of a ladder night: the season's entrants still playing (LADDER-ATT-6 leaves the dropped out)."""
    ladder = LadderLeague(league, season, LadderOptions.model_validate(league.options))
    return {
        e.entry.player_id: e.name
        for e in (await entrants(session, ladder)).values()
        if e.entry.status is not LadderStatus.DROPPED
    }


async def roll_call_answered(
    session: AsyncSession, actor: Actor, league: League, answer: RollCallAnswer, now: datetime
) -> str | None:
    """Out on a ladder night's roll call is the absence notice `/ladder absent` records (LADDER-ATT-4); In or
    Maybe afterwards cannot withdraw it, as `/ladder absent` cannot, but checking in still counts (LADDER-ATT-1)."""
    ladder = await ladder_league_of(session, league, now)
    if answer is RollCallAnswer.OUT:
        notice = await record_notice(session, actor, ladder, None, "absent", now)
        return (
            f"Your absence notice for week {notice.week} is recorded, as `/ladder absent` records it: "
            "excused, not a No-Show (LADDER-ATT-4)."
        )
    week = await _this_week(session, ladder)
    row = await _attendance(session, ladder, week, entrant_of(await entrants(session, ladder), actor.user_id).id)
    if row.absence_notice_at is None:
        return None
    return (
        f"Your absence notice for week {week} stands: `/ladder absent` has no way to withdraw one. If you come "
        f"after all, check in with `/ladder checkin` by {ladder.options.group_start:%H:%M} and you count as on "
        "time (LADDER-ATT-1)."
    )


async def _player(session: AsyncSession, ladder: LadderLeague, member: Member, now: datetime) -> Player:
    """The member's league player record, registered on first join (COMMON-PLAYER-1)."""
    found = (
        await session.exec(
            select(Player).where(Player.league_id == ladder.league.id, Player.discord_user_id == member.user_id)
        )
    ).first()
    if found is not None:
        return found
    name = setup_rules.clean_name(member.display_name, option="member", max_length=setup_rules.PLAYER_NAME_MAX)
    player = Player(
        league_id=ladder.league_id, discord_user_id=member.user_id, display_name=name.display, registered_at=now
    )
    session.add(player)
    await session.flush()
    return player


async def _this_week(session: AsyncSession, ladder: LadderLeague) -> int:
    """The open night's week, or the next one when none is open."""
    season_nights = await nights(session, ladder)
    if not season_nights:
        return 1
    last = season_nights[-1]
    return last.week if last.closed_at is None else last.week + 1


async def _attendance(session: AsyncSession, ladder: LadderLeague, week: int, entry_id: int) -> LadderAttendance:
    found = (
        await session.exec(
            select(LadderAttendance).where(
                LadderAttendance.season_id == ladder.season_id,
                LadderAttendance.week == week,
                LadderAttendance.ladder_player_id == entry_id,
            )
        )
    ).first()
    return found or LadderAttendance(season_id=ladder.season_id, week=week, ladder_player_id=entry_id)
