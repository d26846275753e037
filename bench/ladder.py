"""The ladder format's league for benchmarks: 24 players, weeks played through the services as the
commissioner and players would from Discord, and tonight's night open with everyone checked in.

Command kinds: `/ladder score` (each player enters each of tonight's five games once), `/ladder standings`,
autocomplete of tonight's machines (`/ladder games pick game:`), and the board path on each group's board
(bench/board_path.py: Enter scores, the form, Confirm), beside the `/noop` baseline.
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
from storage.db import Database
from storage.ladder import LadderGroup, LadderNight, LadderPlayer, LadderScore
from storage.models import Player

NEW_YORK = ZoneInfo("America/New_York")
FIRST_NIGHT = date(2027, 3, 3)  # a Wednesday
MACHINES = ["Attack from Mars", "Medieval Madness", "Monster Bash", "The Addams Family", "Twilight Zone"]
GAMES = len(MACHINES)  # five working machines: every group plays all five (LADDER-GSEL-2)
LEAGUE = "Bench Ladder"
OPTION = f'league:"{LEAGUE}"'  # the guild also holds the team format's league


@dataclass(frozen=True)
class LadderLeagueSize:
    players: int = 24
    weeks_played: int = 4


@dataclass
class LadderLeague:
    db: Database
    players: list[str]  # emulator member names
    night_id: int
    now: datetime
    weeks_played: int

    async def clear_tonight(self) -> None:
        """Tonight's scores removed, so each player may enter each game afresh."""
        async with self.db.writing() as session:
            groups = select(LadderGroup.id).where(LadderGroup.night_id == self.night_id)
            await session.exec(delete(LadderScore).where(col(LadderScore.group_id).in_(groups)))

    async def groups(self, emulator: Emulator) -> list[TonightGroup]:
        """Tonight's groups: their players (emulator names, best rank first) and their games in play order."""
        name_of = {emulator.member(name).id: name for name in self.players}
        async with self.db.reading() as session:
            night = await session.get(LadderNight, self.night_id)
            assert night is not None
            machines = {m["id"]: m["name"] for m in night.machines}
            rows = select(LadderGroup).where(LadderGroup.night_id == self.night_id).order_by(col(LadderGroup.number))
            groups = list((await session.exec(rows)).all())
            users = select(LadderPlayer.id, Player.discord_user_id).join(
                Player, col(Player.id) == LadderPlayer.player_id
            )
            discord_of = {entry: user for entry, user in (await session.exec(users)).all()}
        return [
            TonightGroup(
                group.id or 0,
                group.number,
                [name_of[discord_of[entry]] for entry in group.members],
                [machines[m] for m in group.slots] if group.slots else list(machines.values()),
            )
            for group in groups
        ]


@dataclass(frozen=True)
class TonightGroup:
    group_id: int
    number: int
    players: list[str]  # emulator names, best rank first
    games: list[str]  # machine names, in play order


def _score(player: int, game: int, week: int) -> int:
    """Distinct within a group (no ties to break, LADDER-AMB-5), plausible against a 20M normalizer."""
    return 5_000_000 + 100_000 * ((player * 7 + game * 3 + week) % 24) + 1_000 * player + 10 * game


