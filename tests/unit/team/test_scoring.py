"""Team-format game and match results (bot/rules/team/scoring.py): TEAM-GAME/MATCH/SHORT/FORF/VENUE/TB/PEN."""

from collections.abc import Sequence

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team.attendance import AttendanceStatus
from bot.rules.team.model import MatchOutcome, RoundKind, ScoreStatus, Side
from bot.rules.team.options import TeamOptions
from bot.rules.team.scoring import (
    Flag,
    GameScores,
    MatchFacts,
    Offence,
    Penalty,
    PlayerScore,
    TiebreakerScores,
    Walkout,
    check_extra_ball_opt_out,
    check_played_out,
    counted_scores,
    extra_balls_per_player,
    game_result,
    match_result,
    tiebreaker_winner,
)

H, A = Side.HOME, Side.AWAY
D, S = RoundKind.DOUBLES, RoundKind.SINGLES
W, L = MatchOutcome.WIN, MatchOutcome.LOSS
OPTIONS = TeamOptions()
WINS_TALLY = TeamOptions(doubles_tally="wins")
BOTH = frozenset(Side)
M = 1_000_000

# Player ids: HOME players are 1, 2, 3…; AWAY players 11, 12, 13…
H1, H2, H3, A1, A2, A3 = 1, 2, 3, 11, 12, 13


def scores(first_player: int, values: Sequence[int]) -> tuple[PlayerScore, ...]:
    return tuple(PlayerScore(first_player + i, value) for i, value in enumerate(values))


def doubles(home: Sequence[int], away: Sequence[int], **facts: object) -> GameScores:
    return GameScores(D, scores(H1, home), scores(A1, away), **facts)  # type: ignore[arg-type]


def singles(home: int, away: int, **facts: object) -> GameScores:
    return GameScores(S, scores(H1, [home]), scores(A1, [away]), **facts)  # type: ignore[arg-type]


def won(kind: RoundKind, winner: Side) -> GameScores:
    """A game `winner` takes on plain scores."""
    high, low = 20 * M, 10 * M
    home, away = (high, low) if winner is H else (low, high)
    return doubles([home, home], [away, away]) if kind is D else singles(home, away)


def round_won(kind: RoundKind, winners: str) -> tuple[GameScores, ...]:
    """A round from a string of winners, e.g. "HHHA"."""
    return tuple(won(kind, H if letter == "H" else A) for letter in winners)


def forfeited(by: frozenset[Side]) -> GameScores:
    return GameScores(S, forfeited_by=by)


def result_points(game: GameScores, options: TeamOptions = OPTIONS) -> tuple[int, int]:
    result = game_result(game, options)
    return result.points[H], result.points[A]


# TEAM-TV-1 rounds: R1 H,A; R2 H,H; R3 H,H,H,A; R4 A,A,A,H.
TV1_ROUNDS = (round_won(D, "HA"), round_won(D, "HH"), round_won(S, "HHHA"), round_won(S, "AAAH"))


class TestGameTally:
    def test_doubles_sum(self) -> None:
        """TEAM-GAME-1 / TEAM-TV-2: HOME 12,340,000 + 3,500,000 vs AWAY 9,000,000 + 6,900,000 → AWAY +2."""
        game = doubles([12_340_000, 3_500_000], [9_000_000, 6_900_000])
        result = game_result(game, OPTIONS)
        assert (result.winner, result.points[H], result.points[A]) == (A, 0, 2)

    def test_singles_higher_score_wins_one_point(self) -> None:
        """TEAM-GAME-4: the higher Singles score wins 1 match point."""
        assert result_points(singles(5 * M, 7 * M)) == (0, 1)
        assert result_points(singles(9 * M, 7 * M)) == (1, 0)

    def test_one_player_machine_sums_doubles_and_compares_singles(self) -> None:
        """TEAM-GAME-3: on a 1-player machine Doubles are summed after all 4 play; Singles higher wins."""
        assert result_points(doubles([1 * M, 9 * M], [4 * M, 5 * M], machine_players=1)) == (2, 0)
        assert result_points(singles(3 * M, 4 * M, machine_players=1)) == (0, 1)

    def test_two_player_machine_sums_by_default(self) -> None:
        """TEAM-GAME-2 / TEAM-TV-4 (a)(b) [TEAM-AMB-3]: tallies 50,000,000 vs 55,000,000 → AWAY +2."""
        game = doubles([40 * M, 10 * M], [25 * M, 30 * M], machine_players=2)
        assert result_points(game) == (0, 2)

    def test_two_player_machine_wins_tally_one_all_is_a_replay(self) -> None:
        """TEAM-AMB-3 / TEAM-TV-4: with tally=wins the same scores are 1–1, so the game is replayed."""
        result = game_result(doubles([40 * M, 10 * M], [25 * M, 30 * M], machine_players=2), WINS_TALLY)
        assert (result.needs_replay, result.winner, dict(result.points)) == (True, None, {H: 0, A: 0})

    def test_wins_tally_two_nil(self) -> None:
        """TEAM-AMB-3: with tally=wins, winning both 1-on-1s wins the game even on a smaller sum."""
        game = doubles([26 * M, 31 * M], [25 * M, 30 * M], machine_players=2)
        assert result_points(game, WINS_TALLY) == (2, 0)
        # The i-th HOME player played the i-th AWAY player; swapping the pairing makes it 1–1.
        assert game_result(doubles([31 * M, 26 * M], [25 * M, 30 * M], machine_players=2), WINS_TALLY).needs_replay

    def test_wins_tally_applies_only_on_two_player_machines(self) -> None:
        """TEAM-AMB-3: on a 4-player machine the Doubles tally is always the sum."""
        assert result_points(doubles([40 * M, 10 * M], [25 * M, 30 * M]), WINS_TALLY) == (0, 2)

    def test_wins_tally_dq_loses_the_one_on_one(self) -> None:
        """TEAM-AMB-3 with TEAM-PEN-4: a DQ'd player loses their 1-on-1 ("2-player game") outright."""
        game = doubles([40 * M, 30 * M], [25 * M, 10 * M], machine_players=2)
        assert result_points(game, WINS_TALLY) == (2, 0)
        assist = (Penalty(Offence.PHYSICAL_ASSIST, H1),)
        assert game_result(
            doubles([40 * M, 30 * M], [25 * M, 10 * M], machine_players=2, penalties=assist), WINS_TALLY
        ).needs_replay
        away_assisted = (Penalty(Offence.PHYSICAL_ASSIST, A1),)
        assert result_points(doubles([10 * M, 20 * M], [25 * M, 30 * M], machine_players=2), WINS_TALLY) == (0, 2)
        assert game_result(
            doubles([10 * M, 20 * M], [25 * M, 30 * M], machine_players=2, penalties=away_assisted), WINS_TALLY
        ).needs_replay

    def test_equal_totals_are_replayed(self) -> None:
        """TEAM-AMB-4 / TEAM-GAME-6: exactly equal totals → tie_replay on the same machine, no points yet."""
        for game in (doubles([3 * M, 4 * M], [5 * M, 2 * M]), singles(7 * M, 7 * M)):
            result = game_result(game, OPTIONS)
            assert (result.needs_replay, result.winner, dict(result.points)) == (True, None, {H: 0, A: 0})


