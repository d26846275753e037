"""Field penalties (bot/rules/field/penalties.py): FIELD-PEN-1..12, FIELD-AMB-13/14/19, FIELD-TV-11."""

import pytest

from bot.rules.field.options import FieldOptions
from bot.rules.field.penalties import (
    Effect,
    GameCountFix,
    Offence,
    Penalty,
    VictimChoice,
    apply_sanctions,
    check_keep_order,
    distraction_answer,
    interference_count,
    interference_replay,
    reranked_wipes,
    sanctions,
    season_forfeits,
    slam_tilt_offence,
    victim_choice,
    wrong_game_count,
)
from bot.rules.field.scoring import MachineScore, ScoreStatus, rank_machine
from bot.rules.refusals import RuleViolation


def effects(*penalties: Penalty) -> list[Effect]:
    return [s.effect for s in sanctions(penalties)]


def test_tv11_opponent_ball_counts_per_meet_field_pen_2():
    """FIELD-TV-11 / FIELD-PEN-2: 1st offence no penalty, 2nd in the same meet zeroes the game; meet 4
    starts again."""
    t = "T"
    result = effects(
        Penalty(t, 3, Offence.OPPONENT_BALL, "M1"),
        Penalty(t, 3, Offence.OPPONENT_BALL, "M4"),
        Penalty(t, 4, Offence.OPPONENT_BALL, "M2"),
    )
    assert result == [Effect.NONE, Effect.GAME_ZERO, Effect.NONE]


def test_opponent_ball_victim_choices_field_amb_13():
    """FIELD-PEN-2 / FIELD-AMB-13: three options; silence → continue plus an additional ball; no
    compensation for a plunged extra ball."""
    assert victim_choice(None, plunged_extra_ball=False) is VictimChoice.ADDITIONAL_BALL
    assert victim_choice(VictimChoice.REPLAY, plunged_extra_ball=False) is VictimChoice.REPLAY
    assert victim_choice(None, plunged_extra_ball=True) is None
    with pytest.raises(RuleViolation):
        victim_choice(VictimChoice.REPLAY, plunged_extra_ball=True)


def test_interference_ladder_is_cumulative_over_the_season_field_pen_3():
    """FIELD-PEN-3: 1st and 2nd forfeit the game, 3rd the match, 4th the season (and suspension)."""
    p = [Penalty("X", week, Offence.INTERFERENCE, "M1") for week in (1, 2, 5, 7)]
    assert effects(*p) == [Effect.GAME_FORFEIT, Effect.GAME_FORFEIT, Effect.MATCH_FORFEIT, Effect.SEASON_FORFEIT]
    all_sanctions = sanctions(p)
    assert season_forfeits(all_sanctions) == {"X"}


def test_automatic_escalations_field_pen_4():
    """FIELD-PEN-4 / FIELD-AMB-14: ejection = max(count + 1, 3); violence = max(count + 1, 4)."""
    assert interference_count(0, Offence.EJECTION) == 3
    assert interference_count(3, Offence.EJECTION) == 4
    assert interference_count(0, Offence.VIOLENCE) == 4
    assert effects(Penalty("X", 2, Offence.EJECTION)) == [Effect.MATCH_FORFEIT]
    assert effects(Penalty("X", 2, Offence.VIOLENCE)) == [Effect.SEASON_FORFEIT]


def test_an_ejection_forfeits_every_game_of_that_meet_field_amb_14():
    meet = [("M1", MachineScore("X", 500)), ("M2", MachineScore("X", 900)), ("M1", MachineScore("Y", 100))]
    applied = apply_sanctions(meet, 2, sanctions([Penalty("X", 2, Offence.EJECTION)]))
    assert [s.status for _, s in applied] == [ScoreStatus.FORFEITED, ScoreStatus.FORFEITED, ScoreStatus.NORMAL]
    assert apply_sanctions(meet, 3, sanctions([Penalty("X", 2, Offence.EJECTION)])) == meet


