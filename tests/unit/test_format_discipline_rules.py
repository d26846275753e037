"""Ledger rules for the ladder and field formats (bot/rules/discipline.py): an offence entry bars nobody
(COMMON-DISC-1), a second intentional slam in a season calls for an expulsion review (LADDER-PEN-6)."""

from datetime import date

from bot.rules.discipline import DisciplineKind, Sanction, barring, repeated_intentional_slams

SEASON_1, SEASON_2 = 1, 2
NIGHT = date(2027, 3, 3)


def offence(id: int, rule_id: str, season: int = SEASON_1) -> Sanction:
    return Sanction(id, DisciplineKind.OFFENCE, season, NIGHT, rule_id=rule_id)


def test_an_offence_in_the_ledger_bars_nobody() -> None:
    """COMMON-DISC-1: offense(n) entries record the format's penalty; only a suspension or expulsion bars."""
    entries = [offence(1, "FIELD-PEN-3"), offence(2, "LADDER-PEN-6")]
    assert barring(entries, season_id=SEASON_1, on=NIGHT) is None


def test_a_second_intentional_slam_in_a_season_calls_for_an_expulsion_review() -> None:
    """LADDER-PEN-6: counted per season, and only the ladder's slam offences count."""
    assert repeated_intentional_slams([offence(1, "LADDER-PEN-6")], season_id=SEASON_1) == []
    other_season = [offence(1, "LADDER-PEN-6", SEASON_2), offence(2, "LADDER-PEN-6"), offence(3, "FIELD-PEN-3")]
    assert repeated_intentional_slams(other_season, season_id=SEASON_1) == []
    flags = repeated_intentional_slams([offence(1, "LADDER-PEN-6"), offence(2, "LADDER-PEN-6")], season_id=SEASON_1)
    assert flags == [("LADDER-PEN-6", "2 intentional slam tilts this season: review for expulsion.")]