class TestShortTeamGames:
    def test_solo_score_against_pair_sum(self) -> None:
        """TEAM-SHORT-2: the short team's solo score is compared with the pair's sum."""
        assert result_points(doubles([30 * M, 15 * M], [40 * M])) == (2, 0)
        assert result_points(doubles([30 * M, 15 * M], [46 * M])) == (0, 2)

    @pytest.mark.parametrize("options", [OPTIONS, WINS_TALLY])
    def test_short_team_on_two_player_machine(self, options: TeamOptions) -> None:
        """TEAM-TV-23 [TEAM-AMB-23]: Z 40,000,000 beats H1 30,000,000 1-on-1, but H1 + H2 = 45,000,000 → HOME +2."""
        game = doubles([30 * M, 15 * M], [40 * M], machine_players=2)
        assert result_points(game, options) == (2, 0)
        assert result_points(doubles([30 * M, 15 * M], [40 * M], machine_players=1), options) == (2, 0)

    def test_one_team_forfeits_a_singles_game(self) -> None:
        """TEAM-SHORT-5: the short team's forfeited Singles game gives the opponent 1 point, whatever was entered."""
        result = game_result(GameScores(S, home=scores(H1, [0]), forfeited_by=frozenset({A})), OPTIONS)
        assert (result.winner, result.points[H], result.points[A], result.flags) == (H, 1, 0, ())

    def test_both_teams_forfeit_the_same_singles_game(self) -> None:
        """TEAM-SHORT-6: a Singles game forfeited by both teams gives the point to no one, without a flag."""
        result = game_result(forfeited(BOTH), OPTIONS)
        assert (result.winner, dict(result.points), result.needs_replay, result.flags) == (
            None,
            {H: 0, A: 0},
            False,
            (),
        )


