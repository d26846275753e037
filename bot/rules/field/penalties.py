"""Illegal actions and what they do to scores (FIELD-PEN-*, FIELD-AMB-3/13/14/19).

Penalties are facts in the order they happened; `sanctions` turns them into score effects, and
`apply_sanctions` rewrites a meet's scores before ranking.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.rules.field.scoring import MachineId, MachineScore, PlayerId, ScoreStatus
from bot.rules.refusals import RuleViolation


class Offence(StrEnum):
    OPPONENT_BALL = "opponent_ball"  # FIELD-PEN-2
    INTERFERENCE = "interference"  # FIELD-PEN-3 (intentional slam tilt included, FIELD-PEN-6)
    EJECTION = "ejection"  # FIELD-PEN-4: automatic third offence
    VIOLENCE = "violence"  # FIELD-PEN-4: violence or vandalism, automatic fourth offence
    DEATH_SAVE = "death_save"  # FIELD-PEN-9, bangbacks too
    CHEATING = "cheating"  # FIELD-PEN-10
    OWN_EXTRA_BALL = "own_extra_ball"  # FIELD-PEN-1: record only
    SLOW_PLAY = "slow_play"  # FIELD-PEN-11: record only
    WRONG_GAME_COUNT = "wrong_game_count"  # FIELD-PEN-7: record who pays
    DISTRACTION = "distraction"  # FIELD-PEN-12: normal play conditions, no remedy
    OUT_OF_ORDER = "out_of_order"  # FIELD-PEN-8: keep the order (if wrong since the start) or restart


INTERFERENCE_LADDER = (Offence.INTERFERENCE, Offence.EJECTION, Offence.VIOLENCE)
NEEDS_MACHINE = {
    Offence.OPPONENT_BALL: "FIELD-PEN-2",
    Offence.INTERFERENCE: "FIELD-PEN-3",
    Offence.DEATH_SAVE: "FIELD-PEN-9",
}


class Effect(StrEnum):
    NONE = "none"  # recorded only
    GAME_ZERO = "game_zero"  # machine score 0, still ranked (FIELD-SCORE-6)
    GAME_FORFEIT = "game_forfeit"  # 0 points, no rank
    MATCH_FORFEIT = "match_forfeit"  # every game of that meet forfeited
    SEASON_FORFEIT = "season_forfeit"  # scores wiped, out of standings and finals, suspended
    SUSPENSION = "suspension"  # FIELD-PEN-10


@dataclass(frozen=True)
class Penalty:
    player: PlayerId
    meet: int  # week number
    offence: Offence
    machine: MachineId | None = None


@dataclass(frozen=True)
class Sanction:
    penalty: Penalty
    effect: Effect
    count: int  # the offender's count for this kind of offence after it (per meet or per season)

    @property
    def message(self) -> str:
        return {
            Effect.NONE: "recorded, no score penalty",
            Effect.GAME_ZERO: "machine score 0 for that game (ranked last)",
            Effect.GAME_FORFEIT: "game forfeited: 0 points",
            Effect.MATCH_FORFEIT: "every game of the meet forfeited: 0 points",
            Effect.SEASON_FORFEIT: "season forfeited: scores wiped and suspended from the league",
            Effect.SUSPENSION: "suspended from the league",
        }[self.effect]


def check_penalty(penalty: Penalty) -> None:
    """A penalty that changes a game's score must name the game's machine."""
    if penalty.offence in NEEDS_MACHINE and penalty.machine is None:
        raise RuleViolation(NEEDS_MACHINE[penalty.offence], "Name the machine: this penalty changes that game's score.")


def interference_count(previous: int, offence: Offence) -> int:
    """FIELD-PEN-3/4, FIELD-AMB-14: serious violations add up over the season; an ejection counts at least
    as the third, violence or vandalism at least as the fourth."""
    if offence is Offence.EJECTION:
        return max(previous + 1, 3)
    if offence is Offence.VIOLENCE:
        return max(previous + 1, 4)
    return previous + 1


def interference_effect(count: int) -> Effect:
    """FIELD-PEN-3: 1st and 2nd forfeit the game, 3rd the whole match, 4th the season."""
    if count >= 4:
        return Effect.SEASON_FORFEIT
    return Effect.MATCH_FORFEIT if count == 3 else Effect.GAME_FORFEIT


def sanctions(penalties: Iterable[Penalty]) -> list[Sanction]:
    """Each penalty's effect, in the order given (chronological)."""
    serious: dict[PlayerId, int] = defaultdict(int)
    opponent_balls: dict[tuple[PlayerId, int], int] = defaultdict(int)
    result = []
    for penalty in penalties:
        check_penalty(penalty)
        offence = penalty.offence
        if offence in INTERFERENCE_LADDER:
            serious[penalty.player] = interference_count(serious[penalty.player], offence)
            count = serious[penalty.player]
            result.append(Sanction(penalty, interference_effect(count), count))
        elif offence is Offence.OPPONENT_BALL:  # FIELD-PEN-2: counted per meet, 2nd and later zero the game
            # FIELD-TV-11: a 1st offence has no score penalty, the 2nd in the same meet zeroes that game
            opponent_balls[(penalty.player, penalty.meet)] += 1
            count = opponent_balls[(penalty.player, penalty.meet)]
            result.append(Sanction(penalty, Effect.GAME_ZERO if count >= 2 else Effect.NONE, count))
        elif offence is Offence.DEATH_SAVE:  # FIELD-PEN-9: a death save or bangback zeroes the game
            result.append(Sanction(penalty, Effect.GAME_ZERO, 1))
        elif offence is Offence.CHEATING:  # FIELD-PEN-10: cheating suspends at once
            result.append(Sanction(penalty, Effect.SUSPENSION, 1))
        else:  # FIELD-PEN-1 own plunged extra ball, FIELD-PEN-11 slow play: recorded only
            result.append(Sanction(penalty, Effect.NONE, 1))
    return result


