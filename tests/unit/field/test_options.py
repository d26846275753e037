"""Field options (bot/rules/field/options.py): FIELD-CFG-1 defaults, every ambiguity default configurable."""

import pytest
from pydantic import ValidationError

from bot.rules.field.options import UKPL_OPTIONS, FieldOptions


def test_defaults_are_the_lafayette_sheet_field_cfg_1():
    """FIELD-CFG-1: 8 weeks, 5 machines, 25 down to 0, +5, drop 2, $10 fee, $40 plaques, 70/30."""
    options = FieldOptions()
    assert options.regular_weeks == 8 and options.machines_per_meet == 5
    assert options.top_points == 25 and options.top_bonus == 5 and options.drop_lowest_weeks == 2
    assert options.finals_fee_cents == 1000 and options.plaque_cost_cents == 4000
    assert options.payout_percents == (70, 30)
    assert options.sizes_for_five == (3, 2)  # FIELD-AMB-1
    assert not options.zero_no_rank_all  # FIELD-AMB-3
    assert not options.ab_divisions and options.b_division_min_weeks == 3  # FIELD-AMB-4/5
    assert options.grand_final_reset  # FIELD-AMB-8
    assert options.guests_ranked  # FIELD-ATT-3
    assert not options.recompute_on_wipe  # FIELD-AMB-19


def test_options_round_trip_as_json():
    options = FieldOptions(regular_weeks=10, finals_notes=("Rolling Stones: posts off",))
    assert FieldOptions.model_validate(options.model_dump(mode="json")) == options


@pytest.mark.parametrize(
    "bad",
    [{"payout_percents": (60, 30)}, {"sizes_for_five": (4, 2)}, {"bracket_slots": 12}, {"unknown": 1}],
)
def test_inconsistent_options_are_refused(bad):
    with pytest.raises(ValidationError):
        FieldOptions.model_validate(bad)


def test_ukpl_options_express_the_uk_league():
    assert UKPL_OPTIONS.points_scale == "machine_field" and UKPL_OPTIONS.bonus_rule == "double_second"
    assert UKPL_OPTIONS.top_bonus == 1 and UKPL_OPTIONS.machine_ties == "share_higher"
    assert not UKPL_OPTIONS.guests_ranked and UKPL_OPTIONS.best_meets == 4
