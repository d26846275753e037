"""Setup validation (bot/rules/setup.py): names, formats, time zones, machines, IFPA data."""

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import formats
from bot.rules import setup as rules
from bot.rules.refusals import InvalidInput, RuleViolation


class TestCleanName:
    def test_trims_and_collapses_whitespace(self) -> None:
        name = rules.clean_name("  Flipper   Kings \n", option="name", max_length=40)
        assert name.display == "Flipper Kings"

    def test_key_ignores_case(self) -> None:
        assert rules.clean_name("FLIPPER Kings", option="name", max_length=40).key == "flipper kings"

    @pytest.mark.parametrize("value", ["", "   ", "\n\t", None])
    def test_empty_is_refused_naming_the_option(self, value: str | None) -> None:
        with pytest.raises(InvalidInput, match="`name` cannot be empty"):
            rules.clean_name(value, option="name", max_length=40)

    def test_too_long_is_refused_with_both_lengths(self) -> None:
        with pytest.raises(InvalidInput, match="41 characters long; the limit is 40"):
            rules.clean_name("x" * 41, option="name", max_length=40)

    def test_exactly_the_limit_is_fine(self) -> None:
        assert rules.clean_name("x" * 40, option="name", max_length=40).display == "x" * 40

    @pytest.mark.parametrize("value", ["Bad\u200bName", "Bad\x00Name", "Right\u202eto left"])
    def test_invisible_characters_are_refused(self, value: str) -> None:
        with pytest.raises(InvalidInput, match="invisible"):
            rules.clean_name(value, option="name", max_length=40)

    def test_unicode_letters_and_emoji_are_kept(self) -> None:
        assert rules.clean_name("Café Flippers 🎱", option="name", max_length=40).display == "Café Flippers 🎱"

    @given(st.text(max_size=80))
    def test_any_text_is_either_cleaned_or_refused(self, value: str) -> None:
        try:
            name = rules.clean_name(value, option="name", max_length=40)
        except InvalidInput:
            return
        assert name.display == name.display.strip() and 0 < len(name.display) <= 40
        assert name.key == name.display.casefold()


class TestFormatAndZone:
    @pytest.mark.parametrize("value", ["team", "Ladder", " field "])
    def test_known_formats(self, value: str) -> None:
        assert rules.league_format(value, formats.names()) == value.strip().lower()

    def test_unknown_format_cites_common_league_1(self) -> None:
        with pytest.raises(RuleViolation) as caught:
            rules.league_format("bowling", formats.names())
        assert caught.value.rule_id == "COMMON-LEAGUE-1"

    @pytest.mark.parametrize("fmt", ["team", "ladder"])
    def test_team_and_ladder_default_to_the_configured_zone(self, fmt: str) -> None:
        """COMMON-AMB-1: NYC and JPA default to America/New_York (the configured default)."""
        assert (
            rules.time_zone(
                None, league_format=fmt, required=formats.named(fmt).zone_required, default="America/New_York"
            )
            == "America/New_York"
        )

    def test_field_league_must_name_its_zone(self) -> None:
        """COMMON-AMB-1: the LPL sheet names no place, so there is no default."""
        with pytest.raises(RuleViolation) as caught:
            rules.time_zone(
                "  ", league_format="field", required=formats.named("field").zone_required, default="America/New_York"
            )
        assert caught.value.rule_id == "COMMON-AMB-1"

    def test_valid_zone_is_kept(self) -> None:
        assert (
            rules.time_zone(
                "Europe/London", league_format="field", required=formats.named("field").zone_required, default="UTC"
            )
            == "Europe/London"
        )

    @pytest.mark.parametrize("value", ["Mars/Olympus", "EST+5", "../../etc/passwd", "America/", "x" * 300])
    def test_unknown_zone_is_refused(self, value: str) -> None:
        with pytest.raises(InvalidInput, match="not an IANA time zone"):
            rules.time_zone(value, league_format="team", required=False, default="UTC")

    def test_unknown_zone_suggests_a_near_name(self) -> None:
        with pytest.raises(InvalidInput, match="Did you mean America/Chicago"):
            rules.time_zone("chicago", league_format="team", required=False, default="UTC")


