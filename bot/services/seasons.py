"""A league's seasons: where each stands (derived from its facts by `bot.rules.seasons`), starting the next one
(`/season new`, each format carrying what it keeps) and the earlier seasons people may still browse."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlmodel.ext.asyncio.session import AsyncSession

from bot import formats
from bot.clock import Clock
from bot.formats import SeasonProgressReader
from bot.rules.refusals import InvalidInput, NotFound
from bot.rules.seasons import Carried, SeasonProgress, SeasonStage, check_next_season, season_stage, stage_label
from bot.rules.setup import parse_date
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import current_season, find_league, insert_unique, league_seasons
from bot.services.permissions import require_commissioner
from storage.db import Database
from storage.models import League, Season


@dataclass(frozen=True)
class SeasonShown:
    season: Season
    stage: SeasonStage
    label: str  # "Season 2 (playoffs)"
    progress: SeasonProgress


@dataclass(frozen=True)
class NextSeason:
    league: League
    last: SeasonShown
    season: Season
    carried: Carried


class SeasonStages:
    """Where a season stands, read through each format's progress reader (`formats.StandingsReaders`)."""

    def __init__(self, readers: Mapping[str, SeasonProgressReader]) -> None:
        self.readers = readers

    @classmethod
    def of(cls, db: Database, clock: Clock) -> SeasonStages:
        return cls({fmt.name: fmt.standings(db, clock).progress for fmt in formats.registered()})

    async def shown(self, session: AsyncSession, league: League, season: Season, now: datetime) -> SeasonShown:
        progress = await self.readers[formats.of(league).name](session, league, season, now)
        stage = season_stage(progress)
        return SeasonShown(season, stage, f"{season.name} ({stage_label(stage, progress)})", progress)


class SeasonService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.stages = SeasonStages.of(db, clock)

    async def start_next(self, actor: Actor, league_name: str | None, *, override: bool) -> NextSeason:
        """COMMON-SEASON-1: season N+1 from season N, once N is complete (or the commissioner overrides)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "start the next season")
            last = await current_season(session, league)
            shown = await self.stages.shown(session, league, last, now)
            check_next_season(shown.stage, shown=shown.label, override=override)
            assert league.id is not None
            number = last.number + 1
            season = await insert_unique(
                session,
                Season(league_id=league.id, number=number, name=f"Season {number}"),
                f"Season {number} of {league.name} has just been started by someone else; see `/league show`.",
            )
            audit.created(session, actor, season, at=now, reason=f"next season after {shown.label}")
            carried = await formats.of(league).carry_season(session, league, last, season, now)
        return NextSeason(league, shown, season, carried)

    async def set_postseason(
        self, actor: Actor, league_name: str | None, *, day: str, weekday: str | None = None
    ) -> SeasonShown:
        """COMMON-SEASON-2: the current season's post-season starts on `day` (today or later); audited. `weekday`:
        the day of the week it was announced for, checked against the date where the format asks (FIELD-FIN-9)."""
        first_day = parse_date(day, option="date")
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "date the post-season")
            today = now.astimezone(ZoneInfo(league.timezone)).date()
            if first_day < today:
                raise InvalidInput(
                    f"`date` {first_day:%Y-%m-%d} is in the past; the earliest is today, {today:%a %Y-%m-%d}."
                )
            check = formats.of(league).check_postseason_date
            if check is not None:
                check(first_day, weekday)
            elif weekday is not None:
                raise InvalidInput(f"`weekday` is not checked in a {league.format} league: leave it out.")
            season = await current_season(session, league)
            before = audit.snapshot(season)
            season.postseason_on = first_day
            session.add(season)
            audit.updated(session, actor, season, before=before, at=now, reason="post-season date")
            return await self.stages.shown(session, league, season, now)

    async def choices(self, guild_id: int, league_name: str | None) -> list[SeasonShown]:
        """Every season of the league with its stage, latest first, for the `season:` autocomplete."""
        now = self.clock.now()
        async with self.db.reading() as session:
            try:
                league = await find_league(session, guild_id, league_name)
            except (NotFound, InvalidInput):
                return []
            seasons = await league_seasons(session, league)
            return [await self.stages.shown(session, league, season, now) for season in reversed(seasons)]