def test_death_save_zeroes_and_ranks_last_field_pen_9():
    """FIELD-PEN-9: a successful death save or bangback → machine score 0 (ranked, FIELD-SCORE-6)."""
    meet = [("M3", MachineScore("U", 9_000)), ("M3", MachineScore("V", 10))]
    applied = apply_sanctions(meet, 1, sanctions([Penalty("U", 1, Offence.DEATH_SAVE, "M3")]))
    result = rank_machine([s for _, s in applied], FieldOptions())
    assert result.points["U"].rank == 2 and result.points["V"].total == 30


def test_game_penalties_must_name_the_machine_field_pen_3():
    with pytest.raises(RuleViolation) as refused:
        sanctions([Penalty("X", 1, Offence.INTERFERENCE)])
    assert refused.value.rule_id == "FIELD-PEN-3"


def test_cheating_suspends_field_pen_10():
    """FIELD-PEN-10: cheating → immediate suspension (COMMON-PLAYER-2, recorded in the discipline ledger)."""
    assert [s.effect for s in sanctions([Penalty("X", 1, Offence.CHEATING)])] == [Effect.SUSPENSION]


@pytest.mark.parametrize(
    "offence",
    [Offence.OWN_EXTRA_BALL, Offence.SLOW_PLAY, Offence.WRONG_GAME_COUNT, Offence.DISTRACTION, Offence.OUT_OF_ORDER],
)
def test_record_only_offences_field_pen_1_field_pen_11(offence):
    """FIELD-PEN-1 (own extra ball), FIELD-PEN-11 (slow play), FIELD-PEN-7, FIELD-PEN-12, FIELD-PEN-8 (out of
    order: keep or restart, no score penalty): recorded only."""
    assert effects(Penalty("X", 1, offence)) == [Effect.NONE]


def test_slam_tilts_field_pen_6():
    """FIELD-PEN-6: intentional = interference (and catastrophic); accidental = catastrophic only."""
    assert slam_tilt_offence(intentional=True) is Offence.INTERFERENCE
    assert slam_tilt_offence(intentional=False) is None


def test_interference_victim_replay_field_pen_5():
    """FIELD-PEN-5: a replay only if asked before the next player starts."""
    assert interference_replay(asked_before_next_player=True)
    assert not interference_replay(asked_before_next_player=False)


def test_wrong_number_of_games_field_pen_7():
    assert wrong_game_count(4, 3, can_add=False) is GameCountFix.PLUNGE_EXTRA
    assert wrong_game_count(2, 3, can_add=True) is GameCountFix.ADD_GAMES
    assert wrong_game_count(2, 3, can_add=False) is GameCountFix.RESTART
    assert wrong_game_count(3, 3, can_add=False) is None


def test_out_of_order_keep_only_from_the_start_field_pen_8():
    """FIELD-PEN-8: "Out-of-order play can only continue if it began at the start of the game"."""
    check_keep_order(wrong_since_start=True)
    with pytest.raises(RuleViolation) as refused:
        check_keep_order(wrong_since_start=False)
    assert "began at the start of the game" in refused.value.message


def test_distractions_have_no_remedy_field_pen_12():
    assert "no remedy" in distraction_answer() and "3.7" in distraction_answer()


def test_a_wiped_season_keeps_others_points_unless_recomputed_field_amb_19():
    """FIELD-AMB-19: by default the wiped player's scores still rank on that night's machines; wiped at a meet
    played under `recompute_on_wipe`, they leave the ranking of every meet and the others move up."""
    meet = [("M1", MachineScore("X", 900)), ("M1", MachineScore("Y", 100))]
    wipe = sanctions([Penalty("X", 5, Offence.VIOLENCE)])  # automatic fourth offence: season forfeited
    kept = rank_machine([s for _, s in apply_sanctions(meet, 1, wipe)], FieldOptions())
    assert kept.points["Y"].total == 24
    assert reranked_wipes(wipe, lambda meet: meet == 4) == set()
    reranked = reranked_wipes(wipe, lambda meet: meet == 5)
    recomputed = rank_machine([s for _, s in apply_sanctions(meet, 1, wipe, reranked=reranked)], FieldOptions())
    assert recomputed.points["Y"].total == 30 and "X" not in recomputed.points


