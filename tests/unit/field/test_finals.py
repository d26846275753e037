"""Field finals (bot/rules/field/finals.py): FIELD-FIN-1..9, FIELD-STAND-2, FIELD-PAY-2, FIELD-IFPA-1/2,
FIELD-AMB-4/5/6/7/8/9/10/15 and FIELD-TV-5/8/9/14/15/19."""

from datetime import date
from fractions import Fraction

import pytest

from bot.rules.brackets import BYE, resolve
from bot.rules.field.finals import (
    DRAIN_EXTRA_BALLS,
    FinalsGame,
    IfpaRow,
    Pick,
    PickKind,
    check_finals_date,
    check_finals_entry,
    check_game_result,
    check_pick,
    draw_tiebreak_machine,
    finals_brackets,
    finals_payouts,
    finishing_positions,
    first_chooser,
    ifpa_rows,
    pairing_notes,
    pairing_winner,
    seed_finals,
)
from bot.rules.field.options import FieldOptions
from bot.rules.field.standings import SeasonRow, season_standings
from bot.rules.refusals import Refusal, RuleViolation

LPL = FieldOptions()
AB = FieldOptions(ab_divisions=True)


def row(player: str, total: int, weeks: int = 8, rank: int = 1) -> SeasonRow:
    return SeasonRow(player, rank, Fraction(total), Fraction(total), weeks, ())


