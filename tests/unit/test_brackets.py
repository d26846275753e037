"""Generic elimination brackets (bot/rules/brackets.py): seeding, byes, advancing, double elimination."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.brackets import (
    BYE,
    Bracket,
    BracketState,
    Bye,
    LoserOf,
    Part,
    Seed,
    double_elimination,
    resolve,
    seed_lines,
    single_elimination,
)
from bot.rules.refusals import InvalidInput


def first_round(bracket: Bracket) -> list[tuple[int, int | str]]:
    """(top seed, bottom seed or "bye") of each first-round match, top to bottom."""
    lines = []
    for match in bracket.matches:
        if match.part is Part.WINNERS and match.round == 1:
            assert isinstance(match.top, Seed)
            lines.append((match.top.number, match.bottom.number if isinstance(match.bottom, Seed) else "bye"))
    return lines


def play_out(bracket: Bracket, pick: st.DataObject | None = None) -> tuple[BracketState, dict[str, int]]:
    """Enter results until the bracket is done; the higher seed wins unless `pick` draws the winner."""
    winners: dict[str, int] = {}
    while ready := resolve(bracket, winners).ready():
        for match in ready:
            assert isinstance(match.top, int) and isinstance(match.bottom, int)
            entrants = [match.top, match.bottom]
            winners[match.match.id] = pick.draw(st.sampled_from(entrants)) if pick else min(entrants)
    return resolve(bracket, winners), winners


def losses(state: BracketState) -> Counter[int]:
    return Counter(s.loser for s in state.matches if isinstance(s.loser, int))


class TestSeeding:
    def test_sixteen_slots_follow_the_printed_pairing(self) -> None:
        """FIELD-FIN-3: standard pairing of slots 1-16, 8-9, 5-12, 4-13, 6-11, 3-14, 7-10, 2-15."""
        assert first_round(single_elimination(16)) == [
            (1, 16),
            (8, 9),
            (5, 12),
            (4, 13),
            (6, 11),
            (3, 14),
            (7, 10),
            (2, 15),
        ]

    def test_four_and_eight(self) -> None:
        assert first_round(single_elimination(4)) == [(1, 4), (2, 3)]
        assert first_round(single_elimination(8)) == [(1, 8), (4, 5), (3, 6), (2, 7)]

    def test_byes_go_to_the_top_seeds(self) -> None:
        """FIELD-FIN-3: with fewer than 16 players, byes go to the top seeds (11 players: seeds 1-5 have byes)."""
        bracket = single_elimination(11)
        assert bracket.size == 16
        byes = sorted(top for top, bottom in first_round(bracket) if bottom == "bye")
        assert byes == [1, 2, 3, 4, 5]

    def test_two_entrants_play_one_final(self) -> None:
        bracket = single_elimination(2)
        assert [(m.id, m.top, m.bottom) for m in bracket.matches] == [("W1-1", Seed(1), Seed(2))]

    def test_one_entrant_is_no_bracket(self) -> None:
        with pytest.raises(ValueError):
            single_elimination(1)

    @given(st.integers(min_value=2, max_value=70))
    def test_every_seed_is_placed_exactly_once(self, n: int) -> None:
        bracket = single_elimination(n)
        seeds = [s.number for m in bracket.matches for s in (m.top, m.bottom) if isinstance(s, Seed)]
        assert sorted(seeds) == list(range(1, n + 1))
        assert sum(isinstance(s, Bye) for m in bracket.matches for s in (m.top, m.bottom)) == bracket.size - n

    @given(st.integers(min_value=2, max_value=70))
    def test_byes_only_face_the_best_seeds(self, n: int) -> None:
        bye_holders = [top for top, bottom in first_round(single_elimination(n)) if bottom == "bye"]
        assert sorted(bye_holders) == list(range(1, len(bye_holders) + 1))

    @given(st.sampled_from([2, 4, 8, 16, 32, 64, 128]))
    def test_lines_are_a_standard_seeding(self, size: int) -> None:
        """Each pair sums to size+1, and seeds 1 and 2 sit in different halves so they meet only in the final."""
        lines = seed_lines(size)
        assert sorted(lines) == list(range(1, size + 1))
        assert all(lines[i] + lines[i + 1] == size + 1 for i in range(0, size, 2))
        assert (lines.index(1) < size // 2) != (lines.index(2) < size // 2)


class TestSingleElimination:
    def test_favourites_win_and_one_meets_two_in_the_final(self) -> None:
        state, _ = play_out(single_elimination(6))
        final = state.matches[-1]
        assert (final.top, final.bottom, final.winner) == (1, 2, 1)
        assert state.champion == 1

    def test_a_bye_advances_without_a_result(self) -> None:
        state = resolve(single_elimination(3), {})
        by_id = {s.match.id: s for s in state.matches}
        assert by_id["W1-1"].winner == 1 and by_id["W1-1"].bottom is BYE
        assert [s.match.id for s in state.ready()] == ["W1-2"]
        assert by_id["W2-1"].top == 1 and by_id["W2-1"].bottom is None

    def test_winners_advance_to_the_next_round(self) -> None:
        state = resolve(single_elimination(4), {"W1-1": 4, "W1-2": 2})
        final = next(s for s in state.matches if s.match.id == "W2-1")
        assert (final.top, final.bottom, final.ready) == (4, 2, True)
        assert state.champion is None

    def test_result_for_a_seed_not_in_the_match_is_refused(self) -> None:
        with pytest.raises(InvalidInput, match="Seed 3 is not playing in match W1-1"):
            resolve(single_elimination(4), {"W1-1": 3})

    def test_result_before_both_entrants_are_known_is_refused(self) -> None:
        with pytest.raises(InvalidInput, match="before both entrants are known"):
            resolve(single_elimination(4), {"W2-1": 1})

    def test_result_for_a_bye_is_refused(self) -> None:
        with pytest.raises(InvalidInput, match="is a bye"):
            resolve(single_elimination(3), {"W1-1": 1})

    def test_unknown_match_is_refused(self) -> None:
        with pytest.raises(InvalidInput, match="No match W9-1"):
            resolve(single_elimination(4), {"W9-1": 1})

    @given(st.integers(min_value=2, max_value=40), st.data())
    def test_any_results_crown_one_champion_and_eliminate_everyone_else_once(self, n: int, data: st.DataObject) -> None:
        state, _ = play_out(single_elimination(n), data)
        assert state.champion is not None
        assert losses(state) == Counter(s for s in range(1, n + 1) if s != state.champion)


class TestDoubleElimination:
    def test_sixteen_has_six_losers_rounds_and_a_reset_final(self) -> None:
        """FIELD-FIN-7, FIELD-AMB-8: 4 winners' rounds, 6 losers' rounds, grand final with reset."""
        bracket = double_elimination(16)
        rounds = Counter((m.part, m.round) for m in bracket.matches)
        assert [rounds[Part.WINNERS, r] for r in range(1, 5)] == [8, 4, 2, 1]
        assert [rounds[Part.LOSERS, r] for r in range(1, 7)] == [4, 4, 2, 2, 1, 1]
        assert [m.id for m in bracket.matches if m.part is Part.GRAND_FINAL] == ["GF", "GF2"]

    def test_reset_is_skipped_when_the_winners_champion_takes_the_first_final(self) -> None:
        state, winners = play_out(double_elimination(8))
        assert "GF2" not in winners
        assert state.matches[-1].skipped
        assert state.champion == 1

    def test_reset_is_played_when_the_losers_champion_wins_the_first_final(self) -> None:
        bracket = double_elimination(4)
        winners = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 4, "L2-1": 2, "GF": 2}
        state = resolve(bracket, winners)
        reset = state.matches[-1]
        assert (reset.match.id, reset.top, reset.bottom, reset.ready) == ("GF2", 1, 2, True)
        assert resolve(bracket, {**winners, "GF2": 2}).champion == 2

    def test_without_reset_the_first_final_decides(self) -> None:
        bracket = double_elimination(4, grand_final_reset=False)
        winners = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 4, "L2-1": 2, "GF": 2}
        assert resolve(bracket, winners).champion == 2

    def test_a_reset_that_is_not_needed_takes_no_result(self) -> None:
        winners = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 4, "L2-1": 2, "GF": 1, "GF2": 1}
        with pytest.raises(InvalidInput, match="GF2 is not needed"):
            resolve(double_elimination(4), winners)

    def test_byes_go_through_both_brackets(self) -> None:
        """FIELD-FIN-7: with 11 players the bye holders' empty losses also pass the losers' bracket."""
        state = resolve(double_elimination(11), {})
        losers_round_1 = {s.match.id: s for s in state.matches if s.match.part is Part.LOSERS and s.match.round == 1}
        # Seeds 1-5 have byes: W1-1 (1 v bye), W1-3 (5 v bye), W1-4 (4 v bye), W1-6 (3 v bye), W1-8 (2 v bye).
        assert (losers_round_1["L1-1"].top, losers_round_1["L1-1"].bottom) == (BYE, None)  # bye v loser of 8-9
        assert (losers_round_1["L1-2"].top, losers_round_1["L1-2"].winner) == (BYE, BYE)  # bye v bye
        assert sum(s.top is BYE or s.bottom is BYE for s in losers_round_1.values()) == 4

    def test_two_entrants_meet_again_in_the_grand_final(self) -> None:
        bracket = double_elimination(2)
        state = resolve(bracket, {"W1-1": 2, "GF": 1})
        assert (state.matches[-1].top, state.matches[-1].bottom) == (2, 1)
        assert resolve(bracket, {"W1-1": 2, "GF": 1, "GF2": 1}).champion == 1

    @given(st.integers(min_value=2, max_value=33), st.booleans(), st.data())
    def test_everyone_but_the_champion_loses_exactly_twice(self, n: int, reset: bool, data: st.DataObject) -> None:
        """FIELD-FIN-7: a second loss eliminates; every entrant is placed once and nobody is dropped."""
        state, _ = play_out(double_elimination(n, grand_final_reset=reset), data)
        champion = state.champion
        assert champion is not None
        lost = losses(state)
        assert lost[champion] <= 1
        # Without a reset the winners' champion can go out after one loss, in the grand final.
        first_final_loser = next(s.loser for s in state.matches if s.match.id == "GF")
        assert all(lost[s] == 2 or (s == first_final_loser and not reset) for s in range(1, n + 1) if s != champion)


def test_a_bracket_needs_two_entrants_and_keeps_its_count_size_and_final_rounds():
    with pytest.raises(ValueError, match=r"^a bracket needs at least 2 entrants$"):
        single_elimination(1)
    assert (single_elimination(5).entrants, single_elimination(5).size) == (5, 8)
    bracket = double_elimination(3, slots=8)
    assert (bracket.entrants, bracket.size) == (3, 8)
    finals = [(m.id, m.round) for m in bracket.matches if m.part is Part.GRAND_FINAL]
    assert finals == [("GF", 1), ("GF2", 2)]


def test_every_other_losers_intake_is_reversed_so_players_who_just_met_are_sent_apart():
    """FIELD-FIN-7: in a 16-bracket the winners' round 2 losers drop in reversed, round 3's in order."""
    bracket = double_elimination(16)
    drops: dict[int, list[str]] = {}
    for match in bracket.matches:
        if match.part is Part.LOSERS and match.round in (2, 4, 6):
            assert isinstance(match.top, LoserOf)
            drops.setdefault(match.round, []).append(match.top.match)
    assert drops == {2: ["W2-4", "W2-3", "W2-2", "W2-1"], 4: ["W3-1", "W3-2"], 6: ["W4-1"]}


def test_a_result_waits_for_both_entrants_and_an_unneeded_reset_is_still_listed():
    bracket = single_elimination(4)
    with pytest.raises(InvalidInput) as info:
        resolve(bracket, {"W1-1": 1, "W2-1": 1})
    assert info.value.message == "Match W2-1 cannot have a result before both entrants are known."
    double = double_elimination(2)
    state = resolve(double, {"W1-1": 1, "GF": 1})
    assert [(s.match.id, s.skipped) for s in state.matches][-2:] == [("GF", False), ("GF2", True)]
    assert state.champion == 1


def test_a_bye_against_a_player_not_yet_known_has_no_winner_or_loser_yet():
    """FIELD-FIN-3: in the losers' bracket of 3, the bye of seed 1's first round waits for the 2-3 loser."""
    state = resolve(double_elimination(3), {})
    [waiting] = [s for s in state.matches if s.match.part is Part.LOSERS and s.match.round == 1]
    assert (waiting.winner, waiting.loser) == (None, None)
