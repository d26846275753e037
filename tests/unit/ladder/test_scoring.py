"""Ladder game points, normalized scores and match bonus (bot/rules/ladder/scoring.py).

LADDER-SCORE-*, LADDER-GHOST-2/4/5, LADDER-NORM-*, LADDER-BONUS-*, LADDER-AMB-1..6/9/10/25/28/31.
"""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.scoring import (
    EntryKind,
    GameEntry,
    GameResult,
    NightLine,
    TieNeedsPlayoff,
    ans,
    check_normalizer,
    game_points,
    match_bonus,
    match_order,
    normalized,
    players_in_a_tie,
    round10,
    show,
    week_tns,
)
from bot.rules.refusals import InvalidInput, RuleViolation
from tests.unit.ladder.helpers import refused

M = 1_000_000
OPTIONS = LadderOptions()
N = 50 * M  # a normalizer large enough to stay out of the way


def played(player: int, score: int, rank: int = 0) -> GameEntry:
    return GameEntry(player, EntryKind.PLAYED, score, rank or player)


def entry(player: int, kind: EntryKind, placement: int, rank: int = 0) -> GameEntry:
    return GameEntry(player, kind, placement, rank or player)


def points(*entries: GameEntry, normalizer: int = N, options: LadderOptions = OPTIONS, playoff=()) -> dict[int, int]:
    result = game_points(entries, normalizer=normalizer, options=options, playoff_order=playoff)
    assert isinstance(result, GameResult)
    return dict(result.points)


# --- Game points (LADDER-SCORE-1) ----------------------------------------------------------------------


def test_tv1_three_player_decisive_first_gets_the_point():
    """LADDER-TV-1 / LADDER-SCORE-1: 50 > 25 + 20 → P 4, R 2, Q 0."""
    result = game_points([played(1, 50 * M), played(2, 20 * M), played(3, 25 * M)], normalizer=N, options=OPTIONS)
    assert isinstance(result, GameResult)
    assert result.order == (1, 3, 2)
    assert dict(result.points) == {1: 4, 3: 2, 2: 0}


def test_tv2_three_player_close_and_exact_equality_go_to_third():
    """LADDER-TV-2 / LADDER-AMB-3: 40 > 45 no → 3-2-1; 45 = 25 + 20 is not "more than" → 3-2-1."""
    assert points(played(1, 40 * M), played(2, 25 * M), played(3, 20 * M)) == {1: 3, 2: 2, 3: 1}
    assert points(played(1, 45 * M), played(2, 25 * M), played(3, 20 * M)) == {1: 3, 2: 2, 3: 1}


def test_tv3_two_player_tripling():
    """LADDER-TV-3 / LADDER-AMB-1: base 3-0, +1 to 1st if s1 ≥ 3 × s2, else to 2nd."""
    assert points(played(1, 30_000_000), played(2, 10_000_000)) == {1: 4, 2: 0}
    assert points(played(1, 29_990_000), played(2, 10_000_000)) == {1: 3, 2: 1}


def test_tv4_four_player_game():
    """LADDER-TV-4 / LADDER-AMB-2: base 3-2-1-0 with two decisive points."""
    assert points(played(1, 100 * M), played(2, 40 * M), played(3, 30 * M), played(4, 5 * M)) == {
        1: 4,
        2: 3,
        3: 1,
        4: 0,
    }
    assert points(played(1, 60 * M), played(2, 40 * M), played(3, 30 * M), played(4, 20 * M)) == {
        1: 3,
        2: 2,
        3: 2,
        4: 1,
    }


def test_four_player_second_point_equality_goes_to_fourth():
    """LADDER-SCORE-1 / LADDER-AMB-3: 2nd = 3rd + 4th is not "more than" → the point goes to 4th."""
    assert points(played(1, 100 * M), played(2, 30 * M), played(3, 20 * M), played(4, 10 * M)) == {
        1: 4,
        2: 2,
        3: 1,
        4: 1,
    }


