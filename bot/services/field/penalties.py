"""What an official rules along with a field penalty (FIELD-PEN-2/5/7/8/12): the victim's choice, the interference
victim's replay, the fix for a wrong number of games started, a wrong order kept or restarted, the answer to a
distraction. `ruling` turns what the official says happened into the ruling recorded with the penalty and whether
the offender's group replays the game (its replay scores replace the group's, FIELD-AMB-18)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.field import penalties as penalty_rules
from bot.rules.field.penalties import GameCountFix, Offence, VictimChoice
from bot.rules.refusals import InvalidInput

CHOICE_TEXT = {
    VictimChoice.CONTINUE: "the victim continues with the ball",
    VictimChoice.ADDITIONAL_BALL: "the victim continues and plays an additional ball",
    VictimChoice.REPLAY: "the group replays the game; the replay's scores replace the first ones",
}
FIX_TEXT = {
    GameCountFix.PLUNGE_EXTRA: "the extra games are plunged",
    GameCountFix.ADD_GAMES: "the missing games are added",
    GameCountFix.RESTART: "everyone restarts",
}


@dataclass(frozen=True)
class PenaltyAsk:
    """What happened besides the offence, as `/field penalty` gives it."""

    choice: VictimChoice | None = None  # FIELD-PEN-2 the victim's choice; `replay` also FIELD-PEN-5
    before_next_player: bool = True  # the choice was announced before the next player started
    plunged_extra_ball: bool = False  # FIELD-PEN-2: the ball played was a plunged extra ball
    games_started: int | None = None  # FIELD-PEN-7
    can_add: bool = True  # FIELD-PEN-7: the missing games can still be added
    keep_order: bool | None = None  # FIELD-PEN-8: True keep, False restart in scoresheet order
    wrong_since_start: bool = False  # FIELD-PEN-8


@dataclass(frozen=True)
class Ruling:
    text: str | None
    group_replay: bool = False


def ruling(offence: Offence, ask: PenaltyAsk, *, offender: str, players: int) -> Ruling:
    """The ruling recorded with the penalty; options that do not fit the offence are refused by name."""
    _only(ask.choice is not None, offence, (Offence.OPPONENT_BALL, Offence.INTERFERENCE), "choice")
    _only(ask.plunged_extra_ball, offence, (Offence.OPPONENT_BALL,), "plunged_extra_ball")
    _only(ask.games_started is not None, offence, (Offence.WRONG_GAME_COUNT,), "games_started")
    _only(ask.keep_order is not None, offence, (Offence.OUT_OF_ORDER,), "order")
    if offence is Offence.OPPONENT_BALL:  # FIELD-PEN-2, FIELD-AMB-13
        announced = ask.choice if ask.before_next_player else None
        chosen = penalty_rules.victim_choice(announced, plunged_extra_ball=ask.plunged_extra_ball)
        if chosen is None:
            return Ruling("a plunged extra ball: no compensation for the victim (FIELD-PEN-2)")
        late = " (no choice announced before the next player started)" if announced is None else ""
        return Ruling(f"{CHOICE_TEXT[chosen]}{late} (FIELD-PEN-2)", chosen is VictimChoice.REPLAY)
    if offence is Offence.INTERFERENCE and ask.choice is not None:  # FIELD-PEN-5
        if ask.choice is not VictimChoice.REPLAY:
            raise InvalidInput("`choice` for interference is `replay` (FIELD-PEN-5): the victim asks to replay.")
        if not penalty_rules.interference_replay(asked_before_next_player=ask.before_next_player):
            return Ruling("the replay was asked after the next player started: the victim plays on (FIELD-PEN-5)")
        return Ruling(f"the victim's group replays the game; {offender} pays for the replay (FIELD-PEN-5)", True)
    if offence is Offence.WRONG_GAME_COUNT:  # FIELD-PEN-7
        if ask.games_started is None:
            raise InvalidInput("Give `games_started:`, the number of games started on the machine (FIELD-PEN-7).")
        fix = penalty_rules.wrong_game_count(ask.games_started, players, can_add=ask.can_add)
        if fix is None:
            raise InvalidInput(
                f"`games_started` {ask.games_started} is right for a group of {players}: nothing to fix (FIELD-PEN-7)."
            )
        return Ruling(f"{FIX_TEXT[fix]}; {offender} pressed start and pays (FIELD-PEN-7)")
    if offence is Offence.OUT_OF_ORDER:  # FIELD-PEN-8
        if ask.keep_order is None:
            raise InvalidInput("Give `order:` keep or restart for out-of-order play (FIELD-PEN-8).")
        if not ask.keep_order:
            return Ruling("the group restarts the game in scoresheet order (FIELD-PEN-8)")
        penalty_rules.check_keep_order(ask.wrong_since_start)
        return Ruling("the group keeps the order it has played since the game began (FIELD-PEN-8)")
    if offence is Offence.DISTRACTION:  # FIELD-PEN-12
        return Ruling(penalty_rules.distraction_answer())
    return Ruling(None)


def _only(given: bool, offence: Offence, fits: tuple[Offence, ...], option: str) -> None:
    if given and offence not in fits:
        kinds = " or ".join(o.value for o in fits)
        raise InvalidInput(f"`{option}` is for offence {kinds}, not {offence.value}: leave it out.")
