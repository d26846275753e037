"""Team playoffs (bot/rules/team/playoffs.py): TEAM-PO-1..5, TEAM-AMB-14/15/17/24, TEAM-TV-21."""

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.brackets import BYE
from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team.model import Side
from bot.rules.team.options import TeamOptions
from bot.rules.team.playoffs import (
    CandidateVenue,
    GamePlayed,
    MachineSpell,
    PlayoffFixture,
    PlayoffSide,
    RosterSpell,
    VenueMachine,
    check_machine_pick,
    check_playoff_player,
    excluded_machines,
    home_families,
    playoff_eligible,
    playoff_progress,
    playoff_roster,
    rank_neutral_venues,
    round_finished,
    seed_bracket,
)
from bot.rules.team.standings import MatchKind, MatchResult, StandingRow, standings

SEASON_START, SEASON_END = date(2023, 1, 3), date(2023, 5, 2)
OUTSIDER = 99
NAMES = {t: f"Team {chr(64 + t)}" for t in range(1, 27)}  # 1 → "Team A"


def table(wins_by_team: dict[int, int], games: int = 10) -> list[StandingRow]:
    """A conference table: each team plays `games` home matches against an outsider and wins `wins` of them."""
    results = [
        home_match(team, won=i < wins, on=SEASON_END - timedelta(weeks=i))
        for team, wins in wins_by_team.items()
        for i in range(games)
    ]
    return standings(list(wins_by_team), results)


def home_match(team: int, *, won: bool, on: date) -> MatchResult:
    home_points, away_points = (10, 6) if won else (6, 10)
    return MatchResult(0, on, team, OUTSIDER, home_points, away_points, Side.HOME if won else Side.AWAY)


def ranked(count: int) -> list[StandingRow]:
    """Teams 1..count finishing in id order."""
    return table({team: count - team for team in range(1, count + 1)}, games=count)


class TestSeeding:
    def test_default_is_four_teams_higher_seed_home(self) -> None:
        """TEAM-PO-1 / TEAM-AMB-14: top 4 of the conference, 1 v 4 and 2 v 3, the higher seed HOME."""
        playoff = seed_bracket(ranked(6), TeamOptions(), NAMES)
        assert playoff.seeds == (1, 2, 3, 4)
        assert playoff_progress(playoff, {}).ready == (PlayoffFixture("W1-1", 1, 1, 4), PlayoffFixture("W1-2", 1, 2, 3))

    def test_final_puts_the_higher_seed_at_home_even_on_the_bottom_line(self) -> None:
        """TEAM-PO-1: 4 beats 1, 2 beats 3 → final 2 (HOME) v 4; 2 then wins the title."""
        playoff = seed_bracket(ranked(4), TeamOptions(), NAMES)
        progress = playoff_progress(playoff, {"W1-1": 4, "W1-2": 2})
        assert progress.ready == (PlayoffFixture("W2-1", 2, 2, 4),)
        assert playoff_progress(playoff, {"W1-1": 4, "W1-2": 2, "W2-1": 2}).champion == 2

    def test_byes_to_top_seeds_and_no_reseeding(self) -> None:
        """TEAM-AMB-14: 6 playoff teams → seeds 1 and 2 have byes; the bracket is fixed, so after 5 and 6
        both upset, seed 1 meets 5 (the winner of 4 v 5), not the lowest remaining seed 6."""
        playoff = seed_bracket(ranked(8), TeamOptions(playoff_teams=6), NAMES)
        first = playoff_progress(playoff, {})
        assert [(f.home, f.away) for f in first.ready] == [(4, 5), (3, 6)]
        byes = [s for s in first.state.matches if s.bottom is BYE]
        assert [s.top for s in byes] == [1, 2]
        second = playoff_progress(playoff, {"W1-2": 5, "W1-3": 6})
        assert [(f.home, f.away) for f in second.ready] == [(1, 5), (2, 6)]

    def test_small_conference_seeds_everyone(self) -> None:
        """TEAM-PO-1: a 3-team conference with 4 playoff spots plays a 3-team bracket (seed 1 has a bye)."""
        playoff = seed_bracket(ranked(3), TeamOptions(), NAMES)
        assert playoff.seeds == (1, 2, 3)
        assert [(f.home, f.away) for f in playoff_progress(playoff, {}).ready] == [(2, 3)]

    def test_one_team_is_no_playoff(self) -> None:
        """TEAM-PO-1: a bracket needs two teams."""
        with pytest.raises(RuleViolation, match="at least 2 teams") as refusal:
            seed_bracket(ranked(1), TeamOptions(), NAMES)
        assert refusal.value.rule_id == "TEAM-PO-1"

    def test_unplayed_tiebreaker_match_blocks_seeding(self) -> None:
        """TEAM-STAND-2 / TEAM-TV-11: teams level at the 4th/5th cut need their tie-breaker match first."""
        rows = table({1: 9, 2: 8, 3: 7, 4: 5, 5: 5, 6: 1})
        with pytest.raises(RuleViolation, match="Team D and Team E are still level") as refusal:
            seed_bracket(rows, TeamOptions(), NAMES)
        assert refusal.value.rule_id == "TEAM-STAND-2"

    def test_tie_below_the_cut_does_not_block_seeding(self) -> None:
        """TEAM-TV-11 (c): a 6th/7th tie with 4 spots has no playoff implications."""
        rows = table({1: 9, 2: 8, 3: 7, 4: 6, 5: 5, 6: 3, 7: 3})
        assert seed_bracket(rows, TeamOptions(), NAMES).seeds == (1, 2, 3, 4)

    def test_winner_outside_the_playoffs_is_refused(self) -> None:
        playoff = seed_bracket(ranked(4), TeamOptions(), NAMES)
        with pytest.raises(InvalidInput, match="Team 9 is not in these playoffs"):
            playoff_progress(playoff, {"W1-1": 9})

    @given(st.integers(min_value=2, max_value=12), st.integers(min_value=2, max_value=12), st.data())
    def test_every_seeded_team_is_placed_once_and_one_champion_emerges(
        self, conference: int, spots: int, data: st.DataObject
    ) -> None:
        """TEAM-PO-1: every qualifier appears once in the bracket; any results crown exactly one champion."""
        playoff = seed_bracket(ranked(conference), TeamOptions(playoff_teams=spots), NAMES)
        assert playoff.seeds == tuple(range(1, min(conference, spots) + 1))
        winners: dict[str, int] = {}
        while ready := playoff_progress(playoff, winners).ready:
            for fixture in ready:
                assert fixture.home < fixture.away  # seeds are team ids here: lower id = higher seed
                winners[fixture.match_id] = data.draw(st.sampled_from([fixture.home, fixture.away]))
        assert playoff_progress(playoff, winners).champion in playoff.seeds


