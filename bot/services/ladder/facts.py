"""Reading a ladder league's facts: the league and its options, players by Discord id, the open night,
and the standings rank every ladder rule orders players by (LADDER-ORDER-3)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from fractions import Fraction
from zoneinfo import ZoneInfo

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.ladder.games import Standing, league_ranks
from bot.rules.ladder.groups import NightPresence
from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.standings import WeekRecord, season_totals
from bot.rules.refusals import InvalidInput, NotFound, RuleViolation
from bot.services.discipline import players_barred, require_in_good_standing
from bot.services.league_options import options_ahead, options_on
from bot.services.lookup import find_league, find_season
from storage.ladder import LadderGroup, LadderNight, LadderPlayer, LadderResult, LadderStatus
from storage.models import League, LeagueFormat, Machine, Player, Season


@dataclass(frozen=True)
class LadderLeague:
    league: League
    season: Season
    options: LadderOptions

    @property
    def league_id(self) -> int:
        assert self.league.id is not None
        return self.league.id

    @property
    def season_id(self) -> int:
        assert self.season.id is not None
        return self.season.id

    def on(self, day: date) -> LadderLeague:
        """The league under the options in effect on `day`: what a night played then is scored under
        (COMMON-LEAGUE-2; `options` are those of what is still to play)."""
        return replace(self, options=LadderOptions.model_validate(options_on(self.league, day)))


async def ladder_league(
    session: AsyncSession, guild_id: int, name: str | None, now: datetime, *, season: int | None = None
) -> LadderLeague:
    """The league with the options of what is still to play (`league_options.options_ahead`); `season` picks an
    earlier season by number."""
    league = await find_league(session, guild_id, name)
    if league.format is not LeagueFormat.LADDER:
        raise InvalidInput(
            f"{league.name} is a {league.format.value} league; `/ladder` commands run ladder leagues. "
            "Pick a ladder league with `league:`."
        )
    return await ladder_league_of(session, league, now, season=season)


async def ladder_league_of(
    session: AsyncSession, league: League, now: datetime, *, season: int | None = None
) -> LadderLeague:
    """`ladder_league` for a league already read: its season (the current one when None), with the options of what
    is still to play."""
    chosen = await find_season(session, league, season)
    return LadderLeague(league, chosen, LadderOptions.model_validate(await options_ahead(session, league, now)))


@dataclass(frozen=True)
class Entrant:
    """A season entry with the player's name."""

    entry: LadderPlayer
    name: str
    discord_user_id: int

    @property
    def id(self) -> int:
        assert self.entry.id is not None
        return self.entry.id


async def entrants(session: AsyncSession, ladder: LadderLeague) -> dict[int, Entrant]:
    """Every season entry, active or dropped, by ladder_player id."""
    rows = (
        await session.exec(
            select(LadderPlayer, Player)
            .where(LadderPlayer.season_id == ladder.season_id, LadderPlayer.player_id == Player.id)
            .order_by(col(LadderPlayer.id))
        )
    ).all()
    return {entry.id: Entrant(entry, player.display_name, player.discord_user_id) for entry, player in rows if entry.id}


def entrant_of(everyone: dict[int, Entrant], discord_user_id: int, *, who: str = "You") -> Entrant:
    for entrant in everyone.values():
        if entrant.discord_user_id == discord_user_id:
            return entrant
    verb = "have" if who == "You" else "has"
    raise NotFound(f"{who} {verb} not joined this season's ladder. Join with `/ladder join skill:<1-10>`.")


async def require_standing(
    session: AsyncSession, ladder: LadderLeague, players: Sequence[Entrant], now: datetime, *, doing: str
) -> None:
    """COMMON-PLAYER-2: refuse a suspended or expelled player, naming the ruling, on the league's local day."""
    today = now.astimezone(ZoneInfo(ladder.league.timezone)).date()
    await require_in_good_standing(session, ladder.league, [e.entry.player_id for e in players], on=today, doing=doing)