@given(
    st.lists(st.integers(min_value=0, max_value=10**9), min_size=2, max_size=4, unique=True),
)
def test_points_add_up_to_4_6_8(scores):
    """LADDER-SCORE-1 check: points in a game add up to 4 / 6 / 8 for 2 / 3 / 4 present players."""
    result = game_points([played(i + 1, s) for i, s in enumerate(scores)], normalizer=N, options=OPTIONS)
    assert isinstance(result, GameResult)
    assert sum(result.points.values()) == {2: 4, 3: 6, 4: 8}[len(scores)]
    assert result.voided == 0


@given(
    st.lists(st.integers(min_value=0, max_value=10**9), min_size=2, max_size=4, unique=True),
    st.data(),
)
def test_points_with_absentees_still_add_up_counting_voided(scores, data):
    """LADDER-SCORE-1 check / LADDER-GHOST-5: voided points (to absentees with official 0 or the premakeup 4th
    point) make up the difference, so points + voided is always 4 / 6 / 8 — except the GHOST-2 case."""
    kinds = data.draw(st.lists(st.sampled_from(list(EntryKind)), min_size=len(scores), max_size=len(scores)))
    entries = [GameEntry(i + 1, kind, s, i + 1) for i, (kind, s) in enumerate(zip(kinds, scores, strict=True))]
    result = game_points(entries, normalizer=N, options=OPTIONS)
    assert isinstance(result, GameResult)
    total = sum(result.points.values()) + result.voided
    half_ghost_duel = len(scores) == 2 and sorted(kinds).count(EntryKind.HALF_GHOST) == 1
    if not half_ghost_duel or EntryKind.REGIME_GHOST in kinds:
        assert total == {2: 4, 3: 6, 4: 8}[len(scores)]
    for e in entries:
        if e.kind.absent and e.official == 0:
            assert result.points[e.player] == 0  # LADDER-SCORE-3 Zero Point Rule


def test_a_game_needs_two_to_four_players():
    """LADDER-SCORE-1: only 2-, 3- and 4-player games are defined."""
    with pytest.raises(InvalidInput):
        game_points([played(1, 5)], normalizer=N, options=OPTIONS)


# --- Premakeup 1st place (LADDER-SCORE-2, LADDER-AMB-4) ------------------------------------------------


def test_tv10_premakeup_first_never_gets_the_fourth_point():
    """LADDER-TV-10 / LADDER-SCORE-2 / LADDER-AMB-4: P (premakeup) 90 > 50 → point void: P 3, Q 2, R 0."""
    result = game_points(
        [entry(1, EntryKind.PREMAKEUP, 90 * M), played(2, 30 * M), played(3, 20 * M)], normalizer=N, options=OPTIONS
    )
    assert isinstance(result, GameResult)
    assert dict(result.points) == {1: 3, 2: 2, 3: 0}
    assert result.voided == 1
    to_third = LadderOptions(pmu_4th_point="to_third")
    assert points(entry(1, EntryKind.PREMAKEUP, 90 * M), played(2, 30 * M), played(3, 20 * M), options=to_third) == {
        1: 3,
        2: 2,
        3: 1,
    }


def test_premakeup_rule_only_covers_the_first_place_point():
    """LADDER-AMB-4: a premakeup 2nd in a 4-player game still earns the 2nd-place point."""
    assert points(played(1, 100 * M), entry(2, EntryKind.PREMAKEUP, 40 * M), played(3, 30 * M), played(4, 5 * M)) == {
        1: 4,
        2: 3,
        3: 1,
        4: 0,
    }


def test_premakeup_first_not_decisive_gives_third_its_point():
    """LADDER-SCORE-2: without a decisive win nothing is voided; the point goes to 3rd as usual."""
    assert points(entry(1, EntryKind.PREMAKEUP, 40 * M), played(2, 30 * M), played(3, 20 * M)) == {1: 3, 2: 2, 3: 1}


def test_premakeup_wins_a_two_player_game_by_tripling():
    """LADDER-SCORE-2 in a 2-player game: the tripling point is void by default."""
    assert points(entry(1, EntryKind.PREMAKEUP, 90 * M), played(2, 10 * M)) == {1: 3, 2: 0}


