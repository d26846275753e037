"""Groups: sizes, week-1 grouping, weekly movement and the group-size check (LADDER-GROUP-*).

A ladder is a list of groups, top group (G1) first. Movement works on the night's finishing order of each
group; after the division split it runs on each division's ladder separately (LADDER-DIV-2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from math import ceil

from bot.rules.ladder.options import LadderOptions
from bot.rules.ratings.seeding import reordered_by_rating
from bot.rules.refusals import InvalidInput, RuleViolation

PlayerId = int

SIZE_TABLE: Mapping[int, tuple[int, ...]] = {  # LADDER-GROUP-1 (JPA L99-L120)
    8: (2, 3, 3),
    9: (3, 3, 3),
    10: (3, 3, 4),
    11: (3, 4, 4),
    12: (3, 3, 3, 3),
    13: (3, 3, 3, 4),
    14: (3, 3, 4, 4),
    15: (3, 3, 3, 3, 3),
    16: (4, 4, 4, 4),
    17: (3, 3, 3, 4, 4),
    18: (3, 3, 3, 3, 3, 3),
    19: (3, 3, 3, 3, 3, 4),
    20: (4, 4, 4, 4, 4),
    21: (3, 3, 3, 4, 4, 4),
    22: (3, 3, 4, 4, 4, 4),
    23: (3, 4, 4, 4, 4, 4),
    24: (4, 4, 4, 4, 4, 4),
}
SMALL_LEAGUES: Mapping[int, tuple[int, ...]] = {3: (3,), 4: (2, 2), 5: (2, 3), 6: (3, 3), 7: (3, 4)}  # AMB-11


def group_sizes(players: int) -> tuple[int, ...]:
    """LADDER-GROUP-1 for 8-24 players; LADDER-AMB-11 below and above (also used per division)."""
    if players in SIZE_TABLE:
        return SIZE_TABLE[players]
    if players in SMALL_LEAGUES:
        return SMALL_LEAGUES[players]
    if players < 3:
        raise RuleViolation("LADDER-AMB-11", f"A ladder needs at least 3 active players; it has {players}.")
    groups = ceil(players / 4)
    threes = 4 * groups - players
    return (3,) * threes + (4,) * (groups - threes)


def deal(players_best_first: Sequence[PlayerId]) -> list[list[PlayerId]]:
    """LADDER-GROUP-2 / LADDER-AMB-33: fill G1 from the top, then G2, with the sizes for that many players."""
    groups, start = [], 0
    for size in group_sizes(len(players_best_first)):
        groups.append(list(players_best_first[start : start + size]))
        start += size
    return groups


@dataclass(frozen=True)
class Skill:
    player: PlayerId
    skill: int  # LADDER-REG-2: 1 (novice) to 10 (expert)
    commissioner_order: int  # registration order unless the commissioner reorders
    seed: int | None = None  # where a returning player finished last season, 1 = best
    rating: float | None = None  # the player's rating from games played (`use_ratings`), when they have one


def seeding(seed: int | None) -> tuple[bool, int]:
    """Sorts seeded players first, best seed first."""
    return (seed is None, seed or 0)


def first_week_groups(skills: Sequence[Skill], *, by_rating: bool = False) -> list[list[PlayerId]]:
    """LADDER-GROUP-2: sort by skill, best first, ties in commissioner order, and deal from the top. Players
    carried from last season come first, in last season's finishing order; newcomers follow by skill.

    `by_rating` (the `use_ratings` option): the skill the league knows from games played stands in for the
    commissioner's knowledge of the newcomers. Rated newcomers take the places the skill order gives rated
    newcomers, in rating order; an unrated newcomer keeps the place their self-estimate gives them."""
    ordered = sorted(skills, key=lambda s: (*seeding(s.seed), -s.skill, s.commissioner_order))
    carried = [s.player for s in ordered if s.seed is not None]
    newcomers = [s for s in ordered if s.seed is None]
    dealt = [s.player for s in newcomers]
    if by_rating:
        dealt = reordered_by_rating(dealt, {s.player: s.rating for s in newcomers if s.rating is not None})
    return deal(carried + dealt)


class NightPresence(StrEnum):
    """How a player took part in the night, for movement (LADDER-GROUP-5/6)."""

    PRESENT = "present"  # played at least one game
    PREMAKEUP = "premakeup"  # absent, placed on premakeups
    ABSENT = "absent"  # absent with no premakeups used: stays put


@dataclass(frozen=True)
class Finisher:
    player: PlayerId
    presence: NightPresence
    game_points: int  # week game points (LADDER-AMB-12: without the bonus)


def _up_movers(finish: Sequence[Finisher]) -> list[Finisher]:
    """Who may move up, best first: present players, and a premakeup user only as group winner (GROUP-5/6)."""
    movers = [f for f in finish if f.presence is NightPresence.PRESENT]
    if finish and finish[0].presence is NightPresence.PREMAKEUP:
        movers.insert(0, finish[0])
    return movers


def _down_movers(finish: Sequence[Finisher]) -> list[Finisher]:
    """Who may move down, lowest first: present players only (LADDER-GROUP-6, LADDER-AMB-13)."""
    return [f for f in reversed(finish) if f.presence is NightPresence.PRESENT]


def next_week_groups(finishes: Sequence[Sequence[Finisher]], options: LadderOptions) -> list[list[PlayerId]]:
    """LADDER-GROUP-3/4/5/6 and LADDER-AMB-12/13: swap across each boundary, top to bottom.

    `finishes[i]` is group i's finishing order (LADDER-BONUS-1), winner first. Nobody moves twice in a
    night; a boundary without an eligible player on either side does not swap.

    LADDER-TV-17: G1 finished B, C, A, G2 F, D, E and G3 G, H, I make G1 {B,C,F}, G2 {A,D,G}, G3 {E,H,I}.
    """
    groups = [[f.player for f in finish] for finish in finishes]
    moved: set[PlayerId] = set()
    swaps: list[tuple[int, PlayerId, PlayerId]] = []
    for upper in range(len(finishes) - 1):
        lower = upper + 1
        ups = [f for f in _up_movers(finishes[lower]) if f.player not in moved]
        downs = [f for f in _down_movers(finishes[upper]) if f.player not in moved]
        if not ups or not downs:
            continue
        # GROUP-3: the single swap always happens (AMB-12 question 3)
        pairs = [(ups[0], downs[0])]
        double = len(finishes[lower]) == 4 and (options.double_swap == "lower_group_4" or len(finishes[upper]) == 4)
        if double and len(ups) > 1 and len(downs) > 1:  # GROUP-4: thresholds on week game points
            going_up, going_down = ups[1], downs[1]
            if (
                going_up.game_points >= options.double_swap_threshold
                and going_down.game_points <= options.double_swap_threshold
            ):
                pairs.append((going_up, going_down))
        for riser, faller in pairs:
            swaps.append((upper, riser.player, faller.player))
            moved |= {riser.player, faller.player}
    for upper, up_player, down_player in swaps:
        groups[upper + 1][groups[upper + 1].index(up_player)] = down_player
        groups[upper][groups[upper].index(down_player)] = up_player
    return groups


def check_groups(
    groups: Sequence[Sequence[PlayerId]],
    sizes: Sequence[int],
    division_of: Mapping[PlayerId, str] | None = None,
) -> None:
    """LADDER-GROUP-8: the size vector holds and, from week 6, no group mixes divisions."""
    actual = tuple(len(g) for g in groups)
    if actual != tuple(sizes):
        vector = ",".join(str(s) for s in sizes)
        raise RuleViolation("LADDER-GROUP-8", f"Group sizes must stay {vector}.")
    everyone = [p for g in groups for p in g]
    if len(set(everyone)) != len(everyone):
        raise InvalidInput("A player can be in only one group (LADDER-GROUP-8).")
    if division_of is not None:
        for number, group in enumerate(groups, start=1):
            if len({division_of[p] for p in group}) > 1:
                raise RuleViolation("LADDER-GROUP-8", f"Group {number} mixes players of different divisions.")


def regroup(groups: Sequence[Sequence[PlayerId]], active: Sequence[PlayerId]) -> list[list[PlayerId]]:
    """LADDER-GROUP-7, LADDER-ATT-6: drop players who left; when the active count changes, re-deal the ladder
    in its current order into the sizes for the new count, newcomers at the bottom for the commissioner to
    place. An unchanged count keeps the groups as they are."""
    keep = set(active)
    ladder = [p for g in groups for p in g if p in keep]
    newcomers = [p for p in active if p not in set(ladder)]
    if not newcomers and len(ladder) == sum(len(g) for g in groups):
        return [list(g) for g in groups]
    return deal(ladder + newcomers)
