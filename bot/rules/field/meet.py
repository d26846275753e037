"""A meet's machines and score entry (FIELD-MSEL-*, FIELD-SCORE-1/4, FIELD-ATT-2)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from enum import StrEnum

from bot.rules.field.options import FieldOptions
from bot.rules.field.scoring import MachineId, PlayerId
from bot.rules.refusals import RuleViolation


def check_meet_machines(
    chosen: Sequence[MachineId], working: Collection[MachineId], options: FieldOptions, names: Mapping[MachineId, str]
) -> None:
    """FIELD-MSEL-1: exactly five distinct working machines."""
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("FIELD-MSEL-1", "A machine is listed twice: pick distinct machines.")
    if broken := [m for m in chosen if m not in working]:
        raise RuleViolation("FIELD-MSEL-1", f"{names.get(broken[0], broken[0])} is not working: pick another.")
    if len(chosen) != options.machines_per_meet:
        raise RuleViolation(
            "FIELD-MSEL-1", f"A meet uses exactly {options.machines_per_meet} machines; {len(chosen)} were given."
        )


def check_new_score(
    player: PlayerId, machine: MachineId, existing: Collection[tuple[PlayerId, MachineId]], label: str
) -> None:
    """FIELD-SCORE-1: one score per player per machine per meet, unless it is a sanctioned replay."""
    if (player, machine) in existing:
        raise RuleViolation("FIELD-SCORE-1", f"{label} tonight; a second score needs a sanctioned replay.")


def missing_scores(
    players: Sequence[PlayerId], machines: Sequence[MachineId], scored: Collection[tuple[PlayerId, MachineId]]
) -> dict[PlayerId, list[MachineId]]:
    """FIELD-SCORE-5: the machines each checked-in player has no score on yet; closing the night would count
    them as no score (no points on that machine)."""
    missing = {player: [m for m in machines if (player, m) not in scored] for player in players}
    return {player: gaps for player, gaps in missing.items() if gaps}


def closing_moment(meet_date: date, closing: time) -> datetime:
    """The venue closes on the meet date, or after midnight when the closing time is before noon."""
    day = meet_date + timedelta(days=1) if closing < time(12, 0) else meet_date
    return datetime.combine(day, closing)


def check_before_closing(game_ended: datetime, meet_date: date, options: FieldOptions) -> None:
    """FIELD-ATT-2: scores played after the venue closed on the meet date are not recorded (local times);
    FIELD-TV-17: closing at 00:00, a game ended at 00:12 is refused."""
    if options.closing_time is None:
        return
    if game_ended > closing_moment(meet_date, options.closing_time):
        raise RuleViolation(
            "FIELD-ATT-2", f"Scores after closing time ({options.closing_time:%H:%M}) are not recorded."
        )


class CorrectionState(StrEnum):
    PENDING = "pending"
    APPLIED = "applied"
    REFUSED = "refused"


@dataclass(frozen=True)
class CorrectionVote:
    player: PlayerId
    agrees: bool


def correction_state(
    group: Collection[PlayerId],
    votes: Sequence[CorrectionVote],
    requested_at: datetime,
    now: datetime,
    options: FieldOptions,
) -> CorrectionState:
    """FIELD-SCORE-4: a score correction applies only when every player of the group confirms; one objection,
    or silence past the window (48 h), keeps the score as written (FIELD-TV-16)."""
    answers = {v.player: v.agrees for v in votes if v.player in group}
    if any(agrees is False for agrees in answers.values()):
        return CorrectionState.REFUSED
    if set(answers) >= set(group):
        return CorrectionState.APPLIED
    if now - requested_at > timedelta(hours=options.correction_window_hours):
        return CorrectionState.REFUSED
    return CorrectionState.PENDING


def check_official_edit(state: CorrectionState) -> None:
    """COMMON-ROLE-1 / COMMON-SCORE-3: an official cannot change a field score without the group's consent."""
    if state is not CorrectionState.APPLIED:
        raise RuleViolation("FIELD-SCORE-4", "LPL 6: every player in the group must confirm a score correction")


def machines_left(
    group: Collection[PlayerId], machines: Sequence[MachineId], scored: Collection[tuple[PlayerId, MachineId]]
) -> list[MachineId]:
    """FIELD-MSEL-2: groups play the machines in any order; a machine is done for a group once every
    player of the group has a score on it."""
    return [m for m in machines if any((p, m) not in scored for p in group)]


def announcement(machines: Sequence[str], extra_ball_allowed: Collection[str]) -> list[str]:
    """FIELD-MSEL-1/3: the meet's machines announced ahead, saying where an extra ball may be played;
    on every other machine extra balls are plunged."""
    return [f"{name} (extra ball allowed)" if name in extra_ball_allowed else name for name in machines]


def check_replacement(before: Sequence[int], after: Sequence[int], names: Mapping[int, str]) -> None:
    """FIELD-MSEL-4 / FIELD-AMB-12: once play has started, a changed slot takes a replacement machine. LPL 7.2 cuts
    off before listing its constraints; by default it is working and not declared unplayable (`check_meet_machines`
    with tonight's unplayable machines out) and not already selected that meet. Every player in the field plays the
    replacement, and the scores posted on the machine it replaces stop counting for that slot."""
    for old, new in zip(before, after, strict=False):
        if new != old and new in before:
            raise RuleViolation(
                "FIELD-AMB-12",
                f"{names.get(new, new)} is already one of tonight's machines: the replacement for "
                f"{names.get(old, old)} must be a machine not selected tonight.",
            )


def void_slot(machines: Sequence[int], slot: int, unplayable: Collection[int], names: Mapping[int, str]) -> list[int]:
    """FIELD-AMB-12: when not every player can play the replacement, the SLO may void its slot for everyone: 0 points
    to all on it, so the meet counts the other machines. Only tonight's machines, once one was declared unplayable."""
    if not unplayable:
        raise RuleViolation(
            "FIELD-AMB-12",
            "No machine was declared unplayable tonight: only the slot of a replacement can be voided "
            "(`/field malfunction unplayable:true`, then `/field night machines`).",
        )
    if slot not in machines:
        raise RuleViolation("FIELD-AMB-12", f"{names.get(slot, slot)} is not one of tonight's machines.")
    return [m for m in machines if m != slot]
