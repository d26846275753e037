"""High scores (bot/rules/team/highscores.py): TEAM-HS-1..4, TEAM-AMB-16, TEAM-CFG-1."""

import random
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team.attendance import AttendanceStatus
from bot.rules.team.highscores import (
    GameSource,
    HighScoreKey,
    ScoreEntry,
    check_forfeit_evening_game,
    forfeit_evening_side,
    high_score_table,
)
from bot.rules.team.model import ScoreStatus, Side
from bot.rules.team.options import TeamOptions

GODZILLA_PRO, GODZILLA_PREMIUM, JAWS = 1, 2, 3
FAMILY = {GODZILLA_PRO: "godzilla", GODZILLA_PREMIUM: "godzilla", JAWS: "jaws"}


def score(
    player: int,
    points: int,
    *,
    model: int = GODZILLA_PRO,
    conference: str = "East",
    on: date = date(2023, 3, 7),
    source: GameSource = GameSource.MATCH_GAME,
    status: ScoreStatus = ScoreStatus.NORMAL,
) -> ScoreEntry:
    return ScoreEntry(player, conference, model, FAMILY[model], points, on, source, match=10, status=status)


def holders(entries: list[ScoreEntry], options: TeamOptions | None = None) -> dict[tuple[str, int | None], int]:
    """(conference, model) → record score."""
    return {(r.key.conference, r.key.model): r.entry.score for r in high_score_table(entries, options or TeamOptions())}


class TestRecords:
    def test_best_score_per_model_holds_the_record(self) -> None:
        """TEAM-HS-1: one high score per (conference, model)."""
        table = high_score_table(
            [score(1, 90_000_000), score(2, 120_000_000), score(3, 40_000_000, model=JAWS)], TeamOptions()
        )
        assert [(r.key, r.entry.player, r.entry.score) for r in table] == [
            (HighScoreKey("East", "godzilla", GODZILLA_PRO), 2, 120_000_000),
            (HighScoreKey("East", "jaws", JAWS), 3, 40_000_000),
        ]

    def test_each_conference_keeps_its_own_records(self) -> None:
        """TEAM-CFG-1 / TEAM-HS-1: scores are recorded separately for each conference."""
        entries = [score(1, 90_000_000, conference="East"), score(2, 120_000_000, conference="West")]
        assert holders(entries) == {("East", GODZILLA_PRO): 90_000_000, ("West", GODZILLA_PRO): 120_000_000}

    def test_records_carry_over_from_season_to_season(self) -> None:
        """TEAM-HS-1: last season's record stands until a higher score beats it."""
        last_season = score(1, 150_000_000, on=date(2022, 10, 4))
        this_season = score(2, 120_000_000, on=date(2023, 3, 7))
        [record] = high_score_table([last_season, this_season], TeamOptions())
        assert (record.entry.player, record.entry.date) == (1, date(2022, 10, 4))
        [record] = high_score_table([last_season, this_season, score(3, 151_000_000)], TeamOptions())
        assert record.entry.player == 3

    def test_equal_scores_the_earlier_one_holds(self) -> None:
        """TEAM-HS-1: a tie does not take the record away from whoever set it first."""
        first, second = score(5, 80_000_000, on=date(2023, 1, 10)), score(4, 80_000_000, on=date(2023, 2, 14))
        assert high_score_table([second, first], TeamOptions())[0].entry.player == 5

    def test_match_id_is_kept(self) -> None:
        """COMMON-HS-1: the record keeps the event it came from."""
        [record] = high_score_table([replace(score(1, 5), match=77)], TeamOptions())
        assert record.entry.match == 77