async def seed_ladder_league(db: Database, emulator: Emulator, size: LadderLeagueSize) -> LadderLeague:
    clock = ManualClock(datetime.combine(FIRST_NIGHT - timedelta(days=7), time(12), tzinfo=NEW_YORK))
    services = Services.build(db, clock, default_timezone="America/New_York")
    owner = actor(emulator, emulator.guild.owner.name, admin=True)
    league = await services.leagues.create(
        owner, name=LEAGUE, league_format="ladder", timezone="America/New_York",
        commissioner_role_id=emulator.role("Commissioner").id,
    )  # fmt: skip
    await services.venues.add_venue(owner, LEAGUE, name="The Break", address=None)
    for model in MACHINES:
        await services.venues.add_machine(
            owner, LEAGUE, venue_name="The Break", model=model, variant=None, max_players=4, balls=3
        )
        await services.ladder_nights.set_normalizer(owner, LEAGUE, machine=model, value="20,000,000")
    players = [f"lad{n:02d}" for n in range(1, size.players + 1)]
    for number, name in enumerate(players):
        emulator.add_member(name)
        skill = 10 - number * 9 // size.players  # LADDER-REG-2: self-estimated, 10 down to 2
        await services.ladder_players.join(actor(emulator, name), LEAGUE, skill=skill, member=None)
    for week in range(1, size.weeks_played + 2):
        night = FIRST_NIGHT + timedelta(weeks=week - 1)
        clock.set(datetime.combine(night, time(19, 5), tzinfo=NEW_YORK))
        await services.ladder_nights.open(owner, LEAGUE, play_on=night)
        for name in players:
            await services.ladder_players.checkin(actor(emulator, name), LEAGUE, member=None)
        clock.set(datetime.combine(night, time(19, 35), tzinfo=NEW_YORK))
        if week > size.weeks_played:
            break  # tonight: open, everyone checked in, no scores yet
        for number, name in enumerate(players):
            scores = " ".join(f"{_score(number, game, week):,}" for game in range(1, GAMES + 1))
            await services.ladder_play.score(actor(emulator, name), LEAGUE, game=1, score=scores, member=None)
        clock.set(datetime.combine(night, time(22, 30), tzinfo=NEW_YORK))
        await services.ladder_nights.close(owner, LEAGUE)
    async with db.reading() as session:
        latest = select(LadderNight.id).where(LadderNight.league_id == league.id).order_by(col(LadderNight.week).desc())
        night_id = (await session.exec(latest)).first()
    return LadderLeague(db, players, night_id or 0, clock.now(), size.weeks_played)


def ladder_workloads(league: LadderLeague, emulator: TimedEmulator) -> list[Workload]:
    async def noop(n: int) -> list[Call]:
        members = itertools.cycle(league.players)
        return [_run(emulator, "/noop", next(members)) for _ in range(n)]

    async def standings(n: int) -> list[Call]:
        members = itertools.cycle(league.players)
        return [_run(emulator, f"/ladder standings {OPTION}", next(members)) for _ in range(n)]

    async def autocomplete(n: int) -> list[Call]:
        members = itertools.cycle(league.players)

        def call(member: str) -> Call:
            line = f"/ladder games pick {OPTION} game:"
            return lambda: emulator.autocomplete_result(line, focused="game", as_member=member)

        return [call(next(members)) for _ in range(n)]

    async def score(n: int) -> list[Call]:
        """Game by game, every player enters their own score once."""
        await league.clear_tonight()
        week = league.weeks_played + 1
        return [
            _run(emulator, f"/ladder score game:{game} score:{_score(number, game, week):,} {OPTION}", name)
            for game in range(1, GAMES + 1)
            for number, name in enumerate(league.players)
        ][:n]

    entries = len(league.players) * GAMES
    return [
        Workload("no-op (/noop)", noop),
        Workload("/ladder standings", standings),
        Workload("autocomplete (/ladder games pick game)", autocomplete),
        Workload("/ladder score", score, limit=entries, note=f"each player's {GAMES} games tonight, {entries} entries"),
        *board_workloads(
            emulator,
            lambda: _boards(league, emulator),
            who="a player of the group enters everyone's scores in one form, another confirms (in turn)",
        ),
    ]


async def _boards(league: LadderLeague, emulator: TimedEmulator) -> list[Board]:
    """Tonight's scores cleared, then each group's games set again, as they were, by the commissioner
    (LADDER-AMB-15): the bot posts or edits every group's living board with all five games awaiting scores."""
    await league.clear_tonight()
    groups = await league.groups(emulator)
    for group in groups:
        line = f'/ladder games set group:{group.number} games:"{", ".join(group.games)}" {OPTION}'
        result = await emulator.run(line, as_member=emulator.guild.owner.name, timeout=30)
        answer = await emulator.answer_of(result)
        if answer.startswith("⛔"):
            raise RuntimeError(f"{line}: {answer}")
    return [
        Board(
            enter=f"ladder-enter:{g.group_id}:", menu=f"pick:ladder-enter:{g.group_id}",
            confirm=f"ladder-confirm:{g.group_id}:", games=len(g.games),
            entering=g.players, confirming=rotated(g.players),
        )
        for g in groups
    ]  # fmt: skip


def _run(emulator: TimedEmulator, line: str, member: str) -> Call:
    return lambda: emulator.run(line, as_member=member, timeout=30)