# --- Zero Point Rule and ghosts (LADDER-SCORE-3, LADDER-GHOST-2/4/5) ------------------------------------


def test_tv8_half_normalizer_ghost_in_a_two_player_game():
    """LADDER-TV-8 / LADDER-GHOST-2 / LADDER-AMB-9: B gets 3 automatically, 4 at ≥ 1.5 × normalizer."""
    ghost = entry(1, EntryKind.HALF_GHOST, 25 * M)
    assert points(ghost, played(2, 70 * M), normalizer=50 * M) == {1: 0, 2: 3}
    assert points(ghost, played(2, 75 * M), normalizer=50 * M) == {1: 0, 2: 4}
    assert points(ghost, played(2, 20 * M), normalizer=50 * M) == {1: 0, 2: 3}


def test_tv9_two_ghosts_ordered_by_league_rank_points_to_no_one():
    """LADDER-TV-9 / LADDER-GHOST-4 / LADDER-GHOST-5: A (#3) ahead of D (#7); D's 3rd-place point is lost."""
    a = entry(1, EntryKind.HALF_GHOST, 25 * M, rank=3)
    d = entry(4, EntryKind.HALF_GHOST, 25 * M, rank=7)
    result = game_points([d, played(3, 40 * M, rank=1), a, played(5, 10 * M, rank=2)], normalizer=N, options=OPTIONS)
    assert isinstance(result, GameResult)
    assert result.order == (3, 1, 4, 5)
    assert dict(result.points) == {3: 3, 1: 0, 4: 0, 5: 1}
    assert result.voided == 4  # A's 2 and D's 1 + 1


def test_absent_level_with_present_player_goes_behind():
    """LADDER-AMB-10: an absent player's placement equal to a present score places behind it."""
    result = game_points(
        [entry(1, EntryKind.PREMAKEUP, 30 * M, rank=1), played(2, 30 * M, rank=9), played(3, 10 * M)],
        normalizer=N,
        options=OPTIONS,
    )
    assert isinstance(result, GameResult)
    assert result.order == (2, 1, 3)


def test_zero_point_rule_for_absent_without_premakeup():
    """LADDER-SCORE-3 / LADDER-GHOST-1: a ghost placed first still scores 0; its points go to no one."""
    result = game_points(
        [entry(1, EntryKind.HALF_GHOST, 25 * M), played(2, 10 * M), played(3, 5 * M)], normalizer=N, options=OPTIONS
    )
    assert isinstance(result, GameResult)
    assert result.order == (1, 2, 3)
    assert dict(result.points) == {1: 0, 2: 2, 3: 0}
    assert result.voided == 4  # the ghost's 3 and its decisive point (25 > 10 + 5)


def test_regime_ghost_in_two_player_game_scores_as_if_present():
    """LADDER-GHOST-3: no automatic 3 in the ghost regime: the game is scored normally, the ghost's points void."""
    assert points(entry(1, EntryKind.REGIME_GHOST, 20 * M), played(2, 30 * M)) == {1: 0, 2: 3}
    assert points(entry(1, EntryKind.REGIME_GHOST, 10 * M), played(2, 30 * M)) == {1: 0, 2: 4}


def test_score_zeroed_by_penalty_is_placed_by_that_zero():
    """LADDER-SCORE-4: a zeroed score is a played 0, placed last."""
    assert points(played(1, 0), played(2, 10 * M), played(3, 20 * M)) == {3: 4, 2: 2, 1: 0}


def test_equal_present_scores_wait_for_a_one_ball_playoff():
    """LADDER-SCORE-5 / LADDER-AMB-5: the game's points wait for the playoff order, then follow it."""
    tied = [played(1, 20 * M), played(2, 20 * M), played(3, 5 * M)]
    waiting = game_points(tied, normalizer=N, options=OPTIONS)
    assert waiting == TieNeedsPlayoff((1, 2))
    assert points(*tied, playoff=(2, 1)) == {2: 3, 1: 2, 3: 1}


