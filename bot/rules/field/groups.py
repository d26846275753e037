"""Who plays with whom on a meet night (FIELD-GROUP-*, FIELD-ATT-1/3, FIELD-AMB-1/2/11)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations

from bot.rules.field.options import FieldOptions
from bot.rules.field.scoring import MachineId, PlayerId
from bot.rules.refusals import InvalidInput, RuleViolation

Group = tuple[PlayerId, ...]


def group_sizes(players: int, options: FieldOptions) -> list[int]:
    """FIELD-GROUP-1: as many full groups (4) as possible, the rest one smaller (3).

    No answer exists for 5: FIELD-AMB-1 default [3, 2] (FIELD-TV-6: 9 → [3, 3, 3], 13 → [4, 3, 3, 3]).
    Fewer than 3 players: one group of them (the sheet is designed for three or more; `small_field_warning`
    says so).
    """
    full, smaller = options.max_group, options.max_group - 1
    if players <= 0:
        return []
    if players < smaller:
        return [players]
    if players % full == 0:
        return [full] * (players // full)
    for fulls in range(players // full, -1, -1):
        rest = players - full * fulls
        if rest > 0 and rest % smaller == 0:
            return [full] * fulls + [smaller] * (rest // smaller)
    if players == 5:
        return sorted(options.sizes_for_five, reverse=True)
    raise InvalidInput(f"No grouping of {players} players into groups of {full} and {smaller}.")


def small_field_warning(players: int) -> str | None:
    """FIELD-AMB-1: the sheet's leagues have three people or more."""
    if 0 < players < 3:
        return f"Only {players} checked in: the rules are designed for three players or more (FIELD-AMB-1)."
    return None


def past_pairings(groups_by_week: Iterable[Sequence[Group]]) -> Counter[frozenset[PlayerId]]:
    """How often each pair of players has shared a group this season."""
    met: Counter[frozenset[PlayerId]] = Counter()
    for week in groups_by_week:
        for group in week:
            met.update(frozenset(pair) for pair in combinations(group, 2))
    return met


def repeat_pairings(groups: Sequence[Group], met: Mapping[frozenset[PlayerId], int]) -> int:
    return sum(met.get(frozenset(pair), 0) for group in groups for pair in combinations(group, 2))


def deal_groups(
    ranked: Sequence[PlayerId], options: FieldOptions, met: Mapping[frozenset[PlayerId], int] | None = None
) -> list[Group]:
    """FIELD-GROUP-2 / FIELD-AMB-2: deal players, best first, snake-style into the groups so each spans the
    range of abilities; then swap players of the same ability band between groups while that lowers the
    number of repeat pairings from earlier weeks."""
    met = met or {}
    sizes = group_sizes(len(ranked), options)
    groups: list[list[PlayerId]] = [[] for _ in sizes]
    band = 0
    queue = list(ranked)
    while queue:
        order = range(len(sizes)) if band % 2 == 0 else range(len(sizes) - 1, -1, -1)
        for index in order:
            if queue and len(groups[index]) < sizes[index]:
                groups[index].append(queue.pop(0))
        band += 1
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(groups)), 2):
            for slot in range(min(len(groups[a]), len(groups[b]))):
                before = repeat_pairings([tuple(groups[a]), tuple(groups[b])], met)
                groups[a][slot], groups[b][slot] = groups[b][slot], groups[a][slot]
                if repeat_pairings([tuple(groups[a]), tuple(groups[b])], met) < before:
                    improved = True
                else:
                    groups[a][slot], groups[b][slot] = groups[b][slot], groups[a][slot]
    return [tuple(group) for group in groups]


class PlayMode(StrEnum):
    """FIELD-ATT-1: how a player's five games are played."""

    GROUP = "group"
    SINGLE_PLAYER = "single_player"


@dataclass(frozen=True)
class Placement:
    groups: tuple[Group, ...]
    mode: PlayMode
    group_index: int | None  # None: single-player games
    displaced_guest: PlayerId | None = None  # FIELD-AMB-11: a guest moved to single-player play


def join_group(group: Group, player: PlayerId, options: FieldOptions) -> Group:
    """FIELD-ATT-1: refuse a fifth player in a group."""
    if len(group) >= options.max_group:
        raise RuleViolation("FIELD-ATT-1", f"Group is full ({options.max_group}). Pick a group with an open spot.")
    return (*group, player)


def place_late_arrival(
    groups: Sequence[Group], player: PlayerId, options: FieldOptions, guests: Iterable[PlayerId] = ()
) -> Placement:
    """FIELD-ATT-1: a late member joins the smallest open group; if every group is full, a guest makes room
    (FIELD-AMB-11), otherwise the member plays single-player games."""
    open_groups = [i for i, group in enumerate(groups) if len(group) < options.max_group]
    if open_groups:
        index = min(open_groups, key=lambda i: (len(groups[i]), i))
        updated = list(groups)
        updated[index] = join_group(groups[index], player, options)
        return Placement(tuple(updated), PlayMode.GROUP, index)
    guest_set = set(guests)
    for index, group in enumerate(groups):
        for member in group:
            if member in guest_set:
                updated = list(groups)
                updated[index] = tuple(player if p == member else p for p in group)
                return Placement(tuple(updated), PlayMode.GROUP, index, displaced_guest=member)
    return Placement(tuple(groups), PlayMode.SINGLE_PLAYER, None)


def place_guest(groups: Sequence[Group], guest: PlayerId, options: FieldOptions) -> Placement:
    """FIELD-AMB-11: guests are placed after all members, only into groups with fewer than 4 players."""
    return place_late_arrival(groups, guest, options)


def suggested_orders(group: Group, machines: Sequence[MachineId]) -> dict[MachineId, Group]:
    """FIELD-GROUP-3: a player order per machine, rotating so each player plays each position about
    equally often."""
    size = len(group)
    return {m: tuple(group[(i + k) % size] for k in range(size)) for i, m in enumerate(machines)} if size else {}