class TestVariants:
    def test_variants_keep_separate_records_by_default(self) -> None:
        """TEAM-AMB-16: Godzilla (Pro) and Godzilla (Premium) are separate models by default."""
        entries = [score(1, 90_000_000, model=GODZILLA_PRO), score(2, 120_000_000, model=GODZILLA_PREMIUM)]
        assert holders(entries) == {("East", GODZILLA_PRO): 90_000_000, ("East", GODZILLA_PREMIUM): 120_000_000}

    def test_merged_variants_share_one_record_per_family(self) -> None:
        """TEAM-AMB-16 `hs_merge_variants`: one record for the godzilla family."""
        entries = [score(1, 90_000_000, model=GODZILLA_PRO), score(2, 120_000_000, model=GODZILLA_PREMIUM)]
        [record] = high_score_table(entries, TeamOptions(hs_merge_variants=True))
        assert (record.key, record.entry.player) == (HighScoreKey("East", "godzilla", None), 2)


class TestWhatQualifies:
    @pytest.mark.parametrize("source", [GameSource.WARM_UP, GameSource.PRACTICE, GameSource.OFF_NIGHT])
    def test_games_outside_matches_are_refused(self, source: GameSource) -> None:
        """TEAM-HS-2: only league match games qualify; such scores never enter the table."""
        assert holders([score(1, 200_000_000, source=source), score(2, 10_000_000)]) == {
            ("East", GODZILLA_PRO): 10_000_000
        }

    def test_forfeit_evening_games_count(self) -> None:
        """TEAM-HS-3: every game played on a forfeit evening counts."""
        entry = score(1, 200_000_000, source=GameSource.FORFEIT_EVENING)
        assert holders([entry]) == {("East", GODZILLA_PRO): 200_000_000}

    @pytest.mark.parametrize("status", [ScoreStatus.DQ, ScoreStatus.FORFEITED_GAME, ScoreStatus.VOID])
    def test_dq_forfeited_and_void_scores_do_not_count(self, status: ScoreStatus) -> None:
        """TEAM-HS-4 / TEAM-AMB-16: DQ and forfeited scores are not high scores (nor void ones, replayed)."""
        entry = score(1, 200_000_000, status=status)
        assert holders([entry, score(2, 10_000_000)]) == {("East", GODZILLA_PRO): 10_000_000}

    def test_tiebreaker_team_scores_do_not_count(self) -> None:
        """TEAM-HS-4 / TEAM-TV-17: a tie-breaker game's 2,450,000,000 is a team score, not a high score."""
        entry = score(1, 2_450_000_000, model=JAWS, source=GameSource.TIEBREAKER_GAME)
        assert holders([entry]) == {}

    def test_replay_that_replaces_counts(self) -> None:
        """TEAM-HS-2: a REPLAY_REPLACES score is the player's match score."""
        entry = score(1, 30_000_000, status=ScoreStatus.REPLAY_REPLACES)
        assert holders([entry]) == {("East", GODZILLA_PRO): 30_000_000}


NAMES = {1: "Ana", 2: "Ben", 3: "Cy"}


class TestForfeitEvening:
    """TEAM-FORF-2 / TEAM-HS-3: the attending team of a forfeited match plays the evening for high scores."""

    def check(self, players: list[int], *, present: set[int] | None = None, machine_players: int = 4) -> None:
        check_forfeit_evening_game(
            players,
            present={1, 2, 3} if present is None else present,
            names=NAMES,
            machine_players=machine_players,
        )

    @pytest.mark.parametrize(("forfeiting", "attending"), [(Side.HOME, Side.AWAY), (Side.AWAY, Side.HOME)])
    def test_the_team_that_did_not_forfeit_plays_the_evening(self, forfeiting: Side, attending: Side) -> None:
        attendance = {forfeiting: AttendanceStatus.FORFEIT, attending: AttendanceStatus.SHORT}
        assert forfeit_evening_side(attendance) is attending

    @pytest.mark.parametrize(
        "statuses",
        [(AttendanceStatus.NORMAL, AttendanceStatus.SHORT), (AttendanceStatus.FORFEIT, AttendanceStatus.FORFEIT)],
    )
    def test_a_match_without_exactly_one_forfeit_has_no_forfeit_evening(
        self, statuses: tuple[AttendanceStatus, AttendanceStatus]
    ) -> None:
        with pytest.raises(RuleViolation) as caught:
            forfeit_evening_side(dict(zip((Side.HOME, Side.AWAY), statuses, strict=True)))
        assert str(caught.value) == (
            "TEAM-FORF-2: Forfeit-evening games are for a match one team forfeited at the start window; "
            "enter this match's games with `/score`."
        )

    def test_players_here_each_once_up_to_the_machines_capacity_are_accepted(self) -> None:
        self.check([3, 1, 2], machine_players=3)  # no refusal

    def test_a_game_names_at_least_one_player(self) -> None:
        with pytest.raises(InvalidInput) as caught:
            self.check([])
        assert caught.value.message == "Name at least one player (p1) and their score (s1)."

    def test_a_player_is_named_once_per_game(self) -> None:
        with pytest.raises(InvalidInput) as caught:
            self.check([1, 2, 1])
        assert caught.value.message == "Name each player once per game."

    def test_players_not_checked_in_are_refused_by_name(self) -> None:
        """Player 9 has no name on the sheet: the refusal still says who it is."""
        with pytest.raises(RuleViolation) as caught:
            self.check([1, 2, 9], present={2})
        assert str(caught.value) == (
            "TEAM-FORF-2: Not checked in tonight: Ana, Player #9. Only players who came play the evening; "
            "check them in first."
        )

    def test_no_more_players_than_the_machine_takes_at_once(self) -> None:
        with pytest.raises(InvalidInput) as caught:
            self.check([1, 2, 3], machine_players=2)
        assert caught.value.message == "That machine takes 2 players at once; name at most 2."


