"""Premakeup scores and ghosts (bot/rules/ladder/premakeup.py): LADDER-PMU-*, LADDER-GHOST-1/3,
LADDER-AMB-6/7/8/9/24/32."""

from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.premakeup import (
    MachinePremakeups,
    SeasonUsage,
    Slot,
    ghost_regime,
    half_normalizer_ghost,
    players_without_premakeup,
    record_premakeup,
    regime_ghost,
    resolve_missed_game,
    set_order,
    use_premakeup,
)
from bot.rules.ladder.scoring import EntryKind
from tests.unit.ladder.helpers import refused, refused_saying

M = 1_000_000
OPTIONS = LadderOptions()
WITH = ["Bob"]


def recorded(machine: str, *scores: int) -> MachinePremakeups:
    current = MachinePremakeups(machine)
    for score in scores:
        current = record_premakeup(current, score, declared=True, other_players=WITH, options=OPTIONS)
    return current


def test_premakeups_must_be_declared_and_played_with_someone():
    """LADDER-PMU-1: reject an undeclared or solo game; record who else played."""
    with refused("LADDER-PMU-1", "Declare"):
        record_premakeup(MachinePremakeups("TAF"), 5 * M, declared=False, other_players=WITH, options=OPTIONS)
    with refused("LADDER-PMU-1", "at least one other player"):
        record_premakeup(MachinePremakeups("TAF"), 5 * M, declared=True, other_players=[], options=OPTIONS)


def test_at_most_two_premakeups_per_machine():
    """LADDER-PMU-1: a 3rd premakeup on a machine is refused."""
    two = recorded("Monster Bash", 20 * M, 40 * M)
    assert (two.s1, two.s2) == (20 * M, 40 * M)
    with refused("LADDER-PMU-1", "You already have 2 premakeup games on Monster Bash"):
        record_premakeup(two, 1, declared=True, other_players=WITH, options=OPTIONS)


def test_tv5_premakeup_averages():
    """LADDER-TV-5 / LADDER-PMU-2 / LADDER-AMB-6: AVG = round10((S1 + S2) / 2), halves up."""
    assert recorded("MB", 20_000_000, 40_000_000).average(OPTIONS) == 30_000_000
    assert recorded("MB", 12_345_670, 23_456_780).average(OPTIONS) == 17_901_230
    assert recorded("MB", 12_345_670, 23_456_780).average(LadderOptions(round_half="even")) == 17_901_220
    assert recorded("MB", 1_234_567, 2_000_000).average(OPTIONS) == 1_617_280
    assert recorded("MB", 30 * M).average(OPTIONS) == 15 * M  # a missing game counts 0


def test_tv24_default_order_highest_first_then_descending():
    """LADDER-TV-24 / LADDER-PMU-3 / LADDER-AMB-7: 40M, then 30M, then 20M; each value once."""
    current = recorded("MB", 20 * M, 40 * M)
    used = []
    for _ in range(3):
        value, current = use_premakeup(current, OPTIONS)
        used.append(value)
    assert used == [40 * M, 30 * M, 20 * M]
    assert not current.usable()  # LADDER-PMU-7: all three values used
    with refused("LADDER-PMU-7", "No usable premakeup"):
        use_premakeup(current, OPTIONS)


def test_tv24_player_order_until_the_first_use_locks_it():
    """LADDER-TV-24 / LADDER-PMU-3: a set order is followed; changing it after a use → "Order locked"."""
    current = set_order(
        recorded("MB", 20 * M, 40 * M), [Slot.S1, Slot.S2, Slot.AVG], any_use_this_season=False, options=OPTIONS
    )
    value, current = use_premakeup(current, OPTIONS)
    assert value == 20 * M
    with refused("LADDER-PMU-3", "Order locked: a premakeup on MB has been used"):
        set_order(current, [Slot.AVG, Slot.S2, Slot.S1], any_use_this_season=True, options=OPTIONS)
    assert [use_premakeup(current, OPTIONS)[0]] == [40 * M]


def test_order_must_name_each_value_once():
    """LADDER-PMU-3: the order is a permutation of S1, S2 and AVG."""
    with refused("LADDER-PMU-3", "exactly once"):
        set_order(recorded("MB", 1), [Slot.S1, Slot.S1, Slot.AVG], any_use_this_season=False, options=OPTIONS)


def test_order_lock_per_machine_by_default_or_global():
    """LADDER-AMB-32: a use on another machine locks the order only with `pmu_order_lock=global`."""
    fresh = recorded("MB", 20 * M, 40 * M)
    order = [Slot.AVG, Slot.S1, Slot.S2]
    assert set_order(fresh, order, any_use_this_season=True, options=OPTIONS).order == tuple(order)
    with refused("LADDER-PMU-3", "Order locked"):
        set_order(fresh, order, any_use_this_season=True, options=LadderOptions(pmu_order_lock="global"))


