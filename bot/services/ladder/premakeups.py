"""Premakeup games (LADDER-PMU-1..4, LADDER-PMU-8/9): declared before they are played, recorded with who
else played, ordered by the player until the first use."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.ladder.premakeup import Slot, players_without_premakeup, record_premakeup, set_order
from bot.rules.refusals import InvalidInput
from bot.rules.scores import parse_score
from bot.services import audit
from bot.services.actor import Actor
from bot.services.ladder.close import registry_of
from bot.services.ladder.facts import (
    Entrant,
    LadderLeague,
    check_active,
    entrant_of,
    entrants,
    ladder_league,
    machine_named,
    require_standing,
)
from bot.services.players import Member
from storage.db import Database
from storage.ladder import LadderPremakeup, LadderStatus
from storage.models import Machine


@dataclass(frozen=True)
class MachineLine:
    machine: str
    s1: int | None
    s2: int | None
    average: int | None
    order: list[str]  # the use order, set or default (LADDER-AMB-7)
    used: list[str]
    locked: bool
    declared_with: str | None


@dataclass(frozen=True)
class Registry:
    """LADDER-PMU-9: a player's premakeups and season totals."""

    player: str
    machines: list[MachineLine]
    uses: int
    cap: int
    missed_weeks: int
    owing: list[str]  # LADDER-PMU-8: players without a premakeup on the machine asked about


class LadderPremakeupService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def declare(self, actor: Actor, league_name: str | None, *, machine: str, with_players: str) -> str:
        """LADDER-PMU-1: declared before it is played, with at least one other player named."""
        others = with_players.strip()
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder, _me, found, row = await _mine(session, actor, league_name, machine, self.clock.now())
            record_premakeup(
                registry_of(row, found.title),
                0,
                declared=True,
                other_players=[others] if others else [],
                options=ladder.options,
            )  # the checks a recording would meet, before anyone plays
            before = audit.snapshot(row) if row.id else None
            row.declared_with = others[:200]
            await _save(session, actor, row, before, now)
            return found.title

    async def record(self, actor: Actor, league_name: str | None, *, machine: str, score: str) -> tuple[str, int, str]:
        """LADDER-PMU-1/2/4: the declared game's score becomes S1 or S2."""
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder, me, found, row = await _mine(session, actor, league_name, machine, self.clock.now())
            value = parse_score(score, field=f"Premakeup score on {found.title}", rules=ladder.options.score_input)
            await require_standing(session, ladder, [me], now, doing="record a premakeup")
            declared = row.declared_with is not None
            with_players = [row.declared_with] if row.declared_with else []
            after = record_premakeup(
                registry_of(row, found.title),
                value,
                declared=declared,
                other_players=with_players,
                options=ladder.options,
            )
            before = audit.snapshot(row) if row.id else None
            which = "S1" if row.s1 is None else "S2"
            if which == "S1":
                row.s1, row.s1_with = after.s1, row.declared_with
            else:
                row.s2, row.s2_with = after.s2, row.declared_with
            row.declared_with = None
            await _save(session, actor, row, before, now)
            return found.title, value, which

    async def order(self, actor: Actor, league_name: str | None, *, machine: str, order: str) -> list[str]:
        """LADDER-PMU-3, LADDER-AMB-32: the order of S1, S2 and AVG, until the first use locks it."""
        names = [part.strip().upper() for part in order.replace(" ", ",").split(",") if part.strip()]
        if any(name not in Slot.__members__ for name in names):
            raise InvalidInput("Write the order as S1, S2 and AVG separated by commas, e.g. S2,AVG,S1.")
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder, me, found, row = await _mine(session, actor, league_name, machine, self.clock.now())
            after = set_order(
                registry_of(row, found.title),
                [Slot(name) for name in names],
                any_use_this_season=me.entry.premakeup_uses > 0,
                options=ladder.options,
            )
            before = audit.snapshot(row) if row.id else None
            row.order = [slot.value for slot in after.order or ()]
            await _save(session, actor, row, before, now)
            return row.order

    async def show(
        self, actor: Actor, league_name: str | None, *, member: Member | None, machine: str | None
    ) -> Registry:
        async with self.db.reading() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            everyone = await entrants(session, ladder)
            who = "You" if member is None or member.user_id == actor.user_id else member.display_name
            player = entrant_of(everyone, member.user_id if member else actor.user_id, who=who)
            rows = (
                await session.exec(select(LadderPremakeup).where(LadderPremakeup.ladder_player_id == player.id))
            ).all()
            machines = {
                m.id: m
                for m in (await session.exec(select(Machine).where(Machine.league_id == ladder.league_id))).all()
            }
            lines = []
            for row in sorted(rows, key=lambda r: machines[r.machine_id].title):
                registry = registry_of(row, machines[row.machine_id].title)
                order = list(registry.order or sorted(Slot, key=lambda s: -registry.value(s, ladder.options)))
                lines.append(
                    MachineLine(
                        machines[row.machine_id].title,
                        row.s1,
                        row.s2,
                        registry.average(ladder.options) if row.s1 is not None else None,
                        [slot.value for slot in order],
                        list(row.used),
                        row.locked,
                        row.declared_with,
                    )
                )
            owing = []
            if machine:
                found = await machine_named(session, ladder, machine)
                owing = await _owing(session, ladder, everyone, found)
            return Registry(
                player.name,
                lines,
                player.entry.premakeup_uses,
                ladder.options.pmu_season_cap,
                player.entry.missed_weeks,
                owing,
            )


async def _mine(
    session: AsyncSession, actor: Actor, league_name: str | None, machine: str, now: datetime
) -> tuple[LadderLeague, Entrant, Machine, LadderPremakeup]:
    ladder = await ladder_league(session, actor.guild_id, league_name, now)
    me = entrant_of(await entrants(session, ladder), actor.user_id)
    check_active(me)
    found = await machine_named(session, ladder, machine)
    row = (
        await session.exec(
            select(LadderPremakeup).where(
                LadderPremakeup.ladder_player_id == me.id, LadderPremakeup.machine_id == found.id
            )
        )
    ).first()
    return ladder, me, found, row or LadderPremakeup(ladder_player_id=me.id, machine_id=found.id or 0)


async def _save(
    session: AsyncSession, actor: Actor, row: LadderPremakeup, before: dict[str, Any] | None, now: datetime
) -> None:
    session.add(row)
    await session.flush()
    if before is None:
        audit.created(session, actor, row, at=now)
    else:
        audit.updated(session, actor, row, before=before, at=now)


async def _owing(
    session: AsyncSession, ladder: LadderLeague, everyone: dict[int, Entrant], machine: Machine
) -> list[str]:
    """LADDER-PMU-8: active players who still owe a premakeup on the machine."""
    rows = (await session.exec(select(LadderPremakeup).where(LadderPremakeup.machine_id == machine.id))).all()
    registries = {row.ladder_player_id: {machine.title: registry_of(row, machine.title)} for row in rows}
    active = [i for i, e in everyone.items() if e.entry.status is LadderStatus.ACTIVE]
    return [everyone[i].name for i in players_without_premakeup(machine.title, active, registries)]
