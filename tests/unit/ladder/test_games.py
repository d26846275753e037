"""Nightly game selection and play order (bot/rules/ladder/games.py): LADDER-GSEL-*, LADDER-ORDER-*,
LADDER-AMB-14/15/16/30."""

from fractions import Fraction

import pytest

from bot.rules.ladder.games import (
    Pick,
    Standing,
    check_pick,
    commissioner_games,
    first_game_order,
    league_ranks,
    next_game_order,
    next_picker,
    picks_needed,
    select_games,
)
from tests.unit.ladder.helpers import refused, refused_saying


def picks(*games: str, pickers: tuple[int, ...] = (3, 2, 1)) -> list[Pick]:
    return [Pick(pickers[i % len(pickers)], g) for i, g in enumerate(games)]


def test_tv26a_duplicate_pick_excluded_then_next_by_votes_and_pick_order():
    """LADDER-TV-26 (a) / LADDER-GSEL-3 / LADDER-AMB-14: P = 7, picks C, C, F → play A, B, D, E, G."""
    assert select_games(list("ABCDEFG"), picks("C", "C", "F"), pickers=3, games=5) == list("ABDEG")


def test_tv26b_no_duplicates_excludes_the_lowest_ranked_players_pick():
    """LADDER-TV-26 (b) / LADDER-GSEL-3: P = 6, picks B, D, E → B (worst-placed picker) is left out."""
    assert select_games(list("ABCDEF"), picks("B", "D", "E"), pickers=3, games=5) == list("ACDEF")


def test_tv26c_fewer_than_five_machines_double_the_most_picked():
    """LADDER-TV-26 (c) / LADDER-GSEL-2: P = 4, picks A, C, C → C twice: A, B, C, C, D."""
    assert select_games(list("ABCD"), picks("A", "C", "C"), pickers=3, games=5) == list("ABCCD")


def test_tv26d_five_machines_play_all_five_without_picks():
    """LADDER-TV-26 (d) / LADDER-GSEL-2 / LADDER-GSEL-4: P = 5 → the five slots are the working set."""
    assert picks_needed(list("ABCDE"), games=5) == 0
    assert select_games(list("ABCDE"), [], pickers=3, games=5) == list("ABCDE")


def test_p_below_five_never_plays_a_game_more_than_ceil_5_over_p():
    """LADDER-AMB-14: P = 3 → two repeats, at most twice each; P = 2 → three times; P = 1 → five times."""
    assert select_games(list("ABC"), picks("A", "B", "A"), pickers=3, games=5) == list("AABBC")
    assert select_games(list("AB"), picks("B", "A", "B"), pickers=3, games=5) == list("AABBB")
    assert select_games(["A"], [], pickers=3, games=5) == ["A"] * 5
    with refused("LADDER-AMB-14", "another pass"):  # A may be played only twice when P = 3
        select_games(list("ABC"), picks("A", "A", "A"), pickers=3, games=5)


def test_not_enough_different_games_needs_another_pass():
    """LADDER-AMB-14: fewer different picked games than needed → another pass from the lowest-ranked player."""
    with refused("LADDER-AMB-14", "another pass"):
        select_games(list("ABCDEFGH"), picks("A", "A", "B"), pickers=3, games=5)
    # votes A 2, C 2, B 1, D 1; level votes go by the earliest pick → A, C, B are left out
    assert select_games(list("ABCDEFGH"), picks("A", "A", "B", "C", "C", "D"), pickers=3, games=5) == list("DEFGH")


def test_a_pass_must_be_complete():
    """LADDER-GSEL-3: the slots are set once every present player has picked in the pass."""
    with refused("LADDER-GSEL-3", "Every present player picks once"):
        select_games(list("ABCDEFG"), picks("C", "C"), pickers=3, games=5)


def test_picks_in_turn_worst_placed_first():
    """LADDER-GSEL-3: refuse a non-working game, a non-member, or a second pick in the same pass."""
    pickers = [9, 4, 2]  # worst-placed first
    assert next_picker(pickers, []) == 9
    check_pick(list("ABCDEFG"), pickers, [], Pick(9, "C"))
    with refused("LADDER-GSEL-3", "not in tonight's working set"):
        check_pick(list("ABCDEFG"), pickers, [], Pick(9, "Z"))
    with refused("LADDER-GSEL-3", "Not your turn"):
        check_pick(list("ABCDEFG"), pickers, [Pick(9, "C")], Pick(9, "D"))
    with refused("LADDER-GSEL-3", "present players"):
        check_pick(list("ABCDEFG"), pickers, [], Pick(7, "C"))
    assert next_picker(pickers, picks("A", "B", "C", pickers=(9, 4, 2))) == 9  # the next pass starts over


def test_tv25_play_order():
    """LADDER-TV-25 / LADDER-ORDER-1 / LADDER-ORDER-2 / LADDER-AMB-30: ranks #4, #9, #2 → #9, #4, #2;
    then the reverse of game 1's finish (#9, #2, #4) → #4, #2, #9."""
    ranks = {"p4": 4, "p9": 9, "p2": 2}
    assert first_game_order(ranks) == ["p9", "p4", "p2"]  # type: ignore[arg-type]
    assert next_game_order(["p9", "p2", "p4"]) == ["p4", "p2", "p9"]  # type: ignore[list-item]
    assert first_game_order({1: 1, 5: 5, 6: 6, 8: 8}) == [8, 6, 5, 1]
    assert first_game_order({3: 3, 7: 7}) == [7, 3]


