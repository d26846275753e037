"""Field rulings on situations the rules do not cover (bot/rules/field/rulings.py): FIELD-OFF-3, COMMON-RULING-1."""

import pytest

from bot.rules.disputes import PrecedentView
from bot.rules.field.rulings import check_situation, earlier_rulings
from bot.rules.refusals import InvalidInput


def precedent(id: int, kind: str, rule: str | None = None, machine: str | None = None) -> PrecedentView:
    return PrecedentView(id, kind, rule, machine, f"situation {id}", f"ruling {id}")


def invalid(situation: str, kind: str) -> str:
    with pytest.raises(InvalidInput) as caught:
        check_situation(situation, kind)
    return caught.value.message


def test_the_situation_is_kept_without_surrounding_blanks_field_off_3():
    assert check_situation("  Ball stuck behind the flipper \n", "machine") == "Ball stuck behind the flipper"


def test_the_situation_is_kept_to_1000_characters_field_off_3():
    assert check_situation("x" * 1001, "other") == "x" * 1000
    assert check_situation("y" * 1000, "void_slot") == "y" * 1000


def test_a_blank_situation_is_refused_field_off_3():
    assert invalid(" \t\n", "machine") == "`situation` is empty: say what happened, so the ruling can be found again."


def test_a_ruling_kind_outside_the_list_is_refused_field_off_3():
    assert invalid("Ball stuck", "conduct") == "`kind` is one of: machine, other, void_slot."


LOG = [
    precedent(1, "machine"),
    precedent(2, "other", "FIELD-MALF-3"),
    precedent(3, "other", None, "Godzilla"),
    precedent(4, "other"),
]


def test_earlier_rulings_on_the_same_machine_rule_or_kind_closest_first_field_off_3():
    """COMMON-RULING-1: the same machine family or rule ranks above the same kind, newest first among equals;
    rulings sharing none of them are left out."""
    found = earlier_rulings(LOG, kind="machine", rule_id="FIELD-MALF-3", machine_family="Godzilla")
    assert [p.id for p in found] == [3, 2, 1]


def test_without_a_machine_earlier_rulings_match_the_rule_and_kind_only_field_off_3():
    found = earlier_rulings(LOG, kind="machine", rule_id=None, machine_family=None)
    assert [p.id for p in found] == [1]


def test_a_blank_machine_family_matches_no_earlier_machine_field_off_3():
    log = [precedent(1, "machine"), precedent(2, "other", None, "")]
    assert [p.id for p in earlier_rulings(log, kind="machine", rule_id=None, machine_family="")] == [1]