async def barred_entrants(
    session: AsyncSession, ladder: LadderLeague, everyone: dict[int, Entrant], *, on: date
) -> set[int]:
    """COMMON-PLAYER-2: the season entries (ladder_player ids) whose player is suspended or expelled on `on`."""
    out = await players_barred(session, ladder.league, [e.entry.player_id for e in everyone.values()], on=on)
    return {i for i, e in everyone.items() if e.entry.player_id in out}


def check_active(entrant: Entrant) -> None:
    if entrant.entry.status is LadderStatus.DROPPED:
        raise RuleViolation(
            "LADDER-ATT-5", f"{entrant.name} was dropped for the season after a third No-Show and cannot play."
        )


async def nights(session: AsyncSession, ladder: LadderLeague) -> list[LadderNight]:
    query = select(LadderNight).where(LadderNight.season_id == ladder.season_id).order_by(col(LadderNight.week))
    return list((await session.exec(query)).all())


async def open_night(session: AsyncSession, ladder: LadderLeague) -> LadderNight:
    season_nights = await nights(session, ladder)
    if not season_nights or season_nights[-1].closed_at is not None:
        raise RuleViolation(
            "LADDER-GSEL-1", "No league night is open. A commissioner opens one with `/ladder night open`."
        )
    return season_nights[-1]


async def night_groups(session: AsyncSession, night: LadderNight) -> list[LadderGroup]:
    query = select(LadderGroup).where(LadderGroup.night_id == night.id).order_by(col(LadderGroup.id))
    return list((await session.exec(query)).all())


def group_of(groups: Sequence[LadderGroup], ladder_player_id: int) -> LadderGroup:
    for group in groups:
        if ladder_player_id in group.members:
            return group
    raise NotFound("That player is in no group tonight: they joined after the groups were posted.")


async def week_records(session: AsyncSession, ladder: LadderLeague) -> dict[int, list[WeekRecord]]:
    """Every closed week's TLP and TNS per ladder_player id (LADDER-BONUS-4, LADDER-NORM-2/3)."""
    rows = (
        await session.exec(
            select(LadderResult, LadderNight.week)
            .where(LadderResult.night_id == LadderNight.id, LadderNight.season_id == ladder.season_id)
            .order_by(col(LadderNight.week))
        )
    ).all()
    records: dict[int, list[WeekRecord]] = defaultdict(list)
    for result, week in rows:
        tns = Fraction(result.tns) if result.presence is not NightPresence.ABSENT else None  # LADDER-AMB-25
        records[result.ladder_player_id].append(WeekRecord(week, result.game_points + result.bonus, tns))
    return records


def ranks(everyone: dict[int, Entrant], records: dict[int, list[WeekRecord]]) -> dict[int, int]:
    """LADDER-ORDER-3, LADDER-AMB-16: the active players by TLP, then ANS; before any result, skill, then
    joining order. Dropped players hold no rank (LADDER-ATT-6)."""
    standings = []
    for order, (entry_id, entrant) in enumerate(everyone.items()):
        if entrant.entry.status is not LadderStatus.ACTIVE:
            continue
        tlp, average = season_totals(records.get(entry_id, []))
        standings.append(Standing(entry_id, tlp, average, entrant.entry.skill, order, entrant.entry.seed))
    return league_ranks(standings)


async def machine_named(session: AsyncSession, ladder: LadderLeague, name: str) -> Machine:
    key = name.strip().casefold()
    machines = (
        await session.exec(
            select(Machine).where(Machine.league_id == ladder.league.id, Machine.removed_at == None)  # noqa: E711
        )
    ).all()
    for machine in machines:
        if machine.title.casefold() == key or machine.model_name.casefold() == key:
            return machine
    known = ", ".join(sorted(m.title for m in machines)) or "none yet: add one with `/machine add`"
    raise NotFound(f"{ladder.league.name} has no machine named {name.strip()!r}. Machines: {known}.")


def local_time(moment: datetime, zone: str) -> datetime:
    """A stored UTC moment as naive local league time, for the rules' deadlines (COMMON-AMB-1)."""
    return moment.astimezone(ZoneInfo(zone)).replace(tzinfo=None)
