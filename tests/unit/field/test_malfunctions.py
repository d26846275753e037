"""Field malfunctions and officials (bot/rules/field/malfunctions.py): FIELD-MALF-1..7, FIELD-OFF-1/2,
FIELD-AMB-18, FIELD-TV-18/20."""

import pytest

from bot.rules.field.malfunctions import (
    GROUP_REPLAYS,
    Incident,
    OfficialPresent,
    Outcome,
    Severity,
    SloChoice,
    catastrophic_outcome,
    check_replay_request,
    must_declare_unplayable,
    positive_malfunction,
    replayed,
    senior_league_official,
    severity,
)
from bot.rules.field.options import FieldOptions
from bot.rules.field.scoring import MachineScore, ScoreStatus, rank_machine
from bot.rules.refusals import RuleViolation


@pytest.mark.parametrize(
    "incident", [Incident.FORCED_TILT_STUCK_BALL, Incident.TURN_ENDED_WITH_BALL_IN_PLAY, Incident.BALL_LAUNCHED_EARLY]
)
def test_major_malfunctions_field_malf_1(incident):
    """FIELD-MALF-1; FIELD-MALF-7: the maintenance-log severity (COMMON-MALF-1)."""
    assert severity(incident, announced_before_play=False) is Severity.MAJOR
    assert severity(incident, announced_before_play=True) is Severity.MINOR


@pytest.mark.parametrize(
    "incident",
    [
        Incident.UNNECESSARY_TILT,
        Incident.MULTIBALL_ENDED_EARLY,
        Incident.AIRBALL,
        Incident.KICKBACK_FAILED,
        Incident.BALL_SAVER_FAILED,
        Incident.INTERFERENCE,
        Incident.STUCK_PLUNGED_EXTRA_BALL,
    ],
)
def test_not_major_field_malf_1_field_malf_6(incident):
    """FIELD-MALF-1; FIELD-MALF-6: a stuck plunged extra ball is tilted away, not major, record only."""
    assert severity(incident, announced_before_play=False) is Severity.MINOR
    with pytest.raises(RuleViolation):
        check_replay_request(Severity.MINOR, next_ball_started=False)


def test_replay_must_be_asked_before_the_next_ball_field_malf_2():
    check_replay_request(Severity.MAJOR, next_ball_started=False)
    with pytest.raises(RuleViolation) as refused:
        check_replay_request(Severity.MAJOR, next_ball_started=True)
    assert refused.value.rule_id == "FIELD-MALF-2"


def test_tv20_replay_scores_replace_even_when_lower_field_amb_18():
    """FIELD-TV-20 / FIELD-MALF-2 / FIELD-AMB-18: X 5,000,000 → 3,200,000; Y 8,000,000 → 9,100,000."""
    original = [MachineScore("X", 5_000_000), MachineScore("Y", 8_000_000)]
    scores = replayed(original, {"X": 3_200_000, "Y": 9_100_000})
    counted = [s for s in scores if s.status is not ScoreStatus.VOID]
    assert {s.player: s.score for s in counted} == {"X": 3_200_000, "Y": 9_100_000}
    result = rank_machine(scores, FieldOptions())
    assert result.points["Y"].total == 30 and result.points["X"].total == 24


def test_unplayable_when_every_first_ball_failed_field_malf_3():
    """FIELD-MALF-3: every player's first ball a major malfunction → unplayable for the meet."""
    assert must_declare_unplayable([True, True, True])
    assert not must_declare_unplayable([True, False, True])


def test_catastrophic_default_is_void_and_replay_field_malf_4():
    """FIELD-MALF-4: void and replay by default; the SLO may let scores stand; agreed scores are recorded."""
    assert catastrophic_outcome(slo_lets_stand=False, agreed_scores=False) == "void_and_replay"
    assert catastrophic_outcome(slo_lets_stand=True, agreed_scores=False) == "stand"
    assert catastrophic_outcome(slo_lets_stand=False, agreed_scores=True) == "agreed"
    assert severity(Incident.CATASTROPHIC, announced_before_play=True) is Severity.CATASTROPHIC