# --- Normalized scores (LADDER-NORM-*) -----------------------------------------------------------------


def test_normalized_scores_from_the_sheet():
    """LADDER-NORM-1: 3B on AFM with N = 1B → 3.0; 75M on TAF with N = 50M → 1.5, shown to 4 decimals."""
    assert normalized(3_000_000_000, 1_000_000_000) == 3
    assert normalized(75 * M, 50 * M) == Fraction(3, 2)
    assert show(normalized(10 * M, 3 * M)) == "3.3333"


def test_machine_without_normalizer_cannot_join_the_nightly_set():
    """LADDER-NORM-1 / LADDER-AMB-28: the commissioner enters normalizers; none or ≤ 0 is refused."""
    with pytest.raises(RuleViolation, match="Set a normalizer for TAF first") as refused:
        check_normalizer("TAF", None)
    assert refused.value.rule_id == "LADDER-NORM-1"
    with pytest.raises(RuleViolation):
        check_normalizer("TAF", 0)
    assert check_normalizer("TAF", 50 * M) == 50 * M


def test_tns_sums_normalized_official_scores():
    """LADDER-NORM-2 / LADDER-AMB-25: premakeups count, ghost and official zeros count 0."""
    assert week_tns([(75 * M, 50 * M), (3_000_000_000, 1_000_000_000), (0, 50 * M)]) == Fraction(9, 2)


def test_ans_averages_weeks_with_a_tns_record():
    """LADDER-NORM-3 / LADDER-AMB-25: weeks without a TNS record are not averaged; none yet → 0."""
    assert ans([Fraction(4), Fraction(6)]) == 5
    assert ans([]) == 0


# --- Match bonus (LADDER-BONUS-*, LADDER-NORM-4) -------------------------------------------------------


def line(player: int, pts: int, tns: float | Fraction = 0, rank: int = 0, absent: bool = False) -> NightLine:
    return NightLine(player, pts, Fraction(tns).limit_denominator(1000), rank or player, absent)


def test_tv11_three_player_match_bonus():
    """LADDER-TV-11 / LADDER-BONUS-2 / LADDER-BONUS-4: bonus and week TLP = game points + bonus."""
    result = match_bonus([line(1, 17), line(2, 8), line(3, 5)], OPTIONS)
    assert dict(result.bonus) == {1: 4, 2: 2, 3: 0}
    assert dict(result.week_tlp) == {1: 21, 2: 10, 3: 5}
    tied = match_bonus([line(1, 12), line(3, 9, 4.8), line(2, 9, 5.2)], OPTIONS)
    assert tied.order == (1, 2, 3)  # LADDER-BONUS-1 "Case 1" / LADDER-NORM-4: Y is 2nd on TNS
    assert dict(tied.bonus) == {1: 3, 2: 2, 3: 1}
    assert dict(tied.week_tlp) == {1: 15, 2: 11, 3: 10}
    assert (tied.winner, tied.loser) == (1, 3)


def test_tv12_case2_exact_equality_goes_to_tns():
    """LADDER-TV-12 / LADDER-BONUS-3 / LADDER-AMB-3: 15 = 9 + 6; TNS 5.0 > 5.5 no → Y (higher TNS) gets it."""
    lines = [line(1, 15, 5.0), line(2, 9, 3.5), line(3, 6, 2.0)]
    assert dict(match_bonus(lines, OPTIONS).bonus) == {1: 3, 2: 3, 3: 0}
    assert dict(match_bonus(lines, LadderOptions(case2="case2_to_third")).bonus) == {1: 3, 2: 2, 3: 1}
    strong = [line(1, 15, 6.1), line(2, 9, 3.5), line(3, 6, 2.0)]
    assert dict(match_bonus(strong, OPTIONS).bonus) == {1: 4, 2: 2, 3: 0}