class TestPenalties:
    def test_out_of_turn_disqualifies_the_offender(self) -> None:
        """TEAM-PEN-1 / TEAM-TV-3: HOME P1 48,000,000 DQ → HOME 20,000,000 vs AWAY 25,000,000 → AWAY +2."""
        game = doubles([48 * M, 20 * M], [15 * M, 10 * M])
        assert result_points(game) == (2, 0)  # 68M–25M without the DQ
        penalised = doubles([48 * M, 20 * M], [15 * M, 10 * M], penalties=(Penalty(Offence.OUT_OF_TURN, H1),))
        assert result_points(penalised) == (0, 2)

    def test_affected_players_replay_replaces_even_if_lower(self) -> None:
        """TEAM-PEN-1 / TEAM-TV-3: the affected AWAY player's replay replaces the original; recompute."""
        replay = PlayerScore(A1, 2 * M, ScoreStatus.REPLAY_REPLACES)
        game = GameScores(
            D,
            home=scores(H1, [48 * M, 20 * M]),
            away=(*scores(A1, [15 * M, 10 * M]), replay),
            penalties=(Penalty(Offence.OUT_OF_TURN, H1),),
        )
        assert result_points(game) == (2, 0)  # HOME 20M vs AWAY 2M + 10M
        assert [entry.score for entry in counted_scores(game)[A]] == [2 * M, 10 * M]

    def test_death_save_disqualifies_the_score(self) -> None:
        """TEAM-PEN-2: a death-save attempt forfeits the offender's score (DQ)."""
        game = singles(50 * M, 10 * M, penalties=(Penalty(Offence.DEATH_SAVE, H1),))
        assert result_points(game) == (0, 1)

    def test_extra_ball_violation_in_doubles_drops_the_score(self) -> None:
        """TEAM-PEN-3: Doubles → the violator's score is left out of the team total."""
        penalties = (Penalty(Offence.EXTRA_BALL_VIOLATION, A1),)
        assert result_points(doubles([10 * M, 10 * M], [15 * M, 6 * M], penalties=penalties)) == (2, 0)
        assert result_points(doubles([10 * M, 10 * M], [15 * M, 6 * M])) == (0, 2)

    def test_extra_ball_violation_in_singles_forfeits_the_game(self) -> None:
        """TEAM-PEN-3: Singles → the game goes to the opponent."""
        game = singles(10 * M, 90 * M, penalties=(Penalty(Offence.EXTRA_BALL_VIOLATION, A1),))
        assert result_points(game) == (1, 0)

    def test_assist_in_singles(self) -> None:
        """TEAM-PEN-4 / TEAM-TV-18 (a): HOME 30M vs AWAY 12M, a HOME teammate nudged → HOME DQ → AWAY +1."""
        game = singles(30 * M, 12 * M, penalties=(Penalty(Offence.PHYSICAL_ASSIST, H1),))
        assert result_points(game) == (0, 1)

    def test_assist_in_four_player_game_is_decided_without_the_score(self) -> None:
        """TEAM-PEN-4: in a 4-player game the result is decided without the assisted player's score."""
        game = doubles([30 * M, 12 * M], [20 * M, 20 * M], penalties=(Penalty(Offence.PHYSICAL_ASSIST, H2),))
        assert result_points(game) == (0, 2)
        assert [entry.player for entry in counted_scores(game)[H]] == [H1]

    def test_slam_tilt_loses_the_game(self) -> None:
        """TEAM-PEN-5 / TEAM-GAME-5 / TEAM-TV-18 (b): HOME pair 80M vs AWAY 40M, a HOME slam tilt → AWAY +2."""
        game = doubles([50 * M, 30 * M], [20 * M, 20 * M], penalties=(Penalty(Offence.SLAM_TILT, H2),))
        assert result_points(game) == (0, 2)

    def test_tilt_through_loses_the_game(self) -> None:
        """TEAM-PEN-6 / TEAM-GAME-5: a tilt-through loses the game for the team that caused it."""
        assert result_points(singles(1 * M, 80 * M, penalties=(Penalty(Offence.TILT_THROUGH, A1),))) == (1, 0)

    def test_game_loss_beats_a_forfeited_opponent_score(self) -> None:
        """TEAM-GAME-5: a game loss decides the game even when the other side's only score is DQ."""
        penalties = (Penalty(Offence.SLAM_TILT, H1), Penalty(Offence.DEATH_SAVE, A1))
        assert result_points(singles(5 * M, 1 * M, penalties=penalties)) == (0, 1)

    def test_game_loss_on_both_sides_is_flagged(self) -> None:
        """TEAM-GAME-5: both teams incurring a game loss (sheet silent) → no points, flagged."""
        penalties = (Penalty(Offence.SLAM_TILT, H1), Penalty(Offence.TILT_THROUGH, A2))
        result = game_result(doubles([5 * M, 1 * M], [2 * M, 2 * M], penalties=penalties), OPTIONS)
        assert (result.winner, dict(result.points), result.flags) == (None, {H: 0, A: 0}, (Flag.GAME_LOSS_BOTH_SIDES,))

    @given(
        st.lists(st.integers(0, 10**12), min_size=2, max_size=2),
        st.lists(st.integers(0, 10**12), min_size=2, max_size=2),
    )
    def test_game_loss_ignores_scores(self, home: list[int], away: list[int]) -> None:
        """TEAM-GAME-5: whatever the scores, a HOME slam tilt gives AWAY the 2 points."""
        game = doubles(home, away, penalties=(Penalty(Offence.SLAM_TILT, H1),))
        assert result_points(game) == (0, 2)

    def test_all_scores_on_one_side_dq(self) -> None:
        """TEAM-AMB-22: every HOME score DQ → AWAY wins even with a lower total, or a total of 0."""
        penalties = (Penalty(Offence.OUT_OF_TURN, H1), Penalty(Offence.DEATH_SAVE, H2))
        assert result_points(doubles([90 * M, 90 * M], [0, 0], penalties=penalties)) == (0, 2)

    def test_no_valid_score_on_either_side_is_void(self) -> None:
        """TEAM-AMB-22: no valid score on either side → VOID, no points, flagged."""
        penalties = (Penalty(Offence.DEATH_SAVE, H1), Penalty(Offence.DEATH_SAVE, A1))
        result = game_result(singles(5 * M, 3 * M, penalties=penalties), OPTIONS)
        assert (result.winner, dict(result.points), result.needs_replay, result.flags) == (
            None,
            {H: 0, A: 0},
            False,
            (Flag.VOID_GAME,),
        )

    def test_entered_dq_and_forfeited_statuses_do_not_count(self) -> None:
        """TEAM-GAME-4: a player's DQ/forfeited score loses the Singles game (e.g. TEAM-AMB-20 slot DQ)."""
        for status in (ScoreStatus.DQ, ScoreStatus.FORFEITED_GAME):
            game = GameScores(S, home=(PlayerScore(H1, 9 * M, status),), away=scores(A1, [1]))
            assert result_points(game) == (0, 1)

    def test_voided_original_with_replay(self) -> None:
        """TEAM-MATCH-5: per-player scores that count; a VOID original is kept for the record but replaced."""
        game = GameScores(
            D,
            home=(
                PlayerScore(H1, 9 * M, ScoreStatus.VOID),
                PlayerScore(H2, 3 * M),
                PlayerScore(H1, 4 * M, ScoreStatus.REPLAY_REPLACES),
            ),
            away=(PlayerScore(A1, 5 * M), PlayerScore(A2, 1 * M, ScoreStatus.DQ)),
        )
        assert counted_scores(game) == {
            H: (PlayerScore(H1, 4 * M, ScoreStatus.REPLAY_REPLACES), PlayerScore(H2, 3 * M)),
            A: (PlayerScore(A1, 5 * M),),
        }
        assert result_points(game) == (2, 0)


class TestGameInputs:
    def test_unscored_game_has_no_result(self) -> None:
        """TEAM-MATCH-2: a game needs both teams' scores (or a forfeit) before it has a result."""
        with pytest.raises(InvalidInput, match="both teams' scores"):
            game_result(GameScores(S, home=scores(H1, [5])), OPTIONS)

    def test_penalty_must_name_a_player_of_the_game(self) -> None:
        """TEAM-PEN-1: a penalty names a player who played this game."""
        with pytest.raises(InvalidInput, match="did not play this game"):
            game_result(singles(5, 3, penalties=(Penalty(Offence.OUT_OF_TURN, 99),)), OPTIONS)

    def test_two_scores_for_one_player_need_a_replay_status(self) -> None:
        """COMMON-SCORE-2: a second score for the same player must be a replay (or the first voided)."""
        game = GameScores(S, home=(PlayerScore(H1, 5), PlayerScore(H1, 6)), away=scores(A1, [1]))
        with pytest.raises(InvalidInput, match="two scores"):
            game_result(game, OPTIONS)


