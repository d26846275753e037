"""The format registry: what each league format hands to common code, so common code asks instead of branching.

A format is a set of packages (`bot/rules/<name>/`, `bot/services/<name>/`, `bot/render/<name>/`, `cogs/<name>/`)
and one registration, `bot/render/<name>/format.py`, which defines `FORMAT`: it sits at the top of the format's
stack below the cogs, so it can name the format's rules, services and renderers alike. Registrations are loaded
on first use, by name, from `INSTALLED`: this module imports none of them, so every layer may ask it without an
import circle. A fourth format means its packages, its registration, one line in `INSTALLED` and its value in
`storage.models.LeagueFormat`.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from datetime import date, datetime, time

    import discord
    from sqlmodel.ext.asyncio.session import AsyncSession

    from bot.clock import Clock
    from bot.exchange.files import ExportFile, StandingsExport
    from bot.rules.discipline import LedgerRules
    from bot.rules.notices import NoticeKind
    from bot.rules.posts import Calendar, PlannedPost, RollCallAnswer
    from bot.rules.scores import ScoreInputOptions
    from bot.rules.seasons import Carried, SeasonProgress
    from bot.services.actor import Actor
    from bot.services.help import Asker, Role, Situation
    from storage.db import Database
    from storage.models import League, Season

INSTALLED = ("bot.render.team.format", "bot.render.ladder.format", "bot.render.field.format")

StandingsFiles = Callable[["Database", "Clock", "Actor", Any], Awaitable["StandingsExport"]]
Content = TypeVar("Content")  # what a post shows (`bot.services.post_content.PostContent`)
Message = TypeVar("Message")  # the message sent for it (`bot.render.posts.Outgoing`)


class StandingsReader(Protocol):
    """A league's standings in the format's own shape; `conference` is given only where the format has teams;
    `season` is a season's number (the current season when None). `what_if`: options to compute the table under
    instead of the league's own, for the caller alone."""

    async def __call__(
        self,
        actor: Actor,
        league_name: str,
        *,
        conference: str | None,
        season: int | None,
        what_if: Mapping[str, Any] | None,
    ) -> Any: ...


class ScheduleReader(Protocol):
    """`/schedule show`: the season's schedule in the format's own shape; `team_name` and `week` narrow it."""

    async def __call__(self, actor: Actor, league_name: str, *, team_name: str | None, week: int | None) -> Any: ...


class CalendarFile(Protocol):
    """`/schedule ics`: the league's events ahead as an iCalendar file, or a refusal saying why there are none."""

    async def __call__(
        self, session: AsyncSession, league: League, *, now: datetime, team_name: str | None, member_id: int | None
    ) -> ExportFile: ...


class SeasonStandings(Protocol):
    async def __call__(
        self, actor: Actor, league_name: str, *, season: int | None, what_if: Mapping[str, Any] | None
    ) -> Any: ...


class SeasonProgressReader(Protocol):
    """COMMON-SEASON-1/2: the counts of a season's regular season and post-season its stage is derived from."""

    async def __call__(
        self, session: AsyncSession, league: League, season: Season, now: datetime
    ) -> SeasonProgress: ...


class SeasonCarrier(Protocol):
    """`/season new`: puts into `new` what the format takes over from `last` (teams and rosters, players), and
    says how many of each it carried and what to do next."""

    async def __call__(
        self, session: AsyncSession, league: League, last: Season, new: Season, now: datetime
    ) -> Carried: ...


def without_conferences(read: SeasonStandings) -> StandingsReader:
    """The standings reader of a format without teams: common code refuses a `conference` before asking it."""

    async def reader(
        actor: Actor,
        league_name: str,
        *,
        conference: str | None,
        season: int | None,
        what_if: Mapping[str, Any] | None,
    ) -> Any:
        return await read(actor, league_name, season=season, what_if=what_if)

    return reader


class LastPlayed(Protocol):
    """COMMON-LEAGUE-2: the latest day a week of the league was played (any season), before the weeks still to
    play on `today` or later; None when none was. A change of options takes effect from the day after."""

    async def __call__(self, session: AsyncSession, league: League, today: date) -> date | None: ...


@dataclass(frozen=True)
class StandingsReaders:
    """One service set's readers of the format's standings and of a season's progress (COMMON-SEASON-1/2), built
    together so that a `/standings` asking both computes the season's results once."""

    table: StandingsReader
    progress: SeasonProgressReader


