"""The field format's league for benchmarks: 60 players, weeks played through the services as officials and
players would from Discord, and tonight's night open with everyone checked in and put in groups.

Command kinds: `/field score` (each player enters their own score on each of tonight's five machines once),
`/field standings`, autocomplete of tonight's machines (`/field score machine:`), and the board path on each
group's board (bench/board_path.py: Enter scores, the form, Confirm), beside `/noop`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import delete
from sqlmodel import col, select

from bench.board_path import Board, board_workloads, rotated
from bench.load import Call, TimedEmulator, Workload
from bench.team import actor
from bot.clock import ManualClock
from bot.local.emulator import Emulator
from bot.services import Services
from bot.services.players import Member
from storage.db import Database
from storage.field import FieldCheckin, FieldNight, FieldScore
from storage.models import Machine, Player

NEW_YORK = ZoneInfo("America/New_York")
FIRST_NIGHT = date(2027, 3, 2)  # a Tuesday
MACHINES = ["Attack from Mars", "Black Knight", "Cirqus Voltaire", "Demolition Man", "Elvira", "Funhouse"]
LEAGUE = "Bench Field"
OPTION = f'league:"{LEAGUE}"'  # the guild also holds the other formats' leagues


@dataclass(frozen=True)
class FieldLeagueSize:
    players: int = 60
    weeks_played: int = 4


@dataclass
class FieldLeague:
    db: Database
    players: list[str]  # emulator member names
    machines: list[int]  # tonight's five
    night_id: int
    now: datetime
    weeks_played: int

    async def clear_tonight(self) -> None:
        """Tonight's scores removed, so each player may enter each machine afresh (FIELD-SCORE-1)."""
        async with self.db.writing() as session:
            await session.exec(delete(FieldScore).where(col(FieldScore.night_id) == self.night_id))


def _score(player: int, machine: int, week: int) -> int:
    """Distinct on each machine, so no one-ball playoffs are owed (FIELD-SCORE-3)."""
    return 1_000_000 + 10_000 * ((player * 13 + machine * 5 + week) % 60) + 10 * player


async def seed_field_league(db: Database, emulator: Emulator, size: FieldLeagueSize) -> FieldLeague:
    clock = ManualClock(datetime.combine(FIRST_NIGHT - timedelta(days=7), time(12), tzinfo=NEW_YORK))
    services = Services.build(db, clock, default_timezone="America/New_York")
    owner = actor(emulator, emulator.guild.owner.name, admin=True)
    league = await services.leagues.create(
        owner, name=LEAGUE, league_format="field", timezone="America/New_York",
        commissioner_role_id=emulator.role("Commissioner").id,
    )  # fmt: skip
    await services.venues.add_venue(owner, LEAGUE, name="MSA", address=None)
    for model in MACHINES:
        await services.venues.add_machine(
            owner, LEAGUE, venue_name="MSA", model=model, variant=None, max_players=4, balls=3
        )
    async with db.reading() as session:
        rows = await session.exec(select(Machine.id).where(Machine.league_id == league.id))
        ids = sorted(m or 0 for m in rows.all())
    players = [f"fld{n:02d}" for n in range(1, size.players + 1)]
    for name in players:
        member = emulator.add_member(name)
        await services.players.register(
            owner, LEAGUE, member=Member(member.id, name, False), ifpa_number=None, ifpa_rank=None
        )
    tonight: list[int] = []
    for week in range(1, size.weeks_played + 2):
        night = FIRST_NIGHT + timedelta(weeks=week - 1)
        clock.set(datetime.combine(night, time(19, 0), tzinfo=NEW_YORK))
        tonight = ids[-5:] if week % 2 else ids[:5]
        await services.field_nights.open_night(owner, LEAGUE, machine_ids=tonight, play_on=night)
        for name in players:
            await services.field_nights.check_in(actor(emulator, name), LEAGUE, None)
        grouped = await services.field_nights.make_groups(owner, LEAGUE)
        clock.set(datetime.combine(night, time(20, 0), tzinfo=NEW_YORK))
        if week > size.weeks_played:
            break  # tonight: open, everyone in a group, no scores yet
        names = grouped.season.names
        number_of = {name: number for number, name in enumerate(players)}
        for machine_index, machine in enumerate(tonight):  # an official enters each group's game (FIELD-SCORE-1)
            for group in grouped.result.facts.groups():
                entries = [
                    (emulator.member(name).id, f"{_score(number_of[name], machine_index, week):,}")
                    for name in (names[player] for player in group)
                ]
                await services.field_nights.enter_scores(owner, LEAGUE, machine_id=machine, entries=entries)
        clock.set(datetime.combine(night, time(22, 30), tzinfo=NEW_YORK))
        await services.field_nights.close_night(owner, LEAGUE)
    async with db.reading() as session:
        latest = select(FieldNight.id).where(FieldNight.league_id == league.id).order_by(col(FieldNight.week).desc())
        night_id = (await session.exec(latest)).first()
    return FieldLeague(db, players, tonight, night_id or 0, clock.now(), size.weeks_played)