class TestPlayoffRoster:
    spells = (
        RosterSpell(player=1, team=1, start=SEASON_START),
        RosterSpell(player=2, team=1, start=SEASON_START, end=date(2023, 3, 1)),  # dropped mid-season
        RosterSpell(player=7, team=1, start=date(2023, 3, 7)),  # R7 joined in week 9
        RosterSpell(player=8, team=1, start=SEASON_START),
        RosterSpell(player=9, team=2, start=SEASON_START),
    )
    games = (
        GamePlayed(player=1, team=1, kind=MatchKind.REGULAR),
        GamePlayed(player=2, team=1, kind=MatchKind.REGULAR),
        GamePlayed(player=8, team=2, kind=MatchKind.REGULAR),  # played for another team only
        GamePlayed(player=9, team=2, kind=MatchKind.TIEBREAKER_MATCH),
    )

    def check(self, player: int, team: int = 1) -> None:
        check_playoff_player(player, f"R{player}", team, self.spells, self.games, regular_season_end=SEASON_END)

    def test_roster_is_the_one_of_the_last_regular_week(self) -> None:
        """TEAM-PO-2: the roster in force for the last regular-season week (player 2 was dropped before)."""
        assert playoff_roster(1, self.spells, regular_season_end=SEASON_END) == {1, 7, 8}

    def test_a_player_added_on_the_last_regular_day_is_on_it(self) -> None:
        """TEAM-PO-2: a spell starting on the season's last day is in force that week."""
        spells = (RosterSpell(player=3, team=1, start=SEASON_END),)
        assert playoff_roster(1, spells, regular_season_end=SEASON_END) == {3}

    def test_a_player_whose_spell_ends_on_the_last_regular_day_is_not(self) -> None:
        """TEAM-PO-2: a spell runs up to, not including, its end, so one ending on the last day is over then."""
        spells = (RosterSpell(player=4, team=1, start=SEASON_START, end=SEASON_END),)
        assert playoff_roster(1, spells, regular_season_end=SEASON_END) == frozenset()

    def test_player_off_the_playoff_roster_is_refused(self) -> None:
        """TEAM-PO-2: a player dropped before the last week is not on the playoff roster."""
        with pytest.raises(RuleViolation, match="R2 is not on the playoff roster") as refusal:
            self.check(2)
        assert refusal.value.rule_id == "TEAM-PO-2"

    def test_player_who_never_played_is_refused(self) -> None:
        """TEAM-PO-3 / TEAM-TV-21: R7 joined in week 9 and played no regular-season game → rejected."""
        with pytest.raises(RuleViolation, match="R7 did not play in the regular season") as refusal:
            self.check(7)
        assert refusal.value.rule_id == "TEAM-PO-3"

    def test_games_for_another_team_do_not_count(self) -> None:
        """TEAM-AMB-15: eligibility is for this team; player 8 only played for team 2."""
        with pytest.raises(RuleViolation, match="R8 did not play in the regular season"):
            self.check(8)

    def test_tiebreaker_participation_counts(self) -> None:
        """TEAM-AMB-15: playing in the tie-breaker match counts as a regular-season match game."""
        self.check(9, team=2)

    def test_playoff_games_do_not_make_a_player_eligible(self) -> None:
        """TEAM-PO-3: only regular-season games count."""
        games = (GamePlayed(player=7, team=1, kind=MatchKind.PLAYOFF),)
        assert playoff_eligible(1, self.spells, games, regular_season_end=SEASON_END) == frozenset()

    def test_eligible_players_for_a_lineup_menu(self) -> None:
        """TEAM-PO-2/PO-3: rostered in the last week and played for this team."""
        self.check(1)
        assert playoff_eligible(1, self.spells, self.games, regular_season_end=SEASON_END) == {1}


