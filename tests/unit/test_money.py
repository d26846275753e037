"""COMMON-AMB-2: percentage splits in whole cents, leftover cents one at a time in finishing order."""

from hypothesis import given
from hypothesis import strategies as st

from bot.rules.money import split_in_cents


def test_common_tv_4_the_one_cent_left_goes_to_first() -> None:
    """COMMON-TV-4: $40.50 at 75/25 → $30.38 / $10.12."""
    assert split_in_cents(4_050, (75, 25)) == [3_038, 1_012]


def test_leftover_cents_go_down_the_finishing_order_not_all_to_first() -> None:
    """COMMON-AMB-2: 3,999¢ over 65/25/10 floors to 2,599 / 999 / 399; the two cents left go to 1st and 2nd."""
    assert split_in_cents(3_999, (65, 25, 10)) == [2_600, 1_000, 399]


@given(st.integers(0, 10**9), st.lists(st.integers(0, 100), min_size=1, max_size=6))
def test_shares_add_up_and_stay_within_a_cent_of_their_percentage(pot: int, weights: list[int]) -> None:
    total = sum(weights)
    if total == 0:
        return
    percents = [w * 100 // total for w in weights]
    percents[0] += 100 - sum(percents)
    shares = split_in_cents(pot, percents)
    assert sum(shares) == pot
    for share, percent in zip(shares, percents, strict=True):
        assert 0 <= share - pot * percent // 100 <= 1
