"""Machine problems at a field meet and what they do to the game (FIELD-MALF-1..7, FIELD-OFF-2, FIELD-PEN-6).

A report is logged on the maintenance sheet (COMMON-MALF-1) with its severity. With it a player of the group, or an
official, may ask for the group's replay of a major malfunction (FIELD-MALF-2: before anyone starts their next
ball); a machine where every player's first ball was lost to it is out for the meet (FIELD-MALF-3). Rulings with a
choice go to the SLO (FIELD-OFF-2): declaring a machine unplayable, a catastrophic failure's outcome (FIELD-MALF-4:
void and replay unless the SLO lets the scores stand or the players accept agreed scores), a positive malfunction
(FIELD-MALF-5) and who slam-tilted (FIELD-PEN-6: an intentional one is also an interference offence). A granted
replay replaces the group's scores on the machine with the replay's (`NightFacts.group_replays`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.clock import Clock
from bot.rules.field import malfunctions as malfunction_rules
from bot.rules.field import penalties as penalty_rules
from bot.rules.field.malfunctions import Incident, Outcome, Severity
from bot.rules.refusals import InvalidInput, NotFound, RuleViolation
from bot.services import audit
from bot.services.actor import Actor
from bot.services.field import rulings
from bot.services.field.facts import load_context, load_tonight
from bot.services.field.nights import PenaltyRecorded, registered_player, store_penalty
from bot.services.field.penalties import PenaltyAsk
from bot.services.permissions import is_commissioner
from storage.db import Database
from storage.field import FieldMalfunction

CatastrophicScores = Literal["stand", "agreed"]


@dataclass(frozen=True)
class MalfunctionAsk:
    """What `/field malfunction` says besides the incident; every field is optional."""

    member_id: int | None = None  # a player of the group concerned (default: the reporter)
    replay: bool = False  # FIELD-MALF-2/5: ask for (or, the SLO, rule) the group's replay
    next_ball_started: bool = False  # FIELD-MALF-2: someone started their next ball before the request
    first_balls_lost: int | None = None  # FIELD-MALF-3: players whose first ball was lost to it
    unplayable: bool = False  # FIELD-MALF-3: the SLO declares the machine unplayable
    scores: CatastrophicScores | None = None  # FIELD-MALF-4: the SLO lets them stand / agreed scores
    avoidable: bool | None = None  # FIELD-MALF-5: the advantage could be avoided
    advantage_gained: bool = False  # FIELD-MALF-5: an unfair advantage was already gained
    slam_tilt_by: int | None = None  # FIELD-PEN-6: who slam-tilted (Discord id)
    intentional: bool = False  # FIELD-PEN-6

    @property
    def rules_on(self) -> bool:
        """A choice only the SLO makes (FIELD-OFF-2)."""
        return self.unplayable or self.scores is not None or self.avoidable is not None or self.slam_tilt_by is not None


@dataclass(frozen=True)
class MalfunctionReported:
    machine: str
    row: FieldMalfunction
    group: int | None = None  # the group concerned, when it has one
    penalty: PenaltyRecorded | None = None  # FIELD-PEN-6: an intentional slam tilt's interference offence

    @property
    def replaying(self) -> tuple[int, int] | None:
        """(night, group) when the group replays the game: its board changes."""
        if self.group is None or self.row.outcome not in malfunction_rules.GROUP_REPLAYS:
            return None
        return (self.row.night_id, self.group)


class FieldMalfunctionService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def report(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        machine_id: int,
        incident: Incident,
        announced_before_play: bool,
        note: str | None,
        ask: MalfunctionAsk | None = None,
    ) -> MalfunctionReported:
        """FIELD-MALF-1/7: log a problem at tonight's meet, with the outcome the rules give (see the module)."""
        ask = ask or MalfunctionAsk()
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            season = await load_tonight(session, context)
            facts = season.open_night()
            official = is_commissioner(actor, context.league)
            me = None if official else await registered_player(session, context, actor.user_id)
            if me is not None and me.id not in {c.player_id for c in facts.checkins}:
                raise RuleViolation("FIELD-ATT-1", "Check in tonight before reporting a machine problem.")
            if machine_id not in season.machine_names:
                raise NotFound("No such machine in this league: pick one from the list.")
            severity = malfunction_rules.severity(incident, announced_before_play=announced_before_play)
            ruled = ask.rules_on or ask.replay or ask.first_balls_lost is not None
            player = None
            if ask.member_id is not None:
                player = await registered_player(session, context, ask.member_id)
            elif ruled:
                player = me or await registered_player(session, context, actor.user_id)
            group = None
            if player is not None:
                assert player.id is not None
                if player.id not in {c.player_id for c in facts.checkins}:
                    raise RuleViolation("FIELD-ATT-1", f"{player.display_name} has not checked in tonight.")
                if me is not None and player.id != me.id and player.id not in (facts.group_of(me.id or 0) or ()):
                    raise RuleViolation(
                        "FIELD-OFF-2", "Report problems in your own group's game; an official rules on others."
                    )
                group = rulings.concerned(facts, player.id)
            if ruled and machine_id not in facts.night.machine_ids:
                raise RuleViolation(
                    "FIELD-MSEL-1", "That machine is not one of tonight's: a ruling needs tonight's game."
                )
            outcome = _outcome(incident, severity, ask)
            if ask.first_balls_lost is not None and player is not None:  # FIELD-MALF-3
                size = len(facts.group_of(player.id or 0) or (player.id,))
                if not 1 <= ask.first_balls_lost <= size:
                    raise InvalidInput(f"`first_balls_lost` is between 1 and the group's {size} players.")
                lost = [True] * ask.first_balls_lost + [False] * (size - ask.first_balls_lost)
                outcome = Outcome.UNPLAYABLE if malfunction_rules.must_declare_unplayable(lost) else None
            slo = None
            if ask.rules_on or (outcome is not None and not _players_own(outcome, ask)):
                assert group is not None
                slo = await rulings.require_slo(
                    session, actor, context, season, facts, group, doing="rule on a malfunction (FIELD-OFF-2)"
                )
            row = FieldMalfunction(
                league_id=context.league.id or 0,
                night_id=facts.night.id or 0,
                machine_id=machine_id,
                incident=incident,
                severity=severity,
                announced_before_play=announced_before_play,
                note=note,
                reported_by=actor.user_id,
                reported_at=now,
                group_number=group if group is not None and group > 0 else None,
                outcome=outcome,
                ruled_by=actor.user_id if slo is not None else None,
                involved_official=slo.involved if slo is not None else False,
            )
            session.add(row)
            await session.flush()
            major = row.severity in (Severity.MAJOR, Severity.CATASTROPHIC)  # the league is told (COMMON-NOTIFY-1)
            audit.created(
                session, actor, row, at=now, reason=note, action="field_malfunction_major" if major else "create"
            )
            penalty = None
            if ask.slam_tilt_by is not None:
                offence = penalty_rules.slam_tilt_offence(intentional=ask.intentional)
                if offence is not None:  # FIELD-PEN-6: also an interference offence
                    tilted = await registered_player(session, context, ask.slam_tilt_by)
                    season = await load_tonight(session, context)
                    penalty = await store_penalty(
                        session, actor, context, season, season.open_night(), tilted, offence, machine_id,
                        f"intentional slam tilt (FIELD-PEN-6){': ' + note if note else ''}", PenaltyAsk(), now,
                    )  # fmt: skip
            shown = row.group_number
            return MalfunctionReported(season.machine_names[machine_id], row, shown, penalty)