def machine(machine_id: int, family: str) -> VenueMachine:
    return VenueMachine(machine_id, family.replace("_", " ").title(), family)


def venue(venue_id: int, name: str, *families: str) -> CandidateVenue:
    return CandidateVenue(venue_id, name, tuple(machine(venue_id * 10 + i, f) for i, f in enumerate(families)))


ACES = PlayoffSide(1, "Aces", home_venue=1, home_families=frozenset({"godzilla", "deadpool", "jaws"}))
BUMPERS = PlayoffSide(2, "Bumpers", home_venue=2, home_families=frozenset({"godzilla", "elvira"}))


class TestNeutralVenues:
    def test_criteria_rank_in_priority_order(self) -> None:
        """TEAM-PO-4: c1 neither home, then c2 not played there in these playoffs, then c3 no home model,
        then c4 no model played in earlier rounds (TEAM-AMB-17: by model family)."""
        aces = PlayoffSide(1, "Aces", 1, ACES.home_families, frozenset({5}), frozenset({"stranger_things"}))
        candidates = [
            venue(1, "Aces Bar", "addams_family"),  # fails c1
            venue(5, "Played Here", "addams_family"),  # fails c2
            venue(6, "Home Models", "jaws", "addams_family"),  # fails c3
            venue(7, "Played Models", "stranger_things"),  # fails c4 (a Pro there, the Premium played)
            venue(8, "Clean", "addams_family", "twilight_zone"),  # meets all
        ]
        rows = rank_neutral_venues(candidates, aces, BUMPERS, TeamOptions())
        assert [r.venue.name for r in rows] == ["Clean", "Played Models", "Home Models", "Played Here", "Aces Bar"]
        assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
        assert (rows[0].c1_neither_home, rows[0].c2_not_played_in_playoffs) == (True, True)
        assert (rows[1].c3_no_home_models, rows[1].c4_no_played_models) == (True, False)

    def test_a_higher_criterion_outweighs_all_lower_ones(self) -> None:
        """TEAM-PO-4: failing only c1 ranks below failing c2, c3 and c4 together."""
        aces = PlayoffSide(1, "Aces", 1, ACES.home_families, frozenset({5}), frozenset({"jaws"}))
        rows = rank_neutral_venues(
            [venue(1, "Aces Bar", "medieval_madness"), venue(5, "Everything Else Wrong", "jaws")],
            aces,
            BUMPERS,
            TeamOptions(),
        )
        assert [r.venue.name for r in rows] == ["Everything Else Wrong", "Aces Bar"]

    def test_equal_venues_share_a_rank_and_list_by_name(self) -> None:
        rows = rank_neutral_venues([venue(9, "Zed's"), venue(8, "Alley")], ACES, BUMPERS, TeamOptions())
        assert [(r.venue.name, r.rank) for r in rows] == [("Alley", 1), ("Zed's", 1)]

    def test_common_home_family_fails_c3_by_default(self) -> None:
        """TEAM-AMB-24 `c3_strict`: Godzilla is at both homes and still fails c3 ..."""
        [row] = rank_neutral_venues([venue(9, "Neutral", "godzilla")], ACES, BUMPERS, TeamOptions())
        assert row.c3_no_home_models is False
        assert row.excluded == ()  # ... yet it stays in play at the chosen venue (TEAM-PO-5)

    def test_common_home_family_passes_c3_when_allowed(self) -> None:
        """TEAM-AMB-24 `c3_allow_common`: a family at both homes does not fail c3; one at one home still does."""
        options = TeamOptions(neutral_venue_c3="c3_allow_common")
        rows = rank_neutral_venues(
            [venue(9, "Common", "godzilla"), venue(8, "One Home", "elvira")], ACES, BUMPERS, options
        )
        assert [(r.venue.name, r.c3_no_home_models) for r in rows] == [("Common", True), ("One Home", False)]

    def test_home_families_count_any_point_of_the_season(self) -> None:
        """TEAM-PO-4 c3: models at a team's home AT ANY POINT during the season, by dated machine history."""
        history = [
            MachineSpell(1, "jaws", installed=date(2022, 6, 1), removed=date(2023, 2, 1)),  # left mid-season
            MachineSpell(1, "deadpool", installed=date(2023, 4, 1)),  # arrived mid-season
            MachineSpell(1, "tron", installed=date(2021, 1, 1), removed=SEASON_START),  # gone on opening day
            MachineSpell(1, "rush", installed=date(2023, 5, 3)),  # after the season
            MachineSpell(2, "elvira", installed=date(2020, 1, 1)),  # another venue
        ]
        families = home_families(history, 1, season_start=SEASON_START, season_end=SEASON_END)
        assert families == {"jaws", "deadpool"}

    def test_a_model_installed_on_the_last_day_of_the_season_counts(self) -> None:
        """TEAM-PO-4 c3: a machine there on the season's last day was at the home during the season."""
        history = [MachineSpell(1, "rush", installed=SEASON_END)]
        assert home_families(history, 1, season_start=SEASON_START, season_end=SEASON_END) == {"rush"}


