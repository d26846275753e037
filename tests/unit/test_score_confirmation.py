"""Who confirms a group's game scores on a ladder or field night, and who may still Edit or Undo them
(COMMON-SCORE-3, bot/rules/confirmation.py): the player who entered them cannot confirm them alone, another
player of the group can, an official always can; confirmed scores are locked."""

from __future__ import annotations

import pytest

from bot.rules.confirmation import check_may_change, check_may_confirm
from bot.rules.refusals import PermissionDenied, Refusal

ANN, BO, CY, OFFICIAL = 1, 2, 3, 99
GROUP = (ANN, BO, CY)

ALREADY_CONFIRMED = "COMMON-SCORE-3: These scores are already confirmed; nothing is left to confirm."
NOT_IN_GROUP = "COMMON-ROLE-1: Only a player of this group (or an official) confirms its scores."
OWN_SCORES = (
    "COMMON-ROLE-1: You entered these scores: another player of your group confirms them. "
    "Until then you can Edit or Undo."
)
LOCKED = "COMMON-SCORE-3: These scores are confirmed: only an official can change them now, with a reason."
NOT_YOURS = "COMMON-ROLE-1: Only whoever entered these scores can Edit or Undo them, until they are confirmed."


def refusal_of(check: object, *args: object, **kwargs: object) -> str | None:
    try:
        check(*args, **kwargs)  # type: ignore[operator]
    except Refusal as refused:
        return str(refused)
    return None


@pytest.mark.parametrize(
    ("actor", "entered_by", "official", "refused"),
    [
        (BO, {ANN}, False, None),  # another player of the group confirms Ann's entry
        (ANN, {ANN, BO}, False, None),  # Ann and Bo entered games of it: Ann may confirm Bo's part
        (OFFICIAL, {ANN}, True, None),  # an official from outside the group
        (ANN, {ANN}, False, OWN_SCORES),  # Ann alone entered them
        (ANN, [ANN, ANN], False, OWN_SCORES),  # Ann entered two of its games
        (7, {ANN}, False, NOT_IN_GROUP),  # a player of another group
        (BO, set(), False, ALREADY_CONFIRMED),
        (OFFICIAL, set(), True, ALREADY_CONFIRMED),
    ],
)
def test_common_score_3_who_confirms_a_groups_scores(
    actor: int, entered_by: set[int], official: bool, refused: str | None
) -> None:
    assert refusal_of(check_may_confirm, actor, entered_by, GROUP, official=official) == refused


def test_common_score_3_an_official_who_plays_in_the_group_cannot_confirm_their_own_entry_alone() -> None:
    """Being an official lets one confirm from outside the group, not confirm one's own scores."""
    assert refusal_of(check_may_confirm, ANN, {ANN}, GROUP, official=True) == OWN_SCORES


@pytest.mark.parametrize(
    ("actor", "entered_by", "confirmed", "official", "refused"),
    [
        (ANN, {ANN}, False, False, None),  # the entrant fixes their own entry
        (OFFICIAL, {ANN}, False, True, None),  # an official fixes anyone's until confirmed
        (BO, {ANN}, False, False, NOT_YOURS),
        (ANN, {ANN}, True, False, LOCKED),
        (OFFICIAL, {ANN}, True, True, LOCKED),  # confirmed: only with an override and a reason, not Edit
    ],
)
def test_common_score_3_who_edits_or_undoes_scores(
    actor: int, entered_by: set[int], confirmed: bool, official: bool, refused: str | None
) -> None:
    assert refusal_of(check_may_change, actor, entered_by, confirmed=confirmed, official=official) == refused


def test_a_refusal_to_change_is_a_permission_matter_until_the_scores_are_locked() -> None:
    with pytest.raises(PermissionDenied):
        check_may_change(BO, {ANN}, confirmed=False, official=False)
