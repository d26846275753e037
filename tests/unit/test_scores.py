"""Score entry (bot/rules/scores.py): COMMON-SCORE-1, COMMON-AMB-3, COMMON-AMB-5, COMMON-TV-1."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.refusals import RuleViolation
from bot.rules.scores import SCORE_MAX, format_score, parse_score

NOT_A_SCORE = "Score must be a whole number, e.g. 12,345,670"
COMMAS_REQUIRED = "Write the score with commas, e.g. 1,234,560"


def refusal(text: str, *, require_commas: bool = False) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        parse_score(text, require_commas=require_commas)
    return caught.value


class TestCommonTV1:
    def test_grouped_commas(self) -> None:
        """COMMON-TV-1: "1,234,560" → 1234560."""
        assert parse_score("1,234,560") == 1234560

    def test_plain_digits_by_default(self) -> None:
        """COMMON-TV-1 [COMMON-AMB-5]: "1234560" → 1234560 with the default require_commas=false."""
        assert parse_score("1234560") == 1234560

    def test_plain_digits_refused_when_commas_required(self) -> None:
        """COMMON-TV-1 / COMMON-AMB-5: with require_commas=true, "1234560" is refused."""
        error = refusal("1234560", require_commas=True)
        assert (error.rule_id, error.message) == ("COMMON-AMB-5", COMMAS_REQUIRED)

    def test_small_score_needs_no_commas(self) -> None:
        """COMMON-TV-1 / COMMON-AMB-5: "999" is still accepted with require_commas=true."""
        assert parse_score("999", require_commas=True) == 999

    def test_grouped_score_is_fine_when_commas_required(self) -> None:
        """COMMON-AMB-5: a correctly grouped score passes the comma requirement."""
        assert parse_score("1,000", require_commas=True) == 1000

    def test_bad_grouping(self) -> None:
        """COMMON-TV-1: "1,23,4560" → refused (bad grouping)."""
        error = refusal("1,23,4560")
        assert (error.rule_id, error.message) == ("COMMON-SCORE-1", NOT_A_SCORE)

    def test_bad_grouping_is_not_reported_as_missing_commas(self) -> None:
        """COMMON-AMB-5: a badly grouped score gets the general message even when commas are required."""
        assert refusal("1,23,4560", require_commas=True).message == NOT_A_SCORE

    def test_negative(self) -> None:
        """COMMON-TV-1: "-5" → refused."""
        assert refusal("-5").message == NOT_A_SCORE

    def test_shorthand(self) -> None:
        """COMMON-TV-1 / COMMON-AMB-3: "50M" → refused as shorthand."""
        error = refusal("50M")
        assert (error.rule_id, error.message) == ("COMMON-AMB-3", NOT_A_SCORE)

    def test_empty(self) -> None:
        """COMMON-TV-1: "" → refused."""
        assert refusal("").message == NOT_A_SCORE


class TestCommonScore1:
    @pytest.mark.parametrize(
        ("text", "value"),
        [("0", 0), ("  12,345,670 ", 12345670), ("\t999\n", 999), ("\u00a01,000\u00a0", 1000), ("007", 7)],
    )
    def test_accepted_forms(self, text: str, value: int) -> None:
        """COMMON-SCORE-1: plain digits or grouped commas; surrounding whitespace is ignored."""
        assert parse_score(text) == value

    @pytest.mark.parametrize(
        "text",
        [
            "1 234 560",  # space separators
            "1.234.560",  # period separators
            "1_234_560",  # int() would accept this
            "1\u00a0234",  # no-break space inside
            "12345.0",
            "12.5",
            "+5",
            "1,234,5600",
            "1234,560",
            ",123",
            "123,",
            "1,,234",
            "0,123",  # a leading zero group is not a thousands grouping
            "١٢٣٤",  # Arabic-Indic digits, which int() accepts
            "１２３４",  # fullwidth digits, which int() accepts
            "²",
            "   ",
            "twelve",
            "1e6",
        ],
    )
    def test_refused_forms(self, text: str) -> None:
        """COMMON-SCORE-1: anything other than ASCII digits with optional correct comma grouping is refused."""
        error = refusal(text)
        assert (error.rule_id, error.message) == ("COMMON-SCORE-1", NOT_A_SCORE)

    @pytest.mark.parametrize("text", ["1.5B", "12k", "50 m", "2,5M"])
    def test_shorthand_forms(self, text: str) -> None:
        """COMMON-AMB-3: shorthand with a unit letter is refused with the whole-number message."""
        error = refusal(text)
        assert (error.rule_id, error.message) == ("COMMON-AMB-3", NOT_A_SCORE)

    def test_largest_score(self) -> None:
        """COMMON-SCORE-1: 999,999,999,999,999 is the cap, in either form."""
        assert parse_score("999,999,999,999,999") == SCORE_MAX == parse_score("999999999999999")

    @pytest.mark.parametrize("text", ["1,000,000,000,000,000", "1000000000000000", "9" * 5000])
    def test_absurdly_large_is_refused(self, text: str) -> None:
        """COMMON-SCORE-1: above the cap → refused, naming the cap."""
        error = refusal(text)
        assert error.rule_id == "COMMON-SCORE-1"
        assert "999,999,999,999,999" in error.message

    def test_leading_zeros_do_not_count_towards_the_cap(self) -> None:
        """COMMON-SCORE-1: a padded small number is still that number."""
        assert parse_score("0" * 30 + "42") == 42

    @given(st.integers(min_value=0, max_value=SCORE_MAX), st.booleans())
    def test_format_then_parse_round_trips(self, score: int, require_commas: bool) -> None:
        """COMMON-SCORE-1: the echoed form always parses back to the same number."""
        assert parse_score(format_score(score), require_commas=require_commas) == score

    @given(st.integers(min_value=0, max_value=SCORE_MAX))
    def test_plain_digits_round_trip(self, score: int) -> None:
        """COMMON-SCORE-1: plain digits parse to the number they spell."""
        assert parse_score(str(score)) == score

    @given(st.text(), st.booleans())
    def test_any_text_is_a_score_or_a_rule_violation(self, text: str, require_commas: bool) -> None:
        """COMMON-SCORE-1: arbitrary text never raises anything but the refusal."""
        try:
            score = parse_score(text, require_commas=require_commas)
        except RuleViolation as error:
            assert error.rule_id in {"COMMON-SCORE-1", "COMMON-AMB-3", "COMMON-AMB-5"}
        else:
            assert 0 <= score <= SCORE_MAX


def test_format_score() -> None:
    """COMMON-SCORE-1: the echo uses comma thousands separators."""
    assert [format_score(n) for n in (0, 999, 1000, 1234560)] == ["0", "999", "1,000", "1,234,560"]