class TestVenueTrigger:
    def test_next_venues_are_chosen_when_the_round_is_over(self) -> None:
        """TEAM-PO-4: venues are chosen after the last match of the current round (byes count as done)."""
        playoff = seed_bracket(ranked(6), TeamOptions(playoff_teams=6), NAMES)
        assert not round_finished(playoff_progress(playoff, {"W1-2": 4}), 1)
        assert round_finished(playoff_progress(playoff, {"W1-2": 4, "W1-3": 3}), 1)
        assert not round_finished(playoff_progress(playoff, {"W1-2": 4, "W1-3": 3}), 2)


class TestExcludedMachines:
    def test_one_home_models_are_excluded_and_common_ones_allowed(self) -> None:
        """TEAM-PO-5: at the chosen venue, families at only one team's home are excluded; both-homes families
        count as neutral."""
        chosen = venue(9, "Chosen", "jaws", "elvira", "godzilla", "twilight_zone")
        excluded = excluded_machines(chosen.machines, ACES, BUMPERS)
        assert [(e.machine.model_family, e.home_team, e.home_team_name) for e in excluded] == [
            ("jaws", 1, "Aces"),
            ("elvira", 2, "Bumpers"),
        ]

    def test_pick_of_an_excluded_machine_is_refused(self) -> None:
        """TEAM-PO-5: "<machine> excluded: home-venue model of <team>"."""
        chosen = venue(9, "Chosen", "jaws", "godzilla")
        excluded = excluded_machines(chosen.machines, ACES, BUMPERS)
        with pytest.raises(RuleViolation) as refusal:
            check_machine_pick(90, excluded)
        assert (refusal.value.rule_id, refusal.value.message) == (
            "TEAM-PO-5",
            "Jaws excluded: home-venue model of Aces",
        )
        check_machine_pick(91, excluded)  # Godzilla is at both homes: allowed


def test_team_stand_2_a_three_way_tie_at_the_cut_names_all_three() -> None:
    """TEAM-STAND-2: the refusal lists every level team, the last after "and"."""
    with pytest.raises(RuleViolation) as refusal:
        seed_bracket(table({1: 9, 2: 8, 3: 5, 4: 5, 5: 5, 6: 1}), TeamOptions(), NAMES)
    assert refusal.value.message == (
        "Team C, Team D and Team E are still level after every tie-breaker; play the tie-breaker match before seeding."
    )


def test_team_po_1_one_team_is_refused_word_for_word() -> None:
    with pytest.raises(RuleViolation) as refusal:
        seed_bracket(ranked(1), TeamOptions(), NAMES)
    assert refusal.value.message == "A playoff needs at least 2 teams in the conference."