def test_tv6_missing_second_game_uses_zero_and_locks_the_machine():
    """LADDER-TV-6 / LADDER-PMU-4: S1 first; the 2nd use is 0 (S2 := 0), AVG = 25M, TAF closed."""
    taf = recorded("TAF", 50 * M)
    first, taf = use_premakeup(taf, OPTIONS)
    assert first == 50 * M
    second, taf = use_premakeup(taf, OPTIONS)
    assert second == 0
    assert (taf.s2, taf.locked, taf.average(OPTIONS)) == (0, True, 25 * M)
    assert regime_ghost(taf, OPTIONS) == 25 * M  # LADDER-GHOST-3: (50 + 0 + 25) / 3
    with refused("LADDER-PMU-4", "Premakeups on TAF are closed after a zero was used"):
        record_premakeup(taf, 60 * M, declared=True, other_players=WITH, options=OPTIONS)
    third, taf = use_premakeup(taf, OPTIONS)
    assert third == 25 * M


def test_tv7_ghost_regime_value():
    """LADDER-TV-7 / LADDER-GHOST-3: one 30M premakeup → (30 + 0 + 15) / 3 = 15M; none at all → 0."""
    assert regime_ghost(recorded("MB", 30 * M), OPTIONS) == 15 * M
    assert regime_ghost(None, OPTIONS) == 0
    # rounded like every other ghost (LADDER-AMB-6): 10 + 21 + avg 20 (15.5 up) = 51 / 3 = 17 → 20
    assert regime_ghost(recorded("MB", 10, 21), OPTIONS) == 20


def test_half_normalizer_ghost():
    """LADDER-GHOST-1 / LADDER-AMB-9 / LADDER-AMB-6: round10(N / 2)."""
    assert half_normalizer_ghost(50 * M, OPTIONS) == 25 * M
    assert half_normalizer_ghost(1_234_570, OPTIONS) == 617_290  # 617,285 rounds half up


def test_tv23a_fifteen_uses_start_the_ghost_regime():
    """LADDER-TV-23 (a) / LADDER-PMU-5: absent weeks 2, 4, 6 on premakeups → 15 uses; week 8 is ghosted."""
    assert not ghost_regime(SeasonUsage(uses=14, missed_weeks=3), OPTIONS)
    assert ghost_regime(SeasonUsage(uses=15, missed_weeks=4), OPTIONS)
    week8 = resolve_missed_game(recorded("MB", 30 * M, 40 * M), SeasonUsage(15, 4), normalizer=50 * M, options=OPTIONS)
    assert (week8.kind, week8.placement, week8.official) == (EntryKind.REGIME_GHOST, 35 * M, 0)


def test_tv23b_fourth_missed_week_starts_the_ghost_regime():
    """LADDER-TV-23 (b) / LADDER-PMU-5 / LADDER-AMB-24: 12 uses but a 4th missed week (> 3) → ghost regime."""
    usage = SeasonUsage(uses=12, missed_weeks=4)
    assert ghost_regime(usage, OPTIONS)
    assert not ghost_regime(SeasonUsage(uses=12, missed_weeks=3), OPTIONS)


def test_missed_slot_uses_a_premakeup_and_counts_one_use():
    """LADDER-PMU-6 / LADDER-AMB-24: one missed slot = one use; placed and counted with its value."""
    missed = resolve_missed_game(recorded("MB", 20 * M, 40 * M), SeasonUsage(), normalizer=50 * M, options=OPTIONS)
    assert (missed.kind, missed.placement, missed.official, missed.usage.uses) == (
        EntryKind.PREMAKEUP,
        40 * M,
        40 * M,
        1,
    )
    assert missed.premakeups is not None and missed.premakeups.used == {Slot.S2}


def test_fifteenth_use_switches_later_slots_to_ghosts():
    """LADDER-PMU-5: the 15th use is consumed, so the next missed slot the same night is a ghost."""
    mb = recorded("MB", 20 * M, 40 * M)
    fifteenth = resolve_missed_game(mb, SeasonUsage(uses=14), normalizer=50 * M, options=OPTIONS)
    assert fifteenth.kind is EntryKind.PREMAKEUP and fifteenth.usage.uses == 15
    after = resolve_missed_game(fifteenth.premakeups, fifteenth.usage, normalizer=50 * M, options=OPTIONS)
    assert after.kind is EntryKind.REGIME_GHOST


def test_no_usable_premakeup_gives_a_half_normalizer_ghost_without_using_the_cap():
    """LADDER-PMU-7 / LADDER-AMB-8 / LADDER-SCORE-3: never recorded or all used → N/2 ghost, official 0."""
    for registry in (None, MachinePremakeups("MB")):
        missed = resolve_missed_game(registry, SeasonUsage(uses=3), normalizer=50 * M, options=OPTIONS)
        assert (missed.kind, missed.placement, missed.official, missed.usage.uses) == (
            EntryKind.HALF_GHOST,
            25 * M,
            0,
            3,
        )