class TestExtraBalls:
    def test_extra_ball_allowance(self) -> None:
        """TEAM-PEN-3 / TEAM-TV-18 (d): 5-ball → none; 3-ball → 1 per player per game; tie-breaker → none."""
        assert extra_balls_per_player(5, tiebreaker=False, opted_out=False) == 0
        assert extra_balls_per_player(3, tiebreaker=False, opted_out=False) == 1
        assert extra_balls_per_player(3, tiebreaker=True, opted_out=False) == 0
        assert extra_balls_per_player(3, tiebreaker=False, opted_out=True) == 0

    def test_opt_out_after_round_one_declared(self) -> None:
        """TEAM-PEN-3 / TEAM-TV-18 (c): an opt-out requested after R1 is declared → refused."""
        with pytest.raises(RuleViolation) as caught:
            check_extra_ball_opt_out(agreed_by=BOTH, round_one_declared=True)
        assert (caught.value.rule_id, caught.value.message) == (
            "TEAM-PEN-3",
            "Extra-ball opt-out must be agreed before the match starts",
        )

    def test_opt_out_needs_both_captains(self) -> None:
        """TEAM-PEN-3: both captains must agree to opt out; one captain's agreement waits for the other's."""
        assert check_extra_ball_opt_out(agreed_by=BOTH, round_one_declared=False)
        assert not check_extra_ball_opt_out(agreed_by=frozenset({H}), round_one_declared=False)
        assert not check_extra_ball_opt_out(agreed_by=frozenset(), round_one_declared=False)


class TestMatch:
    def test_tv1_no_early_finish(self) -> None:
        """TEAM-TV-1 / TEAM-MATCH-2: after R3 HOME leads 9–3 but the match is not decided or final."""
        result = match_result(MatchFacts(rounds=TV1_ROUNDS[:3], confirmed_by=BOTH), OPTIONS)
        assert (result.points[H], result.points[A]) == (9, 3)
        assert (result.outcome, result.final) == (None, False)
        assert result.missing == ("Round 4 lineups and scores",)

    def test_tv1_result(self) -> None:
        """TEAM-TV-1 / TEAM-MATCH-1: after R4 → 10–6, HOME W (MP 10), AWAY L (MP 6), 16 in total."""
        result = match_result(MatchFacts(rounds=TV1_ROUNDS, confirmed_by=BOTH), OPTIONS)
        assert (result.points[H], result.points[A], result.available_points) == (10, 6, 16)
        assert result.outcome == {H: W, A: L}
        assert (result.final, result.missing, result.needs_tiebreaker) == (True, (), False)

    def test_unscored_and_tied_games_are_missing(self) -> None:
        """TEAM-MATCH-2 / TEAM-AMB-4: every game must be entered, and a tied one replayed, before a result."""
        last_round = (singles(1, 2), GameScores(S, home=scores(H1, [5])), singles(3, 3), singles(2, 1))
        result = match_result(MatchFacts(rounds=(*TV1_ROUNDS[:3], last_round), confirmed_by=BOTH), OPTIONS)
        assert result.missing == (
            "Round 4 game 2 scores",
            "Round 4 game 3 replay: same machine, same players (the game was tied)",
        )
        assert (result.points[H], result.points[A], result.outcome, result.final) == (10, 4, None, False)

    def test_needs_both_captains(self) -> None:
        """TEAM-MATCH-4: final only when both captains confirm; a challenging captain does not."""
        result = match_result(MatchFacts(rounds=TV1_ROUNDS, confirmed_by=frozenset({H})), OPTIONS)
        assert result.outcome == {H: W, A: L}
        assert (result.final, result.missing) == (False, ("AWAY captain's confirmation",))
        nobody = match_result(MatchFacts(rounds=TV1_ROUNDS), OPTIONS)
        assert nobody.missing == ("HOME captain's confirmation", "AWAY captain's confirmation")

    def test_level_match_needs_a_tiebreaker(self) -> None:
        """TEAM-MATCH-3 / TEAM-TV-17: 8–8 → a tie-breaker must be recorded before the match can be final."""
        rounds = (round_won(D, "HA"), round_won(D, "AH"), round_won(S, "HHAA"), round_won(S, "AHAH"))
        result = match_result(MatchFacts(rounds=rounds, confirmed_by=BOTH), OPTIONS)
        assert (result.points[H], result.points[A], result.outcome, result.final) == (8, 8, None, False)
        assert result.needs_tiebreaker
        assert result.missing == ("Tie-breaker game (the match is level at 8–8)",)

    def test_tv17_tiebreaker_result(self) -> None:
        """TEAM-TV-17 / TEAM-TB-3 / TEAM-TB-4: P1 (AWAY) 2,450,000,000 vs P2 (HOME) 1,980,000,000 → AWAY W, MP 8–8."""
        rounds = (round_won(D, "HA"), round_won(D, "AH"), round_won(S, "HHAA"), round_won(S, "AHAH"))
        tiebreaker = TiebreakerScores(home=1_980_000_000, away=2_450_000_000)
        result = match_result(MatchFacts(rounds=rounds, tiebreaker=tiebreaker, confirmed_by=BOTH), OPTIONS)
        assert result.outcome == {A: W, H: L}
        assert (result.points[H], result.points[A], result.final, result.needs_tiebreaker) == (8, 8, True, False)

    def test_tied_tiebreaker_is_replayed(self) -> None:
        """TEAM-TB-4: equal tie-breaker scores decide nothing; it is replayed (TEAM-AMB-4 by analogy)."""
        assert tiebreaker_winner(TiebreakerScores(home=5, away=5)) is None
        assert tiebreaker_winner(TiebreakerScores(home=6, away=5)) is H
        rounds = (round_won(D, "HA"), round_won(D, "AH"), round_won(S, "HHAA"), round_won(S, "AHAH"))
        result = match_result(MatchFacts(rounds=rounds, tiebreaker=TiebreakerScores(5, 5), confirmed_by=BOTH), OPTIONS)
        assert (result.outcome, result.needs_tiebreaker) == (None, True)
        assert result.missing == ("Tie-breaker replay (the tie-breaker scores were equal)",)

    def test_tiebreaker_is_ignored_when_not_level(self) -> None:
        """TEAM-TB-4: a tie-breaker left over from before a score correction does not overturn the points."""
        tiebreaker = TiebreakerScores(home=1, away=2)
        result = match_result(MatchFacts(rounds=TV1_ROUNDS, tiebreaker=tiebreaker, confirmed_by=BOTH), OPTIONS)
        assert result.outcome == {H: W, A: L}

    def test_void_game_closes_without_points(self) -> None:
        """TEAM-AMB-22: a VOID game is closed with no points, and the match carries the flag."""
        void = singles(5, 3, penalties=(Penalty(Offence.DEATH_SAVE, H1), Penalty(Offence.DEATH_SAVE, A1)))
        rounds = (*TV1_ROUNDS[:3], (void, *round_won(S, "AAH")))
        result = match_result(MatchFacts(rounds=rounds, confirmed_by=BOTH), OPTIONS)
        assert (result.points[H], result.points[A], result.available_points) == (10, 5, 16)
        assert (result.final, result.flags) == (True, (Flag.VOID_GAME,))

    def test_other_round_orders(self) -> None:
        """TEAM-MATCH-1 with TEAM-AMB-1 option D,S,S,D: rounds are read in the configured order."""
        options = TeamOptions(round_order=(D, S, S, D))
        rounds = (round_won(D, "HH"), round_won(S, "HHHH"), round_won(S, "AAAA"), round_won(D, "AA"))
        result = match_result(MatchFacts(rounds=rounds, confirmed_by=BOTH), options)
        assert (result.points[H], result.points[A], result.needs_tiebreaker) == (8, 8, True)
        with pytest.raises(InvalidInput, match="Round 2 is singles"):
            match_result(MatchFacts(rounds=TV1_ROUNDS), options)

    def test_malformed_rounds(self) -> None:
        """TEAM-LINEUP-1: a match has 4 rounds of 2 Doubles or 4 Singles games."""
        with pytest.raises(InvalidInput, match="needs 2 doubles games"):
            match_result(MatchFacts(rounds=(round_won(D, "HAH"),)), OPTIONS)
        with pytest.raises(InvalidInput, match="4 rounds, not 5"):
            match_result(MatchFacts(rounds=(*TV1_ROUNDS, round_won(S, "HHHH"))), OPTIONS)


