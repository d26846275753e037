"""The margin filter (bot/rules/ratings/margins.py): skills on the log-score scale, read against the field."""

import math

import pytest

from bot.rules.ratings.margins import DRIFT, NOISE, PRIOR_VARIANCE, MarginFilter


def test_a_margin_reads_the_log_of_the_score_so_each_machine_counts_on_its_own_scale():
    big = {"a": 40_000_000, "b": 4_000_000, "c": 400_000}
    small = {"a": 40_000, "b": 4_000, "c": 400}
    on_big: MarginFilter[str] = MarginFilter()
    on_big.add([big])
    on_small: MarginFilter[str] = MarginFilter()
    on_small.add([small])
    for player in big:
        assert on_big.skill(player) == pytest.approx(on_small.skill(player))
    assert on_big.skill("a") == pytest.approx(-on_big.skill("c"))
    assert on_big.skill("b") == pytest.approx(0.0)


def test_a_first_meet_shrinks_the_margin_towards_the_origin_by_the_prior_against_the_noise():
    book: MarginFilter[str] = MarginFilter()
    book.add([{"a": 1000, "b": 100, "c": 10}])
    prior = PRIOR_VARIANCE + DRIFT
    assert book.skill("a") == pytest.approx(math.log(10) * prior / (prior + NOISE))


def test_each_machine_is_one_more_reading_and_their_order_does_not_matter():
    first = {"a": 1000, "b": 100, "c": 10}
    second = {"a": 100, "b": 1000, "c": 10, "d": 100}  # a at the field's mean here
    one: MarginFilter[str] = MarginFilter()
    one.add([first])
    both: MarginFilter[str] = MarginFilter()
    both.add([first, second])
    turned: MarginFilter[str] = MarginFilter()
    turned.add([second, first])
    assert both.skill("a") == pytest.approx(turned.skill("a"))
    assert 0 < both.skill("a") < one.skill("a")


def test_beating_a_strong_field_counts_for_more_than_beating_a_weak_one():
    book: MarginFilter[str] = MarginFilter()
    book.add([{"strong1": 1000, "strong2": 1000, "weak1": 10, "weak2": 10}])
    book.add([{"x": 300, "strong1": 100, "strong2": 100}, {"y": 300, "weak1": 100, "weak2": 100}])
    assert book.skill("x") > book.skill("y") > 0


def test_a_short_machine_says_nothing_and_a_missed_meet_leaves_a_skill_alone():
    book: MarginFilter[str] = MarginFilter()
    book.add([{"a": 100, "b": 10}])
    assert book.skill("a") == book.skill("b") == 0.0
    book.add([{"a": 100, "b": 10, "c": 1}])
    kept = book.skill("c")
    book.add([{"a": 100, "b": 10, "d": 1}])
    assert book.skill("c") == kept


def test_later_meets_weigh_more_as_the_skill_drifts():
    # The same two meets in either order: with drift, the last one pulls the skill further.
    up, down = {"a": 1000, "b": 100, "c": 10}, {"a": 10, "b": 100, "c": 1000}
    ends_up: MarginFilter[str] = MarginFilter(drift=0.5)
    ends_up.add([down])
    ends_up.add([up])
    assert ends_up.skill("a") > 0
    still: MarginFilter[str] = MarginFilter(drift=0.0)
    still.add([down])
    still.add([up])
    assert still.skill("a") == pytest.approx(0.0, abs=0.02)


def test_a_score_of_zero_counts_as_one():
    zero: MarginFilter[str] = MarginFilter()
    zero.add([{"p": 0, "mid": 10, "high": 100}])
    one: MarginFilter[str] = MarginFilter()
    one.add([{"p": 1, "mid": 10, "high": 100}])
    assert zero.skill("p") == pytest.approx(one.skill("p"))
    assert one.skill("p") == pytest.approx(-one.skill("high"))


def test_a_noisier_margin_pulls_the_skill_less():
    """With noise 4 a first meet's margin of log 10 counts prior / (prior + 4) of itself."""
    book: MarginFilter[str] = MarginFilter(noise=4.0)
    book.add([{"a": 1000, "b": 100, "c": 10}])
    prior = PRIOR_VARIANCE + DRIFT
    assert book.skill("a") == pytest.approx(math.log(10) * prior / (prior + 4.0))


def test_a_short_machine_does_not_hide_the_meets_other_machines():
    after_short: MarginFilter[str] = MarginFilter()
    after_short.add([{"a": 100, "b": 10}, {"a": 1000, "b": 100, "c": 10}])
    prior = PRIOR_VARIANCE + DRIFT
    assert after_short.skill("a") == pytest.approx(math.log(10) * prior / (prior + NOISE))
    assert after_short.skill("b") == pytest.approx(0.0)
