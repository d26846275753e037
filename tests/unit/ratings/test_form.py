"""Score form (bot/rules/ratings/form.py): log-score margins over each machine's field, weighted to recent meets,
and the blend with the rating that `pinleague ukpl-ratings` measures."""

import pytest

from bot.rules.ratings.form import FORM_DECAY, MARGIN_CLIP, FormBook, blend, meet_margins, standardized


def test_a_margin_reads_the_log_of_the_score_so_each_machine_counts_on_its_own_scale():
    # The same ratios on a machine scoring in millions and one scoring in thousands give the same margins.
    big = {"a": 40_000_000, "b": 4_000_000, "c": 400_000}
    small = {"a": 40_000, "b": 4_000, "c": 400}
    margins = meet_margins([big, small])
    assert margins["a"] == pytest.approx(-margins["c"]) == pytest.approx(1.2247, abs=1e-4)
    assert margins["b"] == pytest.approx(0.0)
    assert meet_margins([big]) == pytest.approx(margins)


def test_a_machine_with_fewer_than_three_scores_says_nothing_and_one_freak_game_is_clipped():
    assert meet_margins([{"a": 100, "b": 10}]) == {}
    field = {f"p{i}": 1_000_000 + i for i in range(30)} | {"star": 10**15}
    margins = meet_margins([field])
    assert margins["star"] == MARGIN_CLIP  # unclipped it would be sqrt(30) = 5.5 deviations
    assert all(-MARGIN_CLIP < value < 0 for player, value in margins.items() if player != "star")


def test_form_weighs_each_earlier_meet_less_and_a_missed_meet_leaves_it_alone():
    book: FormBook[str] = FormBook()
    assert book.form("a") is None
    book.add({"a": 1.0, "b": 0.5})
    book.add({"a": -1.0})
    assert book.form("a") == pytest.approx((FORM_DECAY * 1.0 - 1.0) / (FORM_DECAY + 1.0))
    assert book.form("a") < 0  # the latest meet outweighs the one before
    assert book.form("b") == pytest.approx(0.5)


def test_the_blend_lets_a_strong_form_overtake_a_slightly_higher_rating_and_reads_no_form_as_the_mean():
    rating = {"a": 30.0, "b": 29.0, "c": 20.0, "new": 25.0}
    form = {"a": -0.5, "b": 0.8, "c": -0.3}
    strength = blend(rating, form, form_weight=4.0)
    assert strength["b"] > strength["a"]
    assert blend(rating, form, form_weight=0.0) == pytest.approx(standardized(rating))
    mean_form_player = blend(rating, form | {"new": sum(form.values()) / 3}, form_weight=4.0)["new"]
    assert strength["new"] == pytest.approx(standardized(rating)["new"])
    assert mean_form_player == pytest.approx(standardized(rating)["new"], abs=1e-9)


def test_a_field_that_does_not_spread_puts_everyone_at_the_mean():
    assert standardized({"a": 7.0, "b": 7.0, "c": 7.0}) == {"a": 0.0, "b": 0.0, "c": 0.0}
    assert meet_margins([{"a": 5_000, "b": 5_000, "c": 5_000}]) == {"a": 0.0, "b": 0.0, "c": 0.0}


def test_a_short_machine_is_skipped_and_the_machines_after_it_still_count():
    margins = meet_margins([{"a": 100, "b": 10}, {"a": 100, "b": 10, "c": 1}])
    assert margins["a"] == pytest.approx(-margins["c"]) == pytest.approx(1.2247, abs=1e-4)
    assert margins["b"] == pytest.approx(0.0)


def test_a_score_of_one_sits_a_full_tenfold_step_below_ten():
    margins = meet_margins([{"low": 1, "mid": 10, "high": 100}])
    assert margins["low"] == pytest.approx(-margins["high"])
    assert margins["mid"] == pytest.approx(0.0)
    # a zero (a tilt, a drain on ball one) counts as one, not below it
    assert meet_margins([{"zero": 0, "mid": 10, "high": 100}]) == pytest.approx(margins_renamed(margins))


def margins_renamed(margins: dict[str, float]) -> dict[str, float]:
    return {"zero" if player == "low" else player: value for player, value in margins.items()}