def test_positive_malfunctions_field_malf_5():
    """FIELD-MALF-5: unavoidable → new game; avoidable → logged, announced, replay at the SLO's discretion."""
    assert positive_malfunction(avoidable=False, unfair_advantage_gained=False) == "new_game"
    assert positive_malfunction(avoidable=True, unfair_advantage_gained=True) == "slo_may_replay"
    assert positive_malfunction(avoidable=True, unfair_advantage_gained=False) == "log_and_announce"
    assert severity(Incident.POSITIVE, announced_before_play=False) is Severity.POSITIVE


def test_tv18_senior_league_official_field_off_2():
    """FIELD-TV-18 / FIELD-OFF-2 / FIELD-OFF-1 (rank order President, VP, Statistician)."""
    present = [OfficialPresent("President", 0, 2), OfficialPresent("VP", 1, 4), OfficialPresent("Statistician", 2, 1)]
    assert senior_league_official(present, 2) == SloChoice("VP", involved=False)
    assert senior_league_official(present, 4) == SloChoice("President", involved=False)
    same_group = [OfficialPresent(o.name, o.rank, 3) for o in present]
    assert senior_league_official(same_group, 3) == SloChoice("President", involved=True)
    assert FieldOptions().officials == ("President", "Vice President", "Statistician")


@pytest.mark.parametrize(
    ("call", "rule_id", "message"),
    [
        (
            lambda: check_replay_request(Severity.MINOR, next_ball_started=False),
            "FIELD-MALF-1",
            "Only a major malfunction allows a replay; this one is played on.",
        ),
        (
            lambda: check_replay_request(Severity.MAJOR, next_ball_started=True),
            "FIELD-MALF-2",
            "The next ball was started before a replay was asked: the game continues as played.",
        ),
        (lambda: senior_league_official([], 1), "FIELD-OFF-2", "No league official is checked in to rule on this."),
    ],
)
def test_malfunction_refusals_say_why(call, rule_id, message):
    with pytest.raises(RuleViolation) as refused:
        call()
    assert (refused.value.rule_id, refused.value.message) == (rule_id, message)


def test_a_replay_voids_every_original_and_keeps_who_is_a_guest_field_malf_2_field_amb_18():
    """FIELD-MALF-2 / FIELD-AMB-18: the originals stay on record as void (same player, score and guest flag);
    the replay's scores count, a guest still a guest, a player new to the game a member."""
    original = [MachineScore("A", 9_000), MachineScore("G", 5_000, guest=True), MachineScore("C", 7_000)]
    assert replayed(original, {"A": 1_000, "G": 2_000, "N": 3_000}) == [
        MachineScore("A", 9_000, ScoreStatus.VOID),
        MachineScore("G", 5_000, ScoreStatus.VOID, guest=True),
        MachineScore("C", 7_000, ScoreStatus.VOID),
        MachineScore("A", 1_000),
        MachineScore("G", 2_000, guest=True),
        MachineScore("N", 3_000),
    ]


def test_rulings_are_outcomes_and_group_replays_replace_scores_field_malf_4_field_malf_5():
    """FIELD-MALF-2..5: every ruling string is an `Outcome`; the ones that replay the group's game are
    exactly the replay, the catastrophic default, a new game and the SLO's replay."""
    rulings = {
        catastrophic_outcome(slo_lets_stand=s, agreed_scores=a) for s in (True, False) for a in (True, False)
    } | {positive_malfunction(avoidable=v, unfair_advantage_gained=u) for v in (True, False) for u in (True, False)}
    assert {Outcome(r) for r in rulings} <= set(Outcome)
    assert {Outcome(r) for r in rulings} & GROUP_REPLAYS == {Outcome.VOID_AND_REPLAY, Outcome.NEW_GAME}
