"""Venues and the machines in them (COMMON-VENUE-1, COMMON-MACH-1/2)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from sqlmodel import col, select

from bot.clock import Clock
from bot.rules import setup as rules
from bot.rules.refusals import NotFound, Refusal
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import find_league, find_venue, insert_unique
from bot.services.permissions import require_commissioner
from storage.db import Database
from storage.models import Machine, MachineStatus, Team, Venue


@dataclass(frozen=True)
class MachineStay:
    """One machine's line in a venue's record: there from `installed` until `removed` (None while it stays)."""

    machine: Machine
    installed: date
    removed: date | None


@dataclass(frozen=True)
class VenueRecord:
    """COMMON-VENUE-1: a venue, the teams whose home it is, and every machine it has had, with their dates."""

    venue: Venue
    home_teams: list[str]
    machines: list[MachineStay]


class VenueService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def add_venue(
        self, actor: Actor, league_name: str | None, *, name: str, address: str | None, regular: bool = True
    ) -> Venue:
        clean = rules.clean_name(name, option="name", max_length=rules.VENUE_NAME_MAX)
        cleaned_address = rules.optional_text(address, option="address", max_length=rules.ADDRESS_MAX)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "add venues")
            assert league.id is not None
            venue = await insert_unique(
                session,
                Venue(
                    league_id=league.id,
                    name=clean.display,
                    name_key=clean.key,
                    address=cleaned_address,
                    regular_league_venue=regular,
                ),
                f"{league.name} already has a venue named {clean.display!r}.",
            )
            audit.created(session, actor, venue, at=now)
        return venue

    async def add_machine(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        venue_name: str,
        model: str,
        variant: str | None,
        max_players: int,
        balls: int,
    ) -> tuple[Machine, Venue]:
        model_name = rules.clean_name(model, option="model", max_length=rules.MODEL_NAME_MAX).display
        cleaned_variant = rules.optional_text(variant, option="variant", max_length=rules.VARIANT_MAX)
        capacity = rules.machine_capacity(max_players)
        balls_per_game = rules.balls_per_game(balls)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "add machines")
            venue = await find_venue(session, league, venue_name)
            assert league.id is not None and venue.id is not None
            machine = Machine(
                league_id=league.id,
                venue_id=venue.id,
                model_name=model_name,
                variant=cleaned_variant,
                family=rules.model_family(model_name),
                max_players=capacity,
                balls_per_game=balls_per_game,
                status=MachineStatus.WORKING,
                status_changed_at=now,
                installed_at=now,
            )
            session.add(machine)
            await session.flush()
            audit.created(session, actor, machine, at=now)
        return machine, venue

    async def set_machine_status(
        self, actor: Actor, league_name: str | None, *, machine_id: int, status: str
    ) -> Machine:
        new_status = MachineStatus(status)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "change a machine's status")
            machine = (
                await session.exec(
                    select(Machine).where(
                        Machine.id == machine_id,
                        Machine.league_id == league.id,
                        Machine.removed_at == None,  # noqa: E711
                    )
                )
            ).first()
            if machine is None:
                raise NotFound(f"{league.name} has no machine #{machine_id}. Pick one from the list as you type.")
            before = audit.snapshot(machine)
            machine.status = new_status
            machine.status_changed_at = now
            session.add(machine)
            audit.updated(session, actor, machine, before=before, at=now)
        return machine

    async def set_regular(self, actor: Actor, league_name: str | None, *, venue_name: str, regular: bool) -> Venue:
        """COMMON-VENUE-1: whether the venue is a regular league venue (the default candidates of TEAM-PO-4)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "change a venue")
            venue = await find_venue(session, league, venue_name)
            before = audit.snapshot(venue)
            venue.regular_league_venue = regular
            session.add(venue)
            audit.updated(session, actor, venue, before=before, at=now)
        return venue

    async def remove_machine(
        self, actor: Actor, league_name: str | None, *, machine_id: int, on: str | None
    ) -> tuple[Machine, Venue, date]:
        """COMMON-VENUE-1: the machine leaves its venue on `on` (YYYY-MM-DD, default today in the league's time
        zone). It stays in the venue's record, dated, and is no longer offered anywhere."""
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "remove machines")
            zone = ZoneInfo(league.timezone)
            found = (
                await session.exec(
                    select(Machine, Venue)
                    .join(Venue, Venue.id == Machine.venue_id)  # type: ignore[arg-type]
                    .where(Machine.id == machine_id, Machine.league_id == league.id)
                )
            ).first()
            if found is None:
                raise NotFound(f"{league.name} has no machine #{machine_id}. Pick one from the list as you type.")
            machine, venue = found
            today = now.astimezone(zone).date()
            day = rules.removal_day(
                rules.parse_date(on, option="on") if on else today,
                installed=machine.installed_at.astimezone(zone).date(),
                removed=machine.removed_at.astimezone(zone).date() if machine.removed_at else None,
                today=today,
                title=machine.title,
            )
            before = audit.snapshot(machine)
            machine.removed_at = now if day == today else datetime.combine(day, time.min, tzinfo=zone)
            session.add(machine)
            audit.updated(session, actor, machine, before=before, at=now)
        return machine, venue, day

    async def record(self, actor: Actor, league_name: str | None, venue_name: str) -> VenueRecord:
        """COMMON-VENUE-1: the venue's record as anyone in the server may read it."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            venue = await find_venue(session, league, venue_name)
            zone = ZoneInfo(league.timezone)
            teams = (await session.exec(select(Team.name).where(Team.home_venue_id == venue.id))).all()
            machines = (
                await session.exec(
                    select(Machine)
                    .where(Machine.venue_id == venue.id)
                    .order_by(col(Machine.installed_at), col(Machine.id))
                )
            ).all()
        return VenueRecord(
            venue,
            sorted(teams),
            [
                MachineStay(
                    m,
                    m.installed_at.astimezone(zone).date(),
                    m.removed_at.astimezone(zone).date() if m.removed_at else None,
                )
                for m in machines
            ],
        )

    async def venue_names(self, guild_id: int, league_name: str | None) -> list[str]:
        async with self.db.reading() as session:
            try:
                league = await find_league(session, guild_id, league_name)
            except Refusal:  # no league yet, or several: nothing to suggest
                return []
            return list((await session.exec(select(Venue.name).where(Venue.league_id == league.id))).all())

    async def machine_choices(self, guild_id: int, league_name: str | None) -> list[tuple[int, str]]:
        async with self.db.reading() as session:
            try:
                league = await find_league(session, guild_id, league_name)
            except Refusal:  # no league yet, or several: nothing to suggest
                return []
            rows = (
                await session.exec(
                    select(Machine, Venue.name)
                    .join(Venue, Venue.id == Machine.venue_id)  # type: ignore[arg-type]
                    .where(Machine.league_id == league.id, Machine.removed_at == None)  # noqa: E711
                    .order_by(Machine.model_name)
                )
            ).all()
        return [(m.id or 0, f"{m.title} @ {venue} (#{m.id}, {m.status.value})") for m, venue in rows]
