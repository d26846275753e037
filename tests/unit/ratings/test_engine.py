"""The rating engine (bot/rules/ratings): ordered machine games in, Plackett–Luce ratings and metrics out."""

import pytest

from bot.rules.ratings.engine import PROVISIONAL_SIGMA, Game, Rating, RatingBook, RatingSettings
from bot.rules.ratings.metrics import pairwise_hits, spearman, spearman_textbook


def test_a_game_from_scores_orders_players_and_ties_share_a_place():
    game = Game.from_scores({"a": 300, "b": 900, "c": 300, "d": 50})
    assert game.places == (("b",), ("a", "c"), ("d",))


def test_each_place_rates_above_the_next():
    book: RatingBook[str] = RatingBook()
    book.play(Game.from_scores({"a": 10, "b": 20, "c": 15, "d": 5}))
    b, c, a, d = (book.rating(p) for p in "bcad")
    assert b.mu > c.mu > 25 > a.mu > d.mu
    assert all(r.games == 1 for r in (a, b, c, d))


def test_tied_players_move_together():
    book: RatingBook[str] = RatingBook()
    book.play(Game.from_scores({"a": 10, "b": 20, "c": 20, "d": 5}))
    assert book.rating("b").mu == pytest.approx(book.rating("c").mu)
    assert book.rating("b").mu > book.rating("d").mu


def test_a_new_player_is_provisional_until_games_narrow_their_sigma():
    book: RatingBook[str] = RatingBook()
    assert book.rating("new").provisional and book.rating("new").games == 0
    for week in range(60):
        book.play(Game.from_scores({"steady": 100 + week, "rival": 50, "third": 70 + week // 2}))
    steady = book.rating("steady")
    assert steady.sigma < PROVISIONAL_SIGMA and not steady.provisional
    assert book.ranked(["rival", "steady", "third"]) == ["steady", "third", "rival"]


def test_a_game_of_one_player_changes_nothing():
    book: RatingBook[str] = RatingBook()
    book.play(Game.from_scores({"alone": 1_000}))
    assert book.ratings() == {}


def test_pairwise_hits_skip_ties_and_players_without_a_strength():
    strength = {"a": 3.0, "b": 2.0, "c": 1.0, "d": 1.0}
    scores = {"a": 50, "b": 60, "c": 10, "d": 5, "guest": 100}
    # pairs: a>b miss, a>c hit, a>d hit, b>c hit, b>d hit; c–d tied on strength
    assert pairwise_hits(strength, scores) == (4, 5)


def test_spearman_of_the_same_order_is_one_and_of_the_reverse_minus_one():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman([1, 1, 1], [1, 2, 3]) is None
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(0.9486833)


def test_the_textbook_spearman_agrees_without_ties_and_not_with_them():
    assert spearman_textbook([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman_textbook([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert spearman_textbook([4, 3, 2, 1], [3, 4, 2, 1]) == pytest.approx(0.8)
    assert spearman_textbook([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(0.95)  # Σd² = 0.5
    assert spearman_textbook([1, 1, 1], [1, 2, 3]) == pytest.approx(0.5)  # no spread, yet a value
    with pytest.raises(ValueError, match=r"^predicted and actual must be the same length$"):
        spearman_textbook([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match=r"^needs at least 2 values$"):
        spearman_textbook([1], [1])


def test_the_textbook_spearman_of_two_values_is_one_or_minus_one():
    """Two values are the fewest it takes: Σd² is 0 in the same order, 2 reversed, so 1 − 6·2 / (2·3) = −1."""
    assert spearman_textbook([1, 2], [5, 9]) == pytest.approx(1.0)
    assert spearman_textbook([1, 2], [9, 5]) == pytest.approx(-1.0)


def test_a_two_player_game_rates_both_and_each_game_counts():
    book: RatingBook[str] = RatingBook()
    book.play(Game.from_scores({"a": 200, "b": 100}))
    assert book.rating("a").mu > 25 > book.rating("b").mu
    book.play_all([Game.from_scores({"a": 50, "b": 100, "c": 75}), Game.from_scores({"a": 10, "c": 20})])
    assert {player: rating.games for player, rating in book.ratings().items()} == {"a": 3, "b": 2, "c": 2}
    assert book.ratings() == {player: book.rating(player) for player in "abc"}
    assert book.ratings()["a"] != book.ratings()["b"]


def test_every_setting_reaches_the_model_so_a_rescaled_league_gets_the_same_table_rescaled():
    games = [Game.from_scores({"a": 4, "b": 3, "c": 2, "d": 1}), Game.from_scores({"a": 1, "b": 3, "c": 2})]
    k = 10.0
    base: RatingBook[str] = RatingBook()
    scaled: RatingBook[str] = RatingBook(RatingSettings(mu=25 * k, sigma=25 / 3 * k, beta=25 / 6 * k, tau=25 / 300 * k))
    base.play_all(games)
    scaled.play_all(games)
    assert scaled.rating("nobody") == Rating(25 * k, 25 / 3 * k, 0)
    for player in "abcd":
        one, other = base.rating(player), scaled.rating(player)
        assert other.mu - 25 * k == pytest.approx(k * (one.mu - 25), rel=1e-9)
        assert other.sigma == pytest.approx(k * one.sigma, rel=1e-9)


def test_a_copied_book_plays_on_while_the_original_stays_as_it_was():
    settings = RatingSettings(mu=1_000.0, sigma=300.0, beta=150.0, tau=3.0)
    book: RatingBook[str] = RatingBook(settings)
    book.play(Game.from_scores({"a": 20, "b": 10}))
    before = book.ratings()
    twin = book.copy()
    assert twin.ratings() == before
    twin.play(Game.from_scores({"a": 1, "b": 10, "c": 5}))
    assert book.ratings() == before
    assert twin.rating("a").games == 2 and twin.rating("a").mu < before["a"].mu
    assert twin.rating("new") == book.rating("new") == Rating(1_000.0, 300.0, 0)


def test_a_pair_tied_on_score_is_skipped_and_the_pairs_after_it_still_count():
    strength = {"a": 3.0, "b": 2.0, "c": 1.0}
    assert pairwise_hits(strength, {"a": 10, "b": 10, "c": 20}) == (0, 2)
    assert pairwise_hits({"a": 1.0, "b": 1.0, "c": 2.0}, {"a": 10, "b": 5, "c": 20}) == (2, 2)


def test_spearman_needs_one_value_each_and_an_unspread_actual_order_says_nothing():
    with pytest.raises(ValueError, match=r"^predicted and actual must be the same length$"):
        spearman([1, 2, 3], [1, 2])
    assert spearman([1, 2, 3], [5, 5, 5]) is None