def test_case2_literal_gives_the_point_to_third_when_third_has_the_higher_tns():
    """LADDER-BONUS-3: "whichever of 2nd/3rd has the higher week TNS" can be 3rd."""
    lines = [line(1, 15, 5.0), line(2, 9, 2.0), line(3, 6, 3.5)]
    assert dict(match_bonus(lines, OPTIONS).bonus) == {1: 3, 2: 2, 3: 1}


def test_tv13_four_player_match_bonus():
    """LADDER-TV-13 / LADDER-BONUS-2: three extra points, the third only with voided game points."""
    result = match_bonus([line(1, 20), line(2, 12), line(3, 5), line(4, 2)], OPTIONS)
    assert dict(result.bonus) == {1: 5, 2: 3, 3: 1, 4: 0}
    assert dict(result.week_tlp) == {1: 25, 2: 15, 3: 6, 4: 2}
    even = match_bonus([line(1, 14), line(2, 12), line(3, 8), line(4, 6)], OPTIONS)
    assert dict(even.bonus) == {1: 3, 2: 2, 3: 2, 4: 1}


def test_four_player_exact_equalities_use_the_tns_test():
    """LADDER-AMB-31: 1st = 2nd + 3rd and 2nd = 3rd + 4th are settled by the same TNS comparisons."""
    wins = [line(1, 14, 9.0), line(2, 8, 4.0), line(3, 6, 2.0), line(4, 2, 1.0)]
    assert dict(match_bonus(wins, OPTIONS).bonus) == {1: 4, 2: 3, 3: 1, 4: 0}
    loses = [line(1, 14, 5.0), line(2, 8, 2.0), line(3, 6, 3.0), line(4, 2, 1.0)]
    assert dict(match_bonus(loses, OPTIONS).bonus) == {1: 3, 2: 2, 3: 2, 4: 1}
    # 1st = 2nd + 3rd + 4th: the extra winner's point only when the TNS test passes
    sweep = [line(1, 12, 9.0), line(2, 6, 2.5), line(3, 4, 1.0), line(4, 2, 1.0)]
    assert dict(match_bonus(sweep, OPTIONS).bonus) == {1: 5, 2: 3, 3: 1, 4: 0}
    no_sweep = [line(1, 12, 3.0), line(2, 6, 1.0), line(3, 4, 1.0), line(4, 2, 1.0)]
    assert dict(match_bonus(no_sweep, OPTIONS).bonus) == {1: 4, 2: 2, 3: 1, 4: 1}


def test_tv14_two_player_match_bonus():
    """LADDER-TV-14 / LADDER-BONUS-2 / LADDER-AMB-1: U 16 ≥ 12 → 4-0; 11 ≥ 27 no → 3-1."""
    assert dict(match_bonus([line(1, 16), line(2, 4)], OPTIONS).bonus) == {1: 4, 2: 0}
    assert dict(match_bonus([line(1, 11), line(2, 9)], OPTIONS).bonus) == {1: 3, 2: 1}


def test_ties_on_points_and_tns_fall_back_to_league_rank():
    """LADDER-BONUS-1: level on points and TNS, the better league rank finishes ahead."""
    assert match_order([line(1, 10, 2.0, rank=5), line(2, 10, 2.0, rank=2)]) == (2, 1)


def test_no_bonus_for_a_player_absent_all_night_without_premakeups():
    """LADDER-GHOST-5 applied to the match: points that fall to a player who took no part go to no one."""
    # 2nd = 3rd + 4th with equal TNS: the 4th's point would go to the absentee
    lines = [line(1, 12, 3.0), line(2, 8, 1.0), line(3, 8, 1.0), line(4, 0, absent=True)]
    assert dict(match_bonus(lines, OPTIONS).bonus) == {1: 3, 2: 2, 3: 2, 4: 0}


def test_round10_halves_round_up_by_default():
    """LADDER-AMB-6: nearest 10, exact halves up; `round_half=even` available."""
    assert round10(Fraction(17_901_225)) == 17_901_230
    assert round10(Fraction(17_901_225), half="even") == 17_901_220
    assert round10(Fraction(3_234_567, 2)) == 1_617_280
    assert round10(14) == 10
    assert round10(15) == 20


