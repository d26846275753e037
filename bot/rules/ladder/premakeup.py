"""Premakeup scores and ghost scores for absent players (LADDER-PMU-*, LADDER-GHOST-*).

A player's registry holds, per machine, up to two premakeup games (S1, S2), the use order and the values
already used (LADDER-PMU-9). Each game slot the player misses is resolved in play order by
`resolve_missed_game`: a usable premakeup, else a ghost placement with official score 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction

from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.scoring import EntryKind, round10
from bot.rules.refusals import RuleViolation


class Slot(StrEnum):
    S1 = "S1"
    S2 = "S2"
    AVG = "AVG"


@dataclass(frozen=True)
class MachinePremakeups:
    """One player's premakeups on one machine (LADDER-PMU-9)."""

    machine: str
    s1: int | None = None
    s2: int | None = None
    order: tuple[Slot, ...] | None = None  # None: highest first, then descending (LADDER-AMB-7)
    used: frozenset[Slot] = frozenset()
    locked: bool = False  # a zero was used for a missing S2 (LADDER-PMU-4)

    def average(self, options: LadderOptions) -> int:
        """LADDER-PMU-2: AVG = round10((S1 + S2) / 2), a missing game counting 0."""
        return round10(Fraction((self.s1 or 0) + (self.s2 or 0), 2), half=options.round_half)

    def value(self, slot: Slot, options: LadderOptions) -> int:
        if slot is Slot.AVG:
            return self.average(options)
        return (self.s1 if slot is Slot.S1 else self.s2) or 0

    def usable(self) -> bool:
        """LADDER-PMU-7: recorded, and not all three values used."""
        return self.s1 is not None and len(self.used) < len(Slot)


@dataclass(frozen=True)
class SeasonUsage:
    """Season totals (LADDER-PMU-5/9): premakeup uses out of the cap and weeks missed."""

    uses: int = 0
    missed_weeks: int = 0


def record_premakeup(
    current: MachinePremakeups, score: int, *, declared: bool, other_players: Sequence[str], options: LadderOptions
) -> MachinePremakeups:
    """LADDER-PMU-1/4: record a declared premakeup game played with at least one other player."""
    if not declared:
        raise RuleViolation("LADDER-PMU-1", "Declare the premakeup game before playing it.")
    if not other_players:
        raise RuleViolation("LADDER-PMU-1", "Premakeup games must be played with at least one other player.")
    if current.locked:
        raise RuleViolation("LADDER-PMU-4", f"Premakeups on {current.machine} are closed after a zero was used.")
    if current.s2 is not None or (current.s1 is not None and options.pmu_per_machine < 2):
        raise RuleViolation(
            "LADDER-PMU-1", f"You already have {options.pmu_per_machine} premakeup games on {current.machine}."
        )
    if current.s1 is None:
        return replace(current, s1=score)
    return replace(current, s2=score)


def set_order(
    current: MachinePremakeups, order: Sequence[Slot], *, any_use_this_season: bool, options: LadderOptions
) -> MachinePremakeups:
    """LADDER-PMU-3, LADDER-AMB-32: the player orders the three values until the first use locks it.

    LADDER-TV-24: a change after the first use is refused "Order locked"."""
    if sorted(order) != sorted(Slot):
        raise RuleViolation("LADDER-PMU-3", "Give each of S1, S2 and AVG exactly once, e.g. S2,AVG,S1.")
    locked = bool(current.used) or (options.pmu_order_lock == "global" and any_use_this_season)
    if locked:
        raise RuleViolation("LADDER-PMU-3", f"Order locked: a premakeup on {current.machine} has been used.")
    return replace(current, order=tuple(order))


