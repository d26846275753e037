"""Correcting a written field score (FIELD-SCORE-4, COMMON-SCORE-3, COMMON-ROLE-1).

Anyone in the group (or an official) asks; the correction applies only when every player of the group
confirms within the window (48 h); one objection or silence keeps the score as written. The first score is
never overwritten: the correction is a fact of its own, and points recompute from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import select

from bot.clock import Clock
from bot.rules import scores as score_rules
from bot.rules.field import meet as meet_rules
from bot.rules.field.options import FieldOptions
from bot.rules.refusals import Conflict, InvalidInput, NotFound, PermissionDenied, RuleViolation
from bot.services import audit
from bot.services.actor import Actor
from bot.services.field.facts import correction_votes, load_context, load_season
from bot.services.field.nights import registered_player
from bot.services.permissions import is_commissioner
from storage.db import Database
from storage.field import FieldCorrection
from storage.models import Player


@dataclass(frozen=True)
class CorrectionView:
    correction: FieldCorrection
    player: str
    machine: str
    old_score: int
    state: meet_rules.CorrectionState
    waiting_for: list[str]


class FieldCorrectionService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def request(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        week: int | None,
        machine_id: int,
        member_id: int,
        score_text: str,
        reason: str,
    ) -> CorrectionView:
        now = self.clock.now()
        if not reason.strip():
            raise InvalidInput("Say what was wrong in `reason:`.")
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            season = await load_season(session, context)
            facts = season.night(week) if week is not None else season.open_night()
            player = await registered_player(session, context, member_id)
            field = f"The right score for {player.display_name}"
            value = score_rules.parse_score(score_text, field=field, rules=context.options.score_input)
            written = facts.counted_scores().get((player.id or 0, machine_id))
            if written is None:
                raise NotFound(f"{player.display_name} has no score on that machine in week {facts.night.week}.")
            group = list(facts.group_of(player.id or 0) or (player.id or 0,))
            me = (
                await registered_player(session, context, actor.user_id)
                if not is_commissioner(actor, context.league)
                else None
            )
            if me is not None and me.id not in group:
                raise PermissionDenied("Only a player of that group or an official can ask for a correction.")
            pending = [
                c
                for c in facts.corrections
                if c.score_id == written.id and _state(c, now, context.options) == "pending"
            ]
            if pending:
                raise Conflict(f"Correction #{pending[0].id} of that score is still waiting for the group.")
            votes = {str(me.id): True} if me is not None else {}
            row = FieldCorrection(
                night_id=facts.night.id or 0,
                score_id=written.id or 0,
                new_score=value,
                group_players=group,
                votes=votes,
                reason=reason.strip()[:500],
                requested_by=actor.user_id,
                requested_at=now,
            )
            session.add(row)
            await session.flush()
            audit.created(session, actor, row, at=now, reason=row.reason)
            label = (player.display_name, season.machine_names[machine_id], written.score)
            return _view(row, season.names, label, now, context.options)

    async def vote(self, actor: Actor, league_name: str | None, *, correction_id: int, agree: bool) -> CorrectionView:
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            season = await load_season(session, context)
            found = [(f, c) for f in season.nights for c in f.corrections if c.id == correction_id]
            if not found:
                raise NotFound(f"No correction #{correction_id} this season.")
            facts, row = found[0]
            me = (
                await session.exec(
                    select(Player.id).where(
                        Player.league_id == context.league.id, Player.discord_user_id == actor.user_id
                    )
                )
            ).first()
            if me is None or me not in row.group_players:
                raise RuleViolation(
                    "FIELD-SCORE-4",
                    "Only the players of the group confirm a correction; officials cannot confirm for them.",
                )
            state = _state(row, now, context.options)
            if state != "pending":
                raise RuleViolation("FIELD-SCORE-4", f"Correction #{correction_id} is already {state}.")
            before = audit.snapshot(row)
            row.votes = {**row.votes, str(me): agree}
            session.add(row)
            audit.updated(session, actor, row, before=before, at=now)
            written = next(s for s in facts.scores if s.id == row.score_id)
            label = (season.names[written.player_id], season.machine_names[written.machine_id], written.score)
            return _view(row, season.names, label, now, context.options)


def _state(row: FieldCorrection, now: datetime, options: FieldOptions) -> str:
    return meet_rules.correction_state(
        set(row.group_players), correction_votes(row), row.requested_at, now, options
    ).value


def _view(
    row: FieldCorrection,
    names: dict[int, str],
    label: tuple[str, str, int],  # the player, the machine, the score as written
    now: datetime,
    options: FieldOptions,
) -> CorrectionView:
    state = meet_rules.correction_state(set(row.group_players), correction_votes(row), row.requested_at, now, options)
    answered = {int(p) for p in row.votes}
    waiting = [names.get(p, "?") for p in row.group_players if p not in answered]
    player, machine, old = label
    return CorrectionView(row, player, machine, old, state, waiting)