class TestShortMatches:
    def test_one_team_short_keeps_16_points(self) -> None:
        """TEAM-SHORT-5: AWAY short forfeits one Singles game a round; its point goes to HOME; 16 available."""
        solo_game = doubles([10 * M, 10 * M], [25 * M])  # AWAY's solo player wins
        singles_round = (forfeited(frozenset({A})), *round_won(S, "AAA"))
        rounds = ((solo_game, won(D, H)), (won(D, A), doubles([1, 1], [5])), singles_round, singles_round)
        facts = MatchFacts(
            attendance={H: AttendanceStatus.NORMAL, A: AttendanceStatus.SHORT}, rounds=rounds, confirmed_by=BOTH
        )
        result = match_result(facts, OPTIONS)
        assert (result.points[H], result.points[A], result.available_points) == (4, 12, 16)
        assert result.outcome == {A: W, H: L}

    def test_tv6_both_short(self) -> None:
        """TEAM-TV-6 / TEAM-SHORT-6 [TEAM-AMB-5, TEAM-AMB-9]: 2–2, 4–4, 6–5, 7–7 of 14 → tie-breaker; AWAY wins it."""
        pair_vs_solo = (doubles([20 * M, 20 * M], [30 * M]), doubles([30 * M], [20 * M, 20 * M]))  # H, A
        r3 = (won(S, H), forfeited(BOTH), won(S, A), won(S, H))
        r4 = (won(S, A), won(S, H), won(S, A), forfeited(BOTH))
        short = {H: AttendanceStatus.SHORT, A: AttendanceStatus.SHORT}
        facts = MatchFacts(attendance=short, rounds=(pair_vs_solo, pair_vs_solo, r3, r4), confirmed_by=BOTH)
        level = match_result(facts, OPTIONS)
        assert (level.points[H], level.points[A], level.available_points, level.needs_tiebreaker) == (7, 7, 14, True)
        assert level.missing == ("Tie-breaker game (the match is level at 7–7)",)
        decided = match_result(
            MatchFacts(
                attendance=short,
                rounds=facts.rounds,
                confirmed_by=BOTH,
                tiebreaker=TiebreakerScores(home=1 * M, away=2 * M),
            ),
            OPTIONS,
        )
        assert (decided.outcome, decided.points[H], decided.points[A], decided.final) == ({A: W, H: L}, 7, 7, True)

    def test_both_short_points_at_stake_before_singles(self) -> None:
        """TEAM-SHORT-6: with both teams short, undeclared Singles rounds put 3 points each at stake (14)."""
        short = {H: AttendanceStatus.SHORT, A: AttendanceStatus.SHORT}
        result = match_result(MatchFacts(attendance=short, rounds=TV1_ROUNDS[:2]), OPTIONS)
        assert result.available_points == 14

    def test_one_short_points_at_stake_before_singles(self) -> None:
        """TEAM-SHORT-5: with one team short, undeclared Singles rounds keep 4 points each at stake (16)."""
        attendance = {H: AttendanceStatus.NORMAL, A: AttendanceStatus.SHORT}
        result = match_result(MatchFacts(attendance=attendance, rounds=TV1_ROUNDS[:2]), OPTIONS)
        assert result.available_points == 16


