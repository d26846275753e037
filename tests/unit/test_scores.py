"""Score entry (bot/rules/scores.py): COMMON-SCORE-1, COMMON-AMB-3, COMMON-AMB-5, COMMON-TV-1."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.field.options import FieldOptions
from bot.rules.ladder.options import LadderOptions
from bot.rules.refusals import RuleViolation
from bot.rules.scores import SCORE_CEILING, SCORE_LIMIT, ScoreInput, format_score, parse_score, typed_scores
from bot.rules.team.options import TeamOptions

NOT_A_SCORE = "Score must be a whole number, e.g. 12,345,670"
COMMAS_REQUIRED = "Write the score with commas, e.g. 1,234,560"
FIELD = "Away 2 (Carol)"
DEFAULT = ScoreInput()
SHORTHAND = ScoreInput(allow_shorthand=True)
COMMAS = ScoreInput(require_commas=True)


def refusal(text: str, rules: ScoreInput = DEFAULT, *, field: str | None = FIELD) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        parse_score(text, field=field, rules=rules)
    return caught.value


class TestCommonTV1:
    def test_grouped_commas(self) -> None:
        """COMMON-TV-1: "1,234,560" → 1234560."""
        assert parse_score("1,234,560") == 1234560

    def test_plain_digits_by_default(self) -> None:
        """COMMON-TV-1 [COMMON-AMB-5]: "1234560" → 1234560 with the default require_commas=false."""
        assert parse_score("1234560") == 1234560

    def test_plain_digits_refused_when_commas_required(self) -> None:
        """COMMON-TV-1 / COMMON-AMB-5: with require_commas=true, "1234560" is refused with the catalog's message."""
        error = refusal("1234560", COMMAS)
        assert error.rule_id == "COMMON-AMB-5"
        assert error.message == f"{FIELD}: '1234560' needs commas in this league. {COMMAS_REQUIRED}."

    def test_small_score_needs_no_commas(self) -> None:
        """COMMON-TV-1 / COMMON-AMB-5: "999" is still accepted with require_commas=true."""
        assert parse_score("999", rules=COMMAS) == 999

    def test_bad_grouping(self) -> None:
        """COMMON-TV-1: "1,23,4560" → refused (bad grouping), with commas required or not."""
        for rules in (DEFAULT, COMMAS):
            error = refusal("1,23,4560", rules)
            assert (error.rule_id, error.message) == (
                "COMMON-SCORE-1",
                f"{FIELD}: '1,23,4560' is not a score. {NOT_A_SCORE}.",
            )

    def test_negative(self) -> None:
        """COMMON-TV-1: "-5" → refused, saying a score is 0 or more."""
        error = refusal("-5")
        assert error.rule_id == "COMMON-SCORE-1"
        assert error.message.startswith(f"{FIELD}: '-5' is negative; a score is 0 or more. {NOT_A_SCORE}")

    def test_shorthand(self) -> None:
        """COMMON-TV-1 / COMMON-AMB-3: "50M" → refused as shorthand by default."""
        error = refusal("50M")
        assert error.rule_id == "COMMON-AMB-3"
        assert error.message.startswith(f"{FIELD}: '50M' is shorthand, which this league does not take. {NOT_A_SCORE}")

    def test_empty(self) -> None:
        """COMMON-TV-1: "" → refused, naming the field."""
        error = refusal("")
        assert (error.rule_id, error.message) == ("COMMON-SCORE-1", f"{FIELD}: no score was typed. {NOT_A_SCORE}.")


