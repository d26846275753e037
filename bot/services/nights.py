"""`/schedule nights`: a ladder or field season's nights dated ahead (COMMON-SEASON-1), and the plan read back
for `/schedule show`, the night-day posts and `/schedule ics`. Which formats date their nights this way, and
when their nights start, is the format registry's `night_start`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot import formats
from bot.clock import Clock
from bot.exchange.calendar import CalendarEvent, icalendar_file
from bot.exchange.files import ExportFile
from bot.rules import posts as post_rules
from bot.rules.nights import PLANNED, RULE, night_dates, parse_start
from bot.rules.posts import RollCallAnswer
from bot.rules.refusals import Conflict, InvalidInput, NotFound, RuleViolation
from bot.services import audit
from bot.services.actor import Actor
from bot.services.exports import slug
from bot.services.lookup import current_season, find_league
from bot.services.permissions import require_commissioner
from bot.services.team.schedule import league_today, parse_date
from storage.db import Database
from storage.models import League, Season
from storage.nights import NightRollCallReply, PlannedNight

NIGHT_LENGTH = timedelta(hours=3)  # how long a calendar entry lasts from the night's start


@dataclass(frozen=True)
class NightSchedule:
    league: League
    season: Season
    nights: list[PlannedNight]
    skipped: list[PlannedNight]

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.league.timezone)


@dataclass(frozen=True)
class NightDay:
    """What a night-day reminder says: the league, the week and when the night starts (local); and, where the
    format has a roll call (`bot.formats.NightRollCall`), the planned night its buttons answer and who said what."""

    league: str
    week: int
    starts: datetime
    night_id: int | None = None  # None: no roll call
    answers: dict[RollCallAnswer, list[str]] = field(default_factory=dict)  # names by answer, by name
    unanswered: list[str] = field(default_factory=list)


class NightScheduleService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def schedule(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        first: str,
        nights: int,
        skip: str | None,
        reason: str | None,
        start: str | None,
    ) -> NightSchedule:
        """Date the season's nights: one a week on `first`'s weekday, `skip` dates (comma-separated) passed over
        without using up a week number, each recorded with the `reason` (COMMON-SEASON-1). Refused, with nothing
        written, when anything does not fit."""
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "schedule the season's nights")
            default_start = formats.of(league).night_start
            if default_start is None:
                raise InvalidInput(
                    f"{league.name} plays matches: `/schedule generate` schedules its season. "
                    "`/schedule nights` is for ladder and field leagues."
                )
            season = await current_season(session, league)
            planned = await planned_nights(session, season)
            if planned:
                raise Conflict(
                    f"Season {season.number} of {league.name} is scheduled already: {len(planned)} nights from "
                    f"{planned[0].play_on.isoformat()}. See `/schedule show`."
                )
            starts = parse_start(start) if start else default_start(league)
            skipped = [parse_date(day, option="skip") for day in re.split(r"[,\s]+", skip or "") if day]
            first_day = parse_date(first, option="first")
            dates = night_dates(first_day, nights, skipped, today=league_today(league, now))
            because = (reason or "").strip()
            if skipped and not because:
                raise RuleViolation(
                    RULE, "Say why the skipped dates have no night with `reason`, e.g. reason:holidays."
                )
            weeks: list[tuple[int | None, date]] = [
                *enumerate(dates, start=1),
                *((None, d) for d in sorted(set(skipped))),
            ]
            rows = [
                PlannedNight(
                    league_id=league.id or 0,
                    season_id=season.id or 0,
                    week=week,
                    play_on=day,
                    starts=starts.strftime("%H:%M"),
                    skipped_because=None if week else because,
                )
                for week, day in weeks
            ]
            session.add_all(rows)
            await session.flush()
            for row in rows:
                audit.created(session, actor, row, at=now)
            return NightSchedule(league, season, rows[: len(dates)], rows[len(dates) :])

    async def show(
        self, actor: Actor, league_name: str | None, *, team_name: str | None, week: int | None
    ) -> NightSchedule:
        """`/schedule show`: the season's planned nights, or one week's."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            if team_name is not None:
                raise InvalidInput(f"{league.name} has no teams: leave `team` out.")
            season = await current_season(session, league)
            nights = await planned_nights(session, season)
            if week is not None:
                if not any(night.week == week for night in nights):
                    raise NotFound(f"Season {season.number} has no week {week}: it has {len(nights)} planned nights.")
                nights = [night for night in nights if night.week == week]
            return NightSchedule(league, season, nights, [] if week else await skipped_dates(session, season))