class TestForfeits:
    def test_tv7a_attending_team_plays_out_the_evening(self) -> None:
        """TEAM-TV-7 (a) / TEAM-FORF-1: AWAY has 2, HOME 5 and plays the evening with ≥4 → HOME W 12, AWAY L 0."""
        attendance = {H: AttendanceStatus.NORMAL, A: AttendanceStatus.FORFEIT}
        facts = MatchFacts(attendance=attendance, played_out_evening=True, confirmed_by=frozenset({H}))
        result = match_result(facts, OPTIONS)
        assert (result.points[H], result.points[A], result.outcome, result.final) == (12, 0, {H: W, A: L}, True)

    def test_tv7b_attending_team_leaves(self) -> None:
        """TEAM-TV-7 (b) / TEAM-FORF-1: HOME leaves → HOME W, MP 9."""
        attendance = {H: AttendanceStatus.NORMAL, A: AttendanceStatus.FORFEIT}
        result = match_result(MatchFacts(attendance=attendance, confirmed_by=frozenset({H})), OPTIONS)
        assert (result.points[H], result.points[A], result.outcome) == (9, 0, {H: W, A: L})

    def test_tv7c_three_players_get_no_bonus(self) -> None:
        """TEAM-TV-7 (c) / TEAM-AMB-25: HOME has only 3, AWAY 2 → HOME W, MP 9, no +3 even if it stays."""
        attendance = {H: AttendanceStatus.SHORT, A: AttendanceStatus.FORFEIT}
        facts = MatchFacts(attendance=attendance, played_out_evening=True, confirmed_by=frozenset({H}))
        result = match_result(facts, OPTIONS)
        assert (result.points[H], result.points[A], result.outcome) == (9, 0, {H: W, A: L})

    def test_tv7d_double_forfeit(self) -> None:
        """TEAM-TV-7 (d) / TEAM-AMB-8 / TEAM-FORF-3: both teams have 2 → both L, MP 0, flagged."""
        result = match_result(MatchFacts(attendance=dict.fromkeys(Side, AttendanceStatus.FORFEIT)), OPTIONS)
        assert (dict(result.points), result.outcome, result.final) == ({H: 0, A: 0}, {H: L, A: L}, True)
        assert result.flags == (Flag.DOUBLE_FORFEIT,)

    def test_forfeit_waits_for_the_attending_captain(self) -> None:
        """TEAM-FORF-1: the attending team's captain confirms whether it played out the evening."""
        result = match_result(MatchFacts(attendance={H: AttendanceStatus.FORFEIT, A: AttendanceStatus.NORMAL}), OPTIONS)
        assert (result.points[A], result.final, result.missing) == (9, False, ("AWAY captain's confirmation",))

    def test_forfeit_points_follow_the_options(self) -> None:
        """TEAM-FORF-1: forfeit_win_pts and forfeit_played_bonus are league options."""
        options = TeamOptions(forfeit_win_pts=6, forfeit_played_bonus=2)
        facts = MatchFacts(
            attendance={H: AttendanceStatus.FORFEIT, A: AttendanceStatus.NORMAL}, played_out_evening=True
        )
        assert match_result(facts, options).points[A] == 8

    def test_games_on_a_forfeit_evening_do_not_change_the_points(self) -> None:
        """TEAM-FORF-2: games played on a forfeit evening keep their scores (for high scores) but not points."""
        facts = MatchFacts(
            attendance={H: AttendanceStatus.NORMAL, A: AttendanceStatus.FORFEIT},
            rounds=(round_won(D, "AA"),),
            played_out_evening=True,
        )
        assert (match_result(facts, OPTIONS).points[H], match_result(facts, OPTIONS).points[A]) == (12, 0)
        assert counted_scores(facts.rounds[0][0])[A] == scores(A1, [20 * M, 20 * M])

    def test_a_fully_attending_team_may_claim_the_played_out_bonus(self) -> None:
        """TEAM-FORF-1: a team with 4 or more present may play out the evening for the +3."""
        check_played_out(AttendanceStatus.NORMAL, "Aces")

    def test_tv7c_a_three_player_team_cannot_claim_the_played_out_bonus(self) -> None:
        """TEAM-TV-7 (c) / TEAM-AMB-25: a team of 3 keeps the Win and 9 MP; its claim of the +3 is refused."""
        with pytest.raises(RuleViolation) as refused:
            check_played_out(AttendanceStatus.SHORT, "Aces")
        assert refused.value.rule_id == "TEAM-AMB-25"
        assert refused.value.message == (
            "Aces attended with 3 players, so its forfeit win stays at 9 match points: the +3 for playing out the "
            "evening needs at least 4 present when the start window closed."
        )

    def test_tv8a_moving_without_cause(self) -> None:
        """TEAM-TV-8 (a) / TEAM-VENUE-1: teams move with a machine working → HOME L MP 0, AWAY W MP 12."""
        result = match_result(MatchFacts(rounds=TV1_ROUNDS, venue_forfeit=H), OPTIONS)
        assert (result.points[H], result.points[A], result.outcome, result.final) == (0, 12, {H: L, A: W}, True)

    def test_tv8b_refusing_to_move(self) -> None:
        """TEAM-TV-8 (b) / TEAM-VENUE-4: AWAY refuses to move and leaves → AWAY L MP 0, HOME W MP 12."""
        result = match_result(MatchFacts(venue_forfeit=A), OPTIONS)
        assert (result.points[H], result.points[A], result.outcome) == (12, 0, {H: W, A: L})


TV9_ROUNDS = (round_won(D, "HA"), round_won(D, "HA"), round_won(S, "HHHA"))  # HOME 7, AWAY 5


