"""`/field ruling`: an SLO's rulings on situations the rules do not cover, documented and shown again when the
same situation comes up (FIELD-OFF-3, COMMON-RULING-1). A ruling of kind `void_slot` also voids the slot of
tonight's replacement machine for everyone (FIELD-AMB-12), logged with the ruling as its reason."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import select

from bot.clock import Clock
from bot.rules.field import meet as meet_rules
from bot.rules.field import rulings as ruling_rules
from bot.rules.refusals import InvalidInput, NotFound
from bot.services import audit
from bot.services import precedents as kept
from bot.services.actor import Actor
from bot.services.field.facts import load_context, load_tonight
from bot.services.permissions import require_commissioner
from storage.db import Database
from storage.discipline import Precedent
from storage.models import Machine


@dataclass(frozen=True)
class RulingView:
    recorded: Precedent | None  # None: only looked up
    earlier: list[Precedent]  # the earlier rulings on the same situation, closest first
    voided: str | None = None  # the machine whose slot was voided tonight (FIELD-AMB-12)


class FieldRulingService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def rule(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        situation: str,
        ruling: str | None,
        kind: str,
        machine_id: int | None,
        rule_id: str | None,
    ) -> RulingView:
        """Look up the earlier rulings on this situation and, with `ruling`, document this one as a precedent."""
        text = ruling_rules.check_situation(situation, kind)
        decided = (ruling or "").strip()
        if ruling is not None and not decided:
            raise InvalidInput("`ruling` is empty: write the ruling as it should be recorded, or leave it out.")
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, now)
            require_commissioner(actor, context.league, "record or look up a ruling (FIELD-OFF-3)")
            league_id = context.league.id or 0
            machine = None
            if machine_id is not None:
                query = select(Machine).where(Machine.league_id == league_id, Machine.id == machine_id)
                machine = (await session.exec(query)).first()
                if machine is None:
                    raise NotFound(f"No machine #{machine_id} in {context.league.name}: pick one from the list.")
            family = machine.family if machine is not None else None
            tag = kept.rule_tag(rule_id)
            rows = await kept.league_precedents(session, league_id)
            by_id = {row.id: row for row in rows}
            found = ruling_rules.earlier_rulings(kept.views(rows), kind=kind, rule_id=tag, machine_family=family)
            earlier = [by_id[view.id] for view in found]
            if not decided:
                return RulingView(None, earlier)
            voided = None
            if kind == ruling_rules.VOID_SLOT:
                if machine is None or machine.id is None:
                    raise InvalidInput("Give `machine:`: the replacement whose slot is voided (FIELD-AMB-12).")
                season = await load_tonight(session, context)
                facts = season.open_night()
                night = facts.night
                machines = meet_rules.void_slot(night.machine_ids, machine.id, facts.unplayable(), season.machine_names)
                before = audit.snapshot(night)
                night.machine_ids = machines
                session.add(night)
                audit.updated(session, actor, night, before=before, at=now, reason=decided[:500], action="slot_void")
                voided = machine.title
            recorded = await kept.keep(
                session, actor, league_id=league_id, kind=kind, rule_id=tag, machine_family=family,
                situation=text, ruling=decided, now=now,
            )  # fmt: skip
            return RulingView(recorded, earlier, voided)