def test_new_machine_lists_players_who_owe_a_premakeup():
    """LADDER-PMU-8 / LADDER-PMU-9: active players without a recorded premakeup on the machine."""
    registries = {1: {"Godzilla": recorded("Godzilla", 9 * M)}, 2: {"Godzilla": MachinePremakeups("Godzilla")}}
    assert players_without_premakeup("Godzilla", [1, 2, 3], registries) == [2, 3]


EVEN = LadderOptions(round_half="even")


def test_refusals_say_what_to_do():
    """LADDER-PMU-1 / LADDER-PMU-3: each refusal word for word as the player reads it."""
    empty = MachinePremakeups("MB")
    with refused_saying("LADDER-PMU-1", "Declare the premakeup game before playing it."):
        record_premakeup(empty, 10 * M, declared=False, other_players=WITH, options=OPTIONS)
    with refused_saying("LADDER-PMU-1", "Premakeup games must be played with at least one other player."):
        record_premakeup(empty, 10 * M, declared=True, other_players=[], options=OPTIONS)
    with refused_saying("LADDER-PMU-3", "Give each of S1, S2 and AVG exactly once, e.g. S2,AVG,S1."):
        set_order(recorded("MB", 10 * M), [Slot.S1, Slot.S1, Slot.AVG], any_use_this_season=False, options=OPTIONS)


def test_one_premakeup_per_machine_when_the_league_says_so():
    """LADDER-PMU-1 / LADDER-CFG-1 `pmu_per_machine`: with 1 allowed, a second game on the machine is refused."""
    one = LadderOptions(pmu_per_machine=1)
    first = record_premakeup(MachinePremakeups("MB"), 10 * M, declared=True, other_players=WITH, options=one)
    assert (first.s1, first.s2) == (10 * M, None)
    with refused_saying("LADDER-PMU-1", "You already have 1 premakeup games on MB."):
        record_premakeup(first, 20 * M, declared=True, other_players=WITH, options=one)


def test_even_rounding_for_ghosts_and_averages():
    """LADDER-AMB-6 `round_half=even` / LADDER-GHOST-1 / LADDER-PMU-2: exact halves go to the even ten."""
    assert half_normalizer_ghost(50, EVEN) == 20
    assert half_normalizer_ghost(50, OPTIONS) == 30
    # AVG of one premakeup, S2 missing counting 0: 1,234,450 / 2 = 617,225 → 617,220 (even)
    assert MachinePremakeups("MB", s1=1_234_450).average(EVEN) == 617_220


def test_a_missing_second_game_gives_s1_then_zero_then_avg_then_nothing():
    """LADDER-PMU-4 / LADDER-PMU-7: three values from one game, then the machine has no usable premakeup."""
    taf = recorded("TAF", 50 * M)
    values = []
    for _ in range(3):
        value, taf = use_premakeup(taf, OPTIONS)
        values.append(value)
    assert values == [50 * M, 0, 25 * M]
    assert not taf.usable()
    with refused("LADDER-PMU-7", "No usable premakeup on TAF"):
        use_premakeup(taf, OPTIONS)


def test_a_recorded_zero_is_a_premakeup_of_zero():
    """LADDER-PMU-3 / LADDER-SCORE-3: an S2 of 0 used first (the player's order) places and counts 0."""
    mb = MachinePremakeups("MB", s1=20 * M, s2=0, order=(Slot.S2, Slot.S1, Slot.AVG))
    value, _ = use_premakeup(mb, OPTIONS)
    assert value == 0


def test_a_ghost_leaves_the_registry_and_the_season_usage_as_they_were():
    """LADDER-GHOST-1/3 / LADDER-AMB-8: a ghost slot neither consumes a premakeup nor counts toward the cap."""
    spent = MachinePremakeups("MB", s1=20 * M, s2=40 * M, used=frozenset(Slot))
    half = resolve_missed_game(spent, SeasonUsage(uses=3, missed_weeks=1), normalizer=50 * M, options=OPTIONS)
    assert half.kind is EntryKind.HALF_GHOST
    assert (half.premakeups, half.usage) == (spent, SeasonUsage(uses=3, missed_weeks=1))
    mb = recorded("MB", 20 * M, 40 * M)
    regime = resolve_missed_game(mb, SeasonUsage(uses=15, missed_weeks=2), normalizer=50 * M, options=OPTIONS)
    assert regime.kind is EntryKind.REGIME_GHOST
    assert (regime.premakeups, regime.usage) == (mb, SeasonUsage(uses=15, missed_weeks=2))