class TestWalkouts:
    def test_tv9a_away_leaves(self) -> None:
        """TEAM-TV-9 (a) / TEAM-FORF-4: at 7–5 AWAY leaves → HOME gets the 4 unplayed → 11–5, HOME W."""
        facts = MatchFacts(rounds=TV9_ROUNDS, walkouts={A: Walkout.LEFT}, confirmed_by=frozenset({H}))
        result = match_result(facts, OPTIONS)
        assert (result.points[H], result.points[A], result.outcome, result.final) == (11, 5, {H: W, A: L}, True)

    def test_tv9b_both_refuse(self) -> None:
        """TEAM-TV-9 (b) / TEAM-FORF-4: both refuse to go on → stays 7–5, HOME W; the 4 go to no one."""
        refused = dict.fromkeys(Side, Walkout.REFUSED)
        result = match_result(MatchFacts(rounds=TV9_ROUNDS, walkouts=refused, confirmed_by=BOTH), OPTIONS)
        assert (result.points[H], result.points[A], result.outcome, result.final) == (7, 5, {H: W, A: L}, True)
        assert result.available_points == 16

    def test_tv9c_level_after_both_refuse_needs_a_tiebreaker(self) -> None:
        """TEAM-TV-9 (c) [TEAM-AMB-9]: level at 6–6 after both refuse → tie-breaker game."""
        rounds = (round_won(D, "HA"), round_won(D, "HA"), round_won(S, "HHAA"))
        refused = dict.fromkeys(Side, Walkout.REFUSED)
        result = match_result(MatchFacts(rounds=rounds, walkouts=refused, confirmed_by=BOTH), OPTIONS)
        assert (result.points[H], result.points[A], result.outcome, result.needs_tiebreaker) == (6, 6, None, True)
        assert result.missing == ("Tie-breaker game (the match is level at 6–6)",)

    def test_tv9c_level_after_both_left_is_a_double_loss(self) -> None:
        """TEAM-TV-9 (c) / TEAM-AMB-9: level at 6–6 and both teams have left → double Loss, flagged."""
        rounds = (round_won(D, "HA"), round_won(D, "HA"), round_won(S, "HHAA"))
        result = match_result(MatchFacts(rounds=rounds, walkouts=dict.fromkeys(Side, Walkout.LEFT)), OPTIONS)
        assert (result.points[H], result.points[A], result.outcome) == (6, 6, {H: L, A: L})
        assert (result.final, result.flags, result.missing) == (True, (Flag.DOUBLE_LOSS,), ())

    def test_leaving_forfeits_unfinished_games_in_a_declared_round(self) -> None:
        """TEAM-FORF-4: unscored and tied (to-be-replayed) games are unplayed points, too."""
        last_round = (won(S, A), GameScores(S), singles(4, 4), GameScores(S))
        facts = MatchFacts(rounds=(*TV9_ROUNDS, last_round), walkouts={H: Walkout.LEFT}, confirmed_by=frozenset({A}))
        result = match_result(facts, OPTIONS)
        assert (result.points[H], result.points[A], result.outcome) == (7, 9, {A: W, H: L})

    def test_walking_out_before_the_tiebreaker(self) -> None:
        """TEAM-FORF-4 / TEAM-AMB-9: at 8–8 with only the tie-breaker left, the team walking out loses it (flagged)."""
        rounds = (round_won(D, "HA"), round_won(D, "AH"), round_won(S, "HHAA"), round_won(S, "AHAH"))
        result = match_result(MatchFacts(rounds=rounds, walkouts={H: Walkout.REFUSED}, confirmed_by=BOTH), OPTIONS)
        assert (result.points[H], result.points[A], result.outcome) == (8, 8, {A: W, H: L})
        assert (result.final, result.flags) == (True, (Flag.TIEBREAKER_FORFEITED,))

    def test_level_after_one_team_left_and_the_other_refused(self) -> None:
        """TEAM-AMB-9 / TEAM-FORF-4: level at 6–6, HOME left and AWAY refused but stayed → AWAY W (flagged)."""
        rounds = (round_won(D, "HA"), round_won(D, "HA"), round_won(S, "HHAA"))
        walkouts = {H: Walkout.LEFT, A: Walkout.REFUSED}
        result = match_result(MatchFacts(rounds=rounds, walkouts=walkouts, confirmed_by=frozenset({A})), OPTIONS)
        assert (result.points[H], result.points[A], result.outcome) == (6, 6, {A: W, H: L})
        assert (result.final, result.flags) == (True, (Flag.TIEBREAKER_FORFEITED,))

    def test_a_team_that_left_need_not_confirm(self) -> None:
        """TEAM-MATCH-4 / TEAM-FORF-4: only a team still present signs the result."""
        facts = MatchFacts(rounds=TV9_ROUNDS, walkouts={A: Walkout.LEFT})
        assert match_result(facts, OPTIONS).missing == ("HOME captain's confirmation",)


# --- Properties ---

SCORE = st.integers(min_value=0, max_value=10**12)


@st.composite
def decided_game(draw: st.DrawFn, kind: RoundKind, home_players: int = 2, away_players: int = 2) -> GameScores:
    if kind is S:
        home_players = away_players = 1
    home = draw(st.lists(SCORE, min_size=home_players, max_size=home_players))
    away = draw(st.lists(SCORE, min_size=away_players, max_size=away_players))
    assume(sum(home) != sum(away))
    return doubles(home, away) if kind is D else singles(home[0], away[0])


@st.composite
def played_match(draw: st.DrawFn, short: frozenset[Side] = frozenset()) -> MatchFacts:
    """A complete match under the default round order; short teams play solo and forfeit Singles slots."""
    rounds = []
    for kind in OPTIONS.round_order:
        if kind is D:
            # Game 1 is HOME's pair vs AWAY's solo, game 2 HOME's solo vs AWAY's pair (TEAM-AMB-5).
            games: tuple[GameScores, ...] = (
                draw(decided_game(D, 2, 1 if A in short else 2)),
                draw(decided_game(D, 1 if H in short else 2, 2)),
            )
        else:
            games = tuple(draw(decided_game(S)) for _ in range(4))
            if short:
                slot = draw(st.integers(0, 3))
                games = (*games[:slot], forfeited(short), *games[slot + 1 :])
        rounds.append(games)
    attendance = {side: AttendanceStatus.SHORT if side in short else AttendanceStatus.NORMAL for side in Side}
    return MatchFacts(attendance=attendance, rounds=tuple(rounds), confirmed_by=BOTH)


