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
    check_replacement,
    correction_state,
    machines_left,
    missing_scores,
    void_slot,
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


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        ([1, 2, 2, 3, 4], "A machine is listed twice: pick distinct machines."),
        ([1, 2, 3, 4, 7], "Machine 7 is not working: pick another."),
        ([1, 2, 3, 4, 9], "9 is not working: pick another."),  # a machine without a name is shown by its id
        ([1, 2, 3, 4], "A meet uses exactly 5 machines; 4 were given."),
    ],
)
def test_machine_choice_refusals_field_msel_1(chosen, message):
    violation = refused(check_meet_machines, chosen, WORKING, LPL, NAMES)
    assert (violation.rule_id, violation.message) == ("FIELD-MSEL-1", message)


def test_missing_scores_list_each_players_gaps_field_score_5():
    """FIELD-SCORE-5: what closing the night would count as no score, per checked-in player."""
    scored = {("A", 1), ("A", 2), ("B", 2)}
    assert missing_scores(["A", "B", "C"], [1, 2], scored) == {"B": [1], "C": [1, 2]}
    assert missing_scores(["A"], [1, 2], scored) == {}


@pytest.mark.parametrize(
    ("closing", "ended", "recorded"),
    [
        (time(23, 0), datetime(2018, 6, 5, 23, 0), True),  # ending at closing time still counts
        (time(23, 0), datetime(2018, 6, 5, 23, 1), False),
        (time(11, 59), datetime(2018, 6, 6, 11, 0), True),  # before noon: closes after midnight
        (time(12, 0), datetime(2018, 6, 5, 12, 1), False),  # noon closes on the meet date
        (time(12, 0, 30), datetime(2018, 6, 5, 13, 0), False),
        (time(12, 30), datetime(2018, 6, 5, 13, 0), False),
    ],
)
def test_closing_time_on_the_meet_date_field_att_2(closing, ended, recorded):
    """FIELD-ATT-2: a closing time before noon is after midnight; from noon on it is the meet date."""
    options = FieldOptions(closing_time=closing)
    if recorded:
        check_before_closing(ended, date(2018, 6, 5), options)
    else:
        violation = refused(check_before_closing, ended, date(2018, 6, 5), options)
        assert violation.rule_id == "FIELD-ATT-2"


def test_silence_refuses_a_correction_only_past_the_window_field_score_4():
    asked = datetime(2018, 6, 5, 21, 0, tzinfo=UTC)
    votes = [CorrectionVote("A", True)]
    at_48h = correction_state({"A", "B"}, votes, asked, asked + timedelta(hours=48), LPL)
    later = correction_state({"A", "B"}, votes, asked, asked + timedelta(hours=48, seconds=1), LPL)
    assert (at_48h, later) == (CorrectionState.PENDING, CorrectionState.REFUSED)


def test_official_edit_refusal_field_score_4():
    violation = refused(check_official_edit, CorrectionState.PENDING)
    assert (violation.rule_id, violation.message) == (
        "FIELD-SCORE-4",
        "LPL 6: every player in the group must confirm a score correction",
    )


def test_a_replacement_already_selected_tonight_is_refused_field_amb_12():
    """FIELD-MSEL-4 / FIELD-AMB-12: the replacement must not be one of the meet's machines already."""
    violation = refused(check_replacement, [1, 2, 3, 4, 5], [6, 2, 3, 4, 1], NAMES)
    assert violation.rule_id == "FIELD-AMB-12"
    assert violation.message == (
        "Machine 1 is already one of tonight's machines: the replacement for Machine 5 must be a machine not "
        "selected tonight."
    )


def test_a_replacement_refusal_names_unnamed_machines_by_number_field_amb_12():
    violation = refused(check_replacement, [1, 2, 3, 4, 5], [1, 5, 3, 4, 2], {})
    assert violation.message == (
        "5 is already one of tonight's machines: the replacement for 2 must be a machine not selected tonight."
    )


def test_a_machine_not_selected_tonight_may_replace_one_field_msel_4():
    """Unchanged slots are not replacements; a new machine in a changed slot is allowed."""
    check_replacement([1, 2, 3, 4, 5], [1, 2, 3, 4, 5], NAMES)
    check_replacement([1, 2, 3, 4, 5], [1, 2, 6, 4, 5], NAMES)


def test_dropping_a_slot_is_not_a_replacement_field_msel_4():
    """Only the slots both lists have are compared: a night cut to fewer machines changes no slot."""
    check_replacement([1, 2, 3, 4, 5], [1, 2, 3, 4], NAMES)


def test_voiding_a_slot_leaves_the_other_machines_field_amb_12():
    """FIELD-AMB-12: the voided slot's machine leaves the meet; the others count, in their order."""
    assert void_slot([1, 2, 6, 4, 5], 6, {3}, NAMES) == [1, 2, 4, 5]


def test_no_slot_is_voided_before_a_machine_is_declared_unplayable_field_amb_12():
    violation = refused(void_slot, [1, 2, 3, 4, 5], 3, set(), NAMES)
    assert violation.rule_id == "FIELD-AMB-12"
    assert violation.message == (
        "No machine was declared unplayable tonight: only the slot of a replacement can be voided "
        "(`/field malfunction unplayable:true`, then `/field night machines`)."
    )


def test_only_one_of_tonights_machines_can_be_voided_field_amb_12():
    violation = refused(void_slot, [1, 2, 6, 4, 5], 7, {3}, NAMES)
    assert violation.rule_id == "FIELD-AMB-12"
    assert violation.message == "Machine 7 is not one of tonight's machines."
    assert refused(void_slot, [1, 2, 6, 4, 5], 9, {3}, {}).message == "9 is not one of tonight's machines."