def test_an_absent_zero_facing_a_half_ghost_scores_nothing():
    """LADDER-SCORE-3 / LADDER-GHOST-2: a premakeup of 0 against a half-normalizer ghost still earns no points
    (found by the property test above: the duel branch once gave the 0 three points)."""
    result = game_points(
        [entry(1, EntryKind.PREMAKEUP, 0), entry(2, EntryKind.HALF_GHOST, 1)], normalizer=N, options=OPTIONS
    )
    assert isinstance(result, GameResult)
    assert result.points == {1: 0, 2: 0}
    assert result.voided == 3


# --- Edges the sheet's examples leave open -------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "half", "expected"),
    [
        (25, "even", 20),  # LADDER-AMB-6: half on an even ten stays
        (35, "even", 40),  # ... and on an odd ten goes up to the even one
        (45, "even", 40),
        (25, "up", 30),
        (35, "up", 40),
    ],
)
def test_round10_even_halves_go_to_the_even_ten(value, half, expected):
    """LADDER-AMB-6 / LADDER-PMU-2: `round_half=even` sends an exact half to the nearest even multiple of 20."""
    assert round10(value, half=half) == expected


def test_only_present_players_level_with_each_other_can_ask_for_a_playoff():
    """LADDER-AMB-5: a one-ball playoff is for present players level on score; an absent player level with them,
    or a lone present score, takes no part."""
    entries = [
        played(1, 30 * M),
        played(2, 30 * M),
        played(3, 10 * M),
        entry(4, EntryKind.PREMAKEUP, 10 * M),
    ]
    assert players_in_a_tie(entries) == {1, 2}
    ghosts_level = [played(1, 30 * M), entry(2, EntryKind.HALF_GHOST, 5 * M), entry(3, EntryKind.HALF_GHOST, 5 * M)]
    assert players_in_a_tie(ghosts_level) == frozenset()


def test_a_game_of_five_is_refused_with_its_size():
    """LADDER-SCORE-1: the refusal says what was wrong."""
    with pytest.raises(InvalidInput, match="2 to 4 players, not 5"):
        game_points([played(i, i * M) for i in range(1, 6)], normalizer=N, options=OPTIONS)


def test_four_player_premakeup_first_to_third_adds_to_third_s_place_points():
    """LADDER-SCORE-2 / LADDER-AMB-4 `to_third`: in a 4-player game the 3rd already has 1 point; it gets 2."""
    to_third = LadderOptions(pmu_4th_point="to_third")
    game = [entry(1, EntryKind.PREMAKEUP, 100 * M), played(2, 40 * M), played(3, 30 * M), played(4, 5 * M)]
    assert points(*game, options=to_third) == {1: 3, 2: 3, 3: 2, 4: 0}


def test_premakeup_beating_a_half_ghost_by_one_and_a_half_normalizers_voids_one_point():
    """LADDER-GHOST-2 / LADDER-SCORE-2: the 4th point of the duel is void for a premakeup, exactly one point."""
    result = game_points(
        [entry(1, EntryKind.HALF_GHOST, 25 * M), entry(2, EntryKind.PREMAKEUP, 80 * M)],
        normalizer=50 * M,
        options=OPTIONS,
    )
    assert isinstance(result, GameResult)
    assert result.order == (2, 1)
    assert dict(result.points) == {2: 3, 1: 0}
    assert result.voided == 1


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        # 50 = 30 + 20 is not "more than": the point goes to 3rd (LADDER-AMB-3)
        ((50, 30, 20, 5), {1: 3, 2: 3, 3: 2, 4: 0}),
        # 50 > 2 × 20 but not > 40 + 20: still 3rd's point
        ((50, 40, 20, 5), {1: 3, 2: 3, 3: 2, 4: 0}),
    ],
)
def test_four_player_first_place_point_needs_more_than_2nd_plus_3rd(scores, expected):
    """LADDER-SCORE-1 / LADDER-AMB-2: 1st's extra point only for more than 2nd + 3rd combined."""
    assert points(*(played(i + 1, s * M) for i, s in enumerate(scores))) == expected


