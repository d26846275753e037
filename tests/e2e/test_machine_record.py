"""COMMON-MACH-2: the physical machine record keeps its capacity, its balls and a status with the time it changed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import col, select

from bot.clock import ManualClock
from bot.rules.setup import MachineStatus
from storage.db import Database
from storage.models import Machine
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.test_setup_commands import CREATE

IN_SERVICE = {MachineStatus.WORKING, MachineStatus.KNOWN_ISSUE_ANNOUNCED}


async def stored(league: RunningBot) -> Machine:
    async with league.db.reading() as session:
        return (await session.exec(select(Machine))).one()


async def test_each_status_is_stored_with_its_time_and_audited_common_mach_2(db: Database) -> None:
    """COMMON-MACH-2: `/machine add` keeps players and balls; every status change is stored with the league clock's
    time of the change and audited before and after; only working and known-issue machines are in service."""
    async with running_bot(db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(datetime(2027, 3, 1, 18, 0, tzinfo=UTC))
        await league.run(CREATE, as_member="owner")
        await league.run('/venue add name:"Ace Arcade"', as_member="alice")
        add = '/machine add venue:"Ace Arcade" model:"Medieval Madness" players:2 balls:5'
        await league.run(add, as_member="alice")
        machine = await stored(league)
        assert (machine.max_players, machine.balls_per_game, machine.status) == (2, 5, MachineStatus.WORKING)
        for step, status in enumerate(
            [s for s in MachineStatus if s is not MachineStatus.WORKING] + [MachineStatus.WORKING], start=1
        ):
            moment = datetime(2027, 3, 1, 18, 0, tzinfo=UTC) + timedelta(minutes=10 * step)
            clock.set(moment)
            reply = await league.run(f"/machine status machine:{machine.id} status:{status.value}", as_member="alice")
            state = "in service" if status in IN_SERVICE else "out of service"
            assert f"is now {status.value.replace('_', ' ')} ({state})" in reply.content, reply.content
            record = await stored(league)
            assert (record.status, record.status_changed_at.replace(tzinfo=UTC)) == (status, moment)
            change = (await league.audit())[-1]
            assert change.before is not None and change.after is not None
            assert change.after["status"] == status.value != change.before["status"]


async def test_common_tv_2_variants_share_a_family_only_as_the_commissioner_enters_them(db: Database) -> None:
    async with running_bot(db) as league:
        await league.run(CREATE, as_member="owner")
        await league.run('/venue add name:"Ace Arcade"', as_member="alice")
        for model in ('"Godzilla" variant:Premium', '"Godzilla" variant:Pro', '"Medieval Madness (Remake)"'):
            await league.run(f'/machine add venue:"Ace Arcade" model:{model}', as_member="alice")
        async with league.db.reading() as session:
            machines = (await session.exec(select(Machine).order_by(col(Machine.id)))).all()
    rows = [(m.family, m.variant) for m in machines]
    # COMMON-TV-2: Premium and Pro are variants of one family; "(Remake)" in a title is not guessed as a variant.
    assert rows == [("godzilla", "Premium"), ("godzilla", "Pro"), ("medieval_madness_remake", None)]