async def planned_nights(session: AsyncSession, season: Season) -> list[PlannedNight]:
    """The season's nights, week by week (skipped dates left out)."""
    query = select(PlannedNight).where(PlannedNight.season_id == season.id, col(PlannedNight.week).is_not(None))
    return list((await session.exec(query.order_by(col(PlannedNight.week)))).all())


async def skipped_dates(session: AsyncSession, season: Season) -> list[PlannedNight]:
    query = select(PlannedNight).where(PlannedNight.season_id == season.id, col(PlannedNight.week).is_(None))
    return list((await session.exec(query.order_by(col(PlannedNight.play_on)))).all())


def night_start(night: PlannedNight, zone: ZoneInfo) -> datetime:
    """When a planned night starts, in the league's zone on that date (DST-safe)."""
    return datetime.combine(night.play_on, time.fromisoformat(night.starts), tzinfo=zone)


async def planned_events(session: AsyncSession, season: Season) -> tuple[post_rules.Event, ...]:
    """The planned nights as calendar events, for the night-day posts (`bot.rules.nights.plan_each_night_day`)."""
    return tuple(
        post_rules.Event(ref=night.id or 0, day=night.play_on, week=night.week, kind=PLANNED)
        for night in await planned_nights(session, season)
        if night.week is not None
    )


async def night_day(session: AsyncSession, league: League, post: post_rules.PlannedPost) -> NightDay:
    """The facts of a night-day post about the planned night `post.refs` names."""
    night = await session.get(PlannedNight, post.refs[0]) if post.refs else None
    if night is None or night.league_id != league.id or night.week is None:
        raise NotFound("That night is no longer on the schedule.")
    starts = night_start(night, ZoneInfo(league.timezone))
    roll_call = formats.of(league).night_roll_call
    if roll_call is None:
        return NightDay(league.name, night.week, starts)
    season = await session.get(Season, night.season_id)
    assert season is not None
    players = await roll_call.players(session, league, season)
    replies = (
        await session.exec(select(NightRollCallReply).where(NightRollCallReply.planned_night_id == night.id))
    ).all()
    answered = {reply.player_id: reply.answer for reply in replies if reply.player_id in players}
    answers: dict[RollCallAnswer, list[str]] = {answer: [] for answer in RollCallAnswer}
    for player_id, answer in answered.items():
        answers[answer].append(players[player_id])
    unanswered = sorted(name for player_id, name in players.items() if player_id not in answered)
    return NightDay(
        league.name, night.week, starts, night.id, {a: sorted(names) for a, names in answers.items()}, unanswered
    )


def nights_calendar(night_name: str) -> formats.CalendarFile:
    """`/schedule ics` of a format whose nights are planned with `/schedule nights`: one event per night, in UTC
    computed from the league's zone on each night's date. `night_name` is what the format calls a night."""

    async def calendar_file(
        session: AsyncSession, league: League, *, now: datetime, team_name: str | None, member_id: int | None
    ) -> ExportFile:
        if team_name is not None:
            raise InvalidInput(f"{league.name} has no teams: leave `team` out.")
        season = await current_season(session, league)
        planned = await planned_nights(session, season)
        if not planned:
            raise InvalidInput(
                f"{league.name}'s nights are not scheduled yet: a commissioner dates them with `/schedule nights`."
            )
        zone = ZoneInfo(league.timezone)
        events = [
            CalendarEvent(
                uid=f"pinleague-league{league.id}-night{night.id}@pinleague",
                starts=night_start(night, zone),
                ends=night_start(night, zone) + NIGHT_LENGTH,
                summary=f"{league.name}: {night_name}, week {night.week}",
                description=f"Week {night.week} of season {season.number} of {league.name}",
            )
            for night in planned
        ]
        content = icalendar_file(league.name, events, stamp=now)
        return ExportFile(f"{slug(league.name)}-nights.ics", content, len(events))

    return calendar_file