class TestMachines:
    @pytest.mark.parametrize("players", [1, 2, 4])
    def test_capacities_of_common_mach_2(self, players: int) -> None:
        assert rules.machine_capacity(players) == players

    @pytest.mark.parametrize("players", [0, 3, 5, -1, 10**9])
    def test_other_capacities_cite_common_mach_2(self, players: int) -> None:
        with pytest.raises(RuleViolation) as caught:
            rules.machine_capacity(players)
        assert caught.value.rule_id == "COMMON-MACH-2"

    @pytest.mark.parametrize("balls", [3, 5])
    def test_balls_per_game(self, balls: int) -> None:
        assert rules.balls_per_game(balls) == balls

    @pytest.mark.parametrize("balls", [0, 1, 4, 6])
    def test_other_ball_counts_are_refused(self, balls: int) -> None:
        with pytest.raises(RuleViolation, match="3 or 5 balls"):
            rules.balls_per_game(balls)

    def test_family_ignores_only_what_the_variant_field_holds(self) -> None:
        """COMMON-TV-2: Godzilla Premium and Pro share a family when the variant is given apart;
        a title that carries its own variant text is not guessed at."""
        assert rules.model_family("Godzilla") == "godzilla"
        assert rules.model_family("Medieval Madness") == "medieval_madness"
        assert rules.model_family("Medieval Madness (Remake)") != rules.model_family("Medieval Madness")

    def test_family_of_accented_titles(self) -> None:
        assert rules.model_family("Pokémon") == "pokemon"


class TestRemovalDay:
    """COMMON-VENUE-1: a machine leaves the venue's dated list once, between its installation and today."""

    INSTALLED, TODAY = date(2026, 9, 1), date(2026, 12, 3)

    def remove(self, on: date, *, removed: date | None = None) -> date:
        return rules.removal_day(on, installed=self.INSTALLED, removed=removed, today=self.TODAY, title="Godzilla")

    def test_any_day_from_installation_to_today_is_the_removal_day(self) -> None:
        assert self.remove(date(2026, 10, 15)) == date(2026, 10, 15)

    def test_the_installation_day_itself_can_be_the_removal_day(self) -> None:
        assert self.remove(date(2026, 9, 1)) == date(2026, 9, 1)

    def test_today_can_be_the_removal_day(self) -> None:
        assert self.remove(date(2026, 12, 3)) == date(2026, 12, 3)

    def test_a_day_before_installation_is_refused(self) -> None:
        with pytest.raises(RuleViolation) as caught:
            self.remove(date(2026, 8, 31))
        assert str(caught.value) == "COMMON-VENUE-1: `on` 2026-08-31 is before Godzilla was installed (2026-09-01)."

    def test_a_day_in_the_future_is_refused(self) -> None:
        with pytest.raises(RuleViolation) as caught:
            self.remove(date(2026, 12, 4))
        assert str(caught.value) == (
            "COMMON-VENUE-1: `on` 2026-12-04 is in the future: record the removal on the day it goes."
        )

    def test_a_machine_already_removed_is_not_removed_again(self) -> None:
        with pytest.raises(RuleViolation) as caught:
            self.remove(date(2026, 11, 20), removed=date(2026, 11, 1))
        assert str(caught.value) == "COMMON-VENUE-1: Godzilla was already removed on 2026-11-01."


class TestIfpa:
    def test_optional(self) -> None:
        assert rules.ifpa_number(None) is None and rules.ifpa_rank(None) is None

    @pytest.mark.parametrize("number", [0, -3, 10**8])
    def test_bad_numbers_cite_common_player_1(self, number: int) -> None:
        with pytest.raises(RuleViolation) as caught:
            rules.ifpa_number(number)
        assert caught.value.rule_id == "COMMON-PLAYER-1"

    def test_rank_starts_at_one(self) -> None:
        assert rules.ifpa_rank(1) == 1
        with pytest.raises(RuleViolation):
            rules.ifpa_rank(0)