entries = st.builds(
    score,
    player=st.integers(min_value=1, max_value=5),
    points=st.integers(min_value=0, max_value=10**9),
    model=st.sampled_from([GODZILLA_PRO, GODZILLA_PREMIUM, JAWS]),
    conference=st.sampled_from(["East", "West"]),
    on=st.dates(min_value=date(2020, 1, 1), max_value=date(2024, 1, 1)),
    source=st.sampled_from(list(GameSource)),
    status=st.sampled_from(list(ScoreStatus)),
)


class TestProperties:
    @given(st.lists(entries, max_size=30), st.booleans(), st.randoms())
    def test_table_does_not_depend_on_input_order(
        self, scores: list[ScoreEntry], merge: bool, rng: random.Random
    ) -> None:
        """TEAM-HS-1: the same facts in any order give the same records, each the best qualifying score."""
        options = TeamOptions(hs_merge_variants=merge)
        table = high_score_table(scores, options)
        shuffled = list(scores)
        rng.shuffle(shuffled)
        assert high_score_table(shuffled, options) == table
        for record in table:
            rivals = [
                s
                for s in scores
                if s.conference == record.key.conference
                and s.model_family == record.key.model_family
                and (merge or s.model == record.key.model)
                and s.source in (GameSource.MATCH_GAME, GameSource.FORFEIT_EVENING)
                and s.status in (ScoreStatus.NORMAL, ScoreStatus.REPLAY_REPLACES)
            ]
            assert record.entry.score == max(s.score for s in rivals)


def test_team_hs_1_models_of_one_family_are_listed_in_model_order() -> None:
    """TEAM-HS-1: sorted by conference, then model (Godzilla Pro before Premium), whatever order scores came in."""
    table = high_score_table([score(1, 9, model=GODZILLA_PREMIUM), score(2, 8, model=GODZILLA_PRO)], TeamOptions())
    assert [(r.key.model, r.entry.player) for r in table] == [(GODZILLA_PRO, 2), (GODZILLA_PREMIUM, 1)]


def test_team_hs_1_equal_scores_on_one_day_give_the_same_holder_whatever_order_they_are_stored_in() -> None:
    """TEAM-HS-1: the record never depends on the order the rows are read, e.g. a claimed score (no match)
    beside the same score from a match."""
    base = score(1, 5)
    for first, second in (
        (replace(base, match=None), replace(base, match=1)),
        (replace(base, match=3), replace(base, match=4)),
        (replace(base, player=2), replace(base, player=3)),
    ):
        one = high_score_table([first, second], TeamOptions())
        other = high_score_table([second, first], TeamOptions())
        assert one == other