def rule_of(call, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value


def test_tv5_eligibility_needs_half_the_weeks_field_fin_1():
    """FIELD-TV-5 / FIELD-FIN-1 / FIELD-AMB-5: 3 of 8 → not eligible; 4 → eligible; with A/B, 3 → B."""
    check_finals_entry(row("A", 500, weeks=4), present=True, paid=True, options=LPL)
    assert (
        "4 weeks" in rule_of(check_finals_entry, row("A", 500, weeks=3), present=True, paid=True, options=LPL).message
    )
    check_finals_entry(row("A", 500, weeks=3), present=True, paid=True, options=AB)


def test_finals_need_check_in_and_the_fee_field_fin_1():
    """FIELD-FIN-1: present at finals check-in and the $10 paid ("no dough, no show")."""
    assert "Check in" in rule_of(check_finals_entry, row("A", 1), present=False, paid=True, options=LPL).message
    assert (
        "no dough, no show" in rule_of(check_finals_entry, row("A", 1), present=True, paid=False, options=LPL).message
    )
    assert rule_of(check_finals_entry, None, present=True, paid=True, options=LPL).rule_id == "FIELD-FIN-1"


def test_seeds_from_totals_after_drops_among_entrants_field_fin_2():
    """FIELD-FIN-2 / FIELD-AMB-7: seeding uses the totals after the 2 lowest weeks are dropped."""
    weekly = {"A": {w: 100 for w in range(1, 9)}, "B": {w: 130 for w in range(1, 7)}}
    table = season_standings(weekly, list(range(1, 9)), LPL)
    assert seed_finals(table, {"A", "B"}, LPL).seeds == ("B", "A")  # after drops: B 780, A 600 (raw A 800, B 780)
    assert seed_finals(table, {"A"}, LPL).seeds == ("A",)


def test_tv15_ties_among_finalists_need_a_tiebreaker_field_stand_2():
    """FIELD-TV-15 / FIELD-STAND-2 / FIELD-AMB-10: V and W on 611 → tie-breaker game; V wins → V 6, W 7."""
    table = [row(f"S{i}", 900 - i) for i in range(1, 6)] + [row("V", 611), row("W", 611), row("Z", 500)]
    everyone = {r.player for r in table}
    pending = seed_finals(table, everyone, LPL)
    assert pending.open_ties == (frozenset({"V", "W"}),)
    decided = seed_finals(table, everyone, LPL, {frozenset({"V", "W"}): ("V", "W")})
    assert decided.seeds.index("V") == 5 and decided.seeds.index("W") == 6 and decided.open_ties == ()
    without_w = seed_finals(table, everyone - {"W"}, LPL)
    assert without_w.open_ties == () and "W" not in without_w.seeds


def test_tiebreak_machine_draw_is_reproducible_from_its_seed_field_stand_2():
    machines = {"Medieval Madness", "Twilight Zone", "Attack from Mars"}
    assert draw_tiebreak_machine(machines, 42) == draw_tiebreak_machine(machines, 42)
    assert draw_tiebreak_machine(machines, 42) in machines
    assert rule_of(draw_tiebreak_machine, set(), 1).rule_id == "FIELD-STAND-2"


def test_one_sixteen_slot_bracket_with_byes_to_top_seeds_field_fin_3():
    """FIELD-FIN-3: 16 slots, pairing 1-16, 8-9, 5-12, 4-13, 6-11, 3-14, 7-10, 2-15; byes to top seeds."""
    (bracket,) = finals_brackets(
        seed_finals([row(f"S{i}", 100 - i) for i in range(11)], {f"S{i}" for i in range(11)}, LPL), LPL
    )
    assert bracket.size == 16
    first_round = [m for m in bracket.matches if m.id.startswith("W1-")]
    state = resolve(bracket, {})
    pairs = [(s.top, s.bottom) for s in state.matches if s.match in first_round]
    assert pairs[0] == (1, BYE) and pairs[1] == (8, 9) and pairs[4] == (6, 11) and pairs[7] == (2, BYE)
    assert (
        len(
            finals_brackets(
                seed_finals([row(f"S{i}", 100 - i) for i in range(6)], {f"S{i}" for i in range(6)}, LPL), LPL
            )[0].matches
        )
        > 0
    )


def test_more_than_sixteen_finalists_get_a_32_bracket_field_amb_4():
    seeding = seed_finals([row(f"S{i}", 100 - i) for i in range(17)], {f"S{i}" for i in range(17)}, LPL)
    assert finals_brackets(seeding, LPL)[0].size == 32


def test_tv9_ab_divisions_field_amb_4():
    """FIELD-TV-9 / FIELD-AMB-4: 13 present, A = seeds 1-8 (8-bracket), B = 9-13 padded to 8: 12 v 13 only."""
    seeding = seed_finals([row(f"S{i}", 100 - i) for i in range(1, 14)], {f"S{i}" for i in range(1, 14)}, AB)
    a, b = finals_brackets(seeding, AB)
    assert a.size == 8 and a.entrants == 8 and b.size == 8 and b.entrants == 5
    played_first = [s for s in resolve(b, {}).matches if s.match.id.startswith("W1-") and s.ready]
    assert [(s.top, s.bottom) for s in played_first] == [(4, 5)]  # B seeds 4 and 5 = league seeds 12 and 13


def test_double_elimination_with_reset_field_fin_7_field_amb_8():
    """FIELD-FIN-7 / FIELD-AMB-8: a second loss eliminates; the grand final resets when the losers' side wins."""
    (bracket,) = finals_brackets(seed_finals([row("A", 2), row("B", 1)], {"A", "B"}, LPL), LPL)
    assert {m.id for m in bracket.matches} >= {"GF", "GF2"}
    (no_reset,) = finals_brackets(
        seed_finals([row("A", 2), row("B", 1)], {"A", "B"}, LPL), FieldOptions(grand_final_reset=False)
    )
    assert "GF2" not in {m.id for m in no_reset.matches}


def test_best_of_three_ends_at_two_wins_field_fin_4():
    pairing = (3, 6)
    games = [FinalsGame(1, winner=3), FinalsGame(2, winner=3)]
    assert pairing_winner(games, pairing) == 3
    assert pairing_winner(games[:1], pairing) is None
    assert rule_of(check_game_result, games, pairing, 6).rule_id == "FIELD-FIN-4"


def test_tv14_machine_and_order_picks_field_fin_5_field_fin_6():
    """FIELD-TV-14 / FIELD-FIN-5 / FIELD-FIN-6 / FIELD-AMB-9: seed 3 v seed 6."""
    pairing = (3, 6)
    finals = {"Medieval Madness", "Attack from Mars", "Twilight Zone", "Godzilla"}
    rules = dict(finals_machines=finals, queued={"Attack from Mars"}, name={})
    assert first_chooser(1, 3, 6) == 3 and first_chooser(2, 3, 6) == 6 and first_chooser(3, 3, 6) == 3
    mm = Pick(3, PickKind.MACHINE, machine="Medieval Madness")
    check_pick([], mm, pairing, **rules)
    assert (
        rule_of(check_pick, [], Pick(6, PickKind.MACHINE, machine="Godzilla"), pairing, **rules).rule_id
        == "FIELD-FIN-5"
    )
    game1 = FinalsGame(1, (mm,))
    second_machine = rule_of(check_pick, [game1], Pick(6, PickKind.MACHINE, machine="Godzilla"), pairing, **rules)
    assert second_machine.message == "Opponent picks the order this game."
    check_pick([game1], Pick(6, PickKind.ORDER, plays_first=False), pairing, **rules)
    game1 = FinalsGame(1, (mm, Pick(6, PickKind.ORDER, plays_first=False)), winner=3)
    again = rule_of(check_pick, [game1], Pick(6, PickKind.MACHINE, machine="Medieval Madness"), pairing, **rules)
    assert again.message == "Medieval Madness already used in this match-up"
    queue = rule_of(check_pick, [game1], Pick(6, PickKind.MACHINE, machine="Attack from Mars"), pairing, **rules)
    assert queue.message == "Attack from Mars has a queue; choose another"
    assert (
        rule_of(check_pick, [game1], Pick(3, PickKind.ORDER, plays_first=True), pairing, **rules).rule_id
        == "FIELD-FIN-5"
    )
    tz = Pick(6, PickKind.MACHINE, machine="Twilight Zone")
    check_pick([game1], tz, pairing, **rules)
    game2 = FinalsGame(2, (tz, Pick(3, PickKind.ORDER, plays_first=True)), winner=6)
    for used in ("Medieval Madness", "Twilight Zone"):
        violation = rule_of(check_pick, [game1, game2], Pick(3, PickKind.MACHINE, machine=used), pairing, **rules)
        assert violation.rule_id == "FIELD-FIN-6"
    check_pick([game1, game2], Pick(3, PickKind.MACHINE, machine="Godzilla"), pairing, **rules)


def test_only_finals_eligible_machines_field_fin_6():
    rules = dict(finals_machines={"Godzilla"}, queued=set(), name={})
    violation = rule_of(check_pick, [], Pick(1, PickKind.MACHINE, machine="Flaky"), (1, 2), **rules)
    assert "not a finals machine" in violation.message


def test_a_result_needs_both_picks_field_fin_5():
    assert (
        rule_of(check_game_result, [FinalsGame(1, (Pick(1, PickKind.MACHINE, machine="X"),))], (1, 2), 1).rule_id
        == "FIELD-FIN-5"
    )
    check_game_result(
        [FinalsGame(1, (Pick(1, PickKind.MACHINE, machine="X"), Pick(2, PickKind.ORDER, plays_first=True)))], (1, 2), 1
    )


def test_machine_notes_shown_with_each_pairing_field_fin_8():
    """FIELD-FIN-8: extra balls drained everywhere; configured machine notes."""
    notes = pairing_notes(FieldOptions(finals_notes=("Rolling Stones: posts off",)))
    assert notes == [DRAIN_EXTRA_BALLS, "Rolling Stones: posts off"]


def test_finals_date_weekday_must_match_field_fin_9_field_amb_6():
    """FIELD-FIN-9 / FIELD-AMB-6: "Tuesday 5/23" fits 2017, not 2018."""
    check_finals_date(date(2017, 5, 23), "Tuesday")
    assert rule_of(check_finals_date, date(2018, 5, 23), "Tuesday").rule_id == "FIELD-AMB-6"


@pytest.mark.parametrize(
    ("entrants", "shares", "flagged"),
    [(11, (4900, 2100), False), (16, (8400, 3600), False), (13, (6300, 2700), False), (3, (0, 0), True)],
)
def test_tv8_payouts_field_pay_2(entrants, shares, flagged):
    """FIELD-TV-8 / FIELD-PAY-2 / FIELD-AMB-15: $10 × entrants − $40, 70/30; a negative pool is flagged."""
    payout = finals_payouts(entrants, LPL)
    assert payout.shares_cents == shares and payout.flagged is flagged


def test_leftover_cents_go_to_first_common_amb_2():
    """COMMON-AMB-2 / COMMON-TV-4: $40.50 at 75/25 → $30.38 / $10.12."""
    options = FieldOptions(finals_fee_cents=4050, plaque_cost_cents=0, payout_percents=(75, 25))
    assert finals_payouts(1, options).shares_cents == (3038, 1012)


def play_out(bracket):
    """Every match won by the better seed (lower number)."""
    winners: dict[str, int] = {}
    while True:
        ready = resolve(bracket, winners).ready()
        if not ready:
            return resolve(bracket, winners)
        for state in ready:
            winners[state.match.id] = min(state.top, state.bottom)


def test_tv19_finishing_bands_skip_empty_ones_field_ifpa_2():
    """FIELD-TV-19 / FIELD-IFPA-2: 11 finalists in a 16 bracket: 1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9."""
    seeding = seed_finals([row(f"S{i}", 100 - i) for i in range(1, 12)], {f"S{i}" for i in range(1, 12)}, LPL)
    (bracket,) = finals_brackets(seeding, LPL)
    positions = finishing_positions(bracket, play_out(bracket))
    assert sorted(positions.values()) == [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9]
    assert positions[1] == 1 and positions[2] == 2
    assert rule_of(finishing_positions, bracket, resolve(bracket, {})).rule_id == "FIELD-IFPA-2"


def test_tv19_ifpa_export_finalists_then_league_order_field_ifpa_1():
    """FIELD-TV-19 / FIELD-IFPA-1: finalists by finish, then the others by league rank after drops."""
    finals = {"S3": 1, "S1": 2, "S2": 3, "S5": 4, "S4": 5, "S7": 5, "S6": 7, "S9": 7, "S8": 9, "S10": 9, "S11": 9}
    table = [row(f"S{i}", 200 - i, rank=i) for i in range(1, 14)]
    rows = ifpa_rows(finals, table)
    assert [r.position for r in rows] == [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 12, 13]
    assert [r.player for r in rows[-2:]] == ["S12", "S13"] and not rows[-1].finalist


def test_ifpa_league_ties_stay_tied_field_amb_10():
    table = [row("A", 10, rank=1), row("B", 5, rank=2), row("C", 5, rank=2)]
    assert [r.position for r in ifpa_rows({"A": 1}, table)] == [1, 2, 2]


PAIRING = (3, 6)
FINALS = {"mm": "Medieval Madness", "afm": "Attack from Mars", "tz": "Twilight Zone", "gz": "Godzilla"}
PICK_RULES = dict(finals_machines=set(FINALS), queued={"afm"}, name=FINALS)
MM = Pick(3, PickKind.MACHINE, machine="mm")
SIX_SECOND = Pick(6, PickKind.ORDER, plays_first=False)


def refusal_of(call, *args, **kwargs) -> Refusal:
    with pytest.raises(Refusal) as caught:
        call(*args, **kwargs)
    return caught.value


@pytest.mark.parametrize(
    ("games", "pick", "rule_id", "message"),
    [
        ([], Pick(9, PickKind.MACHINE, machine="mm"), None, "Seed 9 is not in this pairing."),
        (
            [FinalsGame(1, winner=3), FinalsGame(2, winner=3)],
            Pick(6, PickKind.MACHINE, machine="gz"),
            "FIELD-FIN-4",
            "This pairing is decided: best two of three.",
        ),
        ([], Pick(6, PickKind.MACHINE, machine="gz"), "FIELD-FIN-5", "Seed 3 chooses first in game 1."),
        ([FinalsGame(1, winner=3)], MM, "FIELD-FIN-5", "Seed 6 chooses first in game 2."),
        # the first picker cannot also take the other pick
        (
            [FinalsGame(1, (MM,))],
            Pick(3, PickKind.ORDER, plays_first=True),
            "FIELD-FIN-5",
            "Opponent picks the order this game.",
        ),
        # both picks made: a third is refused, whatever its kind
        (
            [FinalsGame(1, (MM, SIX_SECOND))],
            Pick(6, PickKind.ORDER, plays_first=True),
            "FIELD-FIN-5",
            "Opponent picks the order this game.",
        ),
        # the first picker chose the order: the opponent picks the machine
        (
            [FinalsGame(1, (Pick(3, PickKind.ORDER, plays_first=True),))],
            Pick(6, PickKind.ORDER, plays_first=False),
            "FIELD-FIN-5",
            "Opponent picks the machine this game.",
        ),
        ([], Pick(3, PickKind.MACHINE), None, "Name the machine."),
        ([], Pick(3, PickKind.ORDER), None, "Say whether you play first or second."),
        (
            [FinalsGame(1, (MM, SIX_SECOND), winner=3)],
            Pick(6, PickKind.MACHINE, machine="mm"),
            "FIELD-FIN-6",
            "Medieval Madness already used in this match-up",
        ),
        ([], Pick(3, PickKind.MACHINE, machine="afm"), "FIELD-FIN-6", "Attack from Mars has a queue; choose another"),
        (
            [],
            Pick(3, PickKind.MACHINE, machine="flaky"),
            "FIELD-FIN-6",
            "flaky is not a finals machine; choose another",
        ),
    ],
)
def test_each_refused_pick_says_why_field_fin_4_field_fin_5_field_fin_6(games, pick, rule_id, message):
    """FIELD-FIN-4/5/6 / FIELD-AMB-9: the refusal names the rule and, by its display name, the machine."""
    refusal = refusal_of(check_pick, games, pick, PAIRING, **PICK_RULES)
    assert (refusal.rule_id, refusal.message) == (rule_id, message)


@pytest.mark.parametrize(
    ("games", "winner", "rule_id", "message"),
    [
        ([], 9, None, "Seed 9 is not in this pairing."),
        (
            [FinalsGame(1, winner=6), FinalsGame(2, winner=6)],
            3,
            "FIELD-FIN-4",
            "This pairing is decided: best two of three.",
        ),
        ([], 3, "FIELD-FIN-5", "Both players pick (machine and order) before the game is played."),
        ([FinalsGame(1, (MM,))], 3, "FIELD-FIN-5", "Both players pick (machine and order) before the game is played."),
        # game 1 is already decided and game 2 has no picks yet
        (
            [FinalsGame(1, (MM, SIX_SECOND), winner=3)],
            6,
            "FIELD-FIN-5",
            "Both players pick (machine and order) before the game is played.",
        ),
    ],
)
def test_a_result_is_refused_until_both_picks_field_fin_4_field_fin_5(games, winner, rule_id, message):
    refusal = refusal_of(check_game_result, games, PAIRING, winner)
    assert (refusal.rule_id, refusal.message) == (rule_id, message)


@pytest.mark.parametrize(
    ("row_", "present", "paid", "options", "message"),
    [
        (None, True, True, LPL, "Finals need 4 weeks played (half the season); this player played 0."),
        (
            row("A", 500, weeks=3),
            True,
            True,
            LPL,
            "Finals need 4 weeks played (half the season); this player played 3.",
        ),
        (row("A", 500, weeks=2), True, True, AB, "Finals need 3 weeks played (half the season); this player played 2."),
        (row("A", 500), False, True, LPL, "Check in at the finals first."),
        (row("A", 500), True, False, LPL, "The finals entry fee is not paid: no dough, no show."),
    ],
)
def test_finals_entry_refusals_field_fin_1(row_, present, paid, options, message):
    refusal = refusal_of(check_finals_entry, row_, present=present, paid=paid, options=options)
    assert (refusal.rule_id, refusal.message) == ("FIELD-FIN-1", message)


def test_without_divisions_every_finalist_is_in_the_one_bracket_field_fin_3():
    seeding = seed_finals([row(f"S{i}", 100 - i) for i in range(11)], {f"S{i}" for i in range(11)}, LPL)
    assert seeding.a_division == 11
    six = seed_finals([row(f"S{i}", 100 - i) for i in range(6)], {f"S{i}" for i in range(6)}, LPL)
    (bracket,) = finals_brackets(six, LPL)
    assert (bracket.size, bracket.entrants) == (16, 6)  # FIELD-FIN-3: 16 slots, byes to the top seeds


def test_finals_need_two_players_field_fin_3():
    refusal = refusal_of(finals_brackets, seed_finals([row("A", 1)], {"A"}, LPL), LPL)
    assert (refusal.rule_id, refusal.message) == ("FIELD-FIN-3", "Finals need at least two players.")


@pytest.mark.parametrize(("present", "sizes"), [(8, [8]), (9, [8]), (10, [8, 2])])
def test_b_division_needs_two_players_field_amb_4(present, sizes):
    """FIELD-AMB-4: A takes the top 8; a B bracket is played only with at least two players left."""
    seeding = seed_finals([row(f"S{i}", 100 - i) for i in range(present)], {f"S{i}" for i in range(present)}, AB)
    assert [b.entrants for b in finals_brackets(seeding, AB)] == sizes


@pytest.mark.parametrize("reset", [True, False])
def test_reset_applies_to_both_divisions_field_amb_8(reset):
    """FIELD-AMB-8 / FIELD-AMB-4: the grand-final reset setting holds for the A and the B bracket."""
    options = FieldOptions(ab_divisions=True, grand_final_reset=reset)
    seeding = seed_finals([row(f"S{i}", 100 - i) for i in range(12)], {f"S{i}" for i in range(12)}, options)
    brackets = finals_brackets(seeding, options)
    assert [("GF2" in {m.id for m in b.matches}) for b in brackets] == [reset, reset]


def test_a_logged_tiebreak_seed_reproduces_its_machine_field_stand_2():
    """FIELD-STAND-2: the draw depends on the machines and the seed only, so a logged seed can be re-checked."""
    assert draw_tiebreak_machine({2, 10, 30}, 1) == 10
    assert draw_tiebreak_machine([30, 10, 2], 7) == 2
    refusal = refusal_of(draw_tiebreak_machine, (), 1)
    assert refusal.message == "No finals-eligible machine to draw a tie-breaker from."


@pytest.mark.parametrize(("entrants", "pool", "flagged"), [(4, 0, False), (3, -1000, True), (11, 7000, False)])
def test_pool_of_exactly_the_plaques_is_not_flagged_field_pay_2(entrants, pool, flagged):
    """FIELD-PAY-2: only a negative pool (fewer than 4 entrants) is flagged."""
    payout = finals_payouts(entrants, LPL)
    assert (payout.pool_cents, payout.flagged) == (pool, flagged)


def test_champion_from_the_losers_side_after_a_reset_field_ifpa_2():
    """FIELD-IFPA-2 / FIELD-AMB-8: seed 2 wins the grand final and its reset: seed 1 finishes second."""
    (bracket,) = finals_brackets(seed_finals([row("A", 3), row("B", 2), row("C", 1)], {"A", "B", "C"}, LPL), LPL)
    winners: dict[str, int] = {}
    while ready := resolve(bracket, winners).ready():
        for state in ready:
            grand_final = state.match.id in ("GF", "GF2")
            winners[state.match.id] = max(state.top, state.bottom) if grand_final else min(state.top, state.bottom)
    positions = finishing_positions(bracket, resolve(bracket, winners))
    assert positions == {2: 1, 1: 2, 3: 3}
    assert refusal_of(finishing_positions, bracket, resolve(bracket, {})).message == "The finals have no champion yet."


def test_ifpa_rows_order_tied_finalists_by_name_field_ifpa_1():
    rows = ifpa_rows({"Zed": 1, "Bea": 2, "Al": 2}, [row("Cy", 1, rank=1)])
    assert rows == [
        IfpaRow(1, "Zed", True),
        IfpaRow(2, "Al", True),
        IfpaRow(2, "Bea", True),
        IfpaRow(4, "Cy", False),
    ]


def test_wrong_weekday_message_field_amb_6():
    refusal = refusal_of(check_finals_date, date(2018, 5, 23), "Tuesday")
    assert refusal.message == "23 May 2018 is a Wednesday, not a Tuesday: check the date."