@st.composite
def level_match(draw: st.DrawFn) -> MatchFacts:
    """A complete match that ends 8–8: each Doubles round split 1–1, each Singles round 2–2, in any order."""
    rounds = []
    for kind in OPTIONS.round_order:
        winners = draw(st.permutations("HA" if kind is D else "HHAA"))
        rounds.append(round_won(kind, "".join(winners)))
    return MatchFacts(rounds=tuple(rounds), confirmed_by=BOTH)


class TestProperties:
    @given(st.sampled_from([D, S]).flatmap(decided_game))
    def test_a_decided_game_gives_its_worth_to_one_side(self, game: GameScores) -> None:
        """TEAM-GAME-1 / TEAM-GAME-4: a decided game's points are all the winner's: 2 for Doubles, 1 for Singles."""
        result = game_result(game, OPTIONS)
        assert result.winner is not None
        assert result.points[result.winner] == (2 if game.kind is D else 1)
        assert result.points[result.winner.other] == 0

    @given(played_match())
    def test_complete_normal_match_awards_16(self, facts: MatchFacts) -> None:
        """TEAM-MATCH-1: a complete normal match awards 16; more points wins, and 8–8 needs a tie-breaker."""
        result = match_result(facts, OPTIONS)
        assert result.points[H] + result.points[A] == result.available_points == 16
        if result.points[H] == result.points[A]:
            assert (result.outcome, result.final, result.needs_tiebreaker) == (None, False, True)
        else:
            leader = max(Side, key=lambda side: result.points[side])
            assert result.outcome == {leader: W, leader.other: L}
            assert result.final

    @given(played_match(short=frozenset({A})))
    def test_one_short_team_still_awards_16(self, facts: MatchFacts) -> None:
        """TEAM-SHORT-5: one short team → every point still goes to someone; 16 in all."""
        result = match_result(facts, OPTIONS)
        assert result.points[H] + result.points[A] == result.available_points == 16
        assert result.points[H] >= 2  # the two forfeited Singles games

    @given(played_match(short=BOTH))
    def test_both_short_awards_14(self, facts: MatchFacts) -> None:
        """TEAM-SHORT-6: both teams short → 14 points are awarded in all."""
        result = match_result(facts, OPTIONS)
        assert result.points[H] + result.points[A] == result.available_points == 14

    @given(level_match(), SCORE, SCORE)
    def test_tiebreaker_never_changes_points(self, facts: MatchFacts, home: int, away: int) -> None:
        """TEAM-TB-4 / TEAM-MATCH-3: a tie-breaker decides the Win but adds 0 match points."""
        assume(home != away)
        before = match_result(facts, OPTIONS)
        after = match_result(
            MatchFacts(rounds=facts.rounds, confirmed_by=BOTH, tiebreaker=TiebreakerScores(home=home, away=away)),
            OPTIONS,
        )
        assert dict(before.points) == dict(after.points) == {H: 8, A: 8}
        assert before.outcome is None and before.needs_tiebreaker
        winner = H if home > away else A
        assert after.outcome == {winner: W, winner.other: L}
        assert after.final

    @given(played_match(), st.integers(0, 4), st.sampled_from(list(Side)))
    def test_a_walkout_gives_every_unplayed_point_to_the_other_team(
        self, facts: MatchFacts, rounds_played: int, leaver: Side
    ) -> None:
        """TEAM-FORF-4: whenever one team leaves, the points awarded still add up to 16."""
        cut = MatchFacts(rounds=facts.rounds[:rounds_played], walkouts={leaver: Walkout.LEFT}, confirmed_by=BOTH)
        complete = match_result(MatchFacts(rounds=facts.rounds[:rounds_played]), OPTIONS)
        result = match_result(cut, OPTIONS)
        assert result.points[H] + result.points[A] == 16
        assert result.points[leaver] == complete.points[leaver]
        assert result.final


class TestWinsTallyCorners:
    """TEAM-AMB-3 `doubles_tally=wins` on a 2-player machine: a level 1-on-1 is won by nobody."""

    @pytest.mark.parametrize(
        ("home", "away", "penalised", "points"),
        [
            ([20 * M, 30 * M], [20 * M, 10 * M], (), (2, 0)),  # level, then HOME: HOME wins 1-0
            ([20 * M, 10 * M], [20 * M, 30 * M], (), (0, 2)),  # level, then AWAY: AWAY wins 1-0
            ([40 * M, 30 * M], [50 * M, 10 * M], (H1, A1), (2, 0)),  # both of the first pairing DQ'd: nobody wins it
        ],
    )
    def test_a_level_or_doubly_disqualified_pairing_counts_for_neither_side(
        self, home: list[int], away: list[int], penalised: tuple[int, ...], points: tuple[int, int]
    ) -> None:
        penalties = tuple(Penalty(Offence.PHYSICAL_ASSIST, player) for player in penalised)
        game = doubles(home, away, machine_players=2, penalties=penalties)
        assert result_points(game, WINS_TALLY) == points

    def test_a_game_without_both_teams_scores_cannot_be_scored(self) -> None:
        with pytest.raises(InvalidInput) as info:
            game_result(GameScores(D, scores(H1, [10 * M, 20 * M])), OPTIONS)
        assert info.value.message == "Enter both teams' scores for this game first."

    def test_a_match_with_games_still_open_needs_no_tiebreaker_yet(self) -> None:
        """TEAM-MATCH-2: half a match is not final and is not waiting on a tie-breaker."""
        result = match_result(MatchFacts(rounds=(round_won(D, "HA"),)), OPTIONS)
        assert result.final is False and result.needs_tiebreaker is False