ACCEPTED = [
    # (typed, rules, value): every way people write a score that the league reads exactly (COMMON-SCORE-1)
    ("45,210,330", DEFAULT, 45210330),
    ("45.210.330", DEFAULT, 45210330),
    ("45 210 330", DEFAULT, 45210330),
    ("45\u00a0210\u00a0330", DEFAULT, 45210330),  # no-break space
    ("45\u202f210\u202f330", DEFAULT, 45210330),  # narrow no-break space
    ("45 210\u202f330", DEFAULT, 45210330),  # spaces of any width are one separator
    ("45210330", DEFAULT, 45210330),
    ("1.234", DEFAULT, 1234),  # one exact group: a score has no fraction, so this is 1,234
    ("0", DEFAULT, 0),
    ("007", DEFAULT, 7),
    ("0" * 30 + "42", DEFAULT, 42),  # leading zeros do not count towards the ceiling
    ("  12,345,670 ", DEFAULT, 12345670),
    ("\t999\n", DEFAULT, 999),
    ("\u00a01,000\u00a0", DEFAULT, 1000),
    ("99,999,999,999", DEFAULT, SCORE_CEILING),
    ("999,999,999,999,999", ScoreInput(ceiling=SCORE_LIMIT), SCORE_LIMIT),
    # shorthand, where the league allows it (COMMON-AMB-3), means exactly what it says
    ("45.2M", SHORTHAND, 45_200_000),
    ("45.2m", SHORTHAND, 45_200_000),
    ("45.2 M", SHORTHAND, 45_200_000),
    ("1.2B", SHORTHAND, 1_200_000_000),
    ("450k", SHORTHAND, 450_000),
    ("450K", SHORTHAND, 450_000),
    ("1.2345M", SHORTHAND, 1_234_500),
    ("1.500k", SHORTHAND, 1_500),  # trailing zeros are no fraction of a point
    ("0.5k", SHORTHAND, 500),
    ("45,210,330", SHORTHAND, 45210330),  # exact forms still work
    # require_commas (COMMON-AMB-5): commas for 1,000 and up
    ("1,000", COMMAS, 1000),
    ("999", COMMAS, 999),
]


@pytest.mark.parametrize(("text", "rules", "value"), ACCEPTED)
def test_accepted_forms(text: str, rules: ScoreInput, value: int) -> None:
    """COMMON-SCORE-1, COMMON-AMB-3, COMMON-AMB-5: each accepted form reads as the exact integer."""
    assert parse_score(text, field=FIELD, rules=rules) == value