def season_forfeits(all_sanctions: Iterable[Sanction]) -> set[PlayerId]:
    """Players whose season is wiped (FIELD-PEN-3 fourth offence)."""
    return {s.penalty.player for s in all_sanctions if s.effect is Effect.SEASON_FORFEIT}


def reranked_wipes(all_sanctions: Iterable[Sanction], recompute_at: Callable[[int], bool]) -> set[PlayerId]:
    """FIELD-AMB-19: the wiped players whose scores leave every ranking of the season, finalized weeks included:
    those wiped at a meet played under `recompute_on_wipe` (`recompute_at(meet)`), an option only a commissioner
    sets, and the change is logged."""
    return {
        s.penalty.player for s in all_sanctions if s.effect is Effect.SEASON_FORFEIT and recompute_at(s.penalty.meet)
    }


def apply_sanctions(
    scores: Sequence[tuple[MachineId, MachineScore]],
    meet: int,
    all_sanctions: Sequence[Sanction],
    *,
    reranked: Collection[PlayerId] = (),
) -> list[tuple[MachineId, MachineScore]]:
    """A meet's scores with the sanctions of that meet applied (FIELD-SCORE-6).

    A season forfeit removes the player from their own totals only (FIELD-AMB-19): the machine rankings of
    the meet keep their scores, and standings drop the player. The scores of the `reranked` wiped players
    (`reranked_wipes`) leave the rankings instead, so the others' points are recomputed.
    """
    wiped = season_forfeits(all_sanctions) & set(reranked)
    zero: set[tuple[PlayerId, MachineId | None]] = set()
    forfeit: set[tuple[PlayerId, MachineId | None]] = set()
    whole_meet: set[PlayerId] = set()
    for s in all_sanctions:
        if s.penalty.meet != meet:
            continue
        key = (s.penalty.player, s.penalty.machine)
        if s.effect is Effect.GAME_ZERO:
            zero.add(key)
        elif s.effect is Effect.GAME_FORFEIT:
            forfeit.add(key)
        elif s.effect is Effect.MATCH_FORFEIT:
            whole_meet.add(s.penalty.player)
    result = []
    for machine, score in scores:
        key = (score.player, machine)
        if score.status is ScoreStatus.VOID:
            result.append((machine, score))
        elif score.player in wiped:
            result.append((machine, replace(score, status=ScoreStatus.VOID)))
        elif score.player in whole_meet or key in forfeit:
            result.append((machine, replace(score, score=0, status=ScoreStatus.FORFEITED)))
        elif key in zero:
            result.append((machine, replace(score, score=0, status=ScoreStatus.ZEROED)))
        else:
            result.append((machine, score))
    return result


class VictimChoice(StrEnum):
    """FIELD-PEN-2 / FIELD-AMB-13: the victim of a played ball picks one of three."""

    CONTINUE = "continue"
    ADDITIONAL_BALL = "additional_ball"
    REPLAY = "replay"


def victim_choice(announced: VictimChoice | None, *, plunged_extra_ball: bool) -> VictimChoice | None:
    """FIELD-PEN-2: no compensation for a plunged extra ball; no choice announced before the next player
    starts means continue and play an additional ball (FIELD-AMB-13: the third option)."""
    if plunged_extra_ball:
        if announced is not None:
            raise RuleViolation("FIELD-PEN-2", "The ball was a plunged extra ball: there is no compensation.")
        return None
    return announced or VictimChoice.ADDITIONAL_BALL


def check_keep_order(wrong_since_start: bool) -> None:
    """FIELD-PEN-8: the group may keep a wrong order only if it has been wrong since the game began."""
    if not wrong_since_start:
        raise RuleViolation(
            "FIELD-PEN-8",
            "Out-of-order play can only continue if it began at the start of the game. Restart in scoresheet order.",
        )


def distraction_answer() -> str:
    """FIELD-PEN-12: the answer given to a ruling request about a distraction."""
    return (
        "Distractions, including a non-league customer playing your ball, are normal play conditions: "
        "no remedy (LPL 3.6, 3.7)."
    )


def slam_tilt_offence(*, intentional: bool) -> Offence | None:
    """FIELD-PEN-6: every slam tilt is a catastrophic malfunction (FIELD-MALF-4); an intentional one (shove,
    attempted bangback or death save) is also an interference offence."""
    return Offence.INTERFERENCE if intentional else None


def interference_replay(*, asked_before_next_player: bool) -> bool:
    """FIELD-PEN-5: the victim of interference may replay the whole game if they ask before the next player
    starts (the interfering player pays); otherwise they play on."""
    return asked_before_next_player


class GameCountFix(StrEnum):
    PLUNGE_EXTRA = "plunge_extra"
    ADD_GAMES = "add_games"
    RESTART = "restart"


def wrong_game_count(started: int, players: int, *, can_add: bool) -> GameCountFix | None:
    """FIELD-PEN-7: extra games are plunged, missing ones added if possible, otherwise everyone restarts;
    the player who pressed start pays."""
    if started == players:
        return None
    if started > players:
        return GameCountFix.PLUNGE_EXTRA
    return GameCountFix.ADD_GAMES if can_add else GameCountFix.RESTART