def test_league_rank_by_tlp_then_ans_then_skill():
    """LADDER-ORDER-3 / LADDER-AMB-16: standings rank (TLP, then ANS); in week 1 skill, then commissioner order."""
    week_one = [
        Standing(1, skill=5, commissioner_order=0),
        Standing(2, skill=8, commissioner_order=1),
        Standing(3, skill=5, commissioner_order=2),
    ]
    assert league_ranks(week_one) == {2: 1, 1: 2, 3: 3}
    later = [Standing(1, 30, Fraction(2)), Standing(2, 30, Fraction(3)), Standing(3, 31, Fraction(1))]
    assert league_ranks(later) == {3: 1, 2: 2, 1: 3}


def test_week_one_rank_of_a_later_season_follows_last_seasons_finish():
    """LADDER-ORDER-3 after `/season new`: before any result, returning players rank by last season's finishing
    place, ahead of skill; once results come in, TLP decides again."""
    week_one = [Standing(1, skill=9, seed=2), Standing(2, skill=3, seed=1), Standing(3, skill=10)]
    assert league_ranks(week_one) == {2: 1, 1: 2, 3: 3}
    later = [Standing(1, 20, seed=2), Standing(2, 10, seed=1), Standing(3, 30)]
    assert league_ranks(later) == {3: 1, 1: 2, 2: 3}


@pytest.mark.parametrize("working", [list("ABCDEFG"), list("ABCD"), list("ABCDEFGHIJ")])
def test_always_five_slots(working):
    """LADDER-GSEL-2 / LADDER-GSEL-4: whatever P, the group gets exactly five slots."""
    needed = picks_needed(working, games=5)
    chosen = select_games(working, [Pick(i, g) for i, g in enumerate(working[:needed])], pickers=needed, games=5)
    assert len(chosen) == 5


def test_refusals_say_what_to_do():
    """LADDER-GSEL-3: each refusal names the fix, word for word as the member reads it."""
    pickers = [9, 4, 2]
    with refused_saying("LADDER-GSEL-3", "Z is not in tonight's working set: pick one of A, B, C, D, E, F."):
        check_pick(list("ABCDEF"), pickers, [], Pick(9, "Z"))
    with refused_saying("LADDER-GSEL-3", "Only the present players of this group pick its games."):
        check_pick(list("ABCDEF"), pickers, [], Pick(7, "C"))
    with refused_saying("LADDER-GSEL-3", "Every present player picks once in this pass before the games are set."):
        select_games(list("ABCDEFG"), picks("C", "C"), pickers=3, games=5)


@pytest.mark.parametrize(
    ("working", "chosen", "games", "missing"),
    [
        (list("ABCDEFG"), ("A", "A"), 5, "1 more game"),  # P = 7: two to leave out, one named
        (list("ABCDEFGH"), ("A", "A", "A"), 5, "2 more games"),  # P = 8: three to leave out, one named
        (list("AB"), ("A",), 5, "1 more game"),  # P = 2: 3 repeats, A takes 2 of them, one more game
        (list("ABC"), (), 5, "2 more games"),  # P = 3: 2 repeats, each game at most one
    ],
)
def test_another_pass_says_how_many_games_are_missing(working, chosen, games, missing):
    """LADDER-AMB-14: the refusal counts the games still to be named."""
    with refused_saying(
        "LADDER-AMB-14",
        f"{missing} must be named: another pass of picks starts from the lowest-ranked player.",
    ):
        select_games(
            working, picks(*chosen, pickers=(1,) * max(len(chosen), 1)), pickers=max(len(chosen), 1), games=games
        )


def test_a_league_playing_four_games_a_night_leaves_out_two_of_six():
    """LADDER-CFG-1 `games_per_match` / LADDER-GSEL-2: P = 6 for 4 games → two picks are left out."""
    assert picks_needed(list("ABCDEF"), games=4) == 2
    assert select_games(list("ABCDEF"), picks("B", "E", pickers=(2, 1)), pickers=2, games=4) == list("ACDF")


def test_the_commissioners_games_are_taken_as_named():
    """LADDER-CFG-2 / LADDER-AMB-15: the commissioner's games, in the order named (one may repeat), spelled as the
    working set spells them; a game outside it, or the wrong number of games, is refused with the fix."""
    assert commissioner_games(["Attack", "Bride"], ["bride", "Attack", "BRIDE"], games=3) == [
        "Bride",
        "Attack",
        "Bride",
    ]
    with refused_saying(
        "LADDER-GSEL-2", "Name 2 games from tonight's working set, separated by commas; not working tonight: Cactus."
    ):
        commissioner_games(["Attack", "Bride"], ["Attack", "Cactus"], games=2)
    with refused_saying("LADDER-GSEL-2", "Name 2 games from tonight's working set, separated by commas."):
        commissioner_games(["Attack", "Bride"], ["Attack"], games=2)


def test_every_commissioners_game_outside_the_working_set_is_named():
    """LADDER-GSEL-2: the refusal lists each named game that is not working tonight, in the order named."""
    with refused_saying(
        "LADDER-GSEL-2",
        "Name 3 games from tonight's working set, separated by commas; not working tonight: Dune, Cactus.",
    ):
        commissioner_games(["Attack", "Bride"], ["Dune", "Attack", "Cactus"], games=3)
