"""What a league admin reads when a setup value is refused (bot/rules/setup.py): the rule it breaks and how to fix
it, at the edges of each range; and the optional values and typed names that are accepted."""

from __future__ import annotations

from datetime import date

import pytest

from bot.rules import setup as rules
from bot.rules.refusals import InvalidInput, NotFound, Refusal


def refusal(call: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(Refusal) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return str(caught.value)


@pytest.mark.parametrize(
    ("refused", "text"),
    [
        (lambda: rules.balls_per_game(4), "COMMON-MACH-2: Games are 3 or 5 balls, not 4. Set `balls` to 3 or 5."),
        (
            lambda: rules.machine_capacity(3),
            "COMMON-MACH-2: A machine takes 1, 2 or 4 players, not 3. Set `players` to one of those.",
        ),
        (
            lambda: rules.ifpa_number(0),
            "COMMON-PLAYER-1: IFPA number 0 is not valid: it is a whole number from 1 to 9,999,999.",
        ),
        (
            lambda: rules.ifpa_number(10_000_000),
            "COMMON-PLAYER-1: IFPA number 10000000 is not valid: it is a whole number from 1 to 9,999,999.",
        ),
        (lambda: rules.ifpa_rank(0), "COMMON-PLAYER-1: IFPA rank 0 is not valid: ranks start at 1."),
        (
            lambda: rules.league_format("bowling", ["team", "ladder", "field"]),
            "COMMON-LEAGUE-1: Unknown format 'bowling'. Choose team, ladder or field.",
        ),
        (
            lambda: rules.league_format("", ["team", "ladder", "field", "strikes"]),
            "COMMON-LEAGUE-1: Unknown format ''. Choose team, ladder, field or strikes.",
        ),
        (
            lambda: rules.time_zone(None, league_format="field", required=True, default="UTC"),
            "COMMON-AMB-1: A field league needs its time zone: add `timezone:` and pick the league's city as you "
            "type, e.g. America/Indiana/Indianapolis.",
        ),
    ],
)
def test_a_refused_setup_value_names_its_rule_and_the_fix(refused: object, text: str) -> None:
    """COMMON-MACH-2, COMMON-PLAYER-1, COMMON-LEAGUE-1, COMMON-AMB-1."""
    assert refusal(refused) == text


@pytest.mark.parametrize("number", [1, 2, 9_999_999])
def test_common_player_1_ifpa_numbers_from_1_to_the_largest_are_kept(number: int) -> None:
    assert rules.ifpa_number(number) == number


def test_common_mach_1_the_family_key_has_no_stray_separators() -> None:
    """COMMON-MACH-1: the family of a title with punctuation at either end."""
    assert rules.model_family("Medieval Madness (Remake)") == "medieval_madness_remake"
    assert rules.model_family("  -Twilight Zone!") == "twilight_zone"


@pytest.mark.parametrize(
    ("value", "kept"),
    [(None, None), ("", None), ("   ", None), ("  Main   Street  ", "Main Street"), ("Spinners", "Spinners")],
)
def test_an_optional_text_is_cleaned_or_left_out_when_blank(value: str | None, kept: str | None) -> None:
    assert rules.optional_text(value, option="address", max_length=rules.ADDRESS_MAX) == kept


def test_an_optional_text_is_held_to_its_options_limit() -> None:
    assert rules.optional_text("x" * 30, option="variant", max_length=30) == "x" * 30
    with pytest.raises(InvalidInput) as caught:
        rules.optional_text("x" * 31, option="variant", max_length=30)
    assert caught.value.message == "`variant` is 31 characters long; the limit is 30. Use a shorter name."


@pytest.mark.parametrize(
    ("names", "typed", "found"),
    [
        (["Tuesday Ladder", "Spinners"], "  spinners ", "Spinners"),
        (["Spinners", "Tuesday Ladder"], "TUESDAY LADDER", "Tuesday Ladder"),
    ],
)
def test_a_league_is_found_by_its_name_whatever_the_case(names: list[str], typed: str, found: str) -> None:
    assert rules.known_league(names, typed) == found


def test_an_unknown_league_is_refused_with_the_servers_leagues() -> None:
    with pytest.raises(NotFound) as caught:
        rules.known_league(["Spinners", "Tuesday Ladder"], " Flippers ")
    assert caught.value.message == "No league named 'Flippers' here. Leagues in this server: Spinners, Tuesday Ladder."
    with pytest.raises(NotFound) as caught:
        rules.known_league([], "Spinners")
    assert caught.value.message == "This server has no league yet. A server admin can start one with `/league create`."


def test_a_date_is_typed_as_year_month_day() -> None:
    assert rules.parse_date(" 2026-03-05 ", option="start") == date(2026, 3, 5)
    assert rules.parse_date("2026-11-30", option="start") == date(2026, 11, 30)
    for typed in ("26-03-05", "05/03/2026", "2026-02-30"):
        with pytest.raises(InvalidInput) as caught:
            rules.parse_date(typed, option="start")
        assert caught.value.message == f"`start` {typed!r} is not a date; write it as YYYY-MM-DD, e.g. 2026-03-05."
