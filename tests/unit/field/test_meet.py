"""Field meet machines and score entry (bot/rules/field/meet.py): FIELD-MSEL-1..4, FIELD-SCORE-1/4,
FIELD-ATT-2, FIELD-AMB-12, FIELD-TV-16/17."""

from datetime import UTC, date, datetime, time, timedelta

import pytest

from bot.rules.field.meet import (
    CorrectionState,
    CorrectionVote,
    announcement,
    check_before_closing,
    check_meet_machines,
    check_new_score,
    check_official_edit,
    correction_state,
    machines_left,
)
from bot.rules.field.options import FieldOptions
from bot.rules.refusals import RuleViolation

LPL = FieldOptions()
WORKING = {1, 2, 3, 4, 5, 6}
NAMES = {i: f"Machine {i}" for i in range(1, 8)}


def refused(call, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value


def test_exactly_five_distinct_working_machines_field_msel_1():
    """FIELD-MSEL-1: duplicates, non-working machines and any count but 5 are refused."""
    check_meet_machines([1, 2, 3, 4, 5], WORKING, LPL, NAMES)
    assert "twice" in refused(check_meet_machines, [1, 1, 2, 3, 4], WORKING, LPL, NAMES).message
    assert "Machine 7 is not working" in refused(check_meet_machines, [1, 2, 3, 4, 7], WORKING, LPL, NAMES).message
    violation = refused(check_meet_machines, [1, 2, 3, 4], WORKING, LPL, NAMES)
    assert violation.rule_id == "FIELD-MSEL-1" and "exactly 5" in violation.message


def test_meet_size_is_configurable_field_cfg_1():
    check_meet_machines([1, 2, 3], WORKING, FieldOptions(machines_per_meet=3), NAMES)


def test_groups_play_machines_in_any_order_field_msel_2():
    """FIELD-MSEL-2: a group's progress is the machines some member still has to play."""
    scored = {("A", 1), ("B", 1), ("A", 3)}
    assert machines_left(("A", "B"), [1, 2, 3], scored) == [2, 3]


def test_extra_ball_machines_are_announced_field_msel_3():
    """FIELD-MSEL-3: machines with an allowed extra ball are announced in advance."""
    assert announcement(["Godzilla", "TAF"], {"TAF"}) == ["Godzilla", "TAF (extra ball allowed)"]


def test_one_score_per_player_per_machine_field_score_1():
    """FIELD-SCORE-1: "<player> already has a score on <machine> tonight"."""
    check_new_score("A", 1, {("A", 2)}, "A already has a score on Machine 1")
    violation = refused(check_new_score, "A", 1, {("A", 1)}, "A already has a score on Machine 1")
    assert violation.rule_id == "FIELD-SCORE-1" and "already has a score on Machine 1 tonight" in violation.message


def test_tv17_scores_after_closing_are_refused_field_att_2():
    """FIELD-TV-17 / FIELD-ATT-2: the venue closes at 00:00; a game ending at 00:12 is refused."""
    options = FieldOptions(closing_time=time(0, 0))
    meet = date(2018, 6, 5)
    check_before_closing(datetime(2018, 6, 5, 23, 59), meet, options)
    violation = refused(check_before_closing, datetime(2018, 6, 6, 0, 12), meet, options)
    assert violation.message == "Scores after closing time (00:00) are not recorded."
    check_before_closing(datetime(2018, 6, 6, 3, 0), meet, LPL)  # no closing time configured


def test_tv16_correction_needs_everyone_in_the_group_field_score_4():
    """FIELD-TV-16 / FIELD-SCORE-4: X, Y, Z all confirm → corrected; one objection or 48 h of silence → stays."""
    asked = datetime(2018, 6, 5, 22, 0, tzinfo=UTC)
    group = {"X", "Y", "Z"}
    yes = [CorrectionVote(p, True) for p in ("X", "Y", "Z")]
    assert correction_state(group, yes, asked, asked + timedelta(hours=1), LPL) is CorrectionState.APPLIED
    objection = [*yes[:2], CorrectionVote("Z", False)]
    assert correction_state(group, objection, asked, asked, LPL) is CorrectionState.REFUSED
    assert correction_state(group, yes[:2], asked, asked + timedelta(hours=47), LPL) is CorrectionState.PENDING
    assert correction_state(group, yes[:2], asked, asked + timedelta(hours=49), LPL) is CorrectionState.REFUSED


def test_officials_cannot_edit_without_the_group_common_role_1():
    """COMMON-ROLE-1 / COMMON-SCORE-3 in FIELD: "LPL 6: every player in the group must confirm"."""
    check_official_edit(CorrectionState.APPLIED)
    violation = refused(check_official_edit, CorrectionState.PENDING)
    assert violation.message == "LPL 6: every player in the group must confirm a score correction"