def use_premakeup(current: MachinePremakeups, options: LadderOptions) -> tuple[int, MachinePremakeups]:
    """Consume the next value (LADDER-PMU-3/4): the set order, or highest first then descending.

    With S2 missing the sequence is S1, then 0 (S2 := 0, machine locked), then AVG = round10(S1 / 2).

    LADDER-TV-6: S1 50,000,000 and no S2: the 2nd use is 0, then AVG 25,000,000.
    """
    if not current.usable():
        raise RuleViolation("LADDER-PMU-7", f"No usable premakeup on {current.machine}.")
    if current.s2 is None:
        if Slot.S1 not in current.used:
            return current.value(Slot.S1, options), replace(current, used=current.used | {Slot.S1})
        zeroed = replace(current, s2=0, locked=True, used=current.used | {Slot.S2})
        return 0, zeroed
    remaining = [slot for slot in (current.order or _descending(current, options)) if slot not in current.used]
    slot = remaining[0]
    return current.value(slot, options), replace(current, used=current.used | {slot})


def _descending(current: MachinePremakeups, options: LadderOptions) -> tuple[Slot, ...]:
    """LADDER-AMB-7: no order set → highest value first; equal values keep S1, S2, AVG order.

    LADDER-TV-24: 20M, 40M and AVG 30M are used 40M, 30M, 20M."""
    return tuple(sorted(Slot, key=lambda slot: -current.value(slot, options)))


def ghost_regime(usage: SeasonUsage, options: LadderOptions) -> bool:
    """LADDER-PMU-5: the 15th use is consumed, or more than three weeks missed (this one included)."""
    return usage.uses >= options.pmu_season_cap or usage.missed_weeks > options.ghost_after_missed_weeks


def regime_ghost(current: MachinePremakeups | None, options: LadderOptions) -> int:
    """LADDER-GHOST-3: average of S1, S2 and AVG, zeros included, rounded per LADDER-AMB-6.

    LADDER-TV-6: (50M + 0 + 25M) / 3 = 25,000,000. LADDER-TV-7: a single 30M premakeup, S2 missing, gives
    (30M + 0 + 15M) / 3 = 15,000,000."""
    if current is None:
        return 0
    values = [current.value(slot, options) for slot in Slot]
    return round10(Fraction(sum(values), 3), half=options.round_half)


def half_normalizer_ghost(normalizer: int, options: LadderOptions) -> int:
    """LADDER-GHOST-1, LADDER-AMB-9: half the machine's normalizer, rounded to the nearest 10.

    LADDER-TV-8, LADDER-TV-9: a 50,000,000 normalizer places an absent player at 25,000,000."""
    return round10(Fraction(normalizer, 2), half=options.round_half)


@dataclass(frozen=True)
class MissedGame:
    """How one missed game slot was scored (LADDER-GHOST-6: placement and official side by side)."""

    kind: EntryKind
    placement: int
    premakeups: MachinePremakeups | None
    usage: SeasonUsage

    @property
    def official(self) -> int:
        return self.placement if self.kind is EntryKind.PREMAKEUP else 0


def resolve_missed_game(
    premakeups: MachinePremakeups | None, usage: SeasonUsage, *, normalizer: int, options: LadderOptions
) -> MissedGame:
    """One missed slot (LADDER-PMU-6/7, LADDER-GHOST-1/3, LADDER-AMB-8/9/24).

    `usage.missed_weeks` already counts this week if the player missed it entirely. A premakeup use counts
    toward the 15; a Zero Point slot (ghost) does not.
    """
    if ghost_regime(usage, options):
        return MissedGame(EntryKind.REGIME_GHOST, regime_ghost(premakeups, options), premakeups, usage)
    if premakeups is not None and premakeups.usable():
        value, after = use_premakeup(premakeups, options)
        return MissedGame(EntryKind.PREMAKEUP, value, after, replace(usage, uses=usage.uses + 1))
    return MissedGame(EntryKind.HALF_GHOST, half_normalizer_ghost(normalizer, options), premakeups, usage)


def players_without_premakeup(
    machine: str, active_players: Sequence[int], registries: Mapping[int, Mapping[str, MachinePremakeups]]
) -> list[int]:
    """LADDER-PMU-8: active players who still owe a premakeup on a (new) machine."""
    return [
        player
        for player in active_players
        if (found := registries.get(player, {}).get(machine)) is None or found.s1 is None
    ]