def field_workloads(league: FieldLeague, emulator: TimedEmulator) -> list[Workload]:
    async def noop(n: int) -> list[Call]:
        members = itertools.cycle(league.players)
        return [_run(emulator, "/noop", next(members)) for _ in range(n)]

    async def standings(n: int) -> list[Call]:
        members = itertools.cycle(league.players)
        return [_run(emulator, f"/field standings {OPTION}", next(members)) for _ in range(n)]

    async def autocomplete(n: int) -> list[Call]:
        members = itertools.cycle(league.players)

        def call(member: str) -> Call:
            line = f"/field score {OPTION} score:1 machine:"
            return lambda: emulator.autocomplete_result(line, focused="machine", as_member=member)

        return [call(next(members)) for _ in range(n)]

    async def score(n: int) -> list[Call]:
        """Machine by machine, every player enters their own score once."""
        await league.clear_tonight()
        week = league.weeks_played + 1
        return [
            _run(emulator, f"/field score machine:{machine} score:{_score(number, m, week):,} {OPTION}", name)
            for m, machine in enumerate(league.machines)
            for number, name in enumerate(league.players)
        ][:n]

    entries = len(league.players) * len(league.machines)
    return [
        Workload("no-op (/noop)", noop),
        Workload("/field standings", standings),
        Workload("autocomplete (/field score machine)", autocomplete),
        Workload("/field score", score, limit=entries, note=f"each player on each of tonight's machines: {entries}"),
        *board_workloads(
            emulator,
            lambda: _boards(league, emulator),
            who="a player of the group enters everyone's scores on a machine in one form, another confirms (in turn)",
        ),
    ]


async def _boards(league: FieldLeague, emulator: TimedEmulator) -> list[Board]:
    """Tonight's scores cleared, then the groups made again by an official (FIELD-GROUP-2: allowed before play),
    which has the bot post or edit every group's living board with all five machines awaiting scores."""
    await league.clear_tonight()
    result = await emulator.run(f"/field groups {OPTION}", as_member=emulator.guild.owner.name, timeout=30)
    answer = await emulator.answer_of(result)
    if answer.startswith("⛔"):
        raise RuntimeError(f"/field groups: {answer}")
    name_of = {emulator.member(name).id: name for name in league.players}
    async with league.db.reading() as session:
        rows = (
            select(FieldCheckin.group_number, Player.discord_user_id)
            .join(Player, col(Player.id) == FieldCheckin.player_id)
            .where(FieldCheckin.night_id == league.night_id, col(FieldCheckin.group_number).is_not(None))
            .order_by(col(FieldCheckin.group_number), col(FieldCheckin.id))
        )
        groups: dict[int, list[str]] = {}
        for number, user in (await session.exec(rows)).all():
            groups.setdefault(number or 0, []).append(name_of[user])
    night = league.night_id
    return [
        Board(
            enter=f"field-enter:{night}:{number}:", menu=f"pick:field-enter:{night}:{number}",
            confirm=f"field-confirm:{night}:{number}:", games=len(league.machines),
            entering=players, confirming=rotated(players),
        )
        for number, players in groups.items()
    ]  # fmt: skip


def _run(emulator: TimedEmulator, line: str, member: str) -> Call:
    return lambda: emulator.run(line, as_member=member, timeout=30)