def test_each_sanction_keeps_its_penalty_and_the_offenders_count_field_pen_2_field_pen_3_field_pen_4():
    """FIELD-PEN-2/3/4/9/10: the sanction list says, per penalty, its effect and the count after it."""
    given = [
        Penalty("X", 1, Offence.INTERFERENCE, "M1"),
        Penalty("X", 1, Offence.OPPONENT_BALL, "M2"),
        Penalty("X", 1, Offence.OPPONENT_BALL, "M3"),
        Penalty("X", 2, Offence.DEATH_SAVE, "M1"),
        Penalty("X", 2, Offence.SLOW_PLAY),
        Penalty("X", 3, Offence.INTERFERENCE, "M4"),
        Penalty("X", 4, Offence.EJECTION),
        Penalty("X", 5, Offence.INTERFERENCE, "M2"),
        Penalty("X", 6, Offence.VIOLENCE),  # after four: the fifth, not "at least the fourth"
        Penalty("Y", 6, Offence.CHEATING),
    ]
    assert [(s.penalty, s.effect, s.count) for s in sanctions(given)] == [
        (given[0], Effect.GAME_FORFEIT, 1),
        (given[1], Effect.NONE, 1),
        (given[2], Effect.GAME_ZERO, 2),
        (given[3], Effect.GAME_ZERO, 1),
        (given[4], Effect.NONE, 1),
        (given[5], Effect.GAME_FORFEIT, 2),
        (given[6], Effect.MATCH_FORFEIT, 3),
        (given[7], Effect.SEASON_FORFEIT, 4),
        (given[8], Effect.SEASON_FORFEIT, 5),
        (given[9], Effect.SUSPENSION, 1),
    ]


def test_sanctions_rewrite_only_their_own_meets_scores_field_score_6():
    """FIELD-SCORE-6 / FIELD-PEN-2/3/9: a zeroed game scores 0 and still ranks; a forfeited game scores 0 and
    has no rank; a void score stays as it is; sanctions of other meets, listed first, change nothing here."""
    all_sanctions = sanctions(
        [
            Penalty("Z", 1, Offence.DEATH_SAVE, "M1"),
            Penalty("X", 2, Offence.INTERFERENCE, "M1"),
            Penalty("Y", 2, Offence.DEATH_SAVE, "M2"),
        ]
    )
    meet = [
        ("M1", MachineScore("X", 500)),
        ("M2", MachineScore("X", 700)),
        ("M2", MachineScore("Y", 900)),
        ("M1", MachineScore("Y", 300)),
        ("M1", MachineScore("Z", 200, ScoreStatus.VOID)),
        ("M1", MachineScore("Z", 250)),
    ]
    assert apply_sanctions(meet, 2, all_sanctions) == [
        ("M1", MachineScore("X", 0, ScoreStatus.FORFEITED)),
        ("M2", MachineScore("X", 700)),
        ("M2", MachineScore("Y", 0, ScoreStatus.ZEROED)),
        ("M1", MachineScore("Y", 300)),
        ("M1", MachineScore("Z", 200, ScoreStatus.VOID)),
        ("M1", MachineScore("Z", 250)),
    ]


@pytest.mark.parametrize(
    ("call", "rule_id", "message"),
    [
        (
            lambda: sanctions([Penalty("X", 1, Offence.DEATH_SAVE)]),
            "FIELD-PEN-9",
            "Name the machine: this penalty changes that game's score.",
        ),
        (
            lambda: victim_choice(VictimChoice.REPLAY, plunged_extra_ball=True),
            "FIELD-PEN-2",
            "The ball was a plunged extra ball: there is no compensation.",
        ),
        (
            lambda: check_keep_order(wrong_since_start=False),
            "FIELD-PEN-8",
            "Out-of-order play can only continue if it began at the start of the game. Restart in scoresheet order.",
        ),
    ],
)
def test_penalty_refusals_say_why(call, rule_id, message):
    with pytest.raises(RuleViolation) as refused:
        call()
    assert (refused.value.rule_id, refused.value.message) == (rule_id, message)


def test_the_distraction_ruling_text_field_pen_12():
    assert distraction_answer() == (
        "Distractions, including a non-league customer playing your ball, are normal play conditions: "
        "no remedy (LPL 3.6, 3.7)."
    )