@dataclass(frozen=True)
class Posts(Generic[Content, Message]):
    """The format's scheduled posts: the calendar `bot.rules.posts` plans them from, each post's content, and the
    renderer of each kind the format posts (its kinds name the format in `PostKind.formats`). Generic, so that a
    registration's content and renderers are checked against each other without this module naming the layers
    above it."""

    calendar: Callable[[AsyncSession, League, datetime], Awaitable[Calendar]]
    content: Callable[[AsyncSession, League, PlannedPost, datetime], Awaitable[Content]]
    renderers: Mapping[str, Callable[[Content], Message]]


class SituationReader(Protocol):
    """`/help`: the member's part in the league and what is due for them now, from the format's own facts."""

    async def __call__(self, session: AsyncSession, league: League, asker: Asker, now: datetime) -> Situation: ...


@dataclass(frozen=True)
class Guide:
    """`/help` for the format: what a night looks like to a newcomer, the commands each part in the league uses
    most (each line names the command, then what it does), and the reader of what is due for a member."""

    night: str
    commands: Mapping[Role, tuple[str, ...]]
    situation: SituationReader


class NightPlayers(Protocol):
    """Who answers a night's roll call: the season's players, player id → name, in the order the post lists them."""

    async def __call__(self, session: AsyncSession, league: League, season: Season) -> dict[int, str]: ...


class NightAnswered(Protocol):
    """What the format makes of a player's roll-call answer beyond storing it, e.g. the ladder's absence notice
    (LADDER-ATT-4); returns a sentence for the player's reply, or None."""

    async def __call__(
        self, session: AsyncSession, actor: Actor, league: League, answer: RollCallAnswer, now: datetime
    ) -> str | None: ...


@dataclass(frozen=True)
class NightRollCall:
    """A format whose planned nights have a roll call: its night-day post carries the In / Maybe / Out buttons."""

    post_kind: str  # the night-day post (`bot.rules.nights.plan_each_night_day`) that lists the answers
    players: NightPlayers
    answered: NightAnswered
    join: str  # how a member becomes one of the players, for the refusal of anyone else


@dataclass(frozen=True)
class Format:
    """Everything common code may ask of a format; the views its standings hooks pass along are its own."""

    name: str  # the league's `format` value
    choice: str  # how `/league create` offers it
    options: type[ScoreInputOptions]  # the schema of `league.options`, checked when a league file is imported
    zone_required: bool  # COMMON-AMB-1: the rule sheet names no place, so the league must give its time zone
    teams: bool  # teams play: rosters, conferences, a team as the subject of a warning (COMMON-DISC-1)
    ledger: LedgerRules  # which rules discipline entries cite, and what the format adds (TEAM-DISC-2/3)
    notices: tuple[NoticeKind, ...]  # its notable audit actions (COMMON-NOTIFY-1), registered with bot.rules.notices
    tables: tuple[str, ...]  # the storage modules of the format's own tables: its section of the league file
    standings: Callable[[Database, Clock], StandingsReaders]  # one pair per service set (it keeps its cache)
    what_ifs: Mapping[str, Mapping[str, Any]]  # `/standings what-if:` suggestions: label → the options changed
    standings_embed: Callable[[Any], discord.Embed]  # the reader's view as `/standings` shows it
    standings_files: StandingsFiles  # `/standings export`: the table as CSV, and IFPA results where there are
    calendar_file: CalendarFile
    schedule: Callable[[Database, Clock], ScheduleReader]  # `/schedule show`: one reader per service set
    schedule_embed: Callable[[Any], discord.Embed]  # the reader's view as `/schedule show` shows it
    last_played: LastPlayed
    carry_season: SeasonCarrier
    posts: Posts[Any, Any]
    guide: Guide
    # `/schedule nights` (COMMON-SEASON-1): a night's default local start; None where the format schedules its
    # season otherwise (the team's `/schedule generate`)
    night_start: Callable[[League], time] | None = None
    night_roll_call: NightRollCall | None = None  # where planned nights have a roll call
    # `/season postseason` (COMMON-SEASON-2): checks the date against the weekday it was announced with, where the
    # format's sheet states one (FIELD-FIN-9); None where the format checks nothing more
    check_postseason_date: Callable[[date, str | None], None] | None = None


@cache
def _registered() -> dict[str, Format]:
    formats = (importlib.import_module(module).FORMAT for module in INSTALLED)
    return {fmt.name: fmt for fmt in formats}


def registered() -> list[Format]:
    return list(_registered().values())


def names() -> list[str]:
    return list(_registered())


def named(name: str) -> Format:
    return _registered()[name]


def of(league: League) -> Format:
    return named(league.format)