def test_a_normalizer_of_one_is_positive():
    """LADDER-NORM-1: any positive score is a normalizer; 0 and below are refused, citing the rule."""
    assert check_normalizer("TAF", 1) == 1
    with refused("LADDER-NORM-1", "The normalizer for TAF must be a positive score"):
        check_normalizer("TAF", 0)
    with refused("LADDER-NORM-1", "The normalizer for this machine must be a positive score"):
        normalized(5 * M, -1)


def test_a_group_of_five_is_refused_with_its_size():
    """LADDER-GROUP-1: the match bonus is for groups of 2 to 4; the refusal says how many there were."""
    with pytest.raises(InvalidInput, match="2 to 4 players, not 1"):
        match_bonus([line(1, 10)], OPTIONS)


@pytest.mark.parametrize(
    ("winner", "expected"),
    [
        (6, {1: 4, 2: 0}),  # exactly 3 × the loser's 2: "at least" triple gets it (LADDER-AMB-1)
        (7, {1: 4, 2: 0}),
        (5, {1: 3, 2: 1}),
    ],
)
def test_two_player_match_bonus_at_exactly_triple(winner, expected):
    """LADDER-BONUS-2 / LADDER-AMB-1: the winner's extra point at 3 × the loser's week points or more."""
    assert dict(match_bonus([line(1, winner), line(2, 2)], OPTIONS).bonus) == expected


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # 5 < 4 + 2 (though 5 > 2 × 2): 3rd gets the point whatever the TNS (LADDER-BONUS-3)
        ([line(1, 5, 0.1), line(2, 4, 3.0), line(3, 2, 1.0)], {1: 3, 2: 2, 3: 1}),
        # 6 = 4 + 2 and TNS 3.0 = 2.0 + 1.0 exactly: not "more than", the higher TNS of 2nd/3rd gets it
        ([line(1, 6, 3.0), line(2, 4, 2.0), line(3, 2, 1.0)], {1: 3, 2: 3, 3: 0}),
        # ... and 2nd and 3rd level on TNS: 2nd keeps it
        ([line(1, 6, 1.0), line(2, 4, 2.0), line(3, 2, 2.0)], {1: 3, 2: 3, 3: 0}),
    ],
)
def test_three_player_case2_edges(lines, expected):
    """LADDER-BONUS-3 "Case 2" / LADDER-AMB-3 `case2_literal`."""
    assert dict(match_bonus(lines, OPTIONS).bonus) == expected


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # 6 = 4 + 2; TNS 0.8 > 0.1 + 0.5 → 1st's point (though not > 2 × 0.5), and the sweep point (6 = 4 + 2 + 0)
        ([line(1, 6, 0.8), line(2, 4, 0.1), line(3, 2, 0.5), line(4, 0, 0.0)], {1: 5, 2: 3, 3: 1, 4: 0}),
        # 6 = 3 + 2 + 1 for the sweep point; TNS 0.9 > 0.1 + 0.5 + 0.1 (though not > 0.5 + 0.5 + 0.1)
        ([line(1, 6, 0.9), line(2, 3, 0.1), line(3, 2, 0.5), line(4, 1, 0.1)], {1: 5, 2: 2, 3: 1, 4: 1}),
        # ... and 0.9 > 0.1 + 0.1 + 0.5 (though not > 0.1 + 0.5 + 0.5)
        ([line(1, 6, 0.9), line(2, 3, 0.1), line(3, 2, 0.1), line(4, 1, 0.5)], {1: 5, 2: 2, 3: 1, 4: 1}),
    ],
)
def test_four_player_tns_tests_add_every_other_player(lines, expected):
    """LADDER-BONUS-2 / LADDER-AMB-31: "more than combined" ties compare 1st's TNS with the others' sum."""
    assert dict(match_bonus(lines, OPTIONS).bonus) == expected