def _players_own(outcome: Outcome, ask: MalfunctionAsk) -> bool:
    """Outcomes the rules give without anyone's discretion: a major malfunction's replay asked in time
    (FIELD-MALF-2), a machine every first ball was lost on (FIELD-MALF-3)."""
    return outcome is Outcome.REPLAY or (outcome is Outcome.UNPLAYABLE and not ask.unplayable)


def _outcome(incident: Incident, severity: Severity, ask: MalfunctionAsk) -> Outcome | None:
    """The outcome of the report, None when it is only logged; refuses options that do not fit the incident."""
    if ask.slam_tilt_by is not None and incident is not Incident.CATASTROPHIC:
        raise RuleViolation("FIELD-PEN-6", "A slam tilt is a catastrophic malfunction: report it as `catastrophic`.")
    if ask.scores is not None and incident is not Incident.CATASTROPHIC:
        raise InvalidInput("`scores` (stand or agreed) is for a catastrophic malfunction (FIELD-MALF-4): leave it out.")
    if (ask.avoidable is not None or ask.advantage_gained) and incident is not Incident.POSITIVE:
        raise InvalidInput("`avoidable` and `advantage_gained` are for a positive malfunction (FIELD-MALF-5).")
    if ask.unplayable:
        return Outcome.UNPLAYABLE
    if ask.first_balls_lost is not None:
        if severity is not Severity.MAJOR:
            raise RuleViolation(
                "FIELD-MALF-3", "Only first balls lost to a major malfunction make a machine unplayable."
            )
        return None  # settled by the caller with the group's size
    if incident is Incident.CATASTROPHIC:
        if ask.scores is None and not ask.replay and ask.slam_tilt_by is None:
            return None  # logged; the SLO rules (default: void and replay)
        return Outcome(
            malfunction_rules.catastrophic_outcome(
                slo_lets_stand=ask.scores == "stand", agreed_scores=ask.scores == "agreed"
            )
        )
    if incident is Incident.POSITIVE:
        if ask.avoidable is None:
            if ask.replay:
                raise InvalidInput("Say whether the advantage was `avoidable` (FIELD-MALF-5) with the replay.")
            return None
        decided = Outcome(
            malfunction_rules.positive_malfunction(
                avoidable=ask.avoidable, unfair_advantage_gained=ask.advantage_gained
            )
        )
        if decided is Outcome.SLO_MAY_REPLAY:
            return Outcome.SLO_REPLAY if ask.replay else decided
        if ask.replay and decided is Outcome.LOG_AND_ANNOUNCE:
            raise RuleViolation(
                "FIELD-MALF-5", "An avoidable advantage not yet gained is logged and announced: no replay."
            )
        return decided
    if ask.replay:
        malfunction_rules.check_replay_request(severity, next_ball_started=ask.next_ball_started)
        return Outcome.REPLAY
    return None