REFUSED = [
    # (typed, rules, rule id, what the refusal says after the field and the echo of what was typed)
    ("45.2.1", DEFAULT, "COMMON-SCORE-1", f"is not a score. {NOT_A_SCORE}."),
    ("45,210.330", DEFAULT, "COMMON-SCORE-1", "is not a score."),  # mixed separators
    ("45.210,330", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("45 210,330", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("45  210 330", DEFAULT, "COMMON-SCORE-1", "is not a score."),  # two spaces are no single separator
    ("1,234,5600", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("1234,560", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("1.23.456", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    (",123", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("123,", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("1,,234", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("0,123", DEFAULT, "COMMON-SCORE-1", "is not a score."),  # a leading zero group is no thousands grouping
    ("1_234_560", DEFAULT, "COMMON-SCORE-1", "is not a score."),  # int() would accept this
    ("1'234'560", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("12345.0", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("12.5", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("+5", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("١٢٣٤", DEFAULT, "COMMON-SCORE-1", "is not a score."),  # Arabic-Indic digits, which int() accepts
    ("１２３４", DEFAULT, "COMMON-SCORE-1", "is not a score."),  # fullwidth digits, which int() accepts
    ("²", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("twelve", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("1e6", DEFAULT, "COMMON-SCORE-1", "is not a score."),
    ("12.5", SHORTHAND, "COMMON-SCORE-1", f"is not a score. {NOT_A_SCORE} or 45.2M."),
    ("2,5M", SHORTHAND, "COMMON-SCORE-1", f"is not a score. {NOT_A_SCORE} or 45.2M."),  # decimal comma: 2.5M?
    ("1,500k", SHORTHAND, "COMMON-SCORE-1", "is not a score."),  # 1.5k or 1,500 thousand?
    ("45.2MM", SHORTHAND, "COMMON-SCORE-1", "is not a score."),
    ("-5", DEFAULT, "COMMON-SCORE-1", "is negative; a score is 0 or more."),
    ("\u22125", DEFAULT, "COMMON-SCORE-1", "is negative; a score is 0 or more."),  # a typographic minus
    ("-45.2M", SHORTHAND, "COMMON-SCORE-1", "is negative; a score is 0 or more."),
    ("100,000,000,000", DEFAULT, "COMMON-SCORE-1", "is above this league's highest score, 99,999,999,999."),
    ("100000000000", DEFAULT, "COMMON-SCORE-1", "is above this league's highest score, 99,999,999,999."),
    ("100B", SHORTHAND, "COMMON-SCORE-1", "is above this league's highest score, 99,999,999,999."),
    ("1,000,001", ScoreInput(ceiling=10**6), "COMMON-SCORE-1", "is above this league's highest score, 1,000,000."),
    ("50M", DEFAULT, "COMMON-AMB-3", f"is shorthand, which this league does not take. {NOT_A_SCORE}"),
    ("1.5B", DEFAULT, "COMMON-AMB-3", "is shorthand, which this league does not take."),
    ("12k", DEFAULT, "COMMON-AMB-3", "is shorthand, which this league does not take."),
    ("50 m", DEFAULT, "COMMON-AMB-3", "is shorthand, which this league does not take."),
    ("2,5M", DEFAULT, "COMMON-AMB-3", "is shorthand, which this league does not take."),
    ("3T", DEFAULT, "COMMON-AMB-3", "is shorthand, which this league does not take."),
    ("1.2345k", SHORTHAND, "COMMON-AMB-3", f"is a fraction of a point. {NOT_A_SCORE} or 45.2M"),
    ("0.5", SHORTHAND, "COMMON-SCORE-1", "is not a score."),
    # require_commas (COMMON-AMB-5) outranks the other separators and shorthand
    ("1.234.560", COMMAS, "COMMON-AMB-5", f"needs commas in this league. {COMMAS_REQUIRED}."),
    ("1 234 560", COMMAS, "COMMON-AMB-5", "needs commas in this league."),
    ("45.2M", ScoreInput(allow_shorthand=True, require_commas=True), "COMMON-AMB-3", "is shorthand"),
]


@pytest.mark.parametrize(("text", "rules", "rule_id", "reason"), REFUSED)
def test_refused_forms_name_the_field_and_what_was_typed(
    text: str, rules: ScoreInput, rule_id: str, reason: str
) -> None:
    """COMMON-SCORE-1, COMMON-AMB-3, COMMON-AMB-5: each refusal starts with the field and the text typed, then
    says why and how to write it."""
    error = refusal(text, rules)
    assert error.rule_id == rule_id
    assert error.message.startswith(f"{FIELD}: '{text.strip()}' {reason}"), error.message


def test_shorthand_is_offered_as_an_example_only_where_the_league_takes_it() -> None:
    """COMMON-AMB-3: the default refusal shows the exact form alone; a shorthand league's mentions 45.2M."""
    assert "45.2M" not in refusal("45.2.1").message
    assert "45.2M" in refusal("45.2.1", SHORTHAND).message


def test_without_a_field_the_refusal_starts_with_what_was_typed() -> None:
    """COMMON-SCORE-1: `parse_score(text)` keeps working for callers that have no label to give."""
    assert refusal("45.2.1", field=None).message == f"'45.2.1' is not a score. {NOT_A_SCORE}."


@pytest.mark.parametrize("text", ["9" * 5000, "9" * 5000 + "k", "1" + "0" * 400])
def test_a_runaway_paste_is_refused_cheaply_and_echoed_short(text: str) -> None:
    """COMMON-SCORE-1: a huge paste is above the ceiling (or shorthand), and the echo is cut short."""
    error = refusal(text, SHORTHAND)
    assert "is above this league's highest score" in error.message
    assert len(error.message) < 200


@pytest.mark.parametrize("options", [TeamOptions(), LadderOptions(), FieldOptions()])
def test_every_format_defaults_to_the_catalog(options: TeamOptions | LadderOptions | FieldOptions) -> None:
    """COMMON-AMB-3, COMMON-AMB-5: no shorthand, no comma requirement, the default ceiling, in every format."""
    assert options.score_input == ScoreInput()


def test_league_options_set_the_score_input() -> None:
    """COMMON-AMB-3, COMMON-AMB-5: the league options become the parser's rules (require_commas is FIELD's own)."""
    field = FieldOptions(allow_shorthand=True, score_ceiling=10**12, require_commas=True)
    assert field.score_input == ScoreInput(allow_shorthand=True, ceiling=10**12, require_commas=True)
    assert TeamOptions(allow_shorthand=True).score_input == SHORTHAND
    with pytest.raises(ValueError):
        LadderOptions(score_ceiling=SCORE_LIMIT + 1)


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("12,345,670", ["12,345,670"]),
        ("45 210 330", ["45 210 330"]),  # one space-grouped score, not three
        ("45\u202f210\u202f330", ["45 210 330"]),
        ("45.2 M", ["45.2 M"]),  # one shorthand, refused or read by parse_score
        ("12,345,670 8,000,000  450,000", ["12,345,670", "8,000,000", "450,000"]),
        ("45.2M 30M", ["45.2M", "30M"]),
        ("12000000 450 330", ["12000000", "450", "330"]),  # 12000000 is no 3-digit group
        ("", [""]),
    ],
)
def test_several_scores_in_one_field(text: str, pieces: list[str]) -> None:
    """COMMON-SCORE-1 (LADDER-SCORE-1 entry): spaces separate scores unless the whole text is one grouped score."""
    assert typed_scores(text) == pieces


class TestProperties:
    @given(st.integers(min_value=0, max_value=SCORE_LIMIT), st.booleans())
    def test_format_then_parse_round_trips(self, score: int, require_commas: bool) -> None:
        """COMMON-SCORE-1: the echoed form always parses back to the same number."""
        rules = ScoreInput(ceiling=SCORE_LIMIT, require_commas=require_commas)
        assert parse_score(format_score(score), rules=rules) == score

    @given(st.integers(min_value=0, max_value=SCORE_LIMIT), st.sampled_from(". \u00a0\u202f"))
    def test_other_separators_round_trip(self, score: int, separator: str) -> None:
        """COMMON-SCORE-1: periods and spaces group thousands as exactly as commas do."""
        typed = format_score(score).replace(",", separator)
        assert parse_score(typed, rules=ScoreInput(ceiling=SCORE_LIMIT)) == score

    @given(st.integers(min_value=0, max_value=SCORE_CEILING))
    def test_plain_digits_round_trip(self, score: int) -> None:
        """COMMON-SCORE-1: plain digits parse to the number they spell."""
        assert parse_score(str(score)) == score

    @given(st.integers(min_value=0, max_value=99_999), st.integers(min_value=0, max_value=3), st.sampled_from("kmb"))
    def test_shorthand_is_exact(self, digits: int, decimals: int, unit: str) -> None:
        """COMMON-AMB-3: "d.ddd<unit>" is exactly digits × 10^(unit − decimals) points, never rounded."""
        shift = {"k": 3, "m": 6, "b": 9}[unit]
        text = str(digits).rjust(decimals + 1, "0")
        typed = f"{text[: len(text) - decimals]}.{text[len(text) - decimals :]}{unit}" if decimals else text + unit
        assert parse_score(typed, rules=ScoreInput(allow_shorthand=True, ceiling=SCORE_LIMIT)) == digits * 10 ** (
            shift - decimals
        )

    @given(st.text(), st.sampled_from([DEFAULT, SHORTHAND, COMMAS]))
    def test_any_text_is_a_score_or_a_rule_violation(self, text: str, rules: ScoreInput) -> None:
        """COMMON-SCORE-1: arbitrary text never raises anything but the refusal, and never exceeds the ceiling."""
        try:
            score = parse_score(text, field=FIELD, rules=rules)
        except RuleViolation as error:
            assert error.rule_id in {"COMMON-SCORE-1", "COMMON-AMB-3", "COMMON-AMB-5"}
            assert error.message.startswith(f"{FIELD}: ")
        else:
            assert 0 <= score <= rules.ceiling


def test_format_score() -> None:
    """COMMON-SCORE-1: the echo uses comma thousands separators."""
    assert [format_score(n) for n in (0, 999, 1000, 1234560)] == ["0", "999", "1,000", "1,234,560"]
