"""Who confirms a group's game scores on a ladder or field night, and who may still change them.

Neither the ladder nor the field sheet has a confirmation step, so the default of DESIGN §2c applies: whoever
entered a game's scores may fix or take them back until another player of the group confirms them; once
confirmed they are locked, and only an official changes them (COMMON-SCORE-3; in a field league only through
the group's unanimous correction, FIELD-SCORE-4)."""

from __future__ import annotations

from collections.abc import Collection

from bot.rules.refusals import PermissionDenied, RuleViolation


def check_may_confirm(actor: int, entered_by: Collection[int], group: Collection[int], *, official: bool) -> None:
    """`entered_by`: who entered the game's unconfirmed scores; `group`: the Discord ids of its players."""
    if not entered_by:
        raise RuleViolation("COMMON-SCORE-3", "These scores are already confirmed; nothing is left to confirm.")
    if actor not in group and not official:
        raise PermissionDenied("Only a player of this group (or an official) confirms its scores.")
    if set(entered_by) == {actor}:
        raise PermissionDenied(
            "You entered these scores: another player of your group confirms them. Until then you can Edit or Undo."
        )


def check_may_change(actor: int, entered_by: Collection[int], *, confirmed: bool, official: bool) -> None:
    """Edit or Undo: the entrant's own unconfirmed scores (an official may fix anyone's until confirmed)."""
    if confirmed:
        raise RuleViolation(
            "COMMON-SCORE-3", "These scores are confirmed: only an official can change them now, with a reason."
        )
    if actor not in entered_by and not official:
        raise PermissionDenied("Only whoever entered these scores can Edit or Undo them, until they are confirmed.")
