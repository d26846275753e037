"""Malfunctions, replays and who rules on them (FIELD-MALF-*, FIELD-OFF-2, FIELD-AMB-18)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.rules.field.scoring import MachineScore, PlayerId, ScoreStatus
from bot.rules.refusals import RuleViolation


class Incident(StrEnum):
    """FIELD-MALF-1: what happened at the machine."""

    FORCED_TILT_STUCK_BALL = "forced_tilt_stuck_ball"
    TURN_ENDED_WITH_BALL_IN_PLAY = "turn_ended_with_ball_in_play"
    BALL_LAUNCHED_EARLY = "ball_launched_early"
    STUCK_PLUNGED_EXTRA_BALL = "stuck_plunged_extra_ball"  # FIELD-MALF-6: record only
    UNNECESSARY_TILT = "unnecessary_tilt"
    MULTIBALL_ENDED_EARLY = "multiball_ended_early"
    AIRBALL = "airball"
    KICKBACK_FAILED = "kickback_failed"
    BALL_SAVER_FAILED = "ball_saver_failed"
    INTERFERENCE = "interference"
    CATASTROPHIC = "catastrophic"  # FIELD-MALF-4: total failure, processor halt, fire, any slam tilt
    POSITIVE = "positive"  # FIELD-MALF-5


MAJOR = {Incident.FORCED_TILT_STUCK_BALL, Incident.TURN_ENDED_WITH_BALL_IN_PLAY, Incident.BALL_LAUNCHED_EARLY}


class Severity(StrEnum):
    """COMMON-MALF-1 maintenance-log severities."""

    MINOR = "minor"
    MAJOR = "major"
    CATASTROPHIC = "catastrophic"
    POSITIVE = "positive"


def severity(incident: Incident, *, announced_before_play: bool) -> Severity:
    """FIELD-MALF-1: only an abnormal loss of ball in play is major, never a problem announced before play.

    COMMON-MALF-1: this is the severity the maintenance sheet keeps with the report.
    """
    if incident is Incident.CATASTROPHIC:
        return Severity.CATASTROPHIC
    if incident is Incident.POSITIVE:
        return Severity.POSITIVE
    # FIELD-MALF-6: a stuck plunged extra ball (nudged or tilted free) is not in MAJOR: recorded only, no replay
    return Severity.MAJOR if incident in MAJOR and not announced_before_play else Severity.MINOR


def check_replay_request(severity_: Severity, *, next_ball_started: bool) -> None:
    """FIELD-MALF-2: a group replay needs a major malfunction, asked before anyone starts the next ball."""
    if severity_ not in (Severity.MAJOR, Severity.CATASTROPHIC):
        raise RuleViolation("FIELD-MALF-1", "Only a major malfunction allows a replay; this one is played on.")
    if next_ball_started:
        raise RuleViolation(
            "FIELD-MALF-2", "The next ball was started before a replay was asked: the game continues as played."
        )


def replayed(original: Sequence[MachineScore], replay: Mapping[PlayerId, int]) -> list[MachineScore]:
    """FIELD-MALF-2 / FIELD-AMB-18: the whole group's replay scores replace the originals, even when lower.
    Players without a replay score keep nothing from the replayed game (their original is void)."""
    result = [MachineScore(s.player, s.score, ScoreStatus.VOID, s.guest) for s in original]
    guests = {s.player: s.guest for s in original}
    result += [MachineScore(p, score, ScoreStatus.NORMAL, guests.get(p, False)) for p, score in replay.items()]
    return result


def must_declare_unplayable(first_balls_major: Sequence[bool]) -> bool:
    """FIELD-MALF-3: a machine where every player's first ball hit a major malfunction is out for the meet."""
    return bool(first_balls_major) and all(first_balls_major)


class Outcome(StrEnum):
    """What a malfunction report decided (FIELD-MALF-2..5): the strings `catastrophic_outcome` and
    `positive_malfunction` answer, and the others."""

    REPLAY = "replay"  # FIELD-MALF-2: the whole group replays the game
    UNPLAYABLE = "unplayable"  # FIELD-MALF-3: out for the rest of the meet
    STAND = "stand"  # FIELD-MALF-4: the SLO lets the scores stand
    AGREED = "agreed"  # FIELD-MALF-4: the players accept agreed scores
    VOID_AND_REPLAY = "void_and_replay"  # FIELD-MALF-4 default
    NEW_GAME = "new_game"  # FIELD-MALF-5: unavoidable advantage
    SLO_REPLAY = "slo_replay"  # FIELD-MALF-5: the SLO replays an avoidable advantage already gained
    SLO_MAY_REPLAY = "slo_may_replay"  # FIELD-MALF-5: the SLO let it stand
    LOG_AND_ANNOUNCE = "log_and_announce"  # FIELD-MALF-5


GROUP_REPLAYS = frozenset({Outcome.REPLAY, Outcome.VOID_AND_REPLAY, Outcome.NEW_GAME, Outcome.SLO_REPLAY})
"""Outcomes after which the group's scores on the machine are replaced by the replay's (FIELD-MALF-2, FIELD-AMB-18)."""


def catastrophic_outcome(*, slo_lets_stand: bool, agreed_scores: bool) -> str:
    """FIELD-MALF-4: by default the group's scores on the machine are void and replayed."""
    if slo_lets_stand:
        return "stand"
    return "agreed" if agreed_scores else "void_and_replay"


@dataclass(frozen=True)
class OfficialPresent:
    name: str
    rank: int  # 0 = highest (FIELD-OFF-1)
    group: int | None


@dataclass(frozen=True)
class SloChoice:
    official: str
    involved: bool  # the ticket is flagged `involved_official`


def senior_league_official(present: Sequence[OfficialPresent], concerned_group: int) -> SloChoice:
    """FIELD-OFF-2: the highest-ranking official present (ranks per FIELD-OFF-1) who is not in the group
    concerned; if all are, the highest rules and the ticket is flagged. FIELD-TV-18: President in group 2, VP in
    group 4, Statistician in group 1: a claim in group 2 goes to the VP, one in group 4 to the President."""
    if not present:
        raise RuleViolation("FIELD-OFF-2", "No league official is checked in to rule on this.")
    by_rank = sorted(present, key=lambda o: o.rank)
    for official in by_rank:
        if official.group != concerned_group:
            return SloChoice(official.name, involved=False)
    return SloChoice(by_rank[0].name, involved=True)


def positive_malfunction(*, avoidable: bool, unfair_advantage_gained: bool) -> str:
    """FIELD-MALF-5: an unavoidable advantage stops the game for a new one; an avoidable one is logged and
    announced, and the SLO may replay when an unfair advantage was already gained."""
    if not avoidable:
        return "new_game"
    return "slo_may_replay" if unfair_advantage_gained else "log_and_announce"
