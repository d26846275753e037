"""In-game rulings that change a score (LADDER-PEN-*): replays, zeroed scores and repeat offences."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.rules.refusals import RuleViolation


def check_claim_raised_in_match(flagged_during_match: bool) -> None:
    """LADDER-PEN-3: no retroactive rulings."""
    if not flagged_during_match:
        raise RuleViolation("LADDER-PEN-3", "Problems must be raised during the match.")


def malfunction_replay(original: int, replay: int | None) -> int:
    """LADDER-PEN-1/2: an elected replay replaces the original, even when lower (REPLAY_REPLACES).

    LADDER-TV-27: original 25,000,000, replay 19,000,000 → 19,000,000 counts."""
    return original if replay is None else replay


ZEROED_SCORE = 0
"""LADDER-SCORE-4: a death save or bang-back (LADDER-PEN-4), a 2nd tilt offence (LADDER-PEN-5) or a slam
(LADDER-PEN-6) sets the score to 0, and the player is placed by that 0."""


class TiltRemedy(StrEnum):
    BUY_IN = "buy_in"  # the offender pays the victim's extra ball
    KEEP_OR_REPLAY = "keep_or_replay"  # higher of the two games counts (REPLAY_TAKE_HIGHER)


@dataclass(frozen=True)
class TiltRuling:
    remedy: TiltRemedy
    offender_zeroed: bool


def tilted_anothers_ball(prior_offences_tonight: int, buy_in_possible: bool) -> TiltRuling:
    """LADDER-PEN-5: the victim's remedy; the 2nd offence in a night also zeroes the offender's game.

    LADDER-TV-27: a 1st offence without a buy-in lets the victim replay; a 2nd that night zeroes the offender."""
    remedy = TiltRemedy.BUY_IN if buy_in_possible else TiltRemedy.KEEP_OR_REPLAY
    return TiltRuling(remedy, offender_zeroed=prior_offences_tonight >= 1)


def take_higher(original: int, replay: int) -> int:
    """LADDER-PEN-5: REPLAY_TAKE_HIGHER. LADDER-TV-27: original 12,000,000, replay 18,000,000 → 18,000,000."""
    return max(original, replay)


class SlamKind(StrEnum):
    INTENTIONAL = "intentional"
    ACCIDENTAL = "accidental"
    MALFUNCTION = "malfunction"


@dataclass(frozen=True)
class SlamRuling:
    slammer_zeroed: bool
    others_replay: bool  # LADDER-AMB-27: their replay scores count, noted scores stay in the audit
    unsportsmanlike: bool
    expulsion_review: bool


def slam_tilt(kind: SlamKind, intentional_slams_this_season: int) -> SlamRuling:
    """LADDER-PEN-6: intentional or accidental → slammer 0 and the others replay; a malfunction only
    replays the victim. A repeated intentional slam (2+ in a season) flags an expulsion review. The others'
    replay scores count, the noted ones stay in the audit (LADDER-AMB-27)."""
    if kind is SlamKind.MALFUNCTION:
        return SlamRuling(False, False, False, False)
    intentional = kind is SlamKind.INTENTIONAL
    return SlamRuling(True, True, intentional, intentional and intentional_slams_this_season + 1 >= 2)


@dataclass(frozen=True)
class RestartRuling:
    offender_zeroed: bool
    next_step: str


def wrong_number_of_players() -> RestartRuling:
    """LADDER-PEN-8: a game started for the wrong number of players is fixed while player 1 is on ball 1;
    caught later, it is aborted and restarted with the right number. Record only: the `restart` note on the game,
    no penalty for the player who started it, and the restarted game's scores are the ones entered."""
    return RestartRuling(
        offender_zeroed=False,
        next_step="Record only: the game restarts with every player and no one is penalized; enter its scores.",
    )
