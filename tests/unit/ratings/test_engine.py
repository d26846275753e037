"""The rating engine (bot/rules/ratings): ordered machine games in, Plackett–Luce ratings and metrics out."""

import pytest

from bot.rules.ratings.engine import PROVISIONAL_SIGMA, Game, RatingBook
from bot.rules.ratings.metrics import pairwise_hits, spearman


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
